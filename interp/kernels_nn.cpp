// Layer norm, dropout, scaled dot-product attention (the aten op and the
// fused forms AOTAutograd emits), baddbmm and _grouped_mm.
//
// Everything is computed in double and rounded once to the output dtype,
// so half inputs get (at least) torch CPU's fp32 accumulation. Dropout
// draws a random mask: only configurations without randomness (eval mode,
// p = 0, p = 1) have a kernel; the others fail naming the op.
#include <cmath>
#include <limits>

#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

// ---- layer norm -------------------------------------------------------------

struct LayerNorm {
  Tensor output, mean, rstd;
};

bool is_reduced_float(DType d) {
  return d == DType::Float16 || d == DType::BFloat16;
}

// Normalizes over the trailing dims named by normalized_shape:
// y = (x - mean) * rstd * weight + bias, rstd = 1 / sqrt(biased var + eps).
LayerNorm layer_norm(const KernelCall& c) {
  Tensor x = c.tensor("input");
  if (!dtype_is_floating(x.dtype())) c.fail("layer_norm needs a floating point input");
  std::vector<int64_t> normalized = c.int_list("normalized_shape");
  size_t lead = static_cast<size_t>(x.rank()) - std::min(normalized.size(), size_t(x.rank()));
  if (normalized.size() > static_cast<size_t>(x.rank()) ||
      !std::equal(normalized.begin(), normalized.end(),
                  x.shape().begin() + static_cast<int64_t>(lead)))
    c.fail(fmt::format("normalized_shape {} does not match the trailing dims of {}",
                       dims_to_string(normalized), x.describe()));
  int64_t n = shape_numel(normalized);
  int64_t rows = n == 0 ? 0 : x.numel() / n;
  std::optional<Tensor> weight = c.opt_tensor("weight"), bias = c.opt_tensor("bias");
  std::vector<double> w =
      weight ? weight->values() : std::vector<double>(static_cast<size_t>(n), 1.0);
  std::vector<double> b = bias ? bias->values() : std::vector<double>(static_cast<size_t>(n), 0.0);
  if (static_cast<int64_t>(w.size()) != n || static_cast<int64_t>(b.size()) != n)
    c.fail("weight and bias must have normalized_shape's number of elements");
  bool mixed = is_reduced_float(x.dtype()) && ((weight && weight->dtype() == DType::Float32) ||
                                               (bias && bias->dtype() == DType::Float32));
  DType stats = mixed ? DType::Float32 : x.dtype();
  // The statistics of a half input are fp32 in graphs traced for CUDA or NPU and in the
  // input's dtype in CPU graphs (graph/meta/meta_nn.cpp): the node's type, when it says, decides.
  if (const ValueType& t = c.node().type; t.kind == ValueType::Kind::Tuple &&
                                          t.elements.size() == 3 && t.elements[1].is_tensor() &&
                                          dtype_is_floating(t.elements[1].tensor.dtype))
    stats = t.elements[1].tensor.dtype;
  std::vector<double> xv = x.values(), y(xv.size()), mean(static_cast<size_t>(rows)),
                      rstd(static_cast<size_t>(rows));
  double eps = c.double_arg("eps");
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = xv.data() + r * n;
    double sum = 0, sq = 0;
    for (int64_t j = 0; j < n; ++j) sum += row[j];
    double mu = sum / static_cast<double>(n);
    for (int64_t j = 0; j < n; ++j) sq += (row[j] - mu) * (row[j] - mu);
    double rs = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
    for (int64_t j = 0; j < n; ++j)
      y[static_cast<size_t>(r * n + j)] =
          (row[j] - mu) * rs * w[static_cast<size_t>(j)] + b[static_cast<size_t>(j)];
    mean[static_cast<size_t>(r)] = mu;
    rstd[static_cast<size_t>(r)] = rs;
  }
  Dims stats_shape(x.shape().begin(), x.shape().begin() + static_cast<int64_t>(lead));
  stats_shape.resize(x.shape().size(), 1);
  return {Tensor::from_values(x.dtype(), x.shape(), y),
          Tensor::from_values(stats, stats_shape, mean),
          Tensor::from_values(stats, stats_shape, rstd)};
}

// ---- dropout ----------------------------------------------------------------

// The output and keep-mask of dropout when no randomness is involved.
std::pair<Tensor, Tensor> deterministic_dropout(const KernelCall& c, bool train) {
  Tensor x = c.tensor("input");
  double p = c.double_arg("p");
  Tensor keep_all = make_tensor(DType::Bool, x.shape(), [](int64_t) { return 1.0; });
  if (!train || p == 0.0) return {x.clone(), keep_all};
  if (p == 1.0) return {Tensor::zeros(x.dtype(), x.shape()), Tensor::zeros(DType::Bool, x.shape())};
  c.fail(
      fmt::format("dropout in training mode with p = {} draws a random mask; the reference "
                  "interpreter has no deterministic kernel for it (use train=False or p=0)",
                  p));
}

// ---- attention --------------------------------------------------------------

struct Attention {
  Tensor output;     // [..., L, Ev], query's dtype
  Tensor logsumexp;  // [..., L], fp64: log Σ_j exp(score_ij) (−inf for fully masked rows)
};

struct AttentionArgs {
  std::optional<Tensor> mask;  // bool (false = masked) or additive float
  bool causal = false;
  std::optional<double> scale;
  bool gqa = false;
};

// softmax(q kᵀ · scale + mask) v, row by row in double. A row whose scores
// are all −inf (fully masked) gives zeros, like torch's safe softmax.
Attention attention(const KernelCall& c, const AttentionArgs& args) {
  Tensor q = c.tensor("query"), k = c.tensor("key"), v = c.tensor("value");
  // Mixed dtypes: torch's meta of the fused forms types them (query's dtype), its kernels
  // refuse them (scaled_dot_product_attention's meta refuses them too): not modelled.
  if (q.dtype() != k.dtype() || q.dtype() != v.dtype())
    throw UnsupportedConfig("attention with query, key and value of different dtypes");
  if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2) c.fail("query, key and value need rank >= 2");
  if (args.gqa && q.rank() >= 3 && k.rank() >= 3 && q.size(-3) != k.size(-3)) {
    if (q.size(-3) % k.size(-3) != 0) c.fail("query heads must be a multiple of key/value heads");
    k = repeat_heads(k, q.size(-3) / k.size(-3));
    v = repeat_heads(v, q.size(-3) / v.size(-3));
  }
  double scale = args.scale.value_or(1.0 / std::sqrt(static_cast<double>(q.size(-1))));
  Tensor scores;
  try {
    scores = batched_matmul(q.to(DType::Float64), k.to(DType::Float64).transpose(-1, -2),
                            DType::Float64);
  } catch (const std::invalid_argument& e) {
    c.fail(e.what());
  }
  const Dims& shape = scores.shape();
  int64_t len_q = shape[shape.size() - 2], len_k = shape.back();
  std::vector<double> s = scores.values();
  std::vector<double> mask;
  bool bool_mask = args.mask && args.mask->dtype() == DType::Bool;
  if (args.mask) {
    try {
      mask = args.mask->expand(shape).values();
    } catch (const std::invalid_argument&) {
      c.fail(fmt::format("the mask {} does not broadcast to the scores {}", args.mask->describe(),
                         dims_to_string(shape)));
    }
  }
  const double neg_inf = -std::numeric_limits<double>::infinity();
  int64_t rows = len_q == 0 ? 0 : static_cast<int64_t>(s.size()) / len_k;
  std::vector<double> lse(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    double* row = s.data() + r * len_k;
    int64_t i = r % len_q;
    double mx = neg_inf;
    for (int64_t j = 0; j < len_k; ++j) {
      double m = args.mask ? mask[static_cast<size_t>(r * len_k + j)] : 0.0;
      bool masked = (args.causal && j > i) || (bool_mask && m == 0.0);
      row[j] = masked ? neg_inf : row[j] * scale + (bool_mask ? 0.0 : m);
      mx = std::max(mx, row[j]);
    }
    double sum = 0;
    for (int64_t j = 0; j < len_k; ++j) sum += mx == neg_inf ? 0.0 : std::exp(row[j] - mx);
    for (int64_t j = 0; j < len_k; ++j) row[j] = sum == 0 ? 0.0 : std::exp(row[j] - mx) / sum;
    lse[static_cast<size_t>(r)] = sum == 0 ? neg_inf : mx + std::log(sum);
  }
  Tensor probs = Tensor::from_values(DType::Float64, shape, s);
  Tensor out = batched_matmul(probs, v.to(DType::Float64), DType::Float64);
  Dims lse_shape(shape.begin(), shape.end() - 1);
  return {out.to(q.dtype()), Tensor::from_values(DType::Float64, lse_shape, lse)};
}

std::optional<double> scale_arg(const KernelCall& c) {
  if (!c.has("scale") || c.is_none("scale")) return std::nullopt;
  return c.double_arg("scale");
}

void require_no_dropout(const KernelCall& c) {
  if (c.double_arg("dropout_p") != 0.0)
    c.fail(
        "dropout_p > 0 draws a random mask; the reference interpreter has no deterministic "
        "kernel for it");
}

void require_4d(const KernelCall& c) {
  for (std::string_view name : {"query", "key", "value"})
    if (c.tensor(name).rank() != 4)
      c.fail(fmt::format("'{}' must be 4-D [batch, heads, seq, head_dim]", name));
}

DType accumulate_dtype(DType d) {
  return d == DType::Float64 ? DType::Float64 : DType::Float32;
}

// An auxiliary output without math (rng state, debug mask): zeros of the
// node's type for that element when it is fully known, else `fallback`.
Tensor aux_zeros(const KernelCall& c, size_t element, DType dtype, const Dims& fallback) {
  const ValueType& t = c.node().type;
  if (t.kind == ValueType::Kind::Tuple && element < t.elements.size()) {
    const ValueType& e = t.elements[element];
    if (e.is_tensor() && e.tensor.dtype != DType::Unknown && e.tensor.shape) {
      Dims dims;
      for (const SymInt& d : *e.tensor.shape) {
        if (!d.constant()) return Tensor::zeros(dtype, fallback);
        dims.push_back(*d.constant());
      }
      return Tensor::zeros(e.tensor.dtype, dims);
    }
  }
  return Tensor::zeros(dtype, fallback);
}

RuntimeValue sdpa(const KernelCall& c) {
  require_no_dropout(c);
  AttentionArgs a;
  a.mask = c.opt_tensor("attn_mask");
  a.causal = c.bool_arg("is_causal");
  if (a.mask && a.causal) c.fail("attn_mask must not be given with is_causal=True (as in torch)");
  a.scale = scale_arg(c);
  a.gqa = c.has("enable_gqa") && c.bool_arg("enable_gqa");
  return RuntimeValue(attention(c, a).output);
}

RuntimeValue flash_attention_for_cpu(const KernelCall& c) {
  require_no_dropout(c);
  require_4d(c);
  AttentionArgs a;
  a.mask = c.opt_tensor("attn_mask");
  a.causal = c.bool_arg("is_causal");
  a.scale = scale_arg(c);
  Attention r = attention(c, a);
  return RuntimeValue(
      std::vector<RuntimeValue>{r.output, r.logsumexp.to(accumulate_dtype(r.output.dtype()))});
}

// The CUDA flash form; cum_seq_q/k are None (dense batches), max_q/max_k the
// sequence lengths, the rng state and debug mask zeros.
RuntimeValue flash_attention(const KernelCall& c) {
  require_no_dropout(c);
  require_4d(c);
  AttentionArgs a;
  a.causal = c.bool_arg("is_causal");
  a.scale = scale_arg(c);
  Attention r = attention(c, a);
  Tensor q = c.tensor("query"), k = c.tensor("key");
  bool debug = c.bool_arg("return_debug_mask");
  Dims debug_shape = debug ? Dims{q.size(0), q.size(1), q.size(2), k.size(2)} : Dims{0};
  return RuntimeValue(std::vector<RuntimeValue>{
      r.output, r.logsumexp.to(DType::Float32), RuntimeValue(), RuntimeValue(),
      RuntimeValue(q.size(2)), RuntimeValue(k.size(2)), aux_zeros(c, 6, DType::Int64, {}),
      aux_zeros(c, 7, DType::Int64, {}), aux_zeros(c, 8, q.dtype(), debug_shape)});
}

// logsumexp rows padded to a multiple of 32 (the padding is unspecified in
// torch; here 0), or an empty [B, H, 0] when compute_log_sumexp is False.
RuntimeValue efficient_attention(const KernelCall& c) {
  require_no_dropout(c);
  require_4d(c);
  AttentionArgs a;
  a.mask = c.opt_tensor("attn_bias");
  a.causal = c.bool_arg("is_causal");
  a.scale = scale_arg(c);
  Attention r = attention(c, a);
  Tensor q = c.tensor("query");
  int64_t len = q.size(2);
  int64_t padded = c.bool_arg("compute_log_sumexp") ? (len + 31) / 32 * 32 : 0;
  Tensor lse = Tensor::zeros(DType::Float32, {q.size(0), q.size(1), padded});
  if (padded > 0) lse.slice(2, 0, len, 1).copy_from(r.logsumexp);
  return RuntimeValue(std::vector<RuntimeValue>{r.output, lse, aux_zeros(c, 2, DType::Int64, {}),
                                                aux_zeros(c, 3, DType::Int64, {})});
}

// ---- baddbmm and _grouped_mm -------------------------------------------------

// beta * self + alpha * (batch1 @ batch2), rounded once; beta = 0 ignores
// self (NaN in self does not propagate), as in torch.
RuntimeValue baddbmm(const KernelCall& c) {
  Tensor self = c.tensor("self"), a = c.tensor("batch1"), b = c.tensor("batch2");
  if (a.rank() != 3 || b.rank() != 3 || a.size(0) != b.size(0) || a.size(2) != b.size(1))
    c.fail(fmt::format("baddbmm expects [b, n, k] @ [b, k, m], got {} and {}", a.describe(),
                       b.describe()));
  if (a.dtype() != b.dtype() || a.dtype() != self.dtype())
    c.fail("self, batch1 and batch2 must have the same dtype");
  Tensor product = batched_matmul(a, b, DType::Float64);
  double beta = c.double_arg("beta"), alpha = c.double_arg("alpha");
  std::vector<double> p = product.values();
  std::vector<double> s;
  try {
    s = self.expand(product.shape()).values();
  } catch (const std::invalid_argument&) {
    c.fail(fmt::format("'self' {} does not broadcast to {}", self.describe(),
                       dims_to_string(product.shape())));
  }
  return RuntimeValue(make_tensor(a.dtype(), product.shape(), [&](int64_t i) {
    size_t k = static_cast<size_t>(i);
    return alpha * p[k] + (beta == 0.0 ? 0.0 : beta * s[k]);
  }));
}

// Group boundaries from `offs` (cumulative ends), checked against `total`.
std::vector<std::pair<int64_t, int64_t>> groups_of(const KernelCall& c, int64_t total) {
  std::optional<Tensor> offs = c.opt_tensor("offs");
  if (!offs) c.fail("'offs' is required when 'self' or 'mat2' is 2-D");
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t start = 0;
  for (int64_t end : offs->int_values()) {
    if (end < start || end > total)
      c.fail(fmt::format("offs must be non-decreasing and at most {}, got {}", total,
                         dims_to_string(offs->int_values())));
    out.emplace_back(start, end);
    start = end;
  }
  return out;
}

// _grouped_mm (torch 2.8's fallback semantics): rows of the output a group
// does not cover stay 0.
RuntimeValue grouped_mm(const KernelCall& c) {
  Tensor a = c.tensor("self"), b = c.tensor("mat2");
  if (!c.is_none("bias")) c.fail("bias is not supported (as in torch)");
  if (a.dtype() != b.dtype()) c.fail("self and mat2 must have the same dtype");
  DType out_dtype = c.opt_dtype("out_dtype").value_or(a.dtype());
  if ((a.rank() != 2 && a.rank() != 3) || (b.rank() != 2 && b.rank() != 3))
    c.fail("self and mat2 must be 2-D or 3-D");
  auto mm = [&](const Tensor& x, const Tensor& y) {
    if (x.size(-1) != y.size(-2))
      c.fail(fmt::format("contraction dims differ: {} and {}", x.describe(), y.describe()));
    return batched_matmul(x, y, DType::Float64);
  };
  Tensor out;
  if (a.rank() == 2 && b.rank() == 3) {
    out = Tensor::zeros(DType::Float64, {a.size(0), b.size(2)});
    auto groups = groups_of(c, a.size(0));
    if (static_cast<int64_t>(groups.size()) != b.size(0))
      c.fail("offs must have one entry per group of mat2");
    for (size_t g = 0; g < groups.size(); ++g) {
      auto [s, e] = groups[g];
      out.slice(0, s, e, 1)
          .copy_from(mm(a.slice(0, s, e, 1), b.select(0, static_cast<int64_t>(g))));
    }
  } else if (a.rank() == 3 && b.rank() == 2) {
    out = Tensor::zeros(DType::Float64, {a.size(1), b.size(1)});
    auto groups = groups_of(c, b.size(1));
    if (static_cast<int64_t>(groups.size()) != a.size(0))
      c.fail("offs must have one entry per group of self");
    for (size_t g = 0; g < groups.size(); ++g) {
      auto [s, e] = groups[g];
      out.slice(1, s, e, 1)
          .copy_from(mm(a.select(0, static_cast<int64_t>(g)), b.slice(1, s, e, 1)));
    }
  } else if (a.rank() == 2 && b.rank() == 2) {
    auto groups = groups_of(c, a.size(1));
    out =
        Tensor::zeros(DType::Float64, {static_cast<int64_t>(groups.size()), a.size(0), b.size(1)});
    if (a.size(1) != b.size(0)) c.fail("contraction dims of self and mat2 differ");
    for (size_t g = 0; g < groups.size(); ++g) {
      auto [s, e] = groups[g];
      out.select(0, static_cast<int64_t>(g))
          .copy_from(mm(a.slice(1, s, e, 1), b.slice(0, s, e, 1)));
    }
  } else {
    if (a.size(0) != b.size(0)) c.fail("group dims of self and mat2 differ");
    out = mm(a, b);
  }
  return RuntimeValue(out.to(out_dtype));
}

}  // namespace

void register_nn_kernels(KernelTable& t) {
  t["aten::native_layer_norm"] = [](const KernelCall& c) {
    LayerNorm r = layer_norm(c);
    return RuntimeValue(std::vector<RuntimeValue>{r.output, r.mean, r.rstd});
  };
  t["aten::layer_norm"] = [](const KernelCall& c) { return RuntimeValue(layer_norm(c).output); };
  t["aten::native_dropout"] = [](const KernelCall& c) {
    auto [out, mask] = deterministic_dropout(c, c.opt_bool("train").value_or(true));
    return RuntimeValue(std::vector<RuntimeValue>{out, mask});
  };
  t["aten::dropout"] = [](const KernelCall& c) {
    return RuntimeValue(deterministic_dropout(c, c.bool_arg("train")).first);
  };
  t["aten::scaled_dot_product_attention"] = sdpa;
  t["aten::_scaled_dot_product_flash_attention_for_cpu"] = flash_attention_for_cpu;
  t["aten::_scaled_dot_product_flash_attention"] = flash_attention;
  t["aten::_scaled_dot_product_efficient_attention"] = efficient_attention;
  t["aten::baddbmm"] = baddbmm;
  t["aten::_grouped_mm"] = grouped_mm;
}

}  // namespace eqfuse
