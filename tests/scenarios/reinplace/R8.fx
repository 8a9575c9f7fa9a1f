# R8 (multiple_mutations): f(x, out): sin(x, out); sin(out, out); sin(out, out); return out
# as AOTAutograd traces it (keep_inference_input_mutations: the final value is copied into `out`).
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]"):
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = arg0_1, _result_base_index = 0, _all_bases = [arg1_1]);  arg0_1 = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = getitem_1, _result_base_index = 0, _all_bases = [getitem_1]);  getitem_1 = None
        getitem_3: "f32[3]" = auto_functionalized_v2_1[1];  auto_functionalized_v2_1 = None
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = getitem_3, _result_base_index = 0, _all_bases = [getitem_3]);  getitem_3 = None
        getitem_5: "f32[3]" = auto_functionalized_v2_2[1];  auto_functionalized_v2_2 = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem_5);  arg1_1 = getitem_5 = copy_ = None
        return ()
