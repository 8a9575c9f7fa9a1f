# vllm-ascend issue 4239 graph BEFORE the AddRMSNorm+Quant fusion pass (tests/data/fx-dumps/vllm-ascend-issue-4239_1.txt),
# typed with input_types.txt and printed by 'eqfuse print --input-types input_types.txt'.
# Regenerate after changing input_types.txt (tests/rewrites/vllm_pair_test.cpp checks they agree).
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 32, 128]", arg1_1: "Sym(s0)", arg2_1: "bf16[4096]", arg3_1: "bf16[4096]", arg4_1: "i8[4096, 4096]", arg5_1: "f32[4096]", arg6_1: "i32[4096]", arg7_1: "bf16[s0, 4096]", arg8_1: "bf16[4096]", arg9_1: "bf16[4096]", arg10_1: "bf16[4096]", arg11_1: "i8[4096, 24576]", arg12_1: "f32[24576]", arg13_1: "i32[24576]", arg14_1: "bf16[4096, 12288]", arg15_1: "bf16[4096]", arg16_1: "bf16[4096]", arg17_1: "bf16[4096]", arg18_1: "i8[4096, 6144]", arg19_1: "f32[6144]", arg20_1: "i32[6144]", arg21_1: "bf16[128]", arg22_1: "bf16[128]", arg23_1: "i64[s0]", arg24_1: "bf16[40960, 128]", arg25_1: "i32[s0]"):
        slice_1: "bf16[s0, 32, 128]" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 9223372036854775807)
        slice_2: "bf16[s0, 32, 128]" = torch.ops.aten.slice.Tensor(slice_1, 2, 0, 9223372036854775807);  slice_1 = None
        slice_3: "bf16[s0, 32, 128]" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 9223372036854775807)
        slice_4: "bf16[s0, 32, 128]" = torch.ops.aten.slice.Tensor(slice_3, 2, 0, 9223372036854775807);  slice_3 = None
        copy: "bf16[s0, 32, 128]" = torch.ops.aten.copy.default(slice_4, slice_2);  slice_4 = slice_2 = None
        slice_5: "bf16[s0, 32, 128]" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 9223372036854775807)
        slice_scatter: "bf16[s0, 32, 128]" = torch.ops.aten.slice_scatter.default(slice_5, copy, 2, 0, 9223372036854775807);  slice_5 = copy = None
        slice_scatter_1: "bf16[s0, 32, 128]" = torch.ops.aten.slice_scatter.default(arg0_1, slice_scatter, 1, 0, 9223372036854775807);  arg0_1 = slice_scatter = None
        view_2: "bf16[s0, 4096]" = torch.ops.aten.view.default(slice_scatter_1, [-1, 4096])
        npu_quantize: "i8[s0, 4096]" = torch.ops.npu.npu_quantize.default(view_2, arg2_1, arg3_1, torch.qint8, -1, False);  view_2 = arg2_1 = arg3_1 = None
        npu_quant_matmul: "bf16[s0, 4096]" = torch.ops.npu.npu_quant_matmul.default(npu_quantize, arg4_1, arg5_1, bias = arg6_1, output_dtype = torch.bfloat16);  npu_quantize = arg4_1 = arg5_1 = arg6_1 = None
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(npu_quant_matmul, arg7_1, arg8_1);  npu_quant_matmul = arg7_1 = arg8_1 = None
        getitem: "bf16[s0, 4096]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 4096]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        npu_quantize_1: "i8[s0, 4096]" = torch.ops.npu.npu_quantize.default(getitem, arg9_1, arg10_1, torch.qint8, -1, False);  getitem = arg9_1 = arg10_1 = None
        npu_quant_matmul_1: "bf16[s0, 24576]" = torch.ops.npu.npu_quant_matmul.default(npu_quantize_1, arg11_1, arg12_1, bias = arg13_1, output_dtype = torch.bfloat16);  npu_quantize_1 = arg11_1 = arg12_1 = arg13_1 = None
        npu_swiglu: "bf16[s0, 12288]" = torch.ops.npu.npu_swiglu.default(npu_quant_matmul_1);  npu_quant_matmul_1 = None
        t: "bf16[12288, 4096]" = torch.ops.aten.t.default(arg14_1);  arg14_1 = None
        mm: "bf16[s0, 4096]" = torch.ops.aten.mm.default(npu_swiglu, t);  npu_swiglu = t = None
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(mm, getitem_2, arg15_1);  mm = getitem_2 = arg15_1 = None
        getitem_3: "bf16[s0, 4096]" = npu_add_rms_norm_1[0]
        getitem_5: "bf16[s0, 4096]" = npu_add_rms_norm_1[2];  npu_add_rms_norm_1 = None
        npu_quantize_2: "i8[s0, 4096]" = torch.ops.npu.npu_quantize.default(getitem_3, arg16_1, arg17_1, torch.qint8, -1, False);  getitem_3 = arg16_1 = arg17_1 = None
        npu_quant_matmul_2: "bf16[s0, 6144]" = torch.ops.npu.npu_quant_matmul.default(npu_quantize_2, arg18_1, arg19_1, bias = arg20_1, output_dtype = torch.bfloat16);  npu_quantize_2 = arg18_1 = arg19_1 = arg20_1 = None
        split_with_sizes = torch.ops.aten.split_with_sizes.default(npu_quant_matmul_2, [4096, 1024, 1024], -1);  npu_quant_matmul_2 = None
        getitem_6: "bf16[s0, 4096]" = split_with_sizes[0]
        getitem_7: "bf16[s0, 1024]" = split_with_sizes[1]
        getitem_8: "bf16[s0, 1024]" = split_with_sizes[2];  split_with_sizes = None
        view_3: "bf16[s0, 32, 128]" = torch.ops.aten.view.default(getitem_6, [arg1_1, 32, 128]);  getitem_6 = None
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(view_3, arg21_1);  view_3 = arg21_1 = None
        getitem_9: "bf16[s0, 32, 128]" = npu_rms_norm[0];  npu_rms_norm = None
        view_4: "bf16[s0, 4096]" = torch.ops.aten.view.default(getitem_9, [arg1_1, 4096]);  getitem_9 = None
        view_5: "bf16[s0, 8, 128]" = torch.ops.aten.view.default(getitem_7, [arg1_1, 8, 128]);  getitem_7 = None
        npu_rms_norm_1 = torch.ops.npu.npu_rms_norm.default(view_5, arg22_1);  view_5 = arg22_1 = None
        getitem_11: "bf16[s0, 8, 128]" = npu_rms_norm_1[0];  npu_rms_norm_1 = None
        view_6: "bf16[s0, 1024]" = torch.ops.aten.view.default(getitem_11, [arg1_1, 1024]);  getitem_11 = None
        view_7: "bf16[1, s0, 32, 128]" = torch.ops.aten.view.default(view_4, [1, arg1_1, -1, 128]);  view_4 = None
        view_8: "bf16[1, s0, 8, 128]" = torch.ops.aten.view.default(view_6, [1, arg1_1, -1, 128]);  view_6 = None
        view_9: "bf16[s0, 4096]" = torch.ops.aten.view.default(view_7, [arg1_1, 4096]);  view_7 = None
        view_10: "bf16[s0, 1024]" = torch.ops.aten.view.default(view_8, [arg1_1, 1024]);  view_8 = None
        zeros: "bf16[s0, 4096]" = torch.ops.aten.zeros.default([arg1_1, 4096], dtype = torch.bfloat16, device = device(type='npu', index=0), pin_memory = False);  arg1_1 = None
        detach: "bf16[s0, 4096]" = torch.ops.aten.detach.default(zeros);  zeros = None
        view_11: "bf16[s0, 32, 128]" = torch.ops.aten.view.default(view_9, [-1, 32, 128]);  view_9 = None
        view_12: "bf16[s0, 32, 128]" = torch.ops.aten.view.default(detach, [-1, 32, 128]);  detach = None
        view_13: "bf16[s0, 8, 128]" = torch.ops.aten.view.default(view_10, [-1, 8, 128]);  view_10 = None
        view_14: "bf16[s0, 8, 128]" = torch.ops.aten.view.default(getitem_8, [-1, 8, 128]);  getitem_8 = None
        return (slice_scatter_1, view_11, view_13, view_14, view_12, getitem_5)
