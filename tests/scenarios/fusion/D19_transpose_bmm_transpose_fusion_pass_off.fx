class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d) `pattern3` with pattern_fusion_pass off (torchair-passes.md §5; §8.3 B8).
        # Same graph as D3.
        transpose: "f16[4, 2, 128]" = torch.ops.aten.transpose.int(arg0_1, 0, 1)
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(transpose, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose_1: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose_1,)
