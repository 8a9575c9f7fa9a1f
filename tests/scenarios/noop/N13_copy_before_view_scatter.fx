class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[32]", arg1_1: "f32[4, 8]"):
        # x.view(4, 8).add_(y) on a graph input, functionalized: the functional aten.copy sits
        # between the post view and the copy_ epilogue (torchair-passes.md §4.2). Rule noop/copy removes it,
        # as remove_noop_ops does before TorchAir's recover_view_inplace_pattern.
        view: "f32[4, 8]" = torch.ops.aten.view.default(arg0_1, [4, 8])
        add: "f32[4, 8]" = torch.ops.aten.add.Tensor(view, arg1_1)
        view_1: "f32[32]" = torch.ops.aten.view.default(add, [32])
        copy: "f32[32]" = torch.ops.aten.copy.default(arg0_1, view_1)
        copy_: "f32[32]" = torch.ops.aten.copy_.default(arg0_1, copy)
        mul: "f32[4, 8]" = torch.ops.aten.mul.Tensor(add, 2)
        return (mul,)
