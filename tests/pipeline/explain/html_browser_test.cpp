// ctest-label: slow
// The HTML explanation (`eqfuse explain --format html`) opened in a real
// browser: headless Chromium loads the page written by the CLI, its DOM
// keeps both inline graphs and the cost tables, the summary and the fusion
// table come before the first fusion card (the first screen), a screenshot
// shows far more painted content than a blank page of the same size, and a
// 300-block decoder stack gives a bounded page without DOT text that the
// browser renders within its timeout. scripts/setup
// installs Debian's chromium for this test; without a Chromium on PATH the
// tests skip with a message. Labelled `slow` (a browser start is ~1 s).
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "bench/workloads/decoder_stack.hpp"
#include "pipeline/explain/html.hpp"
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
                const fs::path& out, const std::string& window = "1280,2400") {
  std::string cmd = fmt::format(
      "timeout 60 '{}' --headless --disable-gpu --no-sandbox --window-size={} {} "
      "'file://{}' > '{}' 2>/dev/null",
      browser, window, mode_flags, page.string(), out.string());
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
  // Both whole graphs survive parsing as inline SVG (only with a real dot;
  // the page shows DOT text otherwise), next to the chart and the cards'
  // local drawings (two per card).
  if (!find_on_path("dot").empty()) {
    EXPECT_EQ(count(loaded, "<svg class=\"chart\""), 1u);
    EXPECT_GE(count(loaded, "<svg"), 3u + 2 * count(loaded, "class=\"card fusion\""));
  }
}

// The answer comes first: the summary and the fusion table are in the DOM
// of a 1400x1000 window before the first fusion card, and the chart too.
TEST_F(BrowserRender, FirstScreenHasTheSummaryAndFusionTableBeforeTheCards) {
  fs::path dom = dir_ / "first.html";
  ASSERT_EQ(run_browser(browser_, "--dump-dom", page_, dom, "1400,1000"), 0);
  std::string loaded = testing_support::slurp_file(dom);
  size_t summary = loaded.find("<section id=\"summary\">");
  size_t by_rule = loaded.find("<section id=\"by-rule\">");
  size_t chart = loaded.find("<svg class=\"chart\"");
  size_t first_card = loaded.find("class=\"card fusion\"");
  ASSERT_NE(summary, std::string::npos);
  ASSERT_NE(by_rule, std::string::npos);
  ASSERT_NE(chart, std::string::npos);
  ASSERT_NE(first_card, std::string::npos);
  EXPECT_LT(summary, first_card);
  EXPECT_LT(by_rule, first_card);
  EXPECT_LT(chart, first_card);
  EXPECT_THAT(loaded.substr(summary, first_card - summary), HasSubstr("torchair/"));
}

// 300 decoder blocks: the page is an overview, not two giant drawings; it
// stays small, holds no DOT text and the browser renders it in time.
TEST(BrowserRenderLarge, ThreeHundredBlockStackRendersAndStaysSmall) {
  std::string browser = find_browser();
  if (browser.empty()) GTEST_SKIP() << "no Chromium on PATH (scripts/setup installs chromium)";
  fs::path dir = testing_support::scratch_dir("browser-large");
  fs::path fx = dir / "stack300.fx", page = dir / "report.html";
  std::ofstream(fx) << workloads::decoder_stack_fx({.blocks = 300});
  auto start = std::chrono::steady_clock::now();
  auto run =
      testing_support::run_eqfuse("explain " + fx.string() + " --format html -o " + page.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  double explain_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string html = testing_support::slurp_file(page);
  EXPECT_LT(html.size(), 5u << 20) << "page of " << html.size() << " bytes";
  size_t body = html.find("<body>");
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(html.find("digraph", body), std::string::npos);
  EXPECT_THAT(html, HasSubstr("<h2>Graph overview</h2>"));
  EXPECT_THAT(html, HasSubstr("id=\"region-299\""));
  fs::path shot = dir / "report.png", log = dir / "browser.log";
  start = std::chrono::steady_clock::now();
  ASSERT_EQ(run_browser(browser, "--screenshot='" + shot.string() + "'", page, log, "1400,1000"),
            0);
  double render_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(png_size(testing_support::slurp_file(shot)),
            (std::pair<uint32_t, uint32_t>{1400, 1000}));
  RecordProperty("explain_s", fmt::format("{:.1f}", explain_s));
  RecordProperty("render_s", fmt::format("{:.1f}", render_s));
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
