class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[64, 2048]", arg1_1: "bf16[64, 2048]", arg2_1: "bf16[2048]", arg3_1: "bf16[2048]"):
        # Pass-order starvation (vLLM PR #42411 style): two fusions overlap on the add.
        # t = x * 2.5 (a Python float); s = t + residual; rms_norm(s); dynamic_quant(y, smooth).
        # A first-come pipeline that runs MulsAddFusionPass first turns mul + add into vllm.muls_add,
        # and then npu_rms_norm and npu_dynamic_quant have no add_rms_norm left to fuse with:
        # 3 kernels. The cheaper choice keeps the mul and fuses add + rms_norm + dynamic_quant
        # (mindspore/add-rms-norm, then torchair/add-rms-norm-dynamic-quant): 2 kernels.
        # s is the new residual, returned as in a decoder layer.
        mul: "bf16[64, 2048]" = torch.ops.aten.mul.Tensor(arg0_1, 2.5)
        add: "bf16[64, 2048]" = torch.ops.aten.add.Tensor(mul, arg1_1)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, arg2_1, 1e-06)
        getitem: "bf16[64, 2048]" = npu_rms_norm[0]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_2: "i8[64, 2048]" = npu_dynamic_quant[0]
        getitem_3: "f32[64]" = npu_dynamic_quant[1]
        return (getitem_2, getitem_3, add)
