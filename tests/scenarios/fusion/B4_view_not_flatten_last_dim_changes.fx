class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 3, 64]", arg1_1: "f16[2, 3, 64]", arg2_1: "f16[64]"):
        # Negative for rule (b): the view is not flatten(0, 1), it merges rows into the last
        # dim ([2, 192]), so the per-token quant rows are different rows than the norm's
        # (torchair-passes.md §3.2 _check_view_shape: len(SIZE) must be rank - 1 and SIZE[0] == d0 * d1).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 3, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 3, 64]" = npu_add_rms_norm[2]
        view: "f16[2, 192]" = torch.ops.aten.view.default(getitem, [2, 192])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
        getitem_3: "i8[2, 192]" = npu_dynamic_quant[0]
        getitem_4: "f32[2]" = npu_dynamic_quant[1]
        view_1: "f32[2, 1]" = torch.ops.aten.view.default(getitem_4, [-1, 1])
        return (getitem_3, view_1, getitem_2)
