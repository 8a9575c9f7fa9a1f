class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "bf16[1, 1, 8, 16]", arg2_1: "bf16[1, 1, 8, 16]"):
        # The rotation splits at 4, not at half of 16: not npu_rotary_mul's rotate_half.
        mul: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        slice_1: "bf16[2, 4, 8, 4]" = torch.ops.aten.slice.Tensor(arg0_1, 3, 0, 4)
        slice_2: "bf16[2, 4, 8, 12]" = torch.ops.aten.slice.Tensor(arg0_1, 3, 4, 9223372036854775807)
        neg: "bf16[2, 4, 8, 12]" = torch.ops.aten.neg.default(slice_2)
        cat: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([neg, slice_1], -1)
        mul_1: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(cat, arg2_1)
        add: "bf16[2, 4, 8, 16]" = torch.ops.aten.add.Tensor(mul, mul_1)
        return (add,)
