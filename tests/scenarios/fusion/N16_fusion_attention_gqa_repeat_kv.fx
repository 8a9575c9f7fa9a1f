class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "bf16[2, 2, 8, 16]", arg2_1: "bf16[2, 2, 8, 16]", arg3_1: "bf16[2, 1, 8, 8]"):
        # Grouped-query attention: 2 kv heads repeated for 4 query heads (HF repeat_kv:
        # unsqueeze, expand, clone, _unsafe_view as make_fx traces it), then the torch-level
        # eager attention.
        unsqueeze: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(arg1_1, 2)
        expand: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze, [2, 2, 2, 8, 16])
        clone: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format)
        _unsafe_view: "bf16[2, 4, 8, 16]" = torch.ops.aten._unsafe_view.default(clone, [2, 4, 8, 16])
        unsqueeze_1: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(arg2_1, 2)
        expand_1: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze_1, [2, 2, 2, 8, 16])
        clone_1: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand_1, memory_format = torch.contiguous_format)
        _unsafe_view_1: "bf16[2, 4, 8, 16]" = torch.ops.aten._unsafe_view.default(clone_1, [2, 4, 8, 16])
        transpose: "bf16[2, 4, 16, 8]" = torch.ops.aten.transpose.int(_unsafe_view, 2, 3)
        matmul: "bf16[2, 4, 8, 8]" = torch.ops.aten.matmul.default(arg0_1, transpose)
        mul: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(matmul, 0.25)
        add: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul, arg3_1)
        _to_copy: "f32[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        _softmax: "f32[2, 4, 8, 8]" = torch.ops.aten._softmax.default(_to_copy, -1, False)
        _to_copy_1: "bf16[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(_softmax, dtype = torch.bfloat16)
        matmul_1: "bf16[2, 4, 8, 16]" = torch.ops.aten.matmul.default(_to_copy_1, _unsafe_view_1)
        return (matmul_1,)
