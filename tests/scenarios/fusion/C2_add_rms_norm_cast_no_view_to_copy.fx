class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 128]", arg2_1: "bf16[s0, 128]", arg3_1: "bf16[128]"):
        # Rule (c), no-view variant, aten._to_copy spelling, bf16 with symbolic tokens
        # (torchair-passes.md §3.3; §8.1 F2 add_rms_norm #2): y is a pattern output and may be used too.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg1_1, arg2_1, arg3_1)
        getitem: "bf16[s0, 128]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 128]" = npu_add_rms_norm[2]
        _to_copy: "f32[s0, 128]" = torch.ops.aten._to_copy.default(getitem, dtype = torch.float32)
        return (getitem, getitem_2, _to_copy)
