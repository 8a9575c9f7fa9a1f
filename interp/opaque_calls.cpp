// Structural matching of opaque calls between two runs (see the header).
#include "interp/opaque_calls.hpp"

#include <cmath>

#include <fmt/format.h>

namespace eqfuse {
namespace {

constexpr uint64_t kRecordSeed = 0x7265636f72640000ull;  // "record"
constexpr uint64_t kOrphanSeed = 0x6f727068616e0000ull;  // "orphan": matched nothing

bool same_type(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape();
}

double element(const Tensor& t, int64_t i) {
  return t.is_int_storage() ? static_cast<double>(t.get_flat_int(i)) : t.get_flat(i);
}

// The largest of |a-b| / (atol + rtol*|a|) over the elements; kNotEquivalent
// when an element pair is not comparable (NaN against a number, different
// infinities) or, with `limit`, when the ratio exceeds 1.
double scaled_difference(const Tensor& a, const Tensor& b, double rtol, double atol, bool limit) {
  if (!same_type(a, b)) return OpaqueCallLedger::kNotEquivalent;
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = element(a, i), y = element(b, i);
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    if (!std::isfinite(x) || !std::isfinite(y)) return OpaqueCallLedger::kNotEquivalent;
    const double bound = atol + rtol * std::fabs(x);
    const double ratio = bound > 0 ? std::fabs(x - y) / bound : OpaqueCallLedger::kNotEquivalent;
    if (limit && ratio > 1) return OpaqueCallLedger::kNotEquivalent;
    worst = std::max(worst, ratio);
  }
  return worst;
}

}  // namespace

double OpaqueCallLedger::exact_distance(const Tensor& recorded, const Tensor& current) {
  return scaled_difference(recorded, current, 0, 0, true);
}

OpaqueCallLedger::Distance OpaqueCallLedger::within_tolerance(double rtol, double atol) {
  return [rtol, atol](const Tensor& recorded, const Tensor& current) {
    return scaled_difference(recorded, current, rtol, atol, true);
  };
}

double OpaqueCallLedger::nearest_distance(const Tensor& recorded, const Tensor& current) {
  // Relative to magnitude with a floor of 1, so large and small tensors rank alike.
  return scaled_difference(recorded, current, 1, 1, false);
}

void OpaqueCallLedger::start(Role role) {
  role_ = role;
  if (role == Role::Record) {
    buckets_.clear();
    counts_.clear();
    unmatched_.clear();
  }
  for (auto& [key, b] : buckets_) b.seen_in_match = 0;
}

OpaqueCallLedger::Bucket& OpaqueCallLedger::bucket(std::string_view op, uint64_t structure) {
  auto it = buckets_.find(std::make_pair(std::string(op), structure));
  if (it == buckets_.end())
    it = buckets_.emplace(std::make_pair(std::string(op), structure), Bucket{}).first;
  return it->second;
}

double OpaqueCallLedger::distance(const Call& recorded, const std::vector<Tensor>& tensors) const {
  double worst = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    worst = std::max(worst, distance_(recorded.tensors[i], tensors[i]));
    if (worst == kNotEquivalent) break;
  }
  return worst;
}

RuntimeValue OpaqueCallLedger::call(std::string_view op, uint64_t structure,
                                    std::vector<Tensor> tensors, std::string_view node_name,
                                    const MakeOutput& make_output) {
  Bucket& b = bucket(op, structure);
  const uint64_t seed = hash_combine(hash_string(structure, op), b.calls.size());
  if (role_ == Role::Record) {
    // A function: the same inputs twice in one graph give the same output.
    for (const Call& c : b.calls) {
      if (distance(c, tensors) == 0) return deep_copy(c.output);
    }
    RuntimeValue out = make_output(hash_combine(seed, kRecordSeed));
    for (Tensor& t : tensors) t = t.clone();
    b.calls.push_back(Call{std::move(tensors), deep_copy(out)});
    return out;
  }
  // Match: try the call at the same ordinal first (the usual case: both
  // graphs apply the op in the same order), then the nearest of the rest.
  const size_t ordinal = b.seen_in_match++;
  std::optional<size_t> best;
  double best_distance = kNotEquivalent;
  for (size_t k = 0; k < b.calls.size(); ++k) {
    const size_t i = (ordinal + k) % b.calls.size();
    const double d = distance(b.calls[i], tensors);
    if (d < best_distance || (d == best_distance && best && d != kNotEquivalent && i < *best)) {
      best = i;
      best_distance = d;
    }
    if (best_distance == 0) break;
  }
  OpCount& count = counts_[std::string(op)];
  if (best && best_distance != kNotEquivalent) {
    ++count.matched;
    if (best_distance > 0) ++count.inexact;
    return deep_copy(b.calls[*best].output);
  }
  ++count.unmatched;
  unmatched_.push_back(fmt::format("node '{}' ({})", node_name, op));
  return make_output(hash_combine(hash_combine(seed, kOrphanSeed), ordinal));
}

}  // namespace eqfuse
