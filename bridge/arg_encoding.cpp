// Decoding constant leaves back into FX arguments (bridge/arg_encoding.hpp).
#include "bridge/arg_encoding.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace eqfuse {
namespace {

// "npu:0" or "cpu", as Device::to_string wrote it when the argument was encoded.
Device parse_device(std::string_view text) {
  Device d;
  size_t colon = text.find(':');
  d.type = std::string(text.substr(0, colon));
  if (colon != std::string_view::npos) d.index = std::stoi(std::string(text.substr(colon + 1)));
  return d;
}

Arg string_arg(std::string_view s, ArgType hint) {
  switch (hint) {
    case ArgType::Device:
      return Arg(parse_device(s));
    case ArgType::Layout:
    case ArgType::MemoryFormat:
    case ArgType::Generator:
      return Arg(Literal{std::string(s)});
    default:
      return Arg(std::string(s));
  }
}

}  // namespace

Arg decode_constant(const Constant& c, ArgType hint) {
  switch (c.kind) {
    case ConstKind::Int:
      return Arg(c.as_int());
    case ConstKind::Float:
      return Arg(c.as_float());
    case ConstKind::Bool:
      return Arg(c.as_bool());
    case ConstKind::DType:
      return Arg(c.as_dtype());
    case ConstKind::String:
      return string_arg(c.as_string(), hint);
    case ConstKind::IntList: {
      std::vector<Arg> items;
      for (int64_t v : c.as_int_list()) items.emplace_back(v);
      return Arg::list(std::move(items));
    }
    case ConstKind::None:
      break;
  }
  return Arg::none();
}

}  // namespace eqfuse
