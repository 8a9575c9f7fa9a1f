// Profile import: format detection, the eqfuse format, and what every
// graph-joined importer shares: the join of profiled ops to graph call
// nodes, notes, CSV reading (docs/profile-import.md).
#include "cost/profile_import.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "cost/profile_import_internal.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace profile_import {
namespace {

// The first `n` lines that are neither blank nor '#' comments.
std::vector<std::string_view> leading_lines(std::string_view text, size_t n) {
  std::vector<std::string_view> out;
  while (!text.empty() && out.size() < n) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    std::string_view t = trim_blanks(line);
    if (!t.empty() && t.front() != '#') out.push_back(t);
  }
  return out;
}

bool has_all(std::string_view line, std::initializer_list<std::string_view> parts) {
  return std::all_of(parts.begin(), parts.end(),
                     [&](std::string_view p) { return line.find(p) != std::string_view::npos; });
}

// Header fields of a CSV line, unquoted and trimmed (detection only).
std::vector<std::string> header_fields(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back(trim_blanks(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.emplace_back(trim_blanks(cur));
  return out;
}

bool has_fields(const std::vector<std::string>& fields,
                std::initializer_list<std::string_view> names) {
  return std::all_of(names.begin(), names.end(), [&](std::string_view n) {
    return std::find(fields.begin(), fields.end(), n) != fields.end();
  });
}

bool dims_equal(const Dims& node, const Dims& event) {
  if (node.size() != event.size()) return false;
  for (size_t i = 0; i < node.size(); ++i)
    if (node[i] != kAnyDim && node[i] != event[i]) return false;
  return true;
}

bool dims_lists_equal(const std::vector<Dims>& node, const std::vector<Dims>& event) {
  return node.size() == event.size() &&
         std::equal(node.begin(), node.end(), event.begin(), dims_equal);
}

// Ordered, else as a multiset: kernels may take a node's inputs in another
// order (MatMulV2 takes the bias last, addmm first).
bool same_inputs(std::vector<Dims> node, std::vector<Dims> event) {
  if (dims_lists_equal(node, event)) return true;
  std::sort(node.begin(), node.end());
  std::sort(event.begin(), event.end());
  return dims_lists_equal(node, event);
}

// A registered call node with what the join compares.
struct CallNode {
  NodeRef ref;
  std::string target;
  std::vector<Dims> dims, dims_before_views;
  bool free = false;  // a view or metadata op (launches no kernel)
};

std::vector<CallNode> call_nodes(const Graph& g, const OpRegistry& reg) {
  std::vector<CallNode> out;
  for (size_t i = 0; i < g.size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    const Node& n = g.node(r);
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    const OpInfo& info = reg.info(n.op);
    out.push_back({r, info.schema.qualified_name(), tensor_input_dims(g, r),
                   tensor_input_dims_before_views(g, r, reg), info.traits.kind == OpKind::Free});
  }
  return out;
}

bool matches(const CallNode& n, const ProfileEvent& e) {
  bool op = std::any_of(e.ops.begin(), e.ops.end(),
                        [&](const std::string& name) { return op_name_matches(name, n.target); });
  return op && (same_inputs(n.dims, e.dims) || same_inputs(n.dims_before_views, e.dims));
}

[[noreturn]] void fail_no_match(const std::vector<ProfileEvent>& events, const Graph& g,
                                std::string_view origin) {
  throw Error(fmt::format("no profile event matched a call node of graph '{}' ({} events; "
                          "first: {}): is this the profile of that graph?",
                          graph_stem(g), events.size(),
                          events.empty() ? std::string("none") : events.front().what),
              SourceLoc{std::string(origin)});
}

void note_unmatched_nodes(const std::vector<CallNode>& nodes, const std::vector<bool>& matched,
                          const Graph& g, std::vector<std::string>& notes) {
  SkipCount unmatched("graph call nodes (views not counted) had no profile event");
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!matched[i] && !nodes[i].free) unmatched.add(g.node(nodes[i].ref).name);
  unmatched.report(notes);
}

}  // namespace

void SkipCount::report(std::vector<std::string>& notes) const {
  if (count_ > 0) notes.push_back(fmt::format("{} {} (first: {})", count_, reason_, first_));
}

const Graph& require_graph(const ImportOptions& options, ProfileFormat format) {
  if (options.graph == nullptr || options.registry == nullptr)
    throw Error(
        fmt::format("a {} profile is joined to the FX graph that was profiled: give the "
                    "graph and an op registry",
                    profile_format_name(format)));
  return *options.graph;
}

bool op_name_matches(std::string_view name, std::string_view target) {
  if (name == target) return true;
  // An overload-less name: "aten::add" for "aten::add.Tensor".
  size_t ns = name.find("::");
  if (ns == std::string_view::npos || name.find('.', ns) != std::string_view::npos) return false;
  return target.size() > name.size() && target.starts_with(name) && target[name.size()] == '.';
}

ImportResult join_in_order(const std::vector<ProfileEvent>& events, const ImportOptions& options,
                           ProfileFormat format, std::string_view origin,
                           std::vector<std::string> notes) {
  const Graph& g = require_graph(options, format);
  const OpRegistry& reg = *options.registry;
  std::vector<CallNode> nodes = call_nodes(g, reg);
  // samples[i]: the times of node i's events; first[i]: its first event.
  std::vector<std::vector<double>> samples(nodes.size());
  std::vector<const ProfileEvent*> first(nodes.size(), nullptr);
  std::vector<bool> matched(nodes.size(), false);
  SkipCount no_node("profile events matched no graph node");
  SkipCount no_kernel(fmt::format("matched ops launched no kernel: no time in {} mode",
                                  exec_mode_name(options.mode)));
  size_t cursor = 0, wraps = 0, joined = 0;
  for (const ProfileEvent& e : events) {
    // Forward from the last match; wrapping round starts the next iteration.
    std::optional<size_t> hit;
    for (size_t k = 0; k < nodes.size() && !hit; ++k) {
      size_t i = (cursor + k) % nodes.size();
      if (matches(nodes[i], e)) hit = i;
    }
    if (!hit) {
      no_node.add(e.what);
      continue;
    }
    if (*hit < cursor) ++wraps;
    cursor = *hit + 1;
    ++joined;
    matched[*hit] = true;
    if (!first[*hit]) first[*hit] = &e;
    if (e.us)
      samples[*hit].push_back(*e.us);
    else
      no_kernel.add(fmt::format("{} ({})", g.node(nodes[*hit].ref).name, e.what));
  }
  if (joined == 0) fail_no_match(events, g, origin);

  ImportResult r;
  r.format = format;
  const std::string stem = graph_stem(g);
  size_t averaged = 0, most = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (samples[i].empty()) continue;
    double sum = 0;
    for (double s : samples[i]) sum += s;
    Measurement m = measurement_for_node(g, nodes[i].ref, reg, stem);
    m.mode = options.mode;
    m.measured_us = sum / static_cast<double>(samples[i].size());
    m.where = first[i]->where;
    if (samples[i].size() > 1) ++averaged;
    most = std::max(most, samples[i].size());
    if (m.measured_us > 0) r.rows.push_back(std::move(m));
  }
  no_node.report(notes);
  no_kernel.report(notes);
  note_unmatched_nodes(nodes, matched, g, notes);
  if (averaged > 0)
    notes.push_back(
        fmt::format("{} nodes were timed in several iterations ({} passes over the "
                    "graph): each row is the mean of up to {} samples",
                    averaged, wraps + 1, most));
  r.notes = std::move(notes);
  return r;
}

ImportResult join_by_signature(const std::vector<ProfileEvent>& events,
                               const ImportOptions& options, ProfileFormat format,
                               std::string_view origin, std::vector<std::string> notes) {
  const Graph& g = require_graph(options, format);
  const OpRegistry& reg = *options.registry;
  std::vector<CallNode> nodes = call_nodes(g, reg);
  std::vector<bool> matched(nodes.size(), false);
  SkipCount no_node("profile rows matched no graph node");
  SkipCount no_kernel(fmt::format("matched rows launched no kernel: no time in {} mode",
                                  exec_mode_name(options.mode)));
  ImportResult r;
  r.format = format;
  const std::string stem = graph_stem(g);
  std::map<std::pair<std::string, std::vector<std::string>>, size_t> seen;  // -> row index
  bool any = false;
  for (const ProfileEvent& e : events) {
    bool hit = false;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!matches(nodes[i], e)) continue;
      hit = true;
      matched[i] = true;
      if (!e.us) {
        no_kernel.add(fmt::format("{} ({})", g.node(nodes[i].ref).name, e.what));
        continue;
      }
      Measurement m = measurement_for_node(g, nodes[i].ref, reg, stem);
      if (!seen.emplace(std::pair{m.op, m.inputs}, r.rows.size()).second) continue;
      m.mode = options.mode;
      m.measured_us = *e.us;
      m.where = e.where;
      if (m.measured_us > 0) r.rows.push_back(std::move(m));
    }
    if (!hit) no_node.add(e.what);
    any = any || hit;
  }
  if (!any) fail_no_match(events, g, origin);
  no_node.report(notes);
  no_kernel.report(notes);
  note_unmatched_nodes(nodes, matched, g, notes);
  r.notes = std::move(notes);
  return r;
}

std::optional<double> parse_duration_field(const CsvRow& row, int index, std::string_view column,
                                           std::string_view origin) {
  if (index < 0 || static_cast<size_t>(index) >= row.fields.size()) return std::nullopt;
  const std::string& s = row.fields[static_cast<size_t>(index)];
  if (s.empty() || s == "N/A" || s == "NA" || s == "-") return std::nullopt;
  SourceLoc at{std::string(origin), row.line, row.columns[static_cast<size_t>(index)]};
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    throw Error(fmt::format("column '{}': '{}' is not a number", column, s), at, row.text);
  if (!std::isfinite(v) || v < 0)
    throw Error(
        fmt::format("column '{}': a duration must be a finite number >= 0, got {}", column, s), at,
        row.text);
  return v;
}

}  // namespace profile_import

std::string_view profile_format_name(ProfileFormat f) {
  switch (f) {
    case ProfileFormat::EqfuseMeasurements:
      return "eqfuse-measurements";
    case ProfileFormat::TorchProfilerTrace:
      return "torch-trace";
    case ProfileFormat::TorchKeyAverages:
      return "torch-key-averages";
    case ProfileFormat::MsprofOpSummary:
      return "msprof-op-summary";
    case ProfileFormat::MsprofKernelDetails:
      return "msprof-kernel-details";
  }
  return "?";
}

ProfileFormat detect_profile_format(std::string_view text, std::string_view origin) {
  using namespace profile_import;
  text = strip_utf8_bom(text);
  std::string_view body = trim_blanks(text);
  while (!body.empty() && (body.front() == '\n')) body = trim_blanks(body.substr(1));
  if (!body.empty() && body.front() == '[') return ProfileFormat::EqfuseMeasurements;
  if (!body.empty() && body.front() == '{') {
    // A key near the top is enough; the importer parses (and checks) the rest.
    if (body.find("\"traceEvents\"") != std::string_view::npos)
      return ProfileFormat::TorchProfilerTrace;
    if (body.find("\"measurements\"") != std::string_view::npos)
      return ProfileFormat::EqfuseMeasurements;
  } else {
    for (std::string_view line : leading_lines(text, 5))
      if (has_all(line, {"Name", "# of Calls"}) &&
          (has_all(line, {"CPU total"}) || has_all(line, {"Self CPU"})))
        return ProfileFormat::TorchKeyAverages;
    std::vector<std::string_view> first = leading_lines(text, 1);
    if (!first.empty()) {
      std::vector<std::string> fields = header_fields(first.front());
      if (has_fields(fields, {"OP Type"}) &&
          (has_fields(fields, {"Task Duration(us)"}) || has_fields(fields, {"Task Duration"})))
        return ProfileFormat::MsprofOpSummary;
      if (has_fields(fields, {"Type", "Duration(us)", "Name"}))
        return ProfileFormat::MsprofKernelDetails;
      if (has_fields(fields, {"op", "inputs", "mode", "measured_us"}))
        return ProfileFormat::EqfuseMeasurements;
    }
  }
  throw Error(fmt::format("not a profile format eqfuse reads; known: eqfuse measurements "
                          "(CSV op,inputs,mode,measured_us or JSON \"measurements\"), "
                          "torch.profiler Chrome trace (JSON \"traceEvents\"), torch.profiler "
                          "key_averages table (group_by_input_shape=True), msprof "
                          "op_summary_*.csv, torch_npu kernel_details.csv"),
              SourceLoc{std::string(origin), 1, 1});
}

ImportResult import_measurements(std::string_view text, std::string_view origin,
                                 const ImportOptions& options) {
  using namespace profile_import;
  ProfileFormat format = detect_profile_format(text, origin);
  switch (format) {
    case ProfileFormat::EqfuseMeasurements:
      return {parse_measurements(text, origin), {}, format};
    case ProfileFormat::TorchProfilerTrace:
      return import_torch_trace(text, origin, options);
    case ProfileFormat::TorchKeyAverages:
      return import_key_averages(text, origin, options);
    case ProfileFormat::MsprofOpSummary:
    case ProfileFormat::MsprofKernelDetails:
      return import_msprof_csv(text, origin, options, format);
  }
  return {};
}

ImportResult import_measurements_file(const std::string& path, const ImportOptions& options) {
  return import_measurements(read_file_or_stdin(path), path, options);
}

}  // namespace eqfuse
