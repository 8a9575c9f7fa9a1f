// HTML calibration report: tables and an inline-SVG scatter plot; no
// scripts, no external resources (the page opens offline).
#include "cost/calibration_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/html_text.hpp"

namespace eqfuse {
namespace {

constexpr std::string_view kModeColours[] = {"#1f77b4", "#d62728", "#2ca02c"};

std::string_view colour_of(ExecMode m) {
  return kModeColours[static_cast<size_t>(m)];
}

std::string pct(double v) {
  return fmt::format("{:.1f}%", 100 * v);
}

std::string quality_table(std::span<const RowFit> rows) {
  std::string out =
      "<table><tr><th>mode</th><th>rows</th><th>n</th><th>median |err|</th><th>p90</th>"
      "<th>max</th><th>bias</th></tr>\n";
  for (const auto& [mode, kernel, q] : quality_by_mode(rows))
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1f}%"
        "</td></tr>\n",
        exec_mode_name(mode), kernel ? "kernels" : "free ops", q.rows, pct(q.median), pct(q.p90),
        pct(q.max), 100 * q.mean_signed);
  return out + "</table>\n";
}

std::string op_table(std::span<const RowFit> rows) {
  std::string out =
      "<table><tr><th>op</th><th>mode</th><th>rows</th><th>median |err|</th><th>max</th>"
      "<th>bias</th></tr>\n";
  for (const OpQuality& q : quality_by_op(rows))
    out += fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1f}%"
        "</td></tr>\n",
        escape_html(q.op), exec_mode_name(q.mode), q.quality.rows, pct(q.quality.median),
        pct(q.quality.max), 100 * q.quality.mean_signed);
  return out + "</table>\n";
}

std::string worst_table(std::span<const RowFit> rows, size_t n) {
  std::vector<const RowFit*> order;
  for (const RowFit& r : rows) order.push_back(&r);
  auto err = [](const RowFit* r) {
    return std::abs(r->after_us - r->measured_us) / r->measured_us;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const RowFit* a, const RowFit* b) { return err(a) > err(b); });
  if (order.size() > n) order.resize(n);
  std::string out =
      "<table><tr><th>row</th><th>op</th><th>mode</th><th>measured µs</th><th>model µs</th>"
      "<th>error</th></tr>\n";
  for (const RowFit* r : order) {
    std::string where = r->where.line > 0
                            ? fmt::format("{}:{}", r->where.file, r->where.line)
                            : (r->label.empty() ? fmt::format("row {}", r->index) : r->label);
    out += fmt::format(
        "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{:.3f}</td><td>{:.3f}</td>"
        "<td>{:+.1f}%</td></tr>\n",
        escape_html(where), escape_html(r->op), exec_mode_name(r->mode), r->measured_us,
        r->after_us, 100 * (r->after_us - r->measured_us) / r->measured_us);
  }
  return out + "</table>\n";
}

}  // namespace

std::string scatter_svg(std::span<const RowFit> rows, std::string_view title) {
  constexpr double kSize = 420, kPad = 50;
  double lo = 1e300, hi = 0;
  for (const RowFit& r : rows)
    for (double v : {r.measured_us, r.after_us})
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi <= 0) lo = 0.1, hi = 10;
  double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
  if (l1 <= l0) l1 = l0 + 1;
  auto pos = [&](double v) {
    return kPad + (std::log10(std::max(v, std::pow(10.0, l0))) - l0) / (l1 - l0) * (kSize - kPad);
  };
  auto x = [&](double v) { return pos(v); };
  auto y = [&](double v) { return kSize + kPad - pos(v) - kPad + 10; };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\"><title>{2}</title>\n",
      kSize + 20, kSize + 40, escape_html(title));
  for (double d = l0; d <= l1; ++d) {
    double v = std::pow(10.0, d);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{0:.1f}\" y2=\"{3:.1f}\" stroke=\"#ddd\"/>"
        "<line x1=\"{2:.1f}\" y1=\"{1:.1f}\" x2=\"{4:.1f}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{0:.1f}\" y=\"{5:.1f}\" font-size=\"10\" text-anchor=\"middle\">{6:g}</text>"
        "<text x=\"{7:.1f}\" y=\"{1:.1f}\" font-size=\"10\" text-anchor=\"end\">{6:g}</text>\n",
        x(v), y(v), kPad, y(std::pow(10.0, l1)), x(std::pow(10.0, l1)), y(std::pow(10.0, l0)) + 14,
        v, kPad - 4);
  }
  double a = std::pow(10.0, l0), b = std::pow(10.0, l1);
  out += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#888\"/>\n", x(a),
      y(a), x(b), y(b));
  for (double f : {0.75, 1.25})
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#bbb\" "
        "stroke-dasharray=\"4 3\"/>\n",
        x(a), y(a * f), x(b), y(b * f));
  for (const RowFit& r : rows)
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\" fill-opacity=\"{}\"><title>{} "
        "{}: measured {:.3f} µs, model {:.3f} µs</title></circle>\n",
        x(r.measured_us), y(r.after_us), colour_of(r.mode), r.kernel ? "0.75" : "0.3",
        escape_html(r.op), exec_mode_name(r.mode), r.measured_us, r.after_us);
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">measured µs</text>"
      "<text x=\"12\" y=\"{:.1f}\" font-size=\"12\" transform=\"rotate(-90 12 {:.1f})\" "
      "text-anchor=\"middle\">model µs</text>\n",
      (kPad + kSize) / 2, kSize + 36, kSize / 2, kSize / 2);
  size_t i = 0;
  for (ExecMode m : kAllExecModes)
    out += fmt::format(
        "<circle cx=\"{0:.1f}\" cy=\"{1:.1f}\" r=\"4\" fill=\"{2}\"/><text x=\"{3:.1f}\" "
        "y=\"{4:.1f}\" font-size=\"11\">{5}</text>\n",
        kPad + 10, 14.0 + 14 * static_cast<double>(i), colour_of(m), kPad + 18,
        18.0 + 14 * static_cast<double>(i), exec_mode_name(m)),
        ++i;
  return out + "</svg>\n";
}

std::string calibration_html(const CalibrationReport& report) {
  const CalibrationResult& fit = *report.fit;
  std::string out = fmt::format(
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>eqfuse calibration: {0}</title><style>"
      "body{{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em}}"
      "table{{border-collapse:collapse;margin:.5em 0}}td,th{{border:1px solid #ccc;padding:2px "
      "6px;text-align:right}}td:first-child,th:first-child{{text-align:left}}"
      ".plots{{display:flex;flex-wrap:wrap;gap:1em}}</style></head><body>\n"
      "<h1>Calibration of {0}</h1>\n"
      "<p>{1} rows used; relative RMS {2:.1f}% &rarr; {3:.1f}%.</p>\n",
      escape_html(fit.profile.name), fit.rows.size(), 100 * fit.rel_rms_before,
      100 * fit.rel_rms_after);
  for (const SkippedRows& s : fit.skipped)
    out += fmt::format("<p>Skipped {} row(s): {} (first: {}).</p>\n", s.count,
                       escape_html(s.reason), escape_html(s.first));
  out += "<h2>Fit quality</h2>\n<h3>Training rows</h3>\n" + quality_table(fit.rows);
  if (!report.validation.empty())
    out += "<h3>Validation rows (not seen by the fit)</h3>\n" + quality_table(report.validation);
  out += "<div class=\"plots\">" + scatter_svg(fit.rows, "training rows: model vs measured");
  if (!report.validation.empty())
    out += scatter_svg(report.validation, "validation rows: model vs measured");
  out += "</div>\n";
  if (!report.whole_graphs.empty()) {
    out +=
        "<h2>Whole graphs</h2>\n<table><tr><th>graph</th><th>mode</th><th>kernels</th>"
        "<th>measured µs</th><th>predicted µs</th><th>error</th><th>simulated µs</th></tr>\n";
    for (const GraphPrediction& p : report.whole_graphs)
      out += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td><td>{:.1f}</td><td>{:+.1f}%</td>"
          "<td>{:.1f}</td></tr>\n",
          escape_html(p.graph), exec_mode_name(p.mode), p.kernels, p.measured_us, p.predicted_us,
          100 * p.error(), p.simulated_us);
    out += "</table>\n";
  }
  if (!report.held_out.empty()) {
    out +=
        "<h2>Leave one graph out</h2>\n<table><tr><th>held-out graph</th><th>mode</th>"
        "<th>kernel rows</th><th>median |err|</th><th>p90</th><th>whole measured µs</th>"
        "<th>predicted µs</th><th>error</th></tr>\n";
    for (const HeldOutGraph& h : report.held_out)
      for (const GraphPrediction& w : h.whole) {
        std::vector<RowFit> kernels;
        for (const RowFit& r : h.rows)
          if (r.kernel && r.mode == w.mode) kernels.push_back(r);
        FitQuality q = fit_quality(kernels);
        out += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td>"
            "<td>{:.1f}</td><td>{:+.1f}%</td></tr>\n",
            escape_html(h.graph), exec_mode_name(w.mode), q.rows, pct(q.median), pct(q.p90),
            w.measured_us, w.predicted_us, 100 * w.error());
      }
    out += "</table>\n";
  }
  out +=
      "<h2>Parameters</h2>\n<table><tr><th>parameter</th><th>before</th><th>after</th>"
      "<th>status</th></tr>\n";
  for (const FittedParam& p : fit.params)
    out += fmt::format("<tr><td>{}</td><td>{:.4g}</td><td>{:.4g}</td><td>{}</td></tr>\n",
                       escape_html(p.name), p.before, p.after, escape_html(p.status));
  out += "</table>\n";
  if (!fit.overrides.empty()) {
    out +=
        "<h2>Per-op overrides</h2>\n<table><tr><th>op</th><th>field</th><th>µs</th><th>rows</th>"
        "<th>class fit rel. RMS</th></tr>\n";
    for (const FittedOverride& o : fit.overrides)
      out += fmt::format(
          "<tr><td><code>{}</code></td><td>{}.{}</td><td>{:.3g}</td><td>{}</td><td>{}</td></tr>\n",
          escape_html(o.op), o.what, exec_mode_name(o.mode), o.value, o.rows, pct(o.class_rel_rms));
    out += "</table>\n";
  }
  out += "<h2>Error by op</h2>\n" + op_table(fit.rows);
  if (!report.validation.empty()) out += "<h3>Validation rows</h3>\n" + op_table(report.validation);
  out += "<h2>Worst rows</h2>\n" + worst_table(fit.rows, 15);
  if (!report.validation.empty())
    out += "<h3>Validation rows</h3>\n" + worst_table(report.validation, 15);
  return out + "</body></html>\n";
}

}  // namespace eqfuse
