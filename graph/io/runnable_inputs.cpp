#include "graph/io/runnable_inputs.hpp"

#include <charconv>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "base/dtype.hpp"

namespace eqfuse {
namespace {

// One argument of a call: its text (trimmed) and where it starts in the file.
struct CallArg {
  std::string_view text;
  size_t offset = 0;
  std::string_view keyword;  // `dtype` for `dtype=torch.float16`; empty if positional
  std::string_view value;    // the text after `keyword=` (or the whole text)
  size_t value_offset = 0;
};

class LineReader {
 public:
  LineReader(std::string_view text, std::string_view origin) : text_(text), origin_(origin) {}

  [[noreturn]] void fail(size_t offset, std::string msg) const {
    throw error_at_offset(text_, origin_, offset, std::move(msg));
  }

  // The arguments of the call whose '(' is at `open`, split at top-level
  // commas; the call must close on the same line (before `line_end`).
  std::vector<CallArg> call_args(size_t open, size_t line_end, std::string_view callee) const {
    std::vector<CallArg> args;
    int depth = 0;
    char quote = 0;
    size_t start = open + 1;
    for (size_t i = open; i < line_end; ++i) {
      char c = text_[i];
      if (quote != 0) {
        if (c == '\\')
          ++i;
        else if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth == 0) {
          add_arg(args, start, i);
          return args;
        }
      } else if (c == ',' && depth == 1) {
        add_arg(args, start, i);
        start = i + 1;
      }
    }
    fail(open, fmt::format("unclosed '(' in {}(...)", callee));
  }

  // `(16, 128)`, `(128,)`, `()`, `[16, 128]` or `torch.Size([16, 128])` as the
  // dims of an annotation: "16, 128".
  std::string dims_of(const CallArg& a) const {
    std::string_view v = a.value;
    size_t off = a.value_offset;
    if (v.starts_with("torch.Size(") && v.ends_with(")")) {
      v = trim_blanks(v.substr(11, v.size() - 12));
      off = a.value_offset + (a.value.find('(') + 1);
    }
    if (v.size() < 2 ||
        !((v.front() == '(' && v.back() == ')') || (v.front() == '[' && v.back() == ']')))
      fail(off, fmt::format("expected a shape such as (16, 128), got '{}'", a.value));
    std::string_view inner = trim_blanks(v.substr(1, v.size() - 2));
    if (inner.ends_with(",")) inner = trim_blanks(inner.substr(0, inner.size() - 1));
    return std::string(inner);
  }

  DType dtype_of(const CallArg& a) const {
    std::optional<DType> d = parse_dtype(a.value);
    if (!d || *d == DType::Unknown || !a.value.starts_with("torch."))
      fail(a.value_offset, fmt::format("unknown dtype '{}' (expected torch.float16, "
                                       "torch.bfloat16, ...)",
                                       a.value));
    return *d;
  }

  ValueType tensor_type(DType d, const CallArg& shape) const {
    const std::string dims = dims_of(shape);
    try {
      return parse_annotation(fmt::format("{}[{}]", dtype_code(d), dims));
    } catch (const std::invalid_argument& e) {
      fail(shape.value_offset, fmt::format("bad shape '{}': {}", shape.value, e.what()));
    }
  }

 private:
  void add_arg(std::vector<CallArg>& args, size_t begin, size_t end) const {
    std::string_view raw = text_.substr(begin, end - begin);
    std::string_view t = trim_blanks(raw);
    if (t.empty()) return;  // `f(a, b,)` or `f()`
    CallArg a;
    a.text = t;
    a.offset = begin + static_cast<size_t>(t.data() - raw.data());
    a.value = t;
    a.value_offset = a.offset;
    size_t eq = t.find('=');
    if (eq != t.npos && eq + 1 < t.size() && t[eq + 1] != '=' &&
        is_identifier(trim_blanks(t.substr(0, eq)))) {
      a.keyword = trim_blanks(t.substr(0, eq));
      std::string_view rest = t.substr(eq + 1);
      a.value = trim_blanks(rest);
      a.value_offset = a.offset + eq + 1 + static_cast<size_t>(a.value.data() - rest.data());
    }
    args.push_back(a);
  }

  std::string_view text_;
  std::string_view origin_;
};

const CallArg* keyword(const std::vector<CallArg>& args, std::string_view name) {
  for (const CallArg& a : args)
    if (a.keyword == name) return &a;
  return nullptr;
}

std::vector<const CallArg*> positional(const std::vector<CallArg>& args) {
  std::vector<const CallArg*> out;
  for (const CallArg& a : args)
    if (a.keyword.empty()) out.push_back(&a);
  return out;
}

// The position of a `#` that starts a comment (outside quotes), or npos.
size_t comment_start(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return i;
    }
  }
  return line.npos;
}

}  // namespace

std::vector<RunnableInput> parse_runnable_inputs(std::string_view text, std::string_view origin) {
  LineReader reader(text, origin);
  std::vector<RunnableInput> out;
  size_t position = 0;
  int line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == text.npos) end = text.size();
    ++line_no;
    const size_t line_begin = pos;
    pos = end + 1;
    std::string_view line = text.substr(line_begin, end - line_begin);
    std::string_view name;
    size_t hash = comment_start(line);
    std::string_view code = line;
    if (hash != line.npos) {
      std::string_view comment = trim_blanks(line.substr(hash + 1));
      if (is_identifier(comment)) name = comment;
      code = line.substr(0, hash);
    }
    code = trim_blanks(code);
    const size_t code_offset = line_begin + static_cast<size_t>(code.data() - line.data());
    const size_t code_end = code_offset + code.size();

    if (code.starts_with("reader.")) {
      size_t open = code.find('(');
      if (open == code.npos) continue;
      std::string_view callee = trim_blanks(code.substr(0, open));
      if (callee == "reader.storage") continue;
      RunnableInput in{std::string(name), position++, {}, line_no};
      std::vector<CallArg> args = reader.call_args(code_offset + open, code_end, callee);
      std::vector<const CallArg*> pos_args = positional(args);
      if (callee == "reader.tensor") {
        if (pos_args.size() < 2)
          reader.fail(code_offset, "reader.tensor(...) needs a storage and a shape");
        const CallArg* dt = keyword(args, "dtype");
        in.type =
            reader.tensor_type(dt != nullptr ? reader.dtype_of(*dt) : DType::Float32, *pos_args[1]);
      } else if (callee == "reader.symint") {
        if (pos_args.empty()) reader.fail(code_offset, "reader.symint(...) needs a value");
        std::string_view v = pos_args[0]->value;
        int64_t value = 0;
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        in.type = ValueType::of_symint(ec == std::errc{} && p == v.data() + v.size()
                                           ? std::optional<SymInt>(SymInt(value))
                                           : std::nullopt);
      } else {
        continue;  // reader.const(...) and the like: an input without a type
      }
      out.push_back(std::move(in));
      continue;
    }

    // NAME = rand_strided(SHAPE, STRIDE, DTYPE?, DEVICE?, dtype=..., device=...)
    size_t eq = code.find('=');
    if (eq == code.npos) continue;
    std::string_view lhs = trim_blanks(code.substr(0, eq));
    std::string_view rhs = trim_blanks(code.substr(eq + 1));
    if (!is_identifier(lhs) || !rhs.starts_with("rand_strided")) continue;
    size_t open = code.find('(', eq);
    if (open == code.npos || trim_blanks(code.substr(eq + 1, open - eq - 1)) != "rand_strided")
      continue;
    std::vector<CallArg> args = reader.call_args(code_offset + open, code_end, "rand_strided");
    std::vector<const CallArg*> pos_args = positional(args);
    if (pos_args.empty()) reader.fail(code_offset + open, "rand_strided(...) needs a shape");
    const CallArg* dt = keyword(args, "dtype");
    if (dt == nullptr && pos_args.size() >= 3) dt = pos_args[2];
    RunnableInput in{std::string(lhs), position++, {}, line_no};
    in.type =
        reader.tensor_type(dt != nullptr ? reader.dtype_of(*dt) : DType::Float32, *pos_args[0]);
    out.push_back(std::move(in));
  }
  return out;
}

InputTypes runnable_input_types_for(const Graph& g, const std::vector<RunnableInput>& inputs) {
  const std::vector<NodeRef> placeholders = g.placeholders();
  InputTypes out;
  for (const RunnableInput& in : inputs) {
    std::optional<NodeRef> ref;
    if (!in.name.empty()) {
      ref = g.find(in.name);
    } else if (in.position < placeholders.size()) {
      ref = placeholders[in.position];
    }
    if (!ref) continue;
    const Node& n = g.node(*ref);
    if (n.kind != NodeKind::Placeholder || n.type_annotated) continue;
    bool seen = false;
    for (const InputType& t : out) seen = seen || t.name == n.name;
    if (!seen) out.push_back({n.name, in.type});
  }
  return out;
}

}  // namespace eqfuse
