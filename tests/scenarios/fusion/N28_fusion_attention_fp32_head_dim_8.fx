class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[1, 4, 8, 8]", arg1_1: "f32[1, 4, 8, 8]", arg2_1: "f32[1, 4, 8, 8]"):
        # Unmasked fp32 attention with head dim 8 (not a multiple of 16).
        transpose: "f32[1, 4, 8, 8]" = torch.ops.aten.transpose.int(arg1_1, 2, 3)
        matmul: "f32[1, 4, 8, 8]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "f32[1, 4, 8, 8]" = torch.ops.aten.mul.Tensor(matmul, 0.3535533905932738)
        _softmax: "f32[1, 4, 8, 8]" = torch.ops.aten._softmax.default(mul, -1, False)
        matmul_1: "f32[1, 4, 8, 8]" = torch.ops.aten.matmul.default(_softmax, arg2_1)
        return (matmul_1,)
