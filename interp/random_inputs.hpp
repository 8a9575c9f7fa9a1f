// Random inputs for the reference interpreter: one value per placeholder of
// a graph, respecting dtypes and shapes. Symbolic dims are bound to sizes
// the caller gives or to sizes chosen from the seed; `Sym(s0)` placeholders
// receive their bound value. Value ranges (documented in docs/interpreter.md):
// floats uniform in [-2, 2) rounded to the dtype, except op-friendly
// positive ranges for inputs used as scales or by sqrt/rsqrt/log; int8 in
// [-8, 8]; uint8 in [0, 15]; wider integers (often indices) in [0, 3]; bool
// fair coin. Integer inputs used as indices (and integer get_attr constants
// so used: RandomInputs::attrs) stay inside the indexed size. Same graph +
// seed + bindings -> same inputs.
//
//   RandomInputs in = random_inputs(graph, /*seed=*/1, {{"s0", 4}});
//   InterpreterOptions io;
//   io.attr_values = &in.attrs;
//   Interpreter(reg, io).run(graph, in.values, in.bindings);
#pragma once
#include <cstdint>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/interpreter.hpp"

namespace eqfuse {

// Small deterministic PRNG (splitmix64), identical on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [lo, hi].
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

struct RandomInputOptions {
  SymBindings bindings;  // fixed sizes; other symbols get a size from the seed
  // When given, argument names of normalized calls are known and inputs used
  // as scales (or by sqrt/rsqrt/log) get positive, op-friendly values.
  const OpRegistry* registry = nullptr;
  int64_t min_symbol_size = 2;
  int64_t max_symbol_size = 5;
};

struct RandomInputs {
  std::vector<RuntimeValue> values;  // one per placeholder, in order
  SymBindings bindings;              // every symbol used, with its value
  // Integer get_attr constants used as indices (make_fx keeps module buffers
  // such as BERT's token_type_ids as constants), by target: drawn inside the
  // indexed size like index placeholders. Pass as
  // InterpreterOptions::attr_values; other constants stay uninterpreted.
  AttrValues attrs;
};

// Throws eqfuse::Error at the placeholder when its type is unknown (pass
// --input-types) or a dim is an expression of unbound symbols that cannot
// be chosen (e.g. `floor(s0/3)`).
RandomInputs random_inputs(const Graph& graph, uint64_t seed,
                           const RandomInputOptions& options = {});

// RandomInputs::attrs alone, for `bindings` (e.g. those of given inputs):
// a value per target of an integer get_attr constant of known shape used (at
// any of its nodes, directly or through value-forwarding ops) as an index,
// inside the smallest bound asked for. Same graph + seed + bindings -> same
// values.
AttrValues random_attr_values(const Graph& graph, uint64_t seed, const SymBindings& bindings,
                              const OpRegistry* registry);

// The symbols the inputs' sizes are written in (sorted): the ones a caller
// may bind.
std::vector<std::string> input_symbols(const Graph& graph);

// Fills a tensor of `dtype`/`shape` with values in the default ranges above.
Tensor random_tensor(DType dtype, const Dims& shape, SplitMix64& rng);

}  // namespace eqfuse
