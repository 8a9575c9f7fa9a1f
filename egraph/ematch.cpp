#include "egraph/ematch.hpp"

#include <fmt/format.h>

namespace eqfuse {

Matcher::Matcher(MultiPattern pattern) : pattern_(std::move(pattern)) {
  compile();
}

void Matcher::compile() {
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
      } else {
        program_.push_back({Code::Scan, reg, root.op, 0, 0, 0});
      }
      if (root_var) var_reg_[*root_var] = reg;
    }
    compile_node(p, p.root(), reg);
  }
  for (size_t pc = 0; pc < program_.size(); ++pc) {
    if (program_[pc].code == Code::Bind) last_bind_ = pc;
  }
  // A class bound by ScanAll is not a node: semi-naive filtering would
  // miss matches whose only change is a new class there.
  if (has_scan_all) last_bind_ = kNoLastBind;
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

  bool full() const { return found > limit; }

  void emit() {
    out.push_back(regs[0]);
    for (uint32_t r : m.var_reg_) out.push_back(regs[r]);
    ++found;
  }

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
      case Code::Bind: {
        Id cls = regs[in.reg];
        // Last chance to bind something new: old classes cannot help.
        bool need_new = pc == m.last_bind_ && newest < since;
        if (need_new && g.class_stamp(cls) < since) return;
        for (Id n : g.class_nodes_with_op(cls, in.op)) {
          uint32_t stamp = g.node_stamp(n);
          if (need_new && stamp < since) continue;
          NodeView v = g.node(n);
          if (v.payload != in.payload || v.children.size() != in.arity) continue;
          for (uint32_t k = 0; k < in.arity; ++k) regs[in.out + k] = v.children[k];
          exec(pc + 1, std::max(newest, stamp));
          if (full()) return;
        }
        return;
      }
      case Code::Compare:
        if (regs[in.reg] == regs[in.out]) exec(pc + 1, newest);
        return;
    }
  }
};

size_t Matcher::search(const EGraph& g, std::vector<Id>& out, size_t limit, uint32_t since) const {
  if (!supports_semi_naive()) since = 0;
  Run run{*this, g, out, limit, since, 0, kNoId, {}};
  run.regs.assign(num_regs_, kNoId);
  run.exec(0, 0);
  return run.found;
}

size_t Matcher::search_class(const EGraph& g, Id cls, std::vector<Id>& out) const {
  Run run{*this, g, out, std::numeric_limits<size_t>::max(), 0, 0, kNoId, {}};
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
      case Code::Bind:
        s += fmt::format("bind r{} {}/{} -> r{}\n", in.reg, in.op.str(), in.arity, in.out);
        break;
      case Code::Compare:
        s += fmt::format("compare r{} r{}\n", in.reg, in.out);
        break;
    }
  }
  return s;
}

}  // namespace eqfuse
