class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[s0, 128]", arg1_1: "f16[128]", arg2_1: "f16[128]", arg3_1: "f16[1]", arg4_1: "i8[1]"):
        # MindSpore's RmsNormAddQuant: a bias added after npu_rms_norm, then the quantize:
        # the bias becomes npu_rms_norm_quant's beta.
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(arg0_1, arg1_1, 1e-05)
        getitem: "f16[s0, 128]" = npu_rms_norm[0]
        add: "f16[s0, 128]" = torch.ops.aten.add.Tensor(getitem, arg2_1)
        npu_quantize: "i8[s0, 128]" = torch.ops.npu.npu_quantize.default(add, arg3_1, arg4_1, 1, -1, False)
        return (npu_quantize,)
