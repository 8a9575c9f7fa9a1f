# R10 (multi_output_intermediate): out1, out2 = empty_like(x) twice; sin_cos(x, out1, out2); return out1, out2, x**2
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        empty_like_1: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin_cos.default, x = arg0_1, _out_sin_base_index = 0, _out_cos_base_index = 1, _all_bases = [empty_like, empty_like_1]);  empty_like = empty_like_1 = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1]
        getitem_2: "f32[3]" = auto_functionalized_v2[2];  auto_functionalized_v2 = None
        pow_1: "f32[3]" = torch.ops.aten.pow.Tensor_Scalar(arg0_1, 2);  arg0_1 = None
        return (getitem_1, getitem_2, pow_1)
