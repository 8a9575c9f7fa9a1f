class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1, 8, s0, 64]", arg1_1: "bf16[1, 1, s0, 64]", arg2_1: "bf16[1, 1, s0, 64]"):
        # rotate_half written with x.chunk(2, -1) (torch_npu's documented form), which
        # make_fx traces as one split: the same npu_rotary_mul.
        mul: "bf16[1, 8, s0, 64]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        split = torch.ops.aten.split.Tensor(arg0_1, 32, -1)
        getitem: "bf16[1, 8, s0, 32]" = split[0]
        getitem_1: "bf16[1, 8, s0, 32]" = split[1]
        neg: "bf16[1, 8, s0, 32]" = torch.ops.aten.neg.default(getitem_1)
        cat: "bf16[1, 8, s0, 64]" = torch.ops.aten.cat.default([neg, getitem], -1)
        mul_1: "bf16[1, 8, s0, 64]" = torch.ops.aten.mul.Tensor(cat, arg2_1)
        add: "bf16[1, 8, s0, 64]" = torch.ops.aten.add.Tensor(mul, mul_1)
        return (add,)
