// Graph I/O benchmark: generates a ~100,000-node FX graph (repeated
// decoder-style blocks: npu_add_rms_norm, npu_dynamic_quant,
// npu_quant_matmul, npu_swiglu, view/transpose/bmm, casts, elementwise ops,
// symbolic batch s0) and measures, each as nodes per second:
//   parse (parse_fx), resolve + infer types, print (print_fx),
//   JSON save and load, and interpretation with the reference interpreter
//   on random inputs (s0 = 4, hidden 64),
// plus peak resident memory (getrusage ru_maxrss) after each phase.
// Usage: graph_io_bench [NODES]   (default 100000). Figures are recorded in
// docs/benchmarks.md ("Graph I/O").
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include <fmt/format.h>

#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "graph/op_registry.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"

namespace {

using namespace eqfuse;

// Torch-style node names: `op`, `op_1`, `op_2`, ...
class Namer {
 public:
  std::string operator()(const std::string& base) {
    int k = counts_[base]++;
    return k == 0 ? base : fmt::format("{}_{}", base, k);
  }

 private:
  std::map<std::string, int> counts_;
};

struct Generated {
  std::string text;
  size_t nodes = 0;
};

// One block maps (h, res) to (h', res'); all blocks share the weights.
Generated generate_graph(size_t target_nodes) {
  Generated g;
  std::string& t = g.text;
  t += "class GraphModule(torch.nn.Module):\n";
  t += "    def forward(self, arg0_1: \"bf16[s0, 64]\", arg1_1: \"bf16[s0, 64]\", "
       "arg2_1: \"bf16[64]\", arg3_1: \"i8[64, 128]\", arg4_1: \"f32[128]\", "
       "arg5_1: \"bf16[4, 16, 16]\"):\n";
  g.nodes = 6;
  Namer name;
  auto line = [&](const std::string& s) {
    t += "        ";
    t += s;
    t += '\n';
    ++g.nodes;
  };
  std::string sym = name("sym_size_int");
  line(fmt::format("{}: \"Sym(s0)\" = torch.ops.aten.sym_size.int(arg0_1, 0)", sym));
  std::string h = "arg0_1", res = "arg1_1";
  while (g.nodes + 20 < target_nodes) {
    std::string norm = name("npu_add_rms_norm");
    line(fmt::format("{} = torch.ops.npu.npu_add_rms_norm.default({}, {}, arg2_1)", norm, h, res));
    std::string y = name("getitem"), x = name("getitem");
    line(fmt::format("{}: \"bf16[s0, 64]\" = {}[0]", y, norm));
    line(fmt::format("{}: \"bf16[s0, 64]\" = {}[2]", x, norm));
    std::string dq = name("npu_dynamic_quant");
    line(fmt::format("{} = torch.ops.npu.npu_dynamic_quant.default({})", dq, y));
    std::string q = name("getitem"), scale = name("getitem");
    line(fmt::format("{}: \"i8[s0, 64]\" = {}[0]", q, dq));
    line(fmt::format("{}: \"f32[s0]\" = {}[1]", scale, dq));
    std::string mm = name("npu_quant_matmul");
    line(
        fmt::format("{}: \"bf16[s0, 128]\" = torch.ops.npu.npu_quant_matmul.default({}, arg3_1, "
                    "arg4_1, pertoken_scale = {}, output_dtype = torch.bfloat16)",
                    mm, q, scale));
    std::string act = name("npu_swiglu");
    line(fmt::format("{}: \"bf16[s0, 64]\" = torch.ops.npu.npu_swiglu.default({})", act, mm));
    std::string v = name("view");
    line(fmt::format("{}: \"bf16[s0, 4, 16]\" = torch.ops.aten.view.default({}, [{}, 4, 16])", v,
                     act, sym));
    std::string tr = name("transpose");
    line(fmt::format("{}: \"bf16[4, s0, 16]\" = torch.ops.aten.transpose.int({}, 0, 1)", tr, v));
    std::string bmm = name("bmm");
    line(fmt::format("{}: \"bf16[4, s0, 16]\" = torch.ops.aten.bmm.default({}, arg5_1)", bmm, tr));
    std::string tr2 = name("transpose");
    line(fmt::format("{}: \"bf16[s0, 4, 16]\" = torch.ops.aten.transpose.int({}, 0, 1)", tr2, bmm));
    std::string cl = name("clone");
    line(
        fmt::format("{}: \"bf16[s0, 4, 16]\" = torch.ops.aten.clone.default({}, memory_format = "
                    "torch.contiguous_format)",
                    cl, tr2));
    std::string v2 = name("view");
    line(fmt::format("{}: \"bf16[s0, 64]\" = torch.ops.aten.view.default({}, [{}, 64])", v2, cl,
                     sym));
    std::string up = name("_to_copy");
    line(
        fmt::format("{}: \"f32[s0, 64]\" = torch.ops.aten._to_copy.default({}, dtype = "
                    "torch.float32)",
                    up, v2));
    std::string si = name("silu");
    line(fmt::format("{}: \"f32[s0, 64]\" = torch.ops.aten.silu.default({})", si, up));
    std::string mul = name("mul");
    line(fmt::format("{}: \"f32[s0, 64]\" = torch.ops.aten.mul.Tensor({}, 0.5)", mul, si));
    std::string down = name("_to_copy");
    line(
        fmt::format("{}: \"bf16[s0, 64]\" = torch.ops.aten._to_copy.default({}, dtype = "
                    "torch.bfloat16)",
                    down, mul));
    std::string add = name("add");
    line(fmt::format("{}: \"bf16[s0, 64]\" = torch.ops.aten.add.Tensor({}, {})", add, down, y));
    h = add;
    res = x;
  }
  t += fmt::format("        return ({}, {})\n", h, res);
  ++g.nodes;
  return g;
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is KiB on Linux
}

template <typename F>
double seconds_of(F&& f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void report(const char* phase, size_t nodes, double seconds) {
  fmt::print("{:<22} {:>9.3f} s {:>12.0f} nodes/s   peak RSS {:>7.1f} MiB\n", phase, seconds,
             static_cast<double>(nodes) / seconds, peak_rss_mib());
}

}  // namespace

int main(int argc, char** argv) {
  size_t target = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  double base_rss = peak_rss_mib();
  Generated gen;
  double gen_s = seconds_of([&] { gen = generate_graph(target); });
  fmt::print(
      "graph: {} nodes, {:.1f} MiB of FX text (generated in {:.3f} s); baseline RSS {:.1f} MiB\n",
      gen.nodes, static_cast<double>(gen.text.size()) / (1 << 20), gen_s, base_rss);

  OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g;
  report("parse", gen.nodes, seconds_of([&] { g = parse_fx(gen.text, "generated.fx"); }));
  report("resolve + infer", g.size(), seconds_of([&] {
           resolve_ops(g, reg);
           infer_types(g, reg);
         }));
  std::string printed;
  report("print (FX)", g.size(), seconds_of([&] { printed = print_fx(g, &reg); }));
  std::string json;
  report("save JSON", g.size(), seconds_of([&] { json = save_graph_json(g, -1, &reg); }));
  Graph back;
  report("load JSON", g.size(),
         seconds_of([&] { back = load_graph_json(json, "generated.json"); }));
  fmt::print("JSON size {:.1f} MiB; printed FX {:.1f} MiB\n",
             static_cast<double>(json.size()) / (1 << 20),
             static_cast<double>(printed.size()) / (1 << 20));

  RandomInputOptions opts;
  opts.registry = &reg;
  opts.bindings = {{"s0", 4}};
  RandomInputs in = random_inputs(g, 1, opts);
  Interpreter interp(reg);
  RunResult result;
  report("interpret (s0=4)", g.size(),
         seconds_of([&] { result = interp.run(g, in.values, in.bindings); }));
  fmt::print("outputs: {}\n", result.outputs.size());
  return 0;
}
