class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 120]", arg1_1: "f16[4, 120, 128]"):
        # Negative for rule (d) `pattern3` (torchair-passes.md §3.4 check 3; §8.3 B10 uses K = 511):
        # K = 120 is not a multiple of 128, so neither pattern3 nor the generic `pattern` fuses.
        transpose: "f16[4, 2, 120]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 120]" = torch.ops.aten.expand.default(transpose, [4, 2, 120])
        expand_1: "f16[4, 120, 128]" = torch.ops.aten.expand.default(arg1_1, [4, 120, 128])
        bmm: "f16[4, 2, 128]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose_1: "f16[2, 4, 128]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
