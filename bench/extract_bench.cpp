// Extraction benchmark over the extraction-gym e-graphs (a plain main, not
// Google Benchmark: every (file, extractor) pair runs once per repeat).
//
//   extract_bench [--dir DIR] [--extractor NAME]... [--time-limit S]
//                 [--repeat N] [--skip FAMILY]... [--only FAMILY]...
//
// Prints one JSON line per (file, extractor):
//   {"file","extractor","tree_cost","dag_cost","micros","valid","optimal"}
// where micros is the extraction time alone (parsing excluded; the minimum
// over --repeat runs for the fast extractors, a single run for ilp/auto).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "base/diagnostics.hpp"
#include "extract/extractor.hpp"

namespace fs = std::filesystem;
using namespace eqfuse;

namespace {

struct Args {
  // Default: ../shared/extraction-gym next to the source checkout.
  std::string dir =
      (fs::path(__FILE__).parent_path().parent_path().parent_path() / "shared" / "extraction-gym")
          .string();
  std::vector<std::string> extractors;
  std::vector<std::string> skip, only;
  double time_limit = 60.0;
  int repeat = 3;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", flag.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (flag == "--dir")
      a.dir = value();
    else if (flag == "--extractor")
      a.extractors.push_back(value());
    else if (flag == "--time-limit")
      a.time_limit = std::stod(value());
    else if (flag == "--repeat")
      a.repeat = std::max(1, std::stoi(value()));
    else if (flag == "--skip")
      a.skip.push_back(value());
    else if (flag == "--only")
      a.only.push_back(value());
    else {
      std::fprintf(stderr,
                   "usage: extract_bench [--dir DIR] [--extractor NAME]... [--time-limit S] "
                   "[--repeat N] [--skip FAMILY]... [--only FAMILY]...\n");
      std::exit(2);
    }
  }
  if (a.extractors.empty()) a.extractors = extractor_names();
  return a;
}

std::vector<fs::path> gym_files(const Args& a) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(a.dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string family = fs::relative(entry.path(), a.dir).begin()->string();
    if (std::find(a.skip.begin(), a.skip.end(), family) != a.skip.end()) continue;
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), family) == a.only.end())
      continue;
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  int invalid = 0;
  for (const fs::path& file : gym_files(args)) {
    const std::string name = fs::relative(file, args.dir).string();
    ExtractionProblem problem;
    try {
      problem = load_egraph_serialize_json(file.string());
    } catch (const Error& e) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
      ++invalid;
      continue;
    }
    for (const std::string& ex : args.extractors) {
      const bool slow = ex == "ilp" || ex == "auto";
      ExtractorReport best;
      for (int r = 0; r < (slow ? 1 : args.repeat); ++r) {
        auto report = run_extractors(problem, {ex}, args.time_limit).front();
        if (r == 0 || report.micros < best.micros) best = std::move(report);
      }
      if (!best.valid) ++invalid;
      std::printf("%s\n", report_json_line(name, best).c_str());
      std::fflush(stdout);
    }
  }
  return invalid == 0 ? 0 : 1;
}
