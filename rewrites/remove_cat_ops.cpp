// remove_cat_ops (docs/reference/torchair-passes.md §4.4); the rewrite and its
// conditions are described in rewrites/remove_cat_ops.hpp.
#include "rewrites/remove_cat_ops.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include <fmt/format.h>

namespace eqfuse {
namespace {

constexpr std::string_view kCat = "aten::cat";

const OpSchema* schema_of(const Node& n, const OpRegistry& reg) {
  return n.kind == NodeKind::Call && n.op != kNoOp ? &reg.info(n.op).schema : nullptr;
}

std::optional<std::vector<int64_t>> static_shape(const ValueType& t) {
  if (!t.is_tensor() || !t.tensor.shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const SymInt& d : *t.tensor.shape) {
    std::optional<int64_t> c = d.constant();
    if (!c) return std::nullopt;
    dims.push_back(*c);
  }
  return dims;
}

// The registered `ns::name.out` overload taking the producer's arguments (same
// names and types, in order) plus a mutated `out`.
std::optional<OpId> out_variant(const OpSchema& s, const OpRegistry& reg) {
  std::optional<OpId> id = reg.find(s.ns + "::" + s.name + ".out");
  if (!id) return std::nullopt;
  const OpSchema& out = reg.info(*id).schema;
  if (out.args.size() != s.args.size() + 1) return std::nullopt;
  const SchemaArg& dest = out.args.back();
  if (dest.name != "out" || !dest.mutates()) return std::nullopt;
  for (size_t i = 0; i < s.args.size(); ++i)
    if (out.args[i].name != s.args[i].name || out.args[i].type != s.args[i].type)
      return std::nullopt;
  return id;
}

bool arg_mentions(const Arg& a, NodeRef r) {
  std::vector<NodeRef> refs;
  collect_node_refs(a, refs);
  return std::find(refs.begin(), refs.end(), r) != refs.end();
}

// Whether some op writes `v` or a view of it: the buffer would make that write
// visible through the other values it now holds. Opaque calls count as writers.
bool may_be_written(const Graph& g, const OpRegistry& reg,
                    const std::vector<std::vector<NodeRef>>& users, NodeRef v) {
  std::vector<NodeRef> aliases{v};
  std::set<int32_t> seen{v.index};
  for (size_t k = 0; k < aliases.size(); ++k) {
    for (NodeRef u : users.at(static_cast<size_t>(aliases[k].index))) {
      const Node& n = g.node(u);
      if (n.kind == NodeKind::Output) continue;
      if (n.kind == NodeKind::GetItem) {
        if (seen.insert(u.index).second) aliases.push_back(u);
        continue;
      }
      const OpSchema* s = schema_of(n, reg);
      if (s == nullptr) return true;
      for (size_t i = 0; i < s->args.size() && i < n.args.size(); ++i)
        if (s->args[i].mutates() && arg_mentions(n.args[i], aliases[k])) return true;
      if (reg.info(n.op).traits.is_view && seen.insert(u.index).second) aliases.push_back(u);
    }
  }
  return false;
}

struct CatPlan {
  NodeRef cat;
  std::vector<NodeRef> inputs;
  std::vector<int64_t> offsets;  // dim-0 start of each input in the buffer
  std::vector<OpId> out_ops;
  std::vector<int64_t> shape;  // the cat's (and the buffer's) shape
  NodeRef anchor;              // new_empty's `self`: a tensor the first producer reads
};

// TorchAir's checks plus eqfuse's (remove_cat_ops.hpp); a plan or why not.
std::variant<CatPlan, std::string> plan_for(const Graph& g, const OpRegistry& reg,
                                            const std::vector<std::vector<NodeRef>>& users,
                                            NodeRef cat) {
  const Node& c = g.node(cat);
  if (c.args.size() < 2 || !std::holds_alternative<ArgList>(c.args[0].value))
    return std::string("its tensors are not a list");
  CatPlan p{cat, {}, {}, {}, {}, {}};
  for (const Arg& a : std::get<ArgList>(c.args[0].value).items) {
    if (!a.is_node()) return std::string("an input is not a node");
    p.inputs.push_back(a.node());
  }
  if (p.inputs.size() < 2) return std::string("it has fewer than 2 inputs");
  if (std::set<NodeRef>(p.inputs.begin(), p.inputs.end()).size() != p.inputs.size())
    return std::string("an input appears twice");
  std::optional<std::vector<int64_t>> shape = static_shape(c.type);
  if (!shape || shape->empty()) return std::string("its shape is not static");
  p.shape = *shape;
  const auto* dim = std::get_if<int64_t>(&c.args[1].value);
  if (dim == nullptr || (*dim != 0 && *dim != -static_cast<int64_t>(shape->size())))
    return std::string("only dim 0 is supported");
  if (may_be_written(g, reg, users, cat)) return std::string("its result is written in place");
  int64_t offset = 0;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Node& in = g.node(p.inputs[i]);
    const OpSchema* s = schema_of(in, reg);
    if (s == nullptr) return fmt::format("input {} ({}) is not a registered op call", i, in.name);
    if (s->mutates_any() || reg.info(in.op).traits.is_view)
      return fmt::format("input {} ({}) is a view or writes its arguments", i, in.name);
    std::optional<OpId> out = out_variant(*s, reg);
    if (!out) return fmt::format("input {} op {} has no .out variant", i, s->qualified_name());
    std::optional<std::vector<int64_t>> dims = static_shape(in.type);
    if (!dims || in.type.tensor.dtype != c.type.tensor.dtype || dims->size() != shape->size() ||
        !std::equal(dims->begin() + 1, dims->end(), shape->begin() + 1))
      return fmt::format("input {} ({}) differs in dtype, rank or non-concat dims", i, in.name);
    if (in.meta.stream != c.meta.stream)
      return fmt::format("input {} ({}) runs on another stream", i, in.name);
    for (NodeRef u : users.at(static_cast<size_t>(p.inputs[i].index))) {
      const OpSchema* us = schema_of(g.node(u), reg);
      if (u != cat && us != nullptr && us->qualified_name() == kCat)
        return fmt::format("input {} ({}) is shared with another cat", i, in.name);
    }
    if (may_be_written(g, reg, users, p.inputs[i]))
      return fmt::format("input {} ({}) is written in place", i, in.name);
    p.offsets.push_back(offset);
    p.out_ops.push_back(*out);
    offset += dims->front();
  }
  if (offset != shape->front()) return std::string("its inputs do not add up to its shape");
  NodeRef first = *std::min_element(p.inputs.begin(), p.inputs.end());
  std::vector<NodeRef> reads = node_inputs(g.node(first));
  auto tensor_read = std::find_if(reads.begin(), reads.end(),
                                  [&](NodeRef r) { return g.node(r).type.is_tensor(); });
  if (tensor_read == reads.end())
    return fmt::format("the first input ({}) reads no tensor to allocate beside",
                       g.node(first).name);
  p.anchor = *tensor_read;
  return p;
}

// Names for the inserted nodes: not in the input, not given out before.
class NameSource {
 public:
  explicit NameSource(const Graph& g) : g_(g) {}
  std::string take(const std::string& base) {
    std::string name = base;
    for (int k = 1; g_.find(name) || taken_.count(name); ++k) name = fmt::format("{}_{}", base, k);
    taken_.insert(name);
    return name;
  }

 private:
  const Graph& g_;
  std::set<std::string> taken_;
};

Node new_call(const OpRegistry& reg, std::string_view op, std::string name, std::vector<Arg> args,
              ValueType type, const NodeMeta& like) {
  Node n;
  n.kind = NodeKind::Call;
  n.op = *reg.find(op);
  n.target = reg.info(n.op).schema.qualified_name();
  n.name = std::move(name);
  n.args = std::move(args);
  n.type = std::move(type);
  n.meta.stream = like.stream;
  n.meta.loc = like.loc;
  return n;
}

ArgList int_list(const std::vector<int64_t>& v) {
  ArgList l;
  for (int64_t x : v) l.items.emplace_back(x);
  return l;
}

// Rebuilds the graph with every plan applied: the buffer before the first
// producer, each slice before its producer, producers retargeted to `.out`,
// the cats dropped and their users reading the buffer.
Graph apply_plans(const Graph& g, const OpRegistry& reg, const std::vector<CatPlan>& plans) {
  NameSource names(g);
  struct Role {
    const CatPlan* plan = nullptr;
    size_t input = 0;
  };
  std::map<int32_t, Role> producer;
  std::map<int32_t, const CatPlan*> first_producer, cats;
  for (const CatPlan& p : plans) {
    for (size_t i = 0; i < p.inputs.size(); ++i) producer[p.inputs[i].index] = {&p, i};
    first_producer[std::min_element(p.inputs.begin(), p.inputs.end())->index] = &p;
    cats[p.cat.index] = &p;
  }
  Graph out;
  out.name = g.name;
  std::vector<Arg> mapped(g.size());
  std::map<const CatPlan*, NodeRef> buffers;
  auto remap = [&](auto&& self, const Arg& a) -> Arg {
    if (a.is_node()) return mapped.at(static_cast<size_t>(a.node().index));
    if (const auto* l = std::get_if<ArgList>(&a.value)) {
      ArgList copy = *l;
      for (Arg& e : copy.items) e = self(self, e);
      return Arg(copy);
    }
    return a;
  };
  for (size_t i = 0; i < g.size(); ++i) {
    const auto idx = static_cast<int32_t>(i);
    const Node& n = g.nodes()[i];
    if (auto c = cats.find(idx); c != cats.end()) {
      mapped[i] = Arg(buffers.at(c->second));
      continue;
    }
    if (auto f = first_producer.find(idx); f != first_producer.end()) {
      const CatPlan& p = *f->second;
      const Node& c = g.node(p.cat);
      std::vector<Arg> args{remap(remap, Arg(p.anchor)), Arg(int_list(p.shape)),
                            Arg(c.type.tensor.dtype), Arg(), Arg(), Arg()};
      Node buf = new_call(reg, "aten::new_empty", names.take(c.name + "_buffer"), std::move(args),
                          c.type, c.meta);
      buf.meta.note = fmt::format("remove_cat_ops: the buffer {} is written into by its inputs",
                                  c.name);
      buffers[&p] = out.add(std::move(buf));
    }
    Node copy = n;
    for (Arg& a : copy.args) a = remap(remap, a);
    for (auto& kv : copy.kwargs) kv.second = remap(remap, kv.second);
    if (auto r = producer.find(idx); r != producer.end()) {
      const CatPlan& p = *r->second.plan;
      const size_t k = r->second.input;
      const int64_t start = p.offsets[k];
      const int64_t end = start + static_shape(n.type)->front();
      std::vector<Arg> args{Arg(buffers.at(&p)), Arg(int64_t{0}), Arg(start), Arg(end),
                            Arg(int64_t{1})};
      NodeRef slice = out.add(new_call(reg, "aten::slice.Tensor", names.take("slice_" + n.name),
                                       std::move(args), n.type, n.meta));
      copy.op = p.out_ops[k];
      copy.target = reg.info(copy.op).schema.qualified_name();
      copy.args.emplace_back(slice);
    }
    mapped[i] = Arg(out.add(std::move(copy)));
  }
  return out;
}

}  // namespace

RemoveCatOpsResult remove_cat_ops(const Graph& input, const OpRegistry& reg) {
  RemoveCatOpsResult r{input, {}, 0};
  const std::vector<std::vector<NodeRef>> users = input.users();
  std::vector<CatPlan> plans;
  for (size_t i = 0; i < input.size(); ++i) {
    const NodeRef ref{static_cast<int32_t>(i)};
    const OpSchema* s = schema_of(input.node(ref), reg);
    if (s == nullptr || s->qualified_name() != kCat) continue;
    auto plan = plan_for(input, reg, users, ref);
    if (auto* why = std::get_if<std::string>(&plan)) {
      r.log.push_back(fmt::format("remove_cat_ops: skip {}: {}", input.node(ref).name, *why));
      continue;
    }
    CatPlan& p = std::get<CatPlan>(plan);
    r.log.push_back(fmt::format("remove_cat_ops: {} ({} inputs) written in place into one buffer",
                                input.node(ref).name, p.inputs.size()));
    plans.push_back(std::move(p));
  }
  r.removed = plans.size();
  r.log.push_back(fmt::format("remove_cat_ops: optimized {} cat node(s)", r.removed));
  if (!plans.empty()) r.graph = apply_plans(input, reg, plans);
  return r;
}

}  // namespace eqfuse
