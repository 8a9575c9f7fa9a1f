class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f64[4, 2, 128]", arg1_1: "f64[4, 128, 128]"):
        # Negative for rule (d): float64 is not one of the fused op's dtypes
        # (bf16/fp16/fp32, torchair-passes.md §3.4 check 3 and §7.8).
        bmm: "f64[4, 2, 128]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f64[2, 4, 128]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose,)
