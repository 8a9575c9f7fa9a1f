class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d) in max-autotune (GE): TorchAir registers (d) only outside GE mode
        # (torchair-passes.md §3.0 mode exclusion; §8.1 F10, §8.3 B15). Same graph as D1.
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        return (transpose,)
