// Internals of the condition language shared by its parser
// (condition_parse.cpp) and its evaluator (condition_eval.cpp): the syntax
// tree behind CondExpr, the builtin function and attribute tables, and the
// mapping from byte offsets in a condition to file positions. Not part of the
// public API; include rewrites/condition.hpp instead.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewrites/condition.hpp"

namespace eqfuse {

enum class CondKind : uint8_t {
  Literal,    // 1, 2.5, True, None, "s", torch.float16
  Name,       // x1
  Attribute,  // children[0].name                       (x.dtype)
  Method,     // children[0].name(children[1..])        (x.size(-1))
  Call,       // name(children...)                      (len(xs))
  Index,      // children[0][children[1]]
  Slice,      // children[0][children[1]:children[2]]   (omitted bounds are None literals)
  List,       // [children...]
  Negate,     // -children[0]
  Not,        // not children[0]
  Arith,      // children[0] op children[1]
  Compare,    // children[0] ops[0] children[1] ops[1] children[2] ...  (Python chaining)
  And,        // children[0] and children[1] and ...
  Or,         // children[0] or children[1] or ...
};

enum class ArithOp : uint8_t { Add, Sub, Mul, FloorDiv, Mod };
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, Is, IsNot };

struct CondExpr::Node {
  CondKind kind = CondKind::Literal;
  ArithOp arith = ArithOp::Add;
  // A maximal postfix chain rooted at a name (`x2.shape[-1]`, `dtype`): its
  // value is a fact about the match and is quoted in failure details.
  bool is_fact = false;
  uint32_t begin = 0;  // byte range of the node in the condition text
  uint32_t end = 0;
  uint32_t name_begin = 0;  // offset of the identifier (Name, Attribute, Method, Call)
  uint32_t depth = 1;       // height of the subtree; bounded by the parser
  std::string name;
  CondValue literal;
  std::vector<CompareOp> compare_ops;
  std::vector<Node> children;
};

std::string_view arith_op_text(ArithOp op);
std::string_view compare_op_text(CompareOp op);

// Builtin functions: name and accepted argument counts.
struct BuiltinFunction {
  std::string_view name;
  int min_args;
  int max_args;  // -1: unbounded
};
const std::vector<BuiltinFunction>& builtin_functions();
const BuiltinFunction* find_builtin(std::string_view name);

// Attributes (`x.dtype`) and methods (`x.size(i)`) with their argument counts.
bool is_known_attribute(std::string_view name);
const BuiltinFunction* find_method(std::string_view name);
std::string known_attributes_list();  // "dtype, shape, ..." for messages
std::string known_methods_list();

// File position of byte `offset` of the condition text (see parse_condition).
SourceLoc condition_offset_loc(std::string_view text, const SourceLoc& loc, size_t offset);
// An Error at byte `offset` of the condition, with the source line (padded
// to the condition's column) attached so the caret lines up.
Error condition_error(std::string_view text, const SourceLoc& loc, size_t offset,
                      std::string message);

}  // namespace eqfuse
