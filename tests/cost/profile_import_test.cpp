// Profile importers: format detection, each importer on its fixture in
// tests/data/profiles/ (rows, times and notes computed by hand from the
// fixture), errors naming file:line or the JSON path, and the round trip of
// every call node of the static torch 2.11 traces (tests/data/torch2) through a
// one-op measurement graph.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cost/node_measurement.hpp"
#include "cost/profile_import.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing::HasSubstr;
using testing_support::builtin_registry;

const std::string kProfiles = std::string(EQFUSE_TEST_DATA) + "/profiles/";

std::string fixture(const std::string& name) {
  return read_file_or_stdin(kProfiles + name);
}

const Graph& block_graph() {
  static const Graph g =
      load_graph(fixture("block.fx"), kProfiles + "block.fx", builtin_registry()).graph;
  return g;
}

ImportOptions options(ExecMode mode) {
  return {.mode = mode, .graph = &block_graph(), .registry = &builtin_registry()};
}

ImportResult import_fixture(const std::string& name, ExecMode mode) {
  return import_measurements_file(kProfiles + name, options(mode));
}

// label -> measured_us
std::map<std::string, double> times(const ImportResult& r) {
  std::map<std::string, double> out;
  for (const Measurement& m : r.rows) out[m.label] = m.measured_us;
  return out;
}

const Measurement& row_for(const ImportResult& r, const std::string& label) {
  for (const Measurement& m : r.rows)
    if (m.label == label) return m;
  throw std::runtime_error("no row " + label);
}

bool has_note(const ImportResult& r, const std::string& part) {
  for (const std::string& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

std::string error_of(std::string_view text, std::string_view origin, ExecMode mode) {
  try {
    import_measurements(text, origin, options(mode));
  } catch (const Error& e) {
    return fmt::format("{}:{}: {}", e.loc().file, e.loc().line, e.what());
  }
  return "no error";
}

// ---- detection -----------------------------------------------------------

TEST(ProfileImport, DetectsEachFormat) {
  EXPECT_EQ(detect_profile_format(fixture("block_trace.json"), "t"),
            ProfileFormat::TorchProfilerTrace);
  EXPECT_EQ(detect_profile_format(fixture("block_key_averages.txt"), "t"),
            ProfileFormat::TorchKeyAverages);
  EXPECT_EQ(detect_profile_format(fixture("block_op_summary_0_1.csv"), "t"),
            ProfileFormat::MsprofOpSummary);
  EXPECT_EQ(detect_profile_format(fixture("block_kernel_details.csv"), "t"),
            ProfileFormat::MsprofKernelDetails);
  EXPECT_EQ(detect_profile_format("# c\nop,inputs,mode,measured_us\n", "t"),
            ProfileFormat::EqfuseMeasurements);
  EXPECT_EQ(detect_profile_format(R"({"measurements": []})", "t"),
            ProfileFormat::EqfuseMeasurements);
  EXPECT_EQ(detect_profile_format("[]", "t"), ProfileFormat::EqfuseMeasurements);
}

TEST(ProfileImport, UnknownFormatNamesLineOneAndTheKnownFormats) {
  try {
    detect_profile_format("a,b,c\n1,2,3\n", "x.csv");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "x.csv");
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_THAT(e.what(), HasSubstr("kernel_details.csv"));
    EXPECT_THAT(e.what(), HasSubstr("Chrome trace"));
  }
}

TEST(ProfileImport, EqfuseFormatIsParsedAsIs) {
  ImportResult r = import_measurements(
      "op,inputs,mode,measured_us\naten::mm,\"f32[2, 3]; f32[3, 4]\",eager,5\n", "m.csv", {});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.format, ProfileFormat::EqfuseMeasurements);
  EXPECT_EQ(r.rows[0].inputs, (std::vector<std::string>{"f32[2, 3]", "f32[3, 4]"}));
}

TEST(ProfileImport, GraphFormatsNeedTheGraph) {
  EXPECT_THROW(import_measurements(fixture("block_trace.json"), "t.json", {}), Error);
}

// ---- node -> measurement ---------------------------------------------------

TEST(NodeMeasurement, ArgumentsInSchemaOrderAsFxText) {
  const Graph& g = block_graph();
  const OpRegistry& reg = builtin_registry();
  auto inputs = [&](const char* name) { return measurement_inputs(g, *g.find(name), reg); };
  using V = std::vector<std::string>;
  EXPECT_EQ(inputs("npu_rms_norm"), (V{"bf16[16, 128]", "bf16[128]"}));  // eps at its default
  EXPECT_EQ(inputs("mm"), (V{"bf16[16, 128]", "bf16[128, 64]"}));
  EXPECT_EQ(inputs("view"), (V{"bf16[16, 64]", "[1, 16, 64]"}));
  EXPECT_EQ(inputs("_to_copy"), (V{"bf16[1, 16, 64]", "dtype=torch.float32"}));
  Measurement m = measurement_for_node(g, *g.find("add"), reg, graph_stem(g));
  EXPECT_EQ(m.op, "aten::add.Tensor");
  EXPECT_EQ(m.label, "block:add");
}

TEST(NodeMeasurement, TensorListsAndTransposedShapes) {
  const OpRegistry& reg = builtin_registry();
  Graph g = load_graph(R"(class GraphModule(torch.nn.Module):
    def forward(self, a: "i64[1, 1]", b: "i64[1, 16]", w: "f32[8, 16]"):
        cat: "i64[1, 17]" = torch.ops.aten.cat.default([a, b], -1)
        t: "f32[16, 8]" = torch.ops.aten.t.default(w)
        f: "f32[1, 16]" = torch.ops.aten._to_copy.default(b, dtype = torch.float32)
        mm: "f32[1, 8]" = torch.ops.aten.mm.default(f, t)
        return (cat, mm)
)",
                       "lists.fx", reg)
                .graph;
  EXPECT_EQ(measurement_inputs(g, *g.find("cat"), reg),
            (std::vector<std::string>{"[i64[1, 1], i64[1, 16]]", "-1"}));
  EXPECT_EQ(tensor_input_dims(g, *g.find("cat")), (std::vector<Dims>{{1, 1}, {1, 16}}));
  EXPECT_EQ(tensor_input_dims_before_views(g, *g.find("mm"), reg),
            (std::vector<Dims>{{1, 16}, {8, 16}}));
}

// The one-op graph a measurement row stands for (calibrate's row form, with
// tensor lists given one placeholder per element).
std::string one_op_fx(const Measurement& m) {
  std::vector<std::string> params;
  auto tensor = [&](const std::string& t) {
    std::string name = fmt::format("in{}", params.size());
    params.push_back(fmt::format("{}: \"{}\"", name, t));
    return name;
  };
  auto is_tensor = [](std::string_view s) {
    size_t open = s.find('[');
    return open != std::string_view::npos && open > 0 && s.back() == ']' &&
           s.substr(0, open).find_first_of(" ,=[(") == std::string_view::npos;
  };
  std::vector<std::string> args;
  for (const std::string& item : m.inputs) {
    size_t eq = item.find('=');
    if (eq != std::string::npos && is_tensor(item.substr(eq + 1))) {  // a keyword tensor
      args.push_back(item.substr(0, eq + 1) + tensor(item.substr(eq + 1)));
    } else if (is_tensor(item)) {
      args.push_back(tensor(item));
    } else if (item.starts_with("[") && item.size() > 2 &&
               is_tensor(item.substr(1, item.find(']')))) {
      // "[f32[1, 1], f32[1, 16]]": split at the top-level commas.
      std::vector<std::string> names;
      int depth = 0;
      std::string cur;
      for (char c : item.substr(1, item.size() - 2)) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ',' && depth == 0) {
          names.push_back(tensor(std::string(trim_blanks(cur))));
          cur.clear();
        } else {
          cur += c;
        }
      }
      names.push_back(tensor(std::string(trim_blanks(cur))));
      args.push_back("[" + fmt::format("{}", fmt::join(names, ", ")) + "]");
    } else {
      args.push_back(item);
    }
  }
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n    def forward(self{}{}):\n"
      "        kernel = {}({})\n        return (kernel,)\n",
      params.empty() ? "" : ", ", fmt::join(params, ", "), fx_target_from_qualified_name(m.op),
      fmt::join(args, ", "));
}

TEST(NodeMeasurement, EveryCorpusCallRoundTripsThroughAOneOpGraph) {
  const OpRegistry& reg = builtin_registry();
  std::vector<std::string> files = {kProfiles + "block.fx"};
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(EQFUSE_TEST_DATA) + "/torch2"))
    if (e.path().string().ends_with("_static_0.txt")) files.push_back(e.path().string());
  size_t checked = 0;
  for (const std::string& file : files) {
    Graph g = load_graph(read_file_or_stdin(file), file, reg).graph;
    for (size_t i = 0; i < g.size(); ++i) {
      NodeRef r{static_cast<int32_t>(i)};
      const Node& n = g.node(r);
      if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
      Measurement m = measurement_for_node(g, r, reg, graph_stem(g));
      std::string text = one_op_fx(m);
      SCOPED_TRACE(file + ": " + n.name + "\n" + text);
      Graph one;
      ASSERT_NO_THROW(one = load_graph(text, "row.fx", reg).graph);
      const Node& call = one.node(*one.find("kernel"));
      EXPECT_EQ(call.target, n.target);
      if (n.type.is_tensor()) {
        ASSERT_TRUE(call.type.is_tensor());
        EXPECT_EQ(call.type.tensor.dtype, n.type.tensor.dtype);
        EXPECT_EQ(call.type.tensor.shape, n.type.tensor.shape);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);
}

// ---- torch.profiler Chrome trace ----------------------------------------

TEST(TorchTrace, EagerTakesMaxOfHostAndDeviceAveragedOverSteps) {
  ImportResult r = import_fixture("block_trace.json", ExecMode::Eager);
  EXPECT_EQ(r.format, ProfileFormat::TorchProfilerTrace);
  // Per step max(cpu_op dur, kernel durs), mean of the two steps.
  std::map<std::string, double> want = {
      {"block:npu_rms_norm", 21}, {"block:t", 5},         {"block:mm", 32},  {"block:add", 8.5},
      {"block:view", 2.5},        {"block:_to_copy", 14}, {"block:mul", 7.5}};
  EXPECT_EQ(times(r), want);
  const Measurement& mm = row_for(r, "block:mm");
  EXPECT_EQ(mm.op, "aten::mm");
  EXPECT_EQ(mm.inputs, (std::vector<std::string>{"bf16[16, 128]", "bf16[128, 64]"}));
  EXPECT_EQ(mm.mode, ExecMode::Eager);
  EXPECT_TRUE(has_note(r, "1 profile events matched no graph node (first: aten::empty"));
  EXPECT_TRUE(has_note(r, "7 nodes were timed in several iterations (2 passes"));
}

TEST(TorchTrace, GraphModeTakesKernelTimeAndSkipsViews) {
  ImportResult r = import_fixture("block_trace.json", ExecMode::ReduceOverhead);
  std::map<std::string, double> want = {{"block:npu_rms_norm", 13},
                                        {"block:mm", 32},
                                        {"block:add", 5},
                                        {"block:_to_copy", 5},
                                        {"block:mul", 7}};
  EXPECT_EQ(times(r), want);
  EXPECT_TRUE(has_note(r, "4 matched ops launched no kernel: no time in reduce-overhead mode"));
}

TEST(TorchTrace, NegativeDurationIsAnErrorAtItsJsonPath) {
  std::string text = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": -3, "args": {}}]})";
  EXPECT_THAT(error_of(text, "t.json", ExecMode::Eager), HasSubstr("traceEvents[0].dur"));
}

// Fuzz finding (fuzz_measurements): a field that must be a string but is a
// number escaped the importer as a JSON library exception.
TEST(TorchTrace, NonStringFieldIsAnErrorAtItsJsonPath) {
  std::string ph = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 3, "args": {}},
    {"ph": 1030, "cat": "kernel", "ts": 2, "dur": 1}]})";
  EXPECT_THAT(error_of(ph, "t.json", ExecMode::Eager),
              HasSubstr("traceEvents[1].ph: expected a string"));
  std::string name = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": 7, "ts": 1, "dur": 3, "args": {}}]})";
  EXPECT_THAT(error_of(name, "t.json", ExecMode::Eager),
              HasSubstr("traceEvents[0].name: expected a string"));
}

TEST(TorchTrace, ProfileOfAnotherGraphIsAnError) {
  std::string text = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::bmm", "ts": 1, "dur": 3,
     "args": {"Input Dims": [[2, 3, 4], [2, 4, 5]]}}]})";
  EXPECT_THAT(error_of(text, "t.json", ExecMode::Eager), HasSubstr("no profile event matched"));
}

TEST(TorchTrace, MalformedJsonNamesTheLine) {
  EXPECT_THAT(error_of("{\"traceEvents\": [\n{,]}", "t.json", ExecMode::Eager),
              HasSubstr("t.json:2"));
}

// ---- key_averages table ----------------------------------------------------

TEST(KeyAverages, EagerRowsPerSignature) {
  ImportResult r = import_fixture("block_key_averages.txt", ExecMode::Eager);
  EXPECT_EQ(r.format, ProfileFormat::TorchKeyAverages);
  std::map<std::string, double> want = {
      {"block:npu_rms_norm", 21}, {"block:t", 5},         {"block:mm", 32}, {"block:add", 8.5},
      {"block:view", 2.5},        {"block:_to_copy", 14}, {"block:mul", 7}};
  EXPECT_EQ(times(r), want);
  EXPECT_EQ(row_for(r, "block:mm").where.line, 4);
  EXPECT_TRUE(has_note(r, "3 profile rows matched no graph node (first: aten::copy_"));
  EXPECT_TRUE(has_note(r, "1 table rows with truncated or unreadable input shapes"));
}

TEST(KeyAverages, GraphModeUsesDeviceAverage) {
  ImportResult r = import_fixture("block_key_averages.txt", ExecMode::MaxAutotune);
  std::map<std::string, double> want = {{"block:npu_rms_norm", 13},
                                        {"block:mm", 32},
                                        {"block:add", 5},
                                        {"block:_to_copy", 5},
                                        {"block:mul", 7}};
  EXPECT_EQ(times(r), want);
}

TEST(KeyAverages, BadTimeNamesLineAndColumn) {
  std::string text = fixture("block_key_averages.txt");
  text.replace(text.find("11.000us"), 8, "11.000xx");
  std::string err = error_of(text, "k.txt", ExecMode::Eager);
  EXPECT_THAT(err, HasSubstr("k.txt:4:"));
  EXPECT_THAT(err, HasSubstr("CPU time avg"));
}

TEST(KeyAverages, TableWithoutShapesIsAnError) {
  std::string text =
      "----  ------------  ------------  ------------\n"
      "Name      Self CPU  CPU time avg    # of Calls\n"
      "----  ------------  ------------  ------------\n";
  EXPECT_THAT(error_of(text, "k.txt", ExecMode::Eager), HasSubstr("group_by_input_shape"));
}

// ---- Ascend msprof -----------------------------------------------------------

TEST(MsprofOpSummary, DurationPlusCappedWaitWithTransDataFolded) {
  ImportResult r = import_fixture("block_op_summary_0_1.csv", ExecMode::Eager);
  EXPECT_EQ(r.format, ProfileFormat::MsprofOpSummary);
  // rms: (10.5+2 + 11.5+min(5000, 100)) / 2; mm: (20+1 + 1.5+0.5 TransData) and (22+1+2).
  std::map<std::string, double> want = {{"block:npu_rms_norm", 62},
                                        {"block:mm", 24},
                                        {"block:add", 4},
                                        {"block:_to_copy", 4},
                                        {"block:mul", 4.5}};
  EXPECT_EQ(times(r), want);
  EXPECT_EQ(row_for(r, "block:mm").where.line, 5);
  EXPECT_TRUE(has_note(r, "1 kernels of a type not in the kernel-type table (first: SomeCustomOp"));
  EXPECT_TRUE(has_note(r, "kernel types not in the table: SomeCustomOp (1)"));
  EXPECT_TRUE(has_note(r, "1 kernels of a type the table marks (skip)"));
  EXPECT_TRUE(has_note(r, "2 layout kernels folded"));
  EXPECT_TRUE(has_note(r, "1 gaps before a kernel longer than 100 us"));
}

TEST(MsprofKernelDetails, GraphModeRows) {
  ImportResult r = import_fixture("block_kernel_details.csv", ExecMode::ReduceOverhead);
  EXPECT_EQ(r.format, ProfileFormat::MsprofKernelDetails);
  std::map<std::string, double> want = {
      {"block:npu_rms_norm", 11.75}, {"block:mm", 20}, {"block:add", 3}, {"block:mul", 3}};
  EXPECT_EQ(times(r), want);
  EXPECT_EQ(row_for(r, "block:mul").mode, ExecMode::ReduceOverhead);
  EXPECT_TRUE(has_note(r, "1 kernels without a duration (N/A)"));
  EXPECT_TRUE(has_note(r, "1 profile events matched no graph node (first: Mul"));
}

TEST(MsprofKernelDetails, UserKernelTypeTableReplacesBuiltinLines) {
  std::filesystem::path table = std::filesystem::temp_directory_path() / "eqfuse_kt_test.txt";
  { std::ofstream(table) << "# mine\nMul -> (skip)\n"; }
  ImportOptions o = options(ExecMode::ReduceOverhead);
  o.kernel_type_files = {table.string()};
  ImportResult r = import_measurements_file(kProfiles + "block_kernel_details.csv", o);
  EXPECT_FALSE(times(r).contains("block:mul"));
  EXPECT_TRUE(has_note(r, "2 kernels of a type the table marks (skip)"));
  { std::ofstream(table) << "# mine\nMul -> aten::no_such_op\n"; }
  try {
    import_measurements_file(kProfiles + "block_kernel_details.csv", o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, table.string());
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_THAT(e.what(), HasSubstr("aten::no_such_op"));
  }
  std::filesystem::remove(table);
}

TEST(MsprofCsv, MalformedRowsAreErrorsAtFileLine) {
  const std::string head =
      "Op Name,OP Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Input Shapes\n";
  auto err = [&](const std::string& row) {
    return error_of(head + "a,Add,1.0,3.0,0,\"16,64;16,64\"\n" + row, "s.csv", ExecMode::Eager);
  };
  EXPECT_THAT(err("b,Add,2.0,-1,0,\"16,64;16,64\"\n"),
              HasSubstr("s.csv:3: column 'Task Duration(us)'"));
  EXPECT_THAT(err("b,Add,2.0,nan,0,\"16,64;16,64\"\n"), HasSubstr("s.csv:3:"));
  EXPECT_THAT(err("b,Add,2.0,x1,0,\"16,64;16,64\"\n"), HasSubstr("is not a number"));
  EXPECT_THAT(err("b,Add,2.0,1,0,\"16,64;16,64\n"), HasSubstr("s.csv:3: unterminated"));
  EXPECT_THAT(error_of("Op Name,OP Type,Task Duration(us)\na,Add,1\n", "h.csv", ExecMode::Eager),
              HasSubstr("h.csv:1: header lacks column 'Input Shapes'"));
  EXPECT_THAT(error_of(head + "a,Add,1.0,3.0,0,\"2,2;2,2\"\n", "g.csv", ExecMode::Eager),
              HasSubstr("no profile event matched"));
}

}  // namespace
}  // namespace eqfuse
