class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 2048]", arg1_1: "bf16[s0, 2048]", arg2_1: "bf16[2048]", arg3_1: "bf16[2048]", arg4_1: "bf16[2048]", arg5_1: "bf16[2048]", arg6_1: "bf16[2048]"):
        # A w8a8 static layer as vllm-ascend's AddRMSNormQuantPatternWithBias test builds it:
        # residual add + RMS norm with a norm bias, then vllm.quantize(y, scale, scale_reciprocal,
        # offset). Under --preset vllm-ascend the fused kernel divides by the scale itself.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, arg3_1, 1e-05)
        getitem: "bf16[s0, 2048]" = npu_add_rms_norm_bias[0]
        getitem_2: "bf16[s0, 2048]" = npu_add_rms_norm_bias[2]
        quantize: "i8[s0, 2048]" = torch.ops.vllm.quantize.default(getitem, arg4_1, arg5_1, arg6_1)
        return (quantize, getitem_2)
