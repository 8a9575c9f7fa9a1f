class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d) `pattern3` (torchair-passes.md §3.0; §8.3 B9): the B7 graph
        # (transpose -> expand -> bmm -> transpose) with the output transpose inside stream '2'.
        # The input transpose, expand and bmm run on the default stream, so no match is single-stream.
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
        transpose_1: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        scope_exit = torch.ops.air.scope_exit.default()
        return (transpose_1,)
