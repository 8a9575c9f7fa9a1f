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

// The column indices of one CSV (-1: absent).
struct ColumnIndices {
  int type = -1, duration = -1, wait = -1, start = -1, shapes = -1, name = -1;
};

// Looks the format's columns up in the header; throws Error at the header
// line when one the join cannot do without (type, duration, shapes) is missing.
ColumnIndices find_columns(const CsvTable& t, const Columns& c, ProfileFormat format,
                           std::string_view origin) {
  ColumnIndices col;
  col.type = t.column(c.type), col.duration = t.column(c.duration), col.wait = t.column(c.wait);
  col.start = t.column(c.start), col.shapes = t.column(c.shapes), col.name = t.column(c.name);
  // Older msprof versions write the column names without "(us)".
  if (format == ProfileFormat::MsprofOpSummary) {
    if (col.duration < 0) col.duration = t.column("Task Duration");
    if (col.wait < 0) col.wait = t.column("Task Wait Time");
  }
  for (auto [index, name] : {std::pair{col.type, c.type}, std::pair{col.duration, c.duration},
                             std::pair{col.shapes, c.shapes}})
    if (index < 0)
      throw Error(fmt::format("header lacks column '{}' (a {} file needs '{}', '{}', '{}')", name,
                              profile_format_name(format), c.type, c.duration, c.shapes),
                  SourceLoc{std::string(origin), t.header_line, 1}, t.header_text);
  return col;
}

// A kernel with what the join needs; start orders them.
struct Kernel {
  ProfileEvent event;
  double start = 0;
  bool fold = false;
};

// The rows read_kernels leaves out or changes, counted for the notes.
struct RowSkips {
  SkipCount unknown_type{"kernels of a type not in the kernel-type table"};
  SkipCount skipped_type{"kernels of a type the table marks (skip)"};
  SkipCount no_time{"kernels without a duration (N/A)"};
  SkipCount bad_shapes{"kernels with unreadable input shapes"};
  SkipCount capped;
  std::map<std::string, size_t> unknown_types;  // kernel type -> rows of it

  explicit RowSkips(double max_wait_us)
      : capped(fmt::format("gaps before a kernel longer than {} us counted as {} us (host "
                           "stalls, step boundaries)",
                           max_wait_us, max_wait_us)) {}

  void report(std::vector<std::string>& notes) const {
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
  }
};

// Every row the kernel-type table maps, with a duration and readable shapes,
// as a kernel whose time includes the wait before it (capped at max_wait_us);
// in start order.
std::vector<Kernel> read_kernels(const CsvTable& t, const ColumnIndices& col, const Columns& c,
                                 const KernelTypes& types, const ImportOptions& options,
                                 std::string_view origin, RowSkips& skips) {
  std::vector<Kernel> kernels;
  for (const CsvRow& row : t.rows) {
    std::string type = field_or(row, col.type);
    std::string what =
        fmt::format("{} {} ({}:{})", type, field_or(row, col.name), origin, row.line);
    auto it = types.find(type);
    if (it == types.end()) {
      skips.unknown_type.add(what);
      ++skips.unknown_types[type];
      continue;
    }
    if (it->second.kind == KernelType::Kind::Skip) {
      skips.skipped_type.add(what);
      continue;
    }
    std::optional<double> dur = parse_duration_field(row, col.duration, c.duration, origin);
    std::optional<double> wait = parse_duration_field(row, col.wait, c.wait, origin);
    if (!dur) {
      skips.no_time.add(what);
      continue;
    }
    auto shapes = parse_shapes(field_or(row, col.shapes));
    if (!shapes) {
      skips.bad_shapes.add(what);
      continue;
    }
    double gap = wait.value_or(0);
    if (gap > options.max_wait_us) {
      skips.capped.add(what);
      gap = options.max_wait_us;
    }
    std::optional<double> start = parse_duration_field(row, col.start, c.start, origin);
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
  return kernels;
}

// The events the join sees: folded kernels (layout conversions) add their
// time to the next kernel; `pending` is what follows the last one.
struct FoldedEvents {
  std::vector<ProfileEvent> events;
  SkipCount folded{"layout kernels folded into the next kernel's time"};
  double pending = 0;
};

FoldedEvents fold_layout_kernels(std::vector<Kernel>& kernels) {
  FoldedEvents out;
  for (Kernel& k : kernels) {
    if (k.fold) {
      out.folded.add(k.event.what);
      out.pending += *k.event.us;
      continue;
    }
    *k.event.us += out.pending;
    out.pending = 0;
    out.events.push_back(std::move(k.event));
  }
  return out;
}

}  // namespace

ImportResult import_msprof_csv(std::string_view text, std::string_view origin,
                               const ImportOptions& options, ProfileFormat format) {
  require_graph(options, format);
  const Columns& c = format == ProfileFormat::MsprofOpSummary ? kOpSummary : kKernelDetails;
  const KernelTypes types = kernel_types(options);
  CsvTable t = read_csv(text, origin);
  if (t.header.empty()) throw Error("empty CSV file: no header line", {std::string(origin)});
  const ColumnIndices col = find_columns(t, c, format, origin);
  RowSkips skips(options.max_wait_us);
  std::vector<Kernel> kernels = read_kernels(t, col, c, types, options, origin, skips);
  FoldedEvents folded = fold_layout_kernels(kernels);
  std::vector<std::string> notes;
  skips.report(notes);
  folded.folded.report(notes);
  if (folded.pending > 0)
    notes.push_back(
        fmt::format("{} us of layout kernels after the last kernel dropped", folded.pending));
  return join_in_order(folded.events, options, format, origin, std::move(notes));
}

}  // namespace eqfuse::profile_import
