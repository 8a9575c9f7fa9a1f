class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 64]", arg1_1: "f16[2, 64]", arg2_1: "f16[64]", arg3_1: "f16[64]"):
        # Negative for rule (a): rstd (output 1) is consumed, so npu_add_rms_norm has three
        # used outputs (TorchAir: exactly two). The fused op has no rstd output.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 64]" = npu_add_rms_norm[0]
        getitem_1: "f32[2, 1]" = npu_add_rms_norm[1]
        getitem_2: "f16[2, 64]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3: "i8[2, 64]" = npu_dynamic_quant[0]
        getitem_4: "f32[2]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2, getitem_1)
