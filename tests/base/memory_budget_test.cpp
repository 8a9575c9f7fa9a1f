// base/memory_budget.hpp: sizes people write, the process's resident memory,
// and the default limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "base/diagnostics.hpp"
#include "base/memory_budget.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

TEST(MemoryBudget, ParsesSizesInPowersOf1024) {
  EXPECT_EQ(parse_memory_size("0", "--memory-limit"), 0u);
  EXPECT_EQ(parse_memory_size("1000", "--memory-limit"), 1000u);
  EXPECT_EQ(parse_memory_size("512K", "--memory-limit"), 512u * 1024);
  EXPECT_EQ(parse_memory_size("512M", "--memory-limit"), 512u * 1024 * 1024);
  EXPECT_EQ(parse_memory_size("8G", "--memory-limit"), size_t{8} << 30);
  EXPECT_EQ(parse_memory_size("1.5GiB", "--memory-limit"), size_t{3} << 29);
  EXPECT_EQ(parse_memory_size("2gb", "--memory-limit"), size_t{2} << 30);
  EXPECT_EQ(parse_memory_size("1T", "--memory-limit"), size_t{1} << 40);
  EXPECT_EQ(parse_memory_size("64B", "--memory-limit"), 64u);
}

TEST(MemoryBudget, RefusesWhatIsNotASize) {
  for (const char* bad : {"", "G", "-1G", "8X", "1e400", "abc", "8 G", "99999999999T", "."}) {
    try {
      parse_memory_size(bad, "--memory-limit");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("--memory-limit: expected a size")) << bad;
    }
  }
}

TEST(MemoryBudget, FormatsForMessages) {
  EXPECT_EQ(format_memory_size(900), "900 B");
  EXPECT_EQ(format_memory_size(512 * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(format_memory_size(size_t{3} << 29), "1.50 GiB");
}

TEST(MemoryBudget, SeesThisProcessGrow) {
  const size_t before = resident_memory_bytes();
  ASSERT_GT(before, 0u);
  std::vector<char> block(size_t{64} << 20, 1);  // touched: resident
  EXPECT_GE(resident_memory_bytes(), before + (size_t{48} << 20));
  EXPECT_TRUE(memory_limit_reached(before));
  EXPECT_FALSE(memory_limit_reached(0));  // 0: no limit
  EXPECT_EQ(block[block.size() / 2], 1);
}

TEST(MemoryBudget, DefaultIsThreeQuartersOfWhatTheMachineGives) {
  const size_t available = available_memory_bytes();
  ASSERT_GT(available, 0u);
  EXPECT_EQ(default_memory_limit_bytes(), available / 4 * 3);
  EXPECT_FALSE(memory_limit_reached(default_memory_limit_bytes()));
}

}  // namespace
}  // namespace eqfuse
