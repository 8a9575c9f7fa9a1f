// Compiling RuleDefs into e-graph rewrites (egraph/rewrite.hpp); the format
// of what is produced is described in rewrites/rule.hpp.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/suggest.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/from_graph.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_example.hpp"

namespace eqfuse {
namespace {

// Builds patterns for the nodes of one side of a rule. Ops get `payload`
// (the stream label) so the rule only matches nodes of that stream.
class SideCompiler {
 public:
  SideCompiler(const RuleDef& rule, const Graph& g, const OpRegistry& reg, uint64_t payload)
      : rule_(rule), g_(g), reg_(reg), payload_(payload), memo_(g.size()) {}

  Pattern pattern(NodeRef r) { return b_.build(handle(r)); }
  const Graph& graph() const { return g_; }

  // From now on, literal arguments of op calls become fresh variables
  // ("lit:0", "lit:1", ...), recorded in relaxed(); getitem indices stay.
  void relax_literals() { relax_ = true; }
  struct Relaxed {
    std::string var;
    NodeRef owner;    // the call node whose argument it is
    std::string arg;  // schema argument name, "name[i]" for an item of a list
    Constant value;
  };
  const std::vector<Relaxed>& relaxed() const { return relaxed_; }

  using Handle = PatternBuilder::Handle;
  struct Sink {
    SideCompiler& self;
    Handle constant(const Constant& c) { return self.literal(c); }
    Handle node(NodeRef r) { return self.handle(r); }
    Handle list(Symbol op, std::span<const Handle> items) { return self.b_.op(op, items); }
  };

  Handle handle(NodeRef r) {
    auto& slot = memo_[static_cast<size_t>(r.index)];
    if (!slot) slot = build(g_.node(r));
    return *slot;
  }

 private:
  Handle build(const Node& n) {
    static const Symbol kGetItem = Symbol::intern(graph_ops::kGetItem);
    switch (n.kind) {
      case NodeKind::Placeholder:
        return b_.var(n.name);
      case NodeKind::GetItem: {
        Handle src = handle(n.getitem_source());
        Handle idx = b_.constant(Constant::integer(n.getitem_index()));
        std::array<Handle, 2> kids{src, idx};
        return b_.op(kGetItem, kids);
      }
      case NodeKind::Call:
        return build_call(n);
      default:
        throw Error(
            fmt::format("rule '{}': node '{}' cannot appear in a pattern", rule_.name, n.name),
            n.meta.loc);
    }
  }

  Handle build_call(const Node& n) {
    const OpInfo& info = reg_.info(n.op);
    if (info.schema.returns.empty())
      throw Error(fmt::format("rule '{}': '{}' returns nothing and cannot be part of a rule",
                              rule_.name, n.target),
                  n.meta.loc);
    Sink sink{*this};
    std::vector<Handle> kids;
    for (size_t i = 0; i < n.args.size(); ++i) {
      size_t first = relaxed_.size();
      kids.push_back(encode_arg(n.args[i], sink));
      name_literals(first, n, info.schema.args.at(i).name,
                    std::holds_alternative<ArgList>(n.args[i].value));
    }
    return b_.op(Symbol::intern(info.schema.qualified_name()), kids, payload_);
  }

  Handle literal(const Constant& c) {
    if (!relax_) return b_.constant(c);
    std::string var = fmt::format("lit:{}", relaxed_.size());
    relaxed_.push_back({var, NodeRef{}, "", c});
    return b_.var(var);
  }

  // Names the literals relaxed_[first..] of argument `arg` of call `n`:
  // "dtype", or "output_mask[1]" for the items of a list encoded item by item.
  void name_literals(size_t first, const Node& n, const std::string& arg, bool is_list) {
    size_t count = relaxed_.size() - first;
    bool whole = count == 1 && (!is_list || relaxed_[first].value.kind == ConstKind::IntList);
    for (size_t k = first; k < relaxed_.size(); ++k) {
      relaxed_[k].owner = *g_.find(n.name);
      relaxed_[k].arg = whole ? arg : fmt::format("{}[{}]", arg, k - first);
    }
  }

  const RuleDef& rule_;
  const Graph& g_;
  const OpRegistry& reg_;
  uint64_t payload_;
  PatternBuilder b_;
  std::vector<std::optional<Handle>> memo_;
  bool relax_ = false;
  std::vector<Relaxed> relaxed_;
};

// Producer nodes to search for: each output with getitem projections of
// call nodes stripped, minus those inside another anchor's term.
std::vector<NodeRef> anchors(const Graph& g) {
  std::vector<NodeRef> out;
  for (NodeRef r : g.output_values()) {
    while (g.node(r).kind == NodeKind::GetItem &&
           g.node(g.node(r).getitem_source()).kind == NodeKind::Call)
      r = g.node(r).getitem_source();
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  auto reaches = [&](NodeRef from, NodeRef target) {
    std::vector<NodeRef> stack{from};
    std::set<int32_t> seen;
    while (!stack.empty()) {
      NodeRef n = stack.back();
      stack.pop_back();
      for (NodeRef in : node_inputs(g.node(n))) {
        if (in == target) return true;
        if (seen.insert(in.index).second) stack.push_back(in);
      }
    }
    return false;
  };
  std::vector<NodeRef> kept;
  for (NodeRef a : out) {
    bool inside =
        std::any_of(out.begin(), out.end(), [&](NodeRef b) { return b != a && reaches(b, a); });
    if (!inside) kept.push_back(a);
  }
  return kept;
}

// Everything a condition needs at match time.
struct ConditionContext {
  std::string rule;               // base name
  std::string rewrite;            // compiled rewrite name
  std::vector<std::string> vars;  // bound inputs, in Condition::vars order
  struct Named {
    Pattern pattern;
    std::vector<uint32_t> var_slot;  // pattern var -> index in vars
  };
  std::map<std::string, Named, std::less<>> named;  // intermediate values
  Named anchor;                                     // for the rejection log
  const CondFunctions* functions = nullptr;
  const TensorAnalysis* types = nullptr;
  int world_size = 0;  // RuleConfig::world_size
  std::shared_ptr<RejectionLog> log;

  std::optional<Id> value_class(const EGraph& g, std::string_view name,
                                std::span<const Id> values) const {
    for (size_t i = 0; i < vars.size(); ++i)
      if (vars[i] == name) return values[i];
    auto it = named.find(name);
    if (it == named.end()) return std::nullopt;
    return it->second.pattern.lookup_mapped(g, values, it->second.var_slot);
  }

  CondEnv env(const EGraph& g, std::span<const Id> values) const {
    return [this, &g, values](std::string_view name) -> std::optional<CondValue> {
      std::optional<Id> c = value_class(g, name, values);
      if (!c && name == kWorldSizeName)
        return world_size > 0
                   ? CondValue{int64_t{world_size}}
                   : CondValue{CondValue::Unknown{"the run gives no world size (--world-size)"}};
      if (!c) return CondValue{CondValue::Unknown{fmt::format("'{}' is not in the e-graph", name)}};
      return class_cond_value(g, types, *c);
    };
  }

  // For is_leaf() and distinct(): the e-class of a bound name, and whether it
  // holds a graph input or constant.
  CondOriginEnv origins(const EGraph& g, std::span<const Id> values) const {
    return [this, &g, values](std::string_view name) -> std::optional<CondOrigin> {
      std::optional<Id> c = value_class(g, name, values);
      if (!c) return std::nullopt;
      const Id cls = g.find(*c);
      return CondOrigin{cls, class_is_leaf(g, cls)};
    };
  }

  static bool class_is_leaf(const EGraph& g, Id cls) {
    static const Symbol kPlaceholder = Symbol::intern(graph_ops::kPlaceholder);
    static const Symbol kGetAttr = Symbol::intern(graph_ops::kGetAttr);
    for (Id n : g.class_nodes(cls)) {
      const Symbol op = g.node(n).op;
      if (op == kPlaceholder || op == kGetAttr) return true;
    }
    return false;
  }

  void reject(const EGraph& g, std::span<const Id> values, const std::string& cond,
              const std::string& detail) const {
    if (!log || log->entries.size() >= log->limit) return;
    std::optional<Id> root = anchor.pattern.lookup_mapped(g, values, anchor.var_slot);
    log->entries.push_back(
        {rule, root ? *root : kNoId, cond, detail, rewrite, {values.begin(), values.end()}});
  }
};

ConditionContext::Named named_pattern(SideCompiler& side, NodeRef r,
                                      const std::vector<std::string>& vars) {
  ConditionContext::Named n{side.pattern(r), {}};
  for (const std::string& v : n.pattern.vars()) {
    auto it = std::find(vars.begin(), vars.end(), v);
    n.var_slot.push_back(static_cast<uint32_t>(it - vars.begin()));
  }
  return n;
}

std::string rewrite_name(const std::string& base, bool reverse, const std::string& stream) {
  std::string name = reverse ? base + "-rev" : base;
  if (!stream.empty()) name += "@" + stream;
  return name;
}

uint64_t stream_payload(const std::string& stream) {
  return stream.empty() ? 0 : Symbol::intern(stream).id();
}

// Whether `cls` is (now) one of the load-time classes `set`.
bool in_classes(const EGraph& g, const std::vector<Id>& set, Id cls) {
  const Id c = g.find(cls);
  return std::any_of(set.begin(), set.end(), [&](Id s) { return g.find(s) == c; });
}

// The guards of an equality whose replace side is a bare input `var`
// (search output `matched` is merged with that input's class); see
// rewrites/rule.hpp "Rules that return an input".
//  * An e-class is one value, but a storage written in place holds two: the
//    emitted graph names the storage, which after the write holds the new
//    data, so a copy of it must not become the storage itself.
//  * As inductor's remove_noop_ops, never make a returned value the very
//    tensor of a graph input or of another returned value: a view that is
//    returned, or a copy whose storage is returned (through views too),
//    stays when its input lives in a graph input's or a returned storage.
void add_forwarding_guards(const std::shared_ptr<ConditionContext>& ctx, const std::string& var,
                           ConditionContext::Named matched, bool matched_is_view,
                           const LoadedEGraph& graph, std::vector<Condition>& conds) {
  const LoadedEGraph::StorageClasses& st = graph.storages;
  const std::vector<Id>& returned = matched_is_view ? graph.outputs : st.outputs;
  const size_t slot =
      static_cast<size_t>(std::find(ctx->vars.begin(), ctx->vars.end(), var) - ctx->vars.begin());
  std::string written = fmt::format("{} is not a storage written in place", var);
  conds.push_back(
      {written, ctx->vars, [ctx, slot, written, &st](const EGraph& g, std::span<const Id> vals) {
         if (!in_classes(g, st.written, vals[slot])) return true;
         ctx->reject(g, vals, written, "the graph writes it in place");
         return false;
       }});
  std::string aliasing = fmt::format("{} would not alias a graph input or output", var);
  conds.push_back({aliasing, ctx->vars,
                   [ctx, slot, aliasing, &st, &returned, m = std::move(matched)](
                       const EGraph& g, std::span<const Id> vals) {
                     std::optional<Id> value = m.pattern.lookup_mapped(g, vals, m.var_slot);
                     if (!value || !in_classes(g, returned, *value)) return true;
                     if (!in_classes(g, st.inputs, vals[slot]) &&
                         !in_classes(g, st.outputs, vals[slot]))
                       return true;
                     ctx->reject(g, vals, aliasing,
                                 "the value is returned and the input is a graph input or output");
                     return false;
                   }});
}

// Where lines the e-matcher can check on a partial match, as guards: a line of
// `is_leaf(v)` calls (each v a bound input) and a line that is one
// `ordered(a, b, ...)` of bound inputs. The condition itself still runs on
// every full match; the guard only stops the search early. Without them,
// mindspore/matmul-split-3 enumerated the cube of every activation's matmuls
// before refusing nearly all of them (2.3 M matches on the Mixtral corpus graph).
void add_matcher_guards(const RuleDef& rule, Rewrite& rw) {
  const std::vector<std::string>& vars = rw.vars();
  auto bound = [&](const std::vector<std::string>& names) {
    return std::all_of(names.begin(), names.end(), [&](const std::string& n) {
      return std::find(vars.begin(), vars.end(), n) != vars.end();
    });
  };
  for (const CondExpr& c : rule.where) {
    if (auto leaves = c.calls_only("is_leaf")) {
      for (const std::vector<std::string>& v : *leaves)
        if (bound(v))
          rw.add_search_guard(v, [](const EGraph& g, std::span<const Id> ids) {
            return ConditionContext::class_is_leaf(g, g.find(ids[0]));
          });
    } else if (auto ordered = c.calls_only("ordered"); ordered && ordered->size() == 1) {
      const std::vector<std::string>& args = ordered->front();
      if (args.size() < 2 || !bound(args)) continue;
      rw.add_search_guard(args, [](const EGraph& g, std::span<const Id> ids) {
        for (size_t i = 1; i < ids.size(); ++i)
          if (!(g.find(ids[i - 1]) < g.find(ids[i]))) return false;
        return true;
      });
    }
  }
}

// Adds a literal to the e-graph, as a loaded graph encodes it (bridge/arg_encoding.hpp).
struct EGraphLiteralSink {
  EGraph& g;
  Id constant(const Constant& c) { return g.add_constant(c); }
  Id node(NodeRef) { throw std::logic_error("a let: value is a literal, not a node"); }
  Id list(Symbol op, std::span<const Id> items) { return g.add(op, items); }
};

// A `let:` as a computed variable: its expression evaluated on the match's values like a
// condition, the literal added to the e-graph. A value that cannot be computed (unknown, an
// error, not a literal) skips the match, logged as a rejection of `let: ...` so explain says
// why the rule did not fire. It reads every bound variable, in condition order, for that log.
ComputedVar computed_let(const RuleDef::Let& l, const std::shared_ptr<ConditionContext>& ctx) {
  std::string text = fmt::format("let: {} = {}", l.name, l.expr.text());
  auto compute = [ctx, expr = l.expr, text](EGraph& g,
                                            std::span<const Id> ids) -> std::optional<Id> {
    CondValueResult r = evaluate_value(expr, ctx->env(g, ids), *ctx->functions);
    std::optional<Arg> lit = r.value ? literal_of_cond_value(*r.value) : std::nullopt;
    if (!lit) {
      ctx->reject(g, ids, text,
                  r.value ? fmt::format("{} is not a literal", r.value->to_string()) : r.error);
      return std::nullopt;
    }
    EGraphLiteralSink sink{g};
    return encode_arg(*lit, sink);
  };
  return {l.name, ctx->vars, std::move(compute)};
}

// The last condition of an `assumption` rule: never refuses, records which classes the
// match bound the assumptions' inputs to (the rule's conditions all held by then).
Condition assumption_recorder(const RuleDef& rule, const std::shared_ptr<AssumptionLog>& log) {
  std::vector<std::string> names;
  for (const InputAssumption& a : rule.assumes) {
    names.push_back(a.derived);
    names.insert(names.end(), a.sources.begin(), a.sources.end());
  }
  return {"assume", names, [log, name = rule.name](const EGraph&, std::span<const Id> ids) {
            log->uses[name].emplace(ids.begin(), ids.end());
            return true;
          }};
}

Rewrite compile_direction(const RuleDef& rule, const OpRegistry& reg, bool reverse,
                          const std::string& stream, const CondFunctions& fns,
                          const TensorAnalysis* types, int world_size,
                          const std::shared_ptr<RejectionLog>& log,
                          const std::shared_ptr<AssumptionLog>& assumptions,
                          const LoadedEGraph* graph) {
  uint64_t payload = stream_payload(stream);
  const Graph& from_g = reverse ? rule.replace : rule.search;
  const Graph& to_g = reverse ? rule.search : rule.replace;
  SideCompiler from(rule, from_g, reg, payload), to(rule, to_g, reg, payload);

  std::vector<MultiPatternPart> parts;
  std::vector<NodeRef> anchor_nodes = anchors(from_g);
  for (NodeRef a : anchor_nodes) parts.push_back({"", from.pattern(a)});
  MultiPattern lhs(std::move(parts));

  std::vector<Equality> eqs;
  auto from_out = from_g.output_values(), to_out = to_g.output_values();
  for (size_t i = 0; i < from_out.size(); ++i)
    eqs.push_back({"", to.pattern(to_out[i]), from.pattern(from_out[i])});

  auto ctx = std::make_shared<ConditionContext>();
  ctx->rule = rule.name;
  ctx->rewrite = rewrite_name(rule.name, reverse, stream);
  ctx->vars = lhs.vars();
  ctx->functions = &fns;
  ctx->types = types;
  ctx->world_size = world_size;
  ctx->log = log;
  ctx->anchor = named_pattern(from, anchor_nodes.front(), ctx->vars);
  std::set<std::string> wanted;
  for (const CondExpr& c : rule.where)
    for (const std::string& n : c.names()) wanted.insert(n);
  for (const std::string& name : wanted) {
    if (std::find(ctx->vars.begin(), ctx->vars.end(), name) != ctx->vars.end()) continue;
    // A named value of either side; its inputs must all be bound.
    for (SideCompiler* side : {&from, &to}) {
      auto ref = side->graph().find(name);
      if (!ref || side->graph().node(*ref).kind == NodeKind::Output) continue;
      ConditionContext::Named n = named_pattern(*side, *ref, ctx->vars);
      bool bound = std::all_of(n.var_slot.begin(), n.var_slot.end(),
                               [&](uint32_t s) { return s < ctx->vars.size(); });
      if (bound) ctx->named.emplace(name, std::move(n));
      break;
    }
  }

  std::vector<Condition> conds;
  for (const CondExpr& c : rule.where) {
    // A where line that is only ordered(...) picks one permutation of a
    // symmetric match; the others are the same match, not rejections.
    const bool symmetry_only = is_symmetry_condition(c.text());
    conds.push_back(
        {c.text(), ctx->vars, [ctx, c, symmetry_only](const EGraph& g, std::span<const Id> vals) {
           CondResult r = evaluate(c, ctx->env(g, vals), *ctx->functions, ctx->origins(g, vals));
           if (r.verdict == Verdict::True) return true;
           if (!symmetry_only) ctx->reject(g, vals, c.text(), r.detail);
           return false;
         }});
  }
  if (rule.extra_check) {
    ExtraCheck check = rule.extra_check;
    std::string label = rule.extra_check_name.empty() ? "extra_check" : rule.extra_check_name;
    conds.push_back(
        {label, ctx->vars, [ctx, check, label](const EGraph& g, std::span<const Id> vals) {
           std::map<std::string, Id, std::less<>> values;
           for (size_t i = 0; i < ctx->vars.size(); ++i) values[ctx->vars[i]] = vals[i];
           for (const auto& [name, n] : ctx->named)
             if (auto id = n.pattern.lookup_mapped(g, vals, n.var_slot)) values[name] = *id;
           if (check(RuleMatch(g, ctx->types, values))) return true;
           ctx->reject(g, vals, label, "the C++ check returned false");
           return false;
         }});
  }
  for (size_t i = 0; graph != nullptr && i < to_out.size(); ++i) {
    const Node& out = to_g.node(to_out[i]);
    if (out.kind != NodeKind::Placeholder) continue;
    const Node& matched = from_g.node(from_out[i]);
    const bool is_view = matched.kind == NodeKind::Call && reg.info(matched.op).traits.is_view;
    add_forwarding_guards(ctx, out.name, named_pattern(from, from_out[i], ctx->vars), is_view,
                          *graph, conds);
  }
  if (!reverse && !rule.assumes.empty()) conds.push_back(assumption_recorder(rule, assumptions));
  std::vector<ComputedVar> computed;
  if (!reverse)
    for (const RuleDef::Let& l : rule.lets) computed.push_back(computed_let(l, ctx));
  Rewrite rw(rewrite_name(rule.name, reverse, stream), std::move(lhs), std::move(computed),
             std::move(eqs), std::move(conds), rule.labels);
  add_matcher_guards(rule, rw);
  return rw;
}

}  // namespace

std::vector<std::string> RuleLibrary::check_selectors(const RuleConfig& cfg) const {
  std::vector<std::string> names;
  std::set<std::string> labels;
  for (const RuleDef& r : rules_) {
    names.push_back(r.name);
    labels.insert(r.labels.begin(), r.labels.end());
  }
  std::vector<std::string> known = names;
  known.insert(known.end(), labels.begin(), labels.end());
  std::vector<std::string> notes;
  auto check = [&](const std::vector<std::string>& selectors, std::string_view flag) {
    for (const std::string& s : selectors) {
      if (std::find(known.begin(), known.end(), s) != known.end()) continue;
      // A pass of another framework that no rule does: accepted, with why.
      if (const PeerPass* p = find_peer_pass(s)) {
        notes.push_back(fmt::format(
            "{} {}: {} pass with no eqfuse rule, nothing to switch: {} "
            "(docs/rules.md \"Passes of other frameworks\")",
            flag, s, p->framework, p->missing.empty() ? "no rule carries it" : p->missing));
        continue;
      }
      throw Error(fmt::format("{} {}: no rule or label of that name{} ('eqfuse rules' lists them)",
                              flag, s, did_you_mean(s, known)));
    }
  };
  check(cfg.disable, "--disable-rule");
  check(cfg.enable, "--enable-rule");
  check(cfg.only, "only_rules");
  check(cfg.assume, "assume_rules");
  for (const std::string& s : cfg.enable) {
    const RuleDef* rule = find(s);
    if (!rule) continue;  // a label: several rules, each with its own reason
    RuleToggle t = rule_toggle(rule->name, rule->labels, cfg);
    if (!t.enabled)
      notes.push_back(fmt::format("--enable-rule {}: the rule stays off: {}", s, t.reason));
  }
  return notes;
}

CompiledRules RuleLibrary::compile(const RuleConfig& cfg, std::span<const std::string> streams,
                                   const TensorAnalysis* types, const LoadedEGraph* graph) const {
  check_selectors(cfg);  // a misspelled --disable-rule must not pass silently
  CompiledRules out;
  std::vector<std::string> stream_list(streams.begin(), streams.end());
  if (stream_list.empty()) stream_list.push_back("");
  out.streams = stream_list;
  for (const RuleDef& rule : rules_) {
    if (!rule_toggle(rule.name, rule.labels, cfg).enabled) continue;
    for (const std::string& stream : stream_list) {
      for (bool reverse : {false, true}) {
        if (reverse && !rule.bidirectional) continue;
        out.rewrites.push_back(compile_direction(rule, *reg_, reverse, stream, functions_, types,
                                                 cfg.world_size, out.rejections, out.assumptions,
                                                 graph));
        out.base_name.push_back(rule.name);
        out.reverse.push_back(reverse);
      }
    }
  }
  return out;
}

const Rewrite* CompiledRules::find(std::string_view rewrite_name) const {
  for (const Rewrite& r : rewrites)
    if (r.name() == rewrite_name) return &r;
  return nullptr;
}

Id CompiledRules::rejection_root(const EGraph& g, const Rejection& r) const {
  if (r.root != kNoId) return g.find(r.root);
  const Rewrite* rw = find(r.rewrite);
  if (rw == nullptr || r.values.size() != rw->vars().size()) return kNoId;
  const MultiPatternPart& anchor = rw->searcher().pattern().parts().front();
  std::vector<uint32_t> slots;
  for (const std::string& v : anchor.pattern.vars())
    slots.push_back(*rw->searcher().pattern().var_index(v));
  std::optional<Id> root = anchor.pattern.lookup_mapped(g, r.values, slots);
  return root ? *root : kNoId;
}

SearchPattern compile_search_pattern(const RuleDef& rule, const OpRegistry& reg,
                                     const std::string& stream, bool relax_literals) {
  SideCompiler side(rule, rule.search, reg, stream_payload(stream));
  if (relax_literals) side.relax_literals();
  std::vector<MultiPatternPart> parts;
  for (NodeRef a : anchors(rule.search)) parts.push_back({"", side.pattern(a)});
  SearchPattern out{MultiPattern(std::move(parts)), {}};
  for (const SideCompiler::Relaxed& r : side.relaxed()) {
    const Node& owner = rule.search.node(r.owner);
    out.literals.push_back({r.var, owner.name,
                            std::string(reg.info(owner.op).schema.qualified_name()), r.arg, r.value,
                            side.pattern(r.owner)});
  }
  return out;
}

}  // namespace eqfuse
