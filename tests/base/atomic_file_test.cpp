// base/atomic_file.hpp: outputs appear whole or not at all.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path scratch_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("eqfuse_atomic_file_test_" + std::to_string(::getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t entries_in(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicFile, WritesAndReplacesLeavingNoTemporary) {
  const fs::path dir = scratch_dir();
  const fs::path out = dir / "out.fx";
  write_file_atomically(out.string(), "first\n");
  EXPECT_EQ(read_all(out), "first\n");
  write_file_atomically(out.string(), "second\n");
  EXPECT_EQ(read_all(out), "second\n");
  EXPECT_EQ(entries_in(dir), 1u);
  fs::remove_all(dir);
}

TEST(AtomicFile, KeepsTheModeOfTheFileItReplaces) {
  const fs::path dir = scratch_dir();
  const fs::path out = dir / "script.sh";
  write_file_atomically(out.string(), "old");
  fs::permissions(out, fs::perms::owner_all | fs::perms::group_read);
  write_file_atomically(out.string(), "new");
  EXPECT_EQ(fs::status(out).permissions(), fs::perms::owner_all | fs::perms::group_read);
  fs::remove_all(dir);
}

TEST(AtomicFile, FollowsASymbolicLink) {
  const fs::path dir = scratch_dir();
  write_file_atomically((dir / "real.json").string(), "old");
  fs::create_symlink("real.json", dir / "link.json");
  write_file_atomically((dir / "link.json").string(), "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(read_all(dir / "real.json"), "new");
  fs::remove_all(dir);
}

TEST(AtomicFile, DevicesAreWrittenInPlaceNotReplaced) {
  write_file_atomically("/dev/null", "discarded");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(AtomicFile, AMissingDirectoryIsAnErrorNamingThePath) {
  const fs::path dir = scratch_dir();
  const std::string path = (dir / "no" / "such" / "out.fx").string();
  try {
    write_file_atomically(path, "x");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot write '" + path + "'"));
  }
  fs::remove_all(dir);
}

// A write that fails part way (here: the file-size limit, as a full disk
// would) keeps the old file whole and removes the temporary.
TEST(AtomicFile, AFailedWriteKeepsTheOldFile) {
  const fs::path dir = scratch_dir();
  const fs::path out = dir / "out.fx";
  write_file_atomically(out.string(), "old contents\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(out.string(), std::string(1 << 20, 'x'));
    } catch (const Error&) {
      ::_exit(0);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the failed write was not reported";
  EXPECT_EQ(read_all(out), "old contents\n");
  EXPECT_EQ(entries_in(dir), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace eqfuse
