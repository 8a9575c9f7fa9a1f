// ctest-label: golden
// The repository builds and tests on its own: no test, test helper or build
// file reads anything outside it (the shared reference material next to a
// development checkout is not there in a clone). Benchmarks may take such
// paths as arguments; they are not scanned.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_code(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cpp" || ext == ".hpp" || ext == ".txt" || p.filename() == "CMakeLists.txt" ||
         ext == ".cmake";
}

TEST(SelfContained, NoTestOrBuildFileReadsOutsideTheRepository) {
  const fs::path root(EQFUSE_SOURCE_DIR);
  std::vector<fs::path> files{root / "CMakeLists.txt"};
  // Every test source (not tests/data, which holds the copied fixtures and
  // their SOURCES notes) and the CMake files.
  for (const auto& e : fs::recursive_directory_iterator(root / "tests")) {
    const fs::path rel = fs::relative(e.path(), root / "tests");
    if (*rel.begin() == "data") continue;
    if (e.is_regular_file() && is_code(e.path())) files.push_back(e.path());
  }
  for (const auto& e : fs::recursive_directory_iterator(root / "cmake"))
    if (e.is_regular_file() && is_code(e.path())) files.push_back(e.path());
  ASSERT_GT(files.size(), 50u);
  // Spelled in two pieces so that this file does not match itself.
  const std::string outside = std::string("../") + "shared";
  const std::string old_define = std::string("EQFUSE_") + "SHARED_DIR";
  for (const fs::path& f : files) {
    const std::string text = read(f);
    EXPECT_EQ(text.find(outside), std::string::npos) << f;
    EXPECT_EQ(text.find(old_define), std::string::npos) << f;
  }
}

TEST(SelfContained, TheTestDataIsInTheRepository) {
  const fs::path data(EQFUSE_TEST_DATA);
  EXPECT_TRUE(fs::path(data).lexically_normal().string().rfind(
                  fs::path(EQFUSE_SOURCE_DIR).lexically_normal().string(), 0) == 0)
      << data;
  EXPECT_TRUE(fs::exists(data / "fx-dumps" / "SOURCES.md"));
  EXPECT_TRUE(fs::exists(data / "extraction-gym" / "LICENSE"));
  EXPECT_TRUE(fs::exists(data / "README.md"));
}

}  // namespace
}  // namespace eqfuse
