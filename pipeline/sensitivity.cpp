// Sensitivity sweeps: re-optimize at swept parameter values, then bisect
// between sweep points where a decision count changes.
#include "pipeline/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

std::set<std::string> ops_in(const Graph& g, const OpRegistry& reg) {
  std::set<std::string> out;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind == NodeKind::Call && n.op != kNoOp)
      out.insert(reg.info(n.op).schema.qualified_name());
  }
  return out;
}

double parse_bound(std::string_view text, std::string_view spec) {
  std::string t(trim_blanks(text));
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
    throw Error(fmt::format("--param '{}': '{}' is not a number (expected NAME=LO:HI)", spec, t));
  return v;
}

// The midpoint of [a, b]: geometric for positive ranges (parameters span
// orders of magnitude), arithmetic otherwise.
double midpoint(double a, double b) {
  return a > 0 && b > 0 ? std::sqrt(a * b) : (a + b) / 2;
}

std::vector<double> sweep_values(double lo, double hi, double current, size_t steps) {
  std::vector<double> v;
  size_t n = std::max<size_t>(steps, 2);
  bool geometric = lo > 0 && hi > 0;
  for (size_t i = 0; i < n; ++i) {
    double f = static_cast<double>(i) / static_cast<double>(n - 1);
    v.push_back(geometric ? lo * std::pow(hi / lo, f) : lo + (hi - lo) * f);
  }
  if (current > lo && current < hi) v.push_back(current);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

size_t count_of(const DecisionCounts& d, const std::string& key) {
  auto it = d.find(key);
  return it == d.end() ? 0 : it->second;
}

// Runs the optimizer with one parameter changed; memoized by value.
class Evaluator {
 public:
  Evaluator(const Graph& input, const OpRegistry& reg, const OptimizeOptions& base,
            const DeviceProfile& profile, std::string param, bool symbol)
      : input_(input),
        reg_(reg),
        base_(base),
        profile_(profile),
        param_(std::move(param)),
        symbol_(symbol) {}

  // A symbol takes integer values (sizes); a profile parameter any value.
  double snap(double value) const { return symbol_ ? std::max(1.0, std::round(value)) : value; }

  const SweepPoint& at(double value) {
    value = snap(value);
    auto it = cache_.find(value);
    if (it != cache_.end()) return it->second;
    DeviceProfile p = profile_;
    OptimizeOptions opt = base_;
    if (symbol_)
      opt.hints.values[param_] = static_cast<int64_t>(value);
    else
      p.set(param_, value);
    opt.profile = &p;
    opt.record_explanations = false;
    opt.dump_dir.clear();
    OptimizeResult r = optimize_graph(input_, reg_, opt);
    ++runs_;
    SweepPoint point{value, r.after.total_us, decisions_of(r, input_, reg_)};
    return cache_.emplace(value, std::move(point)).first->second;
  }
  size_t runs() const { return runs_; }
  bool symbol() const { return symbol_; }

 private:
  const Graph& input_;
  const OpRegistry& reg_;
  const OptimizeOptions& base_;
  const DeviceProfile& profile_;
  std::string param_;
  bool symbol_ = false;
  std::map<double, SweepPoint> cache_;
  size_t runs_ = 0;
};

// Narrows [a, b] (where `key` has different counts) to the first change
// away from the count at `a`.
DecisionFlip bisect(Evaluator& eval, const std::string& key, double a, double b,
                    const SensitivityOptions& opt) {
  size_t left = count_of(eval.at(a).decisions, key);
  for (size_t i = 0; i < opt.max_bisections; ++i) {
    double scale = std::max(std::abs(a), std::abs(b));
    if (std::abs(b - a) <= opt.rel_tolerance * scale) break;
    double m = eval.snap(midpoint(a, b));
    if (m <= a || m >= b) break;
    if (count_of(eval.at(m).decisions, key) == left)
      a = m;
    else
      b = m;
  }
  // A size flips at a whole value: the first one with the new decision.
  return {eval.symbol() ? b : midpoint(a, b), left, count_of(eval.at(b).decisions, key)};
}

// The sweep range of one parameter, checked against the profile and the
// parameter's domain before any optimizer run.
struct SweepRange {
  double current = 0, lo = 0, hi = 0;
};

std::string spec_text(const SensitivityParam& sp) {
  return sp.lo ? fmt::format("{}={}:{}", sp.name, *sp.lo, *sp.hi) : sp.name;
}

// The symbolic dims of the graph's values ("s0", "s1").
std::set<std::string> graph_symbols(const Graph& g) {
  std::set<std::string> out;
  auto add = [&](const ValueType& t, auto& self) -> void {
    if (t.is_tensor() && t.tensor.shape)
      for (const SymInt& d : *t.tensor.shape)
        for (const std::string& a : d.atoms()) out.insert(a);
    if (t.sym)
      for (const std::string& a : t.sym->atoms()) out.insert(a);
    for (const ValueType& e : t.elements) self(e, self);
  };
  for (size_t i = 0; i < g.size(); ++i) add(g.node(NodeRef{static_cast<int32_t>(i)}).type, add);
  return out;
}

// The largest double below 2^63: every whole size up to it converts to int64.
constexpr double kMaxSweptSize = 9223372036854774784.0;

// The graph's sizes with the symbol at `value` (the other symbols at their
// hints); an Error naming the tensor when a byte count leaves int64.
void check_sizes_at(const Graph& input, const SymbolHints& hints, const SensitivityParam& sp,
                    double value) {
  SymbolHints at = hints;
  at.values[sp.name] = static_cast<int64_t>(value);
  try {
    check_sizes_fit(input, at);
  } catch (const Error& e) {
    throw Error(fmt::format("--param '{}': {}", spec_text(sp), e.what()), e.loc());
  }
}

// A symbol sweeps sizes: by default 1 .. 4x its hint (1024 when unhinted),
// clipped to what int64 holds; the graph's sizes are checked at both ends
// before any optimizer run.
SweepRange resolve_symbol_range(const Graph& input, const SensitivityParam& sp,
                                const SymbolHints& hints) {
  SweepRange r{static_cast<double>(hints.evaluate(SymInt::symbol(sp.name))), 0, 0};
  r.lo = sp.lo.value_or(1);
  r.hi = sp.hi.value_or(std::min(4 * r.current, kMaxSweptSize));
  if (r.lo < 1 || std::round(r.lo) != r.lo || std::round(r.hi) != r.hi)
    throw Error(fmt::format("--param '{}': a symbol takes whole sizes >= 1, got {} .. {}",
                            spec_text(sp), r.lo, r.hi));
  if (r.hi > kMaxSweptSize)
    throw Error(
        fmt::format("--param '{}': a size must fit in 63 bits; {} does not", spec_text(sp), r.hi));
  if (!(r.lo < r.hi))
    throw Error(fmt::format("--param '{}': empty range [{}, {}]", spec_text(sp), r.lo, r.hi));
  check_sizes_at(input, hints, sp, r.lo);
  check_sizes_at(input, hints, sp, r.hi);
  return r;
}

SweepRange resolve_range(const DeviceProfile& profile, const SensitivityParam& sp) {
  auto it = profile.params.find(sp.name);
  if (it == profile.params.end())
    throw Error(
        fmt::format("--param '{}': device profile '{}' has no parameter '{}' and the graph no "
                    "symbol of that name (parameters: {})",
                    spec_text(sp), profile.name, sp.name, fmt::join(profile.param_names(), ", ")));
  ParamDomain domain = param_domain(sp.name);
  SweepRange r{it->second, 0, 0};
  r.lo = sp.lo.value_or(std::max(r.current * 0.25, domain.min));
  r.hi = sp.hi.value_or(std::min(r.current * 4, domain.max));
  if (!domain.contains(r.lo) || !domain.contains(r.hi))
    throw Error(fmt::format("--param '{}': {} must be in {}; the range {} .. {} leaves it",
                            spec_text(sp), sp.name, domain.describe(), r.lo, r.hi));
  if (!(r.lo < r.hi))
    throw Error(
        fmt::format("--param '{}': empty range [{}, {}] (current value {}; give NAME=LO:HI)",
                    spec_text(sp), r.lo, r.hi, r.current));
  return r;
}

ParamSensitivity analyze_param(const Graph& input, const OpRegistry& reg,
                               const OptimizeOptions& base, const DeviceProfile& profile,
                               const std::string& name, bool symbol, const SweepRange& range,
                               const SensitivityOptions& opt, size_t& runs) {
  ParamSensitivity out;
  out.param = name;
  out.current = range.current;
  out.lo = range.lo;
  out.hi = range.hi;
  Evaluator eval(input, reg, base, profile, name, symbol);
  std::vector<double> values = sweep_values(out.lo, out.hi, out.current, opt.steps);
  for (double& v : values) v = eval.snap(v);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::set<std::string> keys;
  for (double v : values) {
    out.sweep.push_back(eval.at(v));
    for (const auto& [k, n] : out.sweep.back().decisions) keys.insert(k);
  }
  const SweepPoint& current = eval.at(out.current);
  for (const auto& [k, n] : current.decisions) keys.insert(k);
  for (const std::string& key : keys) {
    DecisionSensitivity d{key, count_of(current.decisions, key), {}};
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      if (count_of(out.sweep[i].decisions, key) != count_of(out.sweep[i + 1].decisions, key))
        d.flips.push_back(bisect(eval, key, values[i], values[i + 1], opt));
    }
    out.decisions.push_back(std::move(d));
  }
  runs += eval.runs();
  return out;
}

std::string format_value(double v) {
  return fmt::format("{:.4g}", v);
}

}  // namespace

SensitivityParam parse_sensitivity_param(std::string_view spec) {
  SensitivityParam p;
  size_t eq = spec.find('=');
  p.name = std::string(trim_blanks(spec.substr(0, eq)));
  if (p.name.empty()) throw Error(fmt::format("--param '{}': empty parameter name", spec));
  if (eq == std::string_view::npos) return p;
  std::string_view range = spec.substr(eq + 1);
  size_t colon = range.find(':');
  if (colon == std::string_view::npos)
    throw Error(fmt::format("--param '{}': expected NAME=LO:HI", spec));
  p.lo = parse_bound(range.substr(0, colon), spec);
  p.hi = parse_bound(range.substr(colon + 1), spec);
  if (!(*p.lo < *p.hi)) throw Error(fmt::format("--param '{}': LO must be below HI", spec));
  return p;
}

std::string_view DecisionSensitivity::state() const {
  if (changes()) return "flips";
  return at_current > 0 ? "always fused" : "never fused";
}

DecisionCounts decisions_of(const OptimizeResult& r, const Graph& input, const OpRegistry& reg) {
  DecisionCounts d;
  // Every fusion rule that built a fused form is a decision, chosen or not,
  // so a rule that never wins in a sweep is still reported ("never fused").
  // (The splitting direction of a `<=>` rule on an input that is already
  // fused decides nothing the rule's count could show.)
  for (const RuleRunStats& s : r.stats.rules)
    if (s.fusion && s.fusing_applications > 0) d["rule:" + s.rule] = s.chosen;
  std::set<std::string> before = ops_in(input, reg);
  for (size_t i = 0; i < r.graph.size(); ++i) {
    const Node& n = r.graph.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    // In-place ops come from the reinplace passes (reduce-overhead), not
    // from a fusion: not a cost decision.
    if (!reg.info(n.op).traits.mutated_args.empty()) continue;
    std::string name = reg.info(n.op).schema.qualified_name();
    if (!before.contains(name)) ++d["op:" + name];
  }
  return d;
}

SensitivityReport analyze_sensitivity(const Graph& input, const OpRegistry& reg,
                                      const OptimizeOptions& base,
                                      const SensitivityOptions& options) {
  DeviceProfile profile =
      base.profile != nullptr ? *base.profile : load_device_profile(base.device);
  if (base.world_size > 0 && base.profile == nullptr)
    profile.set("comm.world_size", base.world_size);
  SensitivityReport rep;
  rep.device = profile.name;
  rep.mode = std::string(exec_mode_name(base.rules.mode));
  std::vector<SweepRange> ranges;
  std::vector<char> is_symbol;
  std::set<std::string> symbols = graph_symbols(input);
  for (const SensitivityParam& sp : options.params) {
    bool symbol = !profile.params.contains(sp.name) && symbols.contains(sp.name);
    is_symbol.push_back(symbol);
    ranges.push_back(symbol ? resolve_symbol_range(input, sp, base.hints)
                            : resolve_range(profile, sp));
  }
  for (size_t i = 0; i < options.params.size(); ++i)
    rep.params.push_back(analyze_param(input, reg, base, profile, options.params[i].name,
                                       is_symbol[i] != 0, ranges[i], options, rep.optimize_runs));
  return rep;
}

std::string format_sensitivity_text(const SensitivityReport& r) {
  std::string out =
      fmt::format("sensitivity on {}, {} ({} optimizer runs)\n", r.device, r.mode, r.optimize_runs);
  for (const ParamSensitivity& p : r.params) {
    out += fmt::format("\n{}: current {}, swept {} .. {} ({} points)\n", p.param,
                       format_value(p.current), format_value(p.lo), format_value(p.hi),
                       p.sweep.size());
    if (p.decisions.empty()) out += "  no fusion decisions in this graph\n";
    out += fmt::format("  {:<52} {:>8}  {}\n", "decision", "current", "break-even");
    for (const DecisionSensitivity& d : p.decisions) {
      std::string flips;
      for (const DecisionFlip& f : d.flips)
        flips += fmt::format("{}{} ({} -> {})", flips.empty() ? "" : ", ",
                             format_value(f.break_even), f.below, f.above);
      if (flips.empty()) flips = fmt::format("never flips in range ({})", d.state());
      out += fmt::format("  {:<52} {:>8}  {}\n", d.decision, d.at_current, flips);
    }
    out += fmt::format("  modeled cost: {:.3f} us at {} .. {:.3f} us at {}\n",
                       p.sweep.front().cost_us, format_value(p.sweep.front().value),
                       p.sweep.back().cost_us, format_value(p.sweep.back().value));
  }
  out += "\nsummary: decisions that change across the range\n";
  for (const ParamSensitivity& p : r.params) {
    std::vector<std::string> changing;
    for (const DecisionSensitivity& d : p.decisions) {
      if (!d.changes()) continue;
      std::vector<std::string> at;
      for (const DecisionFlip& f : d.flips) at.push_back(format_value(f.break_even));
      changing.push_back(fmt::format("{} at {}", d.decision, fmt::join(at, ", ")));
    }
    std::string what = changing.empty()
                           ? fmt::format("none ({} decision(s) constant)", p.decisions.size())
                           : fmt::format("{}", fmt::join(changing, "; "));
    out +=
        fmt::format("  {} {} .. {}: {}\n", p.param, format_value(p.lo), format_value(p.hi), what);
  }
  return out;
}

std::string sensitivity_to_json(const SensitivityReport& r) {
  nlohmann::ordered_json j;
  j["device"] = r.device;
  j["mode"] = r.mode;
  j["optimize_runs"] = r.optimize_runs;
  j["params"] = nlohmann::ordered_json::array();
  for (const ParamSensitivity& p : r.params) {
    nlohmann::ordered_json jp;
    jp["param"] = p.param;
    jp["current"] = p.current;
    jp["lo"] = p.lo;
    jp["hi"] = p.hi;
    jp["sweep"] = nlohmann::ordered_json::array();
    for (const SweepPoint& s : p.sweep)
      jp["sweep"].push_back(
          {{"value", s.value}, {"cost_us", s.cost_us}, {"decisions", s.decisions}});
    jp["decisions"] = nlohmann::ordered_json::array();
    for (const DecisionSensitivity& d : p.decisions) {
      nlohmann::ordered_json jd;
      jd["decision"] = d.decision;
      jd["at_current"] = d.at_current;
      jd["state"] = d.state();
      jd["flips"] = nlohmann::ordered_json::array();
      for (const DecisionFlip& f : d.flips)
        jd["flips"].push_back(
            {{"break_even", f.break_even}, {"below", f.below}, {"above", f.above}});
      jp["decisions"].push_back(std::move(jd));
    }
    jp["changes"] = nlohmann::ordered_json::array();  // the decisions that flip, by name
    for (const DecisionSensitivity& d : p.decisions)
      if (d.changes()) jp["changes"].push_back(d.decision);
    j["params"].push_back(std::move(jp));
  }
  return j.dump(2);
}

}  // namespace eqfuse
