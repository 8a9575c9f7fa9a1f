class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[8, s0, 128]", arg2_1: "bf16[8, 128, 128]"):
        # Rule (d) on the aten.matmul spelling (3-D x 3-D matmul is bmm, layout rule) with a
        # symbolic M, as in MLA's q_nope @ W_UK (torchair-passes.md §3.4; examples/deepseek_layer.fx).
        matmul: "bf16[8, s0, 128]" = torch.ops.aten.matmul.default(arg1_1, arg2_1)
        transpose: "bf16[s0, 8, 128]" = torch.ops.aten.transpose.int(matmul, 0, 1)
        return (transpose,)
