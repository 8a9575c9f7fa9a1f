// Shared by the profile importers (profile_import*.cpp), not installed API:
// the profiled op as the join sees it, the join of such events to graph
// call nodes, counted notes, and the number readers (CSV: cost/csv_table.hpp).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostics.hpp"
#include "cost/csv_table.hpp"
#include "cost/node_measurement.hpp"
#include "cost/profile_import.hpp"

namespace eqfuse::profile_import {

// One profiled op (a top-level torch op, or one device kernel), in the
// order the profile ran them.
struct ProfileEvent {
  // Op names it may stand for; a name without an overload ("aten::add")
  // matches every overload.
  std::vector<std::string> ops;
  std::vector<Dims> dims;    // tensor input shapes of rank >= 1, in input order
  std::optional<double> us;  // the time for the run mode; none: launched no kernel
  std::string what;          // for notes: "aten::mm (trace.json traceEvents[12])"
  SourceLoc where;
};

// "N <reason> (first: <what>)" lines for the notes.
class SkipCount {
 public:
  explicit SkipCount(std::string reason) : reason_(std::move(reason)) {}
  void add(const std::string& what) {
    if (count_++ == 0) first_ = what;
  }
  size_t count() const { return count_; }
  void report(std::vector<std::string>& notes) const;

 private:
  std::string reason_, first_;
  size_t count_ = 0;
};

// The graph and registry every format but eqfuse's own needs; throws Error
// naming the format when either is missing.
const Graph& require_graph(const ImportOptions& options, ProfileFormat format);

// Whether `name` (a profile's op name or a kernel table entry) names the
// call `target` ("aten::add" names "aten::add.Tensor").
bool op_name_matches(std::string_view name, std::string_view target);

// Joins events to the graph's call nodes in program order (the event-driven
// walk of docs/profile-import.md) and averages each node's samples into one
// row. Throws Error when no event matches any node.
ImportResult join_in_order(const std::vector<ProfileEvent>& events, const ImportOptions& options,
                           ProfileFormat format, std::string_view origin,
                           std::vector<std::string> notes);
// Joins by signature only (aggregated tables): every call node an event
// matches gets its time, one row per distinct (op, inputs).
ImportResult join_by_signature(const std::vector<ProfileEvent>& events,
                               const ImportOptions& options, ProfileFormat format,
                               std::string_view origin, std::vector<std::string> notes);

// A duration field: a finite number >= 0. nullopt for the placeholders
// profilers write for "not collected" ("", "N/A"); Error (at the field)
// for anything else that is not such a number.
std::optional<double> parse_duration_field(const CsvRow& row, int index, std::string_view column,
                                           std::string_view origin);

// The readers of each format (graph-joined ones).
ImportResult import_torch_trace(std::string_view text, std::string_view origin,
                                const ImportOptions& options);
ImportResult import_key_averages(std::string_view text, std::string_view origin,
                                 const ImportOptions& options);
ImportResult import_msprof_csv(std::string_view text, std::string_view origin,
                               const ImportOptions& options, ProfileFormat format);

}  // namespace eqfuse::profile_import
