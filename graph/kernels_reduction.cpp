// Reductions (sum, mean, amax, amin), softmax, the matmul family (mm, bmm,
// matmul, addmm, linear) and embedding. Accumulation is in double (int64 for
// integer sums); each result element is rounded once to the output dtype.
#include <cmath>
#include <limits>

#include "graph/kernels.hpp"

namespace eqfuse {
namespace {

enum class ReduceOp { Sum, Mean, Max, Min };

// Output shape of a reduction over `mask` dims.
Dims reduced_shape(const Dims& shape, const std::vector<bool>& mask, bool keepdim) {
  Dims out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!mask[i]) {
      out.push_back(shape[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

// Index of the output element an input element reduces into.
int64_t reduced_index(const Dims& index, const Dims& shape, const std::vector<bool>& mask) {
  int64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!mask[i]) flat = flat * shape[i] + index[i];
  }
  return flat;
}

Tensor reduce(const Tensor& x, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
              ReduceOp op, DType out_dtype) {
  std::vector<bool> mask = reduction_mask(dims, x.rank());
  Dims out_shape = reduced_shape(x.shape(), mask, keepdim);
  int64_t out_n = shape_numel(out_shape);
  int64_t n = x.numel();
  bool exact_int = dtype_stored_as_int(out_dtype) && x.is_int_storage();
  double init = op == ReduceOp::Max   ? -std::numeric_limits<double>::infinity()
                : op == ReduceOp::Min ? std::numeric_limits<double>::infinity()
                                      : 0.0;
  std::vector<double> acc(static_cast<size_t>(out_n), init);
  std::vector<int64_t> iacc(static_cast<size_t>(out_n), 0);
  std::vector<bool> seen(static_cast<size_t>(out_n), false);
  int64_t group = out_n == 0 ? 0 : n / out_n;
  if ((op == ReduceOp::Max || op == ReduceOp::Min) && n == 0 && out_n > 0) {
    throw std::invalid_argument("max/min of an empty tensor");
  }
  for (int64_t i = 0; i < n; ++i) {
    size_t o = static_cast<size_t>(reduced_index(unravel(i, x.shape()), x.shape(), mask));
    if (exact_int) {
      int64_t v = x.get_flat_int(i);
      if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
        iacc[o] += v;
      } else if (!seen[o] || (op == ReduceOp::Max ? v > iacc[o] : v < iacc[o])) {
        iacc[o] = v;
      }
      seen[o] = true;
      continue;
    }
    double v = x.get_flat(i);
    if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
      acc[o] += v;
    } else if (std::isnan(v) || std::isnan(acc[o])) {
      acc[o] = NAN;  // NaN propagates through max/min
    } else {
      acc[o] = op == ReduceOp::Max ? std::max(acc[o], v) : std::min(acc[o], v);
    }
  }
  Tensor out = Tensor::zeros(out_dtype, out_shape);
  for (int64_t o = 0; o < out_n; ++o) {
    size_t s = static_cast<size_t>(o);
    if (exact_int) {
      out.set_flat_int(o, iacc[s]);
    } else {
      out.set_flat(o, op == ReduceOp::Mean ? acc[s] / static_cast<double>(group) : acc[s]);
    }
  }
  return out;
}

std::optional<std::vector<int64_t>> dims_arg(const KernelCall& c) {
  if (!c.has("dim") || c.is_none("dim")) return std::nullopt;
  return c.int_list("dim");
}

bool keepdim_arg(const KernelCall& c) {
  return c.has("keepdim") && !c.is_none("keepdim") && c.bool_arg("keepdim");
}

std::optional<DType> dtype_arg(const KernelCall& c) {
  if (!c.has("dtype")) return std::nullopt;
  return c.opt_dtype("dtype");
}

Tensor softmax(const Tensor& x, int64_t dim, DType out_dtype, bool log) {
  dim = wrap_dim(dim, x.rank());
  Tensor out = Tensor::zeros(out_dtype, x.shape());
  if (x.rank() == 0) {
    out.set_flat(0, log ? 0.0 : 1.0);
    return out;
  }
  // Move `dim` last, then each row of the contiguous result is one softmax.
  Dims perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != dim) perm.push_back(i);
  }
  perm.push_back(dim);
  Tensor xp = x.permute(perm);
  Tensor op = out.permute(perm);
  int64_t len = x.size(static_cast<int>(dim));
  int64_t rows = len == 0 ? 0 : x.numel() / len;
  for (int64_t r = 0; r < rows; ++r) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < len; ++j) mx = std::max(mx, xp.get_flat(r * len + j));
    double sum = 0;
    for (int64_t j = 0; j < len; ++j) sum += std::exp(xp.get_flat(r * len + j) - mx);
    for (int64_t j = 0; j < len; ++j) {
      double z = xp.get_flat(r * len + j) - mx;
      op.set_flat(r * len + j, log ? z - std::log(sum) : std::exp(z) / sum);
    }
  }
  return out;
}

// Rows of `x` along `dim` (moved last), for reductions over one dim.
struct Rows {
  Tensor moved;  // x with dim moved last
  int64_t rows = 0, len = 0;
  Dims out_shape;  // reduced shape (keepdim honoured)
};
Rows rows_along(const Tensor& x, int64_t dim, bool keepdim) {
  Rows r;
  dim = wrap_dim(dim, x.rank());
  Dims perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != dim) perm.push_back(i);
  }
  if (x.rank() > 0) perm.push_back(dim);
  r.moved = x.rank() > 0 ? x.permute(perm) : x.reshape({1});
  r.len = x.rank() > 0 ? x.size(static_cast<int>(dim)) : 1;
  r.rows = r.len == 0 ? 0 : x.numel() / r.len;
  r.out_shape = x.shape();
  if (x.rank() > 0) {
    if (keepdim) {
      r.out_shape[static_cast<size_t>(dim)] = 1;
    } else {
      r.out_shape.erase(r.out_shape.begin() + dim);
    }
  }
  return r;
}

// Index of the first maximum of each row (NaN counts as maximal).
std::vector<int64_t> argmax_rows(const Rows& r) {
  if (r.len == 0) throw std::invalid_argument("argmax of an empty dimension");
  std::vector<int64_t> idx(static_cast<size_t>(r.rows), 0);
  for (int64_t row = 0; row < r.rows; ++row) {
    double best = r.moved.get_flat(row * r.len);
    for (int64_t j = 1; j < r.len && !std::isnan(best); ++j) {
      double v = r.moved.get_flat(row * r.len + j);
      if (v > best || std::isnan(v)) {
        best = v;
        idx[static_cast<size_t>(row)] = j;
      }
    }
  }
  return idx;
}

DType float_or_default(DType d) {
  return dtype_is_floating(d) ? d : DType::Float32;
}

void register_reductions(KernelTable& t) {
  t["aten::sum"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType def = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
    return RuntimeValue(
        reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Sum, dtype_arg(c).value_or(def)));
  };
  t["aten::mean"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(x.dtype());
    if (!dtype_is_floating(d)) c.fail("mean needs a floating point input or dtype");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Mean, d));
  };
  t["aten::amax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Max, x.dtype()));
  };
  t["aten::amin"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Min, x.dtype()));
  };
  t["aten::max"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (!c.has("dim")) {
      return RuntimeValue(reduce(x, std::nullopt, false, ReduceOp::Max, x.dtype()));
    }
    Rows r = rows_along(x, c.int_arg("dim"), keepdim_arg(c));
    std::vector<int64_t> idx = argmax_rows(r);
    Tensor values = Tensor::zeros(x.dtype(), r.out_shape);
    Tensor indices = Tensor::zeros(DType::Int64, r.out_shape);
    for (int64_t row = 0; row < r.rows; ++row) {
      int64_t j = idx[static_cast<size_t>(row)];
      values.set_flat(row, r.moved.get_flat(row * r.len + j));
      indices.set_flat_int(row, j);
    }
    return RuntimeValue(std::vector<RuntimeValue>{values, indices});
  };
  t["aten::argmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::optional<int64_t> dim = c.opt_int("dim");
    bool keepdim = keepdim_arg(c);
    Rows r = dim ? rows_along(x, *dim, keepdim) : rows_along(x.reshape({-1}), 0, false);
    if (!dim && keepdim) r.out_shape = Dims(static_cast<size_t>(x.rank()), 1);
    std::vector<int64_t> idx = argmax_rows(r);
    return RuntimeValue(Tensor::from_ints(DType::Int64, r.out_shape, idx));
  };
  t["aten::var_mean"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::optional<std::vector<int64_t>> dims = dims_arg(c);
    bool keepdim = keepdim_arg(c);
    double correction =
        c.has("correction") && !c.is_none("correction") ? c.double_arg("correction") : 1.0;
    DType d = float_or_default(x.dtype());
    Tensor mean = reduce(x, dims, true, ReduceOp::Mean, DType::Float64);
    Tensor centered = make_tensor(DType::Float64, x.shape(), [](int64_t) { return 0.0; });
    Tensor mb = mean.expand(x.shape());
    for (int64_t i = 0; i < x.numel(); ++i) {
      double dv = x.get_flat(i) - mb.get_flat(i);
      centered.set_flat(i, dv * dv);
    }
    Tensor ss = reduce(centered, dims, keepdim, ReduceOp::Sum, DType::Float64);
    int64_t group = ss.numel() == 0 ? 0 : x.numel() / ss.numel();
    double denom = std::max(0.0, static_cast<double>(group) - correction);
    Tensor var = make_tensor(d, ss.shape(), [&](int64_t i) { return ss.get_flat(i) / denom; });
    Tensor mean_out = reduce(x, dims, keepdim, ReduceOp::Mean, d);
    return RuntimeValue(std::vector<RuntimeValue>{var, mean_out});
  };
  t["aten::_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    bool half_to_float = c.bool_arg("half_to_float");
    DType d = half_to_float ? DType::Float32 : float_or_default(x.dtype());
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, false));
  };
  t["aten::softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(float_or_default(x.dtype()));
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, false));
  };
  t["aten::_log_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = c.bool_arg("half_to_float") ? DType::Float32 : float_or_default(x.dtype());
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, true));
  };
  t["aten::log_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(float_or_default(x.dtype()));
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, true));
  };
}

DType matmul_dtype(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    throw std::invalid_argument(fmt::format("matmul operands have different dtypes ({} and {})",
                                            dtype_code(a.dtype()), dtype_code(b.dtype())));
  }
  return a.dtype();
}

// torch.matmul: 1-D operands get a dim added (and removed from the result).
Tensor matmul(const Tensor& a, const Tensor& b) {
  DType d = matmul_dtype(a, b);
  if (a.rank() == 0 || b.rank() == 0) throw std::invalid_argument("matmul of a 0-dim tensor");
  Tensor a2 = a.rank() == 1 ? a.unsqueeze(0) : a;
  Tensor b2 = b.rank() == 1 ? b.unsqueeze(1) : b;
  Tensor r = batched_matmul(a2, b2, d);
  if (a.rank() == 1) r = r.squeeze(-2);
  if (b.rank() == 1) r = r.squeeze(-1);
  return r;
}

// beta * self + alpha * (m1 @ m2), summed before the single rounding.
Tensor add_scaled(const Tensor& base, double beta, const Tensor& product_exact, double alpha,
                  DType out) {
  Tensor b = base.expand(product_exact.shape());
  return make_tensor(out, product_exact.shape(), [&](int64_t i) {
    double acc = alpha * product_exact.get_flat(i);
    return beta == 0.0 ? acc : acc + beta * b.get_flat(i);
  });
}

void register_matmul(KernelTable& t) {
  t["aten::mm"] = [](const KernelCall& c) {
    Tensor a = c.tensor("self"), b = c.tensor("mat2");
    if (a.rank() != 2 || b.rank() != 2) c.fail("mm expects 2-D tensors");
    return RuntimeValue(batched_matmul(a, b, matmul_dtype(a, b)));
  };
  t["aten::bmm"] = [](const KernelCall& c) {
    Tensor a = c.tensor("self"), b = c.tensor("mat2");
    if (a.rank() != 3 || b.rank() != 3 || a.size(0) != b.size(0)) {
      c.fail("bmm expects 3-D tensors with equal batch sizes");
    }
    return RuntimeValue(batched_matmul(a, b, matmul_dtype(a, b)));
  };
  t["aten::matmul"] = [](const KernelCall& c) {
    return RuntimeValue(matmul(c.tensor("self"), c.tensor("other")));
  };
  t["aten::addmm"] = [](const KernelCall& c) {
    Tensor self = c.tensor("self"), a = c.tensor("mat1"), b = c.tensor("mat2");
    DType d = matmul_dtype(a, b);
    Tensor exact = batched_matmul(a, b, DType::Float64);
    double beta = c.has("beta") ? c.double_arg("beta") : 1.0;
    double alpha = c.has("alpha") ? c.double_arg("alpha") : 1.0;
    return RuntimeValue(add_scaled(self, beta, exact, alpha, d));
  };
  t["aten::linear"] = [](const KernelCall& c) {
    Tensor x = c.tensor("input"), w = c.tensor("weight");
    DType d = matmul_dtype(x, w);
    Tensor exact = matmul(x.to(DType::Float64), w.to(DType::Float64).transpose(-1, -2));
    if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
      return RuntimeValue(add_scaled(*bias, 1.0, exact, 1.0, d));
    }
    return RuntimeValue(exact.to(d));
  };
}

void register_indexing(KernelTable& t) {
  // embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse): weight[indices].
  t["aten::embedding"] = [](const KernelCall& c) {
    Tensor w = c.tensor("weight"), idx = c.tensor("indices");
    if (w.rank() != 2) c.fail("embedding weight must be 2-D");
    Dims shape = idx.shape();
    int64_t dim = w.size(1), rows = w.size(0);
    shape.push_back(dim);
    Tensor out = Tensor::zeros(w.dtype(), shape);
    for (int64_t i = 0; i < idx.numel(); ++i) {
      int64_t r = idx.get_flat_int(i);
      if (r < 0 || r >= rows) {
        c.fail(fmt::format("embedding index {} out of range for {} rows", r, rows));
      }
      for (int64_t j = 0; j < dim; ++j) {
        double v = w.at(std::vector<int64_t>{r, j});
        out.set_flat(i * dim + j, v);
      }
    }
    return RuntimeValue(out);
  };
  t["aten::index_select"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self"), idx = c.tensor("index");
    int64_t dim = wrap_dim(c.int_arg("dim"), x.rank());
    std::vector<Tensor> parts;
    for (int64_t i = 0; i < idx.numel(); ++i) {
      parts.push_back(x.select(dim, idx.get_flat_int(i)).unsqueeze(dim));
    }
    Dims shape = x.shape();
    shape[static_cast<size_t>(dim)] = idx.numel();
    Tensor out = Tensor::zeros(x.dtype(), shape);
    for (int64_t i = 0; i < idx.numel(); ++i) {
      out.slice(dim, i, i + 1, 1).copy_from(parts[static_cast<size_t>(i)]);
    }
    return RuntimeValue(out);
  };
}

}  // namespace

void register_reduction_kernels(KernelTable& table) {
  register_reductions(table);
  register_matmul(table);
  register_indexing(table);
}

}  // namespace eqfuse
