// The interpreter's fast paths (bulk tensor reads/writes, typed element-wise
// loops, run-based reductions, blocked matmul, bit-level fp16/bf16 rounding)
// against the element-by-element definitions they replaced, written out
// here with the per-element Tensor API (get_flat/set_flat/cast_double) on
// random shapes, non-contiguous views, broadcasting and every dtype.
// Results must be bit-identical, not merely close.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "interp/float16.hpp"
#include "interp/kernels.hpp"
#include "interp/random_inputs.hpp"
#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::graph_from;
using testing::run;

const DType kAllDtypes[] = {DType::Float64, DType::Float32, DType::Float16, DType::BFloat16,
                            DType::Int64,   DType::Int32,   DType::Int16,   DType::Int8,
                            DType::UInt8,   DType::Bool};

// Bitwise equality of two doubles (NaN equals NaN).
bool same_bits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

void expect_identical(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  for (int64_t i = 0; i < want.numel(); ++i) {
    if (want.is_int_storage()) {
      ASSERT_EQ(got.get_flat_int(i), want.get_flat_int(i)) << what << " element " << i;
    } else {
      ASSERT_TRUE(same_bits(got.get_flat(i), want.get_flat(i)))
          << what << " element " << i << ": " << got.get_flat(i) << " vs " << want.get_flat(i);
    }
  }
}

// Small values that exercise every dtype (negative, fractional, zero).
Tensor random_values(DType d, const Dims& shape, SplitMix64& rng) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (double& x : v) x = rng.integer(0, 5) == 0 ? 0.0 : rng.uniform(-4.0, 4.0);
  return Tensor::from_values(d, shape, v);
}

Dims random_shape(SplitMix64& rng, int min_rank, int max_rank) {
  Dims s(static_cast<size_t>(rng.integer(min_rank, max_rank)));
  for (int64_t& d : s) d = rng.integer(1, 5);
  return s;
}

Dims random_permutation(SplitMix64& rng, size_t n) {
  Dims p(n);
  std::iota(p.begin(), p.end(), 0);
  for (size_t i = n; i > 1; --i) std::swap(p[i - 1], p[static_cast<size_t>(rng.integer(0, i - 1))]);
  return p;
}

std::string fx_list(const Dims& d) {
  return dims_to_string(d);
}

std::string fx_type(DType d, const Dims& shape) {
  return fmt::format("\"{}{}\"", dtype_code(d), fx_list(shape));
}

// ---- fp16/bf16 rounding -----------------------------------------------------

TEST(FastRounding, BulkWritesRoundExactlyLikeRoundToDtype) {
  SplitMix64 rng(7);
  std::vector<double> v = {0.0,
                           -0.0,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           65504.0,
                           65519.99,
                           65520.0,
                           -65520.0,
                           3.3895313892515355e38,
                           3.3961775292304611e38,  // just past the bf16 rounding limit
                           1e300,
                           std::ldexp(1.0, -14),  // smallest normal fp16
                           std::ldexp(1.0, -15),  // fp16 subnormal
                           std::ldexp(1.0, -25),
                           std::ldexp(1.0, -126),  // smallest normal bf16
                           std::ldexp(1.0, -130),
                           std::numeric_limits<double>::denorm_min()};
  // Exact ties and near-ties at fp16 and bf16 precision around 1.0 and 2^-13.
  for (int ulp_bits : {10, 7}) {
    for (double base : {1.0, 1.5, std::ldexp(1.0, -13), 1024.0}) {
      double ulp = base * std::ldexp(1.0, -ulp_bits);
      for (int k = 0; k < 6; ++k) {
        v.push_back(base + (k + 0.5) * ulp);
        v.push_back(-(base + (k + 0.5) * ulp));
        v.push_back(base + (k + 0.5) * ulp + std::ldexp(ulp, -30));
      }
    }
  }
  for (int i = 0; i < 20000; ++i) {
    double mantissa = rng.uniform(-2.0, 2.0);
    v.push_back(std::ldexp(mantissa, static_cast<int>(rng.integer(-150, 140))));
  }
  for (DType d : kAllDtypes) {
    if (!dtype_is_floating(d)) continue;
    Tensor t = Tensor::from_values(d, {static_cast<int64_t>(v.size())}, v);
    for (size_t i = 0; i < v.size(); ++i) {
      ASSERT_TRUE(same_bits(t.get_flat(static_cast<int64_t>(i)), round_to_dtype(v[i], d)))
          << dtype_code(d) << " value " << v[i];
    }
  }
}

// ---- bulk tensor access -------------------------------------------------------

// A random view of a fresh tensor: permuted, strided slice, selected, or expanded.
Tensor random_view(const Tensor& base, SplitMix64& rng) {
  Tensor v = base;
  switch (rng.integer(0, 3)) {
    case 0:
      return v.permute(random_permutation(rng, static_cast<size_t>(v.rank())));
    case 1: {
      int64_t dim = rng.integer(0, v.rank() - 1);
      return v.slice(dim, rng.integer(0, 1), v.size(static_cast<int>(dim)), rng.integer(1, 2));
    }
    case 2:
      return v.rank() > 1 ? v.select(rng.integer(0, v.rank() - 1), 0) : v;
    default: {
      Dims shape = v.shape();
      shape.insert(shape.begin(), 3);
      return v.expand(shape);
    }
  }
}

// Element i of a view read straight from storage via its strides.
double storage_value(const Tensor& t, int64_t flat) {
  int64_t index = t.offset();
  for (size_t d = t.shape().size(); d-- > 0;) {
    index += (flat % t.shape()[d]) * t.strides()[d];
    flat /= t.shape()[d];
  }
  return t.storage_value(index);
}

TEST(TensorBulk, ValuesCopiesAndWritesMatchElementAccess) {
  SplitMix64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    DType d = kAllDtypes[trial % std::size(kAllDtypes)];
    DType d2 = kAllDtypes[static_cast<size_t>(rng.integer(0, std::size(kAllDtypes) - 1))];
    Tensor base = random_values(d, random_shape(rng, 1, 4), rng);
    Tensor view = random_view(base, rng);
    std::string what = fmt::format("trial {} {} view {} strides {}", trial, dtype_code(d),
                                   view.describe(), dims_to_string(view.strides()));
    std::vector<double> values = view.values();
    std::vector<int64_t> ints = view.int_values();
    ASSERT_EQ(static_cast<int64_t>(values.size()), view.numel()) << what;
    for (int64_t i = 0; i < view.numel(); ++i) {
      ASSERT_TRUE(same_bits(values[static_cast<size_t>(i)], storage_value(view, i))) << what;
      ASSERT_EQ(ints[static_cast<size_t>(i)], view.get_flat_int(i)) << what;
    }
    // Cast-copy into another dtype == per-element set_flat of get_flat.
    Tensor copied = view.to(d2);
    Tensor expected = Tensor::zeros(d2, view.shape());
    for (int64_t i = 0; i < view.numel(); ++i) {
      if (view.is_int_storage()) {
        expected.set_flat_int(i, view.get_flat_int(i));
      } else {
        expected.set_flat(i, view.get_flat(i));
      }
    }
    expect_identical(copied, expected, what + " to " + std::string(dtype_code(d2)));
    // Writing through a strided view of a fresh tensor changes exactly the
    // viewed elements of the base.
    Tensor target = Tensor::zeros(d2, base.shape());
    Tensor target_ref = Tensor::zeros(d2, base.shape());
    Tensor window = target.permute(random_permutation(rng, static_cast<size_t>(base.rank())));
    Tensor window_ref = target_ref.as_strided(window.shape(), window.strides(), window.offset());
    Tensor src = random_values(d, window.shape(), rng);
    window.copy_from(src);
    std::vector<double> src_values = src.values();
    for (int64_t i = 0; i < window.numel(); ++i) {
      window_ref.set_flat(i, src_values[static_cast<size_t>(i)]);
    }
    expect_identical(target, target_ref, what + " strided write");
  }
}

TEST(TensorBulk, OverlappingCopyReadsBeforeWriting) {
  // x.copy_(x.flip-like view): the reversed view overlaps the destination.
  Tensor x = Tensor::from_values(DType::Float32, {4}, std::vector<double>{1, 2, 3, 4});
  Tensor reversed = x.as_strided({4}, {-1}, 3);
  x.copy_from(reversed);
  EXPECT_EQ(x.values(), (std::vector<double>{4, 3, 2, 1}));
}

TEST(TensorBulk, ViewsOutsideTheirStorageAreRejected) {
  Tensor x = Tensor::zeros(DType::Float32, {4});
  EXPECT_THROW(x.as_strided({3}, {2}, 0).values(), std::out_of_range);
  EXPECT_THROW(x.as_strided({2}, {1}, -1).values(), std::out_of_range);
}

// ---- element-wise ops ------------------------------------------------------------

// The element-by-element definition of a binary op (the reference path):
// operands cast to the compute dtype per element, the result rounded once.
Tensor reference_binary(const Tensor& x, const Tensor& y, bool bool_result,
                        const std::function<double(double, double)>& ff,
                        const std::function<int64_t(int64_t, int64_t)>& fi) {
  DType promoted = result_type({Operand{x}, Operand{y}});
  DType compute = promoted == DType::Bool && !bool_result ? DType::Int64 : promoted;
  DType out = bool_result ? DType::Bool : promoted;
  Dims shape = broadcast_shapes(x.shape(), y.shape());
  Tensor xe = x.expand(shape), ye = y.expand(shape);
  Tensor result = Tensor::zeros(out, shape);
  for (int64_t i = 0; i < result.numel(); ++i) {
    if (dtype_stored_as_int(compute)) {
      result.set_flat_int(
          i, fi(cast_int(xe.get_flat_int(i), compute), cast_int(ye.get_flat_int(i), compute)));
    } else {
      result.set_flat(
          i, ff(cast_double(xe.get_flat(i), compute), cast_double(ye.get_flat(i), compute)));
    }
  }
  return result;
}

struct BinaryCase {
  const char* fx;  // FX call with {x} and {y} placeholders for the operands
  bool bool_result;
  std::function<double(double, double)> ff;
  std::function<int64_t(int64_t, int64_t)> fi;
};

const BinaryCase kBinaryCases[] = {
    {"torch.ops.aten.add.Tensor({x}, {y}, alpha = 2)", false,
     [](double a, double b) { return a + 2.0 * b; },
     [](int64_t a, int64_t b) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) + 2u * static_cast<uint64_t>(b));
     }},
    {"torch.ops.aten.mul.Tensor({x}, {y})", false, [](double a, double b) { return a * b; },
     [](int64_t a, int64_t b) {
       return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
     }},
    {"torch.ops.aten.maximum.default({x}, {y})", false,
     [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); },
     [](int64_t a, int64_t b) { return std::max(a, b); }},
    {"torch.ops.aten.lt.Tensor({x}, {y})", true,
     [](double a, double b) { return a < b ? 1.0 : 0.0; },
     [](int64_t a, int64_t b) { return a < b ? int64_t{1} : int64_t{0}; }},
};

TEST(ElementwiseFastPath, BroadcastNonContiguousOperandsMatchTheDefinition) {
  SplitMix64 rng(23);
  for (int trial = 0; trial < 160; ++trial) {
    const BinaryCase& op = kBinaryCases[trial % std::size(kBinaryCases)];
    DType dx = kAllDtypes[static_cast<size_t>(trial / 4) % std::size(kAllDtypes)];
    DType dy = kAllDtypes[static_cast<size_t>(rng.integer(0, std::size(kAllDtypes) - 1))];
    // x: contiguous input permuted into the output shape (non-contiguous).
    Dims shape = random_shape(rng, 1, 4);
    Dims perm = random_permutation(rng, shape.size());
    Dims x_shape(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) x_shape[static_cast<size_t>(perm[i])] = shape[i];
    // y: broadcastable (some dims 1, maybe fewer dims), read through a
    // stride-2 slice of its last dim.
    Dims y_shape(shape.begin() + rng.integer(0, static_cast<int64_t>(shape.size()) - 1),
                 shape.end());
    for (int64_t& d : y_shape) {
      if (rng.integer(0, 2) == 0) d = 1;
    }
    Dims y_in_shape = y_shape;
    y_in_shape.back() *= 2;
    Tensor x = random_values(dx, x_shape, rng);
    Tensor y = random_values(dy, y_in_shape, rng);
    std::string call = fmt::format(fmt::runtime(op.fx), fmt::arg("x", "xt"), fmt::arg("y", "ys"));
    Graph g = graph_from(fmt::format(
        "class GraphModule(torch.nn.Module):\n"
        "    def forward(self, x: {}, y: {}):\n"
        "        xt = torch.ops.aten.permute.default(x, {})\n"
        "        ys = torch.ops.aten.slice.Tensor(y, -1, 0, {}, 2)\n"
        "        out = {}\n"
        "        return (out,)\n",
        fx_type(dx, x_shape), fx_type(dy, y_in_shape), fx_list(perm), y_in_shape.back(), call));
    Tensor xt = x.permute(perm);  // shape == `shape`
    Tensor ys = y.slice(-1, 0, y_in_shape.back(), 2);
    Tensor want = reference_binary(xt, ys, op.bool_result, op.ff, op.fi);
    RunResult r = run(g, {x, y});
    expect_identical(
        r.outputs[0].tensor(), want,
        fmt::format("trial {}: {} on {} and {}", trial, call, xt.describe(), ys.describe()));
  }
}

TEST(ElementwiseFastPath, ScalarsUnaryAndWhereMatchTheDefinition) {
  SplitMix64 rng(29);
  for (DType d : kAllDtypes) {
    Dims shape = {3, 4, 2};
    Tensor x = random_values(d, shape, rng);
    Tensor mask = random_values(DType::Bool, {4, 1}, rng);
    Graph g =
        graph_from(fmt::format("class GraphModule(torch.nn.Module):\n"
                               "    def forward(self, x: {}, m: \"b8[4, 1]\"):\n"
                               "        xt = torch.ops.aten.transpose.int(x, 0, 2)\n"
                               "        mul = torch.ops.aten.mul.Tensor(xt, 0.1)\n"
                               "        neg = torch.ops.aten.neg.default(xt)\n"
                               "        ex = torch.ops.aten.exp.default(xt)\n"
                               "        wh = torch.ops.aten.where.self(m, xt, neg)\n"
                               "        return (mul, neg, ex, wh)\n",
                               fx_type(d, shape)));
    RunResult r = run(g, {x, mask});
    Tensor xt = x.transpose(0, 2);
    DType mul_out = result_type({Operand{xt}, to_operand(RuntimeValue(0.1))});
    DType float_out = dtype_is_floating(d) ? d : DType::Float32;
    DType neg_out = d == DType::Bool ? DType::Float32 : d;
    Tensor mul = Tensor::zeros(mul_out, xt.shape());
    Tensor neg = Tensor::zeros(neg_out, xt.shape());
    Tensor ex = Tensor::zeros(float_out, xt.shape());
    Tensor me = mask.expand(xt.shape());
    for (int64_t i = 0; i < xt.numel(); ++i) {
      mul.set_flat(i,
                   cast_double(xt.get_flat(i), mul_out) * cast_double(0.1, opmath_dtype(mul_out)));
      if (dtype_stored_as_int(neg_out)) {
        neg.set_flat_int(i, -cast_int(xt.get_flat_int(i), neg_out));
      } else {
        neg.set_flat(i, -cast_double(xt.get_flat(i), neg_out));
      }
      ex.set_flat(i, std::exp(cast_double(xt.get_flat(i), float_out)));
    }
    Tensor wh = Tensor::zeros(d == DType::Bool ? DType::Float32 : d, xt.shape());
    for (int64_t i = 0; i < xt.numel(); ++i) {
      wh.set_flat(i, me.get_flat_int(i) != 0 ? xt.get_flat(i) : neg.get_flat(i));
    }
    std::string what(dtype_code(d));
    expect_identical(r.outputs[0].tensor(), mul, what + " mul scalar");
    expect_identical(r.outputs[1].tensor(), neg, what + " neg");
    expect_identical(r.outputs[2].tensor(), ex, what + " exp");
    if (d != DType::Bool) expect_identical(r.outputs[3].tensor(), wh, what + " where");
  }
}

// ---- reductions and softmax ---------------------------------------------------------

TEST(ReductionFastPath, SumMeanAmaxOverAnyDimsMatchTheDefinition) {
  SplitMix64 rng(31);
  const DType dtypes[] = {DType::Float32, DType::BFloat16, DType::Float64,
                          DType::Int32,   DType::Int64,    DType::Float16};
  for (int trial = 0; trial < 120; ++trial) {
    DType d = dtypes[static_cast<size_t>(trial) % std::size(dtypes)];
    Dims shape = random_shape(rng, 1, 4);
    Dims perm = random_permutation(rng, shape.size());
    Tensor x = random_values(d, shape, rng);
    Tensor xt = x.permute(perm);
    std::vector<bool> mask(shape.size());
    Dims dims;
    for (size_t i = 0; i < shape.size(); ++i) {
      mask[i] = rng.integer(0, 1) == 1;
      if (mask[i]) dims.push_back(static_cast<int64_t>(i));
    }
    if (dims.empty()) mask.assign(shape.size(), true);  // [] reduces everything
    bool keepdim = rng.integer(0, 1) == 1;
    const char* op = trial % 3 == 0   ? "sum.dim_IntList"
                     : trial % 3 == 1 ? "amax.default"
                                      : "mean.dim";
    if (!dtype_is_floating(d) && trial % 3 == 2) op = "sum.dim_IntList";
    Graph g = graph_from(fmt::format(
        "class GraphModule(torch.nn.Module):\n"
        "    def forward(self, x: {}):\n"
        "        xt = torch.ops.aten.permute.default(x, {})\n"
        "        out = torch.ops.aten.{}(xt, {}, {})\n"
        "        return (out,)\n",
        fx_type(d, shape), fx_list(perm), op, fx_list(dims), keepdim ? "True" : "False"));
    Tensor got = run(g, {x}).outputs[0].tensor();
    // Reference: scan xt row-major, accumulate into the output element.
    bool is_sum = std::string_view(op).starts_with("sum"), is_mean = op[1] == 'e';
    DType out_dtype = is_sum && !dtype_is_floating(d) ? DType::Int64 : d;
    Dims out_shape;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!mask[i]) out_shape.push_back(xt.shape()[i]);
      if (mask[i] && keepdim) out_shape.push_back(1);
    }
    int64_t out_n = shape_numel(out_shape);
    std::vector<double> acc(static_cast<size_t>(out_n), is_sum || is_mean ? 0.0 : -INFINITY);
    std::vector<int64_t> iacc(static_cast<size_t>(out_n), 0);
    std::vector<bool> seen(static_cast<size_t>(out_n), false);
    for (int64_t i = 0; i < xt.numel(); ++i) {
      Dims index = unravel(i, xt.shape());
      int64_t o = 0;
      for (size_t k = 0; k < index.size(); ++k) {
        if (!mask[k]) o = o * xt.shape()[k] + index[k];
      }
      size_t s = static_cast<size_t>(o);
      if (xt.is_int_storage()) {
        int64_t v = xt.get_flat_int(i);
        iacc[s] = is_sum ? iacc[s] + v : (!seen[s] || v > iacc[s] ? v : iacc[s]);
        seen[s] = true;
      } else {
        double v = xt.get_flat(i);
        acc[s] = is_sum || is_mean ? acc[s] + v : std::max(acc[s], v);
      }
    }
    Tensor want = Tensor::zeros(out_dtype, out_shape);
    int64_t group = xt.numel() / out_n;
    for (int64_t o = 0; o < out_n; ++o) {
      size_t s = static_cast<size_t>(o);
      if (xt.is_int_storage()) {
        want.set_flat_int(o, iacc[s]);
      } else {
        want.set_flat(o, is_mean ? acc[s] / static_cast<double>(group) : acc[s]);
      }
    }
    expect_identical(
        got, want,
        fmt::format("trial {}: {} of {} over {}", trial, op, xt.describe(), fx_list(dims)));
  }
}

TEST(ReductionFastPath, SoftmaxAlongAnInnerDimMatchesTheDefinition) {
  SplitMix64 rng(37);
  for (DType d : {DType::Float32, DType::BFloat16, DType::Float16}) {
    Tensor x = random_values(d, {3, 5, 4}, rng);
    Graph g =
        graph_from(fmt::format("class GraphModule(torch.nn.Module):\n"
                               "    def forward(self, x: {}):\n"
                               "        out = torch.ops.aten._softmax.default(x, 1, False)\n"
                               "        return (out,)\n",
                               fx_type(d, {3, 5, 4})));
    Tensor got = run(g, {x}).outputs[0].tensor();
    Tensor want = Tensor::zeros(d, {3, 5, 4});
    for (int64_t a = 0; a < 3; ++a) {
      for (int64_t c = 0; c < 4; ++c) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < 5; ++j) mx = std::max(mx, x.get_flat((a * 5 + j) * 4 + c));
        for (int64_t j = 0; j < 5; ++j) sum += std::exp(x.get_flat((a * 5 + j) * 4 + c) - mx);
        for (int64_t j = 0; j < 5; ++j) {
          want.set_flat((a * 5 + j) * 4 + c, std::exp(x.get_flat((a * 5 + j) * 4 + c) - mx) / sum);
        }
      }
    }
    expect_identical(got, want, std::string("softmax ") + std::string(dtype_code(d)));
  }
}

// ---- matmul ------------------------------------------------------------------------------

// Dot products accumulated in k order from 0, rounded once.
Tensor reference_matmul(const Tensor& a, const Tensor& b) {
  int64_t batches = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  Tensor out = Tensor::zeros(a.dtype(), {batches, m, n});
  for (int64_t bi = 0; bi < batches; ++bi) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          acc += a.at(std::vector<int64_t>{bi, i, p}) * b.at(std::vector<int64_t>{bi, p, j});
        }
        out.set_flat((bi * m + i) * n + j, acc);
      }
    }
  }
  return out;
}

TEST(MatmulFastPath, BlockedTransposedAndBroadcastOperandsMatchDotProducts) {
  SplitMix64 rng(41);
  // Sizes cross the 64-row and 512-column cache blocks.
  struct Case {
    DType dtype;
    int64_t batches, m, k, n;
  };
  for (Case c : {Case{DType::Float32, 2, 3, 5, 4}, Case{DType::BFloat16, 1, 70, 3, 600},
                 Case{DType::Float16, 3, 2, 7, 5}, Case{DType::Int64, 2, 4, 3, 3},
                 Case{DType::Float64, 1, 65, 9, 513}}) {
    // a is read transposed (stored [b, k, m]); b is broadcast over batches.
    Tensor a_stored = random_values(c.dtype, {c.batches, c.k, c.m}, rng);
    Tensor b_single = random_values(c.dtype, {c.k, c.n}, rng);
    Graph g = graph_from(
        fmt::format("class GraphModule(torch.nn.Module):\n"
                    "    def forward(self, a: {}, b: {}):\n"
                    "        at = torch.ops.aten.transpose.int(a, 1, 2)\n"
                    "        out = torch.ops.aten.matmul.default(at, b)\n"
                    "        return (out,)\n",
                    fx_type(c.dtype, a_stored.shape()), fx_type(c.dtype, b_single.shape())));
    Tensor got = run(g, {a_stored, b_single}).outputs[0].tensor();
    Tensor want =
        reference_matmul(a_stored.transpose(1, 2), b_single.expand({c.batches, c.k, c.n}));
    expect_identical(
        got, want,
        fmt::format("{} matmul {}x{}x{}x{}", dtype_code(c.dtype), c.batches, c.m, c.k, c.n));
  }
}

// ---- inputs ------------------------------------------------------------------------------

TEST(InterpreterInputs, ReadOnlyGraphsShareInputsAndWritingGraphsCopyThem) {
  Tensor x = Tensor::from_values(DType::Float32, {2}, std::vector<double>{1, 2});
  Graph reads = graph_from(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2]\"):\n"
      "        v = torch.ops.aten.view.default(x, [2])\n"
      "        return (v,)\n");
  RunResult r = run(reads, {x});
  EXPECT_TRUE(r.outputs[0].tensor().shares_storage(x));  // no copy of a read-only input
  EXPECT_TRUE(r.mutated_inputs.empty());
  Graph writes = graph_from(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2]\"):\n"
      "        a = torch.ops.aten.add_.Tensor(x, 1)\n"
      "        return (a,)\n");
  RunResult w = run(writes, {x});
  EXPECT_EQ(x.values(), (std::vector<double>{1, 2}));  // the caller's tensor is untouched
  ASSERT_EQ(w.mutated_inputs.size(), 1u);
  EXPECT_EQ(w.mutated_inputs[0].second.values(), (std::vector<double>{2, 3}));
}

}  // namespace
}  // namespace eqfuse
