class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 4, s0, 32]", arg1_1: "f32[2, 4, s0, 32]", arg2_1: "f32[2, 4, s0, 32]"):
        # Unmasked fp32 attention over a symbolic sequence length.
        transpose: "f32[2, 4, 32, s0]" = torch.ops.aten.transpose.int(arg1_1, -2, -1)
        matmul: "f32[2, 4, s0, s0]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "f32[2, 4, s0, s0]" = torch.ops.aten.mul.Tensor(matmul, 0.17677669529663687)
        _softmax: "f32[2, 4, s0, s0]" = torch.ops.aten._softmax.default(mul, -1, False)
        matmul_1: "f32[2, 4, s0, 32]" = torch.ops.aten.matmul.default(_softmax, arg2_1)
        return (matmul_1,)
