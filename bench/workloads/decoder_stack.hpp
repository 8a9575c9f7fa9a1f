// The decoder-stack workload of the extraction-at-scale benchmarks and
// tests: FX text for N quantized decoder blocks chained through their
// hidden state and residual stream.
//
//   std::string fx = decoder_stack_fx({.blocks = 1000});
//
// One block is 7 kernels before fusion, in the shape of a W8A8 decoder layer
// as vllm-ascend traces it:
//   npu_add_rms_norm(h, r, g1) -> y, rstd, x_out        (input norm)
//   npu_dynamic_quant(y)       -> q, scale             (fusion site A)
//   npu_quant_matmul(q, w1, ..., pertoken_scale=scale)  (attention stand-in)
//   npu_add_rms_norm(a, x_out, g2) -> y2, rstd2, x_out2 (post-attention norm)
//   npu_quantize(y2, s2, z2, qint8, -1)                 (fusion site E)
//   npu_quant_matmul(q2, w2, ...)                       (MLP stand-in)
//   aten.silu(m)                                        -> next block's h
// Block k+1 reads block k's silu output and x_out2 (the residual stream), so
// neighbouring blocks share exactly those two e-classes; every weight is its
// own placeholder. The graph returns the last hidden state and residual.
// Each fusion site fuses only if the fused kernel also supplies x_out: the
// extractor must see that one multi-output kernel replaces two.
#pragma once
#include <cctype>
#include <string>

#include <fmt/format.h>

namespace eqfuse::workloads {

struct DecoderStackOptions {
  int blocks = 61;
  int hidden = 4096;
  std::string tokens = "s0";  // a symbol (Sym input) or a number
};

inline std::string decoder_stack_fx(const DecoderStackOptions& o) {
  const bool symbolic = !o.tokens.empty() && !std::isdigit(static_cast<unsigned char>(o.tokens[0]));
  const std::string act = fmt::format("bf16[{}, {}]", o.tokens, o.hidden);
  const std::string vec = fmt::format("bf16[{}]", o.hidden);
  const std::string w = fmt::format("i8[{}, {}]", o.hidden, o.hidden);
  const std::string ws = fmt::format("f32[{}]", o.hidden);
  std::string params, body;
  if (symbolic) params += fmt::format("tok: \"Sym({})\", ", o.tokens);
  params += fmt::format("h0: \"{}\", r0: \"{}\"", act, act);
  for (int k = 0; k < o.blocks; ++k) {
    for (const char* name : {"g1", "g2", "s2", "z2"})
      params += fmt::format(", {}_{}: \"{}\"", name, k, vec);
    params += fmt::format(", w1_{0}: \"{1}\", ws1_{0}: \"{2}\", w2_{0}: \"{1}\", ws2_{0}: \"{2}\"",
                          k, w, ws);
    const std::string h = k == 0 ? "h0" : fmt::format("h_{}", k - 1);
    const std::string r = k == 0 ? "r0" : fmt::format("xo2_{}", k - 1);
    body += fmt::format(
        "        arn_{0} = torch.ops.npu.npu_add_rms_norm.default({1}, {2}, g1_{0})\n"
        "        y_{0}: \"{3}\" = arn_{0}[0]\n"
        "        xo_{0}: \"{3}\" = arn_{0}[2]\n"
        "        dq_{0} = torch.ops.npu.npu_dynamic_quant.default(y_{0})\n"
        "        q_{0}: \"i8[{4}, {5}]\" = dq_{0}[0]\n"
        "        sc_{0}: \"f32[{4}]\" = dq_{0}[1]\n"
        "        a_{0}: \"{3}\" = torch.ops.npu.npu_quant_matmul.default(q_{0}, w1_{0}, ws1_{0}, "
        "pertoken_scale = sc_{0}, output_dtype = torch.bfloat16)\n"
        "        arn2_{0} = torch.ops.npu.npu_add_rms_norm.default(a_{0}, xo_{0}, g2_{0})\n"
        "        y2_{0}: \"{3}\" = arn2_{0}[0]\n"
        "        xo2_{0}: \"{3}\" = arn2_{0}[2]\n"
        "        q2_{0}: \"i8[{4}, {5}]\" = torch.ops.npu.npu_quantize.default(y2_{0}, s2_{0}, "
        "z2_{0}, torch.qint8, -1)\n"
        "        m_{0}: \"{3}\" = torch.ops.npu.npu_quant_matmul.default(q2_{0}, w2_{0}, ws2_{0}, "
        "output_dtype = torch.bfloat16)\n"
        "        h_{0}: \"{3}\" = torch.ops.aten.silu.default(m_{0})\n",
        k, h, r, act, o.tokens, o.hidden);
  }
  const int last = o.blocks - 1;
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, {}):\n{}        return (h_{}, xo2_{})\n",
      params, body, last, last);
}

}  // namespace eqfuse::workloads
