class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Negative for rule (d): transpose(-1, -2) swaps the last two dims. TorchAir's check
        # (both dims <= 1) wrongly accepts negative dims; canonicalized dims are {1, 2}, not
        # {0, 1} (torchair-passes.md §3.4 check 5 quirk, §11.3).
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f16[4, 256, 2]" = torch.ops.aten.transpose.int(bmm, -1, -2)
        return (transpose,)
