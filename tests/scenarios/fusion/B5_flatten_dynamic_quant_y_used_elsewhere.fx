class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 3, 64]", arg1_1: "f16[2, 3, 64]", arg2_1: "f16[64]"):
        # Negative for rule (b): y is also returned (TorchAir: y exactly one user, the view).
        # The fused op does not produce y, so npu_add_rms_norm would have to stay as well.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 3, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 3, 64]" = npu_add_rms_norm[2]
        view: "f16[6, 64]" = torch.ops.aten.view.default(getitem, [6, 64])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
        getitem_3: "i8[6, 64]" = npu_dynamic_quant[0]
        getitem_4: "f32[6]" = npu_dynamic_quant[1]
        view_1: "f32[6, 1]" = torch.ops.aten.view.default(getitem_4, [-1, 1])
        return (getitem_3, view_1, getitem_2, getitem)
