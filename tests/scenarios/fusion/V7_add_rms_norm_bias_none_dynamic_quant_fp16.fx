class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[s0, 4096]", arg1_1: "f16[s0, 4096]", arg2_1: "f16[4096]"):
        # fp16, no norm bias (beta None), epsilon 1e-5: fused with beta None.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, None, 1e-05)
        getitem: "f16[s0, 4096]" = npu_add_rms_norm_bias[0]
        getitem_2: "f16[s0, 4096]" = npu_add_rms_norm_bias[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem)
        getitem_3: "i8[s0, 4096]" = npu_dynamic_quant[0]
        getitem_4: "f32[s0]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2)
