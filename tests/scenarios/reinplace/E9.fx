# E9: stream '1': x2 = x + 1, x3 = x2 + 2; stream '2': x3 = x3 + 2; view
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        add: "f32[3]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        add_1: "f32[3]" = torch.ops.aten.add.Tensor(add, 2)
        scope_exit = torch.ops.air.scope_exit.default()
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
        add_2: "f32[3]" = torch.ops.aten.add.Tensor(add_1, 2)
        scope_exit_1 = torch.ops.air.scope_exit.default()
        view: "f32[3]" = torch.ops.aten.view.default(add_2, [3])
        return (view,)
