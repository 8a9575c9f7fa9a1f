# E15: stream '1': x.add_(1); stream '2': y.add_(x), y.mul_(2); return x.view(-1)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]"):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        add_3: "f32[3]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        scope_exit = torch.ops.air.scope_exit.default()
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
        add_4: "f32[3]" = torch.ops.aten.add.Tensor(arg1_1, add_3)
        mul_5: "f32[3]" = torch.ops.aten.mul.Tensor(add_4, 2)
        scope_exit_1 = torch.ops.air.scope_exit.default()
        view: "f32[3]" = torch.ops.aten.view.default(add_3, [-1])
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1, add_3)
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, mul_5)
        return (view,)
