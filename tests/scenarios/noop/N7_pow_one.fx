class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16]", arg1_1: "f32[8, 16]"):
        # pow(x, 1) feeding an add (torchair-passes.md §8.7)
        pow_1: "f32[8, 16]" = torch.ops.aten.pow.Tensor_Scalar(arg0_1, 1)
        add: "f32[8, 16]" = torch.ops.aten.add.Tensor(pow_1, arg1_1)
        return (add,)
