class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "bf16[2, 4, 8, 16]", arg2_1: "bf16[2, 4, 8, 16]", arg3_1: "bf16[2, 1, 8, 8]"):
        # HF eager_attention_forward at the torch level (TorchDynamo's aten graph keeps
        # torch.matmul): q @ k^T * scale + causal mask, fp32 softmax, cast back, @ v.
        transpose: "bf16[2, 4, 16, 8]" = torch.ops.aten.transpose.int(arg1_1, 2, 3)
        matmul: "bf16[2, 4, 8, 8]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(matmul, 0.25)
        add: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul, arg3_1)
        _to_copy: "f32[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        _softmax: "f32[2, 4, 8, 8]" = torch.ops.aten._softmax.default(_to_copy, -1, False)
        _to_copy_1: "bf16[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(_softmax, dtype = torch.bfloat16)
        matmul_1: "bf16[2, 4, 8, 16]" = torch.ops.aten.matmul.default(_to_copy_1, arg2_1)
        return (matmul_1,)
