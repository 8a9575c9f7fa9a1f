# A2: a = x.clone(); b = a.add(1); y.mul_(2); return b, y  (remove_noop_ops off: the clone stays)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(clone, 1)
        mul: "f32[8, 8]" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        copy_: "f32[8, 8]" = torch.ops.aten.copy_.default(arg1_1, mul)
        return (add, mul)
