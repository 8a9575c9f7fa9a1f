class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 512, 4096]", arg1_1: "f16[4096]", arg2_1: "f16[1]", arg3_1: "i8[1]"):
        # A spelling variant: 3-D activations, npu_quantize with its default axis and
        # div_mode passed by keyword (one scale and offset, so the axis does not matter).
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(arg0_1, arg1_1, 1e-05)
        getitem: "f16[4, 512, 4096]" = npu_rms_norm[0]
        npu_quantize: "i8[4, 512, 4096]" = torch.ops.npu.npu_quantize.default(getitem, arg2_1, arg3_1, 1, div_mode = False)
        return (npu_quantize,)
