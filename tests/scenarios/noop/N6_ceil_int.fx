class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "i32[8, 16]", arg1_1: "i32[8, 16]"):
        # ceil of an int32 tensor feeding an add (torchair-passes.md §8.7)
        ceil: "i32[8, 16]" = torch.ops.aten.ceil.default(arg0_1)
        add: "i32[8, 16]" = torch.ops.aten.add.Tensor(ceil, arg1_1)
        return (add,)
