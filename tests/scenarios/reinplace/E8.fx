# E8: stream '1': x2 = x + 1, x3 = x2 + 2; x4 = x2 + 1; x5 = x4 + x3
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        add: "f32[3]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        add_1: "f32[3]" = torch.ops.aten.add.Tensor(add, 2)
        scope_exit = torch.ops.air.scope_exit.default()
        add_2: "f32[3]" = torch.ops.aten.add.Tensor(add, 1)
        add_3: "f32[3]" = torch.ops.aten.add.Tensor(add_2, add_1)
        return (add_3,)
