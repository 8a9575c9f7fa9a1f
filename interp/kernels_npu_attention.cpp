// torch_npu's npu_fusion_attention and npu_fusion_attention_v2: softmax attention over
// BNSD or BSND q, k, v (grouped kv heads repeated), with pse and atten_mask, no dropout.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

// ---- npu_fusion_attention ---------------------------------------------------

// The arguments of npu_fusion_attention(_v2) the kernel models, checked: q, k, v as
// [B, N, S, D] (BSND permuted), k and v repeated to N heads when they have fewer (GQA).
struct FusionAttentionArgs {
  Tensor q, k, v;
  std::optional<Tensor> pse, mask;  // both broadcast to [B, N, S, T]
  double scale = 1;
  bool pse_inside_scale = true;  // pse_type 1: scale * (q kᵀ + pse); else scale * q kᵀ + pse
  bool bsnd = false;
};

// Checks an argument that the kernel does not model is at its default.
void require_default(const KernelCall& c, const char* name, int64_t def) {
  if (c.has(name) && c.int_arg(name) != def)
    c.fail(fmt::format("{}={} is not modelled (only the default {})", name, c.int_arg(name), def));
}

// k or v whose kv heads `heads` query heads share (GQA), repeated to `heads`.
Tensor kv_for_heads(const KernelCall& c, const Tensor& t, int64_t heads, const char* name) {
  int64_t n2 = t.size(1);
  if (n2 <= 0 || heads % n2 != 0)
    c.fail(fmt::format("{}'s head count {} must divide query's {}", name, n2, heads));
  return repeat_heads(t, heads / n2);
}

FusionAttentionArgs fusion_attention_args(const KernelCall& c, bool v2) {
  FusionAttentionArgs a;
  std::string layout = c.str_arg("input_layout");
  if (layout != "BNSD" && layout != "BSND")
    c.fail(fmt::format("input_layout '{}' is not modelled (BNSD and BSND are)", layout));
  a.bsnd = layout == "BSND";
  if (c.double_arg("keep_prob") != 1.0) c.fail("keep_prob < 1 (dropout) is not modelled");
  require_default(c, "sparse_mode", 0);
  require_default(c, v2 ? "pre_tokens" : "pre_tockens", 2147483647);
  require_default(c, v2 ? "next_tokens" : "next_tockens", 2147483647);
  for (const char* name : {"padding_mask", "prefix", "actual_seq_qlen", "actual_seq_kvlen"})
    if (!c.is_none(name)) c.fail(fmt::format("'{}' is not modelled", name));
  if (v2) {
    int64_t pse_type = c.int_arg("pse_type");
    if (pse_type != 0 && pse_type != 1)
      c.fail(fmt::format("pse_type {} (generated alibi) is not modelled (0 and 1 are)", pse_type));
    a.pse_inside_scale = pse_type == 1;
  }
  auto bnsd = [&](const char* name) {
    Tensor t = c.tensor(name);
    if (t.rank() != 4) c.fail(fmt::format("{} {} must be 4-D", name, dims_to_string(t.shape())));
    return a.bsnd ? t.transpose(1, 2) : t;
  };
  a.q = bnsd("query");
  Tensor k = bnsd("key"), v = bnsd("value");
  if (k.dtype() != a.q.dtype() || v.dtype() != a.q.dtype())
    c.fail("query, key and value must have one dtype");
  const int64_t heads = a.q.size(1);
  if (c.int_arg("head_num") != heads)
    c.fail(
        fmt::format("head_num {} must equal query's head count {}", c.int_arg("head_num"), heads));
  if (k.size(0) != a.q.size(0) || k.size(3) != a.q.size(3) || v.size(0) != k.size(0) ||
      v.size(1) != k.size(1) || v.size(2) != k.size(2))
    c.fail(fmt::format("query {}, key {} and value {} do not form an attention",
                       dims_to_string(a.q.shape()), dims_to_string(k.shape()),
                       dims_to_string(v.shape())));
  a.k = kv_for_heads(c, k, heads, "key");
  a.v = kv_for_heads(c, v, heads, "value");
  a.scale = c.double_arg("scale");
  Dims scores{a.q.size(0), heads, a.q.size(2), a.k.size(2)};
  auto broadcast = [&](const char* name) -> std::optional<Tensor> {
    std::optional<Tensor> t = c.opt_tensor(name);
    if (!t) return t;
    bool ok = t->rank() <= 4;
    for (int i = 1; ok && i <= t->rank(); ++i)
      ok = t->size(-i) == 1 || t->size(-i) == scores[static_cast<size_t>(4 - i)];
    if (!ok)
      c.fail(fmt::format("{} {} does not broadcast to the scores {}", name,
                         dims_to_string(t->shape()), dims_to_string(scores)));
    return t->expand(scores);
  };
  a.pse = broadcast("pse");
  a.mask = broadcast("atten_mask");
  if (a.mask && a.mask->dtype() != DType::Bool && a.mask->dtype() != DType::UInt8)
    c.fail("atten_mask must be bool or uint8");
  return a;
}

// softmax(mask(scores)) · v, one (batch, head, query row) at a time. The device keeps the
// scores and probabilities in fp32 and stores the output once. Under reference numerics
// (round_like_unfused) every step is stored as the eager chain TorchAir's and MindSpore's
// patterns match stores it: q kᵀ in the input dtype (bmm), times the scale (a Python
// scalar, so at opmath precision) and plus pse each stored in the input dtype, the softmax
// in fp32 then cast to the input dtype, and p · v stored in the input dtype. Positions
// atten_mask leaves out do not take part; a row with none left is 0.
RuntimeValue fusion_attention(const KernelCall& c, bool v2) {
  FusionAttentionArgs a = fusion_attention_args(c, v2);
  const DType d = a.q.dtype();
  const bool chain = c.round_like_unfused();
  const int64_t B = a.q.size(0), N = a.q.size(1), S = a.q.size(2), T = a.k.size(2);
  const DType qk_dtype = chain ? d : DType::Float64;
  std::vector<double> qk = batched_matmul(a.q, a.k.transpose(2, 3), qk_dtype).values();
  std::vector<double> pse = a.pse ? a.pse->values() : std::vector<double>();
  std::vector<double> mask = a.mask ? a.mask->values() : std::vector<double>();
  const double scale = chain ? cast_double(a.scale, opmath_dtype(d)) : a.scale;
  auto store = [&](double x) { return chain ? cast_double(x, d) : x; };
  std::vector<double> probs(qk.size(), 0.0), row_max(static_cast<size_t>(B * N * S)),
      row_sum(row_max.size());
  std::vector<double> z(static_cast<size_t>(T));  // one row of scores, reused
  for (int64_t r = 0; r < B * N * S; ++r) {
    const size_t base = static_cast<size_t>(r * T);
    double mx = -std::numeric_limits<double>::infinity();
    bool any = false;
    for (size_t j = 0; j < z.size(); ++j) {
      double s = qk[base + j];
      double p = a.pse ? pse[base + j] : 0.0;
      if (a.pse_inside_scale)
        s = a.pse ? store(store(s + p) * scale) : store(s * scale);
      else
        s = a.pse ? store(store(s * scale) + p) : store(s * scale);
      z[j] = s;
      if (a.mask && mask[base + j] != 0) continue;
      any = true;
      mx = std::max(mx, s);
    }
    double sum = 0;
    for (size_t j = 0; j < z.size(); ++j)
      if (!(a.mask && mask[base + j] != 0)) sum += std::exp(z[j] - mx);
    row_max[static_cast<size_t>(r)] = any ? mx : 0.0;
    row_sum[static_cast<size_t>(r)] = any ? sum : 0.0;
    for (size_t j = 0; any && j < z.size(); ++j) {
      if (a.mask && mask[base + j] != 0) continue;
      double p = std::exp(z[j] - mx) / sum;
      probs[base + j] = chain ? cast_double(cast_double(p, DType::Float32), d) : p;
    }
  }
  Tensor p = from_doubles(chain ? d : DType::Float64, {B, N, S, T}, probs);
  Tensor out = batched_matmul(p, a.v, chain ? d : DType::Float64).to(d);
  if (a.bsnd) out = out.transpose(1, 2).contiguous();
  auto stats = [&](const std::vector<double>& per_row) {
    std::vector<double> v8;
    v8.reserve(per_row.size() * 8);
    for (double x : per_row) v8.insert(v8.end(), 8, x);
    return from_doubles(DType::Float32, {B, N, S, 8}, v8);
  };
  std::vector<RuntimeValue> outs{out,
                                 stats(row_max),
                                 stats(row_sum),
                                 Tensor::zeros(d, {0}),
                                 RuntimeValue(int64_t{0}),
                                 RuntimeValue(int64_t{0}),
                                 RuntimeValue(int64_t{0})};
  return RuntimeValue(std::move(outs));
}

}  // namespace

void register_attention_kernels(KernelTable& t) {
  t["npu::npu_fusion_attention"] = [](const KernelCall& c) { return fusion_attention(c, false); };
  t["npu::npu_fusion_attention_v2"] = [](const KernelCall& c) { return fusion_attention(c, true); };
}

}  // namespace eqfuse::npu_kernels
