// ctest-label: golden
// `optimize_graph` on every graph of tests/data/torch2/*.txt (transformers' own
// models under torch 2.11's torch.compile + AOTAutograd: twelve architectures, eager
// and sdpa attention, static and dynamic shapes; see the README.md there). Each file
// is its own test case: it loads, the optimized graph never costs more than the input
// (modeled time, kernels), and it is equivalent to the input under the reference
// interpreter (ToleranceMode::Reference, the default: fused kernels round like the
// chain they replace and every output must agree exactly). The live corpus, traced
// from the same models with make_fx on the installed torch and compared in PyTorch,
// is python/tests/test_live_corpus.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using testing_support::builtin_registry;

fs::path torch2_dir() {
  return fs::path(EQFUSE_TEST_DATA) / "torch2";
}

std::vector<std::string> txt_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".txt") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const OptimizeOptions& defaults() {
  static const OptimizeOptions opt;
  return opt;
}

std::string opaque_list(const std::vector<std::string>& ops) {
  std::string out;
  for (const auto& op : ops) out += (out.empty() ? "" : ", ") + op;
  return out.empty() ? "none" : out;
}

TEST(ModelCorpus, HasTheTracedArchitectures) {
  const auto files = txt_files(torch2_dir());
  EXPECT_GE(files.size(), 60u);
  for (const char* arch : {"llama", "qwen2", "qwen3", "qwen3_moe", "mistral", "mixtral",
                           "deepseek_v3", "phi3", "gemma2", "olmo2", "gpt2", "bert"})
    for (const char* attn : {"eager", "sdpa"})
      for (const char* shapes : {"static", "dynamic"}) {
        const std::string name = std::string(arch) + "_" + attn + "_" + shapes + "_0.txt";
        EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name;
      }
}

// Loads `path`, optimizes it with the defaults and checks the result: never costlier,
// no more kernels, equivalent under reference numerics. Returns the optimize result.
OptimizeResult expect_cheaper_equivalent(const fs::path& path) {
  const std::string name = path.filename().string();
  LoadedGraph in;
  try {
    in = load_graph(read_file_or_stdin(path.string()), name, builtin_registry());
  } catch (const Error& e) {
    ADD_FAILURE() << e.render();
    return {};
  }
  SCOPED_TRACE("opaque ops: " + opaque_list(in.opaque_ops));

  OptimizeResult r;
  try {
    r = optimize_graph(in.graph, builtin_registry(), defaults());
  } catch (const Error& e) {
    ADD_FAILURE() << "optimize: " << e.render();
    return {};
  }
  EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us * (1 + 1e-12));
  EXPECT_LE(r.stats.kernels_after, r.stats.kernels_before);

  std::string fusions;
  for (const auto& [rule, n] : r.stats.fusions) fusions += " " + rule + " x" + std::to_string(n);
  EquivalenceResult eq;
  try {
    eq = equivalent(in.graph, r.graph, builtin_registry());
  } catch (const Error& e) {
    ADD_FAILURE() << "equivalence check cannot compare the graphs: " << e.render();
    return r;
  }
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n"
                     << eq.first_differing_node << "\nfusions:" << fusions;
  return r;
}

class Torch2CorpusFile : public ::testing::TestWithParam<std::string> {};

TEST_P(Torch2CorpusFile, OptimizesToACheaperEquivalentGraph) {
  expect_cheaper_equivalent(torch2_dir() / GetParam());
}

// The LayerNorm architectures: every residual add that feeds a LayerNorm
// becomes one npu_add_layer_norm (MindSpore add_layer_norm_fusion) — fp32
// StarCoder2 (tests/data/measurements/h100-heldout) through
// mindspore/add-layer-norm on an H100 and an Ascend 910B profile, the bf16
// GPT-2 and BERT torch 2.11 traces (pre-norm and post-norm, 2 layers: 4 each)
// through mindspore/add-layer-norm-half.
TEST(ModelCorpus, ResidualAddsBeforeLayerNormFuse) {
  struct Case {
    fs::path file;
    std::string device, rule;
    size_t fusions;
  };
  const fs::path data(EQFUSE_TEST_DATA);
  const fs::path starcoder2 = data / "measurements" / "h100-heldout" / "starcoder2.fx";
  const std::vector<Case> cases = {
      {starcoder2, "h100", "mindspore/add-layer-norm", 4},
      {starcoder2, "ascend910b2", "mindspore/add-layer-norm", 4},
      {torch2_dir() / "gpt2_eager_static_0.txt", std::string(kDefaultDevice),
       "mindspore/add-layer-norm-half", 4},
      {torch2_dir() / "bert_sdpa_static_0.txt", std::string(kDefaultDevice),
       "mindspore/add-layer-norm-half", 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file.filename().string() + " on " + c.device);
    Graph in =
        load_graph(read_file_or_stdin(c.file.string()), c.file.string(), builtin_registry()).graph;
    OptimizeOptions opt;
    opt.device = c.device;
    OptimizeResult r = optimize_graph(in, builtin_registry(), opt);
    EXPECT_EQ(r.stats.fusions[c.rule], c.fusions);
    EXPECT_EQ(call_target_counts(r.graph)["npu::npu_add_layer_norm"],
              static_cast<int64_t>(c.fusions));
    EXPECT_LT(r.stats.cost_after_us, r.stats.cost_before_us);
    EXPECT_TRUE(equivalent(in, r.graph, builtin_registry()).ok);
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.size() - 4);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Torch2, Torch2CorpusFile, ::testing::ValuesIn(txt_files(torch2_dir())),
                         test_name);

}  // namespace
}  // namespace eqfuse
