class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]", arg3_1: "f16[3]", arg4_1: "f16[1, 2, 3]", arg5_1: "f16[1, 2, 3]"):
        # Streams (torchair-passes.md §3.0 stream check; §8.1 F6): rule (a) on the default stream and rule (c)
        # entirely inside stream '2'. Each match is single-stream, so both fuse.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 2, 3]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3: "i8[1, 2, 3]" = npu_dynamic_quant[0]
        getitem_4: "f32[1, 2]" = npu_dynamic_quant[1]
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['2', '3'])
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(arg4_1, arg5_1, arg2_1)
        getitem_5: "f16[1, 2, 3]" = npu_add_rms_norm_1[0]
        getitem_7: "f16[1, 2, 3]" = npu_add_rms_norm_1[2]
        view: "f16[2, 3]" = torch.ops.aten.view.default(getitem_5, [-1, 3])
        _to_copy: "f32[2, 3]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32)
        scope_exit = torch.ops.air.scope_exit.default()
        return (getitem_3, getitem_2, getitem_4, _to_copy, getitem_7)
