class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 64]", arg1_1: "f16[2, 64]", arg2_1: "f16[64]", arg3_1: "f32[64]"):
        # Rule (e) with zero_points None (allowed: torchair-passes.md §3.5 'zero_points may be None').
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 64]" = npu_add_rms_norm[2]
        npu_quantize: "i8[2, 64]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, None, torch.qint8, -1)
        return (npu_quantize, getitem_2)
