class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 1, 6144]", arg1_1: "f16[1, 1, 6144]", arg2_1: "f16[6144]"):
        # Negative for rule (c) (torchair-passes.md §3.0 stream check; §8.1 F9, npugraph_ex
        # test_pattern_pass_with_multistream_and_corelimit): add_rms_norm (epsilon 1e-05) on the
        # default stream; view(-1, h) and the cast to float32 under torch.npu.stream(s) with
        # limit_core_num(1, 2) nested inside it. The core-limit scope has no stream label of its own,
        # so its nodes stay on the enclosing stream: the match spans two streams. (The event
        # record/wait pair of the test has no FX op in eqfuse and is left out.)
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1, 1e-05)
        getitem: "f16[1, 1, 6144]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 1, 6144]" = npu_add_rms_norm[2]
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['s'])
        scope_enter_1 = torch.ops.air.scope_enter.default(['_op_aicore_num', '_op_vectorcore_num'], ['1', '2'])
        view: "f16[1, 6144]" = torch.ops.aten.view.default(getitem, [-1, 6144])
        _to_copy: "f32[1, 6144]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32)
        scope_exit = torch.ops.air.scope_exit.default()
        scope_exit_1 = torch.ops.air.scope_exit.default()
        return (_to_copy, getitem_2)
