// ctest-label: golden
// README.md's commands work as written: the `build/eqfuse ...` part of the
// set-up command and every line of the "A first session" block run in order
// (later lines read files earlier ones write) and exit 0. They run in a
// scratch directory that sees the repository's examples/, so the files they
// write do not land in the source tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using testing_support::scratch_dir;
using testing_support::slurp_file;

// The lines of the first ```sh block that follows `heading` (or the first
// block of the file when heading is empty).
std::vector<std::string> sh_block(const std::string& text, const std::string& heading) {
  size_t from = heading.empty() ? 0 : text.find(heading);
  if (from == std::string::npos) return {};
  size_t open = text.find("```sh\n", from);
  if (open == std::string::npos) return {};
  open += 6;
  const size_t close = text.find("```", open);
  std::vector<std::string> lines;
  size_t pos = open;
  while (pos < close) {
    size_t eol = text.find('\n', pos);
    lines.push_back(text.substr(pos, eol - pos));
    pos = eol + 1;
  }
  return lines;
}

// `build/eqfuse ARGS   # comment` -> ARGS; other commands (set-up, ctest) -> "".
std::string eqfuse_args(const std::string& line) {
  const std::string bin = "build/eqfuse ";
  size_t at = line.find(bin);
  if (at == std::string::npos) return "";
  std::string args = line.substr(at + bin.size());
  if (size_t hash = args.find("  #"); hash != std::string::npos) args.resize(hash);
  while (!args.empty() && args.back() == ' ') args.pop_back();
  return args;
}

TEST(ReadmeCommands, SetUpAndFirstSessionCommandsSucceed) {
  const std::string readme = slurp_file(fs::path(EQFUSE_SOURCE_DIR) / "README.md");
  std::vector<std::string> commands;
  for (const std::string& line : sh_block(readme, ""))
    if (auto a = eqfuse_args(line); !a.empty()) commands.push_back(a);
  ASSERT_EQ(commands.size(), 1u) << "the set-up command runs eqfuse once";
  for (const std::string& line : sh_block(readme, "## A first session"))
    if (auto a = eqfuse_args(line); !a.empty()) commands.push_back(a);
  ASSERT_GE(commands.size(), 6u) << "README's first-session block was not found";

  const fs::path dir = scratch_dir("readme");
  fs::remove(dir / "examples");
  fs::create_directory_symlink(fs::path(EQFUSE_SOURCE_DIR) / "examples", dir / "examples");
  // The tensor-parallel command reads a traced layer of tests/data/tp.
  fs::remove_all(dir / "tests");
  fs::create_directories(dir / "tests");
  fs::create_directory_symlink(fs::path(EQFUSE_SOURCE_DIR) / "tests" / "data",
                               dir / "tests" / "data");
  for (const std::string& args : commands) {
    const std::string cmd =
        "cd '" + dir.string() + "' && '" + EQFUSE_BINARY + "' " + args + " > out.log 2> err.log";
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(status, 0) << "eqfuse " << args << "\n" << slurp_file(dir / "err.log");
  }
  // The files the session writes exist and are not empty.
  for (const char* written : {"out.fx", "report.html"})
    EXPECT_GT(fs::file_size(dir / written), 0u) << written;
}

}  // namespace
}  // namespace eqfuse
