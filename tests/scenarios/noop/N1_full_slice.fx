class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[s0, 16]", arg1_1: "f32[s0, 16]"):
        # x[:] (slice.Tensor dim 0, start 0, end INT64_MAX, step 1) feeding an add (torchair-passes.md §8.7)
        slice_1: "f32[s0, 16]" = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807)
        add: "f32[s0, 16]" = torch.ops.aten.add.Tensor(slice_1, arg1_1)
        return (add,)
