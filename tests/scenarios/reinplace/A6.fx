# A6: x.mul_(2); x.add_(1) with x (5, 8)  (inplaceable pass disabled)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[5, 8]"):
        mul: "f32[5, 8]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        add: "f32[5, 8]" = torch.ops.aten.add.Tensor(mul, 1)
        copy_: "f32[5, 8]" = torch.ops.aten.copy_.default(arg0_1, add)
        return (add,)
