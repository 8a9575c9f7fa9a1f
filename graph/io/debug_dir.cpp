#include "graph/io/debug_dir.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "graph/io/fx_parser.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kReadable = "fx_graph_readable.py";
constexpr std::string_view kRunnable = "fx_graph_runnable.py";
constexpr std::string_view kTransformed = "fx_graph_transformed.py";

// A per-pass dump of TorchAir or npugraph_ex: a .txt/.py file whose name
// mentions "graph", somewhere below a `torchair` or `npugraph_ex` folder
// (the directory searched may be that folder itself).
bool is_pass_dump(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string ext = path.extension().string();
  if ((ext != ".txt" && ext != ".py") || name.find("graph") == std::string::npos) return false;
  for (const fs::path& part : path.parent_path())
    if (part == "torchair" || part == "npugraph_ex") return true;
  return false;
}

void count_nodes(DebugGraph& g) {
  try {
    g.nodes = parse_fx(read_file_or_stdin(g.path), g.path).size();
  } catch (const std::exception& e) {
    g.error = e.what();
  }
}

}  // namespace

bool is_aot_graph_file(std::string_view file_name) {
  return file_name == kReadable || file_name == kRunnable || file_name == kTransformed;
}

std::vector<DebugGraph> find_debug_graphs(const std::string& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw Error(fmt::format("cannot read directory '{}': {}", dir, ec.message()));
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::error_code file_ec;
    if (!it->is_regular_file(file_ec)) continue;
    const fs::path rel = it->path().lexically_relative(dir);
    if (is_aot_graph_file(rel.filename().string()) || is_pass_dump(it->path()))
      found.push_back(rel);
  }
  // Folders with a readable dump: their runnable one only supplies types.
  std::set<fs::path> readable_dirs;
  std::map<fs::path, fs::path> runnable_of;
  for (const fs::path& rel : found) {
    if (rel.filename() == kReadable) readable_dirs.insert(rel.parent_path());
    if (rel.filename() == kRunnable) runnable_of[rel.parent_path()] = rel;
  }
  std::vector<DebugGraph> out;
  for (const fs::path& rel : found) {
    if (rel.filename() == kRunnable && readable_dirs.count(rel.parent_path()) != 0) continue;
    DebugGraph g;
    g.relative = rel.generic_string();
    g.path = (fs::path(dir) / rel).string();
    if (auto r = runnable_of.find(rel.parent_path()); r != runnable_of.end())
      g.runnable = (fs::path(dir) / r->second).string();
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(),
            [](const DebugGraph& a, const DebugGraph& b) { return a.relative < b.relative; });
  for (DebugGraph& g : out) count_nodes(g);
  return out;
}

std::string list_debug_graphs(const std::vector<DebugGraph>& graphs) {
  std::string out;
  const int width = static_cast<int>(fmt::format("{}", graphs.size()).size());
  for (size_t i = 0; i < graphs.size(); ++i) {
    const DebugGraph& g = graphs[i];
    out += fmt::format("  {:>{}}  {}  ({})\n", i + 1, width, g.relative,
                       g.error.empty() ? fmt::format("{} nodes", g.nodes) : "does not parse");
  }
  return out;
}

size_t select_debug_graph(const std::vector<DebugGraph>& graphs, std::string_view spec,
                          std::string_view dir) {
  if (graphs.empty())
    throw Error(fmt::format(
        "cannot read '{}': it is a directory and no FX graphs were found under it (looked for "
        "fx_graph_readable.py, "
        "fx_graph_runnable.py, fx_graph_transformed.py and torchair/ or npugraph_ex/ pass dumps)",
        dir));
  if (spec.empty()) {
    if (graphs.size() == 1) return 0;
    throw Error(fmt::format(
        "directory '{}' holds {} graphs; choose one with --graph N or --graph NAME (a part of "
        "its path that no other graph's path has)",
        dir, graphs.size()));
  }
  size_t number = 0;
  auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), number);
  if (ec == std::errc{} && end == spec.data() + spec.size()) {
    if (number >= 1 && number <= graphs.size()) return number - 1;
    throw Error(
        fmt::format("--graph {}: directory '{}' holds graphs 1 to {}", spec, dir, graphs.size()));
  }
  std::vector<size_t> matches;
  for (size_t i = 0; i < graphs.size(); ++i)
    if (graphs[i].relative.find(spec) != std::string::npos) matches.push_back(i);
  if (matches.size() == 1) return matches[0];
  throw Error(fmt::format("--graph '{}' matches {} of the graphs in '{}'", spec,
                          matches.empty() ? "none" : fmt::format("{}", matches.size()), dir));
}

}  // namespace eqfuse
