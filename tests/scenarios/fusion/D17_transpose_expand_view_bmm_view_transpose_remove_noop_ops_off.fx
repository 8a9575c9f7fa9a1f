class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 128]", arg1_1: "f16[4, 128, 256]"):
        # Rule (d) `pattern2` run as the upstream test runs it (torchair-passes.md §3.4; §8.3 B11):
        # remove_noop_ops off, perm_x1 [1, 0, 2], output transpose written (1, 0).
        # Fused: npu_transpose_batchmatmul(x1, x2, perm_x1=[1, 0, 2]); K*B = 512 < 65536.
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        view: "f16[4, 2, 128]" = torch.ops.aten.view.default(expand, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        view_1: "f16[4, 128, 256]" = torch.ops.aten.view.default(expand_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(view, view_1)
        view_2: "f16[4, 2, 256]" = torch.ops.aten.view.default(bmm, [4, 2, 256])
        transpose_1: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(view_2, 1, 0)
        return (transpose_1,)
