// Identifiers used throughout the e-graph engine.
//
// Id names an e-class (and, because every freshly added e-node creates its
// own class, also the e-node that created it). Ids are dense uint32 indices
// handed out in creation order, which is what makes e-graphs reproducible:
// the same sequence of add/merge calls always yields the same ids.
#pragma once
#include <cstdint>
#include <limits>

namespace eqfuse {

using Id = uint32_t;
inline constexpr Id kNoId = std::numeric_limits<Id>::max();

}  // namespace eqfuse
