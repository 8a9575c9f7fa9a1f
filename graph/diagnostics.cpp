#include "graph/diagnostics.hpp"

namespace eqfuse {

std::string Error::render() const {
  std::string out;
  if (!loc_.file.empty()) out += loc_.file + ":";
  if (loc_.known()) out += fmt::format("{}:{}:", loc_.line, std::max(loc_.column, 1));
  if (!out.empty()) out += " ";
  out += "error: ";
  out += what();
  if (!source_line_.empty() && loc_.known()) {
    out += "\n  " + source_line_ + "\n  ";
    // Tabs keep their width so the caret lines up under the column.
    for (int i = 1; i < loc_.column && i - 1 < static_cast<int>(source_line_.size()); ++i)
      out += source_line_[i - 1] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

}  // namespace eqfuse
