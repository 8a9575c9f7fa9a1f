class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[64, 2048]", arg1_1: "f16[64, 2048]", arg2_1: "f16[]"):
        # y + x * s with s a 0-d tensor, not a number fixed at trace time: no muls_add.
        mul: "f16[64, 2048]" = torch.ops.aten.mul.Tensor(arg0_1, arg2_1)
        add: "f16[64, 2048]" = torch.ops.aten.add.Tensor(arg1_1, mul)
        return (add,)
