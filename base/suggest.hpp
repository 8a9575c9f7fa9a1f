// "Did you mean ...?" for names a user typed: the closest of a set of known
// names by edit distance, when it is close enough to be a likely typo.
//
//   closest_name("torchair/add-rms-norm-quantt", rule_names)  // "torchair/add-rms-norm-quant"
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace eqfuse {

// Levenshtein distance (insertions, deletions, substitutions of one byte).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` (ties: the first), if its distance is at
// most max(2, |word| / 4); nullopt otherwise.
std::optional<std::string> closest_name(std::string_view word,
                                        std::span<const std::string> candidates);

// " (did you mean 'x'?)" or "" when nothing is close.
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

}  // namespace eqfuse
