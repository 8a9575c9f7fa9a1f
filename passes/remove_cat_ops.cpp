// remove_cat_ops (docs/reference/torchair-passes.md §4.4); the rewrite and its
// conditions are described in passes/remove_cat_ops.hpp.
#include "passes/remove_cat_ops.hpp"

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

std::optional<Shape> known_shape(const ValueType& t) {
  if (!t.is_tensor() || !t.tensor.shape) return std::nullopt;
  return *t.tensor.shape;
}

// Where each size symbol can be read before any op runs: a `Sym` graph input holding
// exactly it (preferred: no read needed), else the first dim of a graph-input tensor that
// is exactly it (read by sym_size).
struct SymbolSource {
  NodeRef input;
  std::optional<int64_t> dim;  // set: sym_size(input, dim); unset: the input itself
};
std::map<std::string, SymbolSource, std::less<>> symbol_sources(const Graph& g) {
  std::map<std::string, SymbolSource, std::less<>> out;
  for (NodeRef r : g.placeholders()) {
    const ValueType& t = g.node(r).type;
    if (t.kind == ValueType::Kind::SymInt && t.sym)
      if (auto a = t.sym->single_symbol()) out.try_emplace(*a, SymbolSource{r, std::nullopt});
  }
  for (NodeRef r : g.placeholders()) {
    const ValueType& t = g.node(r).type;
    if (!t.is_tensor() || !t.tensor.shape) continue;
    for (size_t d = 0; d < t.tensor.shape->size(); ++d)
      if (auto a = (*t.tensor.shape)[d].single_symbol())
        out.try_emplace(*a, SymbolSource{r, static_cast<int64_t>(d)});
  }
  return out;
}

// Why `v` cannot be built from graph inputs, or nullopt if it can.
std::optional<std::string> unbuildable(
    const SymInt& v, const std::map<std::string, SymbolSource, std::less<>>& src) {
  for (const std::string& atom : v.atoms())
    if (!src.contains(atom))
      return fmt::format("its size {} reads {}, which no graph input holds", v.to_string(), atom);
  return std::nullopt;
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
  std::vector<SymInt> offsets;  // dim-0 start of each input in the buffer
  std::vector<SymInt> sizes;    // dim-0 size of each input
  std::vector<OpId> out_ops;
  Shape shape;     // the cat's (and the buffer's) shape
  NodeRef anchor;  // new_empty's `self`: a tensor the first producer reads
};

// TorchAir's checks plus eqfuse's (remove_cat_ops.hpp); a plan or why not.
std::variant<CatPlan, std::string> plan_for(
    const Graph& g, const OpRegistry& reg, const std::vector<std::vector<NodeRef>>& users,
    const std::map<std::string, SymbolSource, std::less<>>& sources, NodeRef cat) {
  const Node& c = g.node(cat);
  if (c.args.size() < 2 || !std::holds_alternative<ArgList>(c.args[0].value))
    return std::string("its tensors are not a list");
  CatPlan p{cat, {}, {}, {}, {}, {}, {}};
  for (const Arg& a : std::get<ArgList>(c.args[0].value).items) {
    if (!a.is_node()) return std::string("an input is not a node");
    p.inputs.push_back(a.node());
  }
  if (p.inputs.size() < 2) return std::string("it has fewer than 2 inputs");
  if (std::set<NodeRef>(p.inputs.begin(), p.inputs.end()).size() != p.inputs.size())
    return std::string("an input appears twice");
  std::optional<Shape> shape = known_shape(c.type);
  if (!shape || shape->empty()) return std::string("its shape is not known");
  for (const SymInt& d : *shape)
    if (auto why = unbuildable(d, sources)) return *why;
  p.shape = *shape;
  const auto* dim = std::get_if<int64_t>(&c.args[1].value);
  if (dim == nullptr || (*dim != 0 && *dim != -static_cast<int64_t>(shape->size())))
    return std::string("only dim 0 is supported");
  if (may_be_written(g, reg, users, cat)) return std::string("its result is written in place");
  SymInt offset = 0;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Node& in = g.node(p.inputs[i]);
    const OpSchema* s = schema_of(in, reg);
    if (s == nullptr) return fmt::format("input {} ({}) is not a registered op call", i, in.name);
    if (s->mutates_any() || reg.info(in.op).traits.is_view)
      return fmt::format("input {} ({}) is a view or writes its arguments", i, in.name);
    std::optional<OpId> out = out_variant(*s, reg);
    if (!out) return fmt::format("input {} op {} has no .out variant", i, s->qualified_name());
    std::optional<Shape> dims = known_shape(in.type);
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
    if (auto why = unbuildable(dims->front(), sources)) return fmt::format("input {}: {}", i, *why);
    p.offsets.push_back(offset);
    p.sizes.push_back(dims->front());
    p.out_ops.push_back(*out);
    offset = offset + dims->front();
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

// Emits the nodes that compute symbolic sizes from the graph inputs (symbol_sources):
// sym_size reads and `operator.mul` / `operator.add` of a size's terms, each read and each
// size once. A constant size is an int literal.
class SizeBuilder {
 public:
  SizeBuilder(const OpRegistry& reg, NameSource& names,
              const std::map<std::string, SymbolSource, std::less<>>& sources,
              const std::vector<Arg>& mapped, Graph& out)
      : reg_(reg), names_(names), sources_(sources), mapped_(mapped), out_(out) {}

  Arg size(const SymInt& v, const NodeMeta& like) {
    if (std::optional<int64_t> c = v.constant()) return Arg(*c);
    if (auto it = built_.find(v); it != built_.end()) return it->second;
    std::optional<Arg> sum;
    SymInt sum_value = 0;
    for (const auto& [coef, atoms] : v.terms()) {
      std::optional<Arg> term;
      SymInt term_value = 1;
      for (const std::string& atom : atoms) {
        Arg read = symbol(atom, like);
        term_value = term_value * SymInt::symbol(atom);
        term = term ? builtin("operator.mul", *term, read, term_value, like) : read;
      }
      term_value = term_value * SymInt(coef);
      if (!term) {
        term = Arg(coef);
      } else if (coef != 1) {
        term = builtin("operator.mul", *term, Arg(coef), term_value, like);
      }
      sum_value = sum_value + term_value;
      sum = sum ? builtin("operator.add", *sum, *term, sum_value, like) : *term;
    }
    built_.emplace(v, *sum);
    return *sum;
  }

 private:
  Arg symbol(const std::string& atom, const NodeMeta& like) {
    if (auto it = built_.find(SymInt::symbol(atom)); it != built_.end()) return it->second;
    const SymbolSource& s = sources_.at(atom);
    Arg read = mapped_.at(static_cast<size_t>(s.input.index));
    if (s.dim) {
      Node n = base_node(names_.take("sym_size_" + atom), SymInt::symbol(atom), like);
      n.op = *reg_.find("aten::sym_size.int");
      n.target = reg_.info(n.op).schema.qualified_name();
      n.args = {read, Arg(*s.dim)};
      read = Arg(out_.add(std::move(n)));
    }
    built_.emplace(SymInt::symbol(atom), read);
    return read;
  }

  Arg builtin(std::string_view target, const Arg& a, const Arg& b, const SymInt& value,
              const NodeMeta& like) {
    Node n =
        base_node(names_.take(target == "operator.add" ? "add_size" : "mul_size"), value, like);
    n.target = std::string(target);
    n.args = {a, b};
    return Arg(out_.add(std::move(n)));
  }

  static Node base_node(std::string name, const SymInt& value, const NodeMeta& like) {
    Node n;
    n.kind = NodeKind::Call;
    n.name = std::move(name);
    n.type = ValueType::of_symint(value);
    n.meta.stream = like.stream;
    n.meta.loc = like.loc;
    return n;
  }

  const OpRegistry& reg_;
  NameSource& names_;
  const std::map<std::string, SymbolSource, std::less<>>& sources_;
  const std::vector<Arg>& mapped_;
  Graph& out_;
  std::map<SymInt, Arg> built_;
};

// Rebuilds the graph with every plan applied: the buffer before the first
// producer, each slice before its producer, producers retargeted to `.out`,
// the cats dropped and their users reading the buffer.
Graph apply_plans(const Graph& g, const OpRegistry& reg, const std::vector<CatPlan>& plans,
                  const std::map<std::string, SymbolSource, std::less<>>& sources) {
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
  std::map<const CatPlan*, std::vector<std::pair<Arg, Arg>>> bounds;  // each input's slice
  SizeBuilder sizes(reg, names, sources, mapped, out);
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
      ArgList shape;
      for (const SymInt& d : p.shape) shape.items.push_back(sizes.size(d, c.meta));
      for (size_t k = 0; k < p.inputs.size(); ++k)
        bounds[&p].emplace_back(sizes.size(p.offsets[k], c.meta),
                                sizes.size(p.offsets[k] + p.sizes[k], c.meta));
      std::vector<Arg> args{
          remap(remap, Arg(p.anchor)), Arg(shape), Arg(c.type.tensor.dtype), Arg(), Arg(), Arg()};
      Node buf = new_call(reg, "aten::new_empty", names.take(c.name + "_buffer"), std::move(args),
                          c.type, c.meta);
      buf.meta.note =
          fmt::format("remove_cat_ops: the buffer {} is written into by its inputs", c.name);
      buffers[&p] = out.add(std::move(buf));
    }
    Node copy = n;
    for (Arg& a : copy.args) a = remap(remap, a);
    for (auto& kv : copy.kwargs) kv.second = remap(remap, kv.second);
    if (auto r = producer.find(idx); r != producer.end()) {
      const CatPlan& p = *r->second.plan;
      const size_t k = r->second.input;
      const auto& [start, end] = bounds.at(&p).at(k);
      std::vector<Arg> args{Arg(buffers.at(&p)), Arg(int64_t{0}), start, end, Arg(int64_t{1})};
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
  const auto sources = symbol_sources(input);
  for (size_t i = 0; i < input.size(); ++i) {
    const NodeRef ref{static_cast<int32_t>(i)};
    const OpSchema* s = schema_of(input.node(ref), reg);
    if (s == nullptr || s->qualified_name() != kCat) continue;
    auto plan = plan_for(input, reg, users, sources, ref);
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
  if (!plans.empty()) r.graph = apply_plans(input, reg, plans, sources);
  return r;
}

}  // namespace eqfuse
