// ctest-label: golden
// An MoE routing layer as TorchDynamo + AOTAutograd trace it for a GPU
// (tests/data/moe/moe_routing_gpu.txt): histc over int32 expert ids (torch's CPU histc
// refuses integers, CUDA and NPU count them), _grouped_mm over the int32 offsets,
// index_add combines with int64 and int32 token ids, scatter_add with int32 expert ids.
// It loads (type inference checks only what torch's device-independent meta checks),
// optimize_graph never makes it costlier, and the result is equivalent to the input under
// the reference interpreter, which counts the int32 histogram as torch's CUDA kernel does.
// tests/data/moe/moe_symbolic_size_order.txt, the combine of a symbolic MoE trace whose
// buffer size is read again by a Python builtin after the in-place index_add_, optimizes
// too: the builtin is pure size arithmetic and moves before the buffer it now sizes.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <string>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using testing_support::builtin_registry;

LoadedGraph load_fixture(const std::string& name = "moe_routing_gpu.txt") {
  fs::path path = fs::path(EQFUSE_TEST_DATA) / "moe" / name;
  return load_graph(read_file_or_stdin(path.string()), path.filename().string(),
                    builtin_registry());
}

std::string type_of(const Graph& g, const std::string& name) {
  auto r = g.find(name);
  return r ? describe(g.node(*r).type) : "<no node " + name + ">";
}

TEST(MoeRouting, IntegerHistcAndIndexAddTypeCheck) {
  LoadedGraph in;
  try {
    in = load_fixture();
  } catch (const Error& e) {
    FAIL() << e.render();
  }
  EXPECT_TRUE(in.opaque_ops.empty()) << in.opaque_ops.front();
  EXPECT_EQ(type_of(in.graph, "histc"), "i32[4]");
  EXPECT_EQ(type_of(in.graph, "cumsum"), "i32[4]");
  EXPECT_EQ(type_of(in.graph, "index_add"), "f32[8, 16]");
  EXPECT_EQ(type_of(in.graph, "index_add_1"), "bf16[8, 16]");
  EXPECT_EQ(type_of(in.graph, "scatter_add"), "f32[8, 4]");
}

// Every kernel of the layer runs: 8 tokens with 2 experts each make 16 routed rows,
// which the int32 histogram counts per expert.
TEST(MoeRouting, TheInterpreterCountsTokensPerExpert) {
  LoadedGraph in = load_fixture();
  RandomInputs inputs = random_inputs(in.graph, 7);
  InterpreterOptions strict;
  strict.allow_opaque = false;  // no node may fall back to an uninterpreted function
  RunResult r = Interpreter(builtin_registry(), strict).run(in.graph, inputs.values);
  ASSERT_EQ(r.outputs.size(), 4u);
  std::vector<int64_t> counts = r.outputs[3].tensor().int_values();
  EXPECT_EQ(r.outputs[3].tensor().dtype(), DType::Int32);
  ASSERT_EQ(counts.size(), 4u);
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), int64_t{0}), 16);
  for (int64_t c : counts) EXPECT_LE(c, 8);  // an expert is picked at most once per token
}

// Optimizes with the defaults; a failure is an Error rendered into the test's
// message. The result never costs more, nor has more kernels, than the input.
OptimizeResult optimize_no_worse(const Graph& g) {
  static const OptimizeOptions defaults;
  OptimizeResult r;
  try {
    r = optimize_graph(g, builtin_registry(), defaults);
  } catch (const Error& e) {
    ADD_FAILURE() << "optimize: " << e.render();
    return r;
  }
  EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us * (1 + 1e-12));
  EXPECT_LE(r.stats.kernels_after, r.stats.kernels_before);
  return r;
}

TEST(MoeRouting, OptimizesToACheaperEquivalentGraph) {
  LoadedGraph in = load_fixture();
  OptimizeResult r = optimize_no_worse(in.graph);
  if (::testing::Test::HasFailure()) return;
  EquivalenceResult eq = equivalent(in.graph, r.graph, builtin_registry());
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n" << eq.first_differing_node;
  EXPECT_TRUE(eq.structural_ops.empty()) << eq.structural_ops.front().first;
}

// The torch 2.13 W8A8 traces of mixtral and deepseek_v3 (symbolic) stopped emission with
// "no order satisfies the data, stream and side-effect constraints": the symbolic-size
// merge gives `zeros` the size read `mul = s0 * s1`, which the input computes only after
// the index_add_ writing that buffer, and the emitter kept the builtin (an opaque call) in
// order with the in-place calls. It is pure: emitted before `zeros`, the graph orders.
TEST(MoeRouting, ASizeReadAfterTheInPlaceCombineMovesBeforeTheBuffer) {
  LoadedGraph in = load_fixture("moe_symbolic_size_order.txt");
  EXPECT_TRUE(in.opaque_ops.empty()) << in.opaque_ops.front();  // the builtin is no unknown op
  OptimizeResult r = optimize_no_worse(in.graph);
  if (::testing::Test::HasFailure()) return;
  auto mul = r.graph.find("mul"), zeros = r.graph.find("zeros"),
       index_add = r.graph.find("index_add_");
  ASSERT_TRUE(mul && zeros && index_add) << print_fx(r.graph);
  EXPECT_LT(mul->index, zeros->index) << print_fx(r.graph);
  EXPECT_LT(zeros->index, index_add->index) << print_fx(r.graph);
  EquivalenceResult eq = equivalent(in.graph, r.graph, builtin_registry());
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n" << eq.first_differing_node;
}

}  // namespace
}  // namespace eqfuse
