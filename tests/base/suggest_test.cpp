// Edit distance and did-you-mean suggestions for misspelled names.
#include "base/suggest.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace eqfuse {
namespace {

TEST(Suggest, EditDistanceCountsSingleByteEdits) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("quantt", "quant"), 1u);
}

TEST(Suggest, ClosestNameOnlyWhenCloseEnough) {
  const std::vector<std::string> names{"torchair/add-rms-norm-quant",
                                       "torchair/add-rms-norm-dynamic-quant", "fusion"};
  EXPECT_EQ(closest_name("torchair/add-rms-norm-quantt", names), "torchair/add-rms-norm-quant");
  EXPECT_EQ(closest_name("fusoin", names), "fusion");
  EXPECT_EQ(closest_name("layout", names), std::nullopt);
  EXPECT_EQ(did_you_mean("fusio", names), " (did you mean 'fusion'?)");
  EXPECT_EQ(did_you_mean("zzz", names), "");
}

}  // namespace
}  // namespace eqfuse
