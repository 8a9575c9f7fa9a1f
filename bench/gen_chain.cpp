// Writes a long chain workload to stdout, for the scaling runs of
// bench/scale_chain.sh (linear time and memory per node, docs/benchmarks.md
// "Long chains"):
//
//   gen_chain fx N [add|mixed]   an FX graph of N elementwise calls, each
//                                reading the previous one:
//                                  add:   add_k = add(prev, arg1_1)
//                                  mixed: add, relu, add, relu, ...
//   gen_chain gym N              an extraction-gym (egraph-serialize) JSON
//                                chain of N e-classes; class k holds two
//                                nodes of different costs, both reading
//                                class k - 1, so every class has a choice.
//
//   build/bench/gen_chain fx 100000 mixed > /tmp/chain.fx
//   /usr/bin/time -f '%e s %M KB' build/eqfuse optimize /tmp/chain.fx -o /dev/null
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace {

int usage() {
  std::fprintf(stderr, "usage: gen_chain fx N [add|mixed] | gen_chain gym N\n");
  return 2;
}

void write_fx(long n, bool mixed) {
  constexpr std::string_view type = "f32[64, 64]";
  fmt::print("def forward(self, arg0_1: \"{0}\", arg1_1: \"{0}\"):\n", type);
  std::string prev = "arg0_1";
  for (long k = 0; k < n; ++k) {
    std::string name;
    if (mixed && k % 2 == 1) {
      name = fmt::format("relu_{}", k / 2);
      fmt::print("    {}: \"{}\" = torch.ops.aten.relu.default({})\n", name, type, prev);
    } else {
      name = fmt::format("add_{}", mixed ? k / 2 : k);
      fmt::print("    {}: \"{}\" = torch.ops.aten.add.Tensor({}, arg1_1)\n", name, type, prev);
    }
    prev = std::move(name);
  }
  fmt::print("    return ({},)\n", prev);
}

// Class c0 holds the leaf; class k (1..n-1) holds f_k (cost 2) and g_k
// (cost 1 + (k % 3) / 2, sometimes cheaper), both with child class k - 1.
void write_gym(long n) {
  std::fputs(
      "{\"nodes\": {\n  \"leaf\": {\"op\": \"x\", \"children\": [], \"eclass\": \"c0\", "
      "\"cost\": 1}",
      stdout);
  std::string prev = "leaf";
  for (long k = 1; k < n; ++k) {
    fmt::print(
        ",\n  \"f{0}\": {{\"op\": \"f\", \"children\": [\"{1}\"], \"eclass\": \"c{0}\", \"cost\": "
        "2}},\n  \"g{0}\": {{\"op\": \"g\", \"children\": [\"{1}\"], \"eclass\": \"c{0}\", "
        "\"cost\": {2}}}",
        k, prev, 1.0 + static_cast<double>(k % 3) / 2.0);
    prev = fmt::format("f{}", k);
  }
  fmt::print("\n}},\n\"root_eclasses\": [\"c{}\"]}}\n", n - 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) return usage();
  const std::string_view kind = argv[1];
  const long n = std::atol(argv[2]);
  if (n < 1) return usage();
  if (kind == "fx") {
    const std::string_view shape = argc > 3 ? argv[3] : "mixed";
    if (shape != "add" && shape != "mixed") return usage();
    write_fx(n, shape == "mixed");
    return 0;
  }
  if (kind == "gym" && argc == 3) {
    write_gym(n);
    return 0;
  }
  return usage();
}
