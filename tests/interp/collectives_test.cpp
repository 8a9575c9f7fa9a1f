// ctest-label: numeric
// The simulated tensor-parallel group (interp/collectives.hpp): collectives
// against hand-computed values, the identities the TP rewrites rely on (bit for
// bit), and errors that stop every rank instead of hanging.
#include "interp/collectives.hpp"

#include <gtest/gtest.h>

#include "graph/io/load.hpp"
#include "interp/random_inputs.hpp"
#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::f32;
using testing::graph_from;
using testing::registry;
using testing::vals;

std::vector<RunResult> run_ranks(const Graph& g, std::vector<std::vector<RuntimeValue>> inputs) {
  const InterpreterOptions options;
  return run_tensor_parallel(registry(), {&options, 1}, g, inputs);
}

// Rank r's input: f32[2, 2] holding 10r + {1, 2, 3, 4}.
std::vector<std::vector<RuntimeValue>> ranked_inputs(int world) {
  std::vector<std::vector<RuntimeValue>> in;
  for (int r = 0; r < world; ++r) {
    double b = 10.0 * r;
    in.push_back({RuntimeValue(f32({2, 2}, {b + 1, b + 2, b + 3, b + 4}))});
  }
  return in;
}

TEST(Collectives, AllReduceSumsEveryRanksValue) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        a: "f32[2, 2]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        w: "f32[2, 2]" = torch.ops._c10d_functional.wait_tensor.default(a)
        m: "f32[2, 2]" = torch.ops._c10d_functional.all_reduce.default(x, 'max', '0')
        return (w, m)
)FX");
  std::vector<RunResult> ranks = run_ranks(g, ranked_inputs(3));
  ASSERT_EQ(ranks.size(), 3u);
  for (const RunResult& r : ranks) {
    EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{33, 36, 39, 42}));
    EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{21, 22, 23, 24}));
  }
}

TEST(Collectives, AllGatherConcatenatesAndReduceScatterHandsOutChunks) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        g: "f32[4, 2]" = torch.ops._c10d_functional.all_gather_into_tensor.default(x, 2, '0')
        s: "f32[1, 2]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 2, '0')
        v: "f32[2, 4]" = torch.ops.vllm.all_gather.default(x, 1, 2, '0')
        return (g, s, v)
)FX");
  std::vector<RunResult> ranks = run_ranks(g, ranked_inputs(2));
  for (const RunResult& r : ranks) {
    EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, 2, 3, 4, 11, 12, 13, 14}));
    EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1, 2, 11, 12, 3, 4, 13, 14}));
  }
  EXPECT_EQ(vals(ranks[0].outputs[1]), (std::vector<double>{12, 14}));
  EXPECT_EQ(vals(ranks[1].outputs[1]), (std::vector<double>{16, 18}));
}

// Random bf16 values per rank: rank r's inputs drawn with seed 100 + r.
std::vector<std::vector<RuntimeValue>> random_ranks(const Graph& g, int world) {
  std::vector<std::vector<RuntimeValue>> in;
  RandomInputOptions opt;
  opt.registry = &registry();
  for (int r = 0; r < world; ++r) in.push_back(random_inputs(g, 100 + r, opt).values);
  return in;
}

// Sequence parallelism's identity: all_reduce = all_gather(reduce_scatter).
TEST(Collectives, AllReduceEqualsReduceScatterThenAllGatherBitForBit) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[8, 16]"):
        a: "bf16[8, 16]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        s: "bf16[2, 16]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 4, '0')
        g: "bf16[8, 16]" = torch.ops._c10d_functional.all_gather_into_tensor.default(s, 4, '0')
        return (a, g)
)FX");
  for (const RunResult& r : run_ranks(g, random_ranks(g, 4)))
    EXPECT_EQ(vals(r.outputs[0]), vals(r.outputs[1]));
}

TEST(Collectives, MatmulAllReduceKernelEqualsTheUnfusedChain) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[4, 32]", w: "bf16[32, 8]", b: "bf16[8]"):
        mm: "bf16[4, 8]" = torch.ops.aten.mm.default(x, w)
        a: "bf16[4, 8]" = torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0')
        f: "bf16[4, 8]" = torch.ops.npu.npu_mm_all_reduce_base.default(x, w, '0')
        am: "bf16[4, 8]" = torch.ops.aten.addmm.default(b, x, w)
        ab: "bf16[4, 8]" = torch.ops._c10d_functional.all_reduce.default(am, 'sum', '0')
        fb: "bf16[4, 8]" = torch.ops.npu.npu_mm_all_reduce_base.default(x, w, '0', bias=b)
        s: "bf16[2, 8]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(mm, 'sum', 2, '0')
        fs: "bf16[2, 8]" = torch.ops.npu.npu_mm_reduce_scatter_base.default(x, w, '0', 2)
        return (a, f, ab, fb, s, fs)
)FX");
  for (const RunResult& r : run_ranks(g, random_ranks(g, 2))) {
    EXPECT_EQ(vals(r.outputs[0]), vals(r.outputs[1]));
    EXPECT_EQ(vals(r.outputs[2]), vals(r.outputs[3]));
    EXPECT_EQ(vals(r.outputs[4]), vals(r.outputs[5]));
  }
}

TEST(Collectives, AllGatherMatmulKernelReturnsProductAndGatheredInput) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[2, 16]", w: "bf16[16, 4]"):
        ag: "bf16[4, 16]" = torch.ops._c10d_functional.all_gather_into_tensor.default(x, 2, '0')
        mm: "bf16[4, 4]" = torch.ops.aten.mm.default(ag, w)
        f = torch.ops.npu.npu_all_gather_base_mm.default(x, w, '0', 2)
        y: "bf16[4, 4]" = f[0]
        gathered: "bf16[4, 16]" = f[1]
        return (mm, y, ag, gathered)
)FX");
  for (const RunResult& r : run_ranks(g, random_ranks(g, 2))) {
    EXPECT_EQ(vals(r.outputs[0]), vals(r.outputs[1]));
    EXPECT_EQ(vals(r.outputs[2]), vals(r.outputs[3]));
  }
}

// The make_fx trace of a TP-4 MLP + all_reduce + residual + RMSNorm (tests/data/tp):
// with the residual and the norm weight the same on every rank, every rank ends with the
// same rows.
TEST(Collectives, TracedTensorParallelLayerRunsOnFourRanks) {
  const std::string path = std::string(EQFUSE_TEST_DATA) + "/tp/mlp_allreduce_norm_tp4.fx";
  Graph g = load_graph(read_file_or_stdin(path), path, registry()).graph;
  std::vector<std::vector<RuntimeValue>> in = random_ranks(g, 4);
  for (auto& rank : in) {
    rank[3] = in[0][3];  // residual_1: replicated
    rank[4] = in[0][4];  // gamma_1: replicated
  }
  std::vector<RunResult> ranks = run_ranks(g, in);
  for (const RunResult& r : ranks) {
    EXPECT_EQ(vals(r.outputs[0]), vals(ranks[0].outputs[0]));  // normed rows
    EXPECT_EQ(vals(r.outputs[1]), vals(ranks[0].outputs[1]));  // residual sum
  }
  // reduce_scatter of the gathered (identical) rows: rank r holds 4x its own rows.
  std::vector<double> y = vals(ranks[2].outputs[0]), s = vals(ranks[2].outputs[2]);
  ASSERT_EQ(s.size(), y.size());
  EXPECT_DOUBLE_EQ(s[5], 4 * y[5]);
}

TEST(Collectives, GroupSizeThatIsNotTheWorldIsAnErrorNamingTheNode) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        g: "f32[8, 2]" = torch.ops._c10d_functional.all_gather_into_tensor.default(x, 4, '0')
        return (g,)
)FX");
  try {
    run_ranks(g, ranked_inputs(2));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'g'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("group_size is 4"), std::string::npos) << e.what();
  }
}

// A rank that fails before a collective must not leave the others waiting.
TEST(Collectives, ARankThatFailsStopsTheOthers) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        a: "f32[2, 2]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        return (a,)
)FX");
  std::vector<std::vector<RuntimeValue>> in = ranked_inputs(3);
  in[1][0] = RuntimeValue(f32({1, 2}, {1, 2}));  // wrong shape on rank 1 only
  EXPECT_THROW(run_ranks(g, in), Error);
}

TEST(Collectives, OutsideASimulatedGroupACollectiveIsUninterpreted) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        a: "f32[2, 2]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        return (a,)
)FX");
  std::vector<RuntimeValue> in = ranked_inputs(1)[0];
  RunResult first = testing::run(g, in), second = testing::run(g, in);
  EXPECT_EQ(vals(first.outputs[0]), vals(second.outputs[0]));
  EXPECT_NE(vals(first.outputs[0]), vals(in[0]));  // not computed as a one-rank sum
}

}  // namespace
}  // namespace eqfuse
