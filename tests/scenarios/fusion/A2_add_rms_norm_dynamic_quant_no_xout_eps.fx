class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]", arg3_1: "f16[3]"):
        # Rule (a) "no xOut" with epsilon (torchair-passes.md §3.1; §8.1 F2 add_rms_norm #1): neither xOut
        # nor rstd is consumed; epsilon 1e-05 differs from the default and is kept.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1, 1e-05)
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1)
        getitem_3: "i8[1, 2, 3]" = npu_dynamic_quant[0]
        getitem_4: "f32[1, 2]" = npu_dynamic_quant[1]
        return (getitem_3, getitem_4)
