// Rotary position embedding kernels: vLLM's vllm.npu_rotary_embedding and
// vllm.qkv_rmsnorm_rope (which normalizes with the RMS norm core of
// kernels_npu_norm.cpp) and torch_npu's npu_rotary_mul.
#include <algorithm>

#include "interp/float16.hpp"
#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

// ---- vLLM rotary embedding ------------------------------------------------------------

// cos_sin_cache [P, rotary_dim] (cos in the first half of a row, sin in the second) and
// positions [T]: the table both rotary kernels read. docs/interpreter.md.
struct RopeTable {
  std::vector<double> cache;
  std::vector<int64_t> pos;
  int64_t rows = 0, rotary_dim = 0;
};

RopeTable rope_table(const KernelCall& c, int64_t tokens, int64_t rotary_dim) {
  Tensor cache = c.tensor("cos_sin_cache"), positions = c.tensor("positions");
  if (cache.rank() != 2 || cache.size(1) != rotary_dim)
    c.fail(fmt::format("cos_sin_cache {} must be [positions, rotary_dim = {}]",
                       dims_to_string(cache.shape()), rotary_dim));
  if (positions.rank() != 1 || positions.size(0) != tokens)
    c.fail(fmt::format("positions {} must be [{}] (one per token)",
                       dims_to_string(positions.shape()), tokens));
  RopeTable t{cache.values(), {}, cache.size(0), rotary_dim};
  for (double p : positions.values()) {
    if (p < 0 || p >= static_cast<double>(t.rows))
      c.fail(fmt::format("position {} outside cos_sin_cache's {} rows", p, t.rows));
    t.pos.push_back(static_cast<int64_t>(p));
  }
  return t;
}

// Rotates x, viewed as [tokens, heads, head_size], in place: for each pair (x1, x2) of
// the first rotary_dim dims of a head (halves when neox, else even/odd neighbours),
// o1 = x1 * cos - x2 * sin and o2 = x2 * cos + x1 * sin, computed in fp32 as
// vllm-ascend's Triton rope kernel does (operands loaded as fp32, each product and sum
// rounded to fp32); the caller stores the result in the output dtype.
void apply_rope(std::vector<double>& x, int64_t tokens, int64_t head_size, const RopeTable& t,
                bool neox) {
  int64_t heads = tokens == 0 ? 0 : static_cast<int64_t>(x.size()) / (tokens * head_size);
  int64_t half = t.rotary_dim / 2;
  auto f32 = [](double v) { return round_to_fp32(v); };
  for (int64_t tok = 0; tok < tokens; ++tok) {
    const double* row =
        &t.cache[static_cast<size_t>(t.pos[static_cast<size_t>(tok)] * t.rotary_dim)];
    for (int64_t h = 0; h < heads; ++h) {
      size_t base = static_cast<size_t>((tok * heads + h) * head_size);
      for (int64_t i = 0; i < half; ++i) {
        size_t i1 = base + static_cast<size_t>(neox ? i : 2 * i);
        size_t i2 = base + static_cast<size_t>(neox ? i + half : 2 * i + 1);
        double cos = f32(row[i]), sin = f32(row[half + i]);
        double x1 = f32(x[i1]), x2 = f32(x[i2]);
        x[i1] = f32(f32(x1 * cos) - f32(x2 * sin));
        x[i2] = f32(f32(x2 * cos) + f32(x1 * sin));
      }
    }
  }
}

// vllm.npu_rotary_embedding(positions, query, key, cos_sin_cache, head_size, rotary_dim,
// is_neox_style) -> (query, key), functional (vllm-ascend registers it with
// mutates_args=[]).
RuntimeValue npu_rotary_embedding(const KernelCall& c) {
  Tensor q = c.tensor("query"), k = c.tensor("key");
  int64_t head = c.int_arg("head_size"), rot = c.int_arg("rotary_dim");
  if (head <= 0 || rot <= 0 || rot > head || rot % 2 != 0)
    c.fail(fmt::format("rotary_dim {} must be even and in (0, head_size {}]", rot, head));
  if (q.rank() < 1 || k.rank() < 1) c.fail("query and key must have at least 1 dim");
  int64_t tokens = q.size(0);
  for (const Tensor* t : {&q, &k}) {
    if (t->size(0) != tokens || t->numel() % (std::max<int64_t>(tokens, 1) * head) != 0)
      c.fail(fmt::format("query {} and key {} must be [tokens, heads * head_size {}]",
                         dims_to_string(q.shape()), dims_to_string(k.shape()), head));
  }
  RopeTable table = rope_table(c, tokens, rot);
  bool neox = c.bool_arg("is_neox_style");
  std::vector<double> qv = q.values(), kv = k.values();
  apply_rope(qv, tokens, head, table, neox);
  apply_rope(kv, tokens, head, table, neox);
  return tuple({from_doubles(q.dtype(), q.shape(), qv), from_doubles(k.dtype(), k.shape(), kv)});
}

// vllm.qkv_rmsnorm_rope(input, cos_sin_cache, positions, q_weight, k_weight, q_hidden_size,
// kv_hidden_size, head_dim, eps, q_bias, k_bias) -> (q, k, v): the split of input [T,
// q + 2 kv], a per-head rms norm of q and k (+ bias), a neox rope over the cache's rotary
// dim, v copied. The device keeps the normalized values in fp32 up to the one store;
// under reference numerics (round_like_unfused) the norm and the bias add are stored in
// input's dtype first, as npu_rms_norm and aten.add do in the chain it replaces.
RuntimeValue qkv_rmsnorm_rope(const KernelCall& c) {
  Tensor in = c.tensor("input");
  int64_t qh = c.int_arg("q_hidden_size"), kvh = c.int_arg("kv_hidden_size");
  int64_t head = c.int_arg("head_dim");
  if (head <= 0 || qh <= 0 || kvh <= 0 || qh % head != 0 || kvh % head != 0)
    c.fail(
        fmt::format("q_hidden_size {} and kv_hidden_size {} must be positive multiples of "
                    "head_dim {}",
                    qh, kvh, head));
  if (in.rank() != 2 || in.size(1) != qh + 2 * kvh)
    c.fail(fmt::format("input {} must be [tokens, {}]", dims_to_string(in.shape()), qh + 2 * kvh));
  int64_t tokens = in.size(0);
  Tensor cache = c.tensor("cos_sin_cache");
  int64_t rot = cache.rank() == 2 ? cache.size(1) : 0;
  if (rot <= 0 || rot > head || rot % 2 != 0)
    c.fail(fmt::format("cos_sin_cache {}: rotary dim must be even and in (0, head_dim {}]",
                       dims_to_string(cache.shape()), head));
  RopeTable table = rope_table(c, tokens, rot);
  double eps = c.double_arg("eps");
  std::vector<double> all = in.values();
  auto columns = [&](int64_t from, int64_t width) {
    std::vector<double> out;
    out.reserve(static_cast<size_t>(tokens * width));
    for (int64_t t = 0; t < tokens; ++t) {
      auto row = all.begin() + static_cast<std::ptrdiff_t>(t * in.size(1) + from);
      out.insert(out.end(), row, row + width);
    }
    return out;
  };
  auto norm_rope = [&](int64_t from, int64_t width, const char* weight, const char* bias) {
    Dims heads{tokens, width / head, head};
    Tensor x = from_doubles(in.dtype(), heads, columns(from, width));
    RmsNormResult r = add_rms_norm_core(c, x, {}, c.tensor(weight), eps, {});
    round_y_like_unfused(c, in.dtype(), r);
    if (std::optional<Tensor> b = c.opt_tensor(bias)) {
      if (b->rank() != 1 || b->size(0) != head)
        c.fail(
            fmt::format("{} {} must be [head_dim = {}]", bias, dims_to_string(b->shape()), head));
      std::vector<double> bv = b->values();
      for (size_t i = 0; i < r.y.size(); ++i) r.y[i] += bv[i % static_cast<size_t>(head)];
      if (c.round_like_unfused()) r.y = from_doubles(in.dtype(), heads, r.y).values();
    }
    apply_rope(r.y, tokens, head, table, true);
    return from_doubles(in.dtype(), {tokens, width}, r.y);
  };
  Tensor q = norm_rope(0, qh, "q_weight", "q_bias");
  Tensor k = norm_rope(qh, kvh, "k_weight", "k_bias");
  Tensor v = from_doubles(in.dtype(), {tokens, kvh}, columns(qh + kvh, kvh));
  return tuple({q, k, v});
}

// The partner of element j of a row of `d` under npu_rotary_mul's rotation, and its
// sign: 'half' pairs j with j +- d/2 (cat(-x2, x1)), 'interleave' pairs 2i with 2i + 1
// (stack(-x_odd, x_even) flattened).
std::pair<int64_t, double> rotary_partner(int64_t j, int64_t d, bool half) {
  if (half) return j < d / 2 ? std::pair{j + d / 2, -1.0} : std::pair{j - d / 2, 1.0};
  return j % 2 == 0 ? std::pair{j + 1, -1.0} : std::pair{j - 1, 1.0};
}

// torch_npu.npu_rotary_mul(self, r1, r2, rotary_mode): self * r1 + rotate(self) * r2
// along the last dim. The device computes in fp32 and stores once; under reference
// numerics (round_like_unfused) both products and the sum are stored in self's dtype,
// as the aten.mul, aten.mul, aten.add chain it replaces does (the rotation itself only
// moves and negates, which is exact).
RuntimeValue rotary_mul(const KernelCall& c) {
  Tensor x = c.tensor("self");
  std::string mode = c.has("rotary_mode") ? c.str_arg("rotary_mode") : "half";
  if (mode != "half" && mode != "interleave")
    c.fail(fmt::format("rotary_mode must be 'half' or 'interleave', got '{}'", mode));
  if (x.rank() != 4 || x.size(-1) % 2 != 0)
    c.fail(fmt::format("self {} must be 4-D with an even last dim", dims_to_string(x.shape())));
  auto broadcast_to_x = [&](const char* name) {
    Tensor r = c.tensor(name);
    bool ok = r.rank() == 4;
    for (int i = 0; ok && i < 4; ++i) ok = r.size(i) == 1 || r.size(i) == x.size(i);
    if (!ok)
      c.fail(fmt::format("{} {} must be 4-D and broadcast to self {}", name,
                         dims_to_string(r.shape()), dims_to_string(x.shape())));
    return r.expand(x.shape()).values();
  };
  std::vector<double> xv = x.values(), r1 = broadcast_to_x("r1"), r2 = broadcast_to_x("r2");
  const int64_t d = x.size(-1);
  const bool chain = c.round_like_unfused();
  std::vector<double> out(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    auto j = static_cast<int64_t>(i) % d;
    auto [partner, sign] = rotary_partner(j, d, mode == "half");
    double rotated = sign * xv[i - static_cast<size_t>(j) + static_cast<size_t>(partner)];
    double a = xv[i] * r1[i], b = rotated * r2[i];
    out[i] = chain ? cast_double(a, x.dtype()) + cast_double(b, x.dtype()) : a + b;
  }
  return RuntimeValue(from_doubles(x.dtype(), x.shape(), out));
}

}  // namespace

void register_rope_kernels(KernelTable& t) {
  t["vllm::npu_rotary_embedding"] = npu_rotary_embedding;
  t["vllm::qkv_rmsnorm_rope"] = qkv_rmsnorm_rope;
  t["npu::npu_rotary_mul"] = rotary_mul;
}

}  // namespace eqfuse::npu_kernels
