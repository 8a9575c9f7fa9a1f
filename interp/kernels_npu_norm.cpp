// torch_npu's fused norms: npu_rms_norm, npu_add_rms_norm and its cast / in-place / bias
// variants, npu_add_layer_norm. The RMS norm core here is shared with the fused
// norm + quantization kernels (kernels_npu_norm_quant.cpp) and qkv_rmsnorm_rope
// (kernels_npu_rope.cpp), so they normalize exactly as the plain norms do.
#include <cmath>

#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

// ---- RMS norm core ------------------------------------------------------------

void check_trailing(const KernelCall& c, const Tensor& x, const Tensor& gamma) {
  bool ok = gamma.rank() >= 1 && gamma.rank() <= x.rank();
  for (int i = 1; ok && i <= gamma.rank(); ++i) ok = gamma.size(-i) == x.size(-i);
  if (!ok) {
    c.fail(fmt::format("gamma shape {} must equal the trailing dims of input shape {}",
                       dims_to_string(gamma.shape()), dims_to_string(x.shape())));
  }
}

// rstd = 1 / sqrt(mean(x^2) + eps) of one row, in double: the device's fp32
// accumulation, at least as precise.
double rms_norm_rstd_exact(const double* x, int64_t n, double eps) {
  double sum_sq = 0;
  for (int64_t j = 0; j < n; ++j) sum_sq += x[j] * x[j];
  return 1.0 / std::sqrt(sum_sq / static_cast<double>(n) + eps);
}

// The same rstd as the unfused chain computes it in eager PyTorch (LlamaRMSNorm,
// TorchAir's npu_rms_norm joint-graph pattern), op by op as this interpreter runs
// those aten ops: x upcast to fp32, x*x stored in fp32, their mean (summed in
// order, divided, stored in fp32), + eps (a Python scalar, so fp32 first),
// rsqrt stored in fp32.
double rms_norm_rstd_like_chain(const double* x, int64_t n, double eps) {
  constexpr DType f32 = DType::Float32;
  double sum_sq = 0;
  for (int64_t j = 0; j < n; ++j) sum_sq += cast_double(x[j] * x[j], f32);
  double mean = cast_double(sum_sq / static_cast<double>(n), f32);
  double var = cast_double(mean + cast_double(eps, f32), f32);
  return cast_double(1.0 / std::sqrt(var), f32);
}

}  // namespace

RmsNormResult add_rms_norm_core(const KernelCall& c, const Tensor& x1,
                                const std::optional<Tensor>& x2, const Tensor& gamma, double eps,
                                const std::optional<Tensor>& beta) {
  check_trailing(c, x1, gamma);
  if (x2 && x2->shape() != x1.shape()) {
    c.fail(fmt::format("x1 {} and x2 {} must have the same shape", dims_to_string(x1.shape()),
                       dims_to_string(x2->shape())));
  }
  RmsNormResult r;
  r.shape = x1.shape();
  r.cols = gamma.numel();
  r.rows = r.cols == 0 ? 0 : x1.numel() / r.cols;
  r.rstd_shape = Dims(x1.shape().begin(), x1.shape().end() - gamma.rank());
  r.rstd_shape.resize(static_cast<size_t>(x1.rank()), 1);
  std::vector<double> g = gamma.values();
  std::vector<double> b = beta ? beta->expand(gamma.shape()).values() : std::vector<double>();
  r.x = x1.values();
  if (x2) {
    std::vector<double> v2 = x2->values();
    for (size_t i = 0; i < r.x.size(); ++i) r.x[i] += v2[i];
    // The device normalizes the fp32 sum; an unfused add hands the norm the
    // sum stored in x1's dtype (InterpreterOptions::round_like_unfused).
    if (c.round_like_unfused()) r.x = Tensor::from_values(x1.dtype(), r.shape, r.x).values();
  }
  r.y.resize(r.x.size());
  r.rstd.resize(static_cast<size_t>(r.rows));
  const bool chain = c.round_like_unfused();
  for (int64_t row = 0; row < r.rows; ++row) {
    const double* xr = &r.x[static_cast<size_t>(row * r.cols)];
    double rstd =
        chain ? rms_norm_rstd_like_chain(xr, r.cols, eps) : rms_norm_rstd_exact(xr, r.cols, eps);
    r.rstd[static_cast<size_t>(row)] = rstd;
    for (int64_t j = 0; j < r.cols; ++j) {
      double gj = g[static_cast<size_t>(j)];
      double y =
          chain
              ? cast_double(gj * cast_double(cast_double(xr[j] * rstd, DType::Float32), x1.dtype()),
                            x1.dtype())
              : xr[j] * rstd * gj;
      if (beta) y += b[static_cast<size_t>(j)];
      r.y[static_cast<size_t>(row * r.cols + j)] = y;
    }
  }
  return r;
}

// InterpreterOptions::round_like_unfused: y stored in x's dtype, as the
// unfused npu_add_rms_norm would hand it to the next op.
void round_y_like_unfused(const KernelCall& c, DType x_dtype, RmsNormResult& r) {
  if (c.round_like_unfused()) r.y = from_doubles(x_dtype, r.shape, r.y).values();
}

namespace {

// ---- add + layer norm -------------------------------------------------------

// npu_add_layer_norm's outputs, unrounded, with the dtypes and shapes
// op-plugin's AddLayerNormKernelNpuOpApi.cpp allocates: y and x in x1's dtype
// (fp32 when x1 and x2 differ), mean and rstd fp32 of x's leading dims then 1.
struct AddLayerNormResult {
  std::vector<double> x, y, mean, rstd;
  DType dtype = DType::Unknown;
  Dims shape, stats_shape;
};

std::vector<double> add_layer_norm_sum(const KernelCall& c, const Tensor& x1, const Tensor& x2,
                                       DType out) {
  if (x2.shape() != x1.shape()) {
    c.fail(fmt::format("x1 {} and x2 {} must have the same shape", dims_to_string(x1.shape()),
                       dims_to_string(x2.shape())));
  }
  std::vector<double> x = x1.values(), v2 = x2.values();
  for (size_t i = 0; i < x.size(); ++i) x[i] += v2[i];
  // The device adds in fp32 and normalizes that sum. The unfused chain's
  // aten.add stores the sum in its result dtype and layer norm reads it back
  // (InterpreterOptions::round_like_unfused), so round as the chain does.
  return Tensor::from_values(c.round_like_unfused() ? out : DType::Float32, x1.shape(), x).values();
}

// y = (x - mean) * rstd * gamma + beta over gamma's trailing dims, rstd =
// 1 / sqrt(biased var + eps): the same operations in the same order as the
// interpreter's aten.native_layer_norm (interp/kernels_nn.cpp), so the fused
// kernel under reference numerics equals the chain bit for bit.
AddLayerNormResult add_layer_norm_core(const KernelCall& c) {
  Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2"), gamma = c.tensor("gamma"),
         beta = c.tensor("beta");
  if (!dtype_is_floating(x1.dtype()) || !dtype_is_floating(x2.dtype()))
    c.fail("npu_add_layer_norm needs floating point inputs");
  check_trailing(c, x1, gamma);
  if (beta.shape() != gamma.shape()) {
    c.fail(fmt::format("beta {} must have gamma's shape {}", dims_to_string(beta.shape()),
                       dims_to_string(gamma.shape())));
  }
  AddLayerNormResult r;
  r.dtype = x1.dtype() == x2.dtype() ? x1.dtype() : DType::Float32;
  r.shape = x1.shape();
  r.stats_shape = Dims(r.shape.begin(), r.shape.end() - gamma.rank());
  r.stats_shape.push_back(1);
  r.x = add_layer_norm_sum(c, x1, x2, r.dtype);
  const int64_t n = gamma.numel(), rows = n == 0 ? 0 : x1.numel() / n;
  const std::vector<double> w = gamma.values(), b = beta.values();
  const double eps = epsilon_arg(c, 1e-5);
  r.y.resize(r.x.size());
  r.mean.resize(static_cast<size_t>(rows));
  r.rstd.resize(static_cast<size_t>(rows));
  for (int64_t row = 0; row < rows; ++row) {
    const double* xr = r.x.data() + row * n;
    double sum = 0, sq = 0;
    for (int64_t j = 0; j < n; ++j) sum += xr[j];
    const double mu = sum / static_cast<double>(n);
    for (int64_t j = 0; j < n; ++j) sq += (xr[j] - mu) * (xr[j] - mu);
    const double rs = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      const auto k = static_cast<size_t>(j);
      r.y[static_cast<size_t>(row * n + j)] = (xr[j] - mu) * rs * w[k] + b[k];
    }
    r.mean[static_cast<size_t>(row)] = mu;
    r.rstd[static_cast<size_t>(row)] = rs;
  }
  return r;
}

}  // namespace

void register_norm_kernels(KernelTable& t) {
  t["npu::npu_add_rms_norm"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r =
        add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(x1.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  t["npu::npu_rms_norm"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    RmsNormResult r = add_rms_norm_core(c, x, {}, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(x.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd)});
  };
  // x is written only with additional_output=True; otherwise the device
  // leaves it unwritten, which the interpreter models as zeros (as `empty`).
  t["npu::npu_add_layer_norm"] = [](const KernelCall& c) {
    AddLayerNormResult r = add_layer_norm_core(c);
    Tensor x = c.bool_arg("additional_output") ? from_doubles(r.dtype, r.shape, r.x)
                                               : Tensor::zeros(r.dtype, r.shape);
    return tuple({from_doubles(r.dtype, r.shape, r.y),
                  from_doubles(DType::Float32, r.stats_shape, r.mean),
                  from_doubles(DType::Float32, r.stats_shape, r.rstd), x});
  };
  // vllm-ascend's _C_ascend.npu_add_rms_norm_bias (aclnnAddRmsNormBias): npu_add_rms_norm
  // with beta added after gamma, one rounding of y; y and x in x1's dtype, rstd fp32.
  t["_C_ascend::npu_add_rms_norm_bias"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r = add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"),
                                        epsilon_arg(c, 1e-6), c.opt_tensor("beta"));
    return tuple({from_doubles(x1.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  t["npu::npu_add_rms_norm_cast"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r =
        add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    Tensor y = from_doubles(x1.dtype(), r.shape, r.y);
    // torchair-passes.md §7.6: y_fp32 = float32(y), the cast of the x1-dtype output.
    return tuple({y.to(DType::Float32), y, from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  // In place (aclnnInplaceAddRmsNorm): x1 <- y, x2 <- x1 + x2; returns rstd.
  t["npu::npu_add_rms_norm_v2"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2");
    RmsNormResult r = add_rms_norm_core(c, x1, x2, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    Tensor y = from_doubles(x1.dtype(), r.shape, r.y);
    Tensor x = from_doubles(x2.dtype(), r.shape, r.x);
    x1.copy_from(y);
    x2.copy_from(x);
    return RuntimeValue(from_doubles(DType::Float32, r.rstd_shape, r.rstd));
  };
  t["npu::npu_add_rms_norm_v2_functional"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2");
    RmsNormResult r = add_rms_norm_core(c, x1, x2, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.y), from_doubles(x2.dtype(), r.shape, r.x)});
  };
}

}  // namespace eqfuse::npu_kernels
