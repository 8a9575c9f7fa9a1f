class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[64, 4096]", arg1_1: "bf16[64, 4096]", arg2_1: "bf16[4096]", arg3_1: "bf16[4096]", arg4_1: "bf16[4096]"):
        # vllm-ascend AddRMSNormQuant (torchair-passes.md §9 pass (3); vllm-ascend issue 4239): quantize with
        # div_mode=False (x * scales) is quantize(x, reciprocal(scales)) (div_mode True), which rule (e) fuses.
        # Decode-sized (64 tokens x 4096): the fused kernel saves the y round trip, which pays for the reciprocal kernel.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[64, 4096]" = npu_add_rms_norm[0]
        getitem_2: "bf16[64, 4096]" = npu_add_rms_norm[2]
        npu_quantize: "i8[64, 4096]" = torch.ops.npu.npu_quantize.default(getitem, arg3_1, arg4_1, torch.qint8, -1, False)
        return (npu_quantize, getitem_2)
