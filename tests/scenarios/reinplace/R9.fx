# R9 (multiple_intermediate): out = empty_like(x); sin(x, out); sin(out, out); sin(out, out); return out
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = arg0_1, _result_base_index = 0, _all_bases = [empty_like]);  arg0_1 = empty_like = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = getitem_1, _result_base_index = 0, _all_bases = [getitem_1]);  getitem_1 = None
        getitem_3: "f32[3]" = auto_functionalized_v2_1[1];  auto_functionalized_v2_1 = None
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = getitem_3, _result_base_index = 0, _all_bases = [getitem_3]);  getitem_3 = None
        getitem_5: "f32[3]" = auto_functionalized_v2_2[1];  auto_functionalized_v2_2 = None
        return (getitem_5,)
