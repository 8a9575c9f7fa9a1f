class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 96]"):
        # Negative for rule (d): N = 96 is not a multiple of 128 (torchair-passes.md §3.4 check 3: shape[2]
        # of both bmm inputs).
        bmm: "f16[4, 2, 96]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f16[2, 4, 96]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose,)
