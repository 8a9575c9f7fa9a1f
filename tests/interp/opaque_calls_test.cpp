// OpaqueCallLedger: recorded calls answer equivalent calls of a second run,
// by contents and not by order; others are reported and get fresh outputs.
#include "interp/opaque_calls.hpp"

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

Tensor vec(std::initializer_list<double> v) {
  std::vector<double> values(v);
  return Tensor::from_values(DType::Float32, {static_cast<int64_t>(values.size())}, values);
}

// Each fresh output is a tensor holding its seed, so tests see which call answered.
RuntimeValue seeded(uint64_t seed) {
  return Tensor::from_ints(DType::Int64, {1},
                           std::vector<int64_t>{static_cast<int64_t>(seed >> 2)});
}

int64_t id_of(const RuntimeValue& v) {
  return v.tensor().get_flat_int(0);
}

TEST(OpaqueCallLedger, RecordsAFunctionAndMatchesByContentsNotOrder) {
  OpaqueCallLedger ledger(&OpaqueCallLedger::exact_distance);
  ledger.start(OpaqueCallLedger::Role::Record);
  const int64_t first = id_of(ledger.call("f", 7, {vec({1, 2})}, "a", seeded));
  const int64_t second = id_of(ledger.call("f", 7, {vec({3, 4})}, "b", seeded));
  EXPECT_NE(first, second);
  // Same inputs again in the same run: same output.
  EXPECT_EQ(id_of(ledger.call("f", 7, {vec({1, 2})}, "c", seeded)), first);

  ledger.start(OpaqueCallLedger::Role::Match);
  EXPECT_EQ(id_of(ledger.call("f", 7, {vec({3, 4})}, "x", seeded)), second);
  EXPECT_EQ(id_of(ledger.call("f", 7, {vec({1, 2})}, "y", seeded)), first);
  EXPECT_EQ(ledger.counts().at("f").matched, 2);
  EXPECT_TRUE(ledger.unmatched_calls().empty());
}

TEST(OpaqueCallLedger, OtherOpStructureOrContentsMatchNothing) {
  OpaqueCallLedger ledger(&OpaqueCallLedger::exact_distance);
  ledger.start(OpaqueCallLedger::Role::Record);
  const int64_t recorded = id_of(ledger.call("f", 7, {vec({1, 2})}, "a", seeded));
  ledger.start(OpaqueCallLedger::Role::Match);
  EXPECT_NE(id_of(ledger.call("g", 7, {vec({1, 2})}, "x", seeded)), recorded);
  EXPECT_NE(id_of(ledger.call("f", 8, {vec({1, 2})}, "y", seeded)), recorded);
  EXPECT_NE(id_of(ledger.call("f", 7, {vec({1, 2.5})}, "z", seeded)), recorded);
  EXPECT_EQ(ledger.unmatched_calls(),
            (std::vector<std::string>{"node 'x' (g)", "node 'y' (f)", "node 'z' (f)"}));
  EXPECT_EQ(ledger.counts().at("f").unmatched, 2);
}

TEST(OpaqueCallLedger, ToleranceAndNearestDistances) {
  auto within = OpaqueCallLedger::within_tolerance(1e-3, 0);
  EXPECT_EQ(within(vec({1000, 2}), vec({1000.5, 2})), 0.5);
  EXPECT_EQ(within(vec({1000, 2}), vec({1002, 2})), OpaqueCallLedger::kNotEquivalent);
  EXPECT_EQ(within(vec({1, 2}), vec({1, 2, 3})), OpaqueCallLedger::kNotEquivalent);
  EXPECT_EQ(OpaqueCallLedger::exact_distance(vec({NAN}), vec({NAN})), 0);

  // Nearest: the closest recorded call answers, whatever the distance.
  OpaqueCallLedger ledger(&OpaqueCallLedger::nearest_distance);
  ledger.start(OpaqueCallLedger::Role::Record);
  const int64_t near_one = id_of(ledger.call("f", 1, {vec({1, 1})}, "a", seeded));
  const int64_t near_five = id_of(ledger.call("f", 1, {vec({5, 5})}, "b", seeded));
  ledger.start(OpaqueCallLedger::Role::Match);
  EXPECT_EQ(id_of(ledger.call("f", 1, {vec({4.9, 5.2})}, "x", seeded)), near_five);
  EXPECT_EQ(id_of(ledger.call("f", 1, {vec({1.1, 0.8})}, "y", seeded)), near_one);
}

}  // namespace
}  // namespace eqfuse
