# A5: a = x.clone(); b = a.add(1); y.mul(3)  (input-mutated pass disabled, remove_noop_ops off)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(clone, 1)
        mul: "f32[8, 8]" = torch.ops.aten.mul.Tensor(arg1_1, 3)
        return (add, mul)
