class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "bf16[2, 4, 8, 16]", arg2_1: "bf16[2, 4, 8, 16]", arg3_1: "bf16[2, 1, 8, 8]"):
        # The same attention as make_fx (torch 1.13) traces it: each 4-D matmul is a bmm
        # between operands flattened through expand, clone, _unsafe_view and _reshape_alias
        # (k^T with the transposed strides), and the fp32 cast names layout and device.
        transpose: "bf16[2, 4, 16, 8]" = torch.ops.aten.transpose.int(arg1_1, 2, 3)
        expand: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(arg0_1, [2, 4, 8, 16])
        clone: "bf16[2, 4, 8, 16]" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format)
        _unsafe_view: "bf16[8, 8, 16]" = torch.ops.aten._unsafe_view.default(clone, [8, 8, 16])
        expand_1: "bf16[2, 4, 16, 8]" = torch.ops.aten.expand.default(transpose, [2, 4, 16, 8])
        _reshape_alias: "bf16[8, 16, 8]" = torch.ops.aten._reshape_alias.default(expand_1, [8, 16, 8], [128, 1, 16])
        bmm: "bf16[8, 8, 8]" = torch.ops.aten.bmm.default(_unsafe_view, _reshape_alias)
        _unsafe_view_1: "bf16[2, 4, 8, 8]" = torch.ops.aten._unsafe_view.default(bmm, [2, 4, 8, 8])
        mul: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(_unsafe_view_1, 0.25)
        add: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul, arg3_1)
        _to_copy: "f32[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        _softmax: "f32[2, 4, 8, 8]" = torch.ops.aten._softmax.default(_to_copy, -1, False)
        _to_copy_1: "bf16[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(_softmax, dtype = torch.bfloat16)
        expand_2: "bf16[2, 4, 8, 8]" = torch.ops.aten.expand.default(_to_copy_1, [2, 4, 8, 8])
        _reshape_alias_1: "bf16[8, 8, 8]" = torch.ops.aten._reshape_alias.default(expand_2, [8, 8, 8], [64, 8, 1])
        expand_3: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(arg2_1, [2, 4, 8, 16])
        _reshape_alias_2: "bf16[8, 8, 16]" = torch.ops.aten._reshape_alias.default(expand_3, [8, 8, 16], [128, 16, 1])
        bmm_1: "bf16[8, 8, 16]" = torch.ops.aten.bmm.default(_reshape_alias_1, _reshape_alias_2)
        _unsafe_view_2: "bf16[2, 4, 8, 16]" = torch.ops.aten._unsafe_view.default(bmm_1, [2, 4, 8, 16])
        return (_unsafe_view_2,)
