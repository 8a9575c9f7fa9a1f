// The post-extraction pass list: its order and when each pass runs.
#include "pipeline/post_passes.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

std::vector<std::string> running(const OptimizeOptions& opt) {
  std::vector<std::string> names;
  for (const PostExtractionPass& pass : post_extraction_passes())
    if (pass.runs(opt)) names.emplace_back(pass.phase);
  return names;
}

TEST(PostExtractionPasses, RemoveCatOpsRunsBeforeReinplace) {
  std::vector<std::string> all;
  for (const PostExtractionPass& pass : post_extraction_passes()) all.emplace_back(pass.phase);
  EXPECT_EQ(all, (std::vector<std::string>{"remove_cat", "reinplace"}));
}

TEST(PostExtractionPasses, RemoveCatOpsOnlyInReduceOverheadAndWhenSwitchedOn) {
  OptimizeOptions opt;
  opt.rules.mode = ExecMode::ReduceOverhead;
  opt.remove_cat_ops = true;
  EXPECT_EQ(running(opt), (std::vector<std::string>{"remove_cat", "reinplace"}));
  opt.remove_cat_ops = false;
  EXPECT_EQ(running(opt), (std::vector<std::string>{"reinplace"}));
  opt.remove_cat_ops = true;
  opt.rules.mode = ExecMode::MaxAutotune;
  EXPECT_EQ(running(opt), (std::vector<std::string>{"reinplace"}));
}

}  // namespace
}  // namespace eqfuse
