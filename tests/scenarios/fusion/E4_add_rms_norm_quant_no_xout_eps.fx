class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 16]", arg1_1: "bf16[2, 16]", arg2_1: "bf16[16]", arg3_1: "bf16[16]", arg4_1: "bf16[16]"):
        # Rule (e) no-xOut variant with epsilon 4e-06 (torchair-passes.md §3.5; §8.2 Q4).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1, 4e-06)
        getitem: "bf16[2, 16]" = npu_add_rms_norm[0]
        npu_quantize: "i8[2, 16]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.int8, -1)
        return (npu_quantize,)
