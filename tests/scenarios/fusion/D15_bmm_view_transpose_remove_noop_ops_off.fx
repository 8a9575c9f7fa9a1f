class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Rule (d) `pattern1` run as the upstream test runs it (torchair-passes.md §3.4; §8.3 B5):
        # remove_noop_ops off, so matmul's same-shape views stay in the graph and the noop rules
        # are off too: bmm -> view (no-op) -> transpose(0, 1) still fuses.
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        view: "f16[4, 2, 128]" = torch.ops.aten.view.default(expand, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        view_1: "f16[4, 128, 256]" = torch.ops.aten.view.default(expand_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(view, view_1)
        view_2: "f16[4, 2, 256]" = torch.ops.aten.view.default(bmm, [4, 2, 256])
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(view_2, 0, 1)
        return (transpose,)
