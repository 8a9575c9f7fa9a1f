class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "i64[8, 16]", arg1_1: "i64[8, 16]"):
        # trunc of an int64 tensor feeding an add (torchair-passes.md §1.1 step 2)
        trunc: "i64[8, 16]" = torch.ops.aten.trunc.default(arg0_1)
        add: "i64[8, 16]" = torch.ops.aten.add.Tensor(trunc, arg1_1)
        return (add,)
