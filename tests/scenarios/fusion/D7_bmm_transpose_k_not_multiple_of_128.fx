class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 120]", arg1_1: "f16[4, 120, 128]"):
        # Negative for rule (d): K = 120 is not a multiple of 128 (torchair-passes.md §3.4 check 3;
        # §8.3 B4 uses K = 511).
        expand: "f16[4, 2, 120]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 120])
        expand_1: "f16[4, 120, 128]" = torch.ops.aten.expand.default(arg1_1, [4, 120, 128])
        bmm: "f16[4, 2, 128]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose: "f16[2, 4, 128]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        return (transpose,)
