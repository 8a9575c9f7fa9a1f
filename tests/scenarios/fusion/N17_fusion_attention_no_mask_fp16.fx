class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 8, 16, 32]", arg1_1: "f16[1, 8, 16, 32]", arg2_1: "f16[1, 8, 16, 32]"):
        # Unmasked fp16 attention (an encoder, or one sequence without padding), the key
        # transposed with negative dims: npu_fusion_attention without pse or mask.
        transpose: "f16[1, 8, 32, 16]" = torch.ops.aten.transpose.int(arg1_1, -1, -2)
        matmul: "f16[1, 8, 16, 16]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "f16[1, 8, 16, 16]" = torch.ops.aten.mul.Tensor(matmul, 0.17677669529663687)
        _to_copy: "f32[1, 8, 16, 16]" = torch.ops.aten._to_copy.default(mul, dtype = torch.float32)
        _softmax: "f32[1, 8, 16, 16]" = torch.ops.aten._softmax.default(_to_copy, -1, False)
        _to_copy_1: "f16[1, 8, 16, 16]" = torch.ops.aten._to_copy.default(_softmax, dtype = torch.float16)
        matmul_1: "f16[1, 8, 16, 32]" = torch.ops.aten.matmul.default(_to_copy_1, arg2_1)
        return (matmul_1,)
