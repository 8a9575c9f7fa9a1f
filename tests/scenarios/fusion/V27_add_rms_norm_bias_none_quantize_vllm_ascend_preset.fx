class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[8, 1024]", arg1_1: "f16[8, 1024]", arg2_1: "f16[1024]", arg3_1: "f16[1024]", arg4_1: "f16[1024]", arg5_1: "f16[1024]"):
        # The bias is None (vllm-ascend #7811, #6620: the fusion was silently not applied
        # without a bias); static shapes, fp16, eps 1e-6.
        npu_add_rms_norm_bias = torch.ops._C_ascend.npu_add_rms_norm_bias.default(arg0_1, arg1_1, arg2_1, None, 1e-06)
        getitem: "f16[8, 1024]" = npu_add_rms_norm_bias[0]
        getitem_2: "f16[8, 1024]" = npu_add_rms_norm_bias[2]
        quantize: "i8[8, 1024]" = torch.ops.vllm.quantize.default(getitem, arg3_1, arg4_1, arg5_1)
        return (quantize, getitem_2)
