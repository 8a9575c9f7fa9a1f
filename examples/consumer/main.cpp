// Uses eqfuse as a library: loads an FX graph from a string, registers a
// replacement of its own (TorchAir's register_replacement, in C++), optimizes
// under the default NPU cost model, checks the result against the input with
// the reference interpreter, and prints the graph and the explanation.
#include <cstdio>
#include <iostream>

#include <eqfuse/eqfuse.hpp>

namespace {

constexpr const char* kGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[16, 128]", x2: "bf16[16, 128]", gamma: "bf16[128]", w: "bf16[128, 128]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
        y: "bf16[16, 128]" = npu_add_rms_norm[0]
        x_out: "bf16[16, 128]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(y)
        q: "i8[16, 128]" = npu_dynamic_quant[0]
        scale: "f32[16]" = npu_dynamic_quant[1]
        neg: "bf16[16, 128]" = torch.ops.aten.neg.default(x_out)
        neg_1: "bf16[16, 128]" = torch.ops.aten.neg.default(neg)
        return (q, scale, neg_1)
)";

}  // namespace

int main() {
  using namespace eqfuse;
  try {
    const OpRegistry reg = OpRegistry::with_builtin_ops();
    const Graph input = load_graph(kGraph, "consumer.fx", reg).graph;

    // A user rule: neg(neg(a)) is a.
    RuleLibrary library = RuleLibrary::builtin(reg);
    auto search = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
      return {b.call("aten::neg", {b.call("aten::neg", {in[0]})})};
    };
    auto replace = [](GraphBuilder&, std::span<const Arg> in) -> std::vector<Arg> {
      return {in[0]};
    };
    const std::vector<ExampleInput> examples{{"a", parse_annotation("bf16[16, 128]"), {}}};
    register_replacement(library, search, replace, examples,
                         {.name = "user/double-neg", .labels = {"user"}, .bidirectional = false});

    OptimizeOptions options;
    options.library = &library;
    const OptimizeResult result = optimize_graph(input, reg, options);

    EquivalenceOptions check;
    check.mode = ToleranceMode::Rounding;
    const EquivalenceResult same = equivalent(input, result.graph, reg, check);

    std::cout << print_fx(result.graph, &reg);
    std::cerr << format_summary(result.stats);
    std::cerr << format_explanation_text(explain_run(result, reg));
    std::cerr << (same.ok ? "equivalent to the input\n"
                          : "NOT equivalent: " + same.first_mismatch + "\n");
    return same.ok && result.stats.kernels_after < result.stats.kernels_before ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
}
