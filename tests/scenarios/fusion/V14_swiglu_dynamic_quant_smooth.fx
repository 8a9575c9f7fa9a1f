class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 256]", arg1_1: "bf16[128]"):
        # With smooth scales: not the fused kernel's quant (its quant_scale is not documented
        # as npu_dynamic_quant's smooth_scales).
        npu_swiglu: "bf16[s0, 128]" = torch.ops.npu.npu_swiglu.default(arg0_1, -1)
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(npu_swiglu, smooth_scales = arg1_1)
        getitem: "i8[s0, 128]" = npu_dynamic_quant[0]
        getitem_1: "f32[s0]" = npu_dynamic_quant[1]
        return (getitem, getitem_1)
