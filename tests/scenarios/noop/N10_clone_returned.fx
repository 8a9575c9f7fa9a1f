class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]"):
        # the clone is the returned value: kept, as TorchAir keeps it (no new input/output aliasing; torchair-passes.md §8.7)
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        return (clone,)
