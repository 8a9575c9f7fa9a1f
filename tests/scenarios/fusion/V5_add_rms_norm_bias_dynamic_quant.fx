class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 4096]", arg1_1: "bf16[s0, 4096]", arg2_1: "bf16[4096]", arg3_1: "bf16[4096]"):
        # vllm-ascend AddRMSNormQuantFusionPass (AddRMSNormDynamicQuantPatternWithBias): the
        # residual add + RMS norm with a norm bias (vllm-ascend's own op) feeding a per-token
        # dynamic quant is one npu_add_rms_norm_dynamic_quant with beta = the bias.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, arg3_1, 1e-06)
        getitem: "bf16[s0, 4096]" = npu_add_rms_norm_bias[0]
        getitem_2: "bf16[s0, 4096]" = npu_add_rms_norm_bias[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem)
        getitem_3: "i8[s0, 4096]" = npu_dynamic_quant[0]
        getitem_4: "f32[s0]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2)
