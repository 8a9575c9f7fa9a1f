class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 4, 8, 16]", arg1_1: "bf16[2, 2, 8, 16]", arg2_1: "bf16[2, 2, 8, 16]", arg3_1: "bf16[2, 4, 8, 8]"):
        # npu_fusion_attention_v2 on kv heads tiled with cat ([k0, k1, k0, k1]) rather than
        # repeated per group ([k0, k0, k1, k1]): query head h reads kv head h % 2, not the
        # kernel's h // 2, so the cats stay.
        cat: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([arg1_1, arg1_1], 1)
        cat_1: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([arg2_1, arg2_1], 1)
        npu_fusion_attention_v2 = torch.ops.npu.npu_fusion_attention_v2.default(arg0_1, cat, cat_1, 4, 'BNSD', pse = arg3_1, scale = 0.25, pse_type = 0)
        getitem: "bf16[2, 4, 8, 16]" = npu_fusion_attention_v2[0]
        return (getitem,)
