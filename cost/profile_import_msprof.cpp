// Ascend importers: msprof's op_summary_*.csv and torch_npu's
// kernel_details.csv, kernels mapped to FX ops by the kernel-type table
// cost/kernel_types.txt (docs/profile-import.md, "Ascend msprof").
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "base/embedded.hpp"
#include "cost/profile_import_internal.hpp"
#include "graph/io/load.hpp"

namespace eqfuse::profile_import {
namespace {

// What a kernel type stands for.
struct KernelType {
  enum class Kind { Ops, Fold, Skip } kind = Kind::Ops;
  std::vector<std::string> ops;
};
using KernelTypes = std::map<std::string, KernelType, std::less<>>;

// Whether `name` is a registered op or, without an overload, names some.
bool known_op(std::string_view name, const OpRegistry& reg) {
  if (reg.find(name)) return true;
  return std::any_of(reg.all().begin(), reg.all().end(), [&](const OpInfo& info) {
    return op_name_matches(name, info.schema.qualified_name());
  });
}

void read_kernel_types(std::string_view text, std::string_view origin, const OpRegistry* reg,
                       KernelTypes& out) {
  int line_no = 0;
  std::istringstream in{std::string(text)};
  std::string raw;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim_blanks(raw);
    if (size_t hash = line.find('#'); hash != std::string_view::npos)
      line = trim_blanks(line.substr(0, hash));
    if (line.empty()) continue;
    auto fail = [&](const std::string& msg) -> void {
      throw Error(msg, SourceLoc{std::string(origin), line_no, 1}, raw);
    };
    size_t arrow = line.find("->");
    if (arrow == std::string_view::npos) fail("expected '<kernel type> -> <op> | <op> ...'");
    std::string type(trim_blanks(line.substr(0, arrow)));
    std::string_view rhs = trim_blanks(line.substr(arrow + 2));
    if (type.empty() || type.find_first_of(" \t") != std::string::npos)
      fail(fmt::format("'{}' is not a kernel type name (one word)", type));
    KernelType k;
    if (rhs == "(fold)") {
      k.kind = KernelType::Kind::Fold;
    } else if (rhs == "(skip)") {
      k.kind = KernelType::Kind::Skip;
    } else {
      while (true) {
        size_t bar = rhs.find('|');
        std::string op(trim_blanks(rhs.substr(0, bar)));
        if (op.find("::") == std::string::npos || op.find_first_of(" \t(") != std::string::npos)
          fail(fmt::format("'{}' is not a qualified op name (like aten::mm), '(fold)' or '(skip)'",
                           op));
        if (reg && !known_op(op, *reg)) fail(fmt::format("op '{}' is not in the op registry", op));
        k.ops.push_back(std::move(op));
        if (bar == std::string_view::npos) break;
        rhs = rhs.substr(bar + 1);
      }
    }
    out[type] = std::move(k);
  }
}

KernelTypes kernel_types(const ImportOptions& options) {
  KernelTypes types;
  for (const EmbeddedFile& f : eqfuse_kernel_types())
    read_kernel_types(f.contents, f.path, options.registry, types);
  for (const std::string& path : options.kernel_type_files)
    read_kernel_types(read_file_or_stdin(path), path, options.registry, types);
  return types;
}

// The columns each CSV is read by (docs/profile-import.md lists them).
struct Columns {
  const char* type;
  const char* duration;
  const char* wait;
  const char* start;
  const char* shapes;
  const char* name;
};
constexpr Columns kOpSummary{
    "OP Type", "Task Duration(us)", "Task Wait Time(us)", "Task Start Time(us)", "Input Shapes",
    "Op Name"};
constexpr Columns kKernelDetails{"Type",           "Duration(us)", "Wait Time(us)",
                                 "Start Time(us)", "Input Shapes", "Name"};

// "16,128;128,128" -> {{16, 128}, {128, 128}}; empty entries are scalars.
std::optional<std::vector<Dims>> parse_shapes(std::string_view text) {
  std::vector<Dims> out;
  std::string s(text);
  std::erase(s, '"');
  std::stringstream inputs(s);
  std::string input;
  while (std::getline(inputs, input, ';')) {
    if (trim_blanks(input).empty()) continue;
    Dims d;
    std::stringstream dims(input);
    std::string dim;
    while (std::getline(dims, dim, ',')) {
      std::string t(trim_blanks(dim));
      char* end = nullptr;
      long long v = std::strtoll(t.c_str(), &end, 10);
      if (t.empty() || end != t.c_str() + t.size()) return std::nullopt;
      d.push_back(v);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string field_or(const CsvRow& row, int index, std::string_view fallback = "") {
  if (index < 0 || static_cast<size_t>(index) >= row.fields.size()) return std::string(fallback);
  return row.fields[static_cast<size_t>(index)];
}

}  // namespace

ImportResult import_msprof_csv(std::string_view text, std::string_view origin,
                               const ImportOptions& options, ProfileFormat format) {
  require_graph(options, format);
  const Columns& c = format == ProfileFormat::MsprofOpSummary ? kOpSummary : kKernelDetails;
  const KernelTypes types = kernel_types(options);
  CsvTable t = read_csv(text, origin);
  if (t.header.empty()) throw Error("empty CSV file: no header line", {std::string(origin)});
  int type_col = t.column(c.type), dur_col = t.column(c.duration), wait_col = t.column(c.wait);
  int start_col = t.column(c.start), shapes_col = t.column(c.shapes), name_col = t.column(c.name);
  // Older msprof versions write the column names without "(us)".
  if (format == ProfileFormat::MsprofOpSummary) {
    if (dur_col < 0) dur_col = t.column("Task Duration");
    if (wait_col < 0) wait_col = t.column("Task Wait Time");
  }
  for (auto [col, name] : {std::pair{type_col, c.type}, std::pair{dur_col, c.duration},
                           std::pair{shapes_col, c.shapes}})
    if (col < 0)
      throw Error(fmt::format("header lacks column '{}' (a {} file needs '{}', '{}', '{}')", name,
                              profile_format_name(format), c.type, c.duration, c.shapes),
                  SourceLoc{std::string(origin), t.header_line, 1}, t.header_text);

  // A kernel with what the join needs; start orders them.
  struct Kernel {
    ProfileEvent event;
    double start = 0;
    bool fold = false;
  };
  std::vector<Kernel> kernels;
  SkipCount unknown_type("kernels of a type not in the kernel-type table");
  SkipCount skipped_type("kernels of a type the table marks (skip)");
  SkipCount no_time("kernels without a duration (N/A)");
  SkipCount bad_shapes("kernels with unreadable input shapes");
  SkipCount capped(
      fmt::format("gaps before a kernel longer than {} us counted as {} us (host "
                  "stalls, step boundaries)",
                  options.max_wait_us, options.max_wait_us));
  std::map<std::string, size_t> unknown_types;
  for (const CsvRow& row : t.rows) {
    std::string type = field_or(row, type_col);
    std::string what =
        fmt::format("{} {} ({}:{})", type, field_or(row, name_col), origin, row.line);
    auto it = types.find(type);
    if (it == types.end()) {
      unknown_type.add(what);
      ++unknown_types[type];
      continue;
    }
    if (it->second.kind == KernelType::Kind::Skip) {
      skipped_type.add(what);
      continue;
    }
    std::optional<double> dur = parse_duration_field(row, dur_col, c.duration, origin);
    std::optional<double> wait = parse_duration_field(row, wait_col, c.wait, origin);
    if (!dur) {
      no_time.add(what);
      continue;
    }
    auto shapes = parse_shapes(field_or(row, shapes_col));
    if (!shapes) {
      bad_shapes.add(what);
      continue;
    }
    double gap = wait.value_or(0);
    if (gap > options.max_wait_us) {
      capped.add(what);
      gap = options.max_wait_us;
    }
    std::optional<double> start = parse_duration_field(row, start_col, c.start, origin);
    kernels.push_back({.event = {.ops = it->second.ops,
                                 .dims = std::move(*shapes),
                                 .us = *dur + gap,
                                 .what = what,
                                 .where = SourceLoc{std::string(origin), row.line, 0}},
                       .start = start.value_or(0),
                       .fold = it->second.kind == KernelType::Kind::Fold});
  }
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](const Kernel& a, const Kernel& b) { return a.start < b.start; });

  // Folded kernels (layout conversions) add their time to the next kernel.
  std::vector<ProfileEvent> events;
  SkipCount folded("layout kernels folded into the next kernel's time");
  double pending = 0;
  for (Kernel& k : kernels) {
    if (k.fold) {
      folded.add(k.event.what);
      pending += *k.event.us;
      continue;
    }
    *k.event.us += pending;
    pending = 0;
    events.push_back(std::move(k.event));
  }
  std::vector<std::string> notes;
  unknown_type.report(notes);
  if (!unknown_types.empty()) {
    std::string list;
    for (const auto& [type, n] : unknown_types)
      list +=
          fmt::format("{}{} ({})", list.empty() ? "" : ", ", type.empty() ? "<empty>" : type, n);
    notes.push_back("kernel types not in the table: " + list +
                    " (map them with --kernel-types FILE)");
  }
  skipped_type.report(notes);
  no_time.report(notes);
  bad_shapes.report(notes);
  capped.report(notes);
  folded.report(notes);
  if (pending > 0)
    notes.push_back(fmt::format("{} us of layout kernels after the last kernel dropped", pending));
  return join_in_order(events, options, format, origin, std::move(notes));
}

}  // namespace eqfuse::profile_import
