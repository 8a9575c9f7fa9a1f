class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "f32[1, 1, 8, 16]", arg2_1: "f32[1, 1, 8, 16]"):
        # OLMo2's RoPE as torch 2.11's AOTAutograd traces transformers' apply_rotary_pos_emb:
        # bf16 q, fp32 cos and sin (the products promote to fp32), the sum cast back to q's
        # dtype. layout/half-times-float-is-upcast and layout/upcast-of-rotate-half make it
        # the fp32 chain on q's upcast, which is npu_rotary_mul.
        mul: "f32[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        slice_1: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(arg0_1, 3, 0, 8)
        slice_2: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(arg0_1, 3, 8, 9223372036854775807)
        neg: "bf16[2, 4, 8, 8]" = torch.ops.aten.neg.default(slice_2)
        cat: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([neg, slice_1], -1)
        mul_1: "f32[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(cat, arg2_1)
        add: "f32[2, 4, 8, 16]" = torch.ops.aten.add.Tensor(mul, mul_1)
        _to_copy: "bf16[2, 4, 8, 16]" = torch.ops.aten._to_copy.default(add, dtype = torch.bfloat16)
        return (_to_copy,)
