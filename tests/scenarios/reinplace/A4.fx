# A4: x = x[:2]; x.add_(1); x.mul_(3)  (input-mutated pass disabled)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]"):
        slice_1: "f32[2, 8]" = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, 2)
        add: "f32[2, 8]" = torch.ops.aten.add.Tensor(slice_1, 1)
        mul: "f32[2, 8]" = torch.ops.aten.mul.Tensor(add, 3)
        slice_scatter: "f32[8, 8]" = torch.ops.aten.slice_scatter.default(arg0_1, mul, 0, 0, 2)
        copy_: "f32[8, 8]" = torch.ops.aten.copy_.default(arg0_1, slice_scatter)
        return (mul,)
