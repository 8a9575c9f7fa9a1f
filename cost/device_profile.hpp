// Device profiles: the hardware and launch-overhead numbers the NPU cost
// model reads. Profiles are JSON files shipped in cost/devices/ (embedded
// in the binary) or given by path; every number carries its source or the
// word "estimate" in the file (format: docs/cost-model.md).
//
//   DeviceProfile p = load_device_profile("ascend910b2");   // built-in name
//   DeviceProfile q = load_device_profile("my_npu.json");   // a file
//   for (auto& name : builtin_device_names()) ...
//   double bw = p.get("hbm_bw_gbps");                         // by parameter name
//   p.set("launch_us.eager", 18.0);                           // calibration / sensitivity
//
// Parameters are addressed by dotted names so calibration (`eqfuse
// calibrate`) and sensitivity analysis (`eqfuse sensitivity --param
// launch_us.reduce-overhead=1:4`) can read and write them generically.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/exec_mode.hpp"

namespace eqfuse {

// Which engine a kernel runs on; picks t_dev_fixed_us.<class> and, for
// cube, the 2·M·N·K FLOP count and the cube peak. Derived from the schema
// kind (kind=matmul -> cube, every other kernel -> vector) unless a profile
// override forces it (attention and MLA prolog kernels are mix).
enum class KernelClass : uint8_t { Vector, Cube, Mix };
std::string_view kernel_class_name(KernelClass k);  // "vector", "cube", "mix"
std::optional<KernelClass> parse_kernel_class(std::string_view text);

// Per-op override (by qualified op name, e.g. "npu::npu_swiglu"; opaque ops
// by the qualified name of their torch.ops target).
struct OpCostOverride {
  std::optional<double> fixed_us;  // replaces the whole device time
  // Per mode (indexed by ExecMode; JSON keys "fixed_us.<mode>",
  // "host_us.<mode>"): the device time in that mode (wins over fixed_us),
  // and the host dispatch time of one call in that mode (wins over the
  // profile's host_us.<mode> / host_free_us.<mode>).
  std::array<std::optional<double>, kAllExecModes.size()> fixed_us_in{};
  std::array<std::optional<double>, kAllExecModes.size()> host_us_in{};
  std::optional<double> efficiency;         // replaces eff of its op class
  std::optional<double> flops_per_elem;     // vector ops: work per output element
  std::optional<KernelClass> kernel_class;  // forces cube/vector/mix
  std::string source;
  bool operator==(const OpCostOverride&) const = default;
};

struct DeviceProfile {
  std::string name;         // "ascend910b2"
  std::string description;  // one line
  // All numeric parameters by dotted name, e.g. "hbm_bw_gbps", "eff_mem",
  // "peak_tflops.cube.bf16", "launch_us.eager", "t_dev_fixed_us.vector",
  // "per_graph_us.reduce-overhead", "overlap". The JSON file lists them
  // with their sources.
  std::map<std::string, double, std::less<>> params;
  std::map<std::string, std::string, std::less<>> sources;  // param -> source text
  std::map<std::string, OpCostOverride, std::less<>> overrides;

  // Throws eqfuse::Error naming the profile and parameter if missing; an
  // optional parameter (optional_device_params) missing reads as its default.
  double get(std::string_view param) const;
  // param must exist or be optional (then it is added).
  void set(std::string_view param, double value);
  std::vector<std::string> param_names() const;
  // The override for a qualified op name, or null.
  const OpCostOverride* override_for(std::string_view op) const;
  bool operator==(const DeviceProfile&) const = default;
};

// The values a parameter may take: efficiencies lie in (0, 1], `overlap` in
// [0, 1], peaks and bandwidth are positive, everything else is >= 0. Loading
// a profile checks every parameter against it; sensitivity sweeps check
// their ranges (and clamp the default range) with it.
struct ParamDomain {
  double min = 0, max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool contains(double v) const;
  std::string describe() const;  // "(0, 1]", "[0, inf)"
};
ParamDomain param_domain(std::string_view param);

// The parameters NpuCostModel reads (sorted). Every profile must define
// them; load and parse check this. Other parameters (core counts, clocks,
// capacities) may be present for documentation.
const std::vector<std::string>& required_device_params();

// Parameters a profile may leave out, with the value they then read as
// (sorted by name): the launch pipeline's host side, per mode —
//   host_us.<mode>       host dispatch of one kernel (0: the additive model)
//   host_free_us.<mode>  host dispatch of one op that launches nothing (a view)
//   host_node_us.<mode>  extra host time per call node when a whole graph runs
// (docs/cost-model.md, "The launch pipeline").
const std::map<std::string, double, std::less<>>& optional_device_params();
// A built-in profile name (see builtin_device_names) or a path to a JSON
// file. Errors name the file, the JSON path and what is wrong. A profile may
// name a `"base"` profile (built-in name, or a .json path relative to its
// own file) and list only the parameters and overrides that differ.
DeviceProfile load_device_profile(std::string_view name_or_path);
DeviceProfile parse_device_profile(std::string_view json_text, std::string_view origin);
// The resolved profile (no "base": every parameter listed); parsing it
// gives back an equal profile.
std::string device_profile_to_json(const DeviceProfile& p);
std::vector<std::string> builtin_device_names();  // sorted
inline constexpr std::string_view kDefaultDevice = "ascend910b2";

}  // namespace eqfuse
