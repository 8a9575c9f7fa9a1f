class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 256]"):
        # A quantized MLP's activation (vllm-ascend w8a8_dynamic): npu_swiglu, then the
        # per-token int8 quant of its result for the down projection.
        npu_swiglu: "bf16[s0, 128]" = torch.ops.npu.npu_swiglu.default(arg0_1, -1)
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(npu_swiglu)
        getitem: "i8[s0, 128]" = npu_dynamic_quant[0]
        getitem_1: "f32[s0]" = npu_dynamic_quant[1]
        return (getitem, getitem_1)
