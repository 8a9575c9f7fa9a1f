// Meta functions of the torch_npu and vllm ops that make up an attention block: the
// KV-cache norm + rope (kv_rmsnorm_rope_cache), the MLA prologue (mla_prolog_v3), the
// rotary embeddings (npu_rotary_embedding, qkv_rmsnorm_rope, rotary_mul) and fused
// attention itself (npu_fusion_attention).
#include <string>

#include "graph/meta/meta_npu_internal.hpp"

namespace eqfuse::npu_meta {
namespace {

using meta::tensor;

// npu_kv_rmsnorm_rope_cache*: (k_rope [B,N,S,rope], c_kv [B,N,S,gamma]).
std::pair<ValueType, ValueType> kv_rope_outputs(const CallContext& ctx) {
  auto kv = meta::shape_arg(ctx, "kv");
  auto cos = meta::shape_arg(ctx, "cos");
  auto gamma = meta::shape_arg(ctx, "gamma");
  auto v = meta::shape_arg(ctx, "v");
  DType d = meta::dtype_of_arg(ctx, "kv");
  if (kv && kv->size() != 4) meta::fail("argument 'kv' must be 4-D, got {}-D", kv->size());
  if (cos && cos->size() != 4) meta::fail("argument 'cos' must be 4-D, got {}-D", cos->size());
  if (gamma && gamma->size() != 1)
    meta::fail("argument 'gamma' must be 1-D, got {}-D", gamma->size());
  if (v) {
    if (v->size() != 4) meta::fail("argument 'v' must be 4-D, got {}-D", v->size());
    DType vd = meta::dtype_of_arg(ctx, "v");
    if (vd != DType::Unknown && d != DType::Unknown && vd != d)
      meta::fail("argument 'v' must have the dtype of 'kv'");
    if (kv)
      for (size_t i = 0; i < 3; ++i)
        if (meta::dims_differ((*v)[i], (*kv)[i]))
          meta::fail("argument 'v' {} must share (B, N, S) with 'kv' {}", meta::shape_str(*v),
                     meta::shape_str(*kv));
  }
  std::optional<Shape> rope, ckv;
  if (kv && cos) rope = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*cos)[3]};
  if (kv && v) {
    ckv = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*v)[3]};
  } else if (kv && gamma) {
    ckv = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*gamma)[0]};
  }
  return {tensor(d, rope), tensor(d, ckv)};
}

ValueType type_or_unknown(const CallContext& ctx, std::string_view name) {
  const TensorType* t = meta::tensor_arg(ctx, name);
  return t ? tensor(t->dtype, t->shape) : ValueType::unknown();
}

ValueType kv_rmsnorm_rope_cache(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple(
      {type_or_unknown(ctx, "k_cache"), type_or_unknown(ctx, "ckv_cache"), rope, ckv});
}

ValueType kv_rmsnorm_rope_cache_v2(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple({rope, ckv});
}

ValueType kv_rmsnorm_rope_cache_v2_functional(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple(
      {rope, ckv, type_or_unknown(ctx, "k_cache"), type_or_unknown(ctx, "ckv_cache")});
}

// npu_mla_prolog_v3: query [.., N, Hckv] and query_rope [.., N, Dr] follow
// from token_x's leading dims, weight_uk (N, D, Hckv) and rope_sin (.., Dr).
// The dequant scales and query_norm depend on quant modes: left Unknown.
ValueType mla_prolog_outputs(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "token_x");
  auto uk = meta::shape_arg(ctx, "weight_uk");
  auto sin = meta::shape_arg(ctx, "rope_sin");
  if (x && x->size() != 2 && x->size() != 3)
    meta::fail("argument 'token_x' must be [T, He] or [B, S, He], got {}", meta::shape_str(*x));
  if (uk && uk->size() != 3) meta::fail("argument 'weight_uk' must be 3-D, got {}-D", uk->size());
  DType xd = meta::dtype_of_arg(ctx, "token_x");
  DType qd = DType::Unknown;
  if (meta::require_int(ctx, "query_quant_mode") != 0) {
    qd = DType::Int8;
  } else if (xd != DType::Unknown) {
    qd = dtype_is_floating(xd) ? xd : DType::BFloat16;
  }
  std::optional<Shape> q, qr;
  if (x && uk) {
    q = Shape(x->begin(), x->end() - 1);
    q->push_back((*uk)[0]);
    q->push_back((*uk)[2]);
  }
  if (x && uk && sin && !sin->empty()) {
    qr = Shape(x->begin(), x->end() - 1);
    qr->push_back((*uk)[0]);
    qr->push_back(sin->back());
  }
  return meta::tuple({tensor(qd, q), tensor(DType::BFloat16, qr), ValueType::unknown(),
                      ValueType::unknown(), ValueType::unknown()});
}

ValueType mla_prolog_v3(const CallContext& ctx) {
  return mla_prolog_outputs(ctx);
}

ValueType mla_prolog_v3_functional(const CallContext& ctx) {
  ValueType t = mla_prolog_outputs(ctx);
  t.elements.push_back(type_or_unknown(ctx, "kv_cache"));
  t.elements.push_back(type_or_unknown(ctx, "kr_cache"));
  return t;
}

// An int literal argument that must be positive (sizes of heads and hidden dims).
std::optional<int64_t> positive_int(const CallContext& ctx, std::string_view name) {
  std::optional<int64_t> v = meta::int_arg(ctx, name);
  if (v && *v <= 0) meta::fail("argument '{}' must be positive, got {}", name, *v);
  return v;
}

// positions [T] and a 2-D cos_sin_cache whose last dim is `rope_dim` when known.
void check_rope_inputs(const CallContext& ctx, std::optional<int64_t> rope_dim) {
  auto pos = meta::shape_arg(ctx, "positions");
  if (pos && pos->size() != 1) meta::fail("argument 'positions' must be 1-D");
  if (DType p = meta::dtype_of_arg(ctx, "positions");
      p != DType::Unknown && p != DType::Int64 && p != DType::Int32)
    meta::fail("argument 'positions' must be int32 or int64");
  auto cache = meta::shape_arg(ctx, "cos_sin_cache");
  if (cache && cache->size() != 2) meta::fail("argument 'cos_sin_cache' must be 2-D");
  if (cache && rope_dim && meta::dims_differ(cache->back(), SymInt(*rope_dim)))
    meta::fail("argument 'cos_sin_cache' {}: last dim must be the rotary dim {}",
               meta::shape_str(*cache), *rope_dim);
}

// vllm.npu_rotary_embedding -> (query, key), each keeping its own type.
ValueType npu_rotary_embedding(const CallContext& ctx) {
  std::optional<int64_t> head = positive_int(ctx, "head_size");
  std::optional<int64_t> rot = positive_int(ctx, "rotary_dim");
  if (head && rot && (*rot > *head || *rot % 2 != 0))
    meta::fail("argument 'rotary_dim' {} must be even and at most head_size {}", *rot, *head);
  check_rope_inputs(ctx, rot);
  std::vector<ValueType> out;
  for (const char* name : {"query", "key"}) {
    const TensorType* t = meta::tensor_arg(ctx, name);
    if (!t) {
      out.push_back(ValueType::unknown());
      continue;
    }
    if (t->shape && t->shape->empty()) meta::fail("argument '{}' must have at least 1 dim", name);
    if (t->shape && head && not_multiple(t->shape->back(), *head) && t->shape->size() <= 2)
      meta::fail("argument '{}' {}: last dim must be a multiple of head_size {}", name,
                 meta::shape_str(*t->shape), *head);
    out.push_back(tensor(t->dtype, t->shape));
  }
  return meta::tuple(std::move(out));
}

// vllm.qkv_rmsnorm_rope(input [T, q + 2 kv], ...) -> (q [T, q], k [T, kv], v [T, kv]),
// all in input's dtype.
ValueType qkv_rmsnorm_rope(const CallContext& ctx) {
  std::optional<int64_t> q = positive_int(ctx, "q_hidden_size");
  std::optional<int64_t> kv = positive_int(ctx, "kv_hidden_size");
  std::optional<int64_t> head = positive_int(ctx, "head_dim");
  if (head && ((q && *q % *head != 0) || (kv && *kv % *head != 0)))
    meta::fail("q_hidden_size and kv_hidden_size must be multiples of head_dim {}", *head);
  check_rope_inputs(ctx, std::nullopt);
  if (auto cache = meta::shape_arg(ctx, "cos_sin_cache"); cache && head) {
    if (auto r = cache->back().constant(); r && (*r > *head || *r % 2 != 0))
      meta::fail("argument 'cos_sin_cache': rotary dim {} must be even and at most head_dim {}", *r,
                 *head);
  }
  for (const char* w : {"q_weight", "k_weight", "q_bias", "k_bias"}) {
    auto s = meta::shape_arg(ctx, w);
    if (s && head && (s->size() != 1 || meta::dims_differ((*s)[0], SymInt(*head))))
      meta::fail("argument '{}' {} must be [head_dim] = [{}]", w, meta::shape_str(*s), *head);
  }
  const TensorType* in = meta::tensor_arg(ctx, "input");
  if (!in) return ValueType::unknown();
  DType d = in->dtype;
  if (!in->shape)
    return meta::tuple({tensor(d, std::nullopt), tensor(d, std::nullopt), tensor(d, std::nullopt)});
  const Shape& s = *in->shape;
  if (s.size() != 2) meta::fail("argument 'input' {} must be 2-D", meta::shape_str(s));
  // Checked: the sizes are literals of the call, and their sum may leave int64.
  if (q && kv && meta::dims_differ(s[1], SymInt(*q) + SymInt(*kv) * 2))
    meta::fail("argument 'input' {}: last dim must be q_hidden_size + 2 * kv_hidden_size = {}",
               meta::shape_str(s), (SymInt(*q) + SymInt(*kv) * 2).to_string());
  auto part = [&](std::optional<int64_t> n) {
    return n ? tensor(d, Shape{s[0], SymInt(*n)}) : tensor(d, std::nullopt);
  };
  return meta::tuple({part(q), part(kv), part(kv)});
}

// npu_rotary_mul(self, r1, r2) -> self's type: self 4-D with an even last dim, r1 and r2
// 4-D and broadcast to self (each dim 1 or self's).
ValueType rotary_mul(const CallContext& ctx) {
  const TensorType* x = meta::tensor_arg(ctx, "self");
  if (!x) return ValueType::unknown();
  if (x->shape) {
    const Shape& s = *x->shape;
    if (s.size() != 4) meta::fail("argument 'self' {} must be 4-D", meta::shape_str(s));
    if (not_multiple(s.back(), 2))
      meta::fail("argument 'self' {}: last dim must be even", meta::shape_str(s));
    for (const char* name : {"r1", "r2"}) {
      auto r = meta::shape_arg(ctx, name);
      if (!r) continue;
      bool ok = r->size() == 4;
      for (size_t i = 0; ok && i < 4; ++i)
        ok = (*r)[i] == SymInt(1) || !meta::dims_differ((*r)[i], s[i]);
      if (!ok)
        meta::fail("argument '{}' {} must be 4-D and broadcast to self {}", name,
                   meta::shape_str(*r), meta::shape_str(s));
    }
  }
  return tensor(x->dtype, x->shape);
}

// The input_layout string of npu_fusion_attention, when it is a literal.
std::optional<std::string> layout_arg(const CallContext& ctx) {
  const Arg& a = ctx.arg("input_layout");
  if (const auto* s = std::get_if<std::string>(&a.value)) return *s;
  return std::nullopt;
}

// q, k, v of npu_fusion_attention in [B, N, S, D] order (BSND is permuted), or nullopt
// for an unknown shape.
std::optional<Shape> as_bnsd(std::optional<Shape> s, const std::string& layout,
                             std::string_view name) {
  if (!s) return s;
  if (s->size() != 4)
    meta::fail("argument '{}' {} must be 4-D for layout {}", name, meta::shape_str(*s), layout);
  if (layout == "BSND") std::swap((*s)[1], (*s)[2]);
  return s;
}

// npu_fusion_attention(_v2)(query, key, value, head_num, input_layout, ...): layouts BNSD and
// BSND (the ones eqfuse models); q [B, N, S, D], k and v [B, N2, T, D] with N2 dividing
// N = head_num; pse and atten_mask broadcast to [B, N, S, T]. Outputs: attention_out in
// query's layout and dtype, softmax_max and softmax_sum fp32 [B, N, S, 8], an empty
// softmax_out, and three ints.
ValueType fusion_attention(const CallContext& ctx) {
  std::optional<std::string> layout = layout_arg(ctx);
  if (layout && *layout != "BNSD" && *layout != "BSND")
    meta::fail("input_layout '{}' is not modelled (eqfuse supports BNSD and BSND)", *layout);
  const std::string lay = layout.value_or("BNSD");
  DType d = meta::dtype_of_arg(ctx, "query");
  for (const char* name : {"key", "value"}) {
    DType other = meta::dtype_of_arg(ctx, name);
    if (d != DType::Unknown && other != DType::Unknown && other != d)
      meta::fail("argument '{}' ({}) must have the dtype of 'query' ({})", name,
                 dtype_torch_name(other), dtype_torch_name(d));
  }
  std::optional<Shape> q = as_bnsd(meta::shape_arg(ctx, "query"), lay, "query");
  std::optional<Shape> k = as_bnsd(meta::shape_arg(ctx, "key"), lay, "key");
  std::optional<Shape> v = as_bnsd(meta::shape_arg(ctx, "value"), lay, "value");
  std::optional<int64_t> heads = meta::int_arg(ctx, "head_num");
  if (q && heads && meta::dims_differ((*q)[1], SymInt(*heads)))
    meta::fail("head_num {} must equal query's head count {}", *heads, (*q)[1].to_string());
  if (q && k && meta::dims_differ(q->back(), k->back()))
    meta::fail("query and key head dims differ: {} vs {}", q->back().to_string(),
               k->back().to_string());
  if (k && v && meta::dims_differ((*k)[2], (*v)[2]))
    meta::fail("key and value sequence lengths differ: {} vs {}", (*k)[2].to_string(),
               (*v)[2].to_string());
  if (q && k) {
    auto n = (*q)[1].constant(), n2 = (*k)[1].constant();
    if (n && n2 && (*n2 <= 0 || *n % *n2 != 0))
      meta::fail("key's head count {} must divide query's {}", *n2, *n);
    Shape scores{(*q)[0], (*q)[1], (*q)[2], (*k)[2]};
    for (const char* name : {"pse", "atten_mask"}) {
      auto m = meta::shape_arg(ctx, name);
      if (m && meta::broadcast(scores, *m, "the scores [B, N, S, T]", name).size() != 4)
        meta::fail("argument '{}' {} does not broadcast to the scores {}", name,
                   meta::shape_str(*m), meta::shape_str(scores));
    }
  }
  if (const TensorType* mask = meta::tensor_arg(ctx, "atten_mask");
      mask && mask->dtype != DType::Unknown && mask->dtype != DType::Bool &&
      mask->dtype != DType::UInt8)
    meta::fail("argument 'atten_mask' must be bool or uint8, got {}",
               dtype_torch_name(mask->dtype));
  std::optional<Shape> out, stats;
  if (q && v) {
    out = *meta::shape_arg(ctx, "query");
    out->back() = v->back();
    stats = Shape{(*q)[0], (*q)[1], (*q)[2], SymInt(8)};
  }
  // seed, offset and numels describe dropout's random state: their values are left unknown.
  return meta::tuple({tensor(d, out), tensor(DType::Float32, stats), tensor(DType::Float32, stats),
                      tensor(d, Shape{SymInt(0)}), ValueType::unknown(), ValueType::unknown(),
                      ValueType::unknown()});
}

}  // namespace

void add_npu_attention_meta(OpRegistry& reg) {
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache"}, kv_rmsnorm_rope_cache);
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache_v2"}, kv_rmsnorm_rope_cache_v2);
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache_v2_functional"},
                kv_rmsnorm_rope_cache_v2_functional);
  meta::set_all(reg, {"npu::npu_mla_prolog_v3"}, mla_prolog_v3);
  meta::set_all(reg, {"npu::npu_mla_prolog_v3_functional"}, mla_prolog_v3_functional);
  meta::set_all(reg, {"vllm::npu_rotary_embedding"}, npu_rotary_embedding);
  meta::set_all(reg, {"vllm::qkv_rmsnorm_rope"}, qkv_rmsnorm_rope);
  meta::set_all(reg, {"npu::npu_rotary_mul"}, rotary_mul);
  meta::set_all(reg, {"npu::npu_fusion_attention", "npu::npu_fusion_attention_v2"},
                fusion_attention);
}

}  // namespace eqfuse::npu_meta
