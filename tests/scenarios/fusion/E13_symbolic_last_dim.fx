class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, s0]", arg1_1: "bf16[2, s0]", arg2_1: "bf16[s0]", arg3_1: "bf16[s0]", arg4_1: "bf16[s0]"):
        # Negative for rule (e): the last dim is symbolic, so its byte size is not a concrete
        # multiple of 32 (torchair-passes.md §3.5 extra_check; §8.2 Q14).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[2, s0]" = npu_add_rms_norm[0]
        getitem_2: "bf16[2, s0]" = npu_add_rms_norm[2]
        npu_quantize: "i8[2, s0]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
