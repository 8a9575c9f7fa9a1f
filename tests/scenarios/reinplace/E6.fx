# E6: E5 + `cos + 1` returned afterwards on the default stream.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        mul: "f32[3]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['o'])
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(mul, arg1_1, arg2_1)
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        add: "f32[3]" = torch.ops.aten.add.Tensor(getitem, getitem)
        sqrt: "f32[3]" = torch.ops.aten.sqrt.default(add)
        scope_exit = torch.ops.air.scope_exit.default()
        add_1: "f32[3]" = torch.ops.aten.add.Tensor(getitem, 1)
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1, mul)
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem)
        copy__2: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_1)
        return (sqrt, add_1)
