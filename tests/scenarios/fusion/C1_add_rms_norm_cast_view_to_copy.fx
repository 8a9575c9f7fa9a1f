class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]"):
        # Rule (c), view variant, aten._to_copy spelling (torchair-passes.md §3.3; §8.1 F1 add_rms_norm #2
        # without the quant): y.view(-1, h).to(torch.float32) with h == x1.shape[-1].
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 2, 3]" = npu_add_rms_norm[2]
        view: "f16[2, 3]" = torch.ops.aten.view.default(getitem, [-1, 3])
        _to_copy: "f32[2, 3]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32)
        return (_to_copy, getitem_2)
