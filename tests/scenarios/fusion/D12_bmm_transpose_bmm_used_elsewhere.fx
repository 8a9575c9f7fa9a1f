class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d): the bmm result is also returned untransposed (TorchAir: every
        # interior node exactly one user). The fused op would recompute the matmul.
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose, bmm)
