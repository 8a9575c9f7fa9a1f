// Running the `eqfuse` binary from tests: exit code, stdout and stderr of
// one invocation, in a per-process scratch directory so `ctest -j` is safe.
//
//   CliRun r = run_eqfuse("optimize examples/matmul_transpose.fx");
//   EXPECT_EQ(r.exit_code, 0);
//
// Commands run from the source root (EQFUSE_SOURCE_DIR), so example paths
// are relative to it.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace eqfuse::testing_support {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path scratch_dir(const std::string& tag = "cli") {
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / fmt::format("eqfuse_{}_{}", tag, ::getpid());
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path write_scratch(const std::string& name, const std::string& text) {
  std::filesystem::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

inline CliRun run_eqfuse(const std::string& args, const std::string& stdin_text = "") {
  std::filesystem::path dir = scratch_dir();
  std::filesystem::path in = write_scratch("stdin.txt", stdin_text);
  std::string cmd =
      fmt::format("cd '{}' && '{}' {} < '{}' > '{}' 2> '{}'", EQFUSE_SOURCE_DIR, EQFUSE_BINARY,
                  args, in.string(), (dir / "out.txt").string(), (dir / "err.txt").string());
  int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp_file(dir / "out.txt");
  r.err = slurp_file(dir / "err.txt");
  return r;
}

}  // namespace eqfuse::testing_support
