class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]"):
        # a = x.clone(); a.add_(1) after functionalization: clone feeding an add (torchair-passes.md §8.7)
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(clone, 1)
        return (add,)
