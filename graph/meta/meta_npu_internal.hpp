// Declarations shared by the NPU meta functions, which live per op family in
// graph/meta/meta_npu*.cpp: the shape checks and the quantized output types that
// more than one family uses, and each family file's registration function, all
// called from add_npu_meta (meta_npu.cpp). Internal to graph/meta.
#pragma once
#include <optional>
#include <string_view>

#include "graph/meta/meta_common.hpp"

namespace eqfuse::npu_meta {

// Same rank and no two dims definitely different (meta_npu.cpp).
bool same_shape(const Shape& a, const Shape& b);
// A known dim that is not a multiple of `n` (an unknown or symbolic dim passes).
bool not_multiple(const SymInt& d, int64_t n);

// ---- quantized outputs (defined in meta_npu_quant.cpp, also used by the fused norms) ---------

// Quantized output element type for a ScalarType argument: int8 by default;
// quint4x2 packs 8 values per int32 along the last dim.
struct QuantOut {
  DType dtype = DType::Int8;
  bool packed_int4 = false;
};

QuantOut quant_out(const CallContext& ctx, std::string_view name);
// The quantized output's shape: `s`, its last dim divided by 8 when int4 is packed.
std::optional<Shape> quantized_shape(std::optional<Shape> s, const QuantOut& q);
// `s` without its last dim (per-token scales); fails on a 0-D tensor.
std::optional<Shape> drop_last(const std::optional<Shape>& s);
// A smooth-scale argument `name`, when given, is 1-D with x's last dim.
void check_smooth(const std::optional<Shape>& x, const CallContext& ctx, std::string_view name);

// y's element type: an 8-bit float, or torch_npu's packed fp4 codes (296 float4_e2m1fn_x2, 297
// float4_e1m2fn_x2; 40 and 41 in CANN's numbering), two values per uint8 along the last dim.
struct MxOut {
  DType dtype = DType::UInt8;
  bool packed_fp4 = true;
};

MxOut mx_out(const CallContext& ctx);
// y's shape: x's, its last dim halved when fp4 is packed.
std::optional<Shape> mx_y_shape(std::optional<Shape> x, const MxOut& out);
// mxscale: x's shape with dim `axis` = ceil(ceil(n / block_size) / 2), then a trailing 2 (two
// consecutive blocks per entry); uint8, the e8m0 bits.
std::optional<Shape> mx_scale_shape(std::optional<Shape> x, int64_t axis, int64_t block_size);

// ---- one registration per family file ----------------------------------------------------

void add_npu_norm_meta(OpRegistry& reg);       // meta_npu_norm.cpp
void add_npu_quant_meta(OpRegistry& reg);      // meta_npu_quant.cpp
void add_npu_matmul_meta(OpRegistry& reg);     // meta_npu_matmul.cpp
void add_npu_attention_meta(OpRegistry& reg);  // meta_npu_attention.cpp

}  // namespace eqfuse::npu_meta
