class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, s0, 8, 128]", arg1_1: "f16[1, s0, 1, 128]", arg2_1: "f16[1, s0, 1, 128]"):
        # BSND layout, a symbolic sequence, the slices spelled with dim -1 and end 128.
        mul: "f16[1, s0, 8, 128]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        slice_1: "f16[1, s0, 8, 64]" = torch.ops.aten.slice.Tensor(arg0_1, -1, 0, 64)
        slice_2: "f16[1, s0, 8, 64]" = torch.ops.aten.slice.Tensor(arg0_1, -1, 64, 128)
        neg: "f16[1, s0, 8, 64]" = torch.ops.aten.neg.default(slice_2)
        cat: "f16[1, s0, 8, 128]" = torch.ops.aten.cat.default([neg, slice_1], 3)
        mul_1: "f16[1, s0, 8, 128]" = torch.ops.aten.mul.Tensor(cat, arg2_1)
        add: "f16[1, s0, 8, 128]" = torch.ops.aten.add.Tensor(mul, mul_1)
        return (add,)
