#include "graph/io/load.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "graph/io/fx_parser.hpp"
#include "graph/io/graph_json.hpp"

namespace eqfuse {

std::string_view graph_format_name(GraphFormat f) {
  return f == GraphFormat::Json ? "json" : "fx";
}

GraphFormat detect_graph_format(std::string_view text) {
  // A UTF-8 byte-order mark is skipped; FX text never starts with '{'.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != text.npos && text[first] == '{' ? GraphFormat::Json : GraphFormat::Fx;
}

namespace {

bool has_bare_carriage_returns(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) return true;
  return false;
}

}  // namespace

namespace {

// Errors found after parsing (a call that does not fit its schema, a shape
// that does not infer) carry the node's file:line:col; the line itself is
// attached here, so they print with the caret like syntax errors do.
Error with_source_line(const Error& e, std::string_view text, std::string_view file_name) {
  const SourceLoc& loc = e.loc();
  if (!e.source_line().empty() || loc.line <= 0 || loc.file != file_name) return e;
  size_t start = 0;
  for (int line = 1; line < loc.line && start != std::string_view::npos; ++line) {
    start = text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start > text.size()) return e;
  size_t end = text.find('\n', start);
  std::string_view line =
      text.substr(start, end == std::string_view::npos ? text.npos : end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return Error(e.what(), loc, std::string(line));
}

}  // namespace

LoadedGraph load_graph(std::string_view text, std::string_view file_name, const OpRegistry& reg,
                       const LoadOptions& options) {
  LoadedGraph out;
  out.format = detect_graph_format(text);
  if (out.format == GraphFormat::Json) {
    out.graph = load_graph_json(text, file_name);
  } else if (has_bare_carriage_returns(text)) {
    // Classic Mac line endings: lines end in a lone CR. Read them as LF (one
    // byte for one, so error columns and lines stay right).
    std::string lf(text);
    for (size_t i = 0; i < lf.size(); ++i)
      if (lf[i] == '\r' && (i + 1 == lf.size() || lf[i + 1] != '\n')) lf[i] = '\n';
    out.graph = parse_fx(lf, file_name);
  } else {
    out.graph = parse_fx(text, file_name);
  }
  try {
    apply_input_types(out.graph, options.input_types);
    out.opaque_ops = resolve_ops(out.graph, reg);
    if (options.infer) infer_types(out.graph, reg);
  } catch (const Error& e) {
    throw with_source_line(e, text, file_name);
  }
  return out;
}

std::string read_file_or_stdin(const std::string& path) {
  if (path == "-") {
    std::ostringstream buf;
    buf << std::cin.rdbuf();
    if (std::cin.bad()) throw Error("cannot read standard input");
    return buf.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(fmt::format("cannot read '{}': it is a directory", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(fmt::format("cannot read '{}': read error", path));
  return text;
}

}  // namespace eqfuse
