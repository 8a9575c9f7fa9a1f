// Exact DAG-cost extraction as a 0/1 integer program solved with CBC.
//
// Model (after reduction, see reduce()): a binary x_c per class ("c is
// extracted") and y_n per node ("n is c's choice"); classes with a single
// remaining node use x_c as that node's variable. Constraints: x_root = 1;
// sum_{n in c} y_n = x_c; y_n <= x_d for each child class d of n. Objective:
// sum cost(n) y_n. Acyclicity is enforced lazily: solve, look for cycles in
// the chosen subgraph reached from the roots, add one cut per cycle found
// (not all of its nodes may be chosen together), and solve again. Every
// round is warm-started with the best acyclic solution known (initially
// greedy-dag's), and the whole loop runs under the time limit; when it runs
// out the best acyclic solution is returned with optimal = false.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <Cbc_C_Interface.h>

#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace {

using extract_detail::Deadline;

// The reduced problem: which nodes may be chosen, which classes matter.
struct Reduced {
  std::vector<unsigned char> usable;          // per node
  std::vector<ClassId> classes;               // reachable classes with >= 1 usable node
  std::vector<int> class_col;                 // per class: column of x_c, or -1
  std::vector<int> node_col;                  // per node: column of y_n, or -1
  std::vector<std::vector<NodeId>> nodes_of;  // per reduced class index
  int num_cols = 0;
};

std::vector<ClassId> distinct_children(const ExtractionProblem& p, NodeId n) {
  std::vector<ClassId> kids(p.children(n).begin(), p.children(n).end());
  std::sort(kids.begin(), kids.end());
  kids.erase(std::unique(kids.begin(), kids.end()), kids.end());
  return kids;
}

// Drops nodes that can never be part of an optimal acyclic extraction:
// self-loops, nodes with a child class that has no finite derivation, and
// nodes dominated by a sibling that costs no more and needs a subset of its
// children (swapping to the sibling never adds a cycle). Then keeps only the
// classes reachable from the roots through the remaining nodes.
Reduced reduce(const ExtractionProblem& p, const std::vector<NodeId>& derivable) {
  Reduced r;
  r.usable.assign(p.num_nodes(), 0);
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    if (derivable[c] == kNoNode) continue;
    std::vector<std::pair<NodeId, std::vector<ClassId>>> cand;
    for (NodeId n : p.class_nodes(c)) {
      auto kids = distinct_children(p, n);
      bool ok = true;
      for (ClassId d : kids) ok = ok && d != c && derivable[d] != kNoNode;
      if (ok) cand.emplace_back(n, std::move(kids));
    }
    std::stable_sort(cand.begin(), cand.end(), [&](const auto& a, const auto& b) {
      if (p.node_cost(a.first) != p.node_cost(b.first))
        return p.node_cost(a.first) < p.node_cost(b.first);
      return a.second.size() < b.second.size();
    });
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < cand.size(); ++i) {
      bool dominated = false;
      for (std::size_t k : kept) {
        if (std::includes(cand[i].second.begin(), cand[i].second.end(), cand[k].second.begin(),
                          cand[k].second.end())) {
          dominated = true;
          break;
        }
      }
      if (!dominated) kept.push_back(i);
    }
    for (std::size_t k : kept) r.usable[cand[k].first] = 1;
  }
  // Reachability through usable nodes.
  std::vector<unsigned char> seen(p.num_classes(), 0);
  std::vector<ClassId> stack;
  for (ClassId root : p.roots())
    if (!seen[root]) {
      seen[root] = 1;
      stack.push_back(root);
    }
  while (!stack.empty()) {
    const ClassId c = stack.back();
    stack.pop_back();
    r.classes.push_back(c);
    for (NodeId n : p.class_nodes(c))
      if (r.usable[n])
        for (ClassId d : p.children(n))
          if (!seen[d]) {
            seen[d] = 1;
            stack.push_back(d);
          }
  }
  std::sort(r.classes.begin(), r.classes.end());
  r.class_col.assign(p.num_classes(), -1);
  r.node_col.assign(p.num_nodes(), -1);
  for (ClassId c : r.classes) {
    std::vector<NodeId> ns;
    for (NodeId n : p.class_nodes(c))
      if (r.usable[n]) ns.push_back(n);
    r.class_col[c] = r.num_cols++;
    if (ns.size() == 1) {
      r.node_col[ns[0]] = r.class_col[c];
    } else {
      for (NodeId n : ns) r.node_col[n] = r.num_cols++;
    }
    r.nodes_of.push_back(std::move(ns));
  }
  return r;
}

// Sparse rows collected as (row, col, value) triplets, then loaded as CSC.
struct RowSet {
  std::vector<double> lo, hi;
  std::vector<std::vector<std::pair<int, double>>> rows;
  void add(std::vector<std::pair<int, double>> row, double l, double h) {
    rows.push_back(std::move(row));
    lo.push_back(l);
    hi.push_back(h);
  }
};

class CbcModel {
 public:
  CbcModel() : m_(Cbc_newModel()) {}
  ~CbcModel() { Cbc_deleteModel(m_); }
  CbcModel(const CbcModel&) = delete;
  CbcModel& operator=(const CbcModel&) = delete;
  Cbc_Model* get() { return m_; }

 private:
  Cbc_Model* m_;
};

struct SolveOutcome {
  bool has_solution = false;
  bool proven_optimal = false;
  std::vector<double> values;
};

SolveOutcome solve(const Reduced& red, const std::vector<double>& obj,
                   const std::vector<double>& col_lo, const RowSet& rows,
                   const std::vector<int>& start_cols, double seconds, bool verbose) {
  const int nc = red.num_cols;
  const int nr = static_cast<int>(rows.rows.size());
  std::vector<CoinBigIndex> start(nc + 1, 0);
  for (const auto& row : rows.rows)
    for (const auto& [col, v] : row) ++start[col + 1];
  for (int i = 0; i < nc; ++i) start[i + 1] += start[i];
  std::vector<int> index(start[nc]);
  std::vector<double> value(start[nc]);
  std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
  for (int r = 0; r < nr; ++r)
    for (const auto& [col, v] : rows.rows[r]) {
      index[fill[col]] = r;
      value[fill[col]++] = v;
    }
  std::vector<double> col_hi(nc, 1.0);
  CbcModel model;
  Cbc_loadProblem(model.get(), nc, nr, start.data(), index.data(), value.data(), col_lo.data(),
                  col_hi.data(), obj.data(), rows.lo.data(), rows.hi.data());
  for (int i = 0; i < nc; ++i) Cbc_setInteger(model.get(), i);
  Cbc_setObjSense(model.get(), 1);
  Cbc_setLogLevel(model.get(), verbose ? 1 : 0);
  Cbc_setMaximumSeconds(model.get(), std::max(0.01, seconds));
  Cbc_setParameter(model.get(), "threads", "1");
  if (!start_cols.empty()) {
    std::vector<double> ones(start_cols.size(), 1.0);
    Cbc_setMIPStartI(model.get(), static_cast<int>(start_cols.size()), start_cols.data(),
                     ones.data());
  }
  Cbc_solve(model.get());
  SolveOutcome out;
  out.proven_optimal = Cbc_isProvenOptimal(model.get()) != 0;
  const double* sol = Cbc_getColSolution(model.get());
  if (sol != nullptr && Cbc_bestSolution(model.get()) != nullptr) {
    out.has_solution = true;
    out.values.assign(sol, sol + nc);
  }
  return out;
}

// Cycles in the chosen subgraph reached from the roots: one per back edge of
// a DFS, each as the list of chosen nodes along it.
std::vector<std::vector<NodeId>> find_cycles(const ExtractionProblem& p,
                                             const std::vector<NodeId>& choice) {
  std::vector<std::vector<NodeId>> cycles;
  std::vector<unsigned char> mark(p.num_classes(), 0);
  std::vector<std::pair<ClassId, std::uint32_t>> stack;
  for (ClassId root : p.roots()) {
    if (mark[root] || choice[root] == kNoNode) continue;
    mark[root] = 1;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
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
        std::vector<NodeId> cyc;
        bool in = false;
        for (const auto& [s, unused] : stack) {
          if (s == d) in = true;
          if (in) cyc.push_back(choice[s]);
        }
        cycles.push_back(std::move(cyc));
        continue;
      }
      mark[d] = 1;
      stack.emplace_back(d, 0);
    }
  }
  return cycles;
}

}  // namespace

Extraction extract_ilp(const ExtractionProblem& p, const ExtractOptions& opt) {
  const Deadline deadline(opt.time_limit_s);
  ExtractOptions greedy_opt = opt;
  Extraction best = extract_greedy_dag(p, greedy_opt);  // throws if no extraction exists
  const auto derivable = extract_detail::bottom_up_choice(p);
  const Reduced red = reduce(p, derivable);

  std::vector<double> obj(red.num_cols, 0.0);
  std::vector<double> col_lo(red.num_cols, 0.0);
  RowSet rows;
  for (std::size_t i = 0; i < red.classes.size(); ++i) {
    const ClassId c = red.classes[i];
    const auto& ns = red.nodes_of[i];
    if (ns.size() > 1) {
      std::vector<std::pair<int, double>> row{{red.class_col[c], -1.0}};
      for (NodeId n : ns) row.emplace_back(red.node_col[n], 1.0);
      rows.add(std::move(row), 0.0, 0.0);
    }
    for (NodeId n : ns) {
      obj[red.node_col[n]] = p.node_cost(n);
      for (ClassId d : distinct_children(p, n))
        rows.add({{red.node_col[n], 1.0}, {red.class_col[d], -1.0}}, -1e30, 0.0);
    }
  }
  for (ClassId r : p.roots()) col_lo[red.class_col[r]] = 1.0;

  auto start_columns = [&](const std::vector<NodeId>& choice) {
    std::vector<int> cols;
    for (ClassId c = 0; c < p.num_classes(); ++c) {
      if (choice[c] == kNoNode) continue;
      const int nc = red.node_col[choice[c]];
      if (nc < 0 || red.class_col[c] < 0) return std::vector<int>{};  // outside the reduced model
      cols.push_back(red.class_col[c]);
      if (nc != red.class_col[c]) cols.push_back(nc);
    }
    return cols;
  };

  while (!deadline.passed()) {
    const SolveOutcome out = solve(red, obj, col_lo, rows, start_columns(best.choice),
                                   deadline.remaining_s(), opt.verbose);
    if (!out.has_solution) break;
    std::vector<NodeId> choice(p.num_classes(), kNoNode);
    for (std::size_t i = 0; i < red.classes.size(); ++i) {
      const ClassId c = red.classes[i];
      for (NodeId n : red.nodes_of[i])
        if (out.values[red.node_col[n]] > 0.5 && out.values[red.class_col[c]] > 0.5) choice[c] = n;
    }
    const auto cycles = find_cycles(p, choice);
    if (cycles.empty()) {
      Extraction e = finish_extraction(p, std::move(choice), out.proven_optimal);
      if (e.dag_cost <= best.dag_cost + 1e-9 * std::max(1.0, std::abs(best.dag_cost))) {
        // Ties with the warm start keep the solver's answer only if it is proven.
        if (e.dag_cost < best.dag_cost || out.proven_optimal) best = std::move(e);
      }
      if (out.proven_optimal) best.optimal = true;
      break;
    }
    for (const auto& cyc : cycles) {
      std::vector<std::pair<int, double>> row;
      for (NodeId n : cyc) row.emplace_back(red.node_col[n], 1.0);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      rows.add(std::move(row), -1e30, static_cast<double>(cyc.size()) - 1.0);
    }
    if (opt.verbose)
      std::fprintf(stderr, "ilp: %zu cycle cuts added (%zu rows)\n", cycles.size(),
                   rows.rows.size());
  }
  return best;
}

}  // namespace eqfuse
