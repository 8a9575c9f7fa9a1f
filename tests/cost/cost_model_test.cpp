// The NPU cost formula against hand-computed values (ascend910b2 profile):
// vector and cube kernels, free views, transposes priced as copies, launch
// per mode, per-op overrides, graph DAG cost, the two-queue simulation and
// the sanity check of npu-cost.md §6.3, auto_functionalized calls as op + clones,
// the launch pipeline (host dispatch against device time, per-mode overrides).
#include "cost/cost_model.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>

#include <gtest/gtest.h>

#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cost_fixtures.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

using testing_support::b2;
using testing_support::node_cost;
using testing_support::parse;

// One FX graph `def forward(<params>): <body>; return (<ret>,)`.
std::string fx(const std::string& params, const std::string& body, const std::string& ret) {
  return "class GraphModule(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body +
         "        return (" + ret + ",)\n";
}

NpuCostModel model(ExecMode mode = ExecMode::ReduceOverhead, DeviceProfile p = b2()) {
  return NpuCostModel(std::move(p), mode);
}

// Effective HBM bandwidth of the b2 profile in bytes per µs:
// 1600 GB/s x eff_mem 0.75 = 1.2e6 B/µs.
constexpr double kBytesPerUs = 1.2e6;

const std::string kAdd =
    fx(R"(a: "bf16[1024, 1024]", b: "bf16[1024, 1024]")",
       "        add: \"bf16[1024, 1024]\" = torch.ops.aten.add.Tensor(a, b)\n", "add");

TEST(CostModel, VectorOpIsMemoryBoundRoofline) {
  Graph g = parse(kAdd);
  CostBreakdown c = node_cost(g, "add", model());
  // Reads two and writes one bf16[1024, 1024]: 3 x 2 MiB.
  EXPECT_TRUE(c.is_kernel);
  EXPECT_EQ(c.kernel_class, KernelClass::Vector);
  EXPECT_DOUBLE_EQ(c.bytes, 6291456);
  EXPECT_DOUBLE_EQ(c.flops, 1048576);  // 1 op per output element
  EXPECT_NEAR(c.memory_us, 5.24288, 1e-9);
  // 1048576 / (11.06 TFLOPS x eff_vec 0.7)
  EXPECT_NEAR(c.compute_us, 0.1354399380, 1e-9);
  EXPECT_DOUBLE_EQ(c.launch_us, 2);  // g_acl
  EXPECT_DOUBLE_EQ(c.fixed_us, 4);   // t_dev_fixed vector
  // 2 + 4 + 5.24288 + 0.05 x 0.13544
  EXPECT_NEAR(c.total_us, 11.2496519969, 1e-8);
}

// baddbmm's K is batch1's last dim (self is the bias); attention counts
// QKᵀ and PV: 2·L·S·E + 2·L·S·Ev per batch and head (issue 16).
TEST(CostModel, BaddbmmAndAttentionAreCubeOpsWithTheirFlops) {
  Graph g = parse(fx(
      R"(s: "bf16[8, 64, 32]", a: "bf16[8, 64, 128]", b: "bf16[8, 128, 32]", q: "bf16[2, 4, 64, 128]", k: "bf16[2, 4, 256, 128]", v: "bf16[2, 4, 256, 64]")",
      "        bmm: \"bf16[8, 64, 32]\" = torch.ops.aten.baddbmm.default(s, a, b)\n"
      "        att: \"bf16[2, 4, 64, 64]\" = "
      "torch.ops.aten.scaled_dot_product_attention.default(q, k, v)\n",
      "bmm, att"));
  CostBreakdown bmm = node_cost(g, "bmm", model());
  EXPECT_EQ(bmm.kernel_class, KernelClass::Cube);
  EXPECT_DOUBLE_EQ(bmm.flops, 2.0 * 8 * 64 * 32 * 128);
  CostBreakdown att = node_cost(g, "att", model());
  EXPECT_EQ(att.kernel_class, KernelClass::Cube);
  EXPECT_DOUBLE_EQ(att.flops, 2.0 * 2 * 4 * 64 * 256 * (128 + 64));
}

TEST(CostModel, CubeOpCountsTwoMNK) {
  Graph g = parse(fx(R"(a: "bf16[1024, 2048]", b: "bf16[2048, 4096]")",
                     "        mm: \"bf16[1024, 4096]\" = torch.ops.aten.mm.default(a, b)\n", "mm"));
  CostBreakdown c = node_cost(g, "mm", model());
  EXPECT_EQ(c.kernel_class, KernelClass::Cube);
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 1024 * 4096 * 2048);
  EXPECT_DOUBLE_EQ(c.bytes, (1024.0 * 2048 + 2048.0 * 4096 + 1024.0 * 4096) * 2);
  // 17179869184 / (353.9 TFLOPS x eff_cube 0.85): compute bound.
  EXPECT_NEAR(c.compute_us, 57.1110788491, 1e-8);
  EXPECT_NEAR(c.memory_us, 24.4667733333, 1e-8);
  EXPECT_NEAR(c.total_us, 64.3344175158, 1e-8);
}

TEST(CostModel, Int8MatmulUsesTheInt8CubePeak) {
  Graph g =
      parse(fx(R"(x: "i8[1024, 2048]", w: "i8[2048, 4096]", s: "f32[4096]")",
               "        q: \"bf16[1024, 4096]\" = torch.ops.npu.npu_quant_matmul.default(x, w, "
               "s, output_dtype = torch.bfloat16)\n",
               "q"));
  CostBreakdown c = node_cost(g, "q", model());
  EXPECT_EQ(c.kernel_class, KernelClass::Cube);
  // 2·M·N·K / (707.8 TFLOPS x 0.85)
  EXPECT_NEAR(c.compute_us, 2.0 * 1024 * 4096 * 2048 / (707.8 * 0.85 * 1e6), 1e-9);
  EXPECT_DOUBLE_EQ(c.bytes, 1024.0 * 2048 + 2048.0 * 4096 + 4096 * 4 + 1024.0 * 4096 * 2);
}

TEST(CostModel, ViewsReshapesAndExpandAreFree) {
  Graph g =
      parse(fx(R"(a: "bf16[16, 1, 64]")",
               "        view: \"bf16[16, 64]\" = torch.ops.aten.view.default(a, [16, 64])\n"
               "        reshape: \"bf16[4, 256]\" = torch.ops.aten.reshape.default(view, [4, "
               "256])\n"
               "        expand: \"bf16[16, 8, 64]\" = torch.ops.aten.expand.default(a, [16, 8, "
               "64])\n"
               "        sym_size_int = torch.ops.aten.sym_size.int(a, 0)\n",
               "reshape, expand, sym_size_int"));
  for (const char* name : {"view", "reshape", "expand", "sym_size_int"}) {
    CostBreakdown c = node_cost(g, name, model());
    EXPECT_FALSE(c.is_kernel) << name;
    EXPECT_EQ(c.total_us, 0) << name;
    EXPECT_EQ(c.launch_us, 0) << name;
  }
  EXPECT_EQ(graph_cost(g, builtin_registry(), model(ExecMode::Eager)).kernels, 0u);
}

TEST(CostModel, TransposeThatMovesDataIsACopyKernel) {
  Graph g =
      parse(fx(R"(a: "bf16[64, 128]")",
               "        transpose: \"bf16[128, 64]\" = torch.ops.aten.transpose.int(a, 0, 1)\n",
               "transpose"));
  CostBreakdown c = node_cost(g, "transpose", model());
  EXPECT_TRUE(c.is_kernel);
  EXPECT_EQ(c.kernel_class, KernelClass::Vector);
  EXPECT_DOUBLE_EQ(c.bytes, 2 * 64 * 128 * 2);  // read once, write once
  EXPECT_DOUBLE_EQ(c.flops, 0);
  // launch 2 + t_dev_fixed 4 + 32768 B / 1.2e6 B/µs
  EXPECT_NEAR(c.total_us, 6.0273066667, 1e-9);
  EXPECT_NE(c.note.find("contiguous copy"), std::string::npos);
}

TEST(CostModel, IdentityAndSizeOneTransposesAreFree) {
  Graph g = parse(
      fx(R"(a: "bf16[1, 64, 128]", b: "bf16[4, 1, 8]", c: "bf16[1, 64]", d: "bf16[64, 32]")",
         "        same: \"bf16[1, 64, 128]\" = torch.ops.aten.transpose.int(a, 1, 1)\n"
         "        ones: \"bf16[64, 1, 128]\" = torch.ops.aten.transpose.int(a, 0, 1)\n"
         "        neg: \"bf16[64, 1, 128]\" = torch.ops.aten.transpose.int(a, -3, -2)\n"
         "        perm_id: \"bf16[4, 1, 8]\" = torch.ops.aten.permute.default(b, [0, 1, 2])\n"
         "        perm_one: \"bf16[4, 8, 1]\" = torch.ops.aten.permute.default(b, [0, 2, 1])\n"
         "        perm_real: \"bf16[8, 1, 4]\" = torch.ops.aten.permute.default(b, [2, 1, 0])\n"
         "        t_one: \"bf16[64, 1]\" = torch.ops.aten.t.default(c)\n"
         "        t_real: \"bf16[32, 64]\" = torch.ops.aten.t.default(d)\n",
         "same, ones, neg, perm_id, perm_one, perm_real, t_one, t_real"));
  for (const char* name : {"same", "ones", "neg", "perm_id", "perm_one", "t_one"})
    EXPECT_FALSE(node_cost(g, name, model()).is_kernel) << name;
  for (const char* name : {"perm_real", "t_real"})
    EXPECT_TRUE(node_cost(g, name, model()).is_kernel) << name;
  EXPECT_EQ(graph_cost(g, builtin_registry(), model()).kernels, 2u);
}

// bmm + transpose(0, 1) needs a copy kernel that the fused
// npu_transpose_batchmatmul does not: the fused form must be cheaper by
// exactly that copy.
TEST(CostModel, TransposeBatchMatmulSavesTheCopy) {
  std::string params = R"(x: "bf16[128, 16, 128]", w: "bf16[128, 128, 512]")";
  Graph unfused =
      parse(fx(params,
               "        bmm: \"bf16[128, 16, 512]\" = torch.ops.aten.bmm.default(x, w)\n"
               "        transpose: \"bf16[16, 128, 512]\" = "
               "torch.ops.aten.transpose.int(bmm, 0, 1)\n",
               "transpose"));
  Graph fused = parse(fx(params,
                         "        tbmm: \"bf16[16, 128, 512]\" = "
                         "torch.ops.npu.npu_transpose_batchmatmul.default(x, w, perm_x1 = [0, 1, "
                         "2])\n",
                         "tbmm"));
  for (ExecMode mode : kAllExecModes) {
    NpuCostModel m = model(mode);
    GraphCost a = graph_cost(unfused, builtin_registry(), m);
    GraphCost b = graph_cost(fused, builtin_registry(), m);
    EXPECT_EQ(a.kernels, 2u);
    EXPECT_EQ(b.kernels, 1u);
    double launch = b2().get(std::string("launch_us.") + std::string(exec_mode_name(mode)));
    // copy: launch + 4 + 2 x bf16[16, 128, 512] / 1.2e6 B/µs
    EXPECT_NEAR(a.total_us - b.total_us, launch + 4 + 4194304 / kBytesPerUs, 1e-9)
        << exec_mode_name(mode);
  }
}

TEST(CostModel, LaunchAndPerGraphCostDependOnMode) {
  Graph g = parse(kAdd);
  CostBreakdown eager = node_cost(g, "add", model(ExecMode::Eager));
  CostBreakdown ge = node_cost(g, "add", model(ExecMode::MaxAutotune));
  CostBreakdown ro = node_cost(g, "add", model(ExecMode::ReduceOverhead));
  EXPECT_DOUBLE_EQ(eager.launch_us, 20);  // h_eager
  EXPECT_DOUBLE_EQ(ge.launch_us, 1.5);    // g_ge
  EXPECT_DOUBLE_EQ(ro.launch_us, 2);      // g_acl
  EXPECT_NEAR(eager.total_us - ro.total_us, 18, 1e-12);
  EXPECT_DOUBLE_EQ(model(ExecMode::Eager).per_graph_us(), 0);
  EXPECT_DOUBLE_EQ(model(ExecMode::MaxAutotune).per_graph_us(), 50);
  EXPECT_DOUBLE_EQ(model(ExecMode::ReduceOverhead).per_graph_us(), 50);
  GraphCost total = graph_cost(g, builtin_registry(), model(ExecMode::ReduceOverhead));
  EXPECT_NEAR(total.total_us, ro.total_us + 50, 1e-12);
  EXPECT_EQ(model(ExecMode::ReduceOverhead).describe(), "ascend910b2, reduce-overhead");
}

TEST(CostModel, OverridesReplaceFixedTimeEfficiencyFlopsAndClass) {
  Graph g = parse(kAdd);
  CostBreakdown base = node_cost(g, "add", model());

  DeviceProfile fixed = b2();
  fixed.overrides["aten::add.Tensor"].fixed_us = 12;
  CostBreakdown f = node_cost(g, "add", model(ExecMode::ReduceOverhead, fixed));
  EXPECT_DOUBLE_EQ(f.total_us, 2 + 12);
  EXPECT_NE(f.note.find("override: fixed 12"), std::string::npos);

  // 100 flops per element at efficiency 0.1: compute bound,
  // 104857600 / (11.06 x 0.1 x 1e6) µs.
  DeviceProfile heavy = b2();
  heavy.overrides["aten::add.Tensor"].efficiency = 0.1;
  heavy.overrides["aten::add.Tensor"].flops_per_elem = 100;
  CostBreakdown h = node_cost(g, "add", model(ExecMode::ReduceOverhead, heavy));
  EXPECT_DOUBLE_EQ(h.flops, 104857600);
  EXPECT_NEAR(h.compute_us, 104857600 / (11.06 * 0.1 * 1e6), 1e-9);
  EXPECT_NEAR(h.total_us, 6 + h.compute_us + 0.05 * base.memory_us, 1e-9);

  DeviceProfile mix = b2();
  mix.overrides["aten::add.Tensor"].kernel_class = KernelClass::Mix;
  CostBreakdown m = node_cost(g, "add", model(ExecMode::ReduceOverhead, mix));
  EXPECT_EQ(m.kernel_class, KernelClass::Mix);
  EXPECT_DOUBLE_EQ(m.fixed_us, 8);  // t_dev_fixed mix
  EXPECT_NEAR(m.total_us - base.total_us, 4, 1e-12);
}

TEST(CostModel, OpaqueOpsAreOneKernelPricedByBytes) {
  Graph g = parse(fx(R"(a: "bf16[1024, 512]")",
                     "        m: \"bf16[1024, 512]\" = torch.ops.mylib.mystery.default(a)\n", "m"));
  CostBreakdown c = node_cost(g, "m", model());
  EXPECT_TRUE(c.is_kernel);
  EXPECT_DOUBLE_EQ(c.flops, 0);
  EXPECT_DOUBLE_EQ(c.bytes, 2 * 1024 * 512 * 2);
  EXPECT_NEAR(c.total_us, 6 + 2097152 / kBytesPerUs, 1e-9);
  EXPECT_NE(c.note.find("opaque"), std::string::npos);
}

TEST(CostModel, UnknownShapesCountZeroBytesButStillLaunch) {
  Graph g =
      parse(fx(R"(a: "bf16[1024, 512]")", "        m = torch.ops.mylib.mystery.default(a)\n", "m"));
  CostBreakdown c = node_cost(g, "m", model());
  EXPECT_TRUE(c.is_kernel);
  EXPECT_DOUBLE_EQ(c.bytes, 1024 * 512 * 2);  // only the known input
  EXPECT_NE(c.note.find("1 tensor(s) of unknown shape"), std::string::npos);
  EXPECT_DOUBLE_EQ(c.launch_us, 2);
}

TEST(CostModel, SymbolicDimsUseHints) {
  Graph g = parse(fx(R"(a: "bf16[s0, 1024]", b: "bf16[s0, 1024]")",
                     "        add: \"bf16[s0, 1024]\" = torch.ops.aten.add.Tensor(a, b)\n", "add"));
  std::vector<ValueType> storage;
  CostQuery q = query_for_node(g, *g.find("add"), builtin_registry(), storage);
  EXPECT_DOUBLE_EQ(NpuCostModel(b2(), ExecMode::Eager).cost(q).bytes, 3.0 * 1024 * 1024 * 2);
  SymbolHints hints;
  hints.values["s0"] = 16;
  EXPECT_DOUBLE_EQ(NpuCostModel(b2(), ExecMode::Eager, hints).cost(q).bytes, 3.0 * 16 * 1024 * 2);
  EXPECT_EQ(hints.evaluate(SymInt::parse("4*s0 + s1")), 4 * 16 + 1024);
}

// Two dependent small kernels. Eager is host bound: the device waits for
// each 20 µs dispatch, so the total is 2 x 20 + the last kernel's device
// time; graph modes add device gaps and the replay cost.
TEST(CostModel, TwoQueueSimulation) {
  Graph g = parse(fx(R"(a: "bf16[16, 16]", b: "bf16[16, 16]")",
                     "        add: \"bf16[16, 16]\" = torch.ops.aten.add.Tensor(a, b)\n"
                     "        add_1: \"bf16[16, 16]\" = torch.ops.aten.add.Tensor(add, b)\n",
                     "add_1"));
  GraphCost eager = graph_cost(g, builtin_registry(), model(ExecMode::Eager));
  double device = 4 + 1536 / kBytesPerUs + 0.05 * 256 / (11.06 * 0.7 * 1e6);
  EXPECT_NEAR(eager.total_us, 2 * (20 + device), 1e-9);
  EXPECT_NEAR(eager.simulated_us, 40 + device, 1e-9);
  GraphCost ro = graph_cost(g, builtin_registry(), model(ExecMode::ReduceOverhead));
  EXPECT_NEAR(ro.simulated_us, ro.total_us, 1e-9);
  EXPECT_NEAR(ro.total_us, 2 * (2 + device) + 50, 1e-9);

  // Device bound (each kernel > 20 µs on the device): only the first
  // dispatch is exposed.
  Graph big = parse(fx(R"(a: "bf16[8192, 2048]", b: "bf16[8192, 2048]")",
                       "        add: \"bf16[8192, 2048]\" = torch.ops.aten.add.Tensor(a, b)\n"
                       "        add_1: \"bf16[8192, 2048]\" = torch.ops.aten.add.Tensor(add, b)\n",
                       "add_1"));
  GraphCost e = graph_cost(big, builtin_registry(), model(ExecMode::Eager));
  double d = e.nodes[0].cost.total_us - 20;
  ASSERT_GT(d, 20);
  EXPECT_NEAR(e.simulated_us, 20 + 2 * d, 1e-9);
}

TEST(CostModel, AddRmsNormCastExample) {
  Graph g = parse(read_file_or_stdin(std::filesystem::path(EQFUSE_SOURCE_DIR) /
                                     "examples/add_rms_norm_cast.fx"));
  GraphCost c = graph_cost(g, builtin_registry(), model());
  // npu_add_rms_norm and _to_copy; the view and the getitems are free.
  EXPECT_EQ(c.kernels, 2u);
  double sum = 0;
  for (const NodeCost& n : c.nodes) sum += n.cost.total_us;
  EXPECT_NEAR(c.total_us, sum + 50, 1e-9);
  // _to_copy of bf16[s0, 4096] to f32 with s0 -> 1024: reads 2 and writes 4 bytes per element.
  CostBreakdown cast = node_cost(g, "_to_copy", model());
  EXPECT_DOUBLE_EQ(cast.bytes, 1024.0 * 4096 * 6);
}

TEST(CostModel, DeepSeekLayerCountsKernels) {
  Graph g = parse(
      read_file_or_stdin(std::filesystem::path(EQFUSE_SOURCE_DIR) / "examples/deepseek_layer.fx"));
  GraphCost eager = graph_cost(g, builtin_registry(), model(ExecMode::Eager));
  GraphCost ro = graph_cost(g, builtin_registry(), model(ExecMode::ReduceOverhead));
  EXPECT_EQ(eager.kernels, ro.kernels);
  // 24 ops, 4 transposes priced as copies (transpose, transpose_1,
  // transpose_2, t) and the opaque npu_multi_head_latent_attention.
  EXPECT_EQ(eager.kernels, 29u);
  size_t copies = 0, opaque = 0;
  for (const NodeCost& n : eager.nodes) {
    copies += n.cost.note.find("contiguous copy") != std::string::npos;
    opaque += n.cost.note.find("opaque") != std::string::npos;
  }
  EXPECT_EQ(copies, 4u);
  EXPECT_EQ(opaque, 1u);
  EXPECT_NEAR(eager.total_us - ro.total_us, 18.0 * eager.kernels - 50, 1e-6);
  EXPECT_LE(eager.simulated_us, eager.total_us + 1e-9);
}

// npu-cost.md §6.3: 16 tokens x 7168 hidden, bf16 -> int8. add_rms_norm moves
// ~0.9 MB (t_exec ~0.8 µs), dynamic_quant ~0.35 MB (~0.3 µs); unfused
// device time ~9 µs, fused ~5 µs; the saving is ~4 µs of device time in
// graph modes and ~4 + 20 µs in eager.
TEST(CostModel, SpecSanityCheckAddRmsNormDynamicQuant) {
  std::string params = R"(x1: "bf16[16, 7168]", x2: "bf16[16, 7168]", gamma: "bf16[7168]")";
  Graph unfused = parse(fx(params,
                           "        arn = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)\n"
                           "        y: \"bf16[16, 7168]\" = arn[0]\n"
                           "        x: \"bf16[16, 7168]\" = arn[2]\n"
                           "        dq = torch.ops.npu.npu_dynamic_quant.default(y)\n"
                           "        q: \"i8[16, 7168]\" = dq[0]\n"
                           "        s: \"f32[16]\" = dq[1]\n",
                           "q, s, x"));
  Graph fused = parse(fx(params,
                         "        f = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, "
                         "gamma)\n"
                         "        q: \"i8[16, 7168]\" = f[0]\n"
                         "        x: \"bf16[16, 7168]\" = f[2]\n"
                         "        s: \"f32[16]\" = f[3]\n",
                         "q, s, x"));
  NpuCostModel ro = model(ExecMode::ReduceOverhead);
  CostBreakdown arn = node_cost(unfused, "arn", ro);
  CostBreakdown dq = node_cost(unfused, "dq", ro);
  EXPECT_NEAR(arn.bytes, 0.93e6, 0.01e6);
  EXPECT_NEAR(arn.memory_us, 0.8, 0.05);
  EXPECT_NEAR(dq.bytes, 0.35e6, 0.01e6);
  EXPECT_NEAR(dq.memory_us, 0.3, 0.05);

  auto device_us = [](const GraphCost& c) { return c.total_us - c.launch_us - 50; };
  GraphCost a = graph_cost(unfused, builtin_registry(), ro);
  GraphCost b = graph_cost(fused, builtin_registry(), ro);
  EXPECT_NEAR(device_us(a), 9, 0.5);
  EXPECT_NEAR(device_us(b), 5, 0.5);
  EXPECT_NEAR(device_us(a) - device_us(b), 4, 0.6);
  // Graph mode saves one g_acl as well.
  EXPECT_NEAR(a.total_us - b.total_us, 4 + 2, 0.6);
  NpuCostModel eager = model(ExecMode::Eager);
  EXPECT_NEAR(graph_cost(unfused, builtin_registry(), eager).total_us -
                  graph_cost(fused, builtin_registry(), eager).total_us,
              4 + 20, 0.6);
}

// ---- auto_functionalized: the wrapped op plus one clone per cloned tensor ----

// Builtins plus two mutating custom ops of docs/reinplace.md's scenarios.
const OpRegistry& custom_registry() {
  static const OpRegistry reg = [] {
    OpRegistry r = OpRegistry::with_builtin_ops();
    r.register_op("custom::sin(Tensor x, Tensor(a!) result) -> ()");
    r.register_op("custom::boo(Tensor(a!) x) -> ()");
    return r;
  }();
  return reg;
}

Graph parse_custom(const std::string& text) {
  return load_graph(text, "test.fx", custom_registry()).graph;
}

// What the model charges for one call of `op` on `args` (no result) and
// for cloning each of `cloned`: the pieces an auto_functionalized call is
// made of.
struct AfPieces {
  CostBreakdown op;
  std::vector<CostBreakdown> clones;
};

AfPieces af_pieces(const CostModel& m, const std::string& op, std::vector<ValueType> args,
                   const std::vector<ValueType>& cloned) {
  const OpRegistry& reg = custom_registry();
  AfPieces p;
  CostQuery q;
  q.op = op;
  q.info = &reg.info(*reg.find(op));
  q.args = args;
  q.result = ValueType::none();
  p.op = m.cost(q);
  for (const ValueType& t : cloned) {
    std::vector<ValueType> clone_args{t, ValueType::none()};
    CostQuery c;
    c.op = "aten::clone";
    c.info = &reg.info(*reg.find("aten::clone"));
    c.args = clone_args;
    c.result = t;
    p.clones.push_back(m.cost(c));
  }
  return p;
}

const std::string kAfV1 =
    fx(R"(x: "f32[64, 128]")",
       "        empty_like: \"f32[64, 128]\" = torch.ops.aten.empty_like.default(x)\n"
       "        auto_functionalized = torch.ops.higher_order.auto_functionalized("
       "torch.ops.custom.sin.default, x = x, result = empty_like)\n"
       "        getitem_1: \"f32[64, 128]\" = auto_functionalized[1]\n",
       "getitem_1");

TEST(CostModel, AutoFunctionalizedIsTheWrappedOpPlusOneClonePerMutableArgument) {
  Graph g = parse_custom(kAfV1);
  NpuCostModel m = model();
  NodeRef af = *g.find("auto_functionalized");
  std::vector<CostBreakdown> kernels = auto_functionalized_kernels(g, af, custom_registry(), m);
  const ValueType& x = g.node(*g.find("x")).type;
  AfPieces want = af_pieces(m, "custom::sin", {x, x}, {x});
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_DOUBLE_EQ(kernels[0].total_us, want.clones[0].total_us);  // clone first
  EXPECT_DOUBLE_EQ(kernels[1].total_us, want.op.total_us);
  // A clone reads and writes the tensor once each.
  EXPECT_DOUBLE_EQ(kernels[0].bytes, 2.0 * 64 * 128 * 4);

  GraphCost gc = graph_cost(g, custom_registry(), m);
  const NodeCost& nc = *std::find_if(gc.nodes.begin(), gc.nodes.end(),
                                     [&](const NodeCost& n) { return n.node == af; });
  EXPECT_EQ(nc.cost.kernel_count, 2u);
  EXPECT_DOUBLE_EQ(nc.cost.total_us, want.op.total_us + want.clones[0].total_us);
  EXPECT_DOUBLE_EQ(nc.cost.bytes, want.op.bytes + want.clones[0].bytes);
  EXPECT_EQ(gc.kernels, 2u);  // custom::sin, clone (empty_like allocates: no kernel)
}

// The call costs what its decomposition (clone, then the op in place on the
// clone) costs: the same kernels, whichever way the graph spells them.
TEST(CostModel, AutoFunctionalizedCostsWhatItsDecompositionCosts) {
  Graph hop = parse_custom(kAfV1);
  Graph decomposed = parse_custom(
      fx(R"(x: "f32[64, 128]")",
         "        empty_like: \"f32[64, 128]\" = torch.ops.aten.empty_like.default(x)\n"
         "        clone: \"f32[64, 128]\" = torch.ops.aten.clone.default(empty_like)\n"
         "        sin = torch.ops.custom.sin.default(x, clone)\n",
         "clone"));
  for (ExecMode mode : {ExecMode::Eager, ExecMode::ReduceOverhead}) {
    NpuCostModel m = model(mode);
    GraphCost a = graph_cost(hop, custom_registry(), m);
    GraphCost b = graph_cost(decomposed, custom_registry(), m);
    EXPECT_EQ(a.kernels, b.kernels);
    EXPECT_NEAR(a.total_us, b.total_us, 1e-9);
    EXPECT_NEAR(a.simulated_us, b.simulated_us, 1e-9);
  }
}

TEST(CostModel, AutoFunctionalizedV2ClonesEachBaseAndRunsTheOpOnItsView) {
  Graph g = parse_custom(fx(
      R"(x: "f32[4, 256]")",
      "        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2("
      "torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (2, 256), _x_stride = (256, 1), "
      "_x_storage_offset = 256, _all_bases = [x])\n"
      "        getitem_1: \"f32[4, 256]\" = auto_functionalized_v2[1]\n",
      "getitem_1"));
  NpuCostModel m = model();
  std::vector<CostBreakdown> kernels =
      auto_functionalized_kernels(g, *g.find("auto_functionalized_v2"), custom_registry(), m);
  const ValueType& base = g.node(*g.find("x")).type;
  ValueType view = base;
  view.tensor.shape = Shape{SymInt(2), SymInt(256)};
  AfPieces want = af_pieces(m, "custom::boo", {view}, {base});
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_DOUBLE_EQ(kernels[0].total_us, want.clones[0].total_us);
  EXPECT_DOUBLE_EQ(kernels[0].bytes, 2.0 * 4 * 256 * 4);  // the whole base is cloned
  EXPECT_DOUBLE_EQ(kernels[1].bytes, 2.0 * 256 * 4);      // the op reads its view only
  EXPECT_DOUBLE_EQ(kernels[1].total_us, want.op.total_us);
}

TEST(CostModel, AutoFunctionalizedOfAnUnregisteredOpStaysOpaque) {
  Graph g = parse(kAfV1);  // builtins only: custom::sin is unknown
  NodeRef af = *g.find("auto_functionalized");
  EXPECT_TRUE(auto_functionalized_kernels(g, af, builtin_registry(), model()).empty());
  GraphCost gc = graph_cost(g, builtin_registry(), model());
  EXPECT_EQ(gc.kernels, 1u);  // the opaque call (empty_like allocates: no kernel)
}

// The launch pipeline (docs/cost-model.md): a profile with a host side for
// eager, launch 1 µs so a small kernel's device time (1 + 4 + tiny) is
// below its 10 µs dispatch.
DeviceProfile host_side() {
  DeviceProfile p = b2();
  p.set("launch_us.eager", 1);
  p.set("host_us.eager", 10);
  p.set("host_free_us.eager", 3);
  p.set("host_node_us.eager", 0.5);
  p.set("host_node_us.reduce-overhead", 7);  // ignored: reduce-overhead has no host side
  return p;
}

const std::string kSmallAdd =
    fx(R"(a: "bf16[16, 16]", b: "bf16[16, 16]")",
       "        add: \"bf16[16, 16]\" = torch.ops.aten.add.Tensor(a, b)\n"
       "        add_1: \"bf16[16, 16]\" = torch.ops.aten.add.Tensor(add, b)\n",
       "add_1");
const std::string kBigAdd =
    fx(R"(a: "bf16[8192, 2048]", b: "bf16[8192, 2048]")",
       "        add: \"bf16[8192, 2048]\" = torch.ops.aten.add.Tensor(a, b)\n"
       "        add_1: \"bf16[8192, 2048]\" = torch.ops.aten.add.Tensor(add, b)\n",
       "add_1");

TEST(CostModel, PipelineHostBoundKernelCostsItsHostTime) {
  Graph g = parse(kSmallAdd);
  CostBreakdown c = node_cost(g, "add", model(ExecMode::Eager, host_side()));
  EXPECT_TRUE(c.is_kernel);
  EXPECT_DOUBLE_EQ(c.launch_us, 1);
  EXPECT_NEAR(c.device_us, 1 + 4 + 1536 / kBytesPerUs + 0.05 * 256 / (11.06 * 0.7 * 1e6), 1e-9);
  EXPECT_DOUBLE_EQ(c.host_us, 10.5);  // host_us.eager + host_node_us.eager
  EXPECT_TRUE(c.host_bound);
  EXPECT_DOUBLE_EQ(c.total_us, 10.5);
}

TEST(CostModel, PipelineDeviceBoundKernelCostsItsDeviceTime) {
  Graph g = parse(kBigAdd);
  CostBreakdown c = node_cost(g, "add", model(ExecMode::Eager, host_side()));
  EXPECT_DOUBLE_EQ(c.host_us, 10.5);
  ASSERT_GT(c.device_us, 10.5);
  EXPECT_FALSE(c.host_bound);
  EXPECT_DOUBLE_EQ(c.total_us, c.device_us);
  EXPECT_DOUBLE_EQ(c.device_us, c.launch_us + c.fixed_us + std::max(c.memory_us, c.compute_us) +
                                    (1 - 0.95) * std::min(c.memory_us, c.compute_us));
}

TEST(CostModel, PipelineViewCostsItsHostDispatchOnlyWhereTheModeHasAHostSide) {
  Graph g = parse(fx(R"(a: "bf16[16, 1, 64]")",
                     "        view: \"bf16[16, 64]\" = torch.ops.aten.view.default(a, [16, 64])\n",
                     "view"));
  CostBreakdown eager = node_cost(g, "view", model(ExecMode::Eager, host_side()));
  EXPECT_FALSE(eager.is_kernel);
  EXPECT_EQ(eager.kernel_count, 0u);
  EXPECT_DOUBLE_EQ(eager.host_us, 3.5);  // host_free_us.eager + host_node_us.eager
  EXPECT_DOUBLE_EQ(eager.total_us, 3.5);
  EXPECT_DOUBLE_EQ(eager.launch_us, 0);
  EXPECT_DOUBLE_EQ(eager.device_us, 0);
  for (ExecMode mode : {ExecMode::ReduceOverhead, ExecMode::MaxAutotune}) {
    CostBreakdown c = node_cost(g, "view", model(mode, host_side()));
    EXPECT_FALSE(c.is_kernel) << exec_mode_name(mode);
    EXPECT_EQ(c.total_us, 0) << exec_mode_name(mode);
    EXPECT_EQ(c.host_us, 0) << exec_mode_name(mode);
  }
  // The graph: no kernel, the view's dispatch is its whole eager cost.
  GraphCost eg = graph_cost(g, builtin_registry(), model(ExecMode::Eager, host_side()));
  EXPECT_EQ(eg.kernels, 0u);
  EXPECT_DOUBLE_EQ(eg.total_us, 3.5);
  EXPECT_DOUBLE_EQ(eg.host_us, 3.5);
  GraphCost rg = graph_cost(g, builtin_registry(), model(ExecMode::ReduceOverhead, host_side()));
  EXPECT_DOUBLE_EQ(rg.total_us, 50);  // per_graph_us only
}

TEST(CostModel, PipelineWithoutHostParametersIsTheAdditiveModel) {
  ASSERT_FALSE(b2().params.contains("host_us.eager"));
  for (const std::string& text : {kAdd, kSmallAdd, kBigAdd}) {
    Graph g = parse(text);
    for (ExecMode mode : kAllExecModes) {
      CostBreakdown c = node_cost(g, "add", model(mode));
      double exec =
          std::max(c.memory_us, c.compute_us) + (1 - 0.95) * std::min(c.memory_us, c.compute_us);
      EXPECT_DOUBLE_EQ(c.total_us, c.launch_us + c.fixed_us + exec) << exec_mode_name(mode);
      EXPECT_EQ(c.total_us, c.device_us) << exec_mode_name(mode);
      EXPECT_EQ(c.host_us, 0) << exec_mode_name(mode);
      EXPECT_FALSE(c.host_bound) << exec_mode_name(mode);
    }
  }
  // host_node_us alone (no host_us / host_free_us) adds nothing either.
  DeviceProfile p = b2();
  p.set("host_node_us.eager", 5);
  Graph g = parse(kAdd);
  EXPECT_EQ(node_cost(g, "add", model(ExecMode::Eager, p)).total_us,
            node_cost(g, "add", model(ExecMode::Eager)).total_us);
  EXPECT_EQ(graph_cost(g, builtin_registry(), model(ExecMode::Eager, p)).total_us,
            graph_cost(g, builtin_registry(), model(ExecMode::Eager)).total_us);
}

TEST(CostModel, PerModeOverridesApplyOnlyInTheirMode) {
  Graph g = parse(kAdd);
  constexpr size_t kEager = static_cast<size_t>(ExecMode::Eager);
  constexpr size_t kRo = static_cast<size_t>(ExecMode::ReduceOverhead);
  CostBreakdown base_eager = node_cost(g, "add", model(ExecMode::Eager));
  CostBreakdown base_ro = node_cost(g, "add", model(ExecMode::ReduceOverhead));

  // fixed_us.eager replaces the device time in eager only.
  DeviceProfile fixed = b2();
  fixed.overrides["aten::add.Tensor"].fixed_us_in[kEager] = 7;
  CostBreakdown fe = node_cost(g, "add", model(ExecMode::Eager, fixed));
  EXPECT_DOUBLE_EQ(fe.fixed_us, 7);
  EXPECT_DOUBLE_EQ(fe.total_us, 20 + 7);
  EXPECT_EQ(node_cost(g, "add", model(ExecMode::ReduceOverhead, fixed)).total_us, base_ro.total_us);
  EXPECT_EQ(node_cost(g, "add", model(ExecMode::MaxAutotune, fixed)).total_us,
            node_cost(g, "add", model(ExecMode::MaxAutotune)).total_us);

  // ... and wins over the mode-less fixed_us there.
  fixed.overrides["aten::add.Tensor"].fixed_us = 12;
  EXPECT_DOUBLE_EQ(node_cost(g, "add", model(ExecMode::Eager, fixed)).total_us, 20 + 7);
  EXPECT_DOUBLE_EQ(node_cost(g, "add", model(ExecMode::ReduceOverhead, fixed)).total_us, 2 + 12);

  // host_us.reduce-overhead gives that mode a host dispatch, only it.
  DeviceProfile host = b2();
  host.overrides["aten::add.Tensor"].host_us_in[kRo] = 30;
  CostBreakdown hr = node_cost(g, "add", model(ExecMode::ReduceOverhead, host));
  EXPECT_DOUBLE_EQ(hr.host_us, 30);
  EXPECT_DOUBLE_EQ(hr.device_us, base_ro.device_us);
  EXPECT_TRUE(hr.host_bound);
  EXPECT_DOUBLE_EQ(hr.total_us, 30);
  CostBreakdown he = node_cost(g, "add", model(ExecMode::Eager, host));
  EXPECT_EQ(he.host_us, 0);
  EXPECT_EQ(he.total_us, base_eager.total_us);

  // Under a profile with an eager host side the override replaces host_us.eager.
  DeviceProfile hs = host_side();
  hs.overrides["aten::add.Tensor"].host_us_in[kEager] = 2;
  Graph small = parse(kSmallAdd);
  EXPECT_DOUBLE_EQ(node_cost(small, "add", model(ExecMode::Eager, hs)).host_us, 2 + 0.5);
  EXPECT_DOUBLE_EQ(node_cost(small, "add", model(ExecMode::Eager, host_side())).host_us, 10.5);
  // Other ops keep the profile's host time.
  hs.overrides.erase("aten::add.Tensor");
  hs.overrides["aten::mul.Tensor"].host_us_in[kEager] = 2;
  EXPECT_DOUBLE_EQ(node_cost(small, "add", model(ExecMode::Eager, hs)).host_us, 10.5);
}

// With a host side the device waits for each dispatch: a host-bound stream
// takes the host sum plus the last kernel's device time, a device-bound
// one the first dispatch plus the device sum.
TEST(CostModel, PipelineSimulation) {
  NpuCostModel m = model(ExecMode::Eager, host_side());
  auto kernel = [](double host, double device) {
    CostBreakdown k;
    k.is_kernel = true;
    k.kernel_count = 1;
    k.host_us = host;
    k.device_us = device;
    k.launch_us = 1;
    k.total_us = std::max(host, device);
    return k;
  };
  std::vector<CostBreakdown> host_bound = {kernel(10, 2), kernel(10, 3), kernel(10, 4)};
  EXPECT_DOUBLE_EQ(m.simulate_us(host_bound), 30 + 4);
  std::vector<CostBreakdown> device_bound = {kernel(2, 10), kernel(3, 10), kernel(4, 10)};
  EXPECT_DOUBLE_EQ(m.simulate_us(device_bound), 2 + 30);
  // A view between kernels is host time only.
  CostBreakdown view;
  view.host_us = 5;
  view.total_us = 5;
  std::vector<CostBreakdown> with_view = {kernel(10, 2), view, kernel(10, 2)};
  EXPECT_DOUBLE_EQ(m.simulate_us(with_view), 25 + 2);

  // Whole graphs.
  GraphCost small = graph_cost(parse(kSmallAdd), builtin_registry(), m);
  ASSERT_EQ(small.nodes.size(), 2u);
  EXPECT_EQ(small.host_bound, 2u);
  EXPECT_DOUBLE_EQ(small.total_us, 2 * 10.5);
  EXPECT_DOUBLE_EQ(small.host_us, 2 * 10.5);
  EXPECT_NEAR(small.simulated_us, 2 * 10.5 + small.nodes[1].cost.device_us, 1e-9);
  GraphCost big = graph_cost(parse(kBigAdd), builtin_registry(), m);
  EXPECT_EQ(big.host_bound, 0u);
  double devices = big.nodes[0].cost.device_us + big.nodes[1].cost.device_us;
  EXPECT_NEAR(big.total_us, devices, 1e-9);
  EXPECT_NEAR(big.simulated_us, 10.5 + devices, 1e-9);
}

TEST(CostModel, MissingParameterIsReportedAtConstruction) {
  DeviceProfile p = b2();
  p.params.erase("eff_vec");
  try {
    NpuCostModel m(p, ExecMode::Eager);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'ascend910b2' has no parameter 'eff_vec'"),
              std::string::npos)
        << e.what();
  }
}

// Frozen inputs (docs/cost-model.md "Frozen inputs"): what reads only frozen inputs
// and literals is computed once, so it costs nothing per call and is no kernel; what
// also reads an activation, draws random numbers or writes in place still runs.
TEST(CostModel, NodesOfFrozenInputsAloneAreFoldedOnce) {
  Graph g = parse(fx(R"(x: "bf16[16, 64]", w1: "bf16[32, 64]", w2: "bf16[32, 64]")",
                     "        cat: \"bf16[64, 64]\" = torch.ops.aten.cat.default([w1, w2])\n"
                     "        t: \"bf16[64, 64]\" = torch.ops.aten.t.default(cat)\n"
                     "        ones: \"bf16[64]\" = torch.ops.aten.ones.default([64], dtype = "
                     "torch.bfloat16)\n"
                     "        mm: \"bf16[16, 64]\" = torch.ops.aten.mm.default(x, t)\n"
                     "        noise: \"bf16[32, 64]\" = torch.ops.aten.rand_like.default(w1)\n"
                     "        add: \"bf16[16, 64]\" = torch.ops.aten.add.Tensor(mm, ones)\n",
                     "add, noise"));
  NpuCostModel m = model();
  GraphCost plain = graph_cost(g, builtin_registry(), m);
  m.set_frozen_inputs({"w?"});
  ASSERT_TRUE(m.folds_constants());
  EXPECT_TRUE(m.is_frozen_input("w1"));
  EXPECT_FALSE(m.is_frozen_input("x"));
  GraphCost frozen = graph_cost(g, builtin_registry(), m);
  auto cost_of = [&](const GraphCost& c, const std::string& name) {
    for (const NodeCost& nc : c.nodes)
      if (g.node(nc.node).name == name) return nc.cost;
    ADD_FAILURE() << "no node " << name;
    return CostBreakdown{};
  };
  for (const char* folded : {"cat", "t", "ones"}) {
    EXPECT_TRUE(cost_of(plain, folded).is_kernel) << folded;
    EXPECT_FALSE(cost_of(frozen, folded).is_kernel) << folded;
    EXPECT_EQ(cost_of(frozen, folded).total_us, 0.0) << folded;
    EXPECT_EQ(cost_of(frozen, folded).note, kFoldedNote) << folded;
  }
  for (const char* runs : {"mm", "noise", "add"})
    EXPECT_EQ(cost_of(frozen, runs).total_us, cost_of(plain, runs).total_us) << runs;
  EXPECT_EQ(frozen.kernels, plain.kernels - 3);
}

// A folded value that a later call writes in place (the reinplace passes can make one)
// changes every call: the runtime cannot compute it once, so it is priced as a kernel.
TEST(CostModel, AFrozenValueWrittenInPlaceIsNotFolded) {
  Graph g = parse(fx(R"(x: "bf16[32, 64]", w: "bf16[32, 64]")",
                     "        zeros: \"bf16[32, 64]\" = torch.ops.aten.zeros_like.default(w)\n"
                     "        view: \"bf16[2048]\" = torch.ops.aten.view.default(zeros, [2048])\n"
                     "        flat: \"bf16[2048]\" = torch.ops.aten.view.default(x, [2048])\n"
                     "        add_: \"bf16[2048]\" = torch.ops.aten.add_.Tensor(view, flat)\n"
                     "        t: \"bf16[64, 32]\" = torch.ops.aten.t.default(w)\n",
                     "add_, t"));
  NpuCostModel m = model();
  m.set_frozen_inputs({"w"});
  GraphCost c = graph_cost(g, builtin_registry(), m);
  for (const NodeCost& nc : c.nodes) {
    const std::string& name = g.node(nc.node).name;
    if (name == "zeros") {
      EXPECT_TRUE(nc.cost.is_kernel);
    }
    if (name == "t") {
      EXPECT_EQ(nc.cost.note, kFoldedNote);
    }
  }
}

// The reinplace passes turn `arange(8) + 0` (positions computed from nothing but
// literals) into an in-place add on the arange: a write of constants into memory the
// graph made is part of computing the constant once, so the chain stays folded. A
// frozen input written in place, even with constants, changes every call.
TEST(CostModel, ConstantsWrittenInPlaceWithConstantsStayFolded) {
  Graph g = parse(fx(R"(x: "f32[8]", w: "f32[8]")",
                     "        arange: \"i64[8]\" = torch.ops.aten.arange.default(8, device = "
                     "device(type='cpu'), pin_memory = False)\n"
                     "        add: \"i64[8]\" = torch.ops.aten.add_.Tensor(arange, 0)\n"
                     "        pos: \"f32[8]\" = torch.ops.aten._to_copy.default(add, dtype = "
                     "torch.float32)\n"
                     "        bump: \"f32[8]\" = torch.ops.aten.add_.Tensor(w, 1.0)\n"
                     "        t: \"f32[8]\" = torch.ops.aten.mul.Tensor(w, 2.0)\n"
                     "        out: \"f32[8]\" = torch.ops.aten.add.Tensor(x, pos)\n",
                     "out, bump, t"));
  NpuCostModel m = model();
  m.set_frozen_inputs({"w"});
  GraphCost c = graph_cost(g, builtin_registry(), m);
  std::map<std::string, CostBreakdown> by_name;
  for (const NodeCost& nc : c.nodes) by_name[g.node(nc.node).name] = nc.cost;
  for (const char* folded : {"arange", "add", "pos"})
    EXPECT_EQ(by_name[folded].note, kFoldedNote) << folded;
  for (const char* runs : {"bump", "t", "out"}) EXPECT_TRUE(by_name[runs].is_kernel) << runs;
}

TEST(CostModel, FrozenPatternsUseShellWildcardsAndMustNameAnInput) {
  EXPECT_TRUE(wildcard_match("*", ""));
  EXPECT_TRUE(wildcard_match("_param_constant*", "_param_constant12"));
  EXPECT_TRUE(wildcard_match("arg?_1", "arg3_1"));
  EXPECT_FALSE(wildcard_match("arg?_1", "arg13_1"));
  EXPECT_TRUE(wildcard_match("*w*q", "layer0_wq"));
  EXPECT_FALSE(wildcard_match("w", "wq"));
  Graph g = parse(kAdd);
  EXPECT_NO_THROW(check_frozen_inputs(g, {"a", "?"}));
  try {
    check_frozen_inputs(g, {"weight*"});
    ADD_FAILURE() << "no error for a pattern that matches no input";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "frozen inputs: 'weight*' matches no graph input (inputs: a, b)");
  }
  EXPECT_THROW(check_frozen_inputs(g, {""}), Error);
}

// ---- hints that make sizes leave int64 (fuzz findings) ----

// Was: UB in SymInt::evaluate under SymbolHints::evaluate <- numel_of <- kernel_cost.
TEST(SymbolHintsOverflow, EvaluateThrowsInsteadOfWrapping) {
  SymbolHints hints;
  hints.values["s0"] = int64_t{1} << 62;
  EXPECT_EQ(hints.evaluate(SymInt::symbol("s0")), int64_t{1} << 62);
  EXPECT_THROW((void)hints.evaluate(SymInt::symbol("s0") * 4096), IntOverflow);
  EXPECT_THROW((void)hints.evaluate(SymInt::parse("s0*s1")), IntOverflow);  // s1: fallback 1024
  hints.fallback = std::numeric_limits<int64_t>::max();
  EXPECT_THROW((void)hints.evaluate(SymInt::parse("s1 + 1")), IntOverflow);
  EXPECT_THROW((void)hints.evaluate(SymInt::parse("2*s1")), IntOverflow);
  EXPECT_EQ(hints.evaluate(SymInt::parse("s1 - 1")), std::numeric_limits<int64_t>::max() - 1);
}

TEST(SymbolHintsOverflow, SizesThatLeaveInt64UnderTheHintsAreNamed) {
  Graph g = parse(fx(R"(x: "f32[s0, 4096]")",
                     "        mul: \"f32[s0, 4096]\" = torch.ops.aten.mul.Tensor(x, x)\n", "mul"));
  SymbolHints hints;
  hints.values["s0"] = int64_t{1} << 62;
  try {
    check_sizes_fit(g, hints);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "size of input 'x' f32[s0, 4096] with s0=4611686018427387904 does not fit in 63 "
                 "bits");
    EXPECT_EQ(e.loc().line, 2);
  }
  NpuCostModel model(b2(), ExecMode::Eager, hints);
  EXPECT_THROW(graph_cost(g, builtin_registry(), model), Error);
  hints.values["s0"] = int64_t{1} << 49;  // 2^49 x 4096 x 4 bytes = 2^63: just too large
  EXPECT_THROW(check_sizes_fit(g, hints), Error);
  hints.values["s0"] = (int64_t{1} << 49) - 1;
  EXPECT_NO_THROW(check_sizes_fit(g, hints));
  GraphCost c = graph_cost(g, builtin_registry(), NpuCostModel(b2(), ExecMode::Eager, hints));
  EXPECT_GT(c.total_us, 0);
}

// A dim that evaluates below 0 under the hints counts as 0 elements, never as
// negative bytes or flops.
TEST(SymbolHintsOverflow, CostsNeverGoNegative) {
  Graph g =
      parse(fx(R"(a: "bf16[s0 - 8, 64]", b: "bf16[64, s0 - 8]")",
               "        mm: \"bf16[s0 - 8, s0 - 8]\" = torch.ops.aten.mm.default(a, b)\n", "mm"));
  SymbolHints hints;
  hints.values["s0"] = 1;
  CostBreakdown c = node_cost(g, "mm", NpuCostModel(b2(), ExecMode::Eager, hints));
  EXPECT_GE(c.bytes, 0);
  EXPECT_GE(c.flops, 0);
  EXPECT_GT(c.total_us, 0);
}

}  // namespace
}  // namespace eqfuse
