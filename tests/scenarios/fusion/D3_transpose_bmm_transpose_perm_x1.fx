class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 128]", arg1_1: "f16[4, 128, 256]"):
        # Rule (d) `pattern3` (torchair-passes.md §3.4; §8.3 B7 with smaller sizes):
        # matmul(x1.transpose(0, 1), x2).transpose(0, 1) -> transpose -> expand -> bmm -> transpose.
        # Fused: npu_transpose_batchmatmul(x1, x2, perm_x1=[1, 0, 2]); K*B = 512 < 65536.
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose_1: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
