// Meta functions for layer norm (native_layer_norm, layer_norm), dropout
// (native_dropout, dropout) and scaled dot-product attention with the fused
// forms AOTAutograd emits (_scaled_dot_product_{flash_attention_for_cpu,
// flash_attention, efficient_attention}).
#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

bool is_reduced_float(DType d) {
  return d == DType::Float16 || d == DType::BFloat16;
}

// The dtype of mean/rstd depends on the device the graph was traced for. torch's meta (the
// native_layer_norm ref, which FakeTensor tracing runs) computes them in fp32 for an fp16
// or bf16 input and casts them to the input's dtype only on CPU; CUDA and NPU graphs carry
// fp32 statistics, CPU graphs the input's dtype (eager CPU gives fp32 for a half input with
// an fp32 weight or bias, "mixed type"). An annotated input device decides; without one
// the statistics of a half input are left Unknown, so that an annotation from either kind
// of device is accepted (and is what the interpreter then computes).
DType layer_norm_stats_dtype(const CallContext& ctx, const TensorType& input) {
  if (!is_reduced_float(input.dtype)) return input.dtype;
  DType weight = meta::dtype_of_arg(ctx, "weight");
  DType bias = meta::dtype_of_arg(ctx, "bias");
  bool mixed = weight == DType::Float32 || bias == DType::Float32;
  if (!input.device) return DType::Unknown;
  if (input.device->type != "cpu" && input.device->type != "mtia") return DType::Float32;
  return mixed ? DType::Unknown : input.dtype;
}

// Checks that normalized_shape names the trailing dims of the input (and of
// weight/bias); returns the number of leading (not normalized) dims.
std::optional<size_t> check_normalized_shape(const CallContext& ctx, const Shape& input) {
  auto normalized = meta::symint_list_arg(ctx, "normalized_shape");
  if (!normalized) return std::nullopt;
  if (normalized->empty()) meta::fail("argument 'normalized_shape' must not be empty");
  if (normalized->size() > input.size())
    meta::fail("normalized_shape {} has more dims than the input {}", meta::shape_str(*normalized),
               meta::shape_str(input));
  size_t lead = input.size() - normalized->size();
  for (size_t i = 0; i < normalized->size(); ++i)
    if (meta::dims_differ((*normalized)[i], input[lead + i]))
      meta::fail("normalized_shape {} does not match the trailing dims of the input {}",
                 meta::shape_str(*normalized), meta::shape_str(input));
  for (std::string_view param : {"weight", "bias"}) {
    auto s = meta::shape_arg(ctx, param);
    if (s && s->size() == normalized->size())
      for (size_t i = 0; i < s->size(); ++i)
        if (meta::dims_differ((*s)[i], (*normalized)[i]))
          meta::fail("argument '{}' {} does not match normalized_shape {}", param,
                     meta::shape_str(*s), meta::shape_str(*normalized));
  }
  return lead;
}

ValueType native_layer_norm(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  if (!input) return ValueType::unknown();
  DType stats = layer_norm_stats_dtype(ctx, *input);
  std::optional<Shape> stats_shape;
  if (input->shape) {
    if (auto lead = check_normalized_shape(ctx, *input->shape)) {
      stats_shape = Shape(input->shape->begin(), input->shape->begin() + *lead);
      stats_shape->resize(input->shape->size(), SymInt(1));
    }
  }
  return meta::tuple(
      {tensor(input->dtype, input->shape), tensor(stats, stats_shape), tensor(stats, stats_shape)});
}

ValueType layer_norm(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  if (!input) return ValueType::unknown();
  if (input->shape) check_normalized_shape(ctx, *input->shape);
  return tensor(input->dtype, input->shape);
}

ValueType native_dropout(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  if (!input) return ValueType::unknown();
  return meta::tuple({tensor(input->dtype, input->shape), tensor(DType::Bool, input->shape)});
}

ValueType dropout(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  if (!input) return ValueType::unknown();
  return tensor(input->dtype, input->shape);
}

// What every attention form shares: q [..., L, E], k [..., S, E],
// v [..., S, Ev]; the output is [..., L, Ev] in query's dtype. scaled_dot_product_attention
// requires one dtype for q, k and v (torch's meta checks it); the fused forms it dispatches
// to do not check (their metas are empty_like(query)), so neither does this for them.
struct AttentionShapes {
  DType dtype = DType::Unknown;
  std::optional<Shape> query, key, value, output;
};

DType same_dtype(DType a, DType b, std::string_view b_name) {
  if (a == DType::Unknown) return b;
  if (b != DType::Unknown && a != b)
    meta::fail("argument '{}' ({}) must have the dtype of 'query' ({})", b_name,
               dtype_torch_name(b), dtype_torch_name(a));
  return a;
}

AttentionShapes attention_shapes(const CallContext& ctx, size_t min_rank, bool exact_rank,
                                 bool same_dtypes = false) {
  AttentionShapes a;
  a.dtype = meta::dtype_of_arg(ctx, "query");
  if (same_dtypes) {
    a.dtype = same_dtype(a.dtype, meta::dtype_of_arg(ctx, "key"), "key");
    a.dtype = same_dtype(a.dtype, meta::dtype_of_arg(ctx, "value"), "value");
  }
  for (std::string_view name : {"query", "key", "value"}) {
    auto s = meta::shape_arg(ctx, name);
    if (s && (s->size() < min_rank || (exact_rank && s->size() != min_rank)))
      meta::fail("argument '{}' must be {}{}-D, got {}-D", name, exact_rank ? "" : "at least ",
                 min_rank, s->size());
  }
  a.query = meta::shape_arg(ctx, "query");
  a.key = meta::shape_arg(ctx, "key");
  a.value = meta::shape_arg(ctx, "value");
  if (a.query && a.key && meta::dims_differ(a.query->back(), a.key->back()))
    meta::fail("query and key head dims differ: {} vs {}", a.query->back().to_string(),
               a.key->back().to_string());
  if (a.key && a.value &&
      meta::dims_differ((*a.key)[a.key->size() - 2], (*a.value)[a.value->size() - 2]))
    meta::fail("key and value sequence lengths differ: {} vs {}",
               (*a.key)[a.key->size() - 2].to_string(),
               (*a.value)[a.value->size() - 2].to_string());
  if (a.query && a.value) {
    a.output = *a.query;
    a.output->back() = a.value->back();
  }
  return a;
}

// The mask broadcasts to the scores. scaled_dot_product_attention also wants it bool,
// floating or of query's dtype (torch's meta checks it); the fused forms take any dtype.
void check_attention_mask(const CallContext& ctx, std::string_view name, const AttentionShapes& a,
                          bool check_dtype = false) {
  const TensorType* mask = meta::tensor_arg(ctx, name);
  if (!mask) return;
  if (check_dtype && mask->dtype != DType::Unknown && mask->dtype != DType::Bool &&
      !dtype_is_floating(mask->dtype) && mask->dtype != a.dtype)
    meta::fail("argument '{}' must be bool, floating or of query's dtype, got {}", name,
               dtype_torch_name(mask->dtype));
  if (!mask->shape || !a.query || !a.key) return;
  Shape scores = *a.query;
  scores.back() = (*a.key)[a.key->size() - 2];
  Shape b = meta::broadcast(scores, *mask->shape, "query @ key.T", name);
  if (b.size() != scores.size())
    meta::fail("argument '{}' {} does not broadcast to the scores {}", name,
               meta::shape_str(*mask->shape), meta::shape_str(scores));
}

// Logsumexp rows [B, H, L]: fp32 (fp64 for fp64 inputs), the accumulation type.
ValueType logsumexp_type(const AttentionShapes& a, std::optional<SymInt> length) {
  DType d = a.dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  if (a.dtype == DType::Unknown) d = DType::Unknown;
  if (!a.query || !length) return tensor(d, std::nullopt);
  return tensor(d, Shape{(*a.query)[0], (*a.query)[1], *length});
}

std::optional<SymInt> query_length(const AttentionShapes& a) {
  if (!a.query) return std::nullopt;
  return (*a.query)[2];
}

ValueType sdpa(const CallContext& ctx) {
  AttentionShapes a = attention_shapes(ctx, 2, false, true);
  check_attention_mask(ctx, "attn_mask", a, true);
  if (a.dtype == DType::Unknown && !a.output) return ValueType::unknown();
  return tensor(a.dtype, a.output);
}

ValueType flash_attention_for_cpu(const CallContext& ctx) {
  AttentionShapes a = attention_shapes(ctx, 4, true);
  check_attention_mask(ctx, "attn_mask", a);
  return meta::tuple({tensor(a.dtype, a.output), logsumexp_type(a, query_length(a))});
}

// The CUDA flash form: cum_seq_q/k, rng_state and unused are bookkeeping
// whose types changed across torch versions: left Unknown (annotations win).
ValueType flash_attention(const CallContext& ctx) {
  AttentionShapes a = attention_shapes(ctx, 4, true);
  std::optional<SymInt> s;
  if (a.key) s.emplace((*a.key)[2]);
  std::optional<Shape> debug = Shape{SymInt(0)};
  if (meta::bool_arg(ctx, "return_debug_mask").value_or(false)) {
    debug = std::nullopt;
    if (a.query && s) debug = Shape{(*a.query)[0], (*a.query)[1], (*a.query)[2], *s};
  }
  return meta::tuple({tensor(a.dtype, a.output), logsumexp_type(a, query_length(a)),
                      ValueType::unknown(), ValueType::unknown(), meta::symint(query_length(a)),
                      meta::symint(s), ValueType::unknown(), ValueType::unknown(),
                      tensor(a.dtype, debug)});
}

// logsumexp rows padded to a multiple of 32 (0 when not asked for).
ValueType efficient_attention(const CallContext& ctx) {
  AttentionShapes a = attention_shapes(ctx, 4, true);
  check_attention_mask(ctx, "attn_bias", a);
  std::optional<SymInt> lse_len = SymInt(0);
  if (meta::bool_arg(ctx, "compute_log_sumexp").value_or(false)) {
    auto l = query_length(a);
    lse_len = l ? std::optional<SymInt>((*l + SymInt(31)).floordiv(SymInt(32)) * SymInt(32))
                : std::nullopt;
  }
  return meta::tuple({tensor(a.dtype, a.output), logsumexp_type(a, lse_len), ValueType::unknown(),
                      ValueType::unknown()});
}

}  // namespace

void add_nn_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::native_layer_norm"}, native_layer_norm);
  meta::set_all(reg, {"aten::layer_norm"}, layer_norm);
  meta::set_all(reg, {"aten::native_dropout"}, native_dropout);
  meta::set_all(reg, {"aten::dropout"}, dropout);
  meta::set_all(reg, {"aten::scaled_dot_product_attention"}, sdpa);
  meta::set_all(reg, {"aten::_scaled_dot_product_flash_attention_for_cpu"},
                flash_attention_for_cpu);
  meta::set_all(reg, {"aten::_scaled_dot_product_flash_attention"}, flash_attention);
  meta::set_all(reg, {"aten::_scaled_dot_product_efficient_attention"}, efficient_attention);
}

}  // namespace eqfuse
