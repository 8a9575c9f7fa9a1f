// Shape buckets: the same graph optimized at several values of one symbolic
// dim (decode-sized s0=1 ... prefill-sized s0=4096), with every fusion
// decision side by side, so a choice that flips between buckets is visible
// (`eqfuse optimize --buckets s0=1,16,256,4096`, docs/cli.md).
//
//   BucketSpec spec = parse_buckets("s0=1,16,256,4096");
//   BucketReport rep = optimize_buckets(graph, reg, options, spec);
//   std::cerr << format_buckets(rep);
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/optimize.hpp"

namespace eqfuse {

struct BucketSpec {
  std::string symbol;           // "s0"
  std::vector<int64_t> values;  // ascending, distinct, >= 1
};

// "s0=1,16,256,4096"; an Error naming the bad part otherwise.
BucketSpec parse_buckets(std::string_view text);

// One fusion site across the buckets.
struct BucketDecision {
  std::string rule;
  std::string site;                  // the node the fused kernel would produce
  std::vector<char> chosen;          // per bucket: 1 chosen, 0 possible but not chosen
  std::vector<std::string> why_not;  // per bucket: the one-line reason when not chosen
  bool flips() const;
};

struct BucketReport {
  BucketSpec spec;
  std::vector<size_t> kernels_before, kernels_after;  // per bucket
  std::vector<double> cost_before_us, cost_after_us;
  std::vector<BucketDecision> decisions;  // sites in order of first appearance
};

// Throws Error, naming the bucket and the tensor, when a byte count of `g` leaves
// int64 with the symbol at one of the buckets' values (check_sizes_fit):
// optimize_buckets checks it before its first run; a caller that does other
// work first (the CLI's plain optimization) checks it before that work.
void check_bucket_sizes(const Graph& g, const SymbolHints& hints, const BucketSpec& spec);

// Optimizes `g` once per bucket (options.hints with the bucket's value for
// the symbol; explanations are recorded).
BucketReport optimize_buckets(const Graph& g, const OpRegistry& reg, OptimizeOptions options,
                              const BucketSpec& spec);

// A table: one column per bucket, one row per fusion site ("fused" / "-"),
// flipping sites marked, then the modeled cost per bucket.
std::string format_buckets(const BucketReport& rep);

}  // namespace eqfuse
