class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16]", arg1_1: "f32[8, 16]"):
        # slice_scatter whose src covers all of self (dim 1, start None, end INT64_MAX) feeding a mul (torchair-passes.md §8.7)
        slice_scatter: "f32[8, 16]" = torch.ops.aten.slice_scatter.default(arg0_1, arg1_1, 1, None, 9223372036854775807)
        mul: "f32[8, 16]" = torch.ops.aten.mul.Tensor(slice_scatter, 2)
        return (mul,)
