class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[8, 16]", arg1_1: "f16[8, 16]"):
        # cat of a single tensor feeding an add (torchair-passes.md §8.7)
        cat: "f16[8, 16]" = torch.ops.aten.cat.default([arg0_1])
        add: "f16[8, 16]" = torch.ops.aten.add.Tensor(cat, arg1_1)
        return (add,)
