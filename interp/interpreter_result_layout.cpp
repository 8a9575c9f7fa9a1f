// Result layouts: kernels compute row-major results, while torch gives some
// ops' results the strides of an input (clone and the *_like ops preserve
// self's, elementwise ops follow their operands', attention follows the
// query's). in_torch_layout restrides a kernel's result the way torch would,
// so later views and as_strided calls see the same memory as on torch.
#include <set>

#include "interp/interpreter_internal.hpp"
#include "interp/memory_layout.hpp"

namespace eqfuse::interpreter_detail {

namespace {

enum class ResultLayout : uint8_t { Kernel, Elementwise, PreserveSelf, QueryLike };

// How torch lays out the op's result (interp/memory_layout.hpp); Kernel: as computed.
ResultLayout result_layout(const OpInfo& info) {
  const std::string& name = info.schema.name;
  const std::string& ns = info.schema.ns;
  if (ns == "aten") {
    static const std::set<std::string, std::less<>> kPreserving = {
        "clone",     "_to_copy",  "lift_fresh_copy", "empty_like", "zeros_like",
        "ones_like", "full_like", "rand_like",       "randn_like", "randint_like"};
    if (kPreserving.contains(name)) return ResultLayout::PreserveSelf;
    // torch's meta allocates the output with empty_like(query).
    if (name == "_scaled_dot_product_flash_attention_for_cpu") return ResultLayout::QueryLike;
    // triu/tril allocate row-major results.
    if (name == "triu" || name == "tril") return ResultLayout::Kernel;
  }
  if (ns == "prims" && name == "convert_element_type") return ResultLayout::Elementwise;
  if (info.traits.kind == OpKind::Elementwise && !info.schema.mutates_any())
    return ResultLayout::Elementwise;
  return ResultLayout::Kernel;
}

// memory_format=torch.preserve_format (the default) or absent. Registered calls are
// normalized (graph/graph.hpp): every argument is positional.
bool preserves_format(const Node& n, const OpSchema& schema) {
  const int index = schema.arg_index("memory_format");
  const Arg* format = index >= 0 && static_cast<size_t>(index) < n.args.size()
                          ? &n.args[static_cast<size_t>(index)]
                          : nullptr;
  if (!format || format->is_none()) return true;
  const auto* literal = std::get_if<Literal>(&format->value);
  return literal && literal->text.find("preserve_format") != std::string::npos;
}

bool broadcasts_to(const Dims& shape, const Dims& target) {
  if (shape.size() > target.size()) return false;
  const size_t lead = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != target[lead + i]) return false;
  return true;
}

}  // namespace

RuntimeValue Evaluation::in_torch_layout(const Node& n, const OpInfo& info, RuntimeValue v) const {
  const ResultLayout layout = result_layout(info);
  if (layout == ResultLayout::Kernel) return v;
  auto tensor_arg = [&](std::string_view name) -> std::optional<Tensor> {
    const int index = info.schema.arg_index(name);
    if (index >= 0 && static_cast<size_t>(index) < n.args.size()) {
      RuntimeValue a = resolve(n.args[static_cast<size_t>(index)]);
      if (a.is_tensor()) return a.tensor();
    }
    return std::nullopt;
  };
  if (layout == ResultLayout::QueryLike) {
    std::optional<Tensor> query = tensor_arg("query");
    if (!query || !v.is_list() || v.list().empty() || !v.list()[0].is_tensor()) return v;
    std::vector<RuntimeValue> parts = v.list();
    parts[0] = RuntimeValue(with_strides(parts[0].tensor(), preserved_strides(*query)));
    return RuntimeValue(std::move(parts));
  }
  if (!v.is_tensor()) return v;
  const Tensor& result = v.tensor();
  if (layout == ResultLayout::PreserveSelf) {
    std::optional<Tensor> self = tensor_arg("self");
    if (!self || self->is_contiguous() || self->shape() != result.shape() ||
        !preserves_format(n, info.schema))
      return v;
    return RuntimeValue(with_strides(result, preserved_strides(*self)));
  }
  // Elementwise: ordered by the tensor operands, when one of them is not row-major.
  std::vector<Tensor> inputs;
  bool all_contiguous = true;
  for (const Arg& a : n.args) {
    if (!a.is_node()) continue;
    RuntimeValue operand = resolve(a);
    if (!operand.is_tensor()) continue;
    if (!broadcasts_to(operand.tensor().shape(), result.shape())) return v;  // not pointwise
    all_contiguous = all_contiguous && operand.tensor().is_contiguous();
    inputs.push_back(operand.tensor());
  }
  if (all_contiguous) return v;
  std::vector<const Tensor*> pointers;
  for (const Tensor& t : inputs) pointers.push_back(&t);
  return RuntimeValue(with_strides(result, elementwise_result_strides(pointers, result.shape())));
}

}  // namespace eqfuse::interpreter_detail
