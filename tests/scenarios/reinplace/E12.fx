# E12: stream '1': x.add_(1); return x.view(-1)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        add_3: "f32[3]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        scope_exit = torch.ops.air.scope_exit.default()
        view: "f32[3]" = torch.ops.aten.view.default(add_3, [-1])
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1, add_3)
        return (view,)
