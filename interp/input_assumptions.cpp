// Input assumptions (interp/input_assumptions.hpp): parsing `a == op(b, ...)` and
// drawing inputs that hold it.
#include "interp/input_assumptions.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/ascii.hpp"
#include "graph/io/load.hpp"
#include "graph/op_schema.hpp"
#include "graph/value_type.hpp"
#include "interp/interpreter.hpp"

namespace eqfuse {
namespace {

// A cursor over the assumption text that reports errors at its column.
class Reader {
 public:
  Reader(std::string_view text, const SourceLoc& loc) : text_(text), loc_(loc) {}

  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool at_end() {
    skip_blanks();
    return pos_ == text_.size();
  }
  bool take(std::string_view token) {
    skip_blanks();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token, std::string_view what) {
    if (!take(token)) fail(fmt::format("expected {}", what));
  }
  // A name; `dotted` also takes an FX target's dots and a qualified op's `::`.
  std::string name(std::string_view what, bool dotted) {
    skip_blanks();
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (is_ident_char(text_[pos_]) || (dotted && (text_[pos_] == '.' || text_[pos_] == ':'))))
      ++pos_;
    if (pos_ == start || !is_ident_start(text_[start])) {
      pos_ = start;
      fail(fmt::format("expected {}", what));
    }
    return std::string(text_.substr(start, pos_ - start));
  }
  [[noreturn]] void fail(std::string_view msg) const {
    SourceLoc at = loc_;
    if (at.known()) at.column += static_cast<int>(pos_);
    throw Error(fmt::format("assumption '{}': {} (the form is `input == op(input, ...)`, e.g. "
                            "`scale_reciprocal == reciprocal(scale)`)",
                            text_, msg),
                at);
  }

 private:
  std::string_view text_;
  SourceLoc loc_;
  size_t pos_ = 0;
};

// "reciprocal" -> "aten::reciprocal"; "torch.ops.npu.foo.default" -> "npu::foo".
std::string qualified_op(std::string_view written) {
  if (written.starts_with("torch.ops.")) {
    if (auto q = qualified_name_from_fx_target(written)) return *q;
  }
  if (written.find("::") != std::string_view::npos) return std::string(written);
  return fmt::format("aten::{}", written);
}

size_t placeholder_index(const Graph& g, std::string_view name, const InputAssumption& a) {
  const std::vector<NodeRef> ph = g.placeholders();
  for (size_t i = 0; i < ph.size(); ++i)
    if (g.node(ph[i]).name == name) return i;
  throw Error(fmt::format("assumption '{}': the graph has no input '{}'", a.text(), name), a.loc);
}

// The one-call graph computing the derived value, typed like the inputs it reads.
std::string derivation_fx(const Graph& g, const InputAssumption& a) {
  std::vector<std::string> params, args;
  for (size_t i = 0; i < a.sources.size(); ++i) {
    const ValueType& t = g.node(g.placeholders()[placeholder_index(g, a.sources[i], a)]).type;
    std::string p = fmt::format("in{}", i);
    args.push_back(p);
    if (t.is_known()) p += fmt::format(": \"{}\"", to_annotation(t));
    params.push_back(std::move(p));
  }
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, {}):\n"
      "        derived = {}({})\n"
      "        return (derived,)\n",
      fmt::join(params, ", "), fx_target_from_qualified_name(a.op), fmt::join(args, ", "));
}

}  // namespace

std::string InputAssumption::text() const {
  std::string_view shown = op;
  if (shown.starts_with("aten::")) shown.remove_prefix(6);
  return fmt::format("{} == {}({})", derived, shown, fmt::join(sources, ", "));
}

InputAssumption parse_input_assumption(std::string_view text, const SourceLoc& loc) {
  Reader r(text, loc);
  InputAssumption a;
  a.loc = loc;
  a.derived = r.name("an input name", false);
  r.expect("==", "`==` after the input name");
  a.op = qualified_op(r.name("an op name", true));
  r.expect("(", "`(` after the op name");
  if (!r.take(")")) {
    do {
      a.sources.push_back(r.name("an input name", false));
    } while (r.take(","));
    r.expect(")", "`,` or `)`");
  }
  if (!r.at_end()) r.fail("unexpected text after `)`");
  if (a.sources.empty()) r.fail("the op reads no input");
  if (std::find(a.sources.begin(), a.sources.end(), a.derived) != a.sources.end())
    r.fail(fmt::format("'{}' is defined in terms of itself", a.derived));
  return a;
}

void check_input_assumption(const InputAssumption& a, const OpRegistry& reg) {
  if (!reg.find(a.op))
    throw Error(fmt::format("assumption '{}': unknown op '{}' (see `eqfuse ops`)", a.text(), a.op),
                a.loc);
}

void apply_input_assumptions(const Graph& graph, std::span<const InputAssumption> assumptions,
                             RandomInputs& inputs, const OpRegistry& reg) {
  for (const InputAssumption& a : assumptions) {
    const size_t target = placeholder_index(graph, a.derived, a);
    std::vector<RuntimeValue> args;
    for (const std::string& s : a.sources)
      args.push_back(inputs.values.at(placeholder_index(graph, s, a)));
    const LoadedGraph g = load_graph(derivation_fx(graph, a), "<assumption>", reg);
    RunResult r = Interpreter(reg).run(g.graph, args, inputs.bindings);
    RuntimeValue& slot = inputs.values.at(target);
    const Tensor* drawn = std::get_if<Tensor>(&slot.v);
    const Tensor* derived = r.outputs.empty() ? nullptr : std::get_if<Tensor>(&r.outputs[0].v);
    // A tensor must not replace a SymInt or scalar input (nor the reverse).
    const bool same_kind = !r.outputs.empty() && r.outputs[0].v.index() == slot.v.index();
    if (!same_kind ||
        (drawn != nullptr && (derived == nullptr || derived->dtype() != drawn->dtype() ||
                              derived->shape() != drawn->shape())))
      throw Error(fmt::format("assumption '{}': the op's result does not have the type of input "
                              "'{}'",
                              a.text(), a.derived),
                  a.loc);
    slot = std::move(r.outputs[0]);
  }
}

}  // namespace eqfuse
