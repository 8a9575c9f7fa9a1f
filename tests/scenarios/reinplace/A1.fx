# A1: a = x.clone(); b = a.add(1); stream '1': y.mul_(2); return b, y  (after remove_noop_ops dropped the clone)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        mul: "f32[8, 8]" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        scope_exit = torch.ops.air.scope_exit.default()
        copy_: "f32[8, 8]" = torch.ops.aten.copy_.default(arg1_1, mul)
        return (add, mul)
