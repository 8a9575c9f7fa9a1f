// The reference interpreter: evaluates a Graph on the CPU with concrete
// tensors (interp/tensor.hpp). Used by `eqfuse check` and by every test that
// proves a rewrite correct (interp/equivalence.hpp).
//
//   Interpreter interp(registry);
//   RunResult r = interp.run(graph, inputs, {{"s0", 4}});
//   r.outputs[0].tensor().values();
//
// Calls to ops with a kernel (interp/kernels_*.cpp, keyed by qualified op
// name) are computed; fp16/bf16 results are rounded to nearest even once per
// op. Opaque calls (unknown op, or a registered op without a kernel) are
// evaluated as UNINTERPRETED FUNCTIONS: deterministic pseudo-random outputs
// of the node's annotated type, seeded by a hash of the target, the
// non-tensor arguments and the contents of the input tensors, so within one
// run the same call on the same inputs gives the same outputs. Across two
// runs (checks) an OpaqueCallLedger answers them instead: structurally,
// without hashing floats (InterpreterOptions::opaque_calls). Inputs are deep-copied when the graph
// has a call that may write its arguments (copy_, add_, v2 NPU ops); such mutated inputs are
// reported with their final values. A graph without writing calls reads unwritten (storage version
// 0) input tensors in place, so its outputs may alias the caller's inputs. See docs/interpreter.md.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

class OpaqueCallLedger;
using SymBindings = std::map<std::string, int64_t, std::less<>>;
struct RuntimeValue;
// Values for get_attr constants, keyed by target (RandomInputs::attrs).
using AttrValues = std::map<std::string, RuntimeValue, std::less<>>;

// A runtime value: None, tensor, Python int/float/bool (SymInts are ints),
// or a list/tuple of values (multi-output ops, split results).
struct RuntimeValue {
  using List = std::vector<RuntimeValue>;
  std::variant<std::monostate, Tensor, int64_t, double, bool, List> v;

  RuntimeValue() = default;
  RuntimeValue(Tensor t) : v(std::move(t)) {}  // NOLINT: implicit, a value wrapper
  RuntimeValue(int64_t i) : v(i) {}            // NOLINT
  RuntimeValue(double d) : v(d) {}             // NOLINT
  RuntimeValue(bool b) : v(b) {}               // NOLINT
  RuntimeValue(List l) : v(std::move(l)) {}    // NOLINT

  bool is_none() const { return std::holds_alternative<std::monostate>(v); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v); }
  bool is_int() const { return std::holds_alternative<int64_t>(v); }
  bool is_double() const { return std::holds_alternative<double>(v); }
  bool is_bool() const { return std::holds_alternative<bool>(v); }
  bool is_list() const { return std::holds_alternative<List>(v); }
  const Tensor& tensor() const { return std::get<Tensor>(v); }
  Tensor& tensor() { return std::get<Tensor>(v); }
  int64_t as_int() const { return std::get<int64_t>(v); }
  const List& list() const { return std::get<List>(v); }
};

// `f32[2, 3]`, `int 4`, `(f32[2], i8[2])`, `None`.
std::string describe(const RuntimeValue& v);
// A deep copy (tensors get fresh storage; aliasing between elements is lost).
RuntimeValue deep_copy(const RuntimeValue& v);

struct RunResult {
  // One entry per element of the output node's list/tuple (a single
  // returned value gives one entry).
  std::vector<RuntimeValue> outputs;
  std::vector<std::string> output_names;  // producing node names ("None" for None)
  // Placeholders whose storage the graph wrote, with their final values:
  // (index into Graph::placeholders(), final tensor).
  std::vector<std::pair<size_t, Tensor>> mutated_inputs;
  // With InterpreterOptions::keep_values: a copy of each node's value as it
  // was computed (index = node index; none for placeholders and the output).
  std::vector<RuntimeValue> values;
};

struct InterpreterOptions {
  // Check each computed value's dtype and (evaluable) shape against the
  // node's known type; a mismatch is an Error naming the node.
  bool check_types = true;
  // Fused NPU kernels (npu_add_rms_norm_quant, ..._dynamic_quant, ..._cast)
  // keep their normalized intermediate in fp32 on the device, so they round
  // differently from the unfused chain, which stores y in x's dtype first.
  // With this set they round y like the unfused chain does: fused and
  // unfused forms then agree exactly, and an equivalence check tests the
  // rewrite (which inputs, which outputs) rather than hardware rounding, whose
  // one-step int8 differences grow without bound through later quantized
  // matmuls.
  bool round_like_unfused = false;
  // Keep a copy of every computed value (RunResult::values), e.g. to find
  // where two runs diverge. Costs a copy of every intermediate.
  bool keep_values = false;
  // Opaque calls (no kernel) answered by a ledger shared with another run,
  // which compares them structurally (interp/opaque_calls.hpp), instead of by
  // hashing their arguments' values. Not owned.
  OpaqueCallLedger* opaque_calls = nullptr;
  // Values for get_attr nodes by target (each evaluation gets a copy); a
  // target not listed gets uninterpreted_value seeded by a hash of the
  // target. random_inputs() lists integer constants used as indices, with
  // values inside the indexed size. Not owned.
  const AttrValues* attr_values = nullptr;
  // When false an op without a kernel is an error naming the node: a strict
  // check computes every op.
  bool allow_opaque = true;
  // Resident memory of the process past which the run stops with an Error
  // naming the node it had reached (base/memory_budget.hpp, --memory-limit);
  // checked after every node. 0: no limit.
  size_t memory_limit_bytes = 0;
};

class Interpreter {
 public:
  explicit Interpreter(const OpRegistry& registry, InterpreterOptions options = {})
      : registry_(registry), options_(options) {}

  // `inputs` has one value per placeholder (Graph::placeholders() order);
  // `bindings` gives concrete values to the symbols of symbolic dims (used
  // for opaque outputs and type checks). Errors are eqfuse::Error at the
  // failing node's location, naming it.
  RunResult run(const Graph& graph, std::span<const RuntimeValue> inputs,
                const SymBindings& bindings = {}) const;

 private:
  const OpRegistry& registry_;
  InterpreterOptions options_;
};

// True if the reference interpreter computes `qualified_name` (an exact
// overload such as "aten::add.Tensor" or a packet "aten::add").
bool has_reference_kernel(std::string_view qualified_name);

// The uninterpreted value of `type` for a given seed: floats uniform in
// [-2, 2) rounded to the dtype, integers in [-8, 8], bools, SymInts from the
// bindings; tuples element by element. Throws std::invalid_argument when the
// type (or a dim) is unknown.
RuntimeValue uninterpreted_value(const ValueType& type, uint64_t seed, const SymBindings& bindings);

// Stable 64-bit hashing used for uninterpreted functions and random inputs.
uint64_t hash_combine(uint64_t h, uint64_t v);
uint64_t hash_string(uint64_t h, std::string_view s);
uint64_t hash_tensor(uint64_t h, const Tensor& t);

}  // namespace eqfuse
