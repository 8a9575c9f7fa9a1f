# E2: x2 = x - 1; stream 'o': x3 = x2 - sin; sin_cos_inplace(x3, cos, sin); cos + cos; sqrt
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        sub: "f32[3]" = torch.ops.aten.sub.Tensor(arg0_1, 1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['o'])
        sub_1: "f32[3]" = torch.ops.aten.sub.Tensor(sub, arg2_1)
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(sub_1, arg1_1, arg2_1)
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        add: "f32[3]" = torch.ops.aten.add.Tensor(getitem, getitem)
        sqrt: "f32[3]" = torch.ops.aten.sqrt.default(add)
        scope_exit = torch.ops.air.scope_exit.default()
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem)
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_1)
        return (sqrt,)
