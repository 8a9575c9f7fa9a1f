#include "egraph/ematch.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace eqfuse {

Matcher::Matcher(MultiPattern pattern) : pattern_(std::move(pattern)) {
  compile();
}

void Matcher::add_guard(std::vector<uint32_t> vars, GuardFn fn) {
  for (uint32_t v : vars)
    if (v >= pattern_.vars().size()) throw std::out_of_range("guard variable index");
  guards_.push_back({std::move(vars), std::move(fn)});
  compile();
}

void Matcher::compile() {
  program_.clear();
  num_regs_ = 0;
  last_bind_ = kNoLastBind;
  var_reg_.assign(pattern_.vars().size(), UINT32_MAX);
  const auto& parts = pattern_.parts();
  bool has_scan_all = false;
  for (const auto& part : parts) {
    const Pattern& p = part.pattern;
    const PatternNode& root = p.root_node();
    std::optional<uint32_t> root_var;
    if (!part.root_var.empty()) root_var = pattern_.var_index(part.root_var);
    uint32_t reg;
    if (root_var && var_reg_[*root_var] != UINT32_MAX) {
      reg = var_reg_[*root_var];  // already bound by an earlier part: no scan
    } else {
      reg = new_reg();
      if (root.is_var) {
        program_.push_back({Code::ScanAll, reg, {}, 0, 0, 0});
        has_scan_all = true;
      } else if (!scan_parents(p, reg)) {
        program_.push_back({Code::Scan, reg, root.op, 0, 0, 0});
      }
      if (root_var) var_reg_[*root_var] = reg;
    }
    compile_node(p, p.root(), reg);
  }
  place_guards();
  for (size_t pc = 0; pc < program_.size(); ++pc) {
    if (program_[pc].code == Code::Bind) last_bind_ = pc;
  }
  // A class bound by ScanAll is not a node: semi-naive filtering would
  // miss matches whose only change is a new class there.
  if (has_scan_all) last_bind_ = kNoLastBind;
}

bool Matcher::scan_parents(const Pattern& p, uint32_t reg) {
  const PatternNode& root = p.root_node();
  auto kids = p.children(root);
  for (uint32_t k = 0; k < root.arity; ++k) {
    const PatternNode& child = p.nodes()[kids[k]];
    if (!child.is_var) continue;
    const uint32_t bound = var_reg_[*pattern_.var_index(p.vars()[child.var])];
    if (bound == UINT32_MAX) continue;
    program_.push_back({Code::ScanParents, reg, root.op, 0, k, bound});
    return true;
  }
  return false;
}

// Each guard goes right after the instruction that writes the last of its
// variables' registers (a Scan of a root, or the Bind of a parent node).
void Matcher::place_guards() {
  std::vector<size_t> written_at(num_regs_, 0);
  for (size_t pc = 0; pc < program_.size(); ++pc) {
    const Instr& in = program_[pc];
    if (in.code == Code::Scan || in.code == Code::ScanAll || in.code == Code::ScanParents)
      written_at[in.reg] = pc;
    if (in.code == Code::Bind)
      for (uint32_t k = 0; k < in.arity; ++k) written_at[in.out + k] = pc;
  }
  std::vector<std::pair<size_t, uint32_t>> at;  // (insert after pc, guard)
  for (uint32_t gi = 0; gi < guards_.size(); ++gi) {
    size_t after = 0;
    for (uint32_t v : guards_[gi].vars) after = std::max(after, written_at[var_reg_[v]]);
    at.emplace_back(after, gi);
  }
  // From the back, so the earlier positions stay valid.
  std::stable_sort(at.begin(), at.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [after, gi] : at)
    program_.insert(program_.begin() + static_cast<std::ptrdiff_t>(after) + 1,
                    Instr{Code::Guard, gi, {}, 0, 0, 0});
}

void Matcher::compile_node(const Pattern& p, uint32_t node, uint32_t reg) {
  const PatternNode& n = p.nodes()[node];
  if (n.is_var) {
    uint32_t v = *pattern_.var_index(p.vars()[n.var]);
    if (var_reg_[v] == UINT32_MAX) {
      var_reg_[v] = reg;
    } else if (var_reg_[v] != reg) {
      program_.push_back({Code::Compare, reg, {}, 0, 0, var_reg_[v]});
    }
    return;
  }
  uint32_t out = num_regs_;
  num_regs_ += n.arity;
  program_.push_back({Code::Bind, reg, n.op, n.payload, n.arity, out});
  auto kids = p.children(n);
  // Variables first (repeated ones prune early), then sub-terms.
  for (uint32_t k = 0; k < n.arity; ++k) {
    if (p.nodes()[kids[k]].is_var) compile_node(p, kids[k], out + k);
  }
  for (uint32_t k = 0; k < n.arity; ++k) {
    if (!p.nodes()[kids[k]].is_var) compile_node(p, kids[k], out + k);
  }
}

// Bind loads node records this many entries ahead of the one it matches.
constexpr size_t kPrefetchAhead = 4;

// One execution of the program.
struct Matcher::Run {
  const Matcher& m;
  const EGraph& g;
  std::vector<Id>& out;
  size_t limit;
  uint32_t since;
  size_t found = 0;
  Id only_root = kNoId;
  std::vector<Id> regs;
  std::vector<Id> guard_args;
  // Matches are staged here and appended to `out` a block at a time: a match
  // costs a few stores instead of a push_back (and a size update) per id.
  std::array<Id, 1024> staged;
  size_t staged_used = 0;

  bool full() const { return found > limit; }

  void emit() {
    const size_t vars = m.var_reg_.size();
    if (staged_used + 1 + vars > staged.size()) flush();
    Id* dst = staged.data() + staged_used;
    dst[0] = regs[0];
    for (size_t i = 0; i < vars; ++i) dst[1 + i] = regs[m.var_reg_[i]];
    staged_used += 1 + vars;
    ++found;
  }
  void flush() {
    out.insert(out.end(), staged.data(), staged.data() + staged_used);
    staged_used = 0;
  }
  // Every match reaches `out`, also when a guard throws.
  ~Run() { flush(); }

  // `newest`: the newest stamp among nodes bound so far.
  void exec(size_t pc, uint32_t newest) {
    if (pc == m.program_.size()) {
      emit();
      return;
    }
    const Instr& in = m.program_[pc];
    switch (in.code) {
      case Code::Scan:
        if (pc == 0 && only_root != kNoId) {
          regs[in.reg] = only_root;
          exec(pc + 1, newest);
          return;
        }
        for (Id c : g.classes_with_op(in.op)) {
          regs[in.reg] = c;
          exec(pc + 1, newest);
          if (full()) return;
        }
        return;
      case Code::ScanAll:
        if (pc == 0 && only_root != kNoId) {
          regs[in.reg] = only_root;
          exec(pc + 1, newest);
          return;
        }
        for (Id c : g.class_ids()) {
          regs[in.reg] = c;
          exec(pc + 1, newest);
          if (full()) return;
        }
        return;
      case Code::ScanParents: {
        // The classes a Scan would visit whose `op` node has the bound class at the
        // child position, ascending as classes_with_op lists them: the same matches
        // in the same order, without a pass over every class.
        const Id child = g.find(regs[in.out]);
        std::vector<Id> roots;
        for (Id parent : g.class_parents(child)) {
          if (!g.node_alive(parent) || g.node_op(parent) != in.op) continue;
          std::span<const Id> kids = g.node(parent).children;
          if (in.arity < kids.size() && g.find(kids[in.arity]) == child)
            roots.push_back(g.find(parent));
        }
        std::sort(roots.begin(), roots.end());
        roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
        for (Id c : roots) {
          regs[in.reg] = c;
          exec(pc + 1, newest);
          if (full()) return;
        }
        return;
      }
      case Code::Bind: {
        Id cls = regs[in.reg];
        // Last chance to bind something new: old classes cannot help.
        bool need_new = pc == m.last_bind_ && newest < since;
        if (need_new && g.class_stamp(cls) < since) return;
        // The last instruction emits in place: no call per match.
        const bool last = pc + 1 == m.program_.size();
        std::span<const Id> nodes = g.class_nodes_with_op(cls, in.op);
        for (size_t i = 0; i < nodes.size(); ++i) {
          // A class's node records lie far apart: start loading a few ahead.
          if (i + kPrefetchAhead < nodes.size()) g.prefetch_node(nodes[i + kPrefetchAhead]);
          Id n = nodes[i];
          uint32_t stamp = g.node_stamp(n);
          if (need_new && stamp < since) continue;
          NodeView v = g.node(n);
          if (v.payload != in.payload || v.children.size() != in.arity) continue;
          for (uint32_t k = 0; k < in.arity; ++k) regs[in.out + k] = v.children[k];
          if (last) {
            emit();
          } else {
            exec(pc + 1, std::max(newest, stamp));
          }
          if (full()) return;
        }
        return;
      }
      case Code::Compare:
        if (regs[in.reg] == regs[in.out]) exec(pc + 1, newest);
        return;
      case Code::Guard: {
        // One scratch buffer per run: the guard has read it before the
        // search goes deeper and a later guard refills it.
        const GuardDef& guard = m.guards_[in.reg];
        guard_args.clear();
        for (uint32_t v : guard.vars) guard_args.push_back(regs[m.var_reg_[v]]);
        if (guard.fn(g, guard_args)) exec(pc + 1, newest);
        return;
      }
    }
  }
};

size_t Matcher::search(const EGraph& g, std::vector<Id>& out, size_t limit, uint32_t since) const {
  if (!supports_semi_naive()) since = 0;
  Run run{*this, g, out, limit, since, 0, kNoId, {}, {}, {}, 0};
  run.regs.assign(num_regs_, kNoId);
  run.exec(0, 0);
  return run.found;
}

size_t Matcher::search_class(const EGraph& g, Id cls, std::vector<Id>& out) const {
  Run run{*this, g, out, std::numeric_limits<size_t>::max(), 0, 0, kNoId, {}, {}, {}, 0};
  run.regs.assign(num_regs_, kNoId);
  run.only_root = g.find(cls);
  const Instr& first = program_.front();
  if (first.code == Code::Scan && g.class_nodes_with_op(run.only_root, first.op).empty()) return 0;
  run.exec(0, 0);
  return run.found;
}

std::string Matcher::program_string() const {
  std::string s;
  for (const Instr& in : program_) {
    switch (in.code) {
      case Code::Scan:
        s += fmt::format("scan r{} {}\n", in.reg, in.op.str());
        break;
      case Code::ScanAll:
        s += fmt::format("scan-all r{}\n", in.reg);
        break;
      case Code::ScanParents:
        s += fmt::format("scan-parents r{} {} of r{} at {}\n", in.reg, in.op.str(), in.out,
                         in.arity);
        break;
      case Code::Bind:
        s += fmt::format("bind r{} {}/{} -> r{}\n", in.reg, in.op.str(), in.arity, in.out);
        break;
      case Code::Compare:
        s += fmt::format("compare r{} r{}\n", in.reg, in.out);
        break;
      case Code::Guard:
        s += fmt::format("guard g{}\n", in.reg);
        break;
    }
  }
  return s;
}

}  // namespace eqfuse
