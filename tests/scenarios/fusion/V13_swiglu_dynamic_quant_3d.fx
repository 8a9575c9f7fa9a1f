class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 8, 256]"):
        # The same on a 3-D [batch, seq, 2H] activation: torch_npu documents a 2-D x.
        npu_swiglu: "f16[2, 8, 128]" = torch.ops.npu.npu_swiglu.default(arg0_1, -1)
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(npu_swiglu)
        getitem: "i8[2, 8, 128]" = npu_dynamic_quant[0]
        getitem_1: "f32[2, 8]" = npu_dynamic_quant[1]
        return (getitem, getitem_1)
