// The HTML calibration report: its sections (fit quality, whole graphs and
// leave-one-graph-out when given, per-op overrides), one scatter point per
// row, escaped op names and a self-contained page without scripts.
#include "cost/calibration_report.hpp"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cost/device_profile.hpp"
#include "tests/support/html_checks.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

RowFit row_fit(std::string op, ExecMode mode, double measured, double after, bool kernel = true) {
  RowFit r;
  r.op = std::move(op);
  r.mode = mode;
  r.kernel = kernel;
  r.measured_us = measured;
  r.before_us = measured * 2;
  r.after_us = after;
  r.label = "g:n";
  return r;
}

CalibrationResult fit_result() {
  CalibrationResult fit;
  fit.profile = load_device_profile("h100");
  fit.params = {{"launch_us.eager", 5, 3.5, "fitted"}, {"eff_mem", 0.7, 0.8, "fitted"}};
  fit.rows = {
      row_fit("aten::add.Tensor", ExecMode::Eager, 10, 11),
      row_fit("aten::mm", ExecMode::Eager, 20, 18),
      row_fit("aten::mm", ExecMode::ReduceOverhead, 5, 6),
      row_fit("aten::view", ExecMode::Eager, 3, 3.2, /*kernel=*/false),
      row_fit("my::op<float>", ExecMode::ReduceOverhead, 100, 150),
  };
  fit.overrides = {{"my::op<float>", ExecMode::ReduceOverhead, "fixed_us", 99.5, 4, 0.4}};
  fit.rel_rms_before = 0.5;
  fit.rel_rms_after = 0.2;
  return fit;
}

TEST(CalibrationReport, SectionsFollowWhatIsGiven) {
  CalibrationResult fit = fit_result();
  CalibrationReport bare{.fit = &fit};
  std::string html = calibration_html(bare);
  EXPECT_THAT(html, HasSubstr("<h2>Fit quality</h2>"));
  EXPECT_THAT(html, HasSubstr("<h2>Parameters</h2>"));
  EXPECT_THAT(html, HasSubstr("<h2>Per-op overrides</h2>"));
  EXPECT_THAT(html, Not(HasSubstr("<h2>Whole graphs</h2>")));
  EXPECT_THAT(html, Not(HasSubstr("<h2>Leave one graph out</h2>")));
  EXPECT_THAT(html, Not(HasSubstr("Validation rows")));
  EXPECT_THAT(testing_support::section(html, "Parameters"), HasSubstr("launch_us.eager"));
  EXPECT_THAT(testing_support::section(html, "Per-op overrides"),
              HasSubstr("fixed_us.reduce-overhead"));

  CalibrationReport full{.fit = &fit};
  full.validation = {row_fit("aten::mul.Tensor", ExecMode::Eager, 8, 7)};
  full.whole_graphs = {{"llama.fx", ExecMode::Eager, 2500, 2400, 2300, 300, 250}};
  HeldOutGraph h;
  h.graph = "qwen2.fx";
  h.rows = {row_fit("aten::mm", ExecMode::Eager, 20, 25)};
  h.kernels = fit_quality(h.rows);
  h.whole = {{"qwen2.fx", ExecMode::Eager, 2600, 2700, 2650, 300, 250}};
  full.held_out = {h};
  html = calibration_html(full);
  std::string whole = testing_support::section(html, "Whole graphs");
  EXPECT_THAT(whole, HasSubstr("llama.fx"));
  EXPECT_THAT(whole, HasSubstr("-4.0%"));
  std::string held = testing_support::section(html, "Leave one graph out");
  EXPECT_THAT(held, HasSubstr("qwen2.fx"));
  EXPECT_THAT(held, HasSubstr("+3.8%"));
  EXPECT_THAT(html, HasSubstr("Validation rows"));
  EXPECT_THAT(html, HasSubstr("aten::mul.Tensor"));

  // Without overrides the section is left out.
  fit.overrides.clear();
  EXPECT_THAT(calibration_html(bare), Not(HasSubstr("<h2>Per-op overrides</h2>")));
}

TEST(CalibrationReport, ScatterHasOnePointPerRow) {
  CalibrationResult fit = fit_result();
  std::string svg = scatter_svg(fit.rows, "training rows");
  EXPECT_TRUE(svg.starts_with("<svg"));
  // One point per row plus one legend dot per mode.
  EXPECT_EQ(count(svg, "<circle"), fit.rows.size() + kAllExecModes.size());
  EXPECT_EQ(count(svg, "<circle cx=\"") - kAllExecModes.size(), fit.rows.size());
  EXPECT_EQ(count(svg, "r=\"3\""), fit.rows.size());
  EXPECT_EQ(count(scatter_svg({}, "empty"), "r=\"3\""), 0u);
  std::vector<RowFit> one = {row_fit("aten::add.Tensor", ExecMode::Eager, 1e-3, 1e4)};
  EXPECT_EQ(count(scatter_svg(one, "wide"), "r=\"3\""), 1u);
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(svg, why)) << why;
}

TEST(CalibrationReport, EscapesNamesAndNeedsNoScript) {
  CalibrationResult fit = fit_result();
  fit.profile.name = "dev<1>";
  CalibrationReport r{.fit = &fit};
  r.whole_graphs = {{"<g>.fx", ExecMode::Eager, 10, 11, 11, 3, 2}};
  std::string html = calibration_html(r);
  EXPECT_THAT(html, HasSubstr("my::op&lt;float&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("my::op<float>")));
  EXPECT_THAT(html, Not(HasSubstr("dev<1>")));
  EXPECT_THAT(html, Not(HasSubstr("<g>.fx")));
  EXPECT_THAT(html, HasSubstr("&lt;g&gt;.fx"));
  EXPECT_THAT(scatter_svg(fit.rows, "a<b"), Not(HasSubstr("a<b")));
  EXPECT_THAT(scatter_svg(fit.rows, "a<b"), Not(HasSubstr("my::op<float>")));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<SCRIPT"), std::string::npos);
  testing_support::expect_self_contained(html);
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
}

}  // namespace
}  // namespace eqfuse
