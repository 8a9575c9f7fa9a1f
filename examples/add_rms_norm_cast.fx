class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 4096]", arg2_1: "bf16[s0, 4096]", arg3_1: "bf16[4096]"):
        # File: /home/user/model.py:31 in forward, code: y, _, x = torch_npu.npu_add_rms_norm(x1, x2, gamma)
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg1_1, arg2_1, arg3_1);  arg1_1 = arg2_1 = arg3_1 = None
        getitem: "bf16[s0, 4096]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 4096]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        # File: /home/user/model.py:32 in forward, code: logits = y.view(-1, y.size(-1)).to(torch.float32)
        view: "bf16[s0, 4096]" = torch.ops.aten.view.default(getitem, [-1, 4096])
        _to_copy: "f32[s0, 4096]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32);  view = None
        return (getitem, getitem_2, _to_copy)
