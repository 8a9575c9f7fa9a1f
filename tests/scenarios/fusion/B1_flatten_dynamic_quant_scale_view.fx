class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4]", arg1_1: "f16[2, 3, 4]", arg2_1: "f16[2, 3, 4]"):
        # Rule (b) (torchair-passes.md §3.2; §8.1 F1 add_rms_norm #3; the TorchAir doc dump): y.flatten(0, 1)
        # feeds a dynamic quant without smooth scales, the scale is viewed to [-1, 1].
        # Static shapes: the view's first size 6 == 2 * 3.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg1_1, arg0_1)
        getitem: "f16[2, 3, 4]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 3, 4]" = npu_add_rms_norm[2]
        view: "f16[6, 4]" = torch.ops.aten.view.default(getitem, [6, 4])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
        getitem_3: "i8[6, 4]" = npu_dynamic_quant[0]
        getitem_4: "f32[6]" = npu_dynamic_quant[1]
        view_1: "f32[6, 1]" = torch.ops.aten.view.default(getitem_4, [-1, 1])
        return (getitem_3, view_1, getitem_2)
