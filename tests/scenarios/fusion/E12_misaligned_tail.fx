class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 3]", arg1_1: "bf16[2, 3]", arg2_1: "bf16[3]", arg3_1: "bf16[3]", arg4_1: "bf16[3]"):
        # Negative for rule (e): last dim 3 in bf16 is 6 bytes, not a multiple of 32
        # (torchair-passes.md §3.5 extra_check; §8.2 Q13).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[2, 3]" = npu_add_rms_norm[0]
        getitem_2: "bf16[2, 3]" = npu_add_rms_norm[2]
        npu_quantize: "i8[2, 3]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
