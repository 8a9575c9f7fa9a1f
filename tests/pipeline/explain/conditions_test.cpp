// ctest-label: golden
// The reason text of every `where:` clause of the TorchAir fusion rules
// (a)-(e) (rewrites/library/torchair.rules) and of the layout rule that
// derives (b) (layout/dynamic-quant-through-view): one small graph per
// clause that violates exactly that clause. For each, `explain` must report
// a RejectedMatch for the rule, at the input node the rule is anchored on,
// whose condition is the clause as written and whose detail shows the
// offending values; and the output graph must not hold the fusion.
//
// A few clauses can never be the one that fails: the ops' meta functions
// reject every graph that would violate them before the rules run. Those are
// listed in kCannotFail with the graph that would violate them, and the test
// checks that loading that graph fails with the meta function's error.
// Parts of clauses that cannot fail for the same reason (for `x2.shape ==
// x1.shape`, npu_add_rms_norm requires equal shapes; for `x2.dtype ==
// x1.dtype` in rule (d), bmm requires equal dtypes; for the shape part of
// rule (a)'s smooth clause, npu_dynamic_quant requires a 1-D smooth of the
// last dim) are covered by the clause's other parts.
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rewrites/rule.hpp"
#include "tests/support/explain_fixture.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_registry;
using testing_support::count_calls;
using testing_support::explain_text;
using testing_support::Explained;

// ---- graphs -----------------------------------------------------------------

// Rule (a): add_rms_norm -> dynamic_quant(smooth_scales).
std::string norm_dynamic_quant(const std::string& x1, const std::string& x2,
                               const std::string& gamma, const std::string& smooth) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{}", arg1_1: "{}", arg2_1: "{}", arg3_1: "{}"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem = npu_add_rms_norm[0]
        getitem_2 = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3 = npu_dynamic_quant[0]
        getitem_4 = npu_dynamic_quant[1]
        return (getitem_3, getitem_2, getitem_4)
)",
                     x1, x2, gamma, smooth);
}

// Rule (b), derived: add_rms_norm -> view(size) -> dynamic_quant, scale.view(-1, 1).
std::string norm_view_dynamic_quant(const std::string& x, const std::string& size) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{0}", arg1_1: "{0}", arg2_1: "f16[64]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem = npu_add_rms_norm[0]
        getitem_2 = npu_add_rms_norm[2]
        view = torch.ops.aten.view.default(getitem, {1})
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
        getitem_3 = npu_dynamic_quant[0]
        getitem_4 = npu_dynamic_quant[1]
        view_1 = torch.ops.aten.view.default(getitem_4, [-1, 1])
        return (getitem_3, view_1, getitem_2)
)",
                     x, size);
}

// Rule (c): add_rms_norm -> cast(y, float32).
std::string norm_cast(const std::string& x1, const std::string& x2, const std::string& gamma) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{}", arg1_1: "{}", arg2_1: "{}"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem = npu_add_rms_norm[0]
        getitem_2 = npu_add_rms_norm[2]
        _to_copy = torch.ops.aten._to_copy.default(getitem, dtype = torch.float32)
        return (getitem, getitem_2, _to_copy)
)",
                     x1, x2, gamma);
}

// Rule (d): bmm -> transpose(0, 1).
std::string bmm_transpose(const std::string& x1, const std::string& x2) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{}", arg1_1: "{}"):
        bmm = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose,)
)",
                     x1, x2);
}

// Rule (d), perm_x1 [1, 0, 2]: transpose(0, 1) -> bmm -> transpose(0, 1).
std::string transpose_bmm_transpose(const std::string& x1, const std::string& x2) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{}", arg1_1: "{}"):
        transpose = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        bmm = torch.ops.aten.bmm.default(transpose, arg1_1)
        transpose_1 = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
)",
                     x1, x2);
}

// Rule (e): add_rms_norm -> quantize(y, scales, zero_points, dtype, -1).
std::string norm_quantize(const std::string& x1, const std::string& x2, const std::string& gamma,
                          const std::string& scales, const std::string& zero_points,
                          const std::string& dtype) {
  return fmt::format(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "{}", arg1_1: "{}", arg2_1: "{}", arg3_1: "{}", arg4_1: "{}"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem = npu_add_rms_norm[0]
        getitem_2 = npu_add_rms_norm[2]
        npu_quantize = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, {}, -1)
        return (npu_quantize, getitem_2)
)",
                     x1, x2, gamma, scales, zero_points, dtype);
}

const std::string kRank9 = "[1, 1, 1, 1, 1, 1, 1, 2, 64]";

// ---- the table ----------------------------------------------------------------

struct ConditionCase {
  std::string name;                 // what the graph violates
  std::string rule;                 // the rule whose clause fails
  std::string clause;               // that `where:` clause, as written
  std::string fx;                   // the graph
  std::string at;                   // the input node the rule is anchored on
  std::vector<std::string> detail;  // the offending values the detail must show
  std::string fused_op;             // must not be in the output ("" = no check)
  std::string kept_op;              // must stay in the output ("" = no check)
};

const char* const kA = "torchair/add-rms-norm-dynamic-quant";
const char* const kB = "layout/dynamic-quant-through-view";
const char* const kC = "torchair/add-rms-norm-cast";
const char* const kD = "torchair/bmm-transpose";
const char* const kDPerm = "torchair/transpose-batchmatmul-perm-x1";
const char* const kE = "torchair/add-rms-norm-quant";
const char* const kDynFused = "npu::npu_add_rms_norm_dynamic_quant";
const char* const kCastFused = "npu::npu_add_rms_norm_cast";
const char* const kBmmFused = "npu::npu_transpose_batchmatmul";
const char* const kQuantFused = "npu::npu_add_rms_norm_quant";

std::vector<ConditionCase> condition_cases() {
  const std::string f16 = "f16[2, 64]", g16 = "f16[64]";
  return {
      // (a)
      {"a: fp32 x1",
       kA,
       "x1.dtype in [torch.float16, torch.bfloat16]",
       norm_dynamic_quant("f32[2, 64]", "f32[2, 64]", "f32[64]", "f32[64]"),
       "npu_dynamic_quant",
       {"x1.dtype = torch.float32"},
       kDynFused,
       ""},
      {"a: x2 dtype differs",
       kA,
       "x2.dtype == x1.dtype and gamma.dtype == x1.dtype",
       norm_dynamic_quant(f16, "bf16[2, 64]", g16, g16),
       "npu_dynamic_quant",
       {"x2.dtype = torch.bfloat16", "x1.dtype = torch.float16"},
       kDynFused,
       ""},
      {"a: gamma dtype differs",
       kA,
       "x2.dtype == x1.dtype and gamma.dtype == x1.dtype",
       norm_dynamic_quant(f16, f16, "f32[64]", g16),
       "npu_dynamic_quant",
       {"gamma.dtype = torch.float32"},
       kDynFused,
       ""},
      {"a: rank 9",
       kA,
       "2 <= x1.rank <= 8 and x2.shape == x1.shape",
       norm_dynamic_quant("f16" + kRank9, "f16" + kRank9, g16, g16),
       "npu_dynamic_quant",
       {"9 > 8", "x1.rank = 9"},
       kDynFused,
       ""},
      {"a: 2-D gamma",
       kA,
       "gamma.rank == 1 and gamma.shape[0] == x1.shape[-1]",
       norm_dynamic_quant(f16, f16, f16, g16),
       "npu_dynamic_quant",
       {"gamma.rank = 2"},
       kDynFused,
       ""},
      {"a: smooth dtype differs",
       kA,
       "smooth is None or (smooth.dtype == x1.dtype and smooth.shape == gamma.shape)",
       norm_dynamic_quant(f16, f16, g16, "f32[64]"),
       "npu_dynamic_quant",
       {"smooth.dtype = torch.float32", "x1.dtype = torch.float16"},
       kDynFused,
       ""},
      // (b): the flatten(0, 1) check of the layout rule that derives it
      {"b: view changes the last dim (B4)",
       kB,
       "v.rank == 2 and x.rank >= 2 and v.shape[-1] == x.shape[-1]",
       norm_view_dynamic_quant("f16[2, 3, 64]", "[2, 192]"),
       "npu_dynamic_quant",
       {"192 != 64", "v.shape[-1] = 192", "x.shape[-1] = 64"},
       kDynFused,
       ""},
      {"b: view keeps three dims",
       kB,
       "v.rank == 2 and x.rank >= 2 and v.shape[-1] == x.shape[-1]",
       norm_view_dynamic_quant("f16[2, 3, 4, 64]", "[6, 4, 64]"),
       "npu_dynamic_quant",
       {"v.rank = 3"},
       kDynFused,
       ""},
      // (c)
      {"c: fp32 x1",
       kC,
       "x1.dtype in [torch.float16, torch.bfloat16]",
       norm_cast("f32[4, 64]", "f32[4, 64]", "f32[64]"),
       "_to_copy",
       {"x1.dtype = torch.float32"},
       kCastFused,
       ""},
      {"c: x2 dtype differs",
       kC,
       "x2.dtype == x1.dtype and gamma.dtype == x1.dtype",
       norm_cast("f16[4, 64]", "bf16[4, 64]", g16),
       "_to_copy",
       {"x2.dtype = torch.bfloat16", "x1.dtype = torch.float16"},
       kCastFused,
       ""},
      {"c: rank 9",
       kC,
       "1 <= x1.rank <= 8 and x2.shape == x1.shape",
       norm_cast("bf16" + kRank9, "bf16" + kRank9, "bf16[64]"),
       "_to_copy",
       {"x1.rank = 9"},
       kCastFused,
       ""},
      {"c: 2-D gamma",
       kC,
       "gamma.rank == 1 and gamma.shape[0] == x1.shape[-1]",
       norm_cast("bf16[4, 64]", "bf16[4, 64]", "bf16[4, 64]"),
       "_to_copy",
       {"gamma.rank = 2"},
       kCastFused,
       ""},
      // (d)
      {"d: float64",
       kD,
       "x1.dtype in [torch.float16, torch.bfloat16, torch.float32] and x2.dtype == x1.dtype",
       bmm_transpose("f64[4, 2, 128]", "f64[4, 128, 256]"),
       "transpose",
       {"x1.dtype = torch.float64"},
       kBmmFused,
       ""},
      {"d: K not a multiple of 128",
       kD,
       "x1.shape[2] % 128 == 0 and x2.shape[2] % 128 == 0",
       bmm_transpose("f16[4, 2, 120]", "f16[4, 120, 256]"),
       "transpose",
       {"x1.shape[2] = 120"},
       kBmmFused,
       ""},
      {"d: K of 65536",
       kD,
       "x1.shape[2] < 65536 and x2.shape[2] < 65536 and x1.shape[0] < 65536",
       bmm_transpose("f16[1, 2, 65536]", "f16[1, 65536, 128]"),
       "transpose",
       {"65536 >= 65536", "x1.shape[2] = 65536"},
       kBmmFused,
       ""},
      {"d: batch of 65536",
       kD,
       "x1.shape[2] < 65536 and x2.shape[2] < 65536 and x1.shape[0] < 65536",
       bmm_transpose("f16[65536, 2, 128]", "f16[65536, 128, 128]"),
       "transpose",
       {"x1.shape[0] = 65536"},
       kBmmFused,
       ""},
      // (d) perm_x1: rule (d) still fuses the bmm (TorchAir's fallback to
      // `pattern`), so the input transpose must stay.
      {"d perm_x1: K*B of 65536",
       kDPerm,
       "1 <= x1.shape[2] * x1.shape[1] < 65536",
       transpose_bmm_transpose("f16[2, 4, 16384]", "f16[4, 16384, 128]"),
       "transpose_1",
       {"65536 >= 65536", "x1.shape[2] = 16384", "x1.shape[1] = 4"},
       "",
       "aten::transpose.int"},
      // (e)
      {"e: quantize to int32",
       kE,
       "dtype in [1, 12, torch.int8, torch.qint8]",
       norm_quantize("bf16[2, 16]", "bf16[2, 16]", "bf16[16]", "bf16[16]", "bf16[16]",
                     "torch.int32"),
       "npu_quantize",
       {"dtype = torch.int32"},
       kQuantFused,
       ""},
      {"e: fp32 x1",
       kE,
       "x1.dtype in [torch.float16, torch.bfloat16] and x2.dtype == x1.dtype",
       norm_quantize("f32[2, 16]", "f32[2, 16]", "f32[16]", "f32[16]", "i32[16]", "torch.int8"),
       "npu_quantize",
       {"x1.dtype = torch.float32"},
       kQuantFused,
       ""},
      {"e: int8 zero points",
       kE,
       "zero_points is None or zero_points.dtype not in [torch.int8, torch.uint8]",
       norm_quantize("bf16[2, 16]", "bf16[2, 16]", "bf16[16]", "bf16[16]", "i8[16]", "torch.int8"),
       "npu_quantize",
       {"zero_points.dtype = torch.int8"},
       kQuantFused,
       ""},
      {"e: misaligned tail",
       kE,
       "x2.rank >= 1 and x2.shape[-1] * x2.itemsize % 32 == 0",
       norm_quantize("bf16[2, 3]", "bf16[2, 3]", "bf16[3]", "bf16[3]", "bf16[3]", "torch.int8"),
       "npu_quantize",
       {"6 != 0", "x2.shape[-1] = 3", "x2.itemsize = 2"},
       kQuantFused,
       ""},
      {"e: gamma and scales shapes differ",
       kE,
       "gamma.shape == scales.shape",
       norm_quantize("bf16[2, 16]", "bf16[2, 16]", "bf16[16]", "bf16[1]", "bf16[1]", "torch.int8"),
       "npu_quantize",
       {"gamma.shape = [16]", "scales.shape = [1]"},
       kQuantFused,
       ""},
  };
}

// Clauses no graph can be the first to fail, with a graph that would
// violate them and the meta function error that refuses it.
struct CannotFail {
  std::string rule, clause, fx, error;
};

std::vector<CannotFail> cannot_fail() {
  return {
      {kD, "x1.rank == 3 and x2.rank == 3", bmm_transpose("f16[4, 2, 128]", "f16[128, 256]"),
       "'mat2' must be 3-D"},
      // x1 is the transpose's input, as many dims as the fused op's 'input'.
      {kDPerm, "x1.rank == 3 and x2.rank == 3",
       R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 3, 128]", arg1_1: "f16[4, 128, 128]"):
        transpose = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        npu_transpose_batchmatmul = torch.ops.npu.npu_transpose_batchmatmul.default(transpose, arg1_1, perm_x1 = [0, 1, 2])
        return (npu_transpose_batchmatmul,)
)",
       "'input' must be 3-D"},
      {kB, "smooth is None or smooth.rank == 1",
       R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 3, 64]", arg1_1: "f16[1, 64]"):
        view = torch.ops.aten.view.default(arg0_1, [6, 64])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view, smooth_scales = arg1_1)
        getitem = npu_dynamic_quant[0]
        return (getitem,)
)",
       "'smooth_scales' [1, 64] must be 1-D"},
  };
}

const RejectedMatch* rejection_for(const ExplainReport& rep, const std::string& rule) {
  for (const RejectedMatch& m : rep.rejected)
    if (m.rule == rule) return &m;
  return nullptr;
}

// ---- tests ------------------------------------------------------------------------

TEST(ExplainConditions, EachClauseFailsWithItsTextAndValues) {
  for (const ConditionCase& c : condition_cases()) {
    SCOPED_TRACE(c.name);
    Explained e = explain_text(c.fx, "case.fx");
    const RejectedMatch* m = rejection_for(e.report, c.rule);
    ASSERT_NE(m, nullptr) << format_explanation_text(e.report);
    EXPECT_EQ(m->condition, c.clause);
    EXPECT_EQ(m->at, c.at);
    for (const std::string& value : c.detail) EXPECT_THAT(m->detail, HasSubstr(value));
    EXPECT_THAT(rejection_sentence(*m),
                HasSubstr(fmt::format("{} rejected at {}: `{}` failed: ", c.rule, c.at, c.clause)));
    if (!c.fused_op.empty()) {
      EXPECT_EQ(count_calls(e.result.graph, c.fused_op), 0);
    }
    if (!c.kept_op.empty()) {
      EXPECT_GE(count_calls(e.result.graph, c.kept_op), 1);
    }
    // The rule matched (and was refused): not a near miss of that rule.
    for (const NearMiss& n : e.report.near_misses) EXPECT_NE(n.rule, c.rule);
  }
}

// Rule (b) is rule (a) seen through the layout rule: its failed flatten
// check is also what keeps rule (a) from matching, and the near miss says so.
TEST(ExplainConditions, FailedFlattenCheckIsRuleANearMiss) {
  for (const ConditionCase& c : condition_cases()) {
    if (c.rule != kB) continue;
    SCOPED_TRACE(c.name);
    Explained e = explain_text(c.fx, "case.fx");
    ASSERT_EQ(e.report.near_misses.size(), 1u) << format_explanation_text(e.report);
    const NearMiss& n = e.report.near_misses[0];
    EXPECT_EQ(n.rule, kA);
    EXPECT_EQ(n.layout_rule, kB);
    EXPECT_EQ(n.layout_condition, c.clause);
    EXPECT_TRUE(n.literals.empty());
  }
}

TEST(ExplainConditions, ClausesThatCannotFailAreRefusedByTheMetaFunctions) {
  for (const CannotFail& c : cannot_fail()) {
    SCOPED_TRACE(c.clause);
    try {
      load_graph(c.fx, "case.fx", builtin_registry());
      ADD_FAILURE() << "the graph loaded, so the clause can fail: add a case for it";
    } catch (const Error& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr(c.error));
    }
  }
}

// Every clause of the rules above has a case or is listed as unable to fail.
TEST(ExplainConditions, EveryClauseOfRulesAToEIsCovered) {
  std::set<std::pair<std::string, std::string>> covered;
  for (const ConditionCase& c : condition_cases()) covered.insert({c.rule, c.clause});
  for (const CannotFail& c : cannot_fail()) covered.insert({c.rule, c.clause});
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  size_t clauses = 0;
  for (const char* name : {kA, kB, kC, kD, kDPerm, kE}) {
    const RuleDef* rule = lib.find(name);
    ASSERT_NE(rule, nullptr) << name;
    ASSERT_FALSE(rule->where.empty()) << name;
    clauses += rule->where.size();
    for (const CondExpr& clause : rule->where)
      EXPECT_TRUE(covered.count({name, clause.text()})) << name << ": `" << clause.text() << "`";
  }
  EXPECT_EQ(covered.size(), clauses);  // no entry for a clause that no longer exists
}

}  // namespace
}  // namespace eqfuse
