class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]", arg3_1: "f16[3]"):
        # Negative for rule (a): add_rms_norm on the default stream, the dynamic quant inside
        # stream '2' (torchair-passes.md §3.0 cross-stream check; §8.1 F8).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 2, 3]" = npu_add_rms_norm[2]
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['2', '3'])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3: "i8[1, 2, 3]" = npu_dynamic_quant[0]
        getitem_4: "f32[1, 2]" = npu_dynamic_quant[1]
        scope_exit = torch.ops.air.scope_exit.default()
        return (getitem_3, getitem_2, getitem_4)
