class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[s0, 4096]", arg1_1: "f16[s0, 4096]", arg2_1: "f16[4096]", arg3_1: "f16[4096]", arg4_1: "f16[4096]", arg5_1: "f16[4096]"):
        # vllm-ascend AddRMSNormQuantPattern: fp16, no norm bias (beta None).
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, None, 1e-06)
        getitem: "f16[s0, 4096]" = npu_add_rms_norm_bias[0]
        getitem_2: "f16[s0, 4096]" = npu_add_rms_norm_bias[2]
        quantize: "i8[s0, 4096]" = torch.ops.vllm.quantize.default(getitem, arg3_1, arg4_1, arg5_1)
        return (quantize, getitem_2)
