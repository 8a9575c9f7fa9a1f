// Private to the reference interpreter: the kernel table and the helpers the
// kernels_*.cpp files share. A kernel receives a KernelCall (the normalized
// call: one Arg per schema argument, looked up by name) and returns the
// node's runtime value. Kernels are keyed by qualified op name; a key
// without overload ("aten::add") serves every overload that has no more
// specific entry, reading arguments by name so overloads share code.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_schema.hpp"
#include "interp/interpreter.hpp"

namespace eqfuse {

// Thrown by a kernel for a configuration whose math it does not model (an
// unsupported quant mode, packed int4): the interpreter then evaluates the
// node as an uninterpreted function.
struct UnsupportedConfig : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class KernelCall {
 public:
  using Resolver = std::function<RuntimeValue(const Arg&)>;
  KernelCall(const Node& node, const OpSchema& schema, Resolver resolve)
      : node_(node), schema_(schema), resolve_(std::move(resolve)) {}

  const Node& node() const { return node_; }
  // InterpreterOptions::round_like_unfused, for fused kernels.
  bool round_like_unfused() const { return round_like_unfused_; }
  void set_round_like_unfused(bool on) { round_like_unfused_ = on; }
  const OpSchema& schema() const { return schema_; }
  // The schema declares the argument (overloads differ in their arguments).
  bool has(std::string_view name) const { return schema_.arg_index(name) >= 0; }
  // Absent from the schema, or None.
  bool is_none(std::string_view name) const;
  const Arg& arg(std::string_view name) const;
  RuntimeValue value(std::string_view name) const;

  Tensor tensor(std::string_view name) const;
  std::optional<Tensor> opt_tensor(std::string_view name) const;
  std::vector<Tensor> tensor_list(std::string_view name) const;
  int64_t int_arg(std::string_view name) const;
  std::optional<int64_t> opt_int(std::string_view name) const;
  double double_arg(std::string_view name) const;  // int/bool accepted
  bool bool_arg(std::string_view name) const;
  std::optional<bool> opt_bool(std::string_view name) const;
  std::vector<int64_t> int_list(std::string_view name) const;  // a bare int becomes [int]
  std::optional<std::vector<int64_t>> opt_int_list(std::string_view name) const;
  std::vector<bool> bool_list(std::string_view name) const;
  std::string str_arg(std::string_view name) const;
  // A dtype argument given as a dtype literal or a ScalarType code; nullopt for None.
  std::optional<DType> opt_dtype(std::string_view name) const;

  // Throws eqfuse::Error at the node's location, naming node and op.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const Node& node_;
  const OpSchema& schema_;
  Resolver resolve_;
  bool round_like_unfused_ = false;
};

using Kernel = std::function<RuntimeValue(const KernelCall&)>;
using KernelTable = std::map<std::string, Kernel, std::less<>>;

void register_elementwise_kernels(KernelTable& table);
void register_layout_kernels(KernelTable& table);
void register_reduction_kernels(KernelTable& table);  // reductions, matmul, softmax, embedding
void register_npu_kernels(KernelTable& table);
void register_indexing_kernels(KernelTable& table);    // index, gather, scatter, sort, topk
void register_nn_kernels(KernelTable& table);          // layer norm, dropout, attention, baddbmm
void register_collective_kernels(KernelTable& table);  // graph/ops/collectives.schemas
void register_llm_kernels(KernelTable& table);         // graph/ops/llm.schemas (issue 16, batch 2)

// The kernel for a schema: exact qualified name first, then the overload
// packet. In-place `name_` ops without their own kernel reuse the kernel of
// `name` and copy the result into the mutated first argument. nullptr if none.
const Kernel* find_kernel(const OpSchema& schema);

// ---- helpers shared by kernel files --------------------------------------

// An elementwise operand: a tensor or a Python scalar.
struct Operand {
  std::optional<Tensor> tensor;
  double number = 0;
  int64_t int_number = 0;
  DType scalar_kind = DType::Float64;  // Bool, Int64 or Float64 for Python scalars
};
Operand to_operand(const RuntimeValue& v);
// torch's result_type over tensors (dimensioned > 0-dim) and Python scalars.
DType result_type(const std::vector<Operand>& ops);
DType promote_types(DType a, DType b);
// fp16/bf16/fp32 compute in fp32 ("opmath"), fp64 in fp64.
DType opmath_dtype(DType d);

// Builds a fresh tensor of `shape` by evaluating f(flat index) -> double;
// each value is rounded/cast to `dtype` as by set_flat, in one bulk write.
template <typename F>
Tensor make_tensor(DType dtype, const Dims& shape, F&& f) {
  Tensor out = Tensor::zeros(dtype, shape);  // validates the shape
  std::vector<double> values(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = f(static_cast<int64_t>(i));
  out.write_values(values);
  return out;
}

// Row-major index decomposition helpers.
Dims unravel(int64_t flat, const Dims& shape);
int64_t ravel(const Dims& index, const Dims& shape);

// Reduced dims for `dim` arguments: empty list (or None) means all dims.
std::vector<bool> reduction_mask(const std::optional<std::vector<int64_t>>& dims, int rank);

// Sum-of-products matrix multiply of (.., M, K) x (.., K, N) with batch
// broadcasting, accumulated in double; result rounded to `out_dtype`.
Tensor batched_matmul(const Tensor& a, const Tensor& b, DType out_dtype);

// torch.cat of `inputs` along `dim` (legacy empty 1-D tensors skipped, dtypes
// promoted); kernels_layout.cpp.
Tensor concatenate(const std::vector<Tensor>& inputs, int64_t dim);

// beta * base + alpha * product_exact (a double tensor), summed before one
// rounding to `out`, as addmm and linear round; kernels_reduction.cpp.
Tensor add_scaled(const Tensor& base, double beta, const Tensor& product_exact, double alpha,
                  DType out);

// Repeats each head (dim -3) of [..., heads, S, D] `times` times, as attention with
// grouped key/value heads reads them: query head h reads kv head h / times.
Tensor repeat_heads(const Tensor& t, int64_t times);

}  // namespace eqfuse
