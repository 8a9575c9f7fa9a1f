// ctest-label: slow
// The HTML explanation (`eqfuse explain --format html`) opened in a real
// browser: headless Chromium loads the page written by the CLI, its DOM
// keeps both inline graphs and the cost tables, and a screenshot shows far
// more painted content than a blank page of the same size. scripts/setup
// installs Debian's chromium for this test; without a Chromium on PATH the
// tests skip with a message. Labelled `slow` (a browser start is ~1 s).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pipeline/explain_html.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string find_browser() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (std::string path = find_on_path(name); !path.empty()) return path;
  return {};
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Runs the browser headless on `page` with `mode_flags` (e.g. --dump-dom),
// stdout to `out`; a browser that hangs is killed after 60 s.
int run_browser(const std::string& browser, const std::string& mode_flags, const fs::path& page,
                const fs::path& out) {
  std::string cmd = fmt::format(
      "timeout 60 '{}' --headless --disable-gpu --no-sandbox --window-size=1280,2400 {} "
      "'file://{}' > '{}' 2>/dev/null",
      browser, mode_flags, page.string(), out.string());
  return std::system(cmd.c_str());
}

// The width and height of a PNG file (its IHDR chunk), or {0, 0}.
std::pair<uint32_t, uint32_t> png_size(const std::string& png) {
  static const std::string kSignature = "\x89PNG\r\n\x1a\n";
  if (png.size() < 24 || png.compare(0, 8, kSignature) != 0 || png.compare(12, 4, "IHDR") != 0)
    return {0, 0};
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

class BrowserRender : public ::testing::Test {
 protected:
  void SetUp() override {
    browser_ = find_browser();
    if (browser_.empty()) GTEST_SKIP() << "no Chromium on PATH (scripts/setup installs chromium)";
    dir_ = testing_support::scratch_dir("browser");
    page_ = dir_ / "report.html";
    auto run = testing_support::run_eqfuse("explain examples/deepseek_layer.fx --format html -o " +
                                           page_.string());
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  std::string browser_;
  fs::path dir_, page_;
};

TEST_F(BrowserRender, LoadedDomKeepsTheGraphsAndCostTables) {
  fs::path dom = dir_ / "dom.html";
  ASSERT_EQ(run_browser(browser_, "--dump-dom", page_, dom), 0);
  std::string loaded = testing_support::slurp_file(dom);
  EXPECT_THAT(loaded, HasSubstr("<h1>eqfuse explain</h1>"));
  EXPECT_GE(count(loaded, "<table"), 2u) << "the summary and cost tables";
  EXPECT_THAT(loaded, HasSubstr("npu_add_rms_norm_dynamic_quant"));
  // Both graphs survive parsing as inline SVG (only with a real dot; the
  // page shows DOT text otherwise).
  if (!find_on_path("dot").empty()) {
    EXPECT_EQ(count(loaded, "<svg"), 2u);
  }
}

TEST_F(BrowserRender, ScreenshotPaintsFarMoreThanABlankPage) {
  fs::path blank_page = dir_ / "blank.html";
  std::ofstream(blank_page) << "<!DOCTYPE html><html><body></body></html>\n";
  fs::path shot = dir_ / "report.png", blank_shot = dir_ / "blank.png";
  fs::path log = dir_ / "browser.log";
  ASSERT_EQ(run_browser(browser_, "--screenshot='" + shot.string() + "'", page_, log), 0);
  ASSERT_EQ(run_browser(browser_, "--screenshot='" + blank_shot.string() + "'", blank_page, log),
            0);
  std::string png = testing_support::slurp_file(shot);
  std::string blank = testing_support::slurp_file(blank_shot);
  EXPECT_EQ(png_size(png), (std::pair<uint32_t, uint32_t>{1280, 2400}));
  EXPECT_EQ(png_size(blank), (std::pair<uint32_t, uint32_t>{1280, 2400}));
  // A PNG compresses a blank page to almost nothing; text, tables and two
  // drawn graphs cannot compress like that.
  EXPECT_GT(png.size(), 8 * blank.size()) << png.size() << " vs blank " << blank.size();
}

}  // namespace
}  // namespace eqfuse
