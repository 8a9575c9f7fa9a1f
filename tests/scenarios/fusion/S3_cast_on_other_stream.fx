class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]"):
        # Negative for rule (c): add_rms_norm on the default stream, view + cast inside stream
        # '2' (torchair-passes.md §3.0 cross-stream check; §8.1 F7).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 2, 3]" = npu_add_rms_norm[2]
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['2', '3'])
        view: "f16[2, 3]" = torch.ops.aten.view.default(getitem, [-1, 3])
        _to_copy: "f32[2, 3]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32)
        scope_exit = torch.ops.air.scope_exit.default()
        return (_to_copy, getitem_2)
