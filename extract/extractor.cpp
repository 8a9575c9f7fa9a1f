// Shared pieces of extraction: cost of a choice, pruning to what the roots
// reach, the name -> algorithm dispatch and the run_extractors() driver.
#include "extract/extractor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "extract/checker.hpp"
#include "extract/internal.hpp"

namespace eqfuse {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Classes reachable from the roots through chosen children, in DFS post-order
// (children before parents). Returns false if a reachable class has no choice
// or the chosen subgraph has a cycle.
bool reachable_postorder(const ExtractionProblem& p, const std::vector<NodeId>& choice,
                         std::vector<ClassId>& order) {
  order.clear();
  std::vector<unsigned char> mark(p.num_classes(), 0);  // 0 unseen, 1 on stack, 2 done
  std::vector<std::pair<ClassId, std::uint32_t>> stack;
  for (ClassId root : p.roots()) {
    if (mark[root]) continue;
    if (choice[root] == kNoNode) return false;
    stack.emplace_back(root, 0);
    mark[root] = 1;
    while (!stack.empty()) {
      auto& [c, i] = stack.back();
      const auto kids = p.children(choice[c]);
      if (i == kids.size()) {
        mark[c] = 2;
        order.push_back(c);
        stack.pop_back();
        continue;
      }
      const ClassId d = kids[i++];
      if (mark[d] == 2) continue;
      if (mark[d] == 1 || choice[d] == kNoNode) return false;
      mark[d] = 1;
      stack.emplace_back(d, 0);
    }
  }
  return true;
}

}  // namespace

double dag_cost(const ExtractionProblem& p, const std::vector<NodeId>& choice) {
  std::vector<ClassId> order;
  if (!reachable_postorder(p, choice, order)) return kInf;
  double sum = 0;
  for (ClassId c : order) sum += p.node_cost(choice[c]);
  return sum;
}

double tree_cost(const ExtractionProblem& p, const std::vector<NodeId>& choice) {
  std::vector<ClassId> order;
  if (!reachable_postorder(p, choice, order)) return kInf;
  std::vector<double> cost(p.num_classes(), 0);
  for (ClassId c : order) {
    double sum = p.node_cost(choice[c]);
    for (ClassId d : p.children(choice[c])) sum += cost[d];
    cost[c] = sum;
  }
  double total = 0;
  for (ClassId r : p.roots()) total += cost[r];
  return total;
}

Extraction finish_extraction(const ExtractionProblem& p, std::vector<NodeId> choice, bool optimal) {
  Extraction e;
  std::vector<ClassId> order;
  if (!reachable_postorder(p, choice, order)) {
    // Not a valid extraction: keep the choice as is so the checker can say why.
    e.choice = std::move(choice);
    e.tree_cost = e.dag_cost = kInf;
    return e;
  }
  e.choice.assign(p.num_classes(), kNoNode);
  for (ClassId c : order) e.choice[c] = choice[c];
  e.dag_cost = dag_cost(p, e.choice);
  e.tree_cost = tree_cost(p, e.choice);
  e.optimal = optimal;
  if (optimal) e.lower_bound = e.dag_cost;
  return e;
}

const std::vector<std::string>& extractor_names() {
  static const std::vector<std::string> names = {"bottom-up", "greedy-dag", "faster-greedy-dag",
                                                 "ilp", "auto"};
  return names;
}

namespace extract_detail {

std::vector<std::vector<NodeId>> find_cycles(const ExtractionProblem& p,
                                             const std::vector<NodeId>& choice, bool roots_only,
                                             std::size_t max_cycles) {
  std::vector<std::vector<NodeId>> cycles;
  std::vector<unsigned char> mark(p.num_classes(), 0);  // 0 unseen, 1 on the path, 2 done
  std::vector<std::pair<ClassId, std::uint32_t>> stack;
  std::vector<ClassId> starts(p.roots().begin(), p.roots().end());
  if (!roots_only)
    for (ClassId c = 0; c < p.num_classes(); ++c) starts.push_back(c);
  for (ClassId start : starts) {
    if (mark[start] || choice[start] == kNoNode) continue;
    mark[start] = 1;
    stack.emplace_back(start, 0);
    while (!stack.empty() && cycles.size() < max_cycles) {
      auto& [c, i] = stack.back();
      const auto kids = p.children(choice[c]);
      if (i == kids.size()) {
        mark[c] = 2;
        stack.pop_back();
        continue;
      }
      const ClassId d = kids[i++];
      if (choice[d] == kNoNode || mark[d] == 2) continue;
      if (mark[d] == 1) {
        std::vector<NodeId> cycle;
        bool in = false;
        for (const auto& frame : stack) {
          in = in || frame.first == d;
          if (in) cycle.push_back(choice[frame.first]);
        }
        cycles.push_back(std::move(cycle));
        continue;
      }
      mark[d] = 1;
      stack.emplace_back(d, 0);
    }
    if (cycles.size() >= max_cycles) break;
  }
  return cycles;
}

}  // namespace extract_detail

double optimality_gap(const Extraction& x) {
  if (x.optimal) return 0.0;
  if (!(x.lower_bound > 0) || !std::isfinite(x.dag_cost) || x.dag_cost <= 0) return 1.0;
  return std::clamp((x.dag_cost - x.lower_bound) / x.dag_cost, 0.0, 1.0);
}

namespace {

Extraction run_named(const ExtractionProblem& p, std::string_view extractor,
                     const ExtractOptions& opt) {
  if (extractor == "bottom-up" || extractor == "tree") return extract_bottom_up(p, opt);
  if (extractor == "greedy-dag") return extract_greedy_dag(p, opt);
  if (extractor == "faster-greedy-dag") return extract_faster_greedy_dag(p, opt);
  if (extractor == "ilp") return extract_ilp(p, opt);
  if (extractor == "auto") return extract_auto(p, opt);
  fail({}, "unknown extractor '{}' (expected one of: {}, tree, all)", extractor,
       fmt::join(extractor_names(), ", "));
}

// Costs compare with a relative tolerance: sums of the same node costs in
// another order differ in the last bits.
bool cheaper(double a, double b) {
  return a < b - 1e-9 * std::max(1.0, std::abs(b));
}

}  // namespace

Extraction extract(const ExtractionProblem& p, std::string_view extractor,
                   const ExtractOptions& opt) {
  Extraction x = run_named(p, extractor, opt);
  if (opt.initial.empty()) return x;
  Extraction init = finish_extraction(p, opt.initial);
  if (!std::isfinite(init.dag_cost) || !cheaper(init.dag_cost, x.dag_cost)) return x;
  // The extractor found nothing as cheap as the known extraction: keep it.
  // A bound above a feasible cost was not a bound (nor was a claim of
  // optimality): the bound is capped and optimality left unclaimed.
  init.kept_initial = true;
  init.lower_bound = std::min(x.lower_bound, init.dag_cost);
  init.optimal = false;
  init.stopped_by = x.stopped_by;
  return init;
}

std::vector<ExtractorReport> run_extractors(const ExtractionProblem& p,
                                            const std::vector<std::string>& names,
                                            double time_limit_s) {
  ExtractOptions opt;
  opt.time_limit_s = time_limit_s;
  return run_extractors(p, names, opt);
}

std::vector<ExtractorReport> run_extractors(const ExtractionProblem& p,
                                            const std::vector<std::string>& names,
                                            const ExtractOptions& opt) {
  std::vector<std::string> todo;
  for (const auto& n : names) {
    if (n == "all") {
      todo.insert(todo.end(), extractor_names().begin(), extractor_names().end());
    } else {
      if (n != "tree" && std::find(extractor_names().begin(), extractor_names().end(), n) ==
                             extractor_names().end())
        fail({}, "unknown extractor '{}' (expected one of: {}, tree, all)", n,
             fmt::join(extractor_names(), ", "));
      todo.push_back(n);
    }
  }
  std::vector<ExtractorReport> reports;
  for (const auto& name : todo) {
    ExtractorReport r;
    r.extractor = name;
    const auto start = std::chrono::steady_clock::now();
    try {
      r.extraction = extract(p, name, opt);
    } catch (const Error& e) {
      r.error = e.what();
    }
    r.micros = std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count();
    if (r.error.empty()) {
      const CheckResult check = check_extraction(p, r.extraction.choice);
      r.valid = check.valid;
      r.check_message = check.message;
      r.tree_cost = r.extraction.tree_cost;
      r.dag_cost = r.extraction.dag_cost;
      r.optimal = r.extraction.optimal;
    } else {
      r.tree_cost = r.dag_cost = kInf;
    }
    reports.push_back(std::move(r));
  }
  return reports;
}

std::string report_json_line(const std::string& file, const ExtractorReport& r) {
  auto num = [](double v) -> nlohmann::json {
    if (std::isfinite(v)) return v;
    return "inf";
  };
  nlohmann::ordered_json j;
  j["file"] = file;
  j["extractor"] = r.extractor;
  j["tree_cost"] = num(r.tree_cost);
  j["dag_cost"] = num(r.dag_cost);
  j["micros"] = r.micros;
  j["valid"] = r.valid;
  j["optimal"] = r.optimal;
  j["lower_bound"] = num(r.extraction.lower_bound);
  j["gap"] = r.error.empty() ? optimality_gap(r.extraction) : 1.0;
  if (!r.extraction.stopped_by.empty()) j["stopped_by"] = r.extraction.stopped_by;
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.valid && !r.check_message.empty()) j["check"] = r.check_message;
  return j.dump();
}

}  // namespace eqfuse
