// torch.profiler importers: the Chrome trace (export_chrome_trace with
// record_shapes=True) and the key_averages(group_by_input_shape=True)
// table (docs/profile-import.md, "torch.profiler").
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "cost/profile_import_internal.hpp"

namespace eqfuse::profile_import {
namespace {

using Json = nlohmann::json;

[[noreturn]] void json_fail(std::string_view origin, const std::string& path, std::string msg) {
  throw Error(fmt::format("{}: {}", path, msg), SourceLoc{std::string(origin)});
}

// Shapes of a recorded input list ("Input Dims", "Input Shapes"): one
// entry per argument; a list of ints is a tensor, a list of lists a tensor
// list, [] a non-tensor (or a rank-0 tensor: the two read the same).
void collect_shapes(const Json& entry, std::vector<Dims>& out) {
  if (!entry.is_array() || entry.empty()) return;
  if (std::all_of(entry.begin(), entry.end(),
                  [](const Json& d) { return d.is_number_integer(); })) {
    Dims d;
    for (const Json& x : entry) d.push_back(x.get<int64_t>());
    out.push_back(std::move(d));
    return;
  }
  for (const Json& item : entry) collect_shapes(item, out);
}

std::vector<Dims> shapes_of(const Json& inputs) {
  std::vector<Dims> out;
  for (const Json& entry : inputs) collect_shapes(entry, out);
  return out;
}

// The time the model's measured_us stands for (docs: "Timing per mode").
std::optional<double> time_for_mode(ExecMode mode, double host_us, double device_us,
                                    bool launched) {
  if (mode == ExecMode::Eager) return std::max(host_us, device_us);
  if (!launched) return std::nullopt;
  return device_us;
}

// ---- Chrome trace ----------------------------------------------------

struct Span {
  size_t index = 0;  // into traceEvents
  double ts = 0, dur = 0;
  double end() const { return ts + dur; }
};

// Microsecond timestamps printed with three decimals: containment allows
// a rounding's slack.
constexpr double kSlackUs = 1e-3;

double number_at(const Json& ev, const char* key, std::string_view origin, size_t i) {
  const std::string path = fmt::format("traceEvents[{}].{}", i, key);
  if (!ev.contains(key) || !ev.at(key).is_number()) json_fail(origin, path, "expected a number");
  double v = ev.at(key).get<double>();
  if (!std::isfinite(v)) json_fail(origin, path, "not a finite number");
  return v;
}

// An event's optional string field: "" when absent, an error naming the
// field when present but not a string (a fuzz finding: `"ph": 1030` threw
// out of the importer as a JSON type error).
std::string string_at(const Json& ev, const char* key, std::string_view origin, size_t i) {
  if (!ev.contains(key)) return {};
  if (!ev.at(key).is_string())
    json_fail(origin, fmt::format("traceEvents[{}].{}", i, key), "expected a string");
  return ev.at(key).get<std::string>();
}

std::string thread_of(const Json& ev) {
  return ev.value("pid", Json()).dump() + "/" + ev.value("tid", Json()).dump();
}

std::optional<int64_t> int_arg(const Json& ev, const char* key) {
  if (!ev.contains("args") || !ev.at("args").is_object()) return std::nullopt;
  const Json& args = ev.at("args");
  if (!args.contains(key) || !args.at(key).is_number_integer()) return std::nullopt;
  return args.at(key).get<int64_t>();
}

// The top-level op (of spans sorted by start, non-overlapping) holding `t`.
const Span* holder(const std::vector<Span>& tops, double ts, double end) {
  auto it = std::upper_bound(tops.begin(), tops.end(), ts + kSlackUs,
                             [](double t, const Span& s) { return t < s.ts; });
  if (it == tops.begin()) return nullptr;
  --it;
  return end <= it->end() + kSlackUs ? &*it : nullptr;
}

struct TraceOps {
  std::map<std::string, std::vector<Span>> tops;  // top-level cpu_ops per thread
  std::map<size_t, size_t> top_of;                // cpu_op index -> its top-level op's index
};

// Nesting by time, per thread: an op inside another's interval is its child.
TraceOps top_level_ops(const std::map<std::string, std::vector<Span>>& ops) {
  TraceOps t;
  for (auto [thread, spans] : ops) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
    });
    std::optional<Span> open;  // the current top-level op
    for (const Span& s : spans) {
      if (open && s.end() <= open->end() + kSlackUs) {
        t.top_of[s.index] = open->index;
        continue;
      }
      t.tops[thread].push_back(s);
      open = s;
      t.top_of[s.index] = s.index;
    }
  }
  return t;
}

}  // namespace

ImportResult import_torch_trace(std::string_view text, std::string_view origin,
                                const ImportOptions& options) {
  require_graph(options, ProfileFormat::TorchProfilerTrace);
  const Json doc = parse_json_text(text, origin);
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc.at("traceEvents").is_array())
    json_fail(origin, "traceEvents", "expected an array of trace events");
  const Json& events = doc.at("traceEvents");

  std::map<std::string, std::vector<Span>> cpu_ops;  // per thread
  std::map<int64_t, size_t> by_external_id;          // cpu_op "External id" -> index
  std::vector<Span> runtime, kernels;
  SkipCount no_dims("torch ops without \"Input Dims\" (profile with record_shapes=True)");
  for (size_t i = 0; i < events.size(); ++i) {
    const Json& ev = events[i];
    if (!ev.is_object()) json_fail(origin, fmt::format("traceEvents[{}]", i), "expected an object");
    if (string_at(ev, "ph", origin, i) != "X") continue;
    const std::string cat = string_at(ev, "cat", origin, i);
    bool is_op = cat == "cpu_op", is_runtime = cat == "cuda_runtime" || cat == "cuda_driver";
    bool is_kernel = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset";
    if (!is_op && !is_runtime && !is_kernel) continue;
    Span s{i, number_at(ev, "ts", origin, i), number_at(ev, "dur", origin, i)};
    if (s.dur < 0)
      json_fail(origin, fmt::format("traceEvents[{}].dur", i),
                fmt::format("negative duration {}", s.dur));
    if (is_op) {
      cpu_ops[thread_of(ev)].push_back(s);
      if (auto id = int_arg(ev, "External id")) by_external_id.emplace(*id, i);
    } else if (is_runtime) {
      runtime.push_back(s);
    } else {
      kernels.push_back(s);
    }
  }
  TraceOps ops = top_level_ops(cpu_ops);

  // Kernels to their top-level op: through the launching runtime call (same
  // "correlation", inside the op by time), else the op's "External id".
  std::map<int64_t, size_t> launch_top;  // correlation -> top-level op index
  for (const Span& r : runtime) {
    auto corr = int_arg(events[r.index], "correlation");
    auto it = ops.tops.find(thread_of(events[r.index]));
    if (!corr || it == ops.tops.end()) continue;
    if (const Span* top = holder(it->second, r.ts, r.end())) launch_top[*corr] = top->index;
  }
  std::map<size_t, std::pair<double, int>> device;  // top-level op -> (kernel µs, kernels)
  SkipCount orphan("device kernels could not be tied to a torch op");
  for (const Span& k : kernels) {
    std::optional<size_t> top;
    if (auto corr = int_arg(events[k.index], "correlation"); corr && launch_top.contains(*corr))
      top = launch_top.at(*corr);
    else if (auto id = int_arg(events[k.index], "External id"); id && by_external_id.contains(*id))
      top = ops.top_of.at(by_external_id.at(*id));
    if (!top) {
      const std::string name = string_at(events[k.index], "name", origin, k.index);
      orphan.add(fmt::format("{} (traceEvents[{}])", name.empty() ? "?" : name, k.index));
      continue;
    }
    device[*top].first += k.dur;
    device[*top].second += 1;
  }

  std::vector<Span> tops;
  for (const auto& [thread, spans] : ops.tops) tops.insert(tops.end(), spans.begin(), spans.end());
  std::stable_sort(tops.begin(), tops.end(),
                   [](const Span& a, const Span& b) { return a.ts < b.ts; });
  std::vector<ProfileEvent> joined;
  for (const Span& s : tops) {
    const Json& ev = events[s.index];
    std::string name = string_at(ev, "name", origin, s.index);
    std::string what = fmt::format("{} ({} traceEvents[{}])", name, origin, s.index);
    const Json& args = ev.contains("args") ? ev.at("args") : Json::object();
    if (!args.is_object() || !args.contains("Input Dims") || !args.at("Input Dims").is_array()) {
      no_dims.add(what);
      continue;
    }
    auto [device_us, launched] = device.contains(s.index) ? device.at(s.index) : std::pair{0.0, 0};
    joined.push_back({.ops = {name},
                      .dims = shapes_of(args.at("Input Dims")),
                      .us = time_for_mode(options.mode, s.dur, device_us, launched > 0),
                      .what = what,
                      .where = SourceLoc{std::string(origin)}});
  }
  std::vector<std::string> notes;
  no_dims.report(notes);
  orphan.report(notes);
  return join_in_order(joined, options, ProfileFormat::TorchProfilerTrace, origin,
                       std::move(notes));
}

// ---- key_averages table ----------------------------------------------

namespace {

bool is_rule(std::string_view line) {
  line = trim_blanks(line);
  return !line.empty() && line.find_first_not_of("- ") == std::string_view::npos;
}

struct ColumnSpan {
  std::string name;
  size_t begin = 0, end = 0;
};

struct Cell {
  std::string text;
  size_t begin = 0;  // 0-based character column
};

// The cells of a table line. torch pads every column to its width and puts
// two spaces between columns, but a wider value (the 13-character header
// "CUDA time avg" in a 12-wide column) pushes the rest of its line right.
// So: split at runs of two or more spaces (no cell holds two spaces in a
// row) when that gives one cell per column, else cut at the rule's columns.
std::vector<Cell> cells_of(const std::string& line, const std::vector<ColumnSpan>& cols) {
  std::vector<Cell> split;
  for (size_t i = line.find_first_not_of(' '); i != std::string::npos;) {
    size_t end = line.find("  ", i);
    if (end == std::string::npos) end = line.size();
    split.push_back({std::string(trim_blanks(std::string_view(line).substr(i, end - i))), i});
    i = line.find_first_not_of(' ', end);
  }
  if (split.size() == cols.size()) return split;
  std::vector<Cell> cut;
  for (const ColumnSpan& c : cols) {
    std::string_view part =
        c.begin < line.size() ? std::string_view(line).substr(c.begin, c.end - c.begin) : "";
    cut.push_back({std::string(trim_blanks(part)), c.begin});
  }
  return cut;
}

// "12.345us", "1.2ms", "0.5s" -> µs.
double parse_time(std::string_view s, const SourceLoc& at, const std::string& line,
                  std::string_view column) {
  std::string t(trim_blanks(s));
  double scale = 1;
  if (t.ends_with("us")) {
    t.resize(t.size() - 2);
  } else if (t.ends_with("ms")) {
    t.resize(t.size() - 2);
    scale = 1e3;
  } else if (t.ends_with("s")) {
    t.resize(t.size() - 1);
    scale = 1e6;
  }
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size())
    throw Error(fmt::format("column '{}': '{}' is not a time (like 12.5us, 1.2ms)", column, s), at,
                line);
  if (!std::isfinite(v) || v < 0)
    throw Error(fmt::format("column '{}': a time must be a finite number >= 0, got '{}'", column,
                            trim_blanks(s)),
                at, line);
  return v * scale;
}

}  // namespace

ImportResult import_key_averages(std::string_view text, std::string_view origin,
                                 const ImportOptions& options) {
  require_graph(options, ProfileFormat::TorchKeyAverages);
  std::vector<std::string> lines;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = std::min(text.find('\n', pos), text.size());
    std::string line(text.substr(pos, end - pos));
    if (line.ends_with('\r')) line.pop_back();
    lines.push_back(std::move(line));
    pos = end + 1;
  }
  // The header sits between two rules; the rule's dash runs are the columns.
  size_t header = 0;
  while (header < lines.size() && !(lines[header].find("# of Calls") != std::string::npos &&
                                    header > 0 && is_rule(lines[header - 1])))
    ++header;
  if (header == lines.size())
    throw Error("no table header (a 'Name ... # of Calls' line under a dashed rule)",
                SourceLoc{std::string(origin), 1, 1});
  const std::string& rule = lines[header - 1];
  std::vector<ColumnSpan> cols;
  for (size_t i = 0; i < rule.size();) {
    if (rule[i] != '-') {
      ++i;
      continue;
    }
    size_t j = rule.find_first_not_of('-', i);
    if (j == std::string::npos) j = rule.size();
    cols.push_back({"", i, j});
    i = j;
  }
  std::vector<Cell> names = cells_of(lines[header], cols);
  for (size_t c = 0; c < cols.size(); ++c) cols[c].name = names[c].text;
  auto find_col = [&](auto pred) -> int {
    for (size_t c = 0; c < cols.size(); ++c)
      if (pred(cols[c].name)) return static_cast<int>(c);
    return -1;
  };
  int name_col = find_col([](const std::string& n) { return n == "Name"; });
  int cpu_col = find_col([](const std::string& n) { return n == "CPU time avg"; });
  int dev_col = find_col(
      [](const std::string& n) { return n.ends_with(" time avg") && n != "CPU time avg"; });
  int shapes_col = find_col([](const std::string& n) { return n == "Input Shapes"; });
  SourceLoc header_at{std::string(origin), static_cast<int>(header) + 1, 1};
  if (name_col < 0 || cpu_col < 0)
    throw Error("table header lacks 'Name' or 'CPU time avg'", header_at, lines[header]);
  if (shapes_col < 0)
    throw Error("table has no 'Input Shapes' column: print key_averages(group_by_input_shape=True)",
                header_at, lines[header]);
  if (dev_col < 0 && options.mode != ExecMode::Eager)
    throw Error(fmt::format("table has no device time column ('CUDA time avg' / 'NPU time avg'): "
                            "nothing to time {} mode with",
                            exec_mode_name(options.mode)),
                header_at, lines[header]);

  std::vector<ProfileEvent> events;
  SkipCount bad_shapes("table rows with truncated or unreadable input shapes");
  size_t row = header + 1;
  if (row < lines.size() && is_rule(lines[row])) ++row;
  for (; row < lines.size() && !is_rule(lines[row]); ++row) {
    const std::string& line = lines[row];
    if (trim_blanks(line).empty()) break;
    std::vector<Cell> cells = cells_of(line, cols);
    auto field = [&](int c) { return cells[static_cast<size_t>(c)].text; };
    auto at = [&](int c) {
      return SourceLoc{std::string(origin), static_cast<int>(row) + 1,
                       static_cast<int>(cells[static_cast<size_t>(c)].begin) + 1};
    };
    std::string name = field(name_col);
    std::string what = fmt::format("{} ({}:{})", name, origin, row + 1);
    double cpu = parse_time(field(cpu_col), at(cpu_col), line, "CPU time avg");
    double dev = dev_col < 0 ? 0
                             : parse_time(field(dev_col), at(dev_col), line,
                                          cols[static_cast<size_t>(dev_col)].name);
    Json shapes = Json::parse(field(shapes_col), nullptr, /*allow_exceptions=*/false);
    if (shapes.is_discarded() || !shapes.is_array()) {
      bad_shapes.add(what);
      continue;
    }
    events.push_back({.ops = {name},
                      .dims = shapes_of(shapes),
                      .us = time_for_mode(options.mode, cpu, dev, dev > 0),
                      .what = what,
                      .where = SourceLoc{std::string(origin), static_cast<int>(row) + 1, 0}});
  }
  std::vector<std::string> notes;
  bad_shapes.report(notes);
  return join_by_signature(events, options, ProfileFormat::TorchKeyAverages, origin,
                           std::move(notes));
}

}  // namespace eqfuse::profile_import
