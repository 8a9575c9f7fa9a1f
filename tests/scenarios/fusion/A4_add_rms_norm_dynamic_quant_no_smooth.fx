class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[4, 64]", arg1_1: "bf16[4, 64]", arg2_1: "bf16[64]"):
        # Rule (a) without smooth scales: the quant normalizes to smooth_scales=None and the
        # fused op gets smooth_scale1=None (torchair-passes.md §3.1 notes; vllm-ascend norm_quant pattern (1), §9).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[4, 64]" = npu_add_rms_norm[0]
        getitem_2: "bf16[4, 64]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem)
        getitem_3: "i8[4, 64]" = npu_dynamic_quant[0]
        getitem_4: "f32[4]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4, getitem_2)
