class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[8, 16]", arg1_1: "f16[8, 16]"):
        # x.repeat(1, 1) feeding an add (torchair-passes.md §8.7)
        repeat: "f16[8, 16]" = torch.ops.aten.repeat.default(arg0_1, [1, 1])
        add: "f16[8, 16]" = torch.ops.aten.add.Tensor(repeat, arg1_1)
        return (add,)
