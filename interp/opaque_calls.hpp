// Opaque calls compared structurally across two runs (interp/equivalence.hpp).
//
// An op without a reference kernel cannot be computed, only compared: two
// graphs agree on it when they apply the same op, with the same non-tensor
// arguments, to equivalent tensors. The ledger makes that concrete. While
// the first graph runs (Role::Record) every opaque call is recorded with
// copies of its tensor arguments and a pseudo-random output seeded by the op,
// its argument structure and its ordinal, never by the tensors' bits, so a
// one-ulp difference upstream cannot turn into unrelated outputs. While the
// second graph runs (Role::Match) each opaque call looks for a recorded call
// of the same op and structure whose tensors are equivalent under the
// caller's distance, and returns that call's output. A call that matches
// nothing gets a fresh output (so everything downstream of it differs) and is
// listed in unmatched_calls().
//
//   OpaqueCallLedger ledger(exact_distance);
//   InterpreterOptions io; io.opaque_calls = &ledger;
//   ledger.start(OpaqueCallLedger::Role::Record); interp.run(a, ...);
//   ledger.start(OpaqueCallLedger::Role::Match);  interp.run(b, ...);
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "interp/interpreter.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

class OpaqueCallLedger {
 public:
  enum class Role { Record, Match };
  // How far a tensor argument of the second run is from the recorded one:
  // 0 for identical, kNotEquivalent when the two cannot be the same input.
  // Among equivalent recorded calls the nearest is taken (ties: the earliest).
  using Distance = std::function<double(const Tensor& recorded, const Tensor& current)>;
  static constexpr double kNotEquivalent = std::numeric_limits<double>::infinity();
  // Fresh output of the call's type for a seed.
  using MakeOutput = std::function<RuntimeValue(uint64_t seed)>;

  struct OpCount {
    int matched = 0;    // calls of the second run answered by a recorded call
    int unmatched = 0;  // calls of the second run with no equivalent recorded call
    int inexact = 0;    // matched calls whose tensors were not identical (distance > 0)
  };

  explicit OpaqueCallLedger(Distance distance) : distance_(std::move(distance)) {}

  // Begins a run. Record clears what an earlier pair of runs left.
  void start(Role role);
  Role role() const { return role_; }

  // The output of one opaque call. `op` names the function, `structure`
  // hashes everything about the arguments except tensor contents (types,
  // literals, integers), `tensors` are the tensor arguments in order.
  RuntimeValue call(std::string_view op, uint64_t structure, std::vector<Tensor> tensors,
                    std::string_view node_name, const MakeOutput& make_output);

  // Per op, calls of the second run matched or not (sorted by op name).
  const std::map<std::string, OpCount, std::less<>>& counts() const { return counts_; }
  // "node 'x' (aten::foo)" for each call of the second run that matched none.
  const std::vector<std::string>& unmatched_calls() const { return unmatched_; }

  // Distances for the checking modes: identical contents, or every element
  // within |a-b| <= atol + rtol*|a| (NaN matches NaN).
  static double exact_distance(const Tensor& recorded, const Tensor& current);
  static Distance within_tolerance(double rtol, double atol);
  // Any two tensors of one dtype and shape, by their largest difference;
  // for measuring deviations, where inputs are expected to differ a little.
  static double nearest_distance(const Tensor& recorded, const Tensor& current);

 private:
  struct Call {
    std::vector<Tensor> tensors;  // copies of the recorded call's tensor arguments
    RuntimeValue output;          // a copy of what it returned
  };
  struct Bucket {  // the recorded calls of one op with one argument structure
    std::vector<Call> calls;
    size_t seen_in_match = 0;  // calls of the second run looked up so far
  };
  Bucket& bucket(std::string_view op, uint64_t structure);
  double distance(const Call& recorded, const std::vector<Tensor>& tensors) const;

  Distance distance_;
  Role role_ = Role::Record;
  std::map<std::pair<std::string, uint64_t>, Bucket, std::less<>> buckets_;
  std::map<std::string, OpCount, std::less<>> counts_;
  std::vector<std::string> unmatched_;
};

}  // namespace eqfuse
