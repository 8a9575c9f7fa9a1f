// Extraction-gym e-graphs (egraph-serialize JSON, with the generators):
// every extractor's choice must pass the checker, and the exact extractor
// must never claim a cost below the proven lower bound.
#include <cmath>

#include "extract/checker.hpp"
#include "extract/extractor.hpp"
#include "extract/problem.hpp"
#include "fuzz_common.hpp"

using namespace eqfuse;

namespace {

void expect_valid(const ExtractionProblem& p, const Extraction& x, std::string_view who) {
  const CheckResult c = check_extraction(p, x.choice);
  if (!c.valid) fuzz::finding(who, c.message);
  if (x.optimal && x.lower_bound > x.dag_cost * (1 + 1e-9) + 1e-9)
    fuzz::finding(who, "claims optimality above its own lower bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ExtractionProblem p;
  try {
    p = parse_egraph_serialize_json(fuzz::json_text(data, size), "fuzz.json");
  } catch (const Error&) {
    return 0;
  }
  ExtractOptions o;
  o.time_limit_s = 0.2;
  fuzz::only_input_errors([&] { expect_valid(p, extract_bottom_up(p, o), "bottom-up"); });
  fuzz::only_input_errors([&] { expect_valid(p, extract_greedy_dag(p, o), "greedy-dag"); });
  fuzz::only_input_errors(
      [&] { expect_valid(p, extract_faster_greedy_dag(p, o), "faster-greedy-dag"); });
  fuzz::only_input_errors([&] { expect_valid(p, extract_auto(p, o), "auto"); });
  return 0;
}
