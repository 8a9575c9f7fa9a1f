class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 3]", arg1_1: "f16[1, 2, 3]", arg2_1: "f16[3]", arg3_1: "f16[3]"):
        # Rule (a) "with xOut" (torchair-passes.md §3.1; §8.1 F1 add_rms_norm #1): y feeds only the smooth
        # dynamic quant, rstd is unused, xOut and both quant outputs are returned.
        # File: test_pattern_pass.py:20 in f, code: y, _, xOut = torch_npu.npu_add_rms_norm(x1, x2, gamma)
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1);  arg0_1 = arg1_1 = arg2_1 = None
        getitem: "f16[1, 2, 3]" = npu_add_rms_norm[0]
        getitem_2: "f16[1, 2, 3]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        # File: test_pattern_pass.py:21 in f, code: yOut, scale = torch_npu.npu_dynamic_quant(y, smooth_scales=smooth)
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1);  getitem = arg3_1 = None
        getitem_3: "i8[1, 2, 3]" = npu_dynamic_quant[0]
        getitem_4: "f32[1, 2]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        return (getitem_3, getitem_2, getitem_4)
