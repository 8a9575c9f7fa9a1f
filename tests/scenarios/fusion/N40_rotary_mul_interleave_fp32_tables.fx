class GraphModule(torch.nn.Module):
    def forward(self, q: "bf16[2, 4, 8, 16]", k: "bf16[2, 1, 8, 16]", cos: "f32[1, 1, 8, 8]", sin: "f32[1, 1, 8, 8]"):
        # The interleaved RoPE with fp32 cos and sin and bf16 q, k: the products promote to
        # fp32, and npu_rotary_mul takes cos and sin of q's dtype.
        slice_1: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(q, 3, 0, 9223372036854775807, 2)
        slice_2: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(q, 3, 1, 9223372036854775807, 2);  q = None
        slice_3: "bf16[2, 1, 8, 8]" = torch.ops.aten.slice.Tensor(k, 3, 0, 9223372036854775807, 2)
        slice_4: "bf16[2, 1, 8, 8]" = torch.ops.aten.slice.Tensor(k, 3, 1, 9223372036854775807, 2);  k = None
        mul: "f32[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_1, cos)
        mul_1: "f32[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_2, sin)
        sub: "f32[2, 4, 8, 8]" = torch.ops.aten.sub.Tensor(mul, mul_1);  mul = mul_1 = None
        mul_2: "f32[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_2, cos);  slice_2 = None
        mul_3: "f32[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_1, sin);  slice_1 = None
        add: "f32[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul_2, mul_3);  mul_2 = mul_3 = None
        cat: "f32[2, 4, 8, 16]" = torch.ops.aten.cat.default([sub, add], -1);  sub = add = None
        mul_4: "f32[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_3, cos)
        mul_5: "f32[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_4, sin)
        sub_1: "f32[2, 1, 8, 8]" = torch.ops.aten.sub.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
        mul_6: "f32[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_4, cos);  slice_4 = cos = None
        mul_7: "f32[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_3, sin);  slice_3 = sin = None
        add_1: "f32[2, 1, 8, 8]" = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None
        cat_1: "f32[2, 1, 8, 16]" = torch.ops.aten.cat.default([sub_1, add_1], -1);  sub_1 = add_1 = None
        return (cat, cat_1)
