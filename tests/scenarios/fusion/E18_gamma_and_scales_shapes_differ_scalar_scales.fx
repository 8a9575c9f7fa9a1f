class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1, 2, 16]", arg1_1: "bf16[1, 2, 16]", arg2_1: "bf16[1, 2, 16]", arg3_1: "bf16[1]", arg4_1: "bf16[1]"):
        # Negative for rule (e): gamma is [1, 2, 16] and the per-tensor scales and zero points are [1];
        # gamma.shape must equal scales.shape (torchair-passes.md §3.5 extra_check; §8.2 Q12).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[1, 2, 16]" = npu_add_rms_norm[0]
        getitem_2: "bf16[1, 2, 16]" = npu_add_rms_norm[2]
        npu_quantize: "i8[1, 2, 16]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
