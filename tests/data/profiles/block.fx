class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[16, 128]", arg1_1: "bf16[128]", arg2_1: "bf16[64, 128]", arg3_1: "bf16[16, 64]"):
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(arg0_1, arg1_1);  arg0_1 = arg1_1 = None
        getitem: "bf16[16, 128]" = npu_rms_norm[0]
        getitem_1 = npu_rms_norm[1];  npu_rms_norm = None
        t: "bf16[128, 64]" = torch.ops.aten.t.default(arg2_1);  arg2_1 = None
        mm: "bf16[16, 64]" = torch.ops.aten.mm.default(getitem, t);  getitem = t = None
        add: "bf16[16, 64]" = torch.ops.aten.add.Tensor(mm, arg3_1);  mm = arg3_1 = None
        view: "bf16[1, 16, 64]" = torch.ops.aten.view.default(add, [1, 16, 64]);  add = None
        _to_copy: "f32[1, 16, 64]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32);  view = None
        mul: "f32[1, 16, 64]" = torch.ops.aten.mul.Tensor(_to_copy, _to_copy);  _to_copy = None
        return (mul, getitem_1)
