# R14: R12 + `a + 1.0` inside npu_stream_switch('1').
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1)
        empty_like_1: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1)
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, empty_like, empty_like_1);  arg0_1 = empty_like = empty_like_1 = None
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1];  sin_cos_functional = None
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        add: "f32[3]" = torch.ops.aten.add.Tensor(getitem, 1.0)
        scope_exit = torch.ops.air.scope_exit.default()
        return (add, getitem_1)
