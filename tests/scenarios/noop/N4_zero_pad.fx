class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[8, 16]", arg1_1: "f16[8, 16]"):
        # constant_pad_nd with pad [0, 0, 0, 0] feeding an add (torchair-passes.md §8.7)
        constant_pad_nd: "f16[8, 16]" = torch.ops.aten.constant_pad_nd.default(arg0_1, [0, 0, 0, 0])
        add: "f16[8, 16]" = torch.ops.aten.add.Tensor(constant_pad_nd, arg1_1)
        return (add,)
