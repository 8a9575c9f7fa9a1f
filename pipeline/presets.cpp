// Peer presets (pipeline/presets.hpp): the embedded pipeline/presets/*.json files.
#include "pipeline/presets.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/embedded.hpp"
#include "base/json_text.hpp"
#include "base/suggest.hpp"
#include "pipeline/optimize_config.hpp"

namespace eqfuse {
namespace {

Preset read_preset(const EmbeddedFile& f) {
  const std::string origin(f.path);
  const auto doc = parse_json_text<nlohmann::json>(f.contents, origin);
  auto text = [&](const char* key) {
    if (!doc.contains(key) || !doc.at(key).is_string())
      throw Error(fmt::format("{}: a preset needs a \"{}\" string", origin, key));
    return doc.at(key).get<std::string>();
  };
  if (!doc.contains("config") || !doc.at("config").is_object())
    throw Error(fmt::format("{}: a preset needs a \"config\" object", origin));
  return {std::filesystem::path(origin).stem().string(), text("description"), text("source"),
          doc.at("config").dump()};
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = [] {
    std::vector<Preset> out;
    for (const EmbeddedFile& f : eqfuse_presets()) out.push_back(read_preset(f));
    std::sort(out.begin(), out.end(),
              [](const Preset& a, const Preset& b) { return a.name < b.name; });
    return out;
  }();
  return all;
}

const Preset& find_preset(std::string_view name) {
  std::vector<std::string> names;
  for (const Preset& p : presets()) {
    if (p.name == name) return p;
    names.push_back(p.name);
  }
  throw Error(fmt::format("unknown preset '{}'{} (presets: {})", name, did_you_mean(name, names),
                          fmt::join(names, ", ")));
}

void apply_preset(OptimizeOptions& options, std::string_view name) {
  const Preset& p = find_preset(name);
  apply_config_json(options, p.config, fmt::format("preset {}", p.name));
  options.rules.preset = p.name;
}

}  // namespace eqfuse
