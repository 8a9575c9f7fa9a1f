class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 256]"):
        # The activation is also returned in bf16 (a second consumer beside the quantized
        # down projection): the fused op does not return it.
        npu_swiglu: "bf16[s0, 128]" = torch.ops.npu.npu_swiglu.default(arg0_1, -1)
        npu_dynamic_mx_quant = torch.ops.npu.npu_dynamic_mx_quant.default(npu_swiglu, dst_type = torch.float8_e4m3fn)
        getitem: "f8e4m3fn[s0, 128]" = npu_dynamic_mx_quant[0]
        getitem_1: "u8[s0, 2, 2]" = npu_dynamic_mx_quant[1]
        return (getitem, getitem_1, npu_swiglu)
