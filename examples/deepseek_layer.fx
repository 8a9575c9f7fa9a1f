class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 7168]", arg2_1: "bf16[s0, 7168]", arg3_1: "bf16[7168]", arg4_1: "bf16[7168]", arg5_1: "bf16[7168]", arg6_1: "i8[7168, 2112]", arg7_1: "f32[2112]", arg8_1: "bf16[1536]", arg9_1: "i8[1536, 24576]", arg10_1: "f32[24576]", arg11_1: "bf16[512]", arg12_1: "bf16[128, 128, 512]", arg13_1: "bf16[s1, 128, 576]", arg14_1: "bf16[128, 512, 128]", arg15_1: "i8[16384, 7168]", arg16_1: "f32[7168]", arg17_1: "bf16[7168]", arg18_1: "f32[256, 7168]", arg19_1: "i8[7168, 4096]", arg20_1: "f32[4096]", arg21_1: "i8[2048, 7168]", arg22_1: "f32[7168]", arg23_1: "bf16[7168]", arg24_1: "bf16[7168]"):
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:612 in forward, code: hidden_states, residual = self.input_layernorm(hidden_states, residual)
        sym_size_int: "Sym(s0)" = torch.ops.aten.sym_size.int(arg1_1, 0)
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg1_1, arg2_1, arg3_1);  arg1_1 = arg2_1 = arg3_1 = None
        getitem: "bf16[s0, 7168]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 7168]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        # File: /vllm-ascend/vllm_ascend/quantization/w8a8.py:96 in apply, code: x = quant_per_tensor(x, layer.aclnn_input_scale, layer.aclnn_input_offset)
        npu_quantize: "i8[s0, 7168]" = torch.ops.npu.npu_quantize.default(getitem, arg4_1, arg5_1, torch.qint8, -1);  getitem = arg4_1 = arg5_1 = None
        # File: /vllm-ascend/vllm_ascend/quantization/w8a8.py:112 in apply, code: output = torch_npu.npu_quant_matmul(x, layer.weight, layer.deq_scale, output_dtype=torch.bfloat16)
        npu_quant_matmul: "bf16[s0, 2112]" = torch.ops.npu.npu_quant_matmul.default(npu_quantize, arg6_1, arg7_1, output_dtype = torch.bfloat16);  npu_quantize = arg6_1 = arg7_1 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:405 in forward, code: q_c, kv_c = qkv_lora.split([self.q_lora_rank, self.kv_lora_rank + self.qk_rope_head_dim], dim=-1)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(npu_quant_matmul, [1536, 576], -1);  npu_quant_matmul = None
        getitem_3: "bf16[s0, 1536]" = split_with_sizes[0]
        getitem_4: "bf16[s0, 576]" = split_with_sizes[1];  split_with_sizes = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:406 in forward, code: q_c = self.q_a_layernorm(q_c)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(getitem_3, arg8_1);  getitem_3 = arg8_1 = None
        getitem_5: "bf16[s0, 1536]" = npu_rms_norm[0];  npu_rms_norm = None
        # File: /vllm-ascend/vllm_ascend/quantization/w8a8_dynamic.py:201 in apply, code: x, pertoken_scale = torch_npu.npu_dynamic_quant(x)
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem_5);  getitem_5 = None
        getitem_7: "i8[s0, 1536]" = npu_dynamic_quant[0]
        getitem_8: "f32[s0]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        npu_quant_matmul_1: "bf16[s0, 24576]" = torch.ops.npu.npu_quant_matmul.default(getitem_7, arg9_1, arg10_1, pertoken_scale = getitem_8, output_dtype = torch.bfloat16);  getitem_7 = arg9_1 = arg10_1 = getitem_8 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:409 in forward, code: q = q.view(-1, self.num_heads, self.qk_head_dim)
        view: "bf16[s0, 128, 192]" = torch.ops.aten.view.default(npu_quant_matmul_1, [sym_size_int, 128, 192]);  npu_quant_matmul_1 = None
        split_with_sizes_1 = torch.ops.aten.split_with_sizes.default(view, [128, 64], -1);  view = None
        getitem_9: "bf16[s0, 128, 128]" = split_with_sizes_1[0]
        getitem_10: "bf16[s0, 128, 64]" = split_with_sizes_1[1];  split_with_sizes_1 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:415 in forward, code: kv_c, k_pe = kv_c.split([self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)
        split_with_sizes_2 = torch.ops.aten.split_with_sizes.default(getitem_4, [512, 64], -1);  getitem_4 = None
        getitem_11: "bf16[s0, 512]" = split_with_sizes_2[0]
        getitem_12: "bf16[s0, 64]" = split_with_sizes_2[1];  split_with_sizes_2 = None
        npu_rms_norm_1 = torch.ops.npu.npu_rms_norm.default(getitem_11, arg11_1);  getitem_11 = arg11_1 = None
        getitem_13: "bf16[s0, 512]" = npu_rms_norm_1[0];  npu_rms_norm_1 = None
        # File: /vllm-ascend/vllm_ascend/attention/mla_v1.py:530 in _q_proj_and_k_up_proj, code: ql_nope = torch.matmul(q_nope.transpose(0, 1), self.W_UK_T).transpose(0, 1)
        transpose: "bf16[128, s0, 128]" = torch.ops.aten.transpose.int(getitem_9, 0, 1);  getitem_9 = None
        expand: "bf16[128, s0, 128]" = torch.ops.aten.expand.default(transpose, [128, sym_size_int, 128]);  transpose = None
        bmm: "bf16[128, s0, 512]" = torch.ops.aten.bmm.default(expand, arg12_1);  expand = arg12_1 = None
        transpose_1: "bf16[s0, 128, 512]" = torch.ops.aten.transpose.int(bmm, 0, 1);  bmm = None
        # File: /vllm-ascend/vllm_ascend/attention/mla_v1.py:871 in _forward_decode, code: attn_output = torch_npu.npu_multi_head_latent_attention(ql_nope, q_pe, kv_c_normed, k_pe, kv_cache, ...)
        npu_multi_head_latent_attention: "bf16[128, s0, 512]" = torch.ops.npu.npu_multi_head_latent_attention.default(transpose_1, getitem_10, getitem_13, getitem_12, arg13_1, num_heads = 128, scale_value = 0.1352337788608801, kv_head_num = 1);  transpose_1 = getitem_10 = getitem_13 = getitem_12 = arg13_1 = None
        # File: /vllm-ascend/vllm_ascend/attention/mla_v1.py:640 in _v_up_proj, code: x = torch.matmul(x, self.W_UV).transpose(0, 1)
        expand_1: "bf16[128, s0, 512]" = torch.ops.aten.expand.default(npu_multi_head_latent_attention, [128, sym_size_int, 512]);  npu_multi_head_latent_attention = sym_size_int = None
        bmm_1: "bf16[128, s0, 128]" = torch.ops.aten.bmm.default(expand_1, arg14_1);  expand_1 = arg14_1 = None
        transpose_2: "bf16[s0, 128, 128]" = torch.ops.aten.transpose.int(bmm_1, 0, 1);  bmm_1 = None
        # File: /vllm-ascend/vllm_ascend/attention/mla_v1.py:641 in _v_up_proj, code: x = x.reshape(-1, self.num_heads * self.v_head_dim)
        clone: "bf16[s0, 128, 128]" = torch.ops.aten.clone.default(transpose_2, memory_format = torch.contiguous_format);  transpose_2 = None
        view_1: "bf16[s0, 16384]" = torch.ops.aten.view.default(clone, [arg0_1, 16384]);  clone = arg0_1 = None
        # File: /vllm-ascend/vllm_ascend/quantization/w8a8_dynamic.py:201 in apply, code: x, pertoken_scale = torch_npu.npu_dynamic_quant(x)
        npu_dynamic_quant_1 = torch.ops.npu.npu_dynamic_quant.default(view_1);  view_1 = None
        getitem_14: "i8[s0, 16384]" = npu_dynamic_quant_1[0]
        getitem_15: "f32[s0]" = npu_dynamic_quant_1[1];  npu_dynamic_quant_1 = None
        npu_quant_matmul_2: "bf16[s0, 7168]" = torch.ops.npu.npu_quant_matmul.default(getitem_14, arg15_1, arg16_1, pertoken_scale = getitem_15, output_dtype = torch.bfloat16);  getitem_14 = arg15_1 = arg16_1 = getitem_15 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:618 in forward, code: hidden_states, residual = self.post_attention_layernorm(hidden_states, residual)
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(npu_quant_matmul_2, getitem_2, arg17_1);  npu_quant_matmul_2 = getitem_2 = arg17_1 = None
        getitem_16: "bf16[s0, 7168]" = npu_add_rms_norm_1[0]
        getitem_18: "bf16[s0, 7168]" = npu_add_rms_norm_1[2];  npu_add_rms_norm_1 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:298 in forward, code: logits = F.linear(hidden_states.view(-1, h).to(torch.float32), self.weight)
        view_2: "bf16[s0, 7168]" = torch.ops.aten.view.default(getitem_16, [-1, 7168])
        _to_copy: "f32[s0, 7168]" = torch.ops.aten._to_copy.default(view_2, dtype = torch.float32);  view_2 = None
        t: "f32[7168, 256]" = torch.ops.aten.t.default(arg18_1);  arg18_1 = None
        mm: "f32[s0, 256]" = torch.ops.aten.mm.default(_to_copy, t);  _to_copy = t = None
        sigmoid: "f32[s0, 256]" = torch.ops.aten.sigmoid.default(mm);  mm = None
        _npu_dtype_cast: "bf16[s0, 256]" = torch.ops.npu._npu_dtype_cast.default(sigmoid, torch.bfloat16);  sigmoid = None
        # File: /vllm-ascend/vllm_ascend/quantization/w8a8_dynamic.py:201 in apply, code: x, pertoken_scale = torch_npu.npu_dynamic_quant(x)
        npu_dynamic_quant_2 = torch.ops.npu.npu_dynamic_quant.default(getitem_16);  getitem_16 = None
        getitem_19: "i8[s0, 7168]" = npu_dynamic_quant_2[0]
        getitem_20: "f32[s0]" = npu_dynamic_quant_2[1];  npu_dynamic_quant_2 = None
        npu_quant_matmul_3: "bf16[s0, 4096]" = torch.ops.npu.npu_quant_matmul.default(getitem_19, arg19_1, arg20_1, pertoken_scale = getitem_20, output_dtype = torch.bfloat16);  getitem_19 = arg19_1 = arg20_1 = getitem_20 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:176 in forward, code: x = torch_npu.npu_swiglu(gate_up)
        npu_swiglu: "bf16[s0, 2048]" = torch.ops.npu.npu_swiglu.default(npu_quant_matmul_3);  npu_quant_matmul_3 = None
        npu_dynamic_quant_3 = torch.ops.npu.npu_dynamic_quant.default(npu_swiglu);  npu_swiglu = None
        getitem_21: "i8[s0, 2048]" = npu_dynamic_quant_3[0]
        getitem_22: "f32[s0]" = npu_dynamic_quant_3[1];  npu_dynamic_quant_3 = None
        npu_quant_matmul_4: "bf16[s0, 7168]" = torch.ops.npu.npu_quant_matmul.default(getitem_21, arg21_1, arg22_1, pertoken_scale = getitem_22, output_dtype = torch.bfloat16);  getitem_21 = arg21_1 = arg22_1 = getitem_22 = None
        # File: /vllm-ascend/vllm_ascend/models/deepseek_v2.py:611 in forward, code: hidden_states, residual = self.input_layernorm(hidden_states, residual)
        npu_add_rms_norm_2 = torch.ops.npu.npu_add_rms_norm.default(npu_quant_matmul_4, getitem_18, arg23_1);  npu_quant_matmul_4 = getitem_18 = arg23_1 = None
        getitem_23: "bf16[s0, 7168]" = npu_add_rms_norm_2[0]
        getitem_25: "bf16[s0, 7168]" = npu_add_rms_norm_2[2];  npu_add_rms_norm_2 = None
        npu_dynamic_quant_4 = torch.ops.npu.npu_dynamic_quant.default(getitem_23, smooth_scales = arg24_1);  getitem_23 = arg24_1 = None
        getitem_26: "i8[s0, 7168]" = npu_dynamic_quant_4[0]
        getitem_27: "f32[s0]" = npu_dynamic_quant_4[1];  npu_dynamic_quant_4 = None
        return (getitem_26, getitem_27, getitem_25, _npu_dtype_cast)
