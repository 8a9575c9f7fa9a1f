class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 64]", arg1_1: "bf16[2, 64]", arg2_1: "bf16[64]", arg3_1: "bf16[64]"):
        # Negative for rule (a): the quant packs int4 (dst_type quint4x2 = 16). TorchAir would
        # match (extra kwargs are ignored) and silently produce int8; the safe rule requires
        # dst_type absent or int8 (torchair-passes.md §3.1 latent gaps, §11.3).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[2, 64]" = npu_add_rms_norm[0]
        getitem_2: "bf16[2, 64]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1, dst_type = 16)
        getitem_3: "i32[2, 8]" = npu_dynamic_quant[0]
        getitem_4: "f32[2]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2)
