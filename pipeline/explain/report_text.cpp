// The text rendering of an explain report (`eqfuse optimize --explain`) and
// the one-line sentences the text, the JSON and the HTML page share.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipeline/explain/report.hpp"

namespace eqfuse {

size_t near_miss_count(const ExplainReport& rep, std::string_view rule) {
  return static_cast<size_t>(std::count_if(rep.near_misses.begin(), rep.near_misses.end(),
                                           [&](const NearMiss& m) { return m.rule == rule; }));
}

std::string failure_detail(std::string_view condition, std::string_view detail) {
  // The detail starts with the failing part of the condition; when that is
  // the whole condition, it is not said twice.
  if (std::string whole = std::string(condition) + ": "; detail.starts_with(whole))
    detail.remove_prefix(whole.size());
  return detail.empty() ? "" : ": " + std::string(detail);
}

std::string rejection_sentence(const RejectedMatch& m) {
  return fmt::format("{} rejected at {}: `{}` failed{}", m.rule, m.at, m.condition,
                     failure_detail(m.condition, m.detail));
}

namespace {

std::string stream_label(const std::string& s) {
  return s.empty() ? "the default stream" : fmt::format("stream '{}'", s);
}

}  // namespace

std::string cross_stream_sentence(const CrossStreamNearMiss& c) {
  return fmt::format(
      "{} cannot fuse {} into {}: {} runs on {} and {} on {}; rules match within one stream",
      c.rule, c.producer, c.consumer, c.producer, stream_label(c.producer_stream), c.consumer,
      stream_label(c.consumer_stream));
}

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "-" : out;
}

std::string format_chosen(const ChosenFusion& f) {
  std::string out = fmt::format(
      "  {} = {} by {}: {:.2f} us (launch {:.2f}, fixed {:.2f}, memory {:.2f}, compute {:.2f})\n",
      f.node, f.op, f.rule, f.cost.total_us, f.cost.launch_us, f.cost.fixed_us, f.cost.memory_us,
      f.cost.compute_us);
  out += fmt::format("    replaces {} (kernels: {})\n", join(f.replaces), join(f.replaced_kernels));
  for (const std::string& a : f.assumes)
    out += fmt::format("    assumes {} (a relation of the inputs the graph cannot show)\n", a);
  out += fmt::format("    {:<10} {:>10} {:>16}\n", "us", "fused",
                     fmt::format("unfused ({})", f.unfused.kernels));
  auto row = [&](const char* what, double fused, double unfused) {
    out += fmt::format("    {:<10} {:>10.2f} {:>16.2f}\n", what, fused, unfused);
  };
  row("launch", f.cost.launch_us, f.unfused.launch_us);
  row("fixed", f.cost.fixed_us, f.unfused.fixed_us);
  row("memory", f.cost.memory_us, f.unfused.memory_us);
  row("compute", f.cost.compute_us, f.unfused.compute_us);
  row("total", f.cost.total_us, f.unfused.total_us);
  if (!f.proof.empty()) out += "    proof:\n";
  for (const ProofStep& s : f.proof)
    out += s.rule.empty() ? fmt::format("      {}\n", s.term)
                          : fmt::format("      = {}   [{}]\n", s.term, s.rule);
  if (!f.proof_note.empty()) out += fmt::format("    proof note: {}\n", f.proof_note);
  return out;
}

std::string format_rule_table(const ExplainReport& rep) {
  std::string out = fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8} {:>5}\n", "rule", "candidates",
                                "fired", "chosen", "rejected", "near");
  for (const RuleRunStats& s : rep.rules) {
    if (!s.enabled) {
      out += fmt::format("{:<46} off: {}\n", s.rule, s.toggle_reason);
      continue;
    }
    std::string why;
    for (const auto& [cond, n] : s.rejected_by) why += fmt::format(" [{}x `{}`]", n, cond);
    out += fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8} {:>5}{}\n", s.rule, s.matches,
                       s.applications, s.chosen, s.rejected, near_miss_count(rep, s.rule), why);
  }
  return out;
}

bool is_fusion_rule(const ExplainReport& rep, const std::string& rule) {
  for (const RuleRunStats& s : rep.rules)
    if (s.rule == rule) return s.fusion;
  return false;
}

}  // namespace

std::string format_explanation_text(const ExplainReport& rep) {
  std::string out = fmt::format("explain: {} on {}, modeled {:.1f} us -> {:.1f} us\n", rep.mode,
                                rep.device, rep.cost_before_us, rep.cost_after_us);
  out += fmt::format("extraction: {} ({})\n", rep.extractor, rep.extraction_quality);
  if (!rep.kept_input.empty()) out += fmt::format("kept the input graph: {}\n", rep.kept_input);
  if (!rep.frozen_inputs.empty())
    out += fmt::format("frozen inputs (priced once, not per call): {}\n",
                       fmt::join(rep.frozen_inputs, ", "));
  out += "chosen fusions:\n";
  if (rep.chosen.empty()) out += "  none\n";
  for (const ChosenFusion& c : rep.chosen) out += format_chosen(c);
  out += "possible but not chosen:\n";
  if (rep.not_chosen.empty()) out += "  none\n";
  for (const UnchosenFusion& u : rep.not_chosen) out += fmt::format("  {}\n", u.reason);
  // Fusion rules first: their refusals are the decisions a reader asks
  // about; layout rules refuse many matches as a matter of course (a view
  // that is not a no-op), listed apart so they do not bury them.
  std::string fusion_rejections, layout_rejections;
  for (const RejectedMatch& m : rep.rejected)
    (is_fusion_rule(rep, m.rule) ? fusion_rejections : layout_rejections) +=
        fmt::format("  {}\n", rejection_sentence(m));
  out += "rejected by a condition:\n";
  out += fusion_rejections.empty() ? "  none\n" : fusion_rejections;
  if (!layout_rejections.empty())
    out += "layout and other rules refused by a condition:\n" + layout_rejections;
  out += "near misses:\n";
  if (rep.near_misses.empty()) out += "  none\n";
  for (const NearMiss& m : rep.near_misses) out += fmt::format("  {}\n", near_miss_sentence(m));
  out += "rules off:\n";
  // One line per reason (the opt-in rules of a family share one), in library order.
  std::vector<std::pair<std::string, std::string>> off;  // reason -> rules
  for (const RuleRunStats& s : rep.rules) {
    if (s.enabled) continue;
    auto it = std::find_if(off.begin(), off.end(),
                           [&](const auto& r) { return r.first == s.toggle_reason; });
    if (it == off.end()) it = off.insert(off.end(), {s.toggle_reason, ""});
    it->second += (it->second.empty() ? "" : ", ") + s.rule;
  }
  for (const auto& [reason, rules] : off) out += fmt::format("  {}: {}\n", reason, rules);
  if (off.empty()) out += "  none\n";
  // User rules only (built-in ones are proven by the tests): what the load-time
  // soundness check found, so a trusted or unchecked rule is never silent.
  std::string checked;
  for (const RuleRunStats& s : rep.rules)
    if (!s.load_check.empty()) checked += fmt::format("  {}: {}\n", s.rule, s.load_check);
  if (!checked.empty()) out += "user rules:\n" + checked;
  out += "cross-stream near misses:\n";
  if (rep.cross_stream.empty()) out += "  none\n";
  for (const CrossStreamNearMiss& c : rep.cross_stream)
    out += fmt::format("  {}\n", cross_stream_sentence(c));
  out += format_rule_table(rep);
  out += format_reinplace_text(rep.reinplace);
  return out;
}

}  // namespace eqfuse
