class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[16, 384]"):
        # split(128) of 384 columns makes three pieces: silu(first) * second is not a
        # gate/up pair of halves, so no npu_swiglu.
        split = torch.ops.aten.split.Tensor(arg0_1, 128, -1)
        getitem: "bf16[16, 128]" = split[0]
        getitem_1: "bf16[16, 128]" = split[1]
        silu: "bf16[16, 128]" = torch.ops.aten.silu.default(getitem)
        mul: "bf16[16, 128]" = torch.ops.aten.mul.Tensor(silu, getitem_1)
        return (mul,)
