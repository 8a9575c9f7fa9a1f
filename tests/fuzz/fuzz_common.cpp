#include "fuzz_common.hpp"

#include <cctype>

namespace eqfuse::fuzz {
namespace {

std::string nested(std::string_view inner, size_t depth, uint8_t pattern) {
  std::string out;
  out.reserve(inner.size() + depth * 8);
  for (size_t i = 0; i < depth; ++i) out += (pattern >> (i % 8)) & 1 ? "{\"k\": " : "[";
  out += inner;
  for (size_t i = depth; i-- > 0;) out += (pattern >> (i % 8)) & 1 ? '}' : ']';
  return out;
}

std::string with_edge_numbers(std::string_view text) {
  std::string out;
  size_t pick = 0;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      out += kEdgeNumbers[pick++ % std::size(kEdgeNumbers)];
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace

std::string json_text(const uint8_t* data, size_t size) {
  const std::string_view all = as_text(data, size);
  if (size >= 4 && data[0] == 'D') {
    const size_t depth = std::min<size_t>(100 * (data[1] | (size_t{data[2]} << 8)), 100000);
    return nested(all.substr(4), depth, data[3]);
  }
  if (size >= 1 && data[0] == 'N') return with_edge_numbers(all.substr(1));
  return std::string(all);
}

}  // namespace eqfuse::fuzz
