class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f16[4]", arg1_1: "f16[2, 3, 4]", arg2_1: "f16[2, 3, 4]"):
        # No stacktrace found for following nodes
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg1_1, arg0_1);  arg2_1 = arg1_1 = arg0_1 = None
        getitem: "f16[2, 3, 4]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 3, 4]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        view: "f16[6, 4]" = torch.ops.aten.view.default(getitem, [6, 4]);  getitem = None
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view);  view = None
        getitem_3: "i8[6, 4]" = npu_dynamic_quant[0]
        getitem_4: "f32[6]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        view_1: "f32[6, 1]" = torch.ops.aten.view.default(getitem_4, [-1, 1]);  getitem_4 = None
        return (getitem_3, view_1, getitem_2)
