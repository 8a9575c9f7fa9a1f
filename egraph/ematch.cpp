#include "egraph/ematch.hpp"

#include <fmt/format.h>

namespace eqfuse {

Matcher::Matcher(MultiPattern pattern) : pattern_(std::move(pattern)) {
  compile();
}

namespace {
bool subtree_has_var(const Pattern& p, uint32_t node) {
  const PatternNode& n = p.nodes()[node];
  if (n.is_var) return true;
  for (uint32_t c : p.children(n)) {
    if (subtree_has_var(p, c)) return true;
  }
  return false;
}
}  // namespace

void Matcher::compile() {
  var_reg_.assign(pattern_.vars().size(), UINT32_MAX);
  const auto& parts = pattern_.parts();
  for (uint32_t pi = 0; pi < parts.size(); ++pi) {
    const Pattern& p = parts[pi].pattern;
    const PatternNode& root = p.root_node();
    uint32_t reg;
    std::optional<uint32_t> root_var;
    if (!parts[pi].root_var.empty()) root_var = pattern_.var_index(parts[pi].root_var);
    if (root_var && var_reg_[*root_var] != UINT32_MAX) {
      reg = var_reg_[*root_var];  // already bound by an earlier part: no scan
    } else {
      reg = new_reg();
      if (root.is_var) {
        program_.push_back({Code::ScanAll, reg, {}, 0, 0, 0});
      } else {
        program_.push_back({Code::Scan, reg, root.op, 0, 0, 0});
      }
      if (root_var) var_reg_[*root_var] = reg;
    }
    compile_node(p, p.root(), reg, pi);
  }
}

void Matcher::compile_node(const Pattern& p, uint32_t node, uint32_t reg, uint32_t part) {
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
  // Cheap checks first (variables, ground terms), then deeper structure.
  for (uint32_t k = 0; k < n.arity; ++k) {
    if (p.nodes()[kids[k]].is_var) compile_node(p, kids[k], out + k, part);
  }
  for (uint32_t k = 0; k < n.arity; ++k) {
    const PatternNode& c = p.nodes()[kids[k]];
    if (!c.is_var && !subtree_has_var(p, kids[k])) {
      program_.push_back({Code::Ground, out + k, {}, 0, 0, static_cast<uint32_t>(grounds_.size())});
      grounds_.emplace_back(part, kids[k]);
    }
  }
  for (uint32_t k = 0; k < n.arity; ++k) {
    if (subtree_has_var(p, kids[k]) && !p.nodes()[kids[k]].is_var) {
      compile_node(p, kids[k], out + k, part);
    }
  }
}

// One execution of the program: registers, resolved ground classes, output.
struct Matcher::Run {
  const Matcher& m;
  const EGraph& g;
  std::vector<Id>& out;
  size_t limit;
  size_t found = 0;
  Id only_root = kNoId;
  std::vector<Id> regs;
  std::vector<Id> ground_ids;

  bool full() const { return found > limit; }

  void emit() {
    out.push_back(regs[0]);
    for (uint32_t r : m.var_reg_) out.push_back(regs[r]);
    ++found;
  }

  void exec(size_t pc) {
    if (pc == m.program_.size()) {
      emit();
      return;
    }
    const Instr& in = m.program_[pc];
    switch (in.code) {
      case Code::Scan: {
        if (pc == 0 && only_root != kNoId) {
          regs[in.reg] = only_root;
          exec(pc + 1);
          return;
        }
        for (Id c : g.classes_with_op(in.op)) {
          regs[in.reg] = c;
          exec(pc + 1);
          if (full()) return;
        }
        return;
      }
      case Code::ScanAll: {
        if (pc == 0 && only_root != kNoId) {
          regs[in.reg] = only_root;
          exec(pc + 1);
          return;
        }
        for (Id c : g.class_ids()) {
          regs[in.reg] = c;
          exec(pc + 1);
          if (full()) return;
        }
        return;
      }
      case Code::Bind: {
        for (Id n : g.class_nodes_with_op(regs[in.reg], in.op)) {
          NodeView v = g.node(n);
          if (v.payload != in.payload || v.children.size() != in.arity) continue;
          for (uint32_t k = 0; k < in.arity; ++k) regs[in.out + k] = v.children[k];
          exec(pc + 1);
          if (full()) return;
        }
        return;
      }
      case Code::Compare:
        if (regs[in.reg] == regs[in.out]) exec(pc + 1);
        return;
      case Code::Ground:
        if (regs[in.reg] == ground_ids[in.out]) exec(pc + 1);
        return;
    }
  }

  // Resolves ground sub-terms; false if one is absent (then nothing matches).
  bool resolve_grounds() {
    for (auto [part, node] : m.grounds_) {
      const Pattern& p = m.pattern_.parts()[part].pattern;
      std::optional<Id> id = lookup_ground(p, node);
      if (!id) return false;
      ground_ids.push_back(*id);
    }
    return true;
  }
  std::optional<Id> lookup_ground(const Pattern& p, uint32_t node) {
    const PatternNode& n = p.nodes()[node];
    ChildVec kids;
    for (uint32_t c : p.children(n)) {
      auto id = lookup_ground(p, c);
      if (!id) return std::nullopt;
      kids.push_back(*id);
    }
    return g.lookup(n.op, as_span(kids), n.payload);
  }
};

size_t Matcher::search(const EGraph& g, std::vector<Id>& out, size_t limit) const {
  Run run{*this, g, out, limit, 0, kNoId, {}, {}};
  run.regs.assign(num_regs_, kNoId);
  if (!run.resolve_grounds()) return 0;
  run.exec(0);
  return run.found;
}

size_t Matcher::search_class(const EGraph& g, Id cls, std::vector<Id>& out) const {
  Run run{*this, g, out, std::numeric_limits<size_t>::max(), 0, kNoId, {}, {}};
  run.regs.assign(num_regs_, kNoId);
  run.only_root = g.find(cls);
  if (!run.resolve_grounds()) return 0;
  // A Scan root must still contain the operator.
  const Instr& first = program_.front();
  if (first.code == Code::Scan && g.class_nodes_with_op(run.only_root, first.op).empty()) return 0;
  run.exec(0);
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
        s += fmt::format("bind r{} {}/{} -> r{}..\n", in.reg, in.op.str(), in.arity, in.out);
        break;
      case Code::Compare:
        s += fmt::format("compare r{} r{}\n", in.reg, in.out);
        break;
      case Code::Ground:
        s += fmt::format("ground r{} #{}\n", in.reg, in.out);
        break;
    }
  }
  return s;
}

}  // namespace eqfuse
