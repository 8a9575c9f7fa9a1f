class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[1, 2, 3]", arg3_1: "f16[1, 2, 3]", arg4_1: "f16[1, 2, 3]", arg5_1: "f16[1, 2, 3]", arg6_1: "f16[3]", arg7_1: "f16[3]"):
        # TorchAir test_pattern_pass_for_aclgraph_with_epsilon (torchair-passes.md §8.1 F2), three sites:
        # #1 eps 1e-05, y -> dynamic_quant(smooth), xOut not consumed: rule (a) "no xOut" with epsilon.
        # #2 eps 1e-06 is the default, so the call carries three arguments; y1 feeds view(-1, 3) ->
        #    dynamic_quant(smooth) and a cast to float32 without a view: rule (c) no-view variant; the
        #    quant of the view stays unfused and reads the fused op's y.
        # #3 eps 1e-05, y3.flatten(0, 1) -> dynamic_quant() -> scale.view(-1, 1), xOut returned: rule (b).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg6_1, 1e-05)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg7_1)
        getitem_3: "i8[1, 2, 3]" = npu_dynamic_quant[0]
        getitem_4: "f32[1, 2]" = npu_dynamic_quant[1]
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg3_1, arg6_1)
        getitem_5: "f16[1, 2, 3]" = npu_add_rms_norm_1[0]
        getitem_7: "f16[1, 2, 3]" = npu_add_rms_norm_1[2]
        view: "f16[2, 3]" = torch.ops.aten.view.default(getitem_5, [-1, 3])
        npu_dynamic_quant_1 = torch.ops.npu.npu_dynamic_quant.default(view, smooth_scales = arg7_1)
        getitem_8: "i8[2, 3]" = npu_dynamic_quant_1[0]
        getitem_9: "f32[2]" = npu_dynamic_quant_1[1]
        _to_copy: "f32[1, 2, 3]" = torch.ops.aten._to_copy.default(getitem_5, dtype = torch.float32)
        npu_add_rms_norm_2 = torch.ops.npu.npu_add_rms_norm.default(arg4_1, arg5_1, arg6_1, 1e-05)
        getitem_10: "f16[1, 2, 3]" = npu_add_rms_norm_2[0]
        getitem_12: "f16[1, 2, 3]" = npu_add_rms_norm_2[2]
        view_2: "f16[2, 3]" = torch.ops.aten.view.default(getitem_10, [2, 3])
        npu_dynamic_quant_2 = torch.ops.npu.npu_dynamic_quant.default(view_2)
        getitem_13: "i8[2, 3]" = npu_dynamic_quant_2[0]
        getitem_14: "f32[2]" = npu_dynamic_quant_2[1]
        view_3: "f32[2, 1]" = torch.ops.aten.view.default(getitem_14, [-1, 1])
        return (getitem_3, getitem_4, _to_copy, getitem_7, getitem_8, getitem_9, getitem_12, getitem_13, view_3)
