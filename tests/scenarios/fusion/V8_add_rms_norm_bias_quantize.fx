class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 4096]", arg1_1: "bf16[s0, 4096]", arg2_1: "bf16[4096]", arg3_1: "bf16[4096]", arg4_1: "bf16[4096]", arg5_1: "bf16[4096]", arg6_1: "bf16[4096]"):
        # vllm-ascend AddRMSNormQuantFusionPass (AddRMSNormQuantPatternWithBias): the residual
        # add + RMS norm with bias feeding vllm.quantize (w8a8 static: scale, its reciprocal,
        # offset) is one npu_add_rms_norm_quant with beta = the bias.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, arg3_1, 1e-06)
        getitem: "bf16[s0, 4096]" = npu_add_rms_norm_bias[0]
        getitem_2: "bf16[s0, 4096]" = npu_add_rms_norm_bias[2]
        quantize: "i8[s0, 4096]" = torch.ops.vllm.quantize.default(getitem, arg4_1, arg5_1, arg6_1)
        return (quantize, getitem_2)
