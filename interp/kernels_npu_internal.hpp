// Declarations shared by the torch_npu kernels, which live per op family in
// interp/kernels_npu_*.cpp: the RMS norm core (kernels_npu_norm.cpp) and the
// quantization math (kernels_npu_quant.cpp) that the fused norm, swiglu and rope kernels
// reuse, and each family file's registration function, all called from
// register_npu_kernels (kernels_npu.cpp). Private to the reference interpreter.
#pragma once
#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "interp/float16.hpp"
#include "interp/kernels.hpp"

namespace eqfuse::npu_kernels {

// ---- small helpers ------------------------------------------------------------

inline Tensor from_doubles(DType d, const Dims& shape, const std::vector<double>& v) {
  return Tensor::from_values(d, shape, v);
}

inline RuntimeValue tuple(std::vector<Tensor> ts) {
  return RuntimeValue(std::vector<RuntimeValue>(ts.begin(), ts.end()));
}

inline double epsilon_arg(const KernelCall& c, double fallback) {
  return c.has("epsilon") && !c.is_none("epsilon") ? c.double_arg("epsilon") : fallback;
}

// ---- RMS norm core (kernels_npu_norm.cpp) ------------------------------------

// x viewed as rows x cols, where cols = numel(gamma) (gamma = trailing dims).
struct RmsNormResult {
  std::vector<double> x;     // the normalized input (x1 + x2), unrounded but see below
  std::vector<double> y;     // x * rstd * gamma (+ beta), unrounded; under reference
                             // numerics x * rstd * gamma rounded as the chain rounds it
  std::vector<double> rstd;  // one per row
  int64_t rows = 0, cols = 0;
  Dims shape;       // x1's shape
  Dims rstd_shape;  // leading dims of x1, then 1s for gamma's dims
};

// rstd and y = x * rstd * gamma (+ beta) of x = x1 (+ x2) over gamma's trailing dims.
RmsNormResult add_rms_norm_core(const KernelCall& c, const Tensor& x1,
                                const std::optional<Tensor>& x2, const Tensor& gamma, double eps,
                                const std::optional<Tensor>& beta);

// InterpreterOptions::round_like_unfused: y stored in x's dtype, as the
// unfused npu_add_rms_norm would hand it to the next op.
void round_y_like_unfused(const KernelCall& c, DType x_dtype, RmsNormResult& r);

// ---- quantization (kernels_npu_quant.cpp) ------------------------------------

struct QuantTarget {
  DType dtype = DType::Int8;  // stored dtype of the result
  double qmin = -128, qmax = 127;
  bool pack_int4 = false;  // eight int4 values per int32 along the last dim
};

inline double quantize_value(double v, const QuantTarget& t) {
  if (std::isnan(v)) return 0;
  return std::clamp(round_half_even(v), t.qmin, t.qmax);
}

// q (already quantized values) stored as t's dtype, or packed as int4 into int32 words.
Tensor store_quantized(const KernelCall& c, const Dims& shape, const std::vector<double>& q,
                       const QuantTarget& t);

// Per-token symmetric quantization of rows x cols values: scale =
// rowmax(|v * smooth|) / qmax (rounded to fp32, it is an output), q =
// round_half_even(v * smooth / scale). A zero row gets scale 0 and q 0.
struct DynamicQuant {
  std::vector<double> q;
  std::vector<double> scale;
};

DynamicQuant dynamic_quant_rows(const std::vector<double>& v, int64_t rows, int64_t cols,
                                const std::optional<std::vector<double>>& smooth,
                                const QuantTarget& t);

// The target of dynamic quantization for a dst_type code: int8 (default) or packed int4.
QuantTarget dynamic_quant_target(std::optional<int64_t> code);

// ---- MX quantization (kernels_npu_quant.cpp) ---------------------------------

// An 8-bit float target of MX quantization: its largest finite value and emax, the exponent of
// its largest power of two (CANN's aclnnDynamicMxQuant doc, after the OCP MX v1.0 spec).
struct MxTarget {
  DType dtype = DType::Float8E4M3FN;
  double max_normal = 448.0;
  int emax = 8;
  int64_t scale_alg = 0;
};

// The MX target of an op's dst_type, scale_alg and round_mode arguments, checked.
MxTarget mx_target(const KernelCall& c, std::string_view op, int64_t scale_alg);

struct MxQuant {
  std::vector<double> y;
  std::vector<double> scale_bits;  // uint8 values, laid out as scale_shape
  Dims scale_shape;
};

// MX quantization of row-major values of `shape` in blocks of `block` along `axis`.
MxQuant mx_quantize(const std::vector<double>& v, const Dims& shape, int64_t axis, int64_t block,
                    const MxTarget& t);

// Fails unless x is float16 or bfloat16.
void check_half_input(const KernelCall& c, const Tensor& x, std::string_view name);

// ---- registration, one function per family file --------------------------------

void register_rope_kernels(KernelTable& t);        // kernels_npu_rope.cpp
void register_attention_kernels(KernelTable& t);   // kernels_npu_attention.cpp
void register_norm_kernels(KernelTable& t);        // kernels_npu_norm.cpp
void register_quant_kernels(KernelTable& t);       // kernels_npu_quant.cpp
void register_norm_quant_kernels(KernelTable& t);  // kernels_npu_norm_quant.cpp
void register_swiglu_kernels(KernelTable& t);      // kernels_npu_swiglu.cpp
void register_matmul_kernels(KernelTable& t);      // kernels_npu_matmul.cpp

}  // namespace eqfuse::npu_kernels
