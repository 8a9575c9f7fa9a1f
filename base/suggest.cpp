// Edit-distance suggestions for misspelled names (see the header).
#include "base/suggest.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace eqfuse {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view word,
                                        std::span<const std::string> candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 4);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  const std::optional<std::string> best = closest_name(word, candidates);
  return best ? fmt::format(" (did you mean '{}'?)", *best) : std::string();
}

}  // namespace eqfuse
