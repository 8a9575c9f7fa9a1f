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
#include <cstring>
#include <numeric>
#include <optional>
#include <string>

#include <Cbc_C_Interface.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "extract/components.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace {

using extract_detail::Deadline;

constexpr double kMaxSolverCost = 1e20;

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
Reduced reduce(const ExtractionProblem& p, const std::vector<NodeId>& derivable,
               bool negative_costs) {
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
      // With negative costs, dropping children can raise the total: no dominance.
      if (!dominated || negative_costs) kept.push_back(i);
    }
    for (std::size_t k : kept) r.usable[cand[k].first] = 1;
  }
  const std::vector<unsigned char> reached = reachable_classes(p, r.usable);
  for (ClassId c = 0; c < p.num_classes(); ++c)
    if (reached[c]) r.classes.push_back(c);
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

struct Columns {
  std::vector<double> obj, lo, hi;
  std::vector<unsigned char> integer;
  int add(double cost, double l, double h, bool is_int) {
    obj.push_back(cost);
    lo.push_back(l);
    hi.push_back(h);
    integer.push_back(is_int ? 1 : 0);
    return static_cast<int>(obj.size()) - 1;
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
  double best_bound = 0;  // CBC's best possible objective (a lower bound), 0 if unknown
  bool crashed = false;   // the solver process died (not killed at the deadline)
  std::vector<double> values;
};

// A MIP start gives every column a value: CBC completes a partial start by
// solving an LP, and the result can look cheaper than any integer solution.
using MipStart = std::vector<double>;

SolveOutcome solve_in_process(const Columns& cols, const RowSet& rows, const MipStart& mip_start,
                              double seconds, bool verbose) {
  const int nc = static_cast<int>(cols.obj.size());
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
  CbcModel model;
  Cbc_loadProblem(model.get(), nc, nr, start.data(), index.data(), value.data(), cols.lo.data(),
                  cols.hi.data(), cols.obj.data(), rows.lo.data(), rows.hi.data());
  for (int i = 0; i < nc; ++i)
    if (cols.integer[i]) Cbc_setInteger(model.get(), i);
  Cbc_setObjSense(model.get(), 1);
  Cbc_setLogLevel(model.get(), verbose ? 1 : 0);
  Cbc_setMaximumSeconds(model.get(), std::max(0.01, seconds));
  Cbc_setParameter(model.get(), "threads", "1");
  if (!mip_start.empty()) {
    std::vector<int> all(mip_start.size());
    std::iota(all.begin(), all.end(), 0);
    Cbc_setMIPStartI(model.get(), static_cast<int>(mip_start.size()), all.data(), mip_start.data());
  }
  Cbc_solve(model.get());
  SolveOutcome out;
  out.proven_optimal = Cbc_isProvenOptimal(model.get()) != 0;
  const double bound = Cbc_getBestPossibleObjValue(model.get());
  if (std::isfinite(bound) && std::abs(bound) < 1e30) out.best_bound = bound;
  const double* sol = Cbc_getColSolution(model.get());
  if (sol != nullptr && Cbc_bestSolution(model.get()) != nullptr) {
    out.has_solution = true;
    out.values.assign(sol, sol + nc);
  }
  return out;
}

// CBC 2.10 can crash or overrun its time limit when interrupted, so each
// solve of a non-trivial model runs in a forked child that streams its answer back through a pipe;
// the parent kills it shortly after the deadline. A crashed or killed child
// simply yields no solution, and the caller falls back to what it knows.
SolveOutcome solve(const Columns& cols, const RowSet& rows, const MipStart& start, double seconds,
                   bool verbose) {
  // Small models solve in well under a second: forking would dominate.
  if (cols.obj.size() < 1000) return solve_in_process(cols, rows, start, seconds, verbose);
  int fds[2];
  if (pipe(fds) != 0) return solve_in_process(cols, rows, start, seconds, verbose);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return solve_in_process(cols, rows, start, seconds, verbose);
  }
  if (pid == 0) {
    close(fds[0]);
    const SolveOutcome out = solve_in_process(cols, rows, start, seconds, verbose);
    std::vector<double> msg{out.has_solution ? 1.0 : 0.0, out.proven_optimal ? 1.0 : 0.0,
                            out.best_bound};
    msg.insert(msg.end(), out.values.begin(), out.values.end());
    const char* data = reinterpret_cast<const char*>(msg.data());
    std::size_t left = msg.size() * sizeof(double);
    while (left > 0) {
      const ssize_t w = write(fds[1], data, left);
      if (w <= 0) break;
      data += w;
      left -= static_cast<std::size_t>(w);
    }
    _exit(0);
  }
  close(fds[1]);
  std::vector<char> buf;
  const Deadline kill_at(seconds + 2.0);
  char chunk[1 << 16];
  bool killed = false;
  while (true) {
    pollfd pfd{fds[0], POLLIN, 0};
    const int wait_ms = static_cast<int>(std::max(0.0, kill_at.remaining_s()) * 1000) + 1;
    const int ready = poll(&pfd, 1, wait_ms);
    if (ready == 0 || kill_at.passed()) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    if (ready < 0) continue;  // interrupted by a signal
    const ssize_t r = read(fds[0], chunk, sizeof chunk);
    if (r <= 0) break;
    buf.insert(buf.end(), chunk, chunk + r);
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  SolveOutcome out;
  const std::size_t expected = (3 + cols.obj.size()) * sizeof(double);
  if (killed || !WIFEXITED(status) || buf.size() < 3 * sizeof(double)) {
    if (verbose) std::fprintf(stderr, "ilp: CBC child %s\n", killed ? "killed" : "failed");
    out.crashed = !killed;
    return out;
  }
  std::vector<double> msg(buf.size() / sizeof(double));
  std::memcpy(msg.data(), buf.data(), msg.size() * sizeof(double));
  out.has_solution = msg[0] > 0.5 && buf.size() == expected;
  out.proven_optimal = out.has_solution && msg[1] > 0.5;
  out.best_bound = msg[2];
  if (out.has_solution) out.values.assign(msg.begin() + 3, msg.end());
  return out;
}

// Acyclicity up front for the cyclic part only: a level t_c in [0, K-1] per
// class of a strongly connected component of size K, and for each node n of
// c with a child class d in the same component t_c - t_d - K y_n >= 1 - K
// (a chosen node sits strictly above its children). Edges between components
// can never close a cycle and get no constraint.
void add_level_constraints(const ExtractionProblem& p, const Reduced& red, Columns& cols,
                           RowSet& rows) {
  const std::vector<std::uint32_t> comp = strongly_connected_classes(p, &red.usable);
  std::vector<int> sizes(p.num_classes(), 0);
  for (ClassId c : red.classes) ++sizes[comp[c]];
  std::vector<int> level_col(p.num_classes(), -1);
  for (ClassId c : red.classes) {
    const int k = sizes[comp[c]];
    if (k > 1) level_col[c] = cols.add(0.0, 0.0, k - 1.0, false);
  }
  for (std::size_t i = 0; i < red.classes.size(); ++i) {
    const ClassId c = red.classes[i];
    if (level_col[c] < 0) continue;
    const double k = sizes[comp[c]];
    for (NodeId n : red.nodes_of[i])
      for (ClassId d : distinct_children(p, n))
        if (comp[d] == comp[c])
          rows.add({{level_col[c], 1.0}, {level_col[d], -1.0}, {red.node_col[n], -k}}, 1.0 - k,
                   1e30);
  }
}

// Cuts for every cycle of two or three classes among usable nodes (n in c
// uses d, m in d uses c; or c -> d -> e -> c), added before the first solve.
// Such short cycles are the common ones (inverse rewrites like
// transpose(transpose(x)) or split(concat(a, b)) -> a), and cutting them up
// front saves many solve rounds. Each cycle is enumerated once, from its
// smallest class. Stops adding after `max_cuts`.
void add_short_cycle_cuts(const ExtractionProblem& p, const Reduced& red, RowSet& rows,
                          std::size_t max_cuts) {
  std::size_t added = 0;
  auto uses = [&](NodeId m, ClassId c) {
    const auto k = p.children(m);
    return std::find(k.begin(), k.end(), c) != k.end();
  };
  auto usable_nodes = [&](ClassId d) {
    std::vector<NodeId> out;
    for (NodeId m : p.class_nodes(d))
      if (red.usable[m] && red.node_col[m] >= 0) out.push_back(m);
    return out;
  };
  for (std::size_t i = 0; i < red.classes.size() && added < max_cuts; ++i) {
    const ClassId c = red.classes[i];
    for (NodeId n : red.nodes_of[i])
      for (ClassId d : distinct_children(p, n)) {
        if (d <= c || red.class_col[d] < 0) continue;
        for (NodeId m : usable_nodes(d)) {
          if (uses(m, c)) {
            rows.add({{red.node_col[n], 1.0}, {red.node_col[m], 1.0}}, -1e30, 1.0);
            ++added;
          }
          for (ClassId e : distinct_children(p, m)) {
            if (e <= c || e == d || red.class_col[e] < 0) continue;
            for (NodeId k : usable_nodes(e))
              if (uses(k, c)) {
                rows.add({{red.node_col[n], 1.0}, {red.node_col[m], 1.0}, {red.node_col[k], 1.0}},
                         -1e30, 2.0);
                ++added;
              }
          }
        }
      }
  }
}

// With negative costs the solver would switch on classes nobody uses just for
// their cost: a non-root class may only be extracted when a chosen node uses
// it (x_c <= sum of its parents' y). Together with the cycle cuts, every
// extracted class is then reachable from a root.
void add_used_only_constraints(const ExtractionProblem& p, const Reduced& red, RowSet& rows) {
  std::vector<unsigned char> is_root(p.num_classes(), 0);
  for (ClassId r : p.roots()) is_root[r] = 1;
  for (ClassId c : red.classes) {
    if (is_root[c]) continue;
    std::vector<std::pair<int, double>> row{{red.class_col[c], 1.0}};
    for (NodeId n : p.parents(c))
      if (red.usable[n] && red.node_col[n] >= 0) row.emplace_back(red.node_col[n], -1.0);
    std::sort(row.begin() + 1, row.end());
    row.erase(std::unique(row.begin() + 1, row.end()), row.end());
    rows.add(std::move(row), -1e30, 0.0);
  }
}

// Why CBC cannot take `p`, or nothing. CLP asserts (aborting the process) on
// objective coefficients of 1e25 and more; such costs are not worth a solver
// run anyway.
std::optional<std::string> beyond_solver(const ExtractionProblem& p) {
  double largest_cost = 0;
  for (NodeId n = 0; n < p.num_nodes(); ++n)
    largest_cost = std::max(largest_cost, std::abs(p.node_cost(n)));
  if (!(largest_cost < kMaxSolverCost))
    return fmt::format("solver skipped: a node cost of {:g} is beyond what CBC handles (< {:g})",
                       largest_cost, kMaxSolverCost);
  return std::nullopt;
}

bool has_negative_costs(const ExtractionProblem& p) {
  bool negative_costs = false;
  for (NodeId n = 0; n < p.num_nodes(); ++n) negative_costs = negative_costs || p.node_cost(n) < 0;
  return negative_costs;
}

// The 0/1 program of the file comment, before any cycle cut found by solving:
// one column per x_c / y_n, the choice rows (sum y_n = x_c, y_n <= x_d), the
// roots fixed to 1, then the optional rows (used-only, short-cycle cuts,
// levels) in that order.
void build_model(const ExtractionProblem& p, const Reduced& red, bool negative_costs,
                 const ExtractOptions& opt, Columns& cols, RowSet& rows) {
  for (int i = 0; i < red.num_cols; ++i) cols.add(0.0, 0.0, 1.0, true);
  for (std::size_t i = 0; i < red.classes.size(); ++i) {
    const ClassId c = red.classes[i];
    const auto& ns = red.nodes_of[i];
    if (ns.size() > 1) {
      std::vector<std::pair<int, double>> row{{red.class_col[c], -1.0}};
      for (NodeId n : ns) row.emplace_back(red.node_col[n], 1.0);
      rows.add(std::move(row), 0.0, 0.0);
    }
    for (NodeId n : ns) {
      cols.obj[red.node_col[n]] = p.node_cost(n);
      for (ClassId d : distinct_children(p, n))
        rows.add({{red.node_col[n], 1.0}, {red.class_col[d], -1.0}}, -1e30, 0.0);
    }
  }
  for (ClassId r : p.roots()) cols.lo[red.class_col[r]] = 1.0;
  if (negative_costs) add_used_only_constraints(p, red, rows);
  add_short_cycle_cuts(p, red, rows, 200000);
  if (opt.ilp_levels) add_level_constraints(p, red, cols, rows);
}

// The warm start as a value for every column (see MipStart), or nothing
// when it uses a node the reduction dropped.
MipStart mip_start_for(const ExtractionProblem& p, const Reduced& red, const Columns& cols,
                       const std::vector<NodeId>& choice) {
  MipStart start(cols.obj.size(), 0.0);
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    if (choice[c] == kNoNode) continue;
    const int nc = red.node_col[choice[c]];
    if (nc < 0 || red.class_col[c] < 0) return MipStart{};  // outside the reduced model
    start[red.class_col[c]] = 1.0;
    start[nc] = 1.0;
  }
  return start;
}

// The objective the model gives a solution's column values.
double model_objective(const Columns& cols, const std::vector<double>& values) {
  double sum = 0;
  for (std::size_t i = 0; i < values.size() && i < cols.obj.size(); ++i)
    sum += cols.obj[i] * values[i];
  return sum;
}

double tolerance(double v) {
  return 1e-7 * std::max(1.0, std::abs(v));
}

// The choice per class a solution's column values say (kNoNode where none).
std::vector<NodeId> decode_choice(const ExtractionProblem& p, const Reduced& red,
                                  const std::vector<double>& values) {
  std::vector<NodeId> choice(p.num_classes(), kNoNode);
  for (std::size_t i = 0; i < red.classes.size(); ++i) {
    const ClassId c = red.classes[i];
    for (NodeId n : red.nodes_of[i])
      if (values[red.node_col[n]] > 0.5 && values[red.class_col[c]] > 0.5) choice[c] = n;
  }
  return choice;
}

// One cut per cycle: not all of its nodes may be chosen together.
void add_cycle_cuts(const Reduced& red, const std::vector<std::vector<NodeId>>& cycles,
                    RowSet& rows) {
  for (const auto& cyc : cycles) {
    std::vector<std::pair<int, double>> row;
    for (NodeId n : cyc) row.emplace_back(red.node_col[n], 1.0);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    rows.add(std::move(row), -1e30, static_cast<double>(cyc.size()) - 1.0);
  }
}

// Takes an acyclic solution of the model: keeps it when it beats `best` (or
// ties with it and is proven), and marks `best` optimal when CBC's proof can
// be trusted. `bound` is the lower bound so far.
void take_acyclic_solution(const ExtractionProblem& p, std::vector<NodeId> choice,
                           const SolveOutcome& out, const Columns& cols, bool verbose,
                           Extraction& best, double& bound) {
  Extraction e = finish_extraction(p, std::move(choice));
  // CBC's optimum is trusted only when the decoded extraction costs what
  // the model says and nothing known is cheaper.
  const bool consistent = e.dag_cost <= model_objective(cols, out.values) + tolerance(e.dag_cost);
  const bool proven =
      out.proven_optimal && consistent && best.dag_cost >= e.dag_cost - tolerance(e.dag_cost);
  if (verbose)
    std::fprintf(stderr, "ilp: acyclic solution %.9g (model %.9g), best known %.9g\n", e.dag_cost,
                 model_objective(cols, out.values), best.dag_cost);
  if (e.dag_cost < best.dag_cost || (proven && e.dag_cost <= best.dag_cost + tolerance(e.dag_cost)))
    best = std::move(e);
  if (proven) {
    best.optimal = true;
    bound = std::max(bound, best.dag_cost);
    best.stopped_by.clear();
  } else if (out.proven_optimal) {
    best.stopped_by = "solver inconsistent: its optimum does not match the extraction";
    bound = 0;  // nothing CBC said can be trusted
  }
}

// Solves, cuts the cycles of the solution, and solves again until a solution
// is acyclic, the solver gives none, or the deadline nears; each round is
// warm-started with `best`. Returns the lower bound the rounds proved.
double solve_until_acyclic(const ExtractionProblem& p, const Reduced& red, const Columns& cols,
                           RowSet& rows, const Deadline& deadline, bool verbose, Extraction& best) {
  double bound = 0;
  best.stopped_by = "time limit";
  while (deadline.remaining_s() > 0.2) {
    const SolveOutcome out = solve(cols, rows, mip_start_for(p, red, cols, best.choice),
                                   deadline.remaining_s(), verbose);
    if (verbose)
      std::fprintf(stderr, "ilp: solve done, %.1f s left, solution %d, proven %d, bound %.9g\n",
                   deadline.remaining_s(), out.has_solution, out.proven_optimal, out.best_bound);
    // The model without the cuts still to come is a relaxation: its bound
    // holds for the acyclic problem too.
    bound = std::max(bound, out.best_bound);
    if (!out.has_solution) {
      if (out.crashed) best.stopped_by = "solver failed: the CBC process exited abnormally";
      break;
    }
    std::vector<NodeId> choice = decode_choice(p, red, out.values);
    // All chosen classes, roots first: with negative costs, cycles outside
    // the roots' reach must be cut too.
    const auto cycles = extract_detail::find_cycles(p, choice, /*roots_only=*/false);
    if (cycles.empty()) {
      take_acyclic_solution(p, std::move(choice), out, cols, verbose, best, bound);
      break;
    }
    add_cycle_cuts(red, cycles, rows);
    if (verbose)
      std::fprintf(stderr, "ilp: %zu cycle cuts added (%zu rows)\n", cycles.size(),
                   rows.rows.size());
  }
  return bound;
}

}  // namespace

Extraction extract_ilp(const ExtractionProblem& p, const ExtractOptions& opt) {
  const Deadline deadline(opt.time_limit_s);
  ExtractOptions greedy_opt = opt;
  Extraction best = extract_greedy_dag(p, greedy_opt);  // throws if no extraction exists
  if (std::optional<std::string> why = beyond_solver(p)) {
    best.stopped_by = std::move(*why);
    return best;
  }
  const auto derivable = extract_detail::derivable_choice(p);
  const bool negative_costs = has_negative_costs(p);
  const Reduced red = reduce(p, derivable, negative_costs);

  Columns cols;
  RowSet rows;
  build_model(p, red, negative_costs, opt, cols, rows);
  if (opt.verbose)
    std::fprintf(stderr, "ilp: %zu/%zu classes, %d columns, %zu rows after reduction\n",
                 red.classes.size(), p.num_classes(), red.num_cols, rows.rows.size());

  const double bound = solve_until_acyclic(p, red, cols, rows, deadline, opt.verbose, best);
  best.lower_bound = best.optimal ? best.dag_cost : std::min(bound, best.dag_cost);
  return best;
}

}  // namespace eqfuse
