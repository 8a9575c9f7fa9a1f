// Kernels of the collectives (graph/ops/collectives.schemas) for the simulated
// group of run_tensor_parallel (interp/collectives.hpp). Each kernel hands its
// rank's contribution to the group and returns its own part. Reductions run in
// rank order, accumulated in double (int64 for integer dtypes) and rounded
// once, so all_reduce and reduce_scatter + all_gather agree bit for bit. The
// matmul + communication kernels of torch_npu compute their local product
// rounded as the unfused mm / addmm would, then communicate it.
// Outside a simulated group (no current_rank) they throw UnsupportedConfig:
// the interpreter then evaluates the node as an uninterpreted function.
#include <fmt/format.h>

#include "interp/kernels.hpp"
#include "interp/kernels_npu_internal.hpp"
#include "interp/simulated_group.hpp"

namespace eqfuse {
namespace {

const RankContext& rank_of() {
  const RankContext* rank = current_rank();
  if (rank == nullptr) throw UnsupportedConfig("a collective outside a simulated group of ranks");
  return *rank;
}

// The group size a node states must be the simulated world's.
void check_group_size(const KernelCall& c, const RankContext& rank, std::string_view arg) {
  int64_t n = c.int_arg(arg);
  if (n != rank.group->world_size())
    c.fail(fmt::format("{} is {}, but the simulated group has {} ranks (--world-size)", arg, n,
                       rank.group->world_size()));
}

std::string collective_name(const KernelCall& c) {
  return fmt::format("{} ({})", c.node().name, c.schema().qualified_name());
}

enum class ReduceOp { Sum, Avg, Product, Min, Max };

ReduceOp reduce_op(const KernelCall& c, std::string_view arg) {
  std::string op = c.has(arg) ? c.str_arg(arg) : "sum";
  if (op == "sum") return ReduceOp::Sum;
  if (op == "avg") return ReduceOp::Avg;
  if (op == "product") return ReduceOp::Product;
  if (op == "min") return ReduceOp::Min;
  if (op == "max") return ReduceOp::Max;
  throw UnsupportedConfig(fmt::format("reduce_op '{}'", op));
}

template <typename T>
T fold(ReduceOp op, T acc, T v) {
  switch (op) {
    case ReduceOp::Product:
      return acc * v;
    case ReduceOp::Min:
      return std::min(acc, v);
    case ReduceOp::Max:
      return std::max(acc, v);
    default:
      return acc + v;
  }
}

// Elementwise reduction of the contributions, in rank order.
Tensor reduce_parts(std::span<const Tensor> parts, ReduceOp op) {
  const Tensor& first = parts[0];
  const int64_t n = first.numel();
  std::vector<Tensor> flat;
  for (const Tensor& p : parts) flat.push_back(p.contiguous().reshape({n}));
  Tensor out = Tensor::zeros(first.dtype(), first.shape());
  Tensor out_flat = out.reshape({n});
  for (int64_t i = 0; i < n; ++i) {
    if (first.is_int_storage()) {
      int64_t acc = flat[0].get_flat_int(i);
      for (size_t r = 1; r < flat.size(); ++r) acc = fold(op, acc, flat[r].get_flat_int(i));
      if (op == ReduceOp::Avg) acc /= static_cast<int64_t>(flat.size());
      out_flat.set_flat_int(i, acc);
    } else {
      double acc = flat[0].get_flat(i);
      for (size_t r = 1; r < flat.size(); ++r) acc = fold(op, acc, flat[r].get_flat(i));
      if (op == ReduceOp::Avg) acc /= static_cast<double>(flat.size());
      out_flat.set_flat(i, acc);
    }
  }
  return out;
}

std::vector<Tensor> same_for_every_rank(const Tensor& t, size_t ranks) {
  std::vector<Tensor> out;
  for (size_t r = 0; r < ranks; ++r) out.push_back(t.clone());
  return out;
}

// Rank r gets chunk r of `t` along `dim`.
std::vector<Tensor> scatter_chunks(const Tensor& t, int64_t dim, size_t ranks) {
  const int64_t len = t.size(static_cast<int>(dim)) / static_cast<int64_t>(ranks);
  std::vector<Tensor> out;
  for (size_t r = 0; r < ranks; ++r) {
    const int64_t start = static_cast<int64_t>(r) * len;
    out.push_back(t.slice(dim, start, start + len, 1).clone());
  }
  return out;
}

int64_t wrapped_dim(const KernelCall& c, const Tensor& t, int64_t dim) {
  if (t.rank() == 0) c.fail("a collective along a dim needs a tensor of at least 1 dim");
  return wrap_dim(dim, t.rank());
}

Tensor all_reduce(const KernelCall& c, const Tensor& x, ReduceOp op) {
  const RankContext& rank = rank_of();
  return rank.group->exchange(rank.rank, collective_name(c), x, [op](std::span<const Tensor> p) {
    return same_for_every_rank(reduce_parts(p, op), p.size());
  });
}

Tensor all_gather(const KernelCall& c, const Tensor& x, int64_t dim) {
  const RankContext& rank = rank_of();
  dim = wrapped_dim(c, x, dim);
  return rank.group->exchange(rank.rank, collective_name(c), x, [dim](std::span<const Tensor> p) {
    return same_for_every_rank(concatenate({p.begin(), p.end()}, dim), p.size());
  });
}

Tensor reduce_scatter(const KernelCall& c, const Tensor& x, int64_t dim, ReduceOp op) {
  const RankContext& rank = rank_of();
  dim = wrapped_dim(c, x, dim);
  if (x.size(static_cast<int>(dim)) % rank.group->world_size() != 0)
    c.fail(fmt::format("size {} along dim {} does not split into {} ranks",
                       x.size(static_cast<int>(dim)), dim, rank.group->world_size()));
  return rank.group->exchange(rank.rank, collective_name(c), x,
                              [dim, op](std::span<const Tensor> p) {
                                return scatter_chunks(reduce_parts(p, op), dim, p.size());
                              });
}

// x1 @ x2 (+ bias), rounded once to the output dtype as mm / addmm round it.
Tensor local_product(const KernelCall& c, const Tensor& x1, const Tensor& x2) {
  for (std::string_view quant : {"antiquant_scale", "antiquant_offset", "dequant_scale",
                                 "pertoken_scale", "comm_quant_scale_1", "comm_quant_scale_2"})
    if (c.has(quant) && !c.is_none(quant))
      throw UnsupportedConfig(fmt::format("quantized matmul + communication ({})", quant));
  if (x1.dtype() == DType::Int8) throw UnsupportedConfig("an int8 matmul + communication");
  if (x2.rank() != 2) c.fail("x2 must be 2-D");
  Tensor exact = batched_matmul(x1, x2, DType::Float64);
  if (std::optional<Tensor> bias = c.opt_tensor("bias"))
    return add_scaled(*bias, 1.0, exact, 1.0, x1.dtype());
  return exact.to(x1.dtype());
}

RuntimeValue mm_all_reduce(const KernelCall& c) {
  Tensor local = local_product(c, c.tensor("x1"), c.tensor("x2"));
  if (std::optional<Tensor> x3 = c.opt_tensor("x3")) {
    // The unfused chain adds x3 to the rounded product: a second rounding.
    const std::vector<double> a = x3->expand(local.shape()).values();
    const std::vector<double> p = local.values();
    local = make_tensor(local.dtype(), local.shape(), [&](int64_t i) {
      return p[static_cast<size_t>(i)] + a[static_cast<size_t>(i)];
    });
  }
  return all_reduce(c, local, reduce_op(c, "reduce_op"));
}

// (y, normOut) with y = all_reduce(x1 @ x2 + bias) + residual: the reduced product
// then npu_add_rms_norm's own arithmetic, so that it rounds as that chain does.
RuntimeValue mm_all_reduce_add_rms_norm(const KernelCall& c) {
  using npu_kernels::add_rms_norm_core, npu_kernels::epsilon_arg, npu_kernels::from_doubles;
  Tensor reduced =
      all_reduce(c, local_product(c, c.tensor("x1"), c.tensor("x2")), reduce_op(c, "reduce_op"));
  npu_kernels::RmsNormResult r = add_rms_norm_core(c, reduced, c.tensor("residual"),
                                                   c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
  return npu_kernels::tuple(
      {from_doubles(reduced.dtype(), r.shape, r.x), from_doubles(reduced.dtype(), r.shape, r.y)});
}

RuntimeValue all_gather_mm(const KernelCall& c) {
  check_group_size(c, rank_of(), "world_size");
  if (c.int_arg("gather_index") != 0) throw UnsupportedConfig("gather_index 1 (gathering x2)");
  Tensor gathered = all_gather(c, c.tensor("input"), 0);
  Tensor product = local_product(c, gathered, c.tensor("x2"));
  return RuntimeValue(RuntimeValue::List{RuntimeValue(product), RuntimeValue(gathered)});
}

RuntimeValue mm_reduce_scatter(const KernelCall& c) {
  check_group_size(c, rank_of(), "world_size");
  Tensor local = local_product(c, c.tensor("input"), c.tensor("x2"));
  return reduce_scatter(c, local, 0, reduce_op(c, "reduce_op"));
}

RuntimeValue broadcast(const KernelCall& c) {
  const RankContext& rank = rank_of();
  const int64_t src = c.int_arg("src");
  if (src < 0 || src >= rank.group->world_size())
    c.fail(fmt::format("src {} is not a rank of the {}-rank group", src, rank.group->world_size()));
  return rank.group->exchange(rank.rank, collective_name(c), c.tensor("input"),
                              [src](std::span<const Tensor> p) {
                                return same_for_every_rank(p[static_cast<size_t>(src)], p.size());
                              });
}

}  // namespace

void register_collective_kernels(KernelTable& t) {
  t["_c10d_functional::all_reduce"] = [](const KernelCall& c) {
    return RuntimeValue(all_reduce(c, c.tensor("input"), reduce_op(c, "reduce_op")));
  };
  t["_c10d_functional::all_gather_into_tensor"] = [](const KernelCall& c) {
    check_group_size(c, rank_of(), "group_size");
    return RuntimeValue(all_gather(c, c.tensor("input"), 0));
  };
  t["_c10d_functional::reduce_scatter_tensor"] = [](const KernelCall& c) {
    check_group_size(c, rank_of(), "group_size");
    return RuntimeValue(reduce_scatter(c, c.tensor("input"), 0, reduce_op(c, "reduce_op")));
  };
  t["_c10d_functional::broadcast"] = broadcast;
  // The collective's result is already complete when its kernel returns.
  t["_c10d_functional::wait_tensor"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("tensor"));
  };
  t["vllm::all_reduce"] = [](const KernelCall& c) {
    return RuntimeValue(all_reduce(c, c.tensor("tensor"), ReduceOp::Sum));
  };
  t["vllm::all_gather"] = [](const KernelCall& c) {
    check_group_size(c, rank_of(), "world_size");
    return RuntimeValue(all_gather(c, c.tensor("tensor"), c.int_arg("dim")));
  };
  t["vllm::reduce_scatter"] = [](const KernelCall& c) {
    check_group_size(c, rank_of(), "world_size");
    return RuntimeValue(reduce_scatter(c, c.tensor("tensor"), c.int_arg("dim"), ReduceOp::Sum));
  };
  t["npu::npu_mm_all_reduce_base"] = mm_all_reduce;
  t["npu::npu_all_gather_base_mm"] = all_gather_mm;
  t["npu::npu_mm_reduce_scatter_base"] = mm_reduce_scatter;
  t["npu::npu_mm_all_reduce_add_rms_norm"] = mm_all_reduce_add_rms_norm;
}

}  // namespace eqfuse
