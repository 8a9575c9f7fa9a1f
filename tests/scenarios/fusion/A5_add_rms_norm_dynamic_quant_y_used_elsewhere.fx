class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 64]", arg1_1: "f16[2, 64]", arg2_1: "f16[64]", arg3_1: "f16[64]"):
        # Negative for rule (a): y also feeds a cast (TorchAir: y must have exactly one user).
        # The fused op does not return y, so fusing would keep npu_add_rms_norm alive as well.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 64]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3: "i8[2, 64]" = npu_dynamic_quant[0]
        getitem_4: "f32[2]" = npu_dynamic_quant[1]
        mul: "f16[2, 64]" = torch.ops.aten.mul.Tensor(getitem, getitem_2)
        return (getitem_3, getitem_4, mul)
