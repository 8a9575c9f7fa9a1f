class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 1024]", arg1_1: "bf16[s0, 1024]", arg2_1: "f32[1024]", arg3_1: "bf16[1024]", arg4_1: "bf16[1024]", arg5_1: "bf16[1024]"):
        # A mixed-precision norm: bf16 activation, fp32 weight. vLLM #44693 / #48330: a
        # norm-quant fusion applied to such a norm corrupted the output; the fused kernel
        # takes one dtype, so eqfuse refuses it even under --preset vllm-ascend.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, None, 1e-06)
        getitem: "bf16[s0, 1024]" = npu_add_rms_norm_bias[0]
        getitem_2: "bf16[s0, 1024]" = npu_add_rms_norm_bias[2]
        quantize: "i8[s0, 1024]" = torch.ops.vllm.quantize.default(getitem, arg3_1, arg4_1, arg5_1)
        return (quantize, getitem_2)
