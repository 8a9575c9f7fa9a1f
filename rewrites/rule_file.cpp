// Reader for the .rules format: splits the text into rule blocks, reads the
// `key: value` lines itself and hands each `def` function to the FX parser
// with all text before it blanked out, so the parser's line and column
// numbers are the .rules file's own. Also reads the registry that orders the
// built-in rule files.
#include "rewrites/rule_file.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include <fmt/format.h>

#include "base/suggest.hpp"
#include "graph/io/fx_parser.hpp"

namespace eqfuse {
namespace {

struct Line {
  std::string_view text;  // without the newline
  size_t offset = 0;      // of text[0] in the file
  int number = 0;         // 1-based
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  size_t pos = 0;
  int number = 1;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back({text.substr(pos, end - pos), pos, number++});
    if (end == text.size()) break;
    pos = end + 1;
  }
  return lines;
}

size_t indent_of(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

bool is_blank_or_comment(std::string_view line) {
  std::string_view t = trim_blanks(line);
  return t.empty() || t.front() == '#';
}

class RulesReader {
 public:
  RulesReader(std::string_view text, std::string_view file)
      : text_(text), file_(file), lines_(split_lines(text)) {}

  std::vector<RuleDef> read() {
    std::vector<RuleDef> out;
    size_t i = 0;
    while (i < lines_.size()) {
      const Line& l = lines_[i];
      if (is_blank_or_comment(l.text)) {
        ++i;
        continue;
      }
      const bool is_rule = l.text.starts_with("rule ");
      const bool is_conditions = l.text.starts_with("conditions ");
      if (indent_of(l.text) != 0 || (!is_rule && !is_conditions)) {
        fail_at(l, indent_of(l.text),
                "expected `rule NAME [<=>|=>]` or `conditions NAME:` at the start of a line");
      }
      size_t end = i + 1;
      while (end < lines_.size() &&
             (is_blank_or_comment(lines_[end].text) || indent_of(lines_[end].text) > 0))
        ++end;
      if (is_rule) {
        rule_index_ = out.size();
        out.push_back(read_block(i, end));
      } else {
        read_conditions_block(i, end);
      }
      i = end;
    }
    apply_shared_conditions(out);
    return out;
  }

 private:
  [[noreturn]] void fail_at(const Line& l, size_t column, const std::string& msg) const {
    throw error_at_offset(text_, file_, l.offset + column, msg);
  }

  // `conditions NAME:` followed by indented `where:` lines: conditions that rules of this
  // file share with `uses: NAME`, written in the names those rules give their inputs.
  void read_conditions_block(size_t begin, size_t end) {
    const Line& head = lines_[begin];
    std::string_view rest = trim_blanks(head.text.substr(11));
    if (rest.ends_with(":")) rest = trim_blanks(rest.substr(0, rest.size() - 1));
    const size_t name_col = head.text.find(rest, 11);
    const bool valid = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
    if (!valid)
      fail_at(head, name_col == std::string_view::npos ? 11 : name_col,
              fmt::format("invalid conditions name '{}': use letters, digits, - _", rest));
    const std::string name(rest);
    if (shared_.count(name))
      fail_at(head, name_col, fmt::format("conditions '{}' are defined twice", name));
    SharedConditions& block = shared_[name];
    block.loc = loc_of(head, name_col);
    for (size_t i = begin + 1; i < end; ++i) {
      const Line& l = lines_[i];
      if (is_blank_or_comment(l.text)) continue;
      const size_t ind = indent_of(l.text);
      std::string_view body = l.text.substr(ind);
      if (!body.starts_with("where:"))
        fail_at(l, ind, fmt::format("conditions '{}' hold only `where:` lines", name));
      size_t value_col = ind + 6;
      while (value_col < l.text.size() && l.text[value_col] == ' ') ++value_col;
      std::string_view value = trim_blanks(l.text.substr(std::min(value_col, l.text.size())));
      if (value.empty()) fail_at(l, value_col, "empty condition after `where:`");
      block.where.push_back(parse_condition(value, loc_of(l, value_col)));
    }
    if (block.where.empty())
      fail_at(head, name_col, fmt::format("conditions '{}' have no `where:` line", name));
  }

  // `uses: a, b`: the named blocks' where lines go where the `uses:` line stands.
  void read_uses(const Line& l, size_t value_col, std::string_view value, RuleDef& rule) {
    size_t pos = 0;
    while (pos <= value.size()) {
      size_t comma = value.find(',', pos);
      if (comma == std::string_view::npos) comma = value.size();
      std::string_view name = trim_blanks(value.substr(pos, comma - pos));
      if (name.empty()) fail_at(l, value_col + pos, "expected a conditions name in `uses:`");
      pending_uses_.push_back({rule_index_, rule.where.size(), std::string(name),
                               value_col + static_cast<size_t>(name.data() - value.data()), &l});
      pos = comma + 1;
    }
  }

  void apply_shared_conditions(std::vector<RuleDef>& rules) {
    std::vector<std::string> names;
    for (const auto& [name, block] : shared_) names.push_back(name);
    std::set<std::string> used;
    // Later insertions first, so earlier positions stay valid.
    for (auto it = pending_uses_.rbegin(); it != pending_uses_.rend(); ++it) {
      auto block = shared_.find(it->block);
      if (block == shared_.end())
        fail_at(*it->line, it->column,
                fmt::format("no conditions named '{}' in this file{}", it->block,
                            did_you_mean(it->block, names)));
      used.insert(it->block);
      // By position, not name: a file may repeat a name (reported later, by
      // the library), and the first rule of that name may have fewer
      // conditions (a fuzz finding: an insert past its end).
      RuleDef* rule = &rules[it->rule];
      rule->where.insert(rule->where.begin() + static_cast<std::ptrdiff_t>(it->position),
                         block->second.where.begin(), block->second.where.end());
    }
    for (const auto& [name, block] : shared_)
      if (!used.count(name))
        throw Error(
            fmt::format("conditions '{}' are not used by any rule (`uses: {}`)", name, name),
            block.loc);
  }

  SourceLoc loc_of(const Line& l, size_t column) const {
    return {std::string(file_), l.number, static_cast<int>(column) + 1};
  }

  RuleDef read_block(size_t begin, size_t end) {
    RuleDef rule;
    read_header(lines_[begin], rule);
    bool have_search = false, have_replace = false;
    for (size_t i = begin + 1; i < end; ++i) {
      const Line& l = lines_[i];
      if (is_blank_or_comment(l.text)) continue;
      size_t ind = indent_of(l.text);
      std::string_view body = l.text.substr(ind);
      if (body.starts_with("def ")) {
        size_t fn_end = function_end(i, end, ind);
        bool is_search = body.starts_with("def search");
        bool is_replace = body.starts_with("def replace");
        if (!is_search && !is_replace)
          fail_at(l, ind + 4, "expected `def search(...)` or `def replace(...)`");
        if ((is_search && have_search) || (is_replace && have_replace))
          fail_at(l, ind,
                  fmt::format("rule '{}' defines {} twice", rule.name,
                              is_search ? "search" : "replace"));
        Graph g = parse_function(i, fn_end, is_search ? "search" : "replace");
        (is_search ? rule.search : rule.replace) = std::move(g);
        (is_search ? have_search : have_replace) = true;
        i = fn_end - 1;
        continue;
      }
      read_key(l, ind, rule);
    }
    const Line& head = lines_[begin];
    if (!have_search) fail_at(head, 0, fmt::format("rule '{}' has no `def search`", rule.name));
    if (!have_replace) fail_at(head, 0, fmt::format("rule '{}' has no `def replace`", rule.name));
    return rule;
  }

  void read_header(const Line& l, RuleDef& rule) {
    size_t name_begin = 5;
    while (name_begin < l.text.size() && l.text[name_begin] == ' ') ++name_begin;
    std::string_view rest = trim_blanks(l.text.substr(5));
    if (rest.ends_with(":")) rest = trim_blanks(rest.substr(0, rest.size() - 1));
    size_t space = rest.find_first_of(" \t");
    std::string_view name = rest.substr(0, space);
    std::string_view dir = space == std::string_view::npos ? "" : trim_blanks(rest.substr(space));
    if (name.empty()) fail_at(l, 5, "expected a rule name after `rule`");
    for (char c : name) {
      bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' ||
                c == '.';
      if (!ok)
        fail_at(l, name_begin,
                fmt::format("invalid rule name '{}': use letters, digits, / - _ .", name));
    }
    rule.name = std::string(name);
    rule.loc = loc_of(l, name_begin);
    if (dir.empty() || dir == "<=>") {
      rule.bidirectional = true;
    } else if (dir == "=>") {
      rule.bidirectional = false;
    } else {
      fail_at(l, l.text.find(dir),
              fmt::format("expected `<=>` or `=>` after the rule name, got '{}'", dir));
    }
  }

  void read_key(const Line& l, size_t ind, RuleDef& rule) {
    std::string_view body = l.text.substr(ind);
    size_t colon = body.find(':');
    if (colon == std::string_view::npos)
      fail_at(l, ind,
              "expected `key: value` (labels, description, example, where, uses, let, assume, "
              "replicated, trust) or `def`");
    std::string_view key = trim_blanks(body.substr(0, colon));
    size_t value_col = ind + colon + 1;
    while (value_col < l.text.size() && l.text[value_col] == ' ') ++value_col;
    std::string_view value = trim_blanks(l.text.substr(std::min(value_col, l.text.size())));
    if (key == "labels") {
      read_labels(value, rule);
    } else if (key == "description") {
      if (!rule.description.empty()) rule.description += ' ';
      rule.description += std::string(value);
    } else if (key == "where") {
      if (value.empty()) fail_at(l, value_col, "empty condition after `where:`");
      rule.where.push_back(parse_condition(value, loc_of(l, value_col)));
    } else if (key == "example") {
      read_examples(l, value_col, value, rule);
    } else if (key == "let") {
      read_let(l, value_col, value, rule);
    } else if (key == "assume") {
      rule.assumes.push_back(parse_input_assumption(value, loc_of(l, value_col)));
    } else if (key == "uses") {
      read_uses(l, value_col, value, rule);
    } else if (key == "replicated") {
      read_replicated(l, value_col, value, rule);
    } else if (key == "trust") {
      // A knowingly inexact rule the load-time soundness check would refuse.
      if (value != "true" && value != "false")
        fail_at(l, value_col, fmt::format("`trust:` takes true or false, got '{}'", value));
      rule.trusted = value == "true";
    } else {
      fail_at(l, ind,
              fmt::format("unknown key '{}': expected labels, description, example, "
                          "where, uses, let, assume, replicated, trust, or a `def`",
                          key));
    }
  }

  // `replicated: bias, residual`: comma-separated input names (checked against the
  // rule's inputs when it is added).
  void read_replicated(const Line& l, size_t value_col, std::string_view value, RuleDef& rule) {
    size_t pos = 0;
    while (pos <= value.size()) {
      size_t comma = std::min(value.find(',', pos), value.size());
      std::string_view name = trim_blanks(value.substr(pos, comma - pos));
      if (name.empty())
        fail_at(l, value_col + pos, "`replicated:` expects input names, e.g. `bias`");
      rule.replicated.emplace_back(name);
      pos = comma + 1;
    }
  }

  static void read_labels(std::string_view value, RuleDef& rule) {
    size_t pos = 0;
    while (pos < value.size()) {
      size_t comma = value.find(',', pos);
      if (comma == std::string_view::npos) comma = value.size();
      std::string_view label = trim_blanks(value.substr(pos, comma - pos));
      if (!label.empty()) rule.labels.emplace_back(label);
      pos = comma + 1;
    }
  }

  // `let: reciprocal = 1.0 / divisor`.
  void read_let(const Line& l, size_t value_col, std::string_view value, RuleDef& rule) {
    size_t eq = value.find('=');
    if (eq == std::string_view::npos || (eq + 1 < value.size() && value[eq + 1] == '='))
      fail_at(l, value_col, "expected `let: name = expression`");
    std::string_view name = trim_blanks(value.substr(0, eq));
    bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                      std::all_of(name.begin(), name.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                      });
    if (!identifier) fail_at(l, value_col, fmt::format("'{}' is not a name for `let:`", name));
    size_t expr_begin = eq + 1;
    while (expr_begin < value.size() && value[expr_begin] == ' ') ++expr_begin;
    std::string_view expr = value.substr(std::min(expr_begin, value.size()));
    if (expr.empty()) fail_at(l, value_col + eq, "empty expression after `=` in `let:`");
    rule.lets.push_back(
        {std::string(name), parse_condition(expr, loc_of(l, value_col + expr_begin))});
  }

  // `example: eps = 1e-06, dtype = torch.int8, size = [-1, 16]`.
  void read_examples(const Line& l, size_t value_col, std::string_view value, RuleDef& rule) {
    size_t pos = 0;
    while (pos < value.size()) {
      size_t eq = value.find('=', pos);
      if (eq == std::string_view::npos)
        fail_at(l, value_col + pos, "expected `name = literal` in `example:`");
      std::string_view name = trim_blanks(value.substr(pos, eq - pos));
      size_t item_end = top_level_comma(value, eq + 1);
      size_t lit_begin = eq + 1;
      while (lit_begin < item_end && value[lit_begin] == ' ') ++lit_begin;
      std::string_view lit = trim_blanks(value.substr(lit_begin, item_end - lit_begin));
      std::optional<Arg> arg = parse_literal(lit);
      if (!arg) fail_at(l, value_col + lit_begin, fmt::format("'{}' is not a literal", lit));
      rule.example_values[std::string(name)] = std::move(*arg);
      pos = item_end + 1;
    }
  }

  static size_t top_level_comma(std::string_view s, size_t from) {
    int depth = 0;
    for (size_t i = from; i < s.size(); ++i) {
      if (s[i] == '[' || s[i] == '(') ++depth;
      if (s[i] == ']' || s[i] == ')') --depth;
      if (s[i] == ',' && depth == 0) return i;
    }
    return s.size();
  }

  // None, True, False, ints, floats, "strings", dtypes, [lists].
  static std::optional<Arg> parse_literal(std::string_view t) {
    if (t == "None") return Arg::none();
    if (t == "True") return Arg(true);
    if (t == "False") return Arg(false);
    if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front())
      return Arg(std::string(t.substr(1, t.size() - 2)));
    if (t.starts_with("[") && t.ends_with("]")) {
      std::vector<Arg> items;
      std::string_view inner = t.substr(1, t.size() - 2);
      size_t pos = 0;
      while (!trim_blanks(inner.substr(pos)).empty()) {
        size_t end = top_level_comma(inner, pos);
        auto item = parse_literal(trim_blanks(inner.substr(pos, end - pos)));
        if (!item) return std::nullopt;
        items.push_back(*item);
        if (end >= inner.size()) break;
        pos = end + 1;
      }
      return Arg::list(std::move(items));
    }
    if (auto d = parse_dtype(t)) return Arg(*d);
    std::string s(t);
    char* end = nullptr;
    long long i = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size()) return Arg(static_cast<int64_t>(i));
    double d = std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size()) return Arg(d);
    return std::nullopt;
  }

  // The function starting at line `first` (a `def` at indentation `ind`)
  // ends before the first non-blank line indented no deeper.
  size_t function_end(size_t first, size_t block_end, size_t ind) const {
    size_t i = first + 1;
    while (i < block_end &&
           (is_blank_or_comment(lines_[i].text) || indent_of(lines_[i].text) > ind))
      ++i;
    return i;
  }

  Graph parse_function(size_t first, size_t end, std::string_view fn) const {
    // Blank everything before the def (keeping newlines) so line/column
    // numbers stay true, and cut the text after the function.
    size_t begin_off = lines_[first].offset;
    size_t end_off = end < lines_.size() ? lines_[end].offset : text_.size();
    std::string text(begin_off, ' ');
    for (size_t k = 0; k < begin_off; ++k)
      if (text_[k] == '\n') text[k] = '\n';
    text.append(text_.substr(begin_off, end_off - begin_off));
    FxParseLimits opts;
    opts.function_name = fn;
    return parse_fx(text, file_, opts);
  }

  struct SharedConditions {
    std::vector<CondExpr> where;
    SourceLoc loc;
  };
  struct PendingUse {
    size_t rule;      // the rule's index in the file
    size_t position;  // index in its where list at the `uses:` line
    std::string block;
    size_t column;
    const Line* line;
  };

  std::string_view text_;
  std::string_view file_;
  std::vector<Line> lines_;
  std::map<std::string, SharedConditions> shared_;
  std::vector<PendingUse> pending_uses_;
  size_t rule_index_ = 0;  // of the rule block being read
};

}  // namespace

std::vector<RuleDef> parse_rules_file(std::string_view text, std::string_view file_name) {
  return RulesReader(text, file_name).read();
}

// ---- the registry -------------------------------------------------------------------

std::vector<RuleRegistryEntry> parse_rule_registry(std::string_view text,
                                                   std::string_view file_name) {
  std::vector<RuleRegistryEntry> out;
  std::set<std::string, std::less<>> seen;
  for (const Line& l : split_lines(text)) {
    if (is_blank_or_comment(l.text)) continue;
    size_t begin = indent_of(l.text);
    std::string_view rest = l.text.substr(begin);
    std::string_view file = rest.substr(0, rest.find_first_of(" \t"));
    auto fail = [&](size_t column, const std::string& msg) {
      throw error_at_offset(text, file_name, l.offset + column, msg);
    };
    bool plain =
        file.size() > 6 && file.ends_with(".rules") &&
        std::all_of(file.begin(), file.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
    if (!plain) {
      fail(begin, fmt::format("'{}' is not a rule file name: expected `NAME.rules  DESCRIPTION` "
                              "(a file of this folder, no path)",
                              file));
    }
    std::string_view description = trim_blanks(rest.substr(file.size()));
    if (description.empty())
      fail(begin + file.size(), fmt::format("'{}' has no description after the file name", file));
    if (!seen.insert(std::string(file)).second)
      fail(begin, fmt::format("'{}' is listed twice", file));
    out.push_back({std::string(file), std::string(description), l.number});
  }
  return out;
}

std::vector<const EmbeddedFile*> rule_files_in_registry_order(std::span<const EmbeddedFile> files,
                                                              std::string_view registry_path) {
  auto by_path = [&](std::string_view path) -> const EmbeddedFile* {
    for (const EmbeddedFile& f : files)
      if (f.path == path) return &f;
    return nullptr;
  };
  const EmbeddedFile* registry = by_path(registry_path);
  if (registry == nullptr) {
    throw Error(
        fmt::format("the rule registry {} is missing: it lists the rule files in load "
                    "order (docs/rules.md \"The registry\")",
                    registry_path));
  }
  size_t slash = registry_path.rfind('/');
  std::string folder(slash == std::string_view::npos ? "" : registry_path.substr(0, slash + 1));
  std::vector<const EmbeddedFile*> out;
  for (const RuleRegistryEntry& e : parse_rule_registry(registry->contents, registry->path)) {
    const EmbeddedFile* f = by_path(folder + e.file);
    if (f == nullptr) {
      std::vector<Line> lines = split_lines(registry->contents);
      throw error_at_offset(
          registry->contents, registry->path,
          lines[static_cast<size_t>(e.line - 1)].offset +
              indent_of(lines[static_cast<size_t>(e.line - 1)].text),
          fmt::format("the registry lists '{}', but {}{} does not exist", e.file, folder, e.file));
    }
    out.push_back(f);
  }
  for (const EmbeddedFile& f : files) {
    std::string_view p = f.path;
    bool in_folder = p.starts_with(folder) && p.find('/', folder.size()) == std::string_view::npos;
    if (!in_folder || !p.ends_with(".rules")) continue;
    if (std::find(out.begin(), out.end(), &f) == out.end()) {
      throw Error(
          fmt::format("{} is not listed in {}: add it where it should load (the order "
                      "of the rules) or remove the file",
                      p, registry->path));
    }
  }
  return out;
}

}  // namespace eqfuse
