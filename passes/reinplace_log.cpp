// The reinplace log as people and tools read it: the stable names of passes
// and reasons, the human-readable lines (`eqfuse reinplace --log`, `eqfuse
// explain`), and the totals over the decisions (memory traffic saved, torch's
// ReinplaceCounters). Apart from the passes because it reads only the
// finished ReinplaceLog, never the graph.
#include <algorithm>

#include <fmt/format.h>

#include "passes/reinplace.hpp"

namespace eqfuse {

std::string_view reinplace_reason_name(ReinplaceReason r) {
  switch (r) {
    case ReinplaceReason::DeadIntermediate:
      return "dead_intermediate";
    case ReinplaceReason::MutatedArgsInPlace:
      return "mutated_args_in_place";
    case ReinplaceReason::GraphInputInPlace:
      return "graph_input_in_place";
    case ReinplaceReason::MultiStreamUsers:
      return "multi_stream_users";
    case ReinplaceReason::TypeMismatch:
      return "type_mismatch";
    case ReinplaceReason::InternalOverlap:
      return "internal_overlap";
    case ReinplaceReason::ArgumentAliases:
      return "argument_aliases";
    case ReinplaceReason::MutatedArgsAlias:
      return "mutated_args_alias";
    case ReinplaceReason::ResultUsedWhole:
      return "result_used_whole";
    case ReinplaceReason::NotATensor:
      return "not_a_tensor";
    case ReinplaceReason::MutatesGraphInput:
      return "mutates_graph_input";
    case ReinplaceReason::ReadLater:
      return "read_later";
    case ReinplaceReason::ViewOfGraphInput:
      return "view_of_graph_input";
    case ReinplaceReason::NotAGraphInput:
      return "not_a_graph_input";
    case ReinplaceReason::NewValueNotCopied:
      return "new_value_not_copied";
    case ReinplaceReason::NoCopyEpilogue:
      return "no_copy_epilogue";
    case ReinplaceReason::SeveralCopyEpilogues:
      return "several_copy_epilogues";
    case ReinplaceReason::EpilogueCopiesOther:
      return "epilogue_copies_other";
    case ReinplaceReason::ReadBeforeEpilogue:
      return "read_before_epilogue";
    case ReinplaceReason::NoInplaceVariant:
      return "no_inplace_variant";
    case ReinplaceReason::AutoFunctionalizedInPlace:
      return "auto_functionalized_in_place";
    case ReinplaceReason::AutoFunctionalizedCloned:
      return "auto_functionalized_cloned";
    case ReinplaceReason::NotDecomposable:
      return "not_decomposable";
  }
  return "unknown";
}

std::string_view reinplace_pass_name(ReinplacePass p) {
  return p == ReinplacePass::InplaceableOps ? "reinplace_inplaceable_ops"
                                            : "reinplace_input_mutated_ops";
}

// ---- log -----------------------------------------------------------------------------------

namespace {

// An auto_functionalized decision: the stream checks, then what was written
// in place and what was cloned (inductor's "possible missed reinplacing
// opportunities").
void append_auto_functionalized_lines(const ReinplaceDecision& d, const std::string& head,
                                      std::vector<std::string>& out) {
  std::vector<std::string> missed;
  int64_t bytes = 0;
  for (const AutoFunctionalizedSlot& s : d.slots) {
    if (!s.stream_check.empty()) out.push_back(s.stream_check);
    if (s.reinplaced || s.tensors.empty()) continue;
    missed.push_back(s.name);
    bytes += s.bytes;
  }
  std::string tail = missed.empty()
                         ? std::string()
                         : fmt::format(" [possible missed reinplacing opportunities: {}; {} bytes]",
                                       fmt::join(missed, ", "), bytes);
  out.push_back(fmt::format("{} -> {}: decomposed: {}{}", head, d.inplace_target, d.reason, tail));
}

}  // namespace

std::vector<std::string> ReinplaceLog::lines() const {
  std::vector<std::string> out = recover_view_inplace;
  out.insert(out.end(), notes.begin(), notes.end());
  for (const ReinplaceDecision& d : decisions) {
    if (!d.stream_check.empty()) out.push_back(d.stream_check);
    std::string head = fmt::format("{}: {} ({})", reinplace_pass_name(d.pass), d.node, d.target);
    if (!d.slots.empty()) {
      append_auto_functionalized_lines(d, head, out);
    } else if (d.success) {
      std::vector<std::string> gone = d.removed_nodes();
      std::string removed = gone.empty() ? "" : fmt::format(" [removed {}]", fmt::join(gone, ", "));
      out.push_back(
          fmt::format("{} -> {}: reinplaced: {}{}", head, d.inplace_target, d.reason, removed));
    } else if (d.inplace_target.empty()) {
      out.push_back(fmt::format("{} kept: {}", head, d.reason));
    } else {
      out.push_back(fmt::format("{} kept (not {}): {}", head, d.inplace_target, d.reason));
    }
  }
  return out;
}

std::string ReinplaceDecision::changed_node() const {
  if (!decomposed_call.empty()) return decomposed_call;
  return success ? node : std::string();
}

std::vector<std::string> ReinplaceDecision::removed_nodes() const {
  std::vector<std::string> gone = removed_copies;
  gone.insert(gone.end(), removed_projections.begin(), removed_projections.end());
  return gone;
}

const ReinplaceDecision* ReinplaceLog::find(std::string_view node, ReinplacePass pass) const {
  for (const ReinplaceDecision& d : decisions)
    if (d.node == node && d.pass == pass) return &d;
  return nullptr;
}

size_t ReinplaceLog::successes() const {
  return static_cast<size_t>(
      std::count_if(decisions.begin(), decisions.end(), [](const auto& d) { return d.success; }));
}

ReinplaceCounters reinplace_counters(const ReinplaceLog& log) {
  ReinplaceCounters c;
  for (const ReinplaceDecision& d : log.decisions) {
    if (d.slots.empty()) continue;
    ++c.decomposed_calls;
    for (const AutoFunctionalizedSlot& s : d.slots) {
      if (s.reinplaced || s.tensors.empty()) continue;
      ++c.missed;
      c.missed_bytes += s.bytes;
      c.cloned_tensors += s.tensors.size();
    }
  }
  return c;
}

ReinplaceSavings memory_traffic_saved(const ReinplaceLog& log) {
  ReinplaceSavings s;
  for (const ReinplaceDecision& d : log.decisions) {
    if (!d.success) continue;
    ++s.reinplaced_nodes;
    s.output_buffer_bytes = s.output_buffer_bytes + d.output_buffer_bytes;
    s.copy_bytes = s.copy_bytes + d.copy_bytes;
    s.removed_copies += d.removed_copies.size();
  }
  return s;
}

}  // namespace eqfuse
