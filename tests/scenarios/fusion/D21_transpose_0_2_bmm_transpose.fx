class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[128, 2, 4]", arg1_1: "f16[4, 128, 128]"):
        # Rule (d), fallback to the generic `pattern` (torchair-passes.md §3.4 fallback; §8.3 B13 uses
        # x1 (512, 4, 64)): matmul(x1.transpose(0, 2), x2).transpose(0, 1). pattern3 is refused (the
        # input transpose swaps dims (0, 2)); `pattern` then fuses bmm -> transpose(0, 1) with perm_x1
        # [0, 1, 2], taking the non-contiguous transposed x1 as its first input.
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 2)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        expand_1: "f16[4, 128, 128]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 128])
        bmm: "f16[4, 2, 128]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose_1: "f16[2, 4, 128]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
