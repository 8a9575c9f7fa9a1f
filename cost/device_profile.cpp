// Device profiles: JSON reading (with "base" inheritance), validation
// against the parameters the cost model reads, and writing back.
#include "cost/device_profile.hpp"

#include "cost/comm_params.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/embedded.hpp"
#include "base/json_text.hpp"

namespace eqfuse {
namespace {

using Json = nlohmann::ordered_json;

// Inheritance chains longer than this are cycles.
constexpr int kMaxBaseDepth = 8;

// An error inside a profile file: `origin` becomes the error's file, the
// message starts with the JSON path (as graph JSON errors do).
[[noreturn]] void fail_at(std::string_view origin, std::string_view json_path,
                          const std::string& message) {
  throw Error(fmt::format("{}: {}", json_path, message), SourceLoc{std::string(origin), 0, 0});
}

std::string stem_of(std::string_view path) {
  return std::filesystem::path(std::string(path)).stem().string();
}

const EmbeddedFile* find_builtin(std::string_view name) {
  for (const EmbeddedFile& f : eqfuse_device_profiles())
    if (stem_of(f.path) == name) return &f;
  return nullptr;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read device profile '{}'", path), SourceLoc{path});
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool looks_like_path(std::string_view s) {
  return s.find('/') != s.npos || s.ends_with(".json");
}

// A profile file before its base is applied.
struct ProfileSource {
  std::string text;
  std::string origin;  // file name for messages; directory anchors relative bases
};

ProfileSource locate_profile(std::string_view name_or_path, std::string_view relative_to) {
  if (const EmbeddedFile* f = find_builtin(name_or_path))
    return {std::string(f->contents), std::string(f->path)};
  if (looks_like_path(name_or_path)) {
    std::filesystem::path p{std::string(name_or_path)};
    if (p.is_relative() && !relative_to.empty())
      p = std::filesystem::path(std::string(relative_to)).parent_path() / p;
    return {read_text_file(p.string()), p.string()};
  }
  throw Error(
      fmt::format("unknown device '{}'; built-in devices: {} (or give a path to a JSON "
                  "profile)",
                  name_or_path, fmt::join(builtin_device_names(), ", ")));
}

double read_number(const Json& j, std::string_view origin, const std::string& path) {
  if (!j.is_number()) fail_at(origin, path, fmt::format("expected a number, got {}", j.dump()));
  return j.get<double>();
}

std::string read_source(const Json& obj, std::string_view origin, const std::string& path) {
  auto it = obj.find("source");
  if (it == obj.end() || !it->is_string() || it->get<std::string>().empty())
    fail_at(origin, path + "/source",
            "every number needs a non-empty \"source\" (a citation or the word \"estimate\")");
  return it->get<std::string>();
}

void read_param(DeviceProfile& p, const std::string& name, const Json& entry,
                std::string_view origin) {
  std::string path = "/params/" + name;
  if (!entry.is_object()) fail_at(origin, path, R"(expected {"value": <number>, "source": "..."})");
  for (const auto& [key, _] : entry.items())
    if (key != "value" && key != "source") fail_at(origin, path + "/" + key, "unknown field");
  auto value = entry.find("value");
  if (value == entry.end()) fail_at(origin, path + "/value", "missing");
  p.params[name] = read_number(*value, origin, path + "/value");
  p.sources[name] = read_source(entry, origin, path);
}

std::optional<double> read_optional_number(const Json& obj, const char* key,
                                           std::string_view origin, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  return read_number(*it, origin, path + "/" + key);
}

// "fixed_us.<mode>" / "host_us.<mode>": false if `key` is neither.
bool read_mode_override(OpCostOverride& o, const std::string& key, const Json& value,
                        std::string_view origin, const std::string& path) {
  for (auto [prefix, slots] : {std::pair{std::string_view("fixed_us."), &o.fixed_us_in},
                               std::pair{std::string_view("host_us."), &o.host_us_in}}) {
    if (!key.starts_with(prefix)) continue;
    ExecMode mode{};
    try {
      mode = parse_exec_mode(std::string_view(key).substr(prefix.size()));
    } catch (const Error& e) {
      fail_at(origin, path + "/" + key, e.what());
    }
    double v = read_number(value, origin, path + "/" + key);
    if (!(v >= 0)) fail_at(origin, path + "/" + key, "must be >= 0");
    (*slots)[static_cast<size_t>(mode)] = v;
    return true;
  }
  return false;
}

OpCostOverride read_override(const Json& entry, std::string_view origin, const std::string& path) {
  if (!entry.is_object()) fail_at(origin, path, "expected an object");
  static const char* const kFields[] = {"fixed_us", "efficiency", "flops_per_elem", "kernel_class",
                                        "source"};
  OpCostOverride o;
  for (const auto& [key, value] : entry.items()) {
    if (std::find(std::begin(kFields), std::end(kFields), key) != std::end(kFields)) continue;
    if (read_mode_override(o, key, value, origin, path)) continue;
    fail_at(origin, path + "/" + key,
            "unknown field (expected fixed_us, fixed_us.<mode>, host_us.<mode>, efficiency, "
            "flops_per_elem, kernel_class, source)");
  }
  o.fixed_us = read_optional_number(entry, "fixed_us", origin, path);
  o.efficiency = read_optional_number(entry, "efficiency", origin, path);
  o.flops_per_elem = read_optional_number(entry, "flops_per_elem", origin, path);
  if (auto it = entry.find("kernel_class"); it != entry.end()) {
    o.kernel_class = it->is_string() ? parse_kernel_class(it->get<std::string>()) : std::nullopt;
    if (!o.kernel_class)
      fail_at(origin, path + "/kernel_class",
              fmt::format("expected \"vector\", \"cube\" or \"mix\", got {}", it->dump()));
  }
  if (o.efficiency && (*o.efficiency <= 0 || *o.efficiency > 1))
    fail_at(origin, path + "/efficiency", "must be in (0, 1]");
  o.source = read_source(entry, origin, path);
  return o;
}

std::string read_string_field(const Json& doc, const char* key, std::string_view origin) {
  auto it = doc.find(key);
  if (it == doc.end()) return {};
  if (!it->is_string()) fail_at(origin, fmt::format("/{}", key), "expected a string");
  return it->get<std::string>();
}

DeviceProfile resolve_profile(const ProfileSource& src, int depth);

// Applies one file's contents on top of `p` (its base, or empty).
void apply_profile_json(DeviceProfile& p, const Json& doc, std::string_view origin) {
  if (!doc.is_object()) fail_at(origin, "/", "expected a JSON object");
  for (const auto& [key, _] : doc.items())
    if (key != "name" && key != "description" && key != "base" && key != "params" &&
        key != "overrides")
      fail_at(origin, "/" + key,
              "unknown field (expected name, description, base, params, overrides)");
  std::string name = read_string_field(doc, "name", origin);
  if (name.empty()) fail_at(origin, "/name", "missing (a profile needs a name)");
  p.name = name;
  if (std::string d = read_string_field(doc, "description", origin); !d.empty()) p.description = d;
  if (auto params = doc.find("params"); params != doc.end()) {
    if (!params->is_object()) fail_at(origin, "/params", "expected an object");
    for (const auto& [k, v] : params->items()) read_param(p, k, v, origin);
  }
  if (auto ov = doc.find("overrides"); ov != doc.end()) {
    if (!ov->is_object()) fail_at(origin, "/overrides", "expected an object");
    for (const auto& [k, v] : ov->items())
      p.overrides[k] = read_override(v, origin, "/overrides/" + k);
  }
}

void check_values(const DeviceProfile& p, std::string_view origin) {
  for (const std::string& name : required_device_params()) {
    if (!p.params.count(name))
      throw Error(
          fmt::format("device profile '{}' has no parameter '{}' (the cost model reads: {})",
                      p.name, name, fmt::join(required_device_params(), ", ")),
          SourceLoc{std::string(origin)});
  }
  for (const auto& [name, value] : p.params) {
    ParamDomain d = param_domain(name);
    if (!d.contains(value))
      fail_at(origin, "/params/" + name,
              fmt::format("value {} is out of range (must be in {})", value, d.describe()));
  }
}

DeviceProfile resolve_profile(const ProfileSource& src, int depth) {
  Json doc = parse_json_text(src.text, src.origin);
  DeviceProfile p;
  if (doc.is_object()) {
    if (std::string base = read_string_field(doc, "base", src.origin); !base.empty()) {
      if (depth >= kMaxBaseDepth)
        fail_at(src.origin, "/base", fmt::format("base chain deeper than {} (a cycle?)", depth));
      p = resolve_profile(locate_profile(base, src.origin), depth + 1);
    }
  }
  apply_profile_json(p, doc, src.origin);
  return p;
}

DeviceProfile load_checked(const ProfileSource& src) {
  DeviceProfile p = resolve_profile(src, 0);
  check_values(p, src.origin);
  return p;
}

}  // namespace

std::string_view kernel_class_name(KernelClass k) {
  switch (k) {
    case KernelClass::Vector:
      return "vector";
    case KernelClass::Cube:
      return "cube";
    case KernelClass::Mix:
      return "mix";
  }
  return "vector";
}

std::optional<KernelClass> parse_kernel_class(std::string_view text) {
  for (KernelClass k : {KernelClass::Vector, KernelClass::Cube, KernelClass::Mix})
    if (kernel_class_name(k) == text) return k;
  return std::nullopt;
}

// Divisors must be positive and efficiencies fractions, or costs turn
// infinite or negative far from the mistake.
ParamDomain param_domain(std::string_view param) {
  if (param == "overlap" || param == "comm.overlap.mc2" || param == "comm.ring")
    return {.min = 0, .max = 1};
  if (param == "comm.algorithm_efficiency" || param == "comm.inter.efficiency")
    return {.min = 0, .max = 1, .min_exclusive = true};
  if (param == "comm.intra.bw_gbps" || param == "comm.inter.bw_gbps")
    return {.min = 0, .min_exclusive = true};
  if (param == "comm.world_size" || param == "comm.node_size" || param == "comm.mc2.comm_slowdown")
    return {.min = 1};
  if (param.starts_with("eff_")) return {.min = 0, .max = 1, .min_exclusive = true};
  if (param.starts_with("peak_tflops.") || param == "hbm_bw_gbps")
    return {.min = 0, .min_exclusive = true};
  return {};
}

bool ParamDomain::contains(double v) const {
  return (min_exclusive ? v > min : v >= min) && v <= max;
}

std::string ParamDomain::describe() const {
  return fmt::format("{}{}, {}{}", min_exclusive ? '(' : '[', min, max,
                     std::isinf(max) ? ')' : ']');
}

double DeviceProfile::get(std::string_view param) const {
  auto it = params.find(param);
  if (it == params.end()) {
    const auto& optional = optional_device_params();
    if (auto o = optional.find(param); o != optional.end()) return o->second;
    throw Error(fmt::format("device profile '{}' has no parameter '{}'", name, param));
  }
  return it->second;
}

void DeviceProfile::set(std::string_view param, double value) {
  auto it = params.find(param);
  if (it == params.end() && optional_device_params().contains(param))
    it = params.emplace(std::string(param), 0.0).first;
  if (it == params.end())
    throw Error(fmt::format("device profile '{}' has no parameter '{}' to set (parameters: {})",
                            name, param, fmt::join(param_names(), ", ")));
  it->second = value;
}

std::vector<std::string> DeviceProfile::param_names() const {
  std::vector<std::string> out;
  for (const auto& [k, _] : params) out.push_back(k);
  return out;
}

const OpCostOverride* DeviceProfile::override_for(std::string_view op) const {
  auto it = overrides.find(op);
  return it == overrides.end() ? nullptr : &it->second;
}

const std::vector<std::string>& required_device_params() {
  static const std::vector<std::string> kParams = [] {
    std::vector<std::string> v = {"hbm_bw_gbps",
                                  "eff_mem",
                                  "eff_cube",
                                  "eff_vec",
                                  "overlap",
                                  "flops_per_elem.default",
                                  "flops_per_elem.norm",
                                  "flops_per_elem.quant",
                                  "flops_per_elem.reduction",
                                  "t_dev_fixed_us.vector",
                                  "t_dev_fixed_us.cube",
                                  "t_dev_fixed_us.mix"};
    for (const char* dt : {"fp16", "bf16", "fp32", "int8"}) {
      v.push_back(fmt::format("peak_tflops.cube.{}", dt));
      v.push_back(fmt::format("peak_tflops.vector.{}", dt));
    }
    for (ExecMode m : kAllExecModes) {
      v.push_back(fmt::format("launch_us.{}", exec_mode_name(m)));
      v.push_back(fmt::format("per_graph_us.{}", exec_mode_name(m)));
    }
    std::sort(v.begin(), v.end());
    return v;
  }();
  return kParams;
}

const std::map<std::string, double, std::less<>>& optional_device_params() {
  static const std::map<std::string, double, std::less<>> kParams = [] {
    std::map<std::string, double, std::less<>> m;
    for (ExecMode mode : kAllExecModes)
      for (const char* p : {"host_us", "host_free_us", "host_node_us"})
        m[fmt::format("{}.{}", p, exec_mode_name(mode))] = 0.0;
    // Communication (cost/comm_params.hpp): a profile without them prices collectives
    // as an 8-NPU 910B node does (docs/reference/collectives-cost.md §5).
    const CommParams comm;
    m["comm.world_size"] = comm.world_size;
    m["comm.fixed_us"] = comm.fixed_us;
    m["comm.latency_us"] = comm.latency_us;
    m["comm.intra.bw_gbps"] = comm.intra_bw_gbps;
    m["comm.intra.links"] = comm.intra_links;
    m["comm.algorithm_efficiency"] = comm.efficiency;
    m["comm.ring"] = comm.ring;
    m["comm.node_size"] = comm.node_size;
    m["comm.inter.bw_gbps"] = comm.inter_bw_gbps;
    m["comm.inter.latency_us"] = comm.inter_latency_us;
    m["comm.inter.efficiency"] = comm.inter_efficiency;
    m["comm.overlap.mc2"] = comm.mc2_overlap;
    m["comm.mc2.comm_slowdown"] = comm.mc2_comm_slowdown;
    m["comm.mc2.min_split_rows"] = comm.mc2_min_split_rows;
    return m;
  }();
  return kParams;
}

DeviceProfile load_device_profile(std::string_view name_or_path) {
  return load_checked(locate_profile(name_or_path, {}));
}

DeviceProfile parse_device_profile(std::string_view json_text, std::string_view origin) {
  return load_checked(ProfileSource{std::string(json_text), std::string(origin)});
}

std::string device_profile_to_json(const DeviceProfile& p) {
  Json doc;
  doc["name"] = p.name;
  doc["description"] = p.description;
  Json params = Json::object();
  for (const auto& [k, v] : p.params) {
    auto src = p.sources.find(k);
    params[k] = {{"value", v}, {"source", src == p.sources.end() ? "" : src->second}};
  }
  doc["params"] = params;
  Json ov = Json::object();
  for (const auto& [op, o] : p.overrides) {
    Json e = Json::object();
    if (o.fixed_us) e["fixed_us"] = *o.fixed_us;
    if (o.efficiency) e["efficiency"] = *o.efficiency;
    if (o.flops_per_elem) e["flops_per_elem"] = *o.flops_per_elem;
    if (o.kernel_class) e["kernel_class"] = std::string(kernel_class_name(*o.kernel_class));
    for (ExecMode m : kAllExecModes) {
      size_t i = static_cast<size_t>(m);
      if (o.fixed_us_in[i]) e[fmt::format("fixed_us.{}", exec_mode_name(m))] = *o.fixed_us_in[i];
      if (o.host_us_in[i]) e[fmt::format("host_us.{}", exec_mode_name(m))] = *o.host_us_in[i];
    }
    e["source"] = o.source;
    ov[op] = e;
  }
  doc["overrides"] = ov;
  return doc.dump(2) + "\n";
}

std::vector<std::string> builtin_device_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : eqfuse_device_profiles()) names.push_back(stem_of(f.path));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace eqfuse
