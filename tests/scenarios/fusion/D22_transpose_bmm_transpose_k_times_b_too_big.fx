class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 64, 1024]", arg1_1: "f16[64, 1024, 128]"):
        # Rule (d), fallback to the generic `pattern` (torchair-passes.md §3.4 check 2 and fallback;
        # §8.3 B14 uses K 1152, B 64): K * B = 1024 * 64 = 65536 is not below 65536, so pattern3
        # (perm_x1 [1, 0, 2]) is refused; K < 65536 and K, N are multiples of 128, so `pattern` fuses
        # bmm -> transpose(0, 1) with perm_x1 [0, 1, 2] on the transposed x1.
        transpose: "f16[64, 2, 1024]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[64, 2, 1024]" = torch.ops.aten.expand.default(transpose, [64, 2, 1024])
        expand_1: "f16[64, 1024, 128]" = torch.ops.aten.expand.default(arg1_1, [64, 1024, 128])
        bmm: "f16[64, 2, 128]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose_1: "f16[2, 64, 128]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
