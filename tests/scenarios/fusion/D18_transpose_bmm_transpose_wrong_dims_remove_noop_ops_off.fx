class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d) (torchair-passes.md §3.4 check 5; §8.3 B12): the `pattern2` graph with
        # remove_noop_ops off, but the output transpose swaps dims (0, 2).
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        view: "f16[4, 2, 128]" = torch.ops.aten.view.default(expand, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        view_1: "f16[4, 128, 256]" = torch.ops.aten.view.default(expand_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(view, view_1)
        view_2: "f16[4, 2, 256]" = torch.ops.aten.view.default(bmm, [4, 2, 256])
        transpose_1: "f16[256, 2, 4]" = torch.ops.aten.transpose.int(view_2, 0, 2)
        return (transpose_1,)
