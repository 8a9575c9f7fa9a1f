class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1, 8, 16, 32]", arg1_1: "bf16[1, 2, 16, 32]", arg2_1: "bf16[1, 2, 16, 32]"):
        # Unmasked grouped-query attention at the torch level: repeat_kv as
        # unsqueeze + expand + reshape (no clone traced), 4 query heads per kv head.
        unsqueeze: "bf16[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(arg1_1, 2)
        expand: "bf16[1, 2, 4, 16, 32]" = torch.ops.aten.expand.default(unsqueeze, [1, 2, 4, 16, 32])
        reshape: "bf16[1, 8, 16, 32]" = torch.ops.aten.reshape.default(expand, [1, 8, 16, 32])
        unsqueeze_1: "bf16[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(arg2_1, 2)
        expand_1: "bf16[1, 2, 4, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_1, [1, 2, 4, 16, 32])
        reshape_1: "bf16[1, 8, 16, 32]" = torch.ops.aten.reshape.default(expand_1, [1, 8, 16, 32])
        transpose: "bf16[1, 8, 32, 16]" = torch.ops.aten.transpose.int(reshape, 2, 3)
        matmul: "bf16[1, 8, 16, 16]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "bf16[1, 8, 16, 16]" = torch.ops.aten.mul.Tensor(matmul, 0.17677669529663687)
        _to_copy: "f32[1, 8, 16, 16]" = torch.ops.aten._to_copy.default(mul, dtype = torch.float32)
        _softmax: "f32[1, 8, 16, 16]" = torch.ops.aten._softmax.default(_to_copy, -1, False)
        _to_copy_1: "bf16[1, 8, 16, 16]" = torch.ops.aten._to_copy.default(_softmax, dtype = torch.bfloat16)
        matmul_1: "bf16[1, 8, 16, 32]" = torch.ops.aten.matmul.default(_to_copy_1, reshape_1)
        return (matmul_1,)
