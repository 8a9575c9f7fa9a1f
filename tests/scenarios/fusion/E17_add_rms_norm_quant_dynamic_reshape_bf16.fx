class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 16]", arg2_1: "bf16[s0, 16]", arg3_1: "bf16[16]", arg4_1: "bf16[16]", arg5_1: "bf16[16]"):
        # Rule (e) under dynamic shapes, bf16 x, scales and zero points (torchair-passes.md §3.5;
        # §8.2 Q1, its second run): x1 and x2 are reshaped to [1, -1, 16] first, so the token count
        # is symbolic but the last dim stays a concrete 16 (32 bytes). Epsilon 4e-06, qint8.
        view: "bf16[1, s0, 16]" = torch.ops.aten.view.default(arg1_1, [1, -1, 16])
        view_1: "bf16[1, s0, 16]" = torch.ops.aten.view.default(arg2_1, [1, -1, 16])
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(view, view_1, arg3_1, 4e-06)
        getitem: "bf16[1, s0, 16]" = npu_add_rms_norm[0]
        getitem_2: "bf16[1, s0, 16]" = npu_add_rms_norm[2]
        npu_quantize: "i8[1, s0, 16]" = torch.ops.npu.npu_quantize.default(getitem, arg4_1, arg5_1, torch.qint8, -1)
        return (npu_quantize, getitem_2)
