// eqfuse._eqfuse: the pybind11 extension behind the `eqfuse` Python package
// (docs/python.md). Graphs cross the boundary as eqfuse-graph JSON documents
// (docs/graph-json.md) held in Python dicts and lists, converted value by
// value (py_json.hpp). `optimize` runs the pipeline `eqfuse optimize` runs
// (pipeline/optimize.hpp, the same defaults and the same config handling:
// the config first, the keyword arguments on top) and returns a Run holding
// the result, from which the optimized graph, the --stats-json object, the
// summary, the FX text and the explanations (`eqfuse explain`) are read.
// Every eqfuse::Error becomes eqfuse.EqfuseError carrying Error::render(). Ops torch
// knows and the catalog lacks come in as catalog entries with Python shape functions
// (`ops`, `op_metas`; python/eqfuse/torch_ops.py).
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/memory_budget.hpp"
#include "graph/exec_mode.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "passes/reinplace.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "pipeline/optimize_config.hpp"
#include "pipeline/presets.hpp"
#include "py_json.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_file.hpp"

namespace py = pybind11;

namespace eqfuse::python {
namespace {

// One optimize run and everything it refers to: the rule library keeps a
// pointer to the registry and the explanations read both, so the run is
// created in place and never moved.
struct Run {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  std::unique_ptr<RuleLibrary> library;
  Graph input;
  std::vector<std::string> opaque_ops;
  OptimizeResult result;
};

// A str names a file when it is one line naming an existing regular file.
bool names_file(const std::string& s) {
  std::error_code ec;
  return !s.empty() && s.find('\n') == std::string::npos && std::filesystem::is_regular_file(s, ec);
}

// The config as (text, origin): a dict (the --config JSON object) or a path.
std::optional<std::pair<std::string, std::string>> config_text(const py::object& config) {
  if (config.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(config)) {
    std::string path = config.cast<std::string>();
    return std::pair{read_file_or_stdin(path), path};
  }
  if (py::isinstance<py::dict>(config))
    return std::pair{to_json(config, "config").dump(), "config"};
  throw Error(
      fmt::format("config: expected a dict or a file path, got '{}'",
                  py::str(py::type::handle_of(config).attr("__name__")).cast<std::string>()));
}

SymbolHints hints_from(const std::map<std::string, int64_t>& hints) {
  SymbolHints h;
  for (const auto& [name, value] : hints) {
    if (value < 1) throw Error(fmt::format("hints: '{}' must be >= 1, got {}", name, value));
    h.values[name] = value;
  }
  return h;
}

// A typed tensor as Python sees it: (dtype code, shape), symbolic dims as their text.
py::tuple tensor_description(const ValueType& t) {
  py::list shape;
  for (const SymInt& d : *t.tensor.shape) {
    if (std::optional<int64_t> v = d.constant()) {
      shape.append(*v);
    } else {
      shape.append(d.to_string());
    }
  }
  return py::make_tuple(std::string(dtype_code(t.tensor.dtype)), shape);
}

// A matched input as extra_check sees it: a constant's value, a tensor's
// (dtype code, shape) with symbolic dims as text, or None.
py::object matched_value(const RuleMatch& m, const std::string& name) {
  if (std::optional<Constant> c = m.constant(name)) {
    switch (c->kind) {
      case ConstKind::Int:
        return py::int_(c->as_int());
      case ConstKind::Float:
        return py::float_(c->as_float());
      case ConstKind::Bool:
        return py::bool_(c->as_bool());
      case ConstKind::IntList:
        return py::cast(c->as_int_list());
      default:
        return py::str(c->to_string());
    }
  }
  const ValueType t = m.type(name);
  if (!t.is_tensor() || !t.tensor.shape) return py::none();
  return tensor_description(t);
}

// A Python callable as a rule's extra check. It runs while saturation runs
// without the GIL, so it takes the GIL; a Python exception becomes an
// Error naming the rule rather than unwinding through the engine.
ExtraCheck python_extra_check(py::function check, std::string rule,
                              std::vector<std::string> inputs) {
  auto shared = std::make_shared<py::function>(std::move(check));
  return [shared, rule = std::move(rule), inputs = std::move(inputs)](const RuleMatch& m) {
    py::gil_scoped_acquire gil;
    try {
      py::dict values;
      for (const std::string& name : inputs) values[py::str(name)] = matched_value(m, name);
      return py::bool_((*shared)(values)).cast<bool>();
    } catch (py::error_already_set& e) {
      throw Error(fmt::format("rule '{}': extra_check raised {}", rule, e.what()));
    }
  };
}

// ---- ops taken from torch (python/eqfuse/torch_ops.py, docs/python.md) ----------------
//
// `ops`: catalog entries (docs/ops.md syntax) of ops torch knows and the built-in
// catalog does not; `op_metas`: qualified name -> a Python callable giving the output
// types of a call from its fake (meta) kernel. The callable receives one description
// per schema argument -- a tensor as (dtype code, [dims]) with symbolic dims as text, a
// SymInt as an int or its text, a constant as its Python value (a dtype as its torch
// name, a device or literal as text), a list item by item, None, and Ellipsis for a
// value whose type is unknown -- and returns a list with one entry per schema return:
// (dtype code, [dims] or None) for a tensor, a list of those for Tensor[], an int or
// text for a SymInt, or None where the type is unknown (None alone: all unknown).

// A value of known type as the meta callable sees it; Ellipsis when unknown.
py::object type_description(const ValueType& t) {
  switch (t.kind) {
    case ValueType::Kind::Tensor: {
      if (!t.tensor.shape || t.tensor.dtype == DType::Unknown) return py::ellipsis();
      return tensor_description(t);
    }
    case ValueType::Kind::SymInt:
    case ValueType::Kind::Int:
      if (!t.sym) return py::ellipsis();
      if (std::optional<int64_t> v = t.sym->constant()) return py::int_(*v);
      return py::str(t.sym->to_string());
    case ValueType::Kind::None:
      return py::none();
    case ValueType::Kind::Tuple: {
      py::list items;
      for (const ValueType& e : t.elements) items.append(type_description(e));
      return items;
    }
    default:
      return py::ellipsis();
  }
}

py::object arg_description(const Arg& a, const CallContext& c) {
  return std::visit(
      [&](const auto& v) -> py::object {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return py::none();
        } else if constexpr (std::is_same_v<V, bool>) {
          return py::bool_(v);
        } else if constexpr (std::is_same_v<V, int64_t>) {
          return py::int_(v);
        } else if constexpr (std::is_same_v<V, double>) {
          return py::float_(v);
        } else if constexpr (std::is_same_v<V, std::string>) {
          return py::str(v);
        } else if constexpr (std::is_same_v<V, DType>) {
          return py::str(std::string(dtype_torch_name(v)));
        } else if constexpr (std::is_same_v<V, Device>) {
          return py::str(v.to_string());
        } else if constexpr (std::is_same_v<V, Literal>) {
          return py::str(v.text);
        } else if constexpr (std::is_same_v<V, NodeRef>) {
          return type_description(c.type_of(v));
        } else {
          static_assert(std::is_same_v<V, ArgList>);
          py::list items;
          for (const Arg& item : v.items) items.append(arg_description(item, c));
          return items;
        }
      },
      a.value);
}

std::optional<SymInt> parse_dim(const std::string& text) {
  try {
    return SymInt::parse(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // an expression eqfuse cannot hold: the dim is unknown
  }
}

// One entry of the meta callable's answer as a ValueType.
ValueType described_type(py::handle v) {
  if (v.is_none()) return ValueType::unknown();
  if (py::isinstance<py::bool_>(v)) {
    ValueType t;
    t.kind = ValueType::Kind::Bool;
    return t;
  }
  if (py::isinstance<py::int_>(v)) return ValueType::of_symint(SymInt(v.cast<int64_t>()));
  if (py::isinstance<py::float_>(v)) {
    ValueType t;
    t.kind = ValueType::Kind::SymFloat;
    return t;
  }
  if (py::isinstance<py::str>(v)) return ValueType::of_symint(parse_dim(v.cast<std::string>()));
  if (py::isinstance<py::tuple>(v) && py::len(v) == 2 && py::isinstance<py::str>(v[py::int_(0)])) {
    TensorType t;
    t.dtype = parse_dtype(v[py::int_(0)].cast<std::string>()).value_or(DType::Unknown);
    py::handle dims = v[py::int_(1)];
    if (!dims.is_none()) {
      Shape shape;
      bool known = true;
      for (py::handle d : dims) {
        if (py::isinstance<py::int_>(d) && !py::isinstance<py::bool_>(d)) {
          shape.emplace_back(d.cast<int64_t>());
        } else if (std::optional<SymInt> s = py::isinstance<py::str>(d)
                                                 ? parse_dim(d.cast<std::string>())
                                                 : std::nullopt) {
          shape.push_back(*s);
        } else {
          known = false;
        }
      }
      if (known) t.shape = std::move(shape);
    }
    return ValueType::of_tensor(std::move(t));
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::vector<ValueType> items;
    for (py::handle item : v) items.push_back(described_type(item));
    return ValueType::of_tuple(std::move(items));
  }
  throw Error(fmt::format("unexpected value of type '{}' in the answer",
                          py::str(py::type::handle_of(v).attr("__name__")).cast<std::string>()));
}

ValueType answer_type(py::handle answer, const OpSchema& schema) {
  const size_t returns = schema.returns.size();
  if (answer.is_none()) return ValueType::unknown();
  if (!py::isinstance<py::list>(answer)) {
    if (returns == 1) return described_type(answer);
    throw Error(fmt::format("expected a list of {} output types", returns));
  }
  if (py::len(answer) != returns)
    throw Error(fmt::format("{} output types for {} schema returns", py::len(answer), returns));
  if (returns == 1) return described_type(answer[py::int_(0)]);
  std::vector<ValueType> outs;
  for (py::handle item : answer) outs.push_back(described_type(item));
  return ValueType::of_tuple(std::move(outs));
}

// `TypeError: message`, without the traceback error_already_set::what() appends.
std::string python_error_text(const py::error_already_set& e) {
  std::string type = py::str(e.type().attr("__name__")).cast<std::string>();
  std::string message = py::str(e.value()).cast<std::string>();
  return message.empty() ? type : type + ": " + message;
}

// A Python callable as an op's meta function (MetaFn). Shape inference runs while
// saturation runs without the GIL, so it takes the GIL; a Python exception becomes an
// Error naming the op. The callable is released under the GIL wherever the last copy
// of the MetaFn goes.
MetaFn python_meta(py::function fn, std::string op) {
  std::shared_ptr<py::function> shared(new py::function(std::move(fn)), [](py::function* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  return [shared, op = std::move(op)](const CallContext& c) -> ValueType {
    py::gil_scoped_acquire gil;
    try {
      py::list args;
      for (const Arg& a : c.args()) args.append(arg_description(a, c));
      py::object answer = (*shared)(args);
      return answer_type(answer, c.schema());
    } catch (py::error_already_set& e) {
      throw Error(fmt::format("op '{}': shape inference from its torch fake kernel raised {}", op,
                              python_error_text(e)));
    } catch (const py::cast_error& e) {
      throw Error(
          fmt::format("op '{}': shape inference from its torch fake kernel: {}", op, e.what()));
    } catch (const Error& e) {
      throw Error(
          fmt::format("op '{}': shape inference from its torch fake kernel: {}", op, e.what()));
    }
  };
}

// The qualified name a catalog entry declares (the text before its '(').
std::string entry_op_name(std::string_view entry) {
  return std::string(trim_blanks(entry.substr(0, entry.find('('))));
}

// Registers the `ops` entries the registry lacks (a config or the built-in catalog
// wins over a torch-derived entry) and installs `op_metas` on the ops so registered,
// and on registered ops that have no shape rule.
void add_torch_ops(OpRegistry& reg, const std::vector<std::string>& ops,
                   const std::map<std::string, py::function>& metas) {
  std::set<std::string> added;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string name = entry_op_name(ops[i]);
    if (reg.find(name)) continue;
    reg.load_catalog(ops[i], fmt::format("<ops[{}]>", i));
    added.insert(name);
  }
  for (const auto& [name, fn] : metas) {
    std::optional<OpId> id = reg.find(name);
    if (!id)
      throw Error(fmt::format("op_metas: op '{}' is not registered (give its entry in ops)", name));
    if (added.count(name) || !reg.info(*id).meta) reg.set_meta(name, python_meta(fn, name));
  }
}

// Each entry checked alone against the built-in catalog: None, or the error's text.
std::vector<std::optional<std::string>> check_op_entries(const std::vector<std::string>& ops) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  std::vector<std::optional<std::string>> out;
  for (size_t i = 0; i < ops.size(); ++i) {
    try {
      if (reg.find(entry_op_name(ops[i])))
        throw Error(fmt::format("op '{}' is already registered", entry_op_name(ops[i])));
      reg.load_catalog(ops[i], fmt::format("<ops[{}]>", i));
      out.emplace_back(std::nullopt);
    } catch (const Error& e) {
      out.emplace_back(e.render());
    }
  }
  return out;
}

// The config's .rules files, then the user's rule texts (or files), each rule
// named in `extra_checks` given its Python check, added to a copy of the
// default library.
std::unique_ptr<RuleLibrary> user_library(const OpRegistry& reg,
                                          const std::vector<std::string>& config_rule_files,
                                          const std::vector<std::string>& rules,
                                          const std::map<std::string, py::function>& extra_checks) {
  auto library = std::make_unique<RuleLibrary>(RuleLibrary::builtin(reg));
  std::set<std::string> unused;
  for (const auto& [name, fn] : extra_checks) unused.insert(name);
  // (text, origin) of every rules source, the config's files first (as the CLI).
  std::vector<std::pair<std::string, std::string>> sources;
  for (const std::string& path : config_rule_files)
    sources.emplace_back(read_file_or_stdin(path), path);
  for (size_t i = 0; i < rules.size(); ++i) {
    const bool file = names_file(rules[i]);
    sources.emplace_back(file ? read_file_or_stdin(rules[i]) : rules[i],
                         file ? rules[i] : fmt::format("<rules[{}]>", i));
  }
  for (const auto& [text, origin] : sources) {
    for (RuleDef& def : parse_rules_file(text, origin)) {
      if (auto it = extra_checks.find(def.name); it != extra_checks.end()) {
        std::vector<std::string> inputs;  // RuleDef::inputs is filled by add(); read the search
        for (NodeRef r : def.search.placeholders()) inputs.push_back(def.search.node(r).name);
        def.extra_check = python_extra_check(it->second, def.name, std::move(inputs));
        def.extra_check_name = "extra_check";
        unused.erase(def.name);
      }
      library->add(std::move(def));
    }
  }
  if (!unused.empty())
    throw Error(
        fmt::format("extra_checks: no rule named '{}' among the given rules", *unused.begin()));
  return library;
}

std::unique_ptr<Run> run_optimize(
    const py::dict& graph, const std::optional<std::string>& mode,
    const std::optional<std::string>& device, const py::object& config,
    const std::vector<std::string>& rules, const std::vector<std::string>& disable_rules,
    const std::vector<std::string>& enable_rules, const std::map<std::string, int64_t>& hints,
    const std::vector<std::string>& frozen_inputs, bool explain,
    const std::map<std::string, py::function>& extra_checks, const std::vector<std::string>& ops,
    const std::map<std::string, py::function>& op_metas, std::optional<bool> reinplace_passes,
    const std::optional<std::string>& memory_limit, const std::optional<std::string>& preset) {
  auto run = std::make_unique<Run>();
  OptimizeOptions opt;
  if (preset) apply_preset(opt, *preset);  // the base the config and arguments adjust
  // As the CLI (cli/cli_common.cpp options_from_toggles): the config's
  // optimize keys, its reinplace section (which may register ops, so before
  // the graph is read), then the arguments on top.
  OptimizeConfigFiles config_files;
  if (auto cfg = config_text(config))
    config_files = apply_optimize_config(opt, run->reg, cfg->first, cfg->second);
  if (preset && opt.rules.preset != *preset)
    throw Error(fmt::format("preset=\"{}\" and the config's \"preset\": \"{}\" disagree: give one",
                            *preset, opt.rules.preset));
  // Ops taken from torch, after the config's (which win) and before the graph is
  // read and the rules are compiled.
  add_torch_ops(run->reg, ops, op_metas);
  if (mode) opt.rules.mode = parse_exec_mode(*mode);
  if (device) opt.device = *device;
  opt.rules.disable.insert(opt.rules.disable.end(), disable_rules.begin(), disable_rules.end());
  opt.rules.enable.insert(opt.rules.enable.end(), enable_rules.begin(), enable_rules.end());
  opt.hints = hints_from(hints);
  opt.frozen_inputs.insert(opt.frozen_inputs.end(), frozen_inputs.begin(), frozen_inputs.end());
  opt.record_explanations = explain;
  if (reinplace_passes) opt.reinplace_passes = *reinplace_passes;
  if (memory_limit) opt.memory_limit_bytes = parse_memory_size(*memory_limit, "memory_limit");

  nlohmann::ordered_json doc = to_json(graph, "graph");
  run->input = graph_from_json(doc, "<graph>");
  run->opaque_ops = resolve_ops(run->input, run->reg);
  infer_types(run->input, run->reg);

  if (!rules.empty() || !extra_checks.empty() || !config_files.rule_files.empty()) {
    run->library = user_library(run->reg, config_files.rule_files, rules, extra_checks);
    opt.library = run->library.get();
  }
  {
    py::gil_scoped_release release;
    run->result = optimize_graph(run->input, run->reg, opt);
  }
  std::vector<std::string>& notes = run->result.stats.notes;
  notes.insert(notes.end(), config_files.notes.begin(), config_files.notes.end());
  return run;
}

std::string explain_text(const Run& run, const std::string& format, double dot_timeout_s) {
  ExplainReport rep = explain_run(run.result, run.reg);
  if (format == "text") return format_explanation_text(rep);
  if (format == "json") return explanation_to_json(rep) + "\n";
  if (format == "html") {
    HtmlOptions html;
    html.dot_timeout_s = dot_timeout_s;
    html.before_cost = &run.result.before;  // the run's own prices, as the CLI's page
    html.after_cost = &run.result.after;
    return explanation_to_html(rep, run.input, run.result.graph, html);
  }
  throw Error(fmt::format("explain: unknown format '{}' (text, json or html)", format));
}

py::object graph_dict(const Graph& g, const OpRegistry& reg) {
  return from_json(graph_to_json(g, &reg));
}

// The typed, normalized form of a document, as `eqfuse print --format json`.
py::object load_document(const py::dict& graph) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g = graph_from_json(to_json(graph, "graph"), "<graph>");
  resolve_ops(g, reg);
  infer_types(g, reg);
  return graph_dict(g, reg);
}

std::string print_document(const py::dict& graph) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g = graph_from_json(to_json(graph, "graph"), "<graph>");
  resolve_ops(g, reg);
  infer_types(g, reg);
  return print_fx(g, &reg);
}

}  // namespace
}  // namespace eqfuse::python

PYBIND11_MODULE(_eqfuse, m) {
  using namespace eqfuse;
  using namespace eqfuse::python;
  m.doc() = "eqfuse C++ bindings: optimize eqfuse-graph JSON documents (docs/python.md)";

  static py::exception<Error> error_class(m, "EqfuseError", PyExc_Exception);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(error_class.ptr(), e.render().c_str());
    } catch (const nlohmann::ordered_json::exception& e) {
      PyErr_SetString(error_class.ptr(), fmt::format("error: {}", e.what()).c_str());
    }
  });

  py::class_<Run, std::unique_ptr<Run>>(m, "Run",
                                        "The result of one optimize run (eqfuse._eqfuse.optimize)")
      .def(
          "graph", [](const Run& r) { return graph_dict(r.result.graph, r.reg); },
          "The optimized graph as an eqfuse-graph document (dict)")
      .def(
          "input_graph", [](const Run& r) { return graph_dict(r.input, r.reg); },
          "The input graph, resolved and typed, as an eqfuse-graph document (dict)")
      .def(
          "stats",
          [](const Run& r) {
            return from_json(nlohmann::ordered_json::parse(stats_to_json(r.result.stats)));
          },
          "The --stats-json object (dict; keys in docs/cli.md)")
      .def(
          "summary", [](const Run& r) { return format_summary(r.result.stats); },
          "The stderr summary of `eqfuse optimize`")
      .def(
          "fx_text", [](const Run& r) { return print_fx(r.result.graph, &r.reg); },
          "The optimized graph as FX text (print_readable form)")
      .def_readonly("opaque_ops", &Run::opaque_ops,
                    "Targets of the input the op registry does not know (kept opaque)")
      .def("explain", &explain_text, py::arg("format") = "text",
           py::arg("dot_timeout") = kDotTimeoutSeconds,
           "The `eqfuse explain` report: 'text', 'json' (a JSON text) or 'html'");

  m.def("optimize", &run_optimize, py::arg("graph"), py::kw_only(), py::arg("mode") = py::none(),
        py::arg("device") = py::none(), py::arg("config") = py::none(),
        py::arg("rules") = std::vector<std::string>{},
        py::arg("disable_rules") = std::vector<std::string>{},
        py::arg("enable_rules") = std::vector<std::string>{},
        py::arg("hints") = std::map<std::string, int64_t>{},
        py::arg("frozen_inputs") = std::vector<std::string>{}, py::arg("explain") = true,
        py::arg("extra_checks") = std::map<std::string, py::function>{},
        py::arg("ops") = std::vector<std::string>{},
        py::arg("op_metas") = std::map<std::string, py::function>{},
        py::arg("reinplace_passes") = py::none(), py::arg("memory_limit") = py::none(),
        py::arg("preset") = py::none(),
        "Optimize an eqfuse-graph document (dict) as `eqfuse optimize` does; returns a Run. "
        "`preset`: a peer preset (pipeline/presets.hpp), applied before the config; "
        "`ops`: extra op catalog entries (docs/ops.md; ops already registered are skipped), "
        "`op_metas`: qualified name -> Python shape function (docs/python.md)");
  m.def(
      "load", &load_document, py::arg("graph"),
      "The document resolved against the op registry and typed (as `eqfuse print --format json`)");
  m.def(
      "check_rules",
      [](const std::string& text, const std::string& origin, const std::vector<std::string>& ops,
         const std::map<std::string, py::function>& op_metas) {
        OpRegistry reg = OpRegistry::with_builtin_ops();
        add_torch_ops(reg, ops, op_metas);
        RuleLibrary lib = RuleLibrary::builtin(reg);
        lib.load_text(text, origin);  // proves each rule on random inputs (rule_check.hpp)
        return lib.load_notes();
      },
      py::arg("text"), py::arg("origin"), py::kw_only(),
      py::arg("ops") = std::vector<std::string>{},
      py::arg("op_metas") = std::map<std::string, py::function>{},
      "Validates .rules text against the default library (unknown ops, types, duplicate names) "
      "and proves each rule on random inputs (an unsound one raises EqfuseError); returns the "
      "notes of rules that could not be run. `ops`/`op_metas` as for optimize");
  m.def(
      "known_ops",
      [] {
        const OpRegistry reg = OpRegistry::with_builtin_ops();
        std::vector<std::string> names;
        for (const OpInfo& info : reg.all()) names.push_back(info.schema.qualified_name());
        return names;
      },
      "Qualified names of the ops of the built-in catalog (graph/ops/*.schemas)");
  m.def("check_ops", &check_op_entries, py::arg("ops"),
        "Each op catalog entry checked alone against the built-in catalog: None where it "
        "loads, else the error's text");
  m.def("print_fx", &print_document, py::arg("graph"),
        "The document as FX text (as `eqfuse print`)");
  m.attr("default_device") = std::string(kDefaultDevice);
}
