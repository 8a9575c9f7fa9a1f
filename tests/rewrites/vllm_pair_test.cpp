// The vllm-ascend issue 4239 before/after pair (tests/scenarios/vllm, README.md there):
//  * the raw graph() dumps in tests/data/fx-dumps type-check with input_types.txt, and the
//    stored typed print_readable copies print exactly like them;
//  * the fusion sites correspond: every npu_add_rms_norm -> npu_quantize site of the
//    "before" graph is, in the "after" graph, either fused into npu_add_rms_norm_quant
//    (with the same inputs, scales turned into reciprocal(scales) * 1.0) or unchanged;
//  * the fused site computes the same values as the unfused one at the fusion boundary
//    (the site cut out with its inputs as placeholders). The whole graphs are not
//    compared end to end: quantize(x * s) and quantize(x / (1 / s)) may differ by one
//    int8 step, and the following quant matmul amplifies that step.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "graph/io/fx_printer.hpp"
#include "graph/io/input_types.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "interp/equivalence.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

fs::path pair_dir() {
  return fs::path(EQFUSE_SOURCE_DIR) / "tests" / "scenarios" / "vllm";
}
fs::path raw_dump(int part) {
  return fs::path(EQFUSE_TEST_DATA) / "fx-dumps" /
         ("vllm-ascend-issue-4239_" + std::to_string(part) + ".txt");
}

LoadedGraph load_raw(int part, const OpRegistry& reg) {
  const fs::path types_path = pair_dir() / "input_types.txt";
  LoadOptions options;
  options.input_types = parse_input_types(read_file_or_stdin(types_path), types_path.string());
  return load_graph(read_file_or_stdin(raw_dump(part)), raw_dump(part).string(), reg, options);
}

LoadedGraph load_typed(std::string_view which, const OpRegistry& reg) {
  const fs::path path = pair_dir() / ("issue4239_" + std::string(which) + ".fx");
  return load_graph(read_file_or_stdin(path), path.string(), reg);
}

class VllmPair : public testing::Test {
 protected:
  void SetUp() override {
    try {
      before_ = load_typed("before", reg_);
      after_ = load_typed("after", reg_);
    } catch (const Error& e) {
      FAIL() << e.render();
    }
  }
  const Graph& before() const { return before_.graph; }
  const Graph& after() const { return after_.graph; }

  OpRegistry reg_ = OpRegistry::with_builtin_ops();
  LoadedGraph before_, after_;
};

void expect_fully_typed(const LoadedGraph& loaded) {
  EXPECT_EQ(loaded.opaque_ops, std::vector<std::string>{});
  size_t placeholders = 0;
  for (const Node& n : loaded.graph.nodes()) {
    if (n.kind == NodeKind::Output) continue;
    EXPECT_TRUE(n.type.is_known()) << n.name << " has no type";
    placeholders += n.kind == NodeKind::Placeholder;
  }
  EXPECT_EQ(placeholders, 26u);  // arg0_1 ... arg25_1
}

TEST_F(VllmPair, RawDumpsTypeCheckWithTheInputTypes) {
  for (int part : {1, 2}) {
    SCOPED_TRACE(raw_dump(part).string());
    try {
      expect_fully_typed(load_raw(part, reg_));
    } catch (const Error& e) {
      FAIL() << e.render();
    }
  }
  expect_fully_typed(before_);
  expect_fully_typed(after_);
}

TEST_F(VllmPair, TypedCopiesPrintLikeTheRawDumps) {
  EXPECT_EQ(print_fx(before(), &reg_), print_fx(load_raw(1, reg_).graph, &reg_));
  EXPECT_EQ(print_fx(after(), &reg_), print_fx(load_raw(2, reg_).graph, &reg_));
}

// --- fusion sites -------------------------------------------------------------------------

const Arg& arg(const Graph& g, const OpRegistry& reg, NodeRef call, std::string_view name) {
  const Node& n = g.node(call);
  const int index = reg.info(n.op).schema.arg_index(name);
  if (index < 0) throw std::runtime_error(n.target + " has no argument " + std::string(name));
  return n.args.at(static_cast<size_t>(index));
}

std::string arg_name(const Graph& g, const OpRegistry& reg, NodeRef call, std::string_view name) {
  const Arg& a = arg(g, reg, call, name);
  return a.is_node() ? g.node(a.node()).name : "<literal>";
}

NodeRef node_named(const Graph& g, std::string_view name) {
  const std::optional<NodeRef> r = g.find(name);
  if (!r) throw std::runtime_error("no node " + std::string(name));
  return *r;
}

// An unfused rule (e) site: npu_quantize(npu_add_rms_norm(...)[0], ...).
struct UnfusedSite {
  NodeRef norm, quantize;
};

std::vector<UnfusedSite> unfused_sites(const Graph& g, const OpRegistry& reg) {
  std::vector<UnfusedSite> sites;
  for (size_t i = 0; i < g.size(); ++i) {
    const NodeRef quantize{static_cast<int32_t>(i)};
    if (g.node(quantize).target != "npu::npu_quantize") continue;
    const Arg& input = arg(g, reg, quantize, "self");
    if (!input.is_node() || g.node(input.node()).kind != NodeKind::GetItem) continue;
    const Node& y = g.node(input.node());
    if (y.getitem_index() == 0 && g.node(y.getitem_source()).target == "npu::npu_add_rms_norm")
      sites.push_back({y.getitem_source(), quantize});
  }
  return sites;
}

std::vector<NodeRef> calls_to(const Graph& g, std::string_view target) {
  std::vector<NodeRef> calls;
  for (size_t i = 0; i < g.size(); ++i)
    if (g.nodes()[i].target == target) calls.push_back({static_cast<int32_t>(i)});
  return calls;
}

TEST_F(VllmPair, FusionSitesCorrespond) {
  const std::vector<UnfusedSite> sites_before = unfused_sites(before(), reg_);
  const std::vector<UnfusedSite> sites_after = unfused_sites(after(), reg_);
  const std::vector<NodeRef> fused_after = calls_to(after(), "npu::npu_add_rms_norm_quant");
  // The pass fused the second site only (the first keeps its unfused pair).
  ASSERT_EQ(sites_before.size(), 2u);
  ASSERT_EQ(fused_after.size(), 1u);
  ASSERT_EQ(sites_after.size(), 1u);
  EXPECT_EQ(sites_before.size(), sites_after.size() + fused_after.size());
  EXPECT_TRUE(calls_to(before(), "npu::npu_add_rms_norm_quant").empty());
  EXPECT_EQ(before().node(sites_after[0].quantize).name,
            after().node(sites_after[0].quantize).name);
  EXPECT_EQ(after().node(sites_after[0].quantize).name, "npu_quantize_1");

  // The fused op takes the second site's inputs.
  const UnfusedSite& site = sites_before[1];
  const NodeRef fused = fused_after[0];
  for (auto [unfused_arg, fused_arg] : {std::pair{"x1", "x1"}, {"x2", "x2"}, {"gamma", "gamma"}})
    EXPECT_EQ(arg_name(before(), reg_, site.norm, unfused_arg),
              arg_name(after(), reg_, fused, fused_arg));
  EXPECT_EQ(arg_name(before(), reg_, site.quantize, "zero_points"),
            arg_name(after(), reg_, fused, "zero_points1"));
  // quantize(y * s) (div_mode False) became y / scales1 with scales1 = reciprocal(s) * 1.0.
  EXPECT_EQ(arg(before(), reg_, site.quantize, "div_mode"), Arg(false));
  EXPECT_EQ(arg(after(), reg_, fused, "div_mode"), Arg(true));
  const NodeRef mul = arg(after(), reg_, fused, "scales1").node();
  ASSERT_EQ(after().node(mul).target, "aten::mul.Tensor");
  const NodeRef reciprocal = arg(after(), reg_, mul, "self").node();
  ASSERT_EQ(after().node(reciprocal).target, "aten::reciprocal");
  EXPECT_EQ(arg_name(after(), reg_, reciprocal, "self"),
            arg_name(before(), reg_, site.quantize, "scales"));

  // Its outputs replace the site's: y1 feeds the qkv quant matmul, x is returned in place of xOut.
  EXPECT_EQ(arg_name(after(), reg_, node_named(after(), "npu_quant_matmul_2"), "x1"), "getitem_15");
  EXPECT_EQ(arg_name(before(), reg_, node_named(before(), "npu_quant_matmul_2"), "x1"),
            before().node(site.quantize).name);
  EXPECT_EQ(before().node(before().output_values().back()).name, "getitem_5");
  EXPECT_EQ(after().node(after().output_values().back()).name, "getitem_16");
}

// --- equivalence at the fusion boundary -----------------------------------------------------

// The part of `g` that computes `outputs` from `inputs`: `inputs` (then every graph input
// reached) become placeholders with their types, the nodes in between are copied in
// program order, and the output returns `outputs`.
Graph cut(const Graph& g, const std::vector<std::string>& inputs,
          const std::vector<std::string>& outputs) {
  std::vector<bool> needed(g.size()), is_input(g.size());
  for (const std::string& name : inputs) is_input[node_named(g, name).index] = true;
  std::vector<NodeRef> pending;
  for (const std::string& name : outputs) pending.push_back(node_named(g, name));
  while (!pending.empty()) {
    const NodeRef r = pending.back();
    pending.pop_back();
    if (needed[r.index]) continue;
    needed[r.index] = true;
    if (is_input[r.index] || g.node(r).kind == NodeKind::Placeholder) continue;
    for (NodeRef in : node_inputs(g.node(r))) pending.push_back(in);
  }
  Graph part;
  std::vector<NodeRef> copy_of(g.size());
  auto add_placeholder = [&](NodeRef r) {
    Node p;
    p.kind = NodeKind::Placeholder;
    p.name = p.target = g.node(r).name;
    p.type = g.node(r).type;
    p.type_annotated = true;
    copy_of[r.index] = part.add(std::move(p));
  };
  for (const std::string& name : inputs) add_placeholder(node_named(g, name));
  for (size_t i = 0; i < g.size(); ++i)
    if (needed[i] && !is_input[i] && g.nodes()[i].kind == NodeKind::Placeholder)
      add_placeholder({static_cast<int32_t>(i)});
  auto remap = [&](auto& self, Arg& a) -> void {
    if (a.is_node()) a = Arg(copy_of[a.node().index]);
    if (a.is_list())
      for (Arg& item : std::get<ArgList>(a.value).items) self(self, item);
  };
  for (size_t i = 0; i < g.size(); ++i) {
    if (!needed[i] || is_input[i] || g.nodes()[i].kind == NodeKind::Placeholder) continue;
    Node n = g.nodes()[i];
    for (Arg& a : n.args) remap(remap, a);
    for (auto& [key, a] : n.kwargs) remap(remap, a);
    copy_of[i] = part.add(std::move(n));
  }
  std::vector<Arg> returned;
  for (const std::string& name : outputs) returned.emplace_back(copy_of[node_named(g, name).index]);
  Node out;
  out.kind = NodeKind::Output;
  out.name = "output";
  out.args.push_back(Arg::list(std::move(returned), /*tuple=*/true));
  part.add(std::move(out));
  return part;
}

// Three trials tolerating one int8 step (the fused op skips the bf16 rounding of y).
EquivalenceOptions rounding_options() {
  EquivalenceOptions options;
  options.trials = 3;
  options.seed = 4239;
  options.mode = ToleranceMode::Rounding;
  return options;
}

RandomInputOptions registry_options(const OpRegistry& reg) {
  RandomInputOptions options;
  options.registry = &reg;
  return options;
}

std::vector<std::string> placeholder_names(const Graph& g) {
  std::vector<std::string> names;
  for (NodeRef r : g.placeholders()) names.push_back(g.node(r).name);
  return names;
}

TEST_F(VllmPair, FusedSiteIsEquivalentAtTheFusionBoundary) {
  // Boundary: the site's activations (mm, getitem_2) and weights (arg15_1 gamma, arg16_1
  // scales, arg17_1 zero points); outputs: the int8 activation and the residual xOut.
  const Graph unfused = cut(before(), {"mm", "getitem_2"}, {"npu_quantize_2", "getitem_5"});
  const Graph fused = cut(after(), {"mm", "getitem_2"}, {"getitem_15", "getitem_16"});
  const std::vector<std::string> inputs{"mm", "getitem_2", "arg15_1", "arg16_1", "arg17_1"};
  ASSERT_EQ(placeholder_names(unfused), inputs);
  ASSERT_EQ(placeholder_names(fused), inputs);
  EXPECT_EQ(calls_to(unfused, "npu::npu_add_rms_norm").size(), 1u);
  EXPECT_EQ(calls_to(fused, "npu::npu_add_rms_norm_quant").size(), 1u);

  EquivalenceResult r = equivalent(unfused, fused, reg_, rounding_options());
  EXPECT_TRUE(r.ok) << r.first_mismatch;
  EXPECT_EQ(r.trials_run, 3);
  // The comparison has teeth: the same fused op fed the raw scales (x / s instead of
  // x * s, i.e. without the reciprocal) is reported as different.
  Graph wrong_scales = fused;
  const NodeRef fused_op = calls_to(wrong_scales, "npu::npu_add_rms_norm_quant").at(0);
  const int scales1 = reg_.info(wrong_scales.node(fused_op).op).schema.arg_index("scales1");
  wrong_scales.node(fused_op).args.at(static_cast<size_t>(scales1)) =
      Arg(node_named(wrong_scales, "arg16_1"));
  EXPECT_FALSE(equivalent(unfused, wrong_scales, reg_, rounding_options()).ok);
  // xOut = x1 + x2 is computed the same way in both: bit-exact on the same inputs.
  const RandomInputs in = random_inputs(unfused, 4239, registry_options(reg_));
  const Interpreter interpreter(reg_);
  const RunResult unfused_run = interpreter.run(unfused, in.values, in.bindings);
  const RunResult fused_run = interpreter.run(fused, in.values, in.bindings);
  EXPECT_EQ(
      compare_values(unfused_run.outputs[1], fused_run.outputs[1], {}, DType::BFloat16, "xOut"),
      "");
}

TEST_F(VllmPair, UnfusedSiteIsIdenticalInBothGraphs) {
  // The first site (post-attention norm -> gate_up quantize) was left alone by the pass.
  const std::vector<std::string> inputs{"npu_quant_matmul"};
  const std::vector<std::string> outputs{"npu_quantize_1", "getitem_2"};
  const Graph site_before = cut(before(), inputs, outputs);
  EXPECT_EQ(calls_to(site_before, "npu::npu_add_rms_norm").size(), 1u);
  EXPECT_EQ(print_fx(site_before, &reg_), print_fx(cut(after(), inputs, outputs), &reg_));
}

}  // namespace
}  // namespace eqfuse
