class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "i64[8, 16]", arg1_1: "i64[8, 16]"):
        # round of an int64 tensor feeding an add (torchair-passes.md §1.1 step 2)
        round: "i64[8, 16]" = torch.ops.aten.round.default(arg0_1)
        add: "i64[8, 16]" = torch.ops.aten.add.Tensor(round, arg1_1)
        return (add,)
