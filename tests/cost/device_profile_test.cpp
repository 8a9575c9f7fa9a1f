// Device profiles: the built-in files, "base" inheritance, JSON round trip,
// dotted parameter access, per-mode overrides, the optional host-side
// parameters and the error messages for bad profiles.
#include "cost/device_profile.hpp"

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The message of the Error `f` throws, rendered with its file.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.render();
  }
  return "(no error)";
}

// A per-process scratch directory (ctest -j runs binaries in parallel).
std::filesystem::path scratch_dir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("eqfuse_device_profile_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

std::filesystem::path write_file(const std::string& name, const std::string& text) {
  auto p = scratch_dir() / name;
  std::ofstream(p) << text;
  return p;
}

// A complete profile as JSON text with one parameter replaced/removed.
std::string b2_json_with(const std::string& param, const std::string& entry) {
  std::string text = device_profile_to_json(load_device_profile("ascend910b2"));
  std::string key = "\"" + param + "\": {";
  size_t at = text.find(key);
  size_t end = text.find('}', at);
  std::string replacement = entry.empty() ? "" : "\"" + param + "\": " + entry;
  text.replace(at, end - at + 1, replacement);
  if (entry.empty()) {
    // drop the dangling comma left by the removed entry
    size_t comma = text.rfind(',', at);
    text.erase(comma, 1);
  }
  return text;
}

TEST(DeviceProfile, BuiltinNamesAreTheShippedFiles) {
  EXPECT_EQ(builtin_device_names(),
            (std::vector<std::string>{"ascend910b1", "ascend910b2", "ascend910b3", "ascend910b4",
                                      "ascend910c", "h100"}));
}

TEST(DeviceProfile, EveryBuiltinHasEveryRequiredParameterWithASource) {
  for (const std::string& name : builtin_device_names()) {
    DeviceProfile p = load_device_profile(name);
    EXPECT_EQ(p.name, name);
    EXPECT_FALSE(p.description.empty()) << name;
    for (const std::string& param : required_device_params())
      EXPECT_TRUE(p.params.count(param)) << name << " lacks " << param;
    for (const auto& [param, value] : p.params) {
      ASSERT_TRUE(p.sources.count(param)) << name << " " << param;
      EXPECT_FALSE(p.sources.at(param).empty()) << name << " " << param;
    }
    for (const auto& [op, o] : p.overrides) EXPECT_FALSE(o.source.empty()) << name << " " << op;
  }
}

TEST(DeviceProfile, SpecTableValues) {
  DeviceProfile b2 = load_device_profile("ascend910b2");
  EXPECT_DOUBLE_EQ(b2.get("peak_tflops.cube.bf16"), 353.9);
  EXPECT_DOUBLE_EQ(b2.get("peak_tflops.cube.int8"), 707.8);
  EXPECT_DOUBLE_EQ(b2.get("hbm_bw_gbps"), 1600);
  EXPECT_DOUBLE_EQ(b2.get("launch_us.eager"), 20);
  EXPECT_DOUBLE_EQ(b2.get("launch_us.max-autotune"), 1.5);
  EXPECT_DOUBLE_EQ(b2.get("launch_us.reduce-overhead"), 2);
  EXPECT_DOUBLE_EQ(b2.get("per_graph_us.reduce-overhead"), 50);
  EXPECT_DOUBLE_EQ(b2.get("t_dev_fixed_us.mix"), 8);
  EXPECT_DOUBLE_EQ(b2.get("overlap"), 0.95);
  EXPECT_THAT(b2.sources.at("launch_us.eager"), HasSubstr("estimate"));
  DeviceProfile h100 = load_device_profile("h100");
  EXPECT_DOUBLE_EQ(h100.get("peak_tflops.cube.bf16"), 989);
  EXPECT_DOUBLE_EQ(h100.get("hbm_bw_gbps"), 3350);
  // Re-fitted on real H100 timings: eager is host-bound (host_us.eager),
  // launch_us.eager is the device-side gap.
  EXPECT_DOUBLE_EQ(h100.get("launch_us.eager"), 1);
  EXPECT_GT(h100.get("host_us.eager"), 5);
  EXPECT_THAT(h100.sources.at("host_us.eager"), HasSubstr("tests/data/measurements/h100"));
}

TEST(DeviceProfile, InheritanceListsOnlyDifferences) {
  DeviceProfile b2 = load_device_profile("ascend910b2");
  DeviceProfile b1 = load_device_profile("ascend910b1");
  DeviceProfile b4 = load_device_profile("ascend910b4");
  EXPECT_DOUBLE_EQ(b1.get("peak_tflops.cube.bf16"), 363.7);
  EXPECT_DOUBLE_EQ(b1.get("hbm_bw_gbps"), 1600);  // inherited
  EXPECT_EQ(b1.sources.at("hbm_bw_gbps"), b2.sources.at("hbm_bw_gbps"));
  EXPECT_EQ(b1.overrides, b2.overrides);
  EXPECT_DOUBLE_EQ(b4.get("hbm_bw_gbps"), 900);
  EXPECT_DOUBLE_EQ(b4.get("peak_tflops.cube.bf16"), 245.8);
  EXPECT_DOUBLE_EQ(b4.get("launch_us.eager"), 20);
  ASSERT_NE(b4.override_for("npu::npu_mla_prolog_v3"), nullptr);
  EXPECT_EQ(b4.override_for("npu::npu_mla_prolog_v3")->kernel_class, KernelClass::Mix);
  EXPECT_EQ(b4.override_for("aten::add.Tensor"), nullptr);
}

TEST(DeviceProfile, FileWithBaseAndOverride) {
  auto path = write_file("slow_npu.json", R"({
    "name": "slow_npu", "base": "ascend910b2", "description": "a test device",
    "params": {"launch_us.eager": {"value": 35, "source": "estimate: test"}},
    "overrides": {"npu::npu_swiglu": {"fixed_us": 7.5, "kernel_class": "vector", "source": "test"}}
  })");
  DeviceProfile p = load_device_profile(path.string());
  EXPECT_EQ(p.name, "slow_npu");
  EXPECT_EQ(p.description, "a test device");
  EXPECT_DOUBLE_EQ(p.get("launch_us.eager"), 35);
  EXPECT_DOUBLE_EQ(p.get("launch_us.reduce-overhead"), 2);
  const OpCostOverride* o = p.override_for("npu::npu_swiglu");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->fixed_us, 7.5);
  EXPECT_EQ(o->kernel_class, KernelClass::Vector);
  EXPECT_FALSE(o->flops_per_elem.has_value());  // the child replaces the base's entry

  // A base given as a path is relative to the file naming it.
  auto child = write_file("child.json", R"({"name": "child", "base": "slow_npu.json"})");
  EXPECT_DOUBLE_EQ(load_device_profile(child.string()).get("launch_us.eager"), 35);
}

TEST(DeviceProfile, JsonRoundTrips) {
  for (const std::string& name : builtin_device_names()) {
    DeviceProfile p = load_device_profile(name);
    std::string text = device_profile_to_json(p);
    EXPECT_EQ(parse_device_profile(text, name + ".json"), p) << name;
    EXPECT_EQ(text.find("\"base\""), std::string::npos);
  }
}

TEST(DeviceProfile, GetAndSetByDottedName) {
  DeviceProfile p = load_device_profile("ascend910b2");
  p.set("launch_us.eager", 18);
  EXPECT_DOUBLE_EQ(p.get("launch_us.eager"), 18);
  EXPECT_THAT(error_of([&] { p.get("launch_us.turbo"); }),
              HasSubstr("device profile 'ascend910b2' has no parameter 'launch_us.turbo'"));
  EXPECT_THAT(error_of([&] { p.set("nope", 1); }), HasSubstr("has no parameter 'nope' to set"));
  auto names = p.param_names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(DeviceProfile, UnknownNameListsTheBuiltins) {
  std::string msg = error_of([] { load_device_profile("ascend910z"); });
  EXPECT_THAT(msg, HasSubstr("unknown device 'ascend910z'"));
  EXPECT_THAT(msg,
              HasSubstr("ascend910b1, ascend910b2, ascend910b3, ascend910b4, ascend910c, h100"));
  EXPECT_THAT(error_of([] { load_device_profile("/no/such/dir/npu.json"); }),
              HasSubstr("cannot read device profile '/no/such/dir/npu.json'"));
}

TEST(DeviceProfile, BadJsonNamesFileLineAndColumn) {
  std::string msg =
      error_of([] { parse_device_profile("{\n  \"name\": \"x\",\n  oops\n}", "bad.json"); });
  EXPECT_THAT(msg, HasSubstr("bad.json:3:"));
  EXPECT_THAT(msg, HasSubstr("invalid JSON"));
}

TEST(DeviceProfile, BadEntriesNameFileAndJsonPath) {
  EXPECT_THAT(error_of([] {
                parse_device_profile(b2_json_with("eff_mem", R"({"value": "fast", "source": "x"})"),
                                     "p.json");
              }),
              HasSubstr("p.json: error: /params/eff_mem/value: expected a number"));
  EXPECT_THAT(error_of([] {
                parse_device_profile(b2_json_with("eff_mem", R"({"value": 0.7})"), "p.json");
              }),
              HasSubstr("/params/eff_mem/source: every number needs a non-empty \"source\""));
  EXPECT_THAT(error_of([] {
                parse_device_profile(b2_json_with("eff_mem", R"({"value": 1.5, "source": "x"})"),
                                     "p.json");
              }),
              HasSubstr("/params/eff_mem: value 1.5 is out of range"));
  EXPECT_THAT(
      error_of([] {
        parse_device_profile(
            R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::add.Tensor": {"speed": 2, "source": "x"}}})",
            "o.json");
      }),
      HasSubstr("/overrides/aten::add.Tensor/speed: unknown field"));
  EXPECT_THAT(
      error_of([] {
        parse_device_profile(
            R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::add.Tensor": {"kernel_class": "gpu", "source": "x"}}})",
            "o.json");
      }),
      HasSubstr(
          "/overrides/aten::add.Tensor/kernel_class: expected \"vector\", \"cube\" or \"mix\""));
  EXPECT_THAT(error_of([] { parse_device_profile(R"({"base": "ascend910b2"})", "n.json"); }),
              HasSubstr("/name: missing"));
}

TEST(DeviceProfile, MissingParameterNamesProfileAndParameter) {
  std::string msg =
      error_of([] { parse_device_profile(b2_json_with("hbm_bw_gbps", ""), "m.json"); });
  EXPECT_THAT(msg, HasSubstr("device profile 'ascend910b2' has no parameter 'hbm_bw_gbps'"));
  EXPECT_THAT(msg, HasSubstr("m.json"));
}

TEST(DeviceProfile, BaseCycleIsAnError) {
  write_file("loop_a.json", R"({"name": "a", "base": "loop_b.json"})");
  auto b = write_file("loop_b.json", R"({"name": "b", "base": "loop_a.json"})");
  EXPECT_THAT(error_of([&] { load_device_profile(b.string()); }), HasSubstr("a cycle?"));
}

TEST(DeviceProfile, RequiredParametersAreSortedAndCoverEveryMode) {
  const auto& req = required_device_params();
  EXPECT_TRUE(std::is_sorted(req.begin(), req.end()));
  for (ExecMode m : kAllExecModes) {
    std::string mode(exec_mode_name(m));
    EXPECT_NE(std::find(req.begin(), req.end(), "launch_us." + mode), req.end());
    EXPECT_NE(std::find(req.begin(), req.end(), "per_graph_us." + mode), req.end());
  }
}

TEST(DeviceProfile, PerModeOverrideKeysRoundTrip) {
  DeviceProfile p = load_device_profile("ascend910b2");
  OpCostOverride& o = p.overrides["aten::add.Tensor"];
  o.fixed_us = 9;
  o.fixed_us_in[static_cast<size_t>(ExecMode::Eager)] = 7.5;
  o.host_us_in[static_cast<size_t>(ExecMode::ReduceOverhead)] = 3.25;
  o.host_us_in[static_cast<size_t>(ExecMode::MaxAutotune)] = 0;  // 0 is a value, not absent
  o.source = "test";
  std::string text = device_profile_to_json(p);
  EXPECT_THAT(text, HasSubstr("\"fixed_us.eager\": 7.5"));
  EXPECT_THAT(text, HasSubstr("\"host_us.reduce-overhead\": 3.25"));
  EXPECT_THAT(text, HasSubstr("\"host_us.max-autotune\": 0"));
  EXPECT_EQ(text.find("\"fixed_us.reduce-overhead\""), std::string::npos);
  DeviceProfile back = parse_device_profile(text, "round.json");
  EXPECT_EQ(back, p);
  const OpCostOverride* b = back.override_for("aten::add.Tensor");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->fixed_us_in[static_cast<size_t>(ExecMode::Eager)], 7.5);
  EXPECT_FALSE(b->fixed_us_in[static_cast<size_t>(ExecMode::ReduceOverhead)].has_value());
  EXPECT_EQ(b->host_us_in[static_cast<size_t>(ExecMode::ReduceOverhead)], 3.25);
  EXPECT_EQ(b->host_us_in[static_cast<size_t>(ExecMode::MaxAutotune)], 0.0);

  // Written by hand, with a mode alias.
  DeviceProfile hand = parse_device_profile(
      R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::mul.Tensor": )"
      R"({"host_us.eager": 4, "fixed_us.reduce-overhead": 2, "source": "x"}}})",
      "h.json");
  const OpCostOverride* m = hand.override_for("aten::mul.Tensor");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->host_us_in[static_cast<size_t>(ExecMode::Eager)], 4.0);
  EXPECT_EQ(m->fixed_us_in[static_cast<size_t>(ExecMode::ReduceOverhead)], 2.0);
  EXPECT_FALSE(m->fixed_us.has_value());
}

TEST(DeviceProfile, PerModeOverrideErrorsNameTheJsonPath) {
  EXPECT_THAT(
      error_of([] {
        parse_device_profile(
            R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::add.Tensor": {"fixed_us.warp": 3, "source": "x"}}})",
            "w.json");
      }),
      AllOf(HasSubstr("w.json"), HasSubstr("/overrides/aten::add.Tensor/fixed_us.warp")));
  EXPECT_THAT(
      error_of([] {
        parse_device_profile(
            R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::add.Tensor": {"host_us.eager": -1, "source": "x"}}})",
            "n.json");
      }),
      HasSubstr("/overrides/aten::add.Tensor/host_us.eager: must be >= 0"));
  EXPECT_THAT(
      error_of([] {
        parse_device_profile(
            R"({"name": "x", "base": "ascend910b2", "overrides": {"aten::add.Tensor": {"host_us.eager": "slow", "source": "x"}}})",
            "s.json");
      }),
      HasSubstr("/overrides/aten::add.Tensor/host_us.eager"));
}

TEST(DeviceProfile, OptionalHostParametersReadAsZeroUntilSet) {
  DeviceProfile p = load_device_profile("ascend910b2");
  const auto& optional = optional_device_params();
  for (ExecMode m : kAllExecModes)
    for (const char* prefix : {"host_us.", "host_free_us.", "host_node_us."}) {
      std::string name = prefix + std::string(exec_mode_name(m));
      ASSERT_TRUE(optional.contains(name)) << name;
      EXPECT_EQ(optional.at(name), 0.0) << name;
    }
  ASSERT_FALSE(p.params.contains("host_us.eager"));
  EXPECT_EQ(p.get("host_us.eager"), 0.0);
  EXPECT_EQ(p.get("host_node_us.reduce-overhead"), 0.0);
  p.set("host_us.eager", 4.5);
  EXPECT_TRUE(p.params.contains("host_us.eager"));
  EXPECT_DOUBLE_EQ(p.get("host_us.eager"), 4.5);
  auto names = p.param_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "host_us.eager"), names.end());
  EXPECT_FALSE(p.params.contains("host_free_us.eager"));
  // Not every name is optional.
  EXPECT_THAT(error_of([&] { p.set("host_us.warp", 1); }),
              HasSubstr("has no parameter 'host_us.warp' to set"));
  // With a source it survives the JSON round trip.
  p.sources["host_us.eager"] = "test";
  EXPECT_EQ(parse_device_profile(device_profile_to_json(p), "h.json"), p);
}

TEST(DeviceProfile, KernelClassNames) {
  for (KernelClass k : {KernelClass::Vector, KernelClass::Cube, KernelClass::Mix})
    EXPECT_EQ(parse_kernel_class(kernel_class_name(k)), k);
  EXPECT_FALSE(parse_kernel_class("tensor").has_value());
}

}  // namespace
}  // namespace eqfuse
