class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d): the matmul on the default stream, its transpose inside stream
        # '2' (torchair-passes.md §3.0; §8.3 B3).
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        scope_exit = torch.ops.air.scope_exit.default()
        return (transpose,)
