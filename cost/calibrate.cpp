// Calibration: the bounded least-squares fit of a device profile to measured
// kernel times (docs/cost-model.md, "Calibration"). The measurement files are
// read in measurements.cpp, the linear solves done by least_squares.hpp.
//
// Method. Per kernel the model is
//   launch(mode) + fixed(class) + max(m, c) + (1 - overlap) * min(m, c)
//   m = bytes * inv_bw,  c = flops_at_eff1 * inv_eff(class)
// which is linear in (launch, fixed, inv_bw, inv_eff) once we know for each
// row whether it is memory- or compute-bound. So: take the bound side from
// the current parameters, solve the weighted (relative-error) linear least
// squares by Householder QR, re-decide the bound sides, repeat until they
// stop changing. Bounds are enforced by clamping the violators and
// re-fitting the rest. A tiny ridge towards the base profile keeps
// directions the data cannot see (e.g. no compute-bound rows) at their
// base values instead of making the system singular.
#include "cost/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "cost/least_squares.hpp"
#include "graph/io/load.hpp"
#include "graph/op_schema.hpp"

namespace eqfuse {
namespace {

// ---- one row as a priced kernel -------------------------------------

bool is_tensor_annotation(std::string_view item) {
  size_t open = item.find('[');
  return open != std::string_view::npos && open > 0 && item.back() == ']' &&
         std::all_of(item.begin(), item.begin() + static_cast<long>(open),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// "[f32[1, 1], i64[1, 16]]": a list whose items are all tensor annotations.
std::optional<std::vector<std::string>> tensor_list_items(std::string_view item) {
  item = trim_blanks(item);
  if (item.size() < 2 || item.front() != '[' || item.back() != ']') return std::nullopt;
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char ch : item.substr(1, item.size() - 2)) {
    if (ch == '[') ++depth;
    if (ch == ']') --depth;
    if (ch == ',' && depth == 0) {
      out.emplace_back(trim_blanks(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.emplace_back(trim_blanks(cur));
  for (const std::string& t : out)
    if (!is_tensor_annotation(t)) return std::nullopt;
  return out;
}

// A one-op FX graph: tensor inputs (and the items of tensor lists) become
// placeholders, the rest is passed through verbatim, so the FX parser,
// schema normalization and shape inference treat the row exactly as they
// treat a dump.
std::string row_as_fx(const Measurement& m) {
  std::vector<std::string> params, args;
  auto placeholder = [&](const std::string& annotation) {
    std::string name = fmt::format("in{}", params.size());
    params.push_back(fmt::format("{}: \"{}\"", name, annotation));
    return name;
  };
  for (const std::string& item : m.inputs) {
    // A keyword argument "name=value" whose value is a tensor or tensor list.
    std::string_view keyword, value = item;
    if (size_t eq = item.find('=');
        eq != std::string::npos && eq > 0 && item.find_first_of("[(") > eq) {
      keyword = std::string_view(item).substr(0, eq + 1);
      value = trim_blanks(std::string_view(item).substr(eq + 1));
    }
    if (is_tensor_annotation(value)) {
      args.push_back(fmt::format("{}{}", keyword, placeholder(std::string(value))));
    } else if (auto list = tensor_list_items(value)) {
      std::vector<std::string> names;
      for (const std::string& t : *list) names.push_back(placeholder(t));
      args.push_back(fmt::format("{}[{}]", keyword, fmt::join(names, ", ")));
    } else {
      args.push_back(item);
    }
  }
  std::string params_text;
  for (const auto& p : params) params_text += ", " + p;
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self{}):\n"
      "        kernel = {}({})\n"
      "        return (kernel,)\n",
      params_text, fx_target_from_qualified_name(m.op), fmt::join(args, ", "));
}

struct PreparedRow {
  Graph graph;
  NodeRef call{};
};

PreparedRow prepare_row(const Measurement& m, const OpRegistry& reg) {
  if (!reg.find(m.op)) throw Error(fmt::format("op '{}' is not in the op registry", m.op), m.where);
  PreparedRow r;
  try {
    r.graph = load_graph(row_as_fx(m), m.where.file, reg).graph;
  } catch (const Error& e) {
    throw Error(fmt::format("{} with inputs ({}): {}", m.op, fmt::join(m.inputs, "; "), e.what()),
                m.where);
  }
  for (size_t i = 0; i < r.graph.size(); ++i)
    if (r.graph.node(NodeRef{static_cast<int32_t>(i)}).kind == NodeKind::Call)
      r.call = NodeRef{static_cast<int32_t>(i)};
  return r;
}

// The profile the rows are priced with: a row times one op alone, so the
// per-node host time of running a whole graph is not part of it.
DeviceProfile row_profile(DeviceProfile p) {
  for (ExecMode m : kAllExecModes) {
    std::string name = fmt::format("host_node_us.{}", exec_mode_name(m));
    if (p.params.contains(name)) p.params[name] = 0;
  }
  return p;
}

CostBreakdown price_row(const PreparedRow& r, const OpRegistry& reg, const CostModel& model) {
  std::vector<ValueType> storage;
  return model.cost(query_for_node(r.graph, r.call, reg, storage));
}

std::string where_text(const Measurement& m) {
  std::string at = m.where.line > 0 ? fmt::format("{}:{}", m.where.file, m.where.line)
                                    : std::string(m.where.file);
  return fmt::format("{} {}", at, m.op);
}

void count_skip(std::vector<SkippedRows>& skipped, std::string reason, const Measurement& m) {
  for (SkippedRows& s : skipped)
    if (s.reason == reason) {
      ++s.count;
      return;
    }
  skipped.push_back({std::move(reason), 1, where_text(m)});
}

// Rows the model can price: prepared graphs, or a counted reason why not.
struct UsableRows {
  std::vector<size_t> index;  // into the measurements
  std::vector<PreparedRow> prepared;
  std::vector<CostBreakdown> base_cost;  // priced with the base profile
};

UsableRows usable_rows(const DeviceProfile& base, std::span<const Measurement> rows,
                       const OpRegistry& reg, const SymbolHints& hints,
                       std::vector<SkippedRows>& skipped) {
  UsableRows out;
  DeviceProfile priced = row_profile(base);
  std::map<ExecMode, std::unique_ptr<NpuCostModel>> models;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Measurement& m = rows[i];
    if (!reg.find(m.op)) {
      count_skip(skipped, "op not in the op registry (declare it with --ops)", m);
      continue;
    }
    PreparedRow p;
    try {
      p = prepare_row(m, reg);
    } catch (const Error&) {
      count_skip(skipped, "inputs do not type-check against the op's schema", m);
      continue;
    }
    auto& model = models[m.mode];
    if (!model) model = std::make_unique<NpuCostModel>(priced, m.mode, hints);
    CostBreakdown c = price_row(p, reg, *model);
    if (!c.is_kernel && m.mode != ExecMode::Eager) {
      count_skip(skipped,
                 "op launches no kernel and was timed in a graph mode (replay runs nothing for it)",
                 m);
      continue;
    }
    out.index.push_back(i);
    out.prepared.push_back(std::move(p));
    out.base_cost.push_back(c);
  }
  return out;
}

// ---- the model of one row, in the fit's unknowns --------------------

enum class Side : char { Host, Memory, Compute };

// What a row contributes, in terms of the unknowns (see the file comment).
struct RowTerms {
  ExecMode mode = ExecMode::Eager;
  KernelClass kernel_class = KernelClass::Vector;
  std::string op;
  double measured = 0;
  bool free_op = false;                  // host dispatch only
  std::optional<double> fixed_override;  // whole device time
  std::optional<double> host_override;   // host dispatch
  double bytes = 0;
  double flops_at_eff1_us = 0;             // compute µs at efficiency 1
  std::optional<double> override_compute;  // compute µs with an efficiency override
  bool cube = false;                       // inv_eff_cube (else inv_eff_vec)
};

RowTerms terms_of(const Measurement& m, const CostBreakdown& c, const DeviceProfile& base) {
  RowTerms t;
  t.mode = m.mode;
  t.kernel_class = c.kernel_class;
  t.op = m.op;
  t.measured = m.measured_us;
  t.free_op = !c.is_kernel;
  t.bytes = c.bytes;
  size_t mode = static_cast<size_t>(m.mode);
  const OpCostOverride* ov = base.override_for(m.op);
  if (ov != nullptr && ov->fixed_us_in[mode]) t.fixed_override = *ov->fixed_us_in[mode];
  if (ov != nullptr && !t.fixed_override && ov->fixed_us) t.fixed_override = *ov->fixed_us;
  if (ov != nullptr && ov->host_us_in[mode]) t.host_override = *ov->host_us_in[mode];
  t.cube = c.kernel_class == KernelClass::Cube;
  if (ov != nullptr && ov->efficiency)
    t.override_compute = c.compute_us;
  else
    t.flops_at_eff1_us = c.compute_us * base.get(t.cube ? "eff_cube" : "eff_vec");
  return t;
}

// ---- unknowns -------------------------------------------------------

enum class UnknownKind { Time, InvBandwidth, InvEffCube, InvEffVec };

struct Unknown {
  std::string param;
  UnknownKind kind;
  double base = 0, value = 0, lo = 0, hi = 0;  // in the linear parametrization
  bool held = false, clamped = false, used = false;
};

constexpr double kMaxTimeUs = 10'000;
constexpr double kMinEff = 0.01, kMaxEff = 1.0;

double bytes_per_us_at_eff1(const DeviceProfile& p) {
  return p.get("hbm_bw_gbps") * 1e3;
}

// Linear-parametrization value of a profile parameter, and back.
double to_linear(const Unknown& u, const DeviceProfile& p, double param_value) {
  switch (u.kind) {
    case UnknownKind::InvBandwidth:
      return 1.0 / (bytes_per_us_at_eff1(p) * param_value);
    case UnknownKind::InvEffCube:
    case UnknownKind::InvEffVec:
      return 1.0 / param_value;
    default:
      return param_value;
  }
}
double from_linear(const Unknown& u, const DeviceProfile& p, double x) {
  switch (u.kind) {
    case UnknownKind::InvBandwidth:
      return 1.0 / (bytes_per_us_at_eff1(p) * x);
    case UnknownKind::InvEffCube:
    case UnknownKind::InvEffVec:
      return 1.0 / x;
    default:
      return x;
  }
}

Unknown make_unknown(const std::string& param, UnknownKind kind, const DeviceProfile& p,
                     const CalibrateOptions& opt) {
  Unknown u{param, kind};
  u.base = u.value = to_linear(u, p, p.get(param));
  if (kind == UnknownKind::Time) {
    u.lo = 0, u.hi = kMaxTimeUs;
  } else if (kind == UnknownKind::InvBandwidth) {
    u.lo = to_linear(u, p, kMaxEff), u.hi = to_linear(u, p, kMinEff);
  } else {
    u.lo = 1.0 / kMaxEff, u.hi = 1.0 / kMinEff;
  }
  u.held = opt.hold.contains(param);
  return u;
}

struct Layout {
  std::vector<Unknown> unknowns;
  std::map<ExecMode, size_t> launch, host, host_free;
  std::map<KernelClass, size_t> fixed;
  size_t inv_bw = 0, inv_eff_cube = 0, inv_eff_vec = 0;
};

Layout make_layout(const DeviceProfile& p, const CalibrateOptions& opt) {
  Layout l;
  auto add = [&](const std::string& name, UnknownKind kind) {
    l.unknowns.push_back(make_unknown(name, kind, p, opt));
    return l.unknowns.size() - 1;
  };
  for (ExecMode m : kAllExecModes) {
    l.launch[m] = add(fmt::format("launch_us.{}", exec_mode_name(m)), UnknownKind::Time);
    l.host[m] = add(fmt::format("host_us.{}", exec_mode_name(m)), UnknownKind::Time);
    l.host_free[m] = add(fmt::format("host_free_us.{}", exec_mode_name(m)), UnknownKind::Time);
  }
  for (KernelClass k : {KernelClass::Vector, KernelClass::Cube, KernelClass::Mix})
    l.fixed[k] = add(fmt::format("t_dev_fixed_us.{}", kernel_class_name(k)), UnknownKind::Time);
  l.inv_bw = add("eff_mem", UnknownKind::InvBandwidth);
  l.inv_eff_cube = add("eff_cube", UnknownKind::InvEffCube);
  l.inv_eff_vec = add("eff_vec", UnknownKind::InvEffVec);
  return l;
}

// Coefficients of one row over all unknowns (plus a constant) for a given
// side.
struct LinearRow {
  std::vector<double> coef;
  double constant = 0;
};

double memory_us(const RowTerms& t, const Layout& l) {
  return t.bytes * l.unknowns[l.inv_bw].value;
}
double compute_us(const RowTerms& t, const Layout& l) {
  if (t.override_compute) return *t.override_compute;
  return t.flops_at_eff1_us * l.unknowns[t.cube ? l.inv_eff_cube : l.inv_eff_vec].value;
}

double host_us(const RowTerms& t, const Layout& l) {
  if (t.host_override) return *t.host_override;
  return l.unknowns[(t.free_op ? l.host_free : l.host).at(t.mode)].value;
}

double device_us(const RowTerms& t, const Layout& l, double overlap) {
  double launch = l.unknowns[l.launch.at(t.mode)].value;
  if (t.fixed_override) return launch + *t.fixed_override;
  double m = memory_us(t, l), c = compute_us(t, l);
  return launch + l.unknowns[l.fixed.at(t.kernel_class)].value + std::max(m, c) +
         (1 - overlap) * std::min(m, c);
}

// The pipeline model of one row: max(host dispatch, device time).
double predict(const RowTerms& t, const Layout& l, double overlap) {
  if (t.free_op) return host_us(t, l);
  return std::max(host_us(t, l), device_us(t, l, overlap));
}

Side side_of(const RowTerms& t, const Layout& l, double overlap) {
  if (t.free_op) return Side::Host;
  double h = host_us(t, l);
  if (h > 0 && h >= device_us(t, l, overlap)) return Side::Host;
  return memory_us(t, l) >= compute_us(t, l) ? Side::Memory : Side::Compute;
}

LinearRow linearize(const RowTerms& t, const Layout& l, double overlap, Side side) {
  LinearRow r{std::vector<double>(l.unknowns.size(), 0.0), 0.0};
  if (side == Side::Host) {
    if (t.host_override)
      r.constant = *t.host_override;
    else
      r.coef[(t.free_op ? l.host_free : l.host).at(t.mode)] = 1;
    return r;
  }
  r.coef[l.launch.at(t.mode)] = 1;
  if (t.fixed_override) {
    r.constant = *t.fixed_override;
    return r;
  }
  r.coef[l.fixed.at(t.kernel_class)] = 1;
  bool memory_bound = side == Side::Memory;
  double mem_factor = memory_bound ? 1 : 1 - overlap;
  double cmp_factor = memory_bound ? 1 - overlap : 1;
  r.coef[l.inv_bw] = t.bytes * mem_factor;
  if (t.override_compute)
    r.constant = *t.override_compute * cmp_factor;
  else
    r.coef[t.cube ? l.inv_eff_cube : l.inv_eff_vec] = t.flops_at_eff1_us * cmp_factor;
  return r;
}

constexpr double kRidge = 1e-6;  // relative pull towards the base profile

// One weighted linear solve over the free unknowns; writes their values.
// `weight` is each row's robust factor (1 inside the Huber threshold).
void solve_free(Layout& l, std::span<const RowTerms> rows, std::span<const Side> sides,
                std::span<const double> weight, double overlap) {
  std::vector<size_t> free;
  for (size_t i = 0; i < l.unknowns.size(); ++i)
    if (l.unknowns[i].used && !l.unknowns[i].held && !l.unknowns[i].clamped) free.push_back(i);
  if (free.empty()) return;
  // Columns are scaled by the base value so the ridge and QR see numbers
  // of similar size (µs vs µs-per-byte).
  std::vector<double> scale(free.size());
  for (size_t j = 0; j < free.size(); ++j)
    scale[j] = std::abs(l.unknowns[free[j]].base) > 0 ? std::abs(l.unknowns[free[j]].base) : 1.0;
  std::vector<std::vector<double>> a;
  std::vector<double> b;
  for (size_t r = 0; r < rows.size(); ++r) {
    LinearRow lr = linearize(rows[r], l, overlap, sides[r]);
    double w = std::sqrt(weight[r]) / rows[r].measured;
    double target = rows[r].measured - lr.constant;
    std::vector<double> row(free.size());
    for (size_t i = 0; i < l.unknowns.size(); ++i) {
      auto it = std::find(free.begin(), free.end(), i);
      if (it == free.end())
        target -= lr.coef[i] * l.unknowns[i].value;
      else
        row[static_cast<size_t>(it - free.begin())] =
            lr.coef[i] * scale[static_cast<size_t>(it - free.begin())] * w;
    }
    a.push_back(std::move(row));
    b.push_back(target * w);
  }
  double ridge = std::sqrt(kRidge * static_cast<double>(rows.size()));
  for (size_t j = 0; j < free.size(); ++j) {
    std::vector<double> row(free.size(), 0.0);
    row[j] = ridge;
    a.push_back(std::move(row));
    b.push_back(ridge * l.unknowns[free[j]].base / scale[j]);
  }
  std::vector<double> x = least_squares(std::move(a), std::move(b));
  for (size_t j = 0; j < free.size(); ++j) l.unknowns[free[j]].value = x[j] * scale[j];
}

// Solve, clamp every unknown outside its bounds, re-solve the rest.
void solve_bounded(Layout& l, std::span<const RowTerms> rows, std::span<const Side> sides,
                   std::span<const double> weight, double overlap) {
  for (auto& u : l.unknowns) u.clamped = false;
  for (size_t round = 0; round <= l.unknowns.size(); ++round) {
    solve_free(l, rows, sides, weight, overlap);
    bool violated = false;
    for (auto& u : l.unknowns) {
      if (u.held || u.clamped || !u.used) continue;
      if (u.value < u.lo || u.value > u.hi) {
        u.value = std::clamp(u.value, u.lo, u.hi);
        u.clamped = violated = true;
      }
    }
    if (!violated) return;
  }
}

void mark_used(Layout& l, std::span<const RowTerms> rows) {
  for (auto& u : l.unknowns) u.used = false;
  for (const RowTerms& t : rows) {
    for (Side side : {Side::Host, Side::Memory}) {  // overlap < 1 shows every term
      if (t.free_op && side != Side::Host) continue;
      LinearRow lr = linearize(t, l, 0.5, side);
      for (size_t i = 0; i < lr.coef.size(); ++i)
        if (lr.coef[i] != 0) l.unknowns[i].used = true;
    }
  }
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// A host unknown that starts at 0 would never make a row host-bound (the
// side choice needs host >= device): start it at the median of its rows.
void seed_host_unknowns(Layout& l, std::span<const RowTerms> rows) {
  for (const auto* slots : {&l.host, &l.host_free}) {
    for (const auto& [mode, i] : *slots) {
      Unknown& u = l.unknowns[i];
      if (u.held || !u.used || u.value > 0) continue;
      std::vector<double> times;
      for (const RowTerms& t : rows)
        if (t.mode == mode && t.free_op == (slots == &l.host_free)) times.push_back(t.measured);
      u.value = median(times);
    }
  }
}

// Robust weights. The residual a row contributes is made symmetric,
// (model - measured) / max(model, measured), so that no single row can
// weigh more than a 100 % error whichever side it errs on (a relative
// residual alone lets a row timed far too short dominate: its error has no
// bound), and beyond `threshold` it is Huber-weighted (threshold / |e|).
std::vector<double> robust_weights(std::span<const RowTerms> rows, const Layout& l, double overlap,
                                   double threshold) {
  std::vector<double> w(rows.size(), 1.0);
  for (size_t r = 0; r < rows.size(); ++r) {
    double p = predict(rows[r], l, overlap), m = rows[r].measured;
    double scale = m / std::max(p, m);  // relative residual -> symmetric residual
    double e = std::abs(p - m) / std::max(p, m);
    w[r] = scale * scale * (e > threshold ? threshold / e : 1.0);
  }
  return w;
}

// Re-linearize (host/memory/compute side per row) and re-weight (Huber)
// until neither changes.
size_t fit_classes(Layout& l, std::span<const RowTerms> rows, double overlap,
                   const CalibrateOptions& opt) {
  mark_used(l, rows);
  seed_host_unknowns(l, rows);
  std::vector<Side> sides;
  std::vector<double> weight;
  size_t iter = 0;
  for (; iter < 40; ++iter) {
    std::vector<Side> now(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) now[r] = side_of(rows[r], l, overlap);
    std::vector<double> w = robust_weights(rows, l, overlap, opt.huber_rel);
    if (iter > 0 && now == sides) {
      double change = 0;
      for (size_t r = 0; r < rows.size(); ++r)
        change = std::max(change, std::abs(w[r] - weight[r]));
      if (change < 1e-4) break;
    }
    sides = std::move(now);
    weight = std::move(w);
    solve_bounded(l, rows, sides, weight, overlap);
  }
  return iter;
}

double rel_rms(std::span<const RowTerms> rows, const Layout& l, double overlap) {
  double s = 0;
  for (const RowTerms& t : rows) {
    double e = (predict(t, l, overlap) - t.measured) / t.measured;
    s += e * e;
  }
  return rows.empty() ? 0 : std::sqrt(s / static_cast<double>(rows.size()));
}

using GroupKey = std::pair<std::string, ExecMode>;  // (op, mode)

// The (op, mode) with enough rows whose class fit is worst, if above the
// threshold. One at a time: a badly fitting op distorts the shared
// parameters and with them every other op's residuals.
std::optional<FittedOverride> worst_fitting_group(std::span<const RowTerms> rows, const Layout& l,
                                                  double overlap, const CalibrateOptions& opt) {
  std::map<GroupKey, std::vector<RowTerms>> groups;
  for (const RowTerms& t : rows)
    if (!t.fixed_override && !t.host_override) groups[{t.op, t.mode}].push_back(t);
  std::optional<FittedOverride> worst;
  for (const auto& [key, list] : groups) {
    if (list.size() < opt.min_rows_for_override) continue;
    double err = rel_rms(list, l, overlap);
    if (err > opt.override_rel_rms && (!worst || err > worst->class_rel_rms))
      worst = FittedOverride{key.first, key.second, "", 0, list.size(), err};
  }
  return worst;
}

double mean_of(std::span<const double> v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The op's device time seen in graph-mode rows (measured - that mode's gap:
// replay dispatches nothing, so the row is the device time), if it has any.
std::optional<double> device_time_from_graph_modes(std::string_view op,
                                                   std::span<const RowTerms> rows,
                                                   const Layout& l) {
  std::vector<double> d;
  for (const RowTerms& t : rows)
    if (t.op == op && t.mode != ExecMode::Eager && !t.free_op)
      d.push_back(std::max(0.0, t.measured - l.unknowns[l.launch.at(t.mode)].value));
  if (d.empty()) return std::nullopt;
  return mean_of(d);
}

// The override values of a badly fitting (op, mode) from its rows and the
// fitted class parameters. A device time is the same in every mode, so:
//   graph modes: fixed_us.<mode> = measured - the mode's gap;
//   eager: the device time comes from the op's graph-mode rows when there
//   are any (fixed_us.eager), and the rows above launch + that time are
//   host-bound (host_us.eager = their mean). Without graph-mode rows, rows
//   near the class host time are host dispatch, rows well above it device
//   time.
std::vector<FittedOverride> override_values(const FittedOverride& group,
                                            std::span<const RowTerms> rows, const Layout& l,
                                            double overlap) {
  double launch = l.unknowns[l.launch.at(group.mode)].value;
  double host = l.unknowns[l.host.at(group.mode)].value;
  std::vector<double> measured, device;
  bool free_op = false;
  for (const RowTerms& t : rows)
    if (t.op == group.op && t.mode == group.mode) {
      measured.push_back(t.measured);
      device.push_back(device_us(t, l, overlap));
      free_op = t.free_op;
    }
  double mean = mean_of(measured);
  auto make = [&](std::string what, double value) {
    FittedOverride o = group;
    o.what = std::move(what);
    o.value = value;
    return o;
  };
  if (group.mode != ExecMode::Eager) return {make("fixed_us", std::max(0.0, mean - launch))};
  if (free_op) return {make("host_us", mean)};
  std::vector<FittedOverride> out;
  double eager_device = mean_of(device);
  if (auto d = device_time_from_graph_modes(group.op, rows, l)) {
    out.push_back(make("fixed_us", *d));
    eager_device = launch + *d;
  } else if (mean > 1.5 * host || host == 0) {
    return {make("fixed_us", std::max(0.0, mean - launch))};
  }
  // Host-bound rows read the host time; a class host time above the rows
  // would hide the device time, so it is brought down to them.
  if (mean >= eager_device || host > mean) out.push_back(make("host_us", mean));
  return out;
}

double rms(std::span<const RowFit> rows, bool after, bool relative) {
  double s = 0;
  for (const RowFit& r : rows) {
    double e = (after ? r.after_us : r.before_us) - r.measured_us;
    if (relative) e /= r.measured_us;
    s += e * e;
  }
  return rows.empty() ? 0 : std::sqrt(s / static_cast<double>(rows.size()));
}

std::string unknown_status(const Unknown& u) {
  if (u.held) return "held";
  if (!u.used) return "no data";
  if (u.clamped) return "clamped to bound";
  return "fitted";
}

// Prices every usable row with `profile` (the real cost model, not the
// linearization).
std::vector<double> evaluate_rows(const DeviceProfile& profile, const UsableRows& usable,
                                  std::span<const Measurement> rows, const OpRegistry& reg,
                                  const SymbolHints& hints) {
  DeviceProfile priced = row_profile(profile);
  std::map<ExecMode, std::unique_ptr<NpuCostModel>> models;
  std::vector<double> out;
  for (size_t k = 0; k < usable.index.size(); ++k) {
    ExecMode mode = rows[usable.index[k]].mode;
    auto& model = models[mode];
    if (!model) model = std::make_unique<NpuCostModel>(priced, mode, hints);
    out.push_back(price_row(usable.prepared[k], reg, *model).total_us);
  }
  return out;
}

void write_params(CalibrationResult& result, const Layout& layout, const DeviceProfile& base,
                  size_t rows) {
  for (const Unknown& u : layout.unknowns) {
    if (!u.used && !base.params.contains(u.param)) continue;  // an optional parameter without data
    double before = base.get(u.param);
    double after = u.used && !u.held ? from_linear(u, base, u.value) : before;
    if (u.used && !u.held) {
      result.profile.set(u.param, after);
      result.profile.sources[u.param] = fmt::format("calibrated from {} measurements", rows);
    }
    result.params.push_back({u.param, before, after, unknown_status(u)});
  }
}

void write_overrides(CalibrationResult& result) {
  for (const FittedOverride& o : result.overrides) {
    OpCostOverride& ov = result.profile.overrides[o.op];
    size_t m = static_cast<size_t>(o.mode);
    (o.what == "host_us" ? ov.host_us_in : ov.fixed_us_in)[m] = o.value;
    std::string text = fmt::format("{}.{} calibrated from {} rows (class fit rel. RMS {:.0f}%)",
                                   o.what, exec_mode_name(o.mode), o.rows, 100 * o.class_rel_rms);
    ov.source = ov.source.empty() ? text : ov.source + "; " + text;
  }
}

}  // namespace

std::string node_signature(const Graph& g, NodeRef n, const OpRegistry& reg) {
  std::vector<ValueType> storage;
  CostQuery q = query_for_node(g, n, reg, storage);
  std::vector<std::string> args;
  for (const ValueType& a : q.args) args.push_back(describe(a));
  return fmt::format("{}({})", q.op, fmt::join(args, ", "));
}

std::string row_signature(const Measurement& m, const OpRegistry& reg) {
  PreparedRow r = prepare_row(m, reg);
  return node_signature(r.graph, r.call, reg);
}

std::vector<RowFit> evaluate_profile(const DeviceProfile& profile,
                                     std::span<const Measurement> rows, const OpRegistry& reg,
                                     const SymbolHints& hints, std::vector<SkippedRows>* skipped) {
  std::vector<SkippedRows> local;
  UsableRows usable = usable_rows(profile, rows, reg, hints, skipped ? *skipped : local);
  std::vector<double> times = evaluate_rows(profile, usable, rows, reg, hints);
  std::vector<RowFit> out;
  for (size_t k = 0; k < usable.index.size(); ++k) {
    const Measurement& m = rows[usable.index[k]];
    out.push_back({usable.index[k], m.op, m.mode, usable.base_cost[k].is_kernel, m.measured_us,
                   times[k], times[k], m.label, m.where});
  }
  return out;
}

CalibrationResult calibrate_profile(const DeviceProfile& base, std::span<const Measurement> rows,
                                    const OpRegistry& reg, const CalibrateOptions& options) {
  if (rows.empty()) throw Error("no measurements to calibrate from");
  CalibrationResult result;
  UsableRows usable = usable_rows(base, rows, reg, options.hints, result.skipped);
  if (usable.index.empty())
    throw Error(fmt::format("none of the {} measurements can be used (first: {}: {})", rows.size(),
                            result.skipped.at(0).first, result.skipped.at(0).reason));
  std::vector<RowTerms> terms;
  for (size_t k = 0; k < usable.index.size(); ++k)
    terms.push_back(terms_of(rows[usable.index[k]], usable.base_cost[k], base));

  double overlap = base.get("overlap");
  Layout layout = make_layout(base, options);
  result.side_iterations = fit_classes(layout, terms, overlap, options);

  std::vector<RowTerms> kept = terms;
  while (auto worst = worst_fitting_group(kept, layout, overlap, options)) {
    std::erase_if(kept,
                  [&](const RowTerms& t) { return t.op == worst->op && t.mode == worst->mode; });
    result.overrides.push_back(*worst);
    if (kept.empty()) break;
    result.side_iterations += fit_classes(layout, kept, overlap, options);
  }
  std::vector<FittedOverride> groups = std::move(result.overrides);
  result.overrides.clear();
  for (const FittedOverride& g : groups)
    for (FittedOverride& o : override_values(g, terms, layout, overlap))
      result.overrides.push_back(std::move(o));

  result.profile = base;
  write_params(result, layout, base, usable.index.size());
  write_overrides(result);

  std::vector<double> before = evaluate_rows(base, usable, rows, reg, options.hints);
  std::vector<double> after = evaluate_rows(result.profile, usable, rows, reg, options.hints);
  for (size_t k = 0; k < usable.index.size(); ++k) {
    const Measurement& m = rows[usable.index[k]];
    result.rows.push_back({usable.index[k], m.op, m.mode, usable.base_cost[k].is_kernel,
                           m.measured_us, before[k], after[k], m.label, m.where});
  }
  result.rms_before_us = rms(result.rows, false, false);
  result.rms_after_us = rms(result.rows, true, false);
  result.rel_rms_before = rms(result.rows, false, true);
  result.rel_rms_after = rms(result.rows, true, true);
  return result;
}

std::string format_calibration(const CalibrationResult& r, size_t worst) {
  size_t skipped = 0;
  for (const SkippedRows& s : r.skipped) skipped += s.count;
  std::string out = fmt::format("calibrated {} from {} measurements ({} skipped)\n", r.profile.name,
                                r.rows.size(), skipped);
  for (const SkippedRows& s : r.skipped)
    out += fmt::format("note: skipped {} row(s): {} (first: {})\n", s.count, s.reason, s.first);
  out += "\nparameters:\n";
  for (const FittedParam& p : r.params)
    out += fmt::format("  {:<30} {:>10.4g} -> {:<10.4g} {}\n", p.name, p.before, p.after, p.status);
  if (!r.overrides.empty()) {
    out += "\nper-op overrides (the class parameters fit these ops badly):\n";
    for (const FittedOverride& o : r.overrides)
      out +=
          fmt::format("  {:<32} {}.{:<16} {:>8.3g} us from {} rows (class fit rel. RMS {:.0f}%)\n",
                      o.op, o.what, exec_mode_name(o.mode), o.value, o.rows, 100 * o.class_rel_rms);
  }
  out +=
      fmt::format("\nresiduals: RMS {:.3g} us -> {:.3g} us, relative RMS {:.1f}% -> {:.1f}%\n",
                  r.rms_before_us, r.rms_after_us, 100 * r.rel_rms_before, 100 * r.rel_rms_after);
  std::vector<const RowFit*> order;
  for (const RowFit& f : r.rows) order.push_back(&f);
  auto rel_err = [](const RowFit* f) {
    return std::abs(f->after_us - f->measured_us) / f->measured_us;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const RowFit* a, const RowFit* b) { return rel_err(a) > rel_err(b); });
  if (order.size() > worst) order.resize(worst);
  if (!order.empty()) out += fmt::format("worst rows (after the fit):\n");
  for (const RowFit* f : order) {
    std::string where = f->where.line > 0 ? fmt::format("{}:{}", f->where.file, f->where.line)
                                          : fmt::format("row {}", f->index);
    out +=
        fmt::format("  {:<24} {:<36} {:<15} measured {:>9.3f} us  model {:>9.3f} us ({:+.1f}%)\n",
                    where, f->op, exec_mode_name(f->mode), f->measured_us, f->after_us,
                    100 * (f->after_us - f->measured_us) / f->measured_us);
  }
  return out;
}

}  // namespace eqfuse
