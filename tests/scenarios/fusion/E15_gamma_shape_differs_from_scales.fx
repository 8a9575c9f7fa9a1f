class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1, 2, 16]", arg1_1: "bf16[1, 2, 16]", arg2_1: "bf16[1, 2, 16]", arg3_1: "bf16[16]", arg4_1: "bf16[16]"):
        # Negative for rule (e): gamma normalizes over the whole [1, 2, 16] tensor while the
        # scales are [16]; gamma.shape must equal scales.shape (torchair-passes.md §3.5 extra_check; §8.2 Q11).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[1, 2, 16]" = npu_add_rms_norm[0]
        getitem_2: "bf16[1, 2, 16]" = npu_add_rms_norm[2]
        npu_quantize: "i8[1, 2, 16]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
