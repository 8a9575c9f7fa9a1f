// ctest-label: golden
// The `eqfuse` binary as users see it: exit codes, the stderr error format
// (file:line:col + source line + caret, exit 2), stdout contents of print,
// ops, check and bench, and that every bundled example loads, prints and
// round-trips through JSON.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

using eqfuse::testing_support::CliRun;
using eqfuse::testing_support::run_eqfuse;
using eqfuse::testing_support::scratch_dir;
using eqfuse::testing_support::slurp_file;
using eqfuse::testing_support::write_scratch;

const char* const kExamples[] = {
    "examples/seed_add_rms_norm_dynamic_quant.fx",
    "examples/deepseek_layer.fx",
    "examples/matmul_transpose.fx",
    "examples/add_rms_norm_cast.fx",
};

TEST(Cli, HelpAndVersion) {
  CliRun help = run_eqfuse("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* sub : {"print", "check", "ops", "bench"}) EXPECT_THAT(help.out, HasSubstr(sub));
  for (const char* sub : {"print", "check", "ops", "bench", "bench ac", "bench math"}) {
    CliRun r = run_eqfuse(fmt::format("{} --help", sub));
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_THAT(r.out, HasSubstr("Usage:")) << sub;
  }
  CliRun version = run_eqfuse("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(version.out, HasSubstr("0.1.0"));
}

TEST(Cli, UnknownCommandSuggestsTheNearest) {
  CliRun r = run_eqfuse("optimze examples/matmul_transpose.fx");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("eqfuse: error: unknown command 'optimze' (did you mean "
                               "'optimize'?); commands: optimize,"));
  CliRun far = run_eqfuse("zzzz");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("unknown command 'zzzz'; commands:"));
}

// Each fused node of the output says which rule made it and what it
// replaces, in a comment line that reads back as the same note.
TEST(Cli, FusedNodesCarryANoteNamingTheRule) {
  CliRun r = run_eqfuse("optimize examples/seed_add_rms_norm_dynamic_quant.fx");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# eqfuse: torchair/add-rms-norm-dynamic-quant fuses "));
  fs::path out = write_scratch("fused.fx", r.out);
  CliRun again = run_eqfuse(fmt::format("print {}", out.string()));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, r.out);
}

// --view-to-reshape is TorchAir's normalisation: no view is left; without it
// the seed graph keeps its traced views (none sees a strided input).
TEST(Cli, ViewToReshapeLeavesNoView) {
  CliRun plain = run_eqfuse("optimize examples/seed_add_rms_norm_dynamic_quant.fx -q");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, HasSubstr("torch.ops.aten.view.default("));
  CliRun r =
      run_eqfuse("optimize examples/seed_add_rms_norm_dynamic_quant.fx -q --view-to-reshape");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("torch.ops.aten.view.default(")));
  EXPECT_THAT(r.out, HasSubstr("torch.ops.aten.reshape.default("));
  fs::path out = write_scratch("reshaped.fx", r.out);
  CliRun check =
      run_eqfuse(fmt::format("check examples/seed_add_rms_norm_dynamic_quant.fx {}", out.string()));
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

// A call that does not fit its schema is found after parsing; it still
// prints the offending line and a caret under the node, as docs/cli.md shows.
TEST(Cli, WrongArityShowsTheLineAndCaret) {
  fs::path in = write_scratch("arity.fx",
                              "class GraphModule(torch.nn.Module):\n"
                              "    def forward(self, a: \"f32[4]\"):\n"
                              "        x = torch.ops.aten.add.Tensor(a)\n"
                              "        return (x,)\n");
  CliRun r = run_eqfuse(fmt::format("print {}", in.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("arity.fx:3:9: error: node 'x': aten::add.Tensor: missing required "
                               "argument 'other'\n"));
  EXPECT_THAT(r.err, HasSubstr("x = torch.ops.aten.add.Tensor(a)\n"));
  EXPECT_THAT(r.err, HasSubstr("^"));
}

TEST(Cli, UsageErrorsExitTwo) {
  for (const char* args :
       {"", "frobnicate", "print", "print --format yaml examples/matmul_transpose.fx",
        "check examples/matmul_transpose.fx", "bench ac", "bench ac 99",
        "print --no-such-flag x"}) {
    CliRun r = run_eqfuse(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, HasSubstr("error")) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

TEST(Cli, PrintsEveryExampleAndRoundTrips) {
  for (const char* example : kExamples) {
    SCOPED_TRACE(example);
    CliRun fx = run_eqfuse(fmt::format("print {}", example));
    ASSERT_EQ(fx.exit_code, 0) << fx.err;
    EXPECT_THAT(fx.out, StartsWith("class GraphModule(torch.nn.Module):\n"));
    // Printing the printed text again is a fixed point.
    CliRun again = run_eqfuse("print -", fx.out);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.out, fx.out);
    // FX -> JSON -> FX gives the same text; JSON -> JSON is a fixed point.
    CliRun json = run_eqfuse(fmt::format("print --format json {}", example));
    ASSERT_EQ(json.exit_code, 0) << json.err;
    nlohmann::json doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["format"], "eqfuse-graph");
    CliRun from_json = run_eqfuse("print -", json.out);
    ASSERT_EQ(from_json.exit_code, 0) << from_json.err;
    EXPECT_EQ(from_json.out, fx.out);
    CliRun json_again = run_eqfuse("print --format json -", json.out);
    EXPECT_EQ(json_again.out, json.out);
  }
}

TEST(Cli, TheBundledExamplesAreUnchangedByPrinting) {
  // The examples are stored in the printer's canonical form, except the seed
  // and docs examples that keep torch's `# No stacktrace` comments.
  CliRun r = run_eqfuse("print examples/deepseek_layer.fx");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, slurp_file(fs::path(EQFUSE_SOURCE_DIR) / "examples/deepseek_layer.fx"));
}

TEST(Cli, DeepSeekLayerContents) {
  CliRun r = run_eqfuse("print examples/deepseek_layer.fx");
  ASSERT_EQ(r.exit_code, 0);
  for (const char* op :
       {"npu_add_rms_norm.default", "npu_dynamic_quant.default", "npu_quant_matmul.default",
        "npu_quantize.default", "aten.bmm.default", "aten.transpose.int", "aten._to_copy.default",
        "npu._npu_dtype_cast.default", "aten.view.default", "aten.sym_size.int",
        "\"bf16[s0, 7168]\""})
    EXPECT_THAT(r.out, HasSubstr(op));
  // The attention kernel has no schema: it is kept opaque and noted once.
  EXPECT_THAT(r.err, HasSubstr("note: 1 op without a schema kept opaque"));
  EXPECT_THAT(r.err, HasSubstr("npu::npu_multi_head_latent_attention"));
}

TEST(Cli, ParseErrorsShowLocationAndCaret) {
  std::string text =
      "def forward(self, x: \"f32[2]\"):\n"
      "    y: \"f32[2]\" = torch.ops.aten.add.Tensor(x, [1, \n";
  CliRun r = run_eqfuse("print -", text);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  // First line: <stdin>:LINE:COL: error: message; then the line; then a caret.
  std::istringstream lines(r.err);
  std::string head, source, caret;
  std::getline(lines, head);
  std::getline(lines, source);
  std::getline(lines, caret);
  EXPECT_THAT(head, StartsWith("<stdin>:2:"));
  EXPECT_THAT(head, HasSubstr(": error: "));
  EXPECT_THAT(source, HasSubstr("torch.ops.aten.add.Tensor(x, [1,"));
  size_t col = std::stoul(head.substr(std::string("<stdin>:2:").size()));
  ASSERT_NE(caret.find('^'), std::string::npos);
  // Error::render indents the source line and the caret line by two spaces,
  // so the caret sits under column `col` of the echoed source line.
  EXPECT_EQ(caret.find('^'), col + 1);
  EXPECT_THAT(source, StartsWith("  "));
}

TEST(Cli, FileErrorsNameTheFile) {
  fs::path bad = write_scratch("bad_use.fx",
                               "def forward(self, x: \"f32[2]\"):\n"
                               "    y: \"f32[2]\" = torch.ops.aten.add.Tensor(x, zz)\n"
                               "    return (y,)\n");
  CliRun r = run_eqfuse(fmt::format("print '{}'", bad.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith(bad.string() + ":2:"));
  EXPECT_THAT(r.err, HasSubstr("zz"));

  CliRun missing = run_eqfuse("print does/not/exist.fx");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("cannot read 'does/not/exist.fx'"));
  CliRun dir = run_eqfuse("print examples");
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_THAT(dir.err, HasSubstr("is a directory"));
}

TEST(Cli, JsonErrorsShowLocation) {
  CliRun r =
      run_eqfuse("print -", "{\"format\": \"eqfuse-graph\",\n \"version\": 1,\n \"nodes\": [}\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("<stdin>:3:"));
  EXPECT_THAT(r.err, HasSubstr("invalid JSON"));
  EXPECT_THAT(r.err, HasSubstr("^"));
  CliRun structural = run_eqfuse(
      "print -",
      R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "a", "op": "call"}]})");
  EXPECT_EQ(structural.exit_code, 2);
  EXPECT_THAT(structural.err, HasSubstr("nodes[0] (a).op: unknown op kind"));
}

TEST(Cli, BadInputNeverCrashes) {
  const std::string cases[] = {
      "",
      "\n\n   \n",
      std::string("\xff\xfe\x00garbage", 10),
      "{",
      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
      "def forward(self, x):\n    y = torch.ops.aten.add.Tensor(" + std::string(5000, '[') + "\n",
      "class GraphModule(torch.nn.Module):\n",
      "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return (%y,)\n",
      R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "o", "op": "output", "args": [{"node": "o"}]}]})",
  };
  for (const std::string& text : cases) {
    CliRun r = run_eqfuse("print -", text);
    EXPECT_EQ(r.exit_code, 2) << "input: " << text.substr(0, 60) << "\nstderr: " << r.err;
    EXPECT_THAT(r.err, HasSubstr("error")) << text.substr(0, 60);
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("internal error"))) << text.substr(0, 60);
  }
}

TEST(Cli, InputTypesTypeAnUnannotatedGraph) {
  std::string text =
      "graph():\n"
      "    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]\n"
      "    %arg1_1 : [num_users=1] = placeholder[target=arg1_1]\n"
      "    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = "
      "(%arg0_1, %arg1_1), kwargs = {})\n"
      "    return (add,)\n";
  CliRun r = run_eqfuse("print - --input-types 'arg0_1=bf16[s0, 4096]; arg1_1=bf16[4096]'", text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("add: \"bf16[s0, 4096]\" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)"));

  fs::path types = write_scratch("types.json", R"({"arg0_1": "f32[3]", "arg1_1": "f32[3]"})");
  CliRun from_file = run_eqfuse(fmt::format("print - --input-types '{}'", types.string()), text);
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_THAT(from_file.out, HasSubstr("add: \"f32[3]\""));

  CliRun bad = run_eqfuse("print - --input-types 'arg0_1=bf16[s0, 4096]; arg1_1=xx[2]'", text);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("input 'arg1_1'"));
  EXPECT_THAT(bad.err, StartsWith("--input-types:1:"));
  CliRun not_input = run_eqfuse("print - --input-types 'add=f32[3]'", text);
  EXPECT_EQ(not_input.exit_code, 2);
  EXPECT_THAT(not_input.err, HasSubstr("not an input of the graph"));
}

TEST(Cli, OpsListsSchemas) {
  CliRun text = run_eqfuse("ops");
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, HasSubstr("npu::npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float "
                                  "epsilon=1e-06) -> (Tensor y, Tensor rstd, Tensor x)"));
  EXPECT_THAT(text.out, HasSubstr("kind=norm"));
  CliRun json = run_eqfuse("ops --json");
  ASSERT_EQ(json.exit_code, 0);
  nlohmann::json ops = nlohmann::json::parse(json.out);
  ASSERT_TRUE(ops.is_array());
  // The text listing ends with "# N ops" for the same N.
  EXPECT_THAT(text.out, HasSubstr(fmt::format("# {} ops\n", ops.size())));
  bool found = false;
  for (const auto& op : ops) {
    EXPECT_TRUE(op.contains("schema") && op.contains("kind") && op.contains("name"));
    if (op["name"] == "aten::add.Tensor") {
      found = true;
      EXPECT_EQ(op["kind"], "elementwise");
      EXPECT_EQ(op["inplace"], "aten::add_.Tensor");
    }
  }
  EXPECT_TRUE(found);
  CliRun filtered = run_eqfuse("ops --json --filter npu_add_rms_norm");
  nlohmann::json some = nlohmann::json::parse(filtered.out);
  EXPECT_GE(some.size(), 4u);
  EXPECT_LT(some.size(), ops.size());
}

TEST(Cli, BenchPrintsOneJsonLine) {
  CliRun ac = run_eqfuse("bench ac 4");
  ASSERT_EQ(ac.exit_code, 0) << ac.err;
  EXPECT_EQ(std::count(ac.out.begin(), ac.out.end(), '\n'), 1);
  nlohmann::json j = nlohmann::json::parse(ac.out);
  // 2^N - 1 classes and 3^N - 2^(N+1) + 1 + N nodes for N = 4.
  EXPECT_EQ(j["eclasses"], 15);
  EXPECT_EQ(j["enodes"], 81 - 32 + 1 + 4);
  EXPECT_EQ(j["stop_reason"], "Saturated");
  for (const char* key : {"iterations", "seconds"}) EXPECT_TRUE(j.contains(key)) << key;
  // The runner's arrays are fresh memory in a new process: touching them faults.
  EXPECT_GT(j["minor_page_faults"].get<long>(), 0);
  // One thread: the CPU time of the span is within its wall time (+ clock granularity).
  double cpu = j["user_seconds"].get<double>() + j["system_seconds"].get<double>();
  EXPECT_LE(cpu, j["seconds"].get<double>() + 0.01);
  CliRun math = run_eqfuse("bench math --iters 8");
  ASSERT_EQ(math.exit_code, 0) << math.err;
  nlohmann::json m = nlohmann::json::parse(math.out);
  EXPECT_EQ(m["enodes"], 600);
  EXPECT_EQ(m["eclasses"], 71);
  EXPECT_EQ(run_eqfuse("bench ac 4 --scheduler backoff").exit_code, 0);
}

const char* const kAddTwice =
    "def forward(self, x: \"f32[2, 3]\"):\n"
    "    add: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(x, x)\n"
    "    return (add,)\n";

TEST(Cli, CheckAcceptsEquivalentGraphs) {
  fs::path a = write_scratch("add.fx", kAddTwice);
  fs::path b = write_scratch("mul2.fx",
                             "def forward(self, x: \"f32[2, 3]\"):\n"
                             "    mul: \"f32[2, 3]\" = torch.ops.aten.mul.Tensor(x, 2)\n"
                             "    return (mul,)\n");
  CliRun r = run_eqfuse(fmt::format("check '{}' '{}' --trials 4", a.string(), b.string()));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("equivalent: 4 trials"));
  for (const char* example : kExamples) {
    // Includes the DeepSeek layer (hidden 7168, ~215 M weight elements and
    // ~1 GFLOP per trial): seconds with the interpreter's fast paths; one
    // trial keeps this test binary quick.
    bool large = std::string_view(example).find("deepseek") != std::string_view::npos;
    CliRun self =
        run_eqfuse(fmt::format("check {} {}{}", example, example, large ? " --trials 1" : ""));
    EXPECT_EQ(self.exit_code, 0) << example << self.out << self.err;
  }
  // JSON and FX forms of the same graph are equivalent.
  fs::path json = write_scratch("seed.json",
                                run_eqfuse("print --format json " + std::string(kExamples[0])).out);
  EXPECT_EQ(run_eqfuse(fmt::format("check {} '{}'", kExamples[0], json.string())).exit_code, 0);
}

TEST(Cli, CheckNamesTheFirstDifferingOutput) {
  fs::path a = write_scratch("add.fx", kAddTwice);
  fs::path c = write_scratch("mul3.fx",
                             "def forward(self, x: \"f32[2, 3]\"):\n"
                             "    mul: \"f32[2, 3]\" = torch.ops.aten.mul.Tensor(x, 3)\n"
                             "    return (mul,)\n");
  CliRun r = run_eqfuse(fmt::format("check '{}' '{}'", a.string(), c.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("not equivalent"));
  EXPECT_THAT(r.out, HasSubstr("output 0"));

  // A deliberately altered example: the seed with the rms-norm inputs swapped
  // for the gamma-scaled ones is not the same computation.
  std::string seed = slurp_file(fs::path(EQFUSE_SOURCE_DIR) / kExamples[0]);
  std::string altered = seed;
  size_t at =
      altered.find("view_1: \"f32[6, 1]\" = torch.ops.aten.view.default(getitem_4, [-1, 1])");
  ASSERT_NE(at, std::string::npos);
  altered.replace(altered.find("return (getitem_3, view_1, getitem_2)"),
                  std::string("return (getitem_3, view_1, getitem_2)").size(),
                  "return (getitem_3, view_1, getitem_2_neg)");
  altered.replace(
      altered.find("        return"), 0,
      "        getitem_2_neg: \"f16[2, 3, 4]\" = torch.ops.aten.neg.default(getitem_2)\n");
  fs::path alt = write_scratch("seed_altered.fx", altered);
  CliRun mismatch = run_eqfuse(fmt::format("check {} '{}'", kExamples[0], alt.string()));
  EXPECT_EQ(mismatch.exit_code, 1) << mismatch.out << mismatch.err;
  EXPECT_THAT(mismatch.out, HasSubstr("output 2"));
}

// Fuzz finding (fuzz_optimize_check): as_strided with a storage offset past a
// small symbolic input is the graph's error on those inputs (exit 2, naming the node
// that reads the view), not an internal error.
TEST(Cli, CheckNamesAViewPastItsStorage) {
  const std::string file =
      std::string(EQFUSE_TEST_DATA) + "/fuzz/as_strided_offset_past_storage.fx";
  CliRun r = run_eqfuse("check '" + file + "' '" + file + "' --bind s77=2");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("node 'foo_default': cannot be computed on these inputs"));
  EXPECT_THAT(r.err, HasSubstr("reaches outside its storage"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("internal error")));
}

// Fuzz finding (fuzz_fx_text): `device(type='')` read a device that was never
// parsed; now a parse error at the empty string.
TEST(Cli, EmptyDeviceTypeIsAParseError) {
  const std::string file = std::string(EQFUSE_TEST_DATA) + "/fuzz/fx_empty_device_type.fx";
  CliRun r = run_eqfuse("print '" + file + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("fx_empty_device_type.fx:2:65: error: bad device ''"));
}

TEST(Cli, CheckRejectsIncomparableGraphs) {
  fs::path a = write_scratch("add.fx", kAddTwice);
  CliRun r = run_eqfuse(fmt::format("check '{}' examples/matmul_transpose.fx", a.string()));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("error"));
  CliRun bind = run_eqfuse(fmt::format("check '{}' '{}' --bind s0", a.string(), a.string()));
  EXPECT_EQ(bind.exit_code, 2);
  EXPECT_THAT(bind.err, HasSubstr("--bind expects SYMBOL=SIZE"));
}

TEST(Cli, PrintWritesToAFile) {
  fs::path out = scratch_dir() / "printed.json";
  CliRun r = run_eqfuse(
      fmt::format("print examples/matmul_transpose.fx --format json -o '{}'", out.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_THAT(slurp_file(out), HasSubstr("\"format\": \"eqfuse-graph\""));
  CliRun compact = run_eqfuse("print examples/matmul_transpose.fx --format json --compact");
  EXPECT_EQ(std::count(compact.out.begin(), compact.out.end(), '\n'), 1);
}

// optimize, explain, sensitivity and rules share their toggle options
// (cli/cli_common.hpp): --config is applied first, the flags on top.
TEST(Cli, ToggleOptionsReadTheConfigAndFlagsWin) {
  fs::path cfg = write_scratch("ge.json", R"({"mode": "max-autotune"})");
  const std::string config = fmt::format(" --config '{}'", cfg.string());
  const std::string on_top = config + " --mode reduce-overhead";
  const std::string excluded = "excluded in max-autotune";
  EXPECT_THAT(run_eqfuse("rules" + config).out, HasSubstr(excluded));
  EXPECT_THAT(run_eqfuse("rules" + on_top).out, Not(HasSubstr(excluded)));

  const std::string optimize = "optimize examples/matmul_transpose.fx -o /dev/null";
  EXPECT_THAT(run_eqfuse(optimize + config).err, HasSubstr("max-autotune on"));
  EXPECT_THAT(run_eqfuse(optimize + on_top).err, HasSubstr("reduce-overhead on"));

  const std::string explain = "explain examples/matmul_transpose.fx --format json";
  EXPECT_EQ(nlohmann::json::parse(run_eqfuse(explain + config).out)["mode"], "max-autotune");
  EXPECT_EQ(nlohmann::json::parse(run_eqfuse(explain + on_top).out)["mode"], "reduce-overhead");

  const std::string sweep =
      "sensitivity examples/matmul_transpose.fx --param eff_mem --steps 2 --json";
  EXPECT_EQ(nlohmann::json::parse(run_eqfuse(sweep + config).out)["mode"], "max-autotune");
  EXPECT_EQ(nlohmann::json::parse(run_eqfuse(sweep + on_top).out)["mode"], "reduce-overhead");

  CliRun bad = run_eqfuse("rules --config /nonexistent/eqfuse.json");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("/nonexistent/eqfuse.json"));
}

// A misspelled rule or label is an error with a suggestion, wherever it is
// given; enabling a rule that the mode keeps off says so.
TEST(Cli, MisspelledRuleSelectorsAreErrorsWithASuggestion) {
  const std::string optimize = "optimize examples/matmul_transpose.fx -o /dev/null";
  CliRun typo = run_eqfuse(optimize + " --disable-rule torchair/bmm-transpos");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("--disable-rule torchair/bmm-transpos: no rule or label of "
                                  "that name (did you mean 'torchair/bmm-transpose'?)"));
  fs::path cfg = write_scratch("typo.json", R"({"enable_rules": ["inexct"]})");
  CliRun in_config = run_eqfuse(fmt::format("{} --config '{}'", optimize, cfg.string()));
  EXPECT_EQ(in_config.exit_code, 2);
  EXPECT_THAT(in_config.err, HasSubstr("--enable-rule inexct: no rule or label of that name "
                                       "(did you mean 'inexact'?)"));
  CliRun explain = run_eqfuse("explain examples/matmul_transpose.fx --disable-rule nope-nope");
  EXPECT_EQ(explain.exit_code, 2);
  CliRun kept_off =
      run_eqfuse(optimize + " --mode max-autotune --enable-rule torchair/bmm-transpose");
  EXPECT_EQ(kept_off.exit_code, 0) << kept_off.err;
  EXPECT_THAT(kept_off.err, HasSubstr("note         --enable-rule torchair/bmm-transpose: the "
                                      "rule stays off: excluded in max-autotune"));
}

// explain and sensitivity take --rules and --hint like optimize.
TEST(Cli, ExplainAndSensitivityTakeRulesAndHints) {
  fs::path rules = write_scratch("neg.rules", R"(rule user/double-neg =>
    labels: user
    description: neg of neg is the value

    def search(x: "f32[4]"):
        a = torch.ops.aten.neg.default(x)
        b = torch.ops.aten.neg.default(a)
        return (b,)

    def replace(x):
        c = torch.ops.aten.clone.default(x)
        return (c,)
)");
  fs::path graph = write_scratch("neg.fx", R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[s0, 4]"):
        a: "f32[s0, 4]" = torch.ops.aten.neg.default(x)
        b: "f32[s0, 4]" = torch.ops.aten.neg.default(a)
        return (b,)
)");
  const std::string args = fmt::format("'{}' --rules '{}'", graph.string(), rules.string());
  CliRun explain = run_eqfuse("explain " + args + " --format json --hint s0=8");
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_THAT(explain.out, HasSubstr("user/double-neg"));
  CliRun sweep = run_eqfuse("sensitivity " + args + " --param eff_mem --steps 2 --json");
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  CliRun bad_hint = run_eqfuse("explain " + args + " --hint s0=zero");
  EXPECT_EQ(bad_hint.exit_code, 2);
  EXPECT_THAT(bad_hint.err, HasSubstr("--hint 's0=zero': expected SYMBOL=N"));
}

// `eqfuse rules` shows an `inexact` rule off, and why, until it is enabled by
// name or by the label `inexact` (docs/rules.md "The `inexact` label").
TEST(Cli, RulesShowsTheInexactRuleOffAndWhy) {
  const std::string rule = "vllm/quantize-mul-as-div";
  auto row = [&](const std::string& args) {
    CliRun r = run_eqfuse("rules" + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      if (line.find(" " + rule + " ") != std::string::npos) return line;
    ADD_FAILURE() << rule << " is not listed:\n" << r.out;
    return std::string();
  };
  const std::string off = row("");
  EXPECT_THAT(off, StartsWith("off "));
  EXPECT_THAT(off, HasSubstr("inexact: not bit-exact with the unfused chain"));
  EXPECT_THAT(row(" --enable-rule vllm"), StartsWith("off "));  // a family label is not enough
  EXPECT_THAT(row(" --enable-rule inexact"), StartsWith("on "));
  EXPECT_THAT(row(" --enable-rule " + rule), StartsWith("on "));
  fs::path cfg = write_scratch("inexact.json", R"({"enable_rules": ["inexact"]})");
  EXPECT_THAT(row(fmt::format(" --config '{}'", cfg.string())), StartsWith("on "));
  EXPECT_THAT(row(" --enable-rule inexact --disable-rule " + rule), StartsWith("off "));

  nlohmann::json list = nlohmann::json::parse(run_eqfuse("rules --json").out);
  bool found = false;
  for (const auto& r : list) {
    if (r["name"] != rule) continue;
    found = true;
    EXPECT_FALSE(r["enabled"].get<bool>());
    EXPECT_THAT(r["reason"].get<std::string>(), HasSubstr("--enable-rule inexact"));
    EXPECT_EQ(r["defined_at"].get<std::string>().rfind("rewrites/library/vllm.rules:", 0), 0u);
  }
  EXPECT_TRUE(found);
}

}  // namespace

namespace eqfuse {
namespace {

// The input is never overwritten: an output naming an input file is refused
// before anything is written (optimize, explain, calibrate).
TEST(CliOutputs, AnOutputNamingTheInputIsRefusedAndTheInputKept) {
  const std::string original =
      slurp_file(fs::path(EQFUSE_SOURCE_DIR) / "examples/matmul_transpose.fx");
  const fs::path in = write_scratch("in_place.fx", original);
  for (const std::string& cmd : {std::string("optimize"), std::string("explain")}) {
    CliRun r = run_eqfuse(fmt::format("{} '{}' -o '{}'", cmd, in.string(), in.string()));
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_THAT(r.err, HasSubstr("refusing to write")) << cmd;
    EXPECT_EQ(slurp_file(in), original) << cmd;
  }
  // The same file under another spelling of its path.
  CliRun r = run_eqfuse(fmt::format("optimize '{}' --stats-json '{}/./in_place.fx' -q", in.string(),
                                    in.parent_path().string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(slurp_file(in), original);
  const fs::path profile = write_scratch(
      "profile.json", slurp_file(fs::path(EQFUSE_SOURCE_DIR) / "cost/devices/ascend910b2.json"));
  CliRun c = run_eqfuse(fmt::format(
      "calibrate --profile examples/measurements/910b2_sample.csv --device '{}' -o '{}'",
      profile.string(), profile.string()));
  EXPECT_EQ(c.exit_code, 2) << c.err;
  EXPECT_EQ(slurp_file(profile),
            slurp_file(fs::path(EQFUSE_SOURCE_DIR) / "cost/devices/ascend910b2.json"));
}

TEST(CliOutputs, AnUnwritableStatsFileFailsBeforeTheGraphIsWritten) {
  const fs::path out = scratch_dir() / "never_written.fx";
  fs::remove(out);
  CliRun r = run_eqfuse(fmt::format(
      "optimize examples/matmul_transpose.fx -o '{}' --stats-json /nonexistent/dir/stats.json -q",
      out.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no directory '/nonexistent/dir'"));
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliOutputs, LimitsOutsideTheirRangeAreErrorsNotIgnored) {
  for (const char* flag : {"--time-limit nan", "--time-limit inf", "--time-limit -1",
                           "--time-limit 1e300", "--node-limit -5", "--iter-limit -1"}) {
    CliRun r = run_eqfuse(fmt::format("optimize examples/matmul_transpose.fx {} -q", flag));
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_FALSE(r.err.empty()) << flag;
  }
  for (const char* config :
       {R"({"node_limit": -5})", R"({"node_limit": 1e300})", R"({"iter_limit": 2.7})",
        R"({"iter_limit": -1})", R"({"time_limit": -1})"}) {
    const fs::path file = write_scratch("limits.json", config);
    CliRun r = run_eqfuse(
        fmt::format("optimize examples/matmul_transpose.fx --config '{}' -q", file.string()));
    EXPECT_EQ(r.exit_code, 2) << config;
    EXPECT_THAT(r.err, HasSubstr("config key")) << config;
  }
  CliRun ok =
      run_eqfuse("optimize examples/matmul_transpose.fx --time-limit 5 --node-limit 1000 -q");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// Every JSON reader (graph JSON, --config, --device, --input-types,
// calibrate's measurements, extract's e-graphs) reports a number no double
// holds at its file:line:col with exit 2, not as an internal error.
TEST(CliOutputs, JsonNumbersOutsideDoubleRangeAreInputErrors) {
  const fs::path big = write_scratch("big.json", "{\n  \"a\": 1E400}\n");
  const std::string b = big.string();
  const fs::path graph = write_scratch(
      "big_graph.json", R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"x": -1e999}]})");
  const std::vector<std::string> commands = {
      fmt::format("print '{}'", graph.string()),
      fmt::format("optimize examples/matmul_transpose.fx -q --config '{}'", b),
      fmt::format("optimize examples/matmul_transpose.fx -q --device '{}'", b),
      fmt::format("optimize examples/matmul_transpose.fx -q --input-types '{}'", b),
      fmt::format("calibrate --profile '{}' --device ascend910b2 -o /dev/null", b),
      fmt::format("extract '{}'", b)};
  for (const std::string& args : commands) {
    CliRun r = run_eqfuse(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("number overflow")) << args;
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("internal error"))) << args;
  }
  CliRun located = run_eqfuse(commands.back());
  EXPECT_THAT(located.err, HasSubstr("big.json:2:8: error: invalid JSON"));
}

// Every JSON reader refuses nesting 100,000 levels deep at the bracket that
// passes the limit, with exit 2 and no crash: graph JSON (arguments and
// meta types), --config, --device, --input-types, measurements, e-graphs.
TEST(CliOutputs, DeeplyNestedJsonIsRefusedAtTheBracket) {
  constexpr int kDepth = 100000;
  const std::string deep = std::string(kDepth, '[') + std::string(kDepth, ']');
  const fs::path value = write_scratch("deep.json", "{\"a\": " + deep + "}\n");
  const fs::path args = write_scratch(
      "deep_args.json", R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "x", )"
                        R"("op": "call_function", "target": "aten::relu", "args": )" +
                            deep + "}]}\n");
  const fs::path types = write_scratch(
      "deep_types.json", R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "x", )"
                         R"("op": "placeholder", "meta": {"type": )" +
                             deep + "}}]}\n");
  const std::string v = value.string();
  const std::vector<std::string> commands = {
      fmt::format("print '{}'", args.string()),
      fmt::format("print '{}'", types.string()),
      fmt::format("optimize examples/matmul_transpose.fx -q --config '{}'", v),
      fmt::format("optimize examples/matmul_transpose.fx -q --device '{}'", v),
      fmt::format("optimize examples/matmul_transpose.fx -q --input-types '{}'", v),
      fmt::format("calibrate --profile '{}' --device ascend910b2 -o /dev/null", v),
      fmt::format("extract '{}'", v)};
  for (const std::string& a : commands) {
    CliRun r = run_eqfuse(a);
    EXPECT_EQ(r.exit_code, 2) << a << "\n" << r.err.substr(0, 400);
    EXPECT_THAT(r.err, HasSubstr("nested deeper than 300 levels")) << a;
  }
  // Level 301 is opened by the 300th bracket of the list, column 306.
  EXPECT_THAT(run_eqfuse(commands.back()).err, HasSubstr("deep.json:1:306: error: invalid JSON"));
}

// A node limit below what the graph loads into stops saturation before any
// rule runs; the summary says so and what to raise.
TEST(CliLimits, ANodeLimitBelowTheLoadedGraphIsExplained) {
  CliRun r = run_eqfuse("optimize examples/add_rms_norm_cast.fx --node-limit 5 -o /dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("saturation   NodeLimit after 0 iterations"));
  EXPECT_THAT(r.err, HasSubstr("the e-node limit (5) is below the"));
  EXPECT_THAT(r.err, HasSubstr("raise --node-limit"));
}

// --memory-limit: saturation stops at the budget with a note and the output
// is still a valid graph (equivalent, never costlier); check stops with an
// error naming the node; the config key does what the flag does; a size that
// is not one is refused.
TEST(CliLimits, MemoryLimitStopsSaturationAndCheckCleanly) {
  CliRun opt = run_eqfuse("optimize examples/add_rms_norm_cast.fx --memory-limit 1M");
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  EXPECT_THAT(opt.err, HasSubstr("saturation   MemoryLimit after 0 iterations"));
  EXPECT_THAT(opt.err, HasSubstr("memory limit reached during saturation"));
  const fs::path out = write_scratch("memory_limited.fx", opt.out);
  CliRun same = run_eqfuse("check examples/add_rms_norm_cast.fx '" + out.string() + "'");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;

  CliRun check =
      run_eqfuse("check examples/add_rms_norm_cast.fx '" + out.string() + "' --memory-limit 1M");
  EXPECT_EQ(check.exit_code, 2) << check.err;
  EXPECT_THAT(check.err, HasSubstr("memory limit reached:"));
  EXPECT_THAT(check.err, HasSubstr("--memory-limit is 1.0 MiB"));

  const fs::path cfg = write_scratch("memory.json", R"({"memory_limit": "1M"})");
  CliRun by_config =
      run_eqfuse("optimize examples/add_rms_norm_cast.fx -q --config '" + cfg.string() + "'");
  EXPECT_EQ(by_config.out, opt.out);

  for (const char* bad : {"8X", "-1G", "G"}) {
    CliRun r =
        run_eqfuse(std::string("optimize examples/add_rms_norm_cast.fx --memory-limit ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("--memory-limit: expected a size")) << bad;
  }
  const fs::path bad_cfg = write_scratch("memory_bad.json", R"({"memory_limit": -5})");
  CliRun r =
      run_eqfuse("optimize examples/add_rms_norm_cast.fx --config '" + bad_cfg.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("memory_limit"));
}

// One FX graph of neg over an input typed `type`, returning `ret`.
std::string neg_graph(const std::string& type, const std::string& ret = "y",
                      const std::string& eol = "\n") {
  return fmt::format(
      "class GraphModule(torch.nn.Module):{0}    def forward(self, x: \"{1}\"):{0}"
      "        y: \"{1}\" = torch.ops.aten.neg.default(x);  x = None{0}        return ({2},){0}",
      eol, type, ret);
}

TEST(CliInputs, CheckRefusesWhatItCannotEvaluate) {
  const std::string sym = write_scratch("sym.fx", neg_graph("f32[s0, 4]")).string();
  CliRun typo = run_eqfuse(fmt::format("check '{0}' '{0}' --bind s1=4", sym));
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("no input size uses 's1' (the inputs' symbols: s0)"));
  CliRun huge = run_eqfuse(fmt::format("check '{0}' '{0}' --bind s0=4611686018427387904", sym));
  EXPECT_EQ(huge.exit_code, 2) << huge.err;
  EXPECT_THAT(huge.err, HasSubstr("input 'x': shape [4611686018427387904, 4] has more than"));
  const std::string big = write_scratch("big.fx", neg_graph("f32[1099511627776]")).string();
  CliRun big_run = run_eqfuse(fmt::format("check '{0}' '{0}'", big));
  EXPECT_EQ(big_run.exit_code, 2) << big_run.err;
  EXPECT_THAT(big_run.err, HasSubstr("the reference interpreter's limit"));
  // 2^62 f32 elements take 2^64 bytes: no such tensor, refused when the graph is read.
  const std::string huge_type =
      write_scratch("huge_type.fx", neg_graph("f32[4611686018427387904]")).string();
  CliRun huge_type_run = run_eqfuse(fmt::format("check '{0}' '{0}'", huge_type));
  EXPECT_EQ(huge_type_run.exit_code, 2) << huge_type_run.err;
  EXPECT_THAT(huge_type_run.err, HasSubstr("size of input 'x' f32[4611686018427387904] does not "
                                           "fit in 63 bits"));
  const std::string lit = write_scratch("lit.fx", neg_graph("f32[4]", "\"hello\"")).string();
  CliRun literal = run_eqfuse(fmt::format("check '{0}' '{0}'", lit));
  EXPECT_EQ(literal.exit_code, 2) << literal.err;
  EXPECT_THAT(literal.err, HasSubstr("output 0 cannot be evaluated"));
}

TEST(CliInputs, NegativeDimensionsAreRejectedByEveryCommand) {
  const std::string neg = write_scratch("neg.fx", neg_graph("f32[-3, 4]")).string();
  for (const char* cmd : {"print", "optimize -q", "check"}) {
    const std::string args = std::string(cmd) == "check" ? fmt::format("check '{0}' '{0}'", neg)
                                                         : fmt::format("{} '{}'", cmd, neg);
    CliRun r = run_eqfuse(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, HasSubstr("dimension '-3' is negative")) << args;
  }
  CliRun json = run_eqfuse(
      "print -",
      R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "x", "op": "placeholder",)"
      R"( "meta": {"type": {"dtype": "f32", "shape": [-3]}}}, {"name": "output", "op": "output",)"
      R"( "args": [[{"node": "x"}]]}]})");
  EXPECT_EQ(json.exit_code, 2) << json.err;
  EXPECT_THAT(json.err, HasSubstr("negative")) << json.err;
}

TEST(CliInputs, CarriageReturnLineEndingsReadLikeNewlines) {
  const std::string lf = write_scratch("lf.fx", neg_graph("f32[4]")).string();
  const std::string cr = write_scratch("cr.fx", neg_graph("f32[4]", "y", "\r")).string();
  CliRun a = run_eqfuse(fmt::format("print '{}'", lf));
  CliRun b = run_eqfuse(fmt::format("print '{}'", cr));
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(CliInputs, DumpDirNamingAFileIsAnError) {
  const fs::path file = write_scratch("not_a_dir", "x");
  CliRun r = run_eqfuse(
      fmt::format("optimize examples/matmul_transpose.fx -q --dump-dir '{}'", file.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("is a file, not a directory"));
}

// EQFUSE_DEBUG=1 dumps every stage, numbered, as --dump-dir does: the input,
// the saturation stats, the extraction problem, the output and the decisions.
TEST(CliInputs, DebugEnvironmentDumpsEveryStage) {
  const fs::path base = testing_support::scratch_dir("debug") / "dumps";
  ::setenv("EQFUSE_DEBUG", "1", 1);
  ::setenv("EQFUSE_DEBUG_DIR", base.c_str(), 1);
  CliRun r = run_eqfuse("optimize examples/matmul_transpose.fx -o /dev/null");
  ::unsetenv("EQFUSE_DEBUG");
  ::unsetenv("EQFUSE_DEBUG_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path dir = base / "matmul_transpose";
  EXPECT_THAT(r.err, HasSubstr("stage dumps written to " + dir.string()));
  for (const char* f : {"000_input.fx", "001_saturate_stats.json", "002_extraction_problem.json",
                        "003_output.fx", "004_explain.txt"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  EXPECT_THAT(testing_support::slurp_file(dir / "004_explain.txt"),
              HasSubstr("torchair/bmm-transpose"));
}

TEST(CliInputs, GraphJsonMustEndInItsOutputNode) {
  for (const char* nodes :
       {"[]", R"([{"name": "x", "op": "placeholder", "meta": {"type": "f32[4]"}}])"}) {
    CliRun r = run_eqfuse(
        "print -",
        fmt::format(R"({{"format": "eqfuse-graph", "version": 1, "nodes": {}}})", nodes));
    EXPECT_EQ(r.exit_code, 2) << nodes;
    EXPECT_THAT(r.err, HasSubstr("the last node must be the output node")) << nodes;
  }
}

// What print writes, print reads back: a call target that printed FX could
// not call is refused when read; FX's `<built-in function mul>` is operator.mul
// (printed as `*`).
TEST(CliInputs, PrintingIsAFixedPointForCallTargets) {
  const std::string node_line =
      "graph():\n    %x : [num_users=1] = placeholder[target=x]\n"
      "    %y : [num_users=1] = call_function[target={}](args = (%x, %x), kwargs = {{}})\n"
      "    return (y,)\n";
  CliRun bad = run_eqfuse("print -", fmt::format(fmt::runtime(node_line), "foo$bar"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("target 'foo$bar' is not a dotted Python name"));
  CliRun builtin =
      run_eqfuse("print -", fmt::format(fmt::runtime(node_line), "<built-in function mul>"));
  ASSERT_EQ(builtin.exit_code, 0) << builtin.err;
  EXPECT_THAT(builtin.out, HasSubstr("y = x * x"));
  CliRun again = run_eqfuse("print -", builtin.out);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, builtin.out);
  CliRun json = run_eqfuse(
      "print -",
      R"({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "x", "op": "placeholder"},)"
      R"( {"name": "y", "op": "call_function", "target": "foo$bar", "args": [{"node": "x"}]},)"
      R"( {"name": "output", "op": "output", "args": [[{"node": "y"}]]}]})");
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_THAT(json.err, HasSubstr("'foo$bar' is not an op or Python function name"));
}

// check's default: exact agreement under reference numerics, then the real
// fused numerics' deviation as information (the README's first session).
TEST(CliInputs, CheckDecidesUnderReferenceNumericsAndReportsTheRealOnes) {
  const fs::path out = scratch_dir() / "layer_opt.fx";
  CliRun opt = run_eqfuse(
      fmt::format("optimize examples/seed_add_rms_norm_dynamic_quant.fx -q -o '{}'", out.string()));
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  CliRun r = run_eqfuse(
      fmt::format("check examples/seed_add_rms_norm_dynamic_quant.fx '{}'", out.string()));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("compared (exact under reference numerics)"));
  EXPECT_THAT(r.out, HasSubstr("real fused numerics (trial 0), where outputs differ:"));
  CliRun same = run_eqfuse("check examples/matmul_transpose.fx examples/matmul_transpose.fx");
  EXPECT_THAT(same.out, HasSubstr("real fused numerics: identical outputs"));
}

// Fuzz findings: sizes that leave int64 in the FX text are errors at file:line:col
// (exit 2), never wrapped sizes in the printed or optimized graph.
TEST(Cli, SizesThatLeaveInt64AreErrorsAtTheirPosition) {
  auto graph = [](const std::string& name, const std::string& sig, const std::string& body) {
    return testing_support::write_scratch(
               name,
               "class GraphModule(torch.nn.Module):\n    def forward(self, " + sig + "):\n" + body)
        .string();
  };
  // Was printed as `f16[s0 + 2]`.
  std::string sum =
      graph("ovf_sum.fx", "x: \"f16[s0 - 9223372036854775807 - 9223372036854775807]\"",
            "        return (x,)\n");
  auto p = run_eqfuse("print " + sum);
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_THAT(p.err, HasSubstr("ovf_sum.fx:2:"));
  EXPECT_THAT(p.err, HasSubstr("arithmetic leaves the int64 range"));
  // Was: view(x, [-1]) inferred f16[0].
  std::string view = graph("ovf_view.fx", "x: \"f16[4611686018427387904, 4]\"",
                           "        view = torch.ops.aten.view.default(x, [-1])\n"
                           "        return (view,)\n");
  auto v = run_eqfuse("print " + view);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_THAT(v.err,
              HasSubstr("ovf_view.fx:2:23: error: size of input 'x' f16[4611686018427387904, "
                        "4] does not fit in 63 bits"));
  // Was: reinplace's byte count wrapped (2^32 x 2^32 x 2 bytes).
  std::string square = graph("ovf_square.fx", "x: \"f16[4294967296, 4294967296]\"",
                             "        mul = torch.ops.aten.mul.Tensor(x, x)\n"
                             "        return (mul,)\n");
  auto o = run_eqfuse("optimize " + square);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_THAT(o.err, HasSubstr("ovf_square.fx:2:23: error: size of input 'x' f16[4294967296, "
                               "4294967296] does not fit in 63 bits"));
  // A result that leaves int64 names its node.
  std::string grow =
      graph("ovf_grow.fx", "x: \"i8[4611686018427387904]\"",
            "        view = torch.ops.aten.view.default(x, [4611686018427387904, 4])\n"
            "        return (view,)\n");
  auto gr = run_eqfuse("optimize " + grow);
  EXPECT_EQ(gr.exit_code, 2);
  EXPECT_THAT(gr.err, HasSubstr("ovf_grow.fx:3:9: error: node 'view' (aten::view)"));
}

}  // namespace
}  // namespace eqfuse
