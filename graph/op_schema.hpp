// Torch operator schemas, parsed from the strings torch itself prints:
//   npu::npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06)
//       -> (Tensor y, Tensor rstd, Tensor x)
// An OpSchema knows argument names, types, defaults, keyword-only markers,
// alias/mutation annotations (`Tensor(a!)`), and the returns. Schemas are the
// single description of an op that normalization, shape inference, the
// interpreter, rules and the printer all read.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"

namespace eqfuse {

enum class ArgType : uint8_t {
  Tensor,
  TensorList,
  Int,
  IntList,  // int[], SymInt[], int[2]
  Float,
  FloatList,
  Bool,
  BoolList,
  Scalar,  // int, float or bool
  ScalarType,
  Str,
  Device,
  Layout,
  MemoryFormat,
  Generator,
  Any,
};

struct SchemaArg {
  std::string name;
  ArgType type = ArgType::Any;
  std::string type_text;           // as written: "Tensor(a!)", "int[]?", "SymInt[1]"
  bool optional = false;           // `T?`
  std::optional<int> list_length;  // `bool[2]`
  std::optional<Arg> default_value;
  std::string default_text;  // the default as written ("1e-06", "[0,1,2]"); printed by to_string
  bool kwarg_only = false;   // after `*`
  std::string alias;         // "a" for Tensor(a), "a!" for Tensor(a!)
  bool mutates() const { return !alias.empty() && alias.back() == '!'; }
};

struct SchemaReturn {
  std::string name;  // may be empty
  ArgType type = ArgType::Tensor;
  std::string type_text;
  std::string alias;
};

struct OpSchema {
  std::string ns;        // "aten", "npu", "prims"
  std::string name;      // "add"
  std::string overload;  // "Tensor"; empty for the default overload
  std::vector<SchemaArg> args;
  std::vector<SchemaReturn> returns;

  // "aten::add.Tensor", "npu::npu_rms_norm" (default overload).
  std::string qualified_name() const;
  // "torch.ops.aten.add.Tensor", "torch.ops.npu.npu_rms_norm.default".
  std::string fx_target() const;
  // Round-trips through parse().
  std::string to_string() const;
  // Index of the named argument, or -1.
  int arg_index(std::string_view arg_name) const;
  bool mutates_any() const;

  // Throws Error (with the column inside `text`) on malformed schemas.
  static OpSchema parse(std::string_view text, const SourceLoc& where = {});
};

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor";
// "torch.ops.npu.npu_rms_norm.default" -> "npu::npu_rms_norm";
// "torch.ops.aten.add" (overload packet) -> "aten::add". nullopt if `target`
// is not a torch.ops path.
std::optional<std::string> qualified_name_from_fx_target(std::string_view target);
// Inverse of the above.
std::string fx_target_from_qualified_name(std::string_view qualified);

}  // namespace eqfuse
