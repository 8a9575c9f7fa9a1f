class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[16, 512]"):
        # The gate/up halves of one projection: silu(first half) * second half is npu_swiglu
        # (MindSpore inference_swiglu_fusion).
        split = torch.ops.aten.split.Tensor(arg0_1, 256, -1)
        getitem: "bf16[16, 256]" = split[0]
        getitem_1: "bf16[16, 256]" = split[1]
        silu: "bf16[16, 256]" = torch.ops.aten.silu.default(getitem)
        mul: "bf16[16, 256]" = torch.ops.aten.mul.Tensor(silu, getitem_1)
        return (mul,)
