class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 32]", arg1_1: "f16[2, 32]", arg2_1: "f16[32]", arg3_1: "f32[32]", arg4_1: "i32[32]"):
        # Rule (e) with xOut and epsilon 4e-06: fp16 x, fp32 scales, int32 zero points, qint8
        # (torchair-passes.md §3.5; §8.2 Q1, the documented fp16 dtype combination of §7.7).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1, 4e-06)
        getitem: "f16[2, 32]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 32]" = npu_add_rms_norm[2]
        npu_quantize: "i8[2, 32]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
