// docs/cli.md documents every flag each subcommand's --help lists: in the
// subcommand's own section or in the sections every command shares
// ("Loading options shared by the graph commands", "Inputs: ...").
#include <regex>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using testing_support::run_eqfuse;
using testing_support::slurp_file;

// The text of the `## ` sections whose heading contains `needle`.
std::string sections(const std::string& doc, const std::string& needle) {
  std::string out;
  bool in = false;
  size_t pos = 0;
  while (pos < doc.size()) {
    size_t end = doc.find('\n', pos);
    if (end == std::string::npos) end = doc.size();
    std::string line = doc.substr(pos, end - pos);
    if (line.rfind("## ", 0) == 0) in = line.find(needle) != std::string::npos;
    if (in) out += line + "\n";
    pos = end + 1;
  }
  return out;
}

TEST(CliDocs, EveryHelpFlagIsDocumented) {
  std::string doc = slurp_file(std::string(EQFUSE_SOURCE_DIR) + "/docs/cli.md");
  std::string shared = sections(doc, "Loading options shared") + sections(doc, "Inputs: files and");
  for (const char* cmd : {"optimize", "explain", "rules", "print", "check", "ops", "extract",
                          "reinplace", "calibrate", "sensitivity", "cost"}) {
    auto help = run_eqfuse(std::string(cmd) + " --help");
    ASSERT_EQ(help.exit_code, 0) << cmd;
    std::string own = sections(doc, std::string("`eqfuse ") + cmd);
    // explain takes every optimize option.
    if (std::string(cmd) == "explain") own += sections(doc, "`eqfuse optimize");
    ASSERT_FALSE(own.empty()) << "no section for " << cmd;
    std::regex flag("--[a-z][a-z0-9-]*");
    std::set<std::string> flags;
    for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), flag);
         it != std::sregex_iterator(); ++it)
      flags.insert(it->str());
    for (const std::string& f : flags) {
      if (f == "--help") continue;
      bool documented = own.find(f) != std::string::npos || shared.find(f) != std::string::npos ||
                        (f == "--output" && own.find("-o") != std::string::npos);
      EXPECT_TRUE(documented) << "eqfuse " << cmd << " " << f << " is not in docs/cli.md";
    }
  }
}

}  // namespace
}  // namespace eqfuse
