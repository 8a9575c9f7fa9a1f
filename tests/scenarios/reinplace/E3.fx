# E3: x3 = x2 - sin on the default stream; stream 'o': sin_cos_inplace(x3, cos, sin); cos * cos
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        sub: "f32[3]" = torch.ops.aten.sub.Tensor(arg0_1, 1)
        sub_1: "f32[3]" = torch.ops.aten.sub.Tensor(sub, arg2_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['o'])
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(sub_1, arg1_1, arg2_1)
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        mul: "f32[3]" = torch.ops.aten.mul.Tensor(getitem, getitem)
        scope_exit = torch.ops.air.scope_exit.default()
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem)
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_1)
        return (mul,)
