class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 8, 64]", arg1_1: "bf16[s0, 1, 64]", arg2_1: "bf16[s0, 1, 64]"):
        # The chunk form on a 3-D [tokens, heads, dim] q: npu_rotary_mul takes 4-D inputs.
        mul: "bf16[s0, 8, 64]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        split = torch.ops.aten.split.Tensor(arg0_1, 32, -1)
        getitem: "bf16[s0, 8, 32]" = split[0]
        getitem_1: "bf16[s0, 8, 32]" = split[1]
        neg: "bf16[s0, 8, 32]" = torch.ops.aten.neg.default(getitem_1)
        cat: "bf16[s0, 8, 64]" = torch.ops.aten.cat.default([neg, getitem], -1)
        mul_1: "bf16[s0, 8, 64]" = torch.ops.aten.mul.Tensor(cat, arg2_1)
        add: "bf16[s0, 8, 64]" = torch.ops.aten.add.Tensor(mul, mul_1)
        return (add,)
