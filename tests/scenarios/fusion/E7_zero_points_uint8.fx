class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 16]", arg1_1: "f16[2, 16]", arg2_1: "f16[16]", arg3_1: "f16[16]", arg4_1: "u8[16]"):
        # Negative for rule (e): zero_points uint8 (torchair-passes.md §3.5 extra_check; §8.2 Q5).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 16]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 16]" = npu_add_rms_norm[2]
        npu_quantize: "i8[2, 16]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
