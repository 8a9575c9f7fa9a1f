class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 64]", arg1_1: "f16[4, 64]", arg2_1: "f16[64]"):
        # Negative for rule (c): the cast targets bfloat16, not float32; the fused op's extra
        # output is always float32 (torchair-passes.md §3.3 patterns use dtype=float32, §7.6).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[4, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[4, 64]" = npu_add_rms_norm[2]
        view: "f16[4, 64]" = torch.ops.aten.view.default(getitem, [-1, 64])
        _to_copy: "bf16[4, 64]" = torch.ops.aten._to_copy.default(view, dtype = torch.bfloat16)
        return (_to_copy, getitem_2)
