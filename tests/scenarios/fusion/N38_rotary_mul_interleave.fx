class GraphModule(torch.nn.Module):
    def forward(self, q: "bf16[2, 4, 8, 16]", k: "bf16[2, 1, 8, 16]", cos: "bf16[1, 1, 8, 8]", sin: "bf16[1, 1, 8, 8]"):
        # DeepSeek-V3's interleaved RoPE as torch 2.x AOTAutograd traces transformers'
        # apply_rotary_pos_emb_interleave: even and odd elements rotated, the result written
        # de-interleaved; for q and for the single-head k.
        slice_1: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(q, 3, 0, 9223372036854775807, 2)
        slice_2: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(q, 3, 1, 9223372036854775807, 2);  q = None
        slice_3: "bf16[2, 1, 8, 8]" = torch.ops.aten.slice.Tensor(k, 3, 0, 9223372036854775807, 2)
        slice_4: "bf16[2, 1, 8, 8]" = torch.ops.aten.slice.Tensor(k, 3, 1, 9223372036854775807, 2);  k = None
        mul: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_1, cos)
        mul_1: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_2, sin)
        sub: "bf16[2, 4, 8, 8]" = torch.ops.aten.sub.Tensor(mul, mul_1);  mul = mul_1 = None
        mul_2: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_2, cos);  slice_2 = None
        mul_3: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(slice_1, sin);  slice_1 = None
        add: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul_2, mul_3);  mul_2 = mul_3 = None
        cat: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([sub, add], -1);  sub = add = None
        mul_4: "bf16[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_3, cos)
        mul_5: "bf16[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_4, sin)
        sub_1: "bf16[2, 1, 8, 8]" = torch.ops.aten.sub.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
        mul_6: "bf16[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_4, cos);  slice_4 = cos = None
        mul_7: "bf16[2, 1, 8, 8]" = torch.ops.aten.mul.Tensor(slice_3, sin);  slice_3 = sin = None
        add_1: "bf16[2, 1, 8, 8]" = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None
        cat_1: "bf16[2, 1, 8, 16]" = torch.ops.aten.cat.default([sub_1, add_1], -1);  sub_1 = add_1 = None
        return (cat, cat_1)
