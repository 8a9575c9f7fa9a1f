// torch_npu's matmul kernels: npu_transpose_batchmatmul, npu_fused_matmul (a matmul with
// an elementwise epilogue) and npu_quant_matmul (int8 operands, dequantized or
// requantized output). Products accumulate exactly (in double) and round once at the op
// boundary, except where reference numerics round like the unfused chain.
#include <bit>
#include <cmath>
#include <numbers>

#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

std::vector<int64_t> perm_or(const KernelCall& c, std::string_view name, std::vector<int64_t> def) {
  if (!c.has(name) || c.is_none(name)) return def;
  return c.int_list(name);
}

// Scale values as fp32: int64/uint64 scales (npu_trans_quant_param) carry
// the fp32 bit pattern in their low 32 bits.
std::vector<double> scale_values(const Tensor& s) {
  if (!s.is_int_storage()) return s.values();
  std::vector<double> out;
  for (int64_t v : s.int_values()) {
    out.push_back(
        std::bit_cast<float>(static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu)));
  }
  return out;
}

// npu_fused_matmul's epilogue, read once from fused_op_type ("16cast32", a float32 result
// of half operands, is not modelled: the call is then an uninterpreted function).
enum class FusedMatmulOp : uint8_t { None, Add, Mul, Relu, GeluErf, GeluTanh };

FusedMatmulOp fused_matmul_op(const KernelCall& c) {
  const std::string op = c.str_arg("fused_op_type");
  static const std::map<std::string, FusedMatmulOp, std::less<>> kOps = {
      {"", FusedMatmulOp::None},
      {"add", FusedMatmulOp::Add},
      {"mul", FusedMatmulOp::Mul},
      {"relu", FusedMatmulOp::Relu},
      {"gelu_erf", FusedMatmulOp::GeluErf},
      {"gelu_tanh", FusedMatmulOp::GeluTanh}};
  if (op == "16cast32") throw UnsupportedConfig("npu_fused_matmul with fused_op_type 16cast32");
  auto it = kOps.find(op);
  if (it == kOps.end()) c.fail(fmt::format("unknown fused_op_type '{}'", op));
  return it->second;
}

RuntimeValue transpose_batchmatmul(const KernelCall& c) {
  Tensor x = c.tensor("input"), w = c.tensor("weight");
  if (!c.is_none("scale")) throw UnsupportedConfig("npu_transpose_batchmatmul with scale");
  if (c.has("batch_split_factor") && c.opt_int("batch_split_factor").value_or(1) != 1) {
    throw UnsupportedConfig("npu_transpose_batchmatmul with batch_split_factor");
  }
  if (x.rank() != 3 || w.rank() != 3) c.fail("input and weight must be 3-D");
  Tensor a = x.permute(perm_or(c, "perm_x1", {0, 1, 2}));
  Tensor b = w.permute(perm_or(c, "perm_x2", {0, 1, 2}));
  Tensor prod = batched_matmul(a, b, DType::Float64);  // (B, M, N), exact accumulation
  if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
    std::vector<double> bb = bias->expand(prod.shape()).values();
    std::vector<double> pv = prod.values();
    for (size_t i = 0; i < pv.size(); ++i) pv[i] += bb[i];
    prod = Tensor::from_values(DType::Float64, prod.shape(), pv);
  }
  return RuntimeValue(prod.permute(perm_or(c, "perm_y", {1, 0, 2})).to(x.dtype()));
}

// npu_fused_matmul (aclnnFusedMatmul): y = op(x @ x2 + bias, x3) in x's dtype. The
// device rounds once, at the end. Under reference numerics x @ x2 + bias is stored in
// x's dtype first, as the aten.mm / aten.addmm it replaces does, and the epilogue rounds
// again, as the separate relu / gelu / add / mul did.
RuntimeValue fused_matmul(const KernelCall& c) {
  Tensor x = c.tensor("x"), x2 = c.tensor("x2");
  const FusedMatmulOp op = fused_matmul_op(c);
  if (x.dtype() != x2.dtype())
    c.fail(fmt::format("x and x2 have different dtypes ({} and {})", dtype_code(x.dtype()),
                       dtype_code(x2.dtype())));
  const DType d = x.dtype();
  Tensor acc = batched_matmul(x, x2, DType::Float64);
  std::vector<double> y = acc.values();
  if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
    std::vector<double> b = bias->expand(acc.shape()).values();
    for (size_t i = 0; i < y.size(); ++i) y[i] += b[i];
  }
  if (c.round_like_unfused()) y = Tensor::from_values(d, acc.shape(), y).values();
  std::optional<Tensor> x3 = c.opt_tensor("x3");
  const bool binary = op == FusedMatmulOp::Add || op == FusedMatmulOp::Mul;
  if (binary && !x3) c.fail("fused_op_type add and mul need x3");
  std::vector<double> other = x3 ? x3->expand(acc.shape()).values() : std::vector<double>();
  const double k = std::sqrt(2.0 / std::numbers::pi);
  return RuntimeValue(make_tensor(d, acc.shape(), [&](int64_t i) {
    const size_t e = static_cast<size_t>(i);
    const double v = y[e];
    switch (op) {
      case FusedMatmulOp::Add:
        return v + other[e];
      case FusedMatmulOp::Mul:
        return v * other[e];
      case FusedMatmulOp::Relu:
        return v > 0 || std::isnan(v) ? v : 0.0;
      case FusedMatmulOp::GeluErf:
        return 0.5 * v * (1.0 + std::erf(v / std::numbers::sqrt2));
      case FusedMatmulOp::GeluTanh:
        return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
      case FusedMatmulOp::None:
        break;
    }
    return v;
  }));
}

// out = (x1 @ x2 [+ int32 bias]) * scale[n] * pertoken_scale[m] [+ float bias],
// int8 output: round_half_even(out + offset[n]) saturated; int32 output: the
// integer accumulation (+ bias). A float bias with a float output: see below
// for reference numerics.
RuntimeValue quant_matmul(const KernelCall& c) {
  Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2"), scale = c.tensor("scale");
  for (const char* unsupported : {"group_sizes", "y_scale", "x1_dtype", "x2_dtype"}) {
    if (c.has(unsupported) && !c.is_none(unsupported)) {
      throw UnsupportedConfig(fmt::format("npu_quant_matmul with {}", unsupported));
    }
  }
  if (x1.dtype() != DType::Int8 || x2.dtype() != DType::Int8) {
    throw UnsupportedConfig("npu_quant_matmul on non-int8 (packed int4) operands");
  }
  DType out = DType::Int8;
  if (std::optional<int64_t> code = c.opt_int("output_dtype")) {
    std::optional<DType> d = dtype_from_scalar_type(*code);
    if (!d) c.fail(fmt::format("unknown output_dtype code {}", *code));
    out = *d == DType::QInt8 ? DType::Int8 : *d;
  }
  Tensor acc = batched_matmul(x1, x2, DType::Float64);  // exact for int8 inputs
  int64_t n = acc.size(-1), m = acc.size(-2);
  std::optional<Tensor> bias = c.opt_tensor("bias");
  std::optional<Tensor> pertoken = c.opt_tensor("pertoken_scale");
  std::optional<Tensor> offset = c.opt_tensor("offset");
  std::vector<double> sv = scale_values(scale);
  if (sv.size() != 1 && static_cast<int64_t>(sv.size()) != n)
    c.fail("scale must have 1 or n values");
  std::vector<double> bias_b = bias ? bias->expand(acc.shape()).values() : std::vector<double>();
  std::vector<double> acc_v = acc.values();
  bool int_bias = bias && bias->is_int_storage();
  std::vector<double> pt = pertoken ? pertoken->values() : std::vector<double>();
  std::vector<double> off = offset ? offset->values() : std::vector<double>();
  QuantTarget target;
  return RuntimeValue(make_tensor(out, acc.shape(), [&](int64_t i) {
    int64_t col = i % n, row = (i / n) % m, flat_row = i / n;
    double v = acc_v[static_cast<size_t>(i)];
    if (int_bias) v += bias_b[static_cast<size_t>(i)];
    if (out == DType::Int32) return v;
    v *= sv[sv.size() == 1 ? 0 : static_cast<size_t>(col)];
    if (pertoken) {
      size_t r = static_cast<int64_t>(pt.size()) == m ? static_cast<size_t>(row)
                                                      : static_cast<size_t>(flat_row);
      v *= pt.at(r);
    }
    if (bias && !int_bias) {
      // The device adds a float bias before its one rounding. Under reference
      // numerics the result is first stored in the output dtype, as the
      // unfused npu_quant_matmul + aten.add chain does (MindSpore's
      // inference_qbmm_add_fusion, rewrites/library/mindspore.rules).
      if (c.round_like_unfused() && out != DType::Int8) v = cast_double(v, out);
      v += bias_b[static_cast<size_t>(i)];
    }
    if (out == DType::Int8) {
      if (offset) v += off[off.size() == 1 ? 0 : static_cast<size_t>(col)];
      return quantize_value(v, target);
    }
    return v;
  }));
}

}  // namespace

void register_matmul_kernels(KernelTable& t) {
  t["npu::npu_transpose_batchmatmul"] = transpose_batchmatmul;
  t["npu::npu_fused_matmul"] = fused_matmul;
  t["npu::npu_quant_matmul"] = quant_matmul;
}

}  // namespace eqfuse::npu_kernels
