class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 128]", arg2_1: "bf16[s0, 128]", arg3_1: "bf16[128]", arg4_1: "bf16[128]"):
        # Rule (a) in bf16 with a symbolic token count, as in a decoder layer (torchair-passes.md §3.1;
        # deepseek-style input_layernorm + w8a8 smooth quant).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg1_1, arg2_1, arg3_1)
        getitem: "bf16[s0, 128]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 128]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg4_1)
        getitem_3: "i8[s0, 128]" = npu_dynamic_quant[0]
        getitem_4: "f32[s0]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2)
