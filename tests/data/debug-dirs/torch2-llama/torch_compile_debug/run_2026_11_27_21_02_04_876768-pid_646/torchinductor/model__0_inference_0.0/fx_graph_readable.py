class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[2, 8]", arg1_1: "bf16[128, 64]", arg2_1: "f32[8]", arg3_1: "bf16[64]", arg4_1: "bf16[64, 64]", arg5_1: "bf16[32, 64]", arg6_1: "bf16[32, 64]", arg7_1: "bf16[64, 64]", arg8_1: "bf16[64]", arg9_1: "bf16[128, 64]", arg10_1: "bf16[128, 64]", arg11_1: "bf16[64, 128]", arg12_1: "bf16[64]", arg13_1: "bf16[64, 64]", arg14_1: "bf16[32, 64]", arg15_1: "bf16[32, 64]", arg16_1: "bf16[64, 64]", arg17_1: "bf16[64]", arg18_1: "bf16[128, 64]", arg19_1: "bf16[128, 64]", arg20_1: "bf16[64, 128]", arg21_1: "bf16[64]", arg22_1: "bf16[128, 64]"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:381 in forward, code: inputs_embeds: torch.Tensor = self.embed_tokens(input_ids)
        embedding: "bf16[2, 8, 64]" = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:388 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        iota: "i64[8]" = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add: "i64[8]" = torch.ops.aten.add.Tensor(iota, 0);  iota = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:389 in forward, code: position_ids = position_ids.unsqueeze(0)
        unsqueeze: "i64[1, 8]" = torch.ops.aten.unsqueeze.default(add, 0);  add = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:859 in _preprocess_mask_arguments, code: position_ids = position_ids.expand(batch_size, -1)
        expand: "i64[2, 8]" = torch.ops.aten.expand.default(unsqueeze, [2, -1])

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:750 in find_packed_sequence_indices, code: first_dummy_value = position_ids[:, :1] - 1  # We just need the diff on this first value to be 1
        slice_1: "i64[2, 1]" = torch.ops.aten.slice.Tensor(expand, 1, 0, 1)
        sub: "i64[2, 1]" = torch.ops.aten.sub.Tensor(slice_1, 1);  slice_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:751 in find_packed_sequence_indices, code: position_diff = torch.diff(position_ids, prepend=first_dummy_value, dim=-1)
        cat: "i64[2, 9]" = torch.ops.aten.cat.default([sub, expand], -1);  sub = expand = None
        slice_2: "i64[2, 8]" = torch.ops.aten.slice.Tensor(cat, -1, 0, 8)
        slice_3: "i64[2, 8]" = torch.ops.aten.slice.Tensor(cat, -1, 1, 9);  cat = None
        sub_1: "i64[2, 8]" = torch.ops.aten.sub.Tensor(slice_3, slice_2);  slice_3 = slice_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:752 in find_packed_sequence_indices, code: packed_sequence_mask = (position_diff != 1).cumsum(-1)
        ne: "b8[2, 8]" = torch.ops.aten.ne.Scalar(sub_1, 1);  sub_1 = None
        cumsum: "i64[2, 8]" = torch.ops.aten.cumsum.default(ne, -1);  ne = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        iota_1: "i64[2]" = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        iota_3: "i64[8]" = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add_1: "i64[8]" = torch.ops.aten.add.Tensor(iota_3, 0);  iota_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        iota_4: "i64[8]" = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add_2: "i64[8]" = torch.ops.aten.add.Tensor(iota_4, 0);  iota_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        unsqueeze_1: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(iota_1, 1);  iota_1 = None
        unsqueeze_2: "i64[2, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 2);  unsqueeze_1 = None
        unsqueeze_3: "i64[2, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_4: "i64[1, 8]" = torch.ops.aten.unsqueeze.default(add_1, 0);  add_1 = None
        unsqueeze_5: "i64[1, 1, 8]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 3);  unsqueeze_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_7: "i64[1, 8]" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_8: "i64[1, 1, 8]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 1);  unsqueeze_7 = None
        unsqueeze_9: "i64[1, 1, 1, 8]" = torch.ops.aten.unsqueeze.default(unsqueeze_8, 2);  unsqueeze_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:55 in and_mask, code: result = q_idx.new_ones((), dtype=torch.bool)
        full_default: "b8[]" = torch.ops.aten.full.default([], True, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'), pin_memory = False)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:81 in causal_mask_function, code: return kv_idx <= q_idx
        le: "b8[1, 1, 8, 8]" = torch.ops.aten.le.Tensor(unsqueeze_9, unsqueeze_6)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and: "b8[1, 1, 8, 8]" = torch.ops.aten.bitwise_and.Tensor(full_default, le);  full_default = le = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:189 in inner_mask, code: return packed_sequence_mask[batch_idx, q_idx] == packed_sequence_mask[batch_idx, kv_idx]
        index: "i64[2, 1, 8, 1]" = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_6]);  unsqueeze_6 = None
        index_1: "i64[2, 1, 1, 8]" = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_9]);  cumsum = unsqueeze_3 = unsqueeze_9 = None
        eq: "b8[2, 1, 8, 8]" = torch.ops.aten.eq.Tensor(index, index_1);  index = index_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and_1: "b8[2, 1, 8, 8]" = torch.ops.aten.bitwise_and.Tensor(bitwise_and, eq);  bitwise_and = eq = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand_1: "b8[2, 1, 8, 8]" = torch.ops.aten.expand.default(bitwise_and_1, [2, -1, 8, 8]);  bitwise_and_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        _tensor_constant0: "bf16[]" = self._tensor_constant0;  _tensor_constant0 = None
        full_default_1: "bf16[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        full_default_2: "bf16[]" = torch.ops.aten.full.default([], -3.3895313892515355e+38, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where: "bf16[2, 1, 8, 8]" = torch.ops.aten.where.self(expand_1, full_default_1, full_default_2);  expand_1 = full_default_1 = full_default_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:115 in forward, code: self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1).to(dtype=torch.float, device=x.device)
        unsqueeze_10: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(arg2_1, 0);  arg2_1 = None
        unsqueeze_11: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_10, 2);  unsqueeze_10 = None
        expand_2: "f32[1, 8, 1]" = torch.ops.aten.expand.default(unsqueeze_11, [1, -1, 1]);  unsqueeze_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:117 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        unsqueeze_12: "i64[1, 1, 8]" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        convert_element_type: "f32[1, 1, 8]" = torch.ops.prims.convert_element_type.default(unsqueeze_12, torch.float32);  unsqueeze_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:122 in forward, code: freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        expand_3: "f32[1, 8, 1]" = torch.ops.aten.expand.default(expand_2, [1, 8, 1]);  expand_2 = None
        expand_4: "f32[1, 1, 8]" = torch.ops.aten.expand.default(convert_element_type, [1, 1, 8]);  convert_element_type = None
        bmm: "f32[1, 8, 8]" = torch.ops.aten.bmm.default(expand_3, expand_4);  expand_3 = expand_4 = None
        permute: "f32[1, 8, 8]" = torch.ops.aten.permute.default(bmm, [0, 2, 1]);  bmm = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:123 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        unsqueeze_13: "f32[1, 8, 1, 8]" = torch.ops.aten.unsqueeze.default(permute, 2);  permute = None
        expand_5: "f32[1, 8, 2, 8]" = torch.ops.aten.expand.default(unsqueeze_13, [1, 8, 2, 8]);  unsqueeze_13 = None
        clone: "f32[1, 8, 2, 8]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        view_3: "f32[1, 8, 16]" = torch.ops.aten.view.default(clone, [1, 8, 16]);  clone = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:124 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 8, 16]" = torch.ops.aten.cos.default(view_3)
        mul: "f32[1, 8, 16]" = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:125 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 8, 16]" = torch.ops.aten.sin.default(view_3);  view_3 = None
        mul_1: "f32[1, 8, 16]" = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:127 in forward, code: return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)
        convert_element_type_1: "bf16[1, 8, 16]" = torch.ops.prims.convert_element_type.default(mul, torch.bfloat16);  mul = None
        convert_element_type_2: "bf16[1, 8, 16]" = torch.ops.prims.convert_element_type.default(mul_1, torch.bfloat16);  mul_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_3: "f32[2, 8, 64]" = torch.ops.prims.convert_element_type.default(embedding, torch.float32)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_3, 2)
        mean: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_3: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        mul_2: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(convert_element_type_3, rsqrt);  convert_element_type_3 = rsqrt = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_4: "bf16[2, 8, 64]" = torch.ops.prims.convert_element_type.default(mul_2, torch.bfloat16);  mul_2 = None
        mul_3: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg3_1, convert_element_type_4);  arg3_1 = convert_element_type_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_1: "bf16[64, 64]" = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        view_4: "bf16[16, 64]" = torch.ops.aten.view.default(mul_3, [16, 64])
        mm: "bf16[16, 64]" = torch.ops.aten.mm.default(view_4, permute_1);  view_4 = permute_1 = None
        view_5: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm, [2, 8, 64]);  mm = None
        view_6: "bf16[2, 8, 4, 16]" = torch.ops.aten.view.default(view_5, [2, 8, -1, 16]);  view_5 = None
        permute_2: "bf16[2, 4, 8, 16]" = torch.ops.aten.permute.default(view_6, [0, 2, 1, 3]);  view_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_3: "bf16[64, 32]" = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        view_7: "bf16[16, 64]" = torch.ops.aten.view.default(mul_3, [16, 64])
        mm_1: "bf16[16, 32]" = torch.ops.aten.mm.default(view_7, permute_3);  view_7 = permute_3 = None
        view_8: "bf16[2, 8, 32]" = torch.ops.aten.view.default(mm_1, [2, 8, 32]);  mm_1 = None
        view_9: "bf16[2, 8, 2, 16]" = torch.ops.aten.view.default(view_8, [2, 8, -1, 16]);  view_8 = None
        permute_4: "bf16[2, 2, 8, 16]" = torch.ops.aten.permute.default(view_9, [0, 2, 1, 3]);  view_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_5: "bf16[64, 32]" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        view_10: "bf16[16, 64]" = torch.ops.aten.view.default(mul_3, [16, 64]);  mul_3 = None
        mm_2: "bf16[16, 32]" = torch.ops.aten.mm.default(view_10, permute_5);  view_10 = permute_5 = None
        view_11: "bf16[2, 8, 32]" = torch.ops.aten.view.default(mm_2, [2, 8, 32]);  mm_2 = None
        view_12: "bf16[2, 8, 2, 16]" = torch.ops.aten.view.default(view_11, [2, 8, -1, 16]);  view_11 = None
        permute_6: "bf16[2, 2, 8, 16]" = torch.ops.aten.permute.default(view_12, [0, 2, 1, 3]);  view_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_14: "bf16[1, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(convert_element_type_1, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_15: "bf16[1, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(convert_element_type_2, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_4: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(permute_2, unsqueeze_14)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_4: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(permute_2, 3, 0, 8)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_5: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(permute_2, 3, 8, 9223372036854775807);  permute_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "bf16[2, 4, 8, 8]" = torch.ops.aten.neg.default(slice_5);  slice_5 = None
        cat_1: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([neg, slice_4], -1);  neg = slice_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_5: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_15);  cat_1 = None
        add_4: "bf16[2, 4, 8, 16]" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_6: "bf16[2, 2, 8, 16]" = torch.ops.aten.mul.Tensor(permute_4, unsqueeze_14);  unsqueeze_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_6: "bf16[2, 2, 8, 8]" = torch.ops.aten.slice.Tensor(permute_4, 3, 0, 8)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_7: "bf16[2, 2, 8, 8]" = torch.ops.aten.slice.Tensor(permute_4, 3, 8, 9223372036854775807);  permute_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "bf16[2, 2, 8, 8]" = torch.ops.aten.neg.default(slice_7);  slice_7 = None
        cat_2: "bf16[2, 2, 8, 16]" = torch.ops.aten.cat.default([neg_1, slice_6], -1);  neg_1 = slice_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_7: "bf16[2, 2, 8, 16]" = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_15);  cat_2 = unsqueeze_15 = None
        add_5: "bf16[2, 2, 8, 16]" = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_16: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(add_5, 2);  add_5 = None
        expand_6: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze_16, [2, 2, 2, 8, 16]);  unsqueeze_16 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_2: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_13: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(clone_2, [2, 4, 8, 16]);  clone_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_17: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(permute_6, 2);  permute_6 = None
        expand_7: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze_17, [2, 2, 2, 8, 16]);  unsqueeze_17 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_3: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        view_14: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(clone_3, [2, 4, 8, 16]);  clone_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        permute_7: "bf16[2, 4, 16, 8]" = torch.ops.aten.permute.default(view_13, [0, 1, 3, 2]);  view_13 = None
        expand_8: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(add_4, [2, 4, 8, 16]);  add_4 = None
        clone_4: "bf16[2, 4, 8, 16]" = torch.ops.aten.clone.default(expand_8, memory_format = torch.contiguous_format);  expand_8 = None
        view_15: "bf16[8, 8, 16]" = torch.ops.aten.view.default(clone_4, [8, 8, 16]);  clone_4 = None
        expand_9: "bf16[2, 4, 16, 8]" = torch.ops.aten.expand.default(permute_7, [2, 4, 16, 8]);  permute_7 = None
        view_16: "bf16[8, 16, 8]" = torch.ops.aten.view.default(expand_9, [8, 16, 8]);  expand_9 = None
        bmm_1: "bf16[8, 8, 8]" = torch.ops.aten.bmm.default(view_15, view_16);  view_15 = view_16 = None
        view_17: "bf16[2, 4, 8, 8]" = torch.ops.aten.view.default(bmm_1, [2, 4, 8, 8]);  bmm_1 = None
        mul_8: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(view_17, 0.25);  view_17 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_6: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul_8, where);  mul_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        convert_element_type_13: "f32[2, 4, 8, 8]" = torch.ops.prims.convert_element_type.default(add_6, torch.float32);  add_6 = None
        amax: "f32[2, 4, 8, 1]" = torch.ops.aten.amax.default(convert_element_type_13, [-1], True)
        sub_2: "f32[2, 4, 8, 8]" = torch.ops.aten.sub.Tensor(convert_element_type_13, amax);  convert_element_type_13 = amax = None
        exp: "f32[2, 4, 8, 8]" = torch.ops.aten.exp.default(sub_2);  sub_2 = None
        sum_1: "f32[2, 4, 8, 1]" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div: "f32[2, 4, 8, 8]" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        convert_element_type_14: "bf16[2, 4, 8, 8]" = torch.ops.prims.convert_element_type.default(div, torch.bfloat16);  div = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_10: "bf16[2, 4, 8, 8]" = torch.ops.aten.expand.default(convert_element_type_14, [2, 4, 8, 8]);  convert_element_type_14 = None
        view_18: "bf16[8, 8, 8]" = torch.ops.aten.view.default(expand_10, [8, 8, 8]);  expand_10 = None
        expand_11: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(view_14, [2, 4, 8, 16]);  view_14 = None
        view_19: "bf16[8, 8, 16]" = torch.ops.aten.view.default(expand_11, [8, 8, 16]);  expand_11 = None
        bmm_2: "bf16[8, 8, 16]" = torch.ops.aten.bmm.default(view_18, view_19);  view_18 = view_19 = None
        view_20: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(bmm_2, [2, 4, 8, 16]);  bmm_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_8: "bf16[2, 8, 4, 16]" = torch.ops.aten.permute.default(view_20, [0, 2, 1, 3]);  view_20 = None
        clone_6: "bf16[2, 8, 4, 16]" = torch.ops.aten.clone.default(permute_8, memory_format = torch.contiguous_format);  permute_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_21: "bf16[2, 8, 64]" = torch.ops.aten.view.default(clone_6, [2, 8, -1]);  clone_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        permute_9: "bf16[64, 64]" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        view_22: "bf16[16, 64]" = torch.ops.aten.view.default(view_21, [16, 64]);  view_21 = None
        mm_3: "bf16[16, 64]" = torch.ops.aten.mm.default(view_22, permute_9);  view_22 = permute_9 = None
        view_23: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm_3, [2, 8, 64]);  mm_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        add_7: "bf16[2, 8, 64]" = torch.ops.aten.add.Tensor(embedding, view_23);  embedding = view_23 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_19: "f32[2, 8, 64]" = torch.ops.prims.convert_element_type.default(add_7, torch.float32)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_19, 2)
        mean_1: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_8: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_8);  add_8 = None
        mul_9: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(convert_element_type_19, rsqrt_1);  convert_element_type_19 = rsqrt_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_20: "bf16[2, 8, 64]" = torch.ops.prims.convert_element_type.default(mul_9, torch.bfloat16);  mul_9 = None
        mul_10: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg8_1, convert_element_type_20);  arg8_1 = convert_element_type_20 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_10: "bf16[64, 128]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        view_24: "bf16[16, 64]" = torch.ops.aten.view.default(mul_10, [16, 64])
        mm_4: "bf16[16, 128]" = torch.ops.aten.mm.default(view_24, permute_10);  view_24 = permute_10 = None
        view_25: "bf16[2, 8, 128]" = torch.ops.aten.view.default(mm_4, [2, 8, 128]);  mm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        convert_element_type_23: "f32[2, 8, 128]" = torch.ops.prims.convert_element_type.default(view_25, torch.float32);  view_25 = None
        neg_2: "f32[2, 8, 128]" = torch.ops.aten.neg.default(convert_element_type_23)
        exp_1: "f32[2, 8, 128]" = torch.ops.aten.exp.default(neg_2);  neg_2 = None
        add_9: "f32[2, 8, 128]" = torch.ops.aten.add.Tensor(exp_1, 1);  exp_1 = None
        div_1: "f32[2, 8, 128]" = torch.ops.aten.div.Tensor(convert_element_type_23, add_9);  convert_element_type_23 = add_9 = None
        convert_element_type_24: "bf16[2, 8, 128]" = torch.ops.prims.convert_element_type.default(div_1, torch.bfloat16);  div_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_11: "bf16[64, 128]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        view_26: "bf16[16, 64]" = torch.ops.aten.view.default(mul_10, [16, 64]);  mul_10 = None
        mm_5: "bf16[16, 128]" = torch.ops.aten.mm.default(view_26, permute_11);  view_26 = permute_11 = None
        view_27: "bf16[2, 8, 128]" = torch.ops.aten.view.default(mm_5, [2, 8, 128]);  mm_5 = None
        mul_11: "bf16[2, 8, 128]" = torch.ops.aten.mul.Tensor(convert_element_type_24, view_27);  convert_element_type_24 = view_27 = None
        permute_12: "bf16[128, 64]" = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        view_28: "bf16[16, 128]" = torch.ops.aten.view.default(mul_11, [16, 128]);  mul_11 = None
        mm_6: "bf16[16, 64]" = torch.ops.aten.mm.default(view_28, permute_12);  view_28 = permute_12 = None
        view_29: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm_6, [2, 8, 64]);  mm_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        add_10: "bf16[2, 8, 64]" = torch.ops.aten.add.Tensor(add_7, view_29);  add_7 = view_29 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_29: "f32[2, 8, 64]" = torch.ops.prims.convert_element_type.default(add_10, torch.float32)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_3: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_29, 2)
        mean_2: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_11: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_11);  add_11 = None
        mul_12: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(convert_element_type_29, rsqrt_2);  convert_element_type_29 = rsqrt_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_30: "bf16[2, 8, 64]" = torch.ops.prims.convert_element_type.default(mul_12, torch.bfloat16);  mul_12 = None
        mul_13: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg12_1, convert_element_type_30);  arg12_1 = convert_element_type_30 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_13: "bf16[64, 64]" = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        view_30: "bf16[16, 64]" = torch.ops.aten.view.default(mul_13, [16, 64])
        mm_7: "bf16[16, 64]" = torch.ops.aten.mm.default(view_30, permute_13);  view_30 = permute_13 = None
        view_31: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm_7, [2, 8, 64]);  mm_7 = None
        view_32: "bf16[2, 8, 4, 16]" = torch.ops.aten.view.default(view_31, [2, 8, -1, 16]);  view_31 = None
        permute_14: "bf16[2, 4, 8, 16]" = torch.ops.aten.permute.default(view_32, [0, 2, 1, 3]);  view_32 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_15: "bf16[64, 32]" = torch.ops.aten.permute.default(arg14_1, [1, 0]);  arg14_1 = None
        view_33: "bf16[16, 64]" = torch.ops.aten.view.default(mul_13, [16, 64])
        mm_8: "bf16[16, 32]" = torch.ops.aten.mm.default(view_33, permute_15);  view_33 = permute_15 = None
        view_34: "bf16[2, 8, 32]" = torch.ops.aten.view.default(mm_8, [2, 8, 32]);  mm_8 = None
        view_35: "bf16[2, 8, 2, 16]" = torch.ops.aten.view.default(view_34, [2, 8, -1, 16]);  view_34 = None
        permute_16: "bf16[2, 2, 8, 16]" = torch.ops.aten.permute.default(view_35, [0, 2, 1, 3]);  view_35 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_17: "bf16[64, 32]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        view_36: "bf16[16, 64]" = torch.ops.aten.view.default(mul_13, [16, 64]);  mul_13 = None
        mm_9: "bf16[16, 32]" = torch.ops.aten.mm.default(view_36, permute_17);  view_36 = permute_17 = None
        view_37: "bf16[2, 8, 32]" = torch.ops.aten.view.default(mm_9, [2, 8, 32]);  mm_9 = None
        view_38: "bf16[2, 8, 2, 16]" = torch.ops.aten.view.default(view_37, [2, 8, -1, 16]);  view_37 = None
        permute_18: "bf16[2, 2, 8, 16]" = torch.ops.aten.permute.default(view_38, [0, 2, 1, 3]);  view_38 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_18: "bf16[1, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(convert_element_type_1, 1);  convert_element_type_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_19: "bf16[1, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(convert_element_type_2, 1);  convert_element_type_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_14: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(permute_14, unsqueeze_18)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_8: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(permute_14, 3, 0, 8)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_9: "bf16[2, 4, 8, 8]" = torch.ops.aten.slice.Tensor(permute_14, 3, 8, 9223372036854775807);  permute_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "bf16[2, 4, 8, 8]" = torch.ops.aten.neg.default(slice_9);  slice_9 = None
        cat_3: "bf16[2, 4, 8, 16]" = torch.ops.aten.cat.default([neg_3, slice_8], -1);  neg_3 = slice_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_15: "bf16[2, 4, 8, 16]" = torch.ops.aten.mul.Tensor(cat_3, unsqueeze_19);  cat_3 = None
        add_12: "bf16[2, 4, 8, 16]" = torch.ops.aten.add.Tensor(mul_14, mul_15);  mul_14 = mul_15 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_16: "bf16[2, 2, 8, 16]" = torch.ops.aten.mul.Tensor(permute_16, unsqueeze_18);  unsqueeze_18 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_10: "bf16[2, 2, 8, 8]" = torch.ops.aten.slice.Tensor(permute_16, 3, 0, 8)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_11: "bf16[2, 2, 8, 8]" = torch.ops.aten.slice.Tensor(permute_16, 3, 8, 9223372036854775807);  permute_16 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_4: "bf16[2, 2, 8, 8]" = torch.ops.aten.neg.default(slice_11);  slice_11 = None
        cat_4: "bf16[2, 2, 8, 16]" = torch.ops.aten.cat.default([neg_4, slice_10], -1);  neg_4 = slice_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_17: "bf16[2, 2, 8, 16]" = torch.ops.aten.mul.Tensor(cat_4, unsqueeze_19);  cat_4 = unsqueeze_19 = None
        add_13: "bf16[2, 2, 8, 16]" = torch.ops.aten.add.Tensor(mul_16, mul_17);  mul_16 = mul_17 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_20: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(add_13, 2);  add_13 = None
        expand_12: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze_20, [2, 2, 2, 8, 16]);  unsqueeze_20 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_7: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand_12, memory_format = torch.contiguous_format);  expand_12 = None
        view_39: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(clone_7, [2, 4, 8, 16]);  clone_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_21: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(permute_18, 2);  permute_18 = None
        expand_13: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(unsqueeze_21, [2, 2, 2, 8, 16]);  unsqueeze_21 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_8: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.clone.default(expand_13, memory_format = torch.contiguous_format);  expand_13 = None
        view_40: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(clone_8, [2, 4, 8, 16]);  clone_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        permute_19: "bf16[2, 4, 16, 8]" = torch.ops.aten.permute.default(view_39, [0, 1, 3, 2]);  view_39 = None
        expand_14: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(add_12, [2, 4, 8, 16]);  add_12 = None
        clone_9: "bf16[2, 4, 8, 16]" = torch.ops.aten.clone.default(expand_14, memory_format = torch.contiguous_format);  expand_14 = None
        view_41: "bf16[8, 8, 16]" = torch.ops.aten.view.default(clone_9, [8, 8, 16]);  clone_9 = None
        expand_15: "bf16[2, 4, 16, 8]" = torch.ops.aten.expand.default(permute_19, [2, 4, 16, 8]);  permute_19 = None
        view_42: "bf16[8, 16, 8]" = torch.ops.aten.view.default(expand_15, [8, 16, 8]);  expand_15 = None
        bmm_3: "bf16[8, 8, 8]" = torch.ops.aten.bmm.default(view_41, view_42);  view_41 = view_42 = None
        view_43: "bf16[2, 4, 8, 8]" = torch.ops.aten.view.default(bmm_3, [2, 4, 8, 8]);  bmm_3 = None
        mul_18: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(view_43, 0.25);  view_43 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_14: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(mul_18, where);  mul_18 = where = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        convert_element_type_39: "f32[2, 4, 8, 8]" = torch.ops.prims.convert_element_type.default(add_14, torch.float32);  add_14 = None
        amax_1: "f32[2, 4, 8, 1]" = torch.ops.aten.amax.default(convert_element_type_39, [-1], True)
        sub_3: "f32[2, 4, 8, 8]" = torch.ops.aten.sub.Tensor(convert_element_type_39, amax_1);  convert_element_type_39 = amax_1 = None
        exp_2: "f32[2, 4, 8, 8]" = torch.ops.aten.exp.default(sub_3);  sub_3 = None
        sum_2: "f32[2, 4, 8, 1]" = torch.ops.aten.sum.dim_IntList(exp_2, [-1], True)
        div_2: "f32[2, 4, 8, 8]" = torch.ops.aten.div.Tensor(exp_2, sum_2);  exp_2 = sum_2 = None
        convert_element_type_40: "bf16[2, 4, 8, 8]" = torch.ops.prims.convert_element_type.default(div_2, torch.bfloat16);  div_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_16: "bf16[2, 4, 8, 8]" = torch.ops.aten.expand.default(convert_element_type_40, [2, 4, 8, 8]);  convert_element_type_40 = None
        view_44: "bf16[8, 8, 8]" = torch.ops.aten.view.default(expand_16, [8, 8, 8]);  expand_16 = None
        expand_17: "bf16[2, 4, 8, 16]" = torch.ops.aten.expand.default(view_40, [2, 4, 8, 16]);  view_40 = None
        view_45: "bf16[8, 8, 16]" = torch.ops.aten.view.default(expand_17, [8, 8, 16]);  expand_17 = None
        bmm_4: "bf16[8, 8, 16]" = torch.ops.aten.bmm.default(view_44, view_45);  view_44 = view_45 = None
        view_46: "bf16[2, 4, 8, 16]" = torch.ops.aten.view.default(bmm_4, [2, 4, 8, 16]);  bmm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_20: "bf16[2, 8, 4, 16]" = torch.ops.aten.permute.default(view_46, [0, 2, 1, 3]);  view_46 = None
        clone_11: "bf16[2, 8, 4, 16]" = torch.ops.aten.clone.default(permute_20, memory_format = torch.contiguous_format);  permute_20 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_47: "bf16[2, 8, 64]" = torch.ops.aten.view.default(clone_11, [2, 8, -1]);  clone_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        permute_21: "bf16[64, 64]" = torch.ops.aten.permute.default(arg16_1, [1, 0]);  arg16_1 = None
        view_48: "bf16[16, 64]" = torch.ops.aten.view.default(view_47, [16, 64]);  view_47 = None
        mm_10: "bf16[16, 64]" = torch.ops.aten.mm.default(view_48, permute_21);  view_48 = permute_21 = None
        view_49: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm_10, [2, 8, 64]);  mm_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        add_15: "bf16[2, 8, 64]" = torch.ops.aten.add.Tensor(add_10, view_49);  add_10 = view_49 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_45: "f32[2, 8, 64]" = torch.ops.prims.convert_element_type.default(add_15, torch.float32)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_4: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_45, 2)
        mean_3: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_16: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_16);  add_16 = None
        mul_19: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(convert_element_type_45, rsqrt_3);  convert_element_type_45 = rsqrt_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_46: "bf16[2, 8, 64]" = torch.ops.prims.convert_element_type.default(mul_19, torch.bfloat16);  mul_19 = None
        mul_20: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg17_1, convert_element_type_46);  arg17_1 = convert_element_type_46 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_22: "bf16[64, 128]" = torch.ops.aten.permute.default(arg18_1, [1, 0]);  arg18_1 = None
        view_50: "bf16[16, 64]" = torch.ops.aten.view.default(mul_20, [16, 64])
        mm_11: "bf16[16, 128]" = torch.ops.aten.mm.default(view_50, permute_22);  view_50 = permute_22 = None
        view_51: "bf16[2, 8, 128]" = torch.ops.aten.view.default(mm_11, [2, 8, 128]);  mm_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        convert_element_type_49: "f32[2, 8, 128]" = torch.ops.prims.convert_element_type.default(view_51, torch.float32);  view_51 = None
        neg_5: "f32[2, 8, 128]" = torch.ops.aten.neg.default(convert_element_type_49)
        exp_3: "f32[2, 8, 128]" = torch.ops.aten.exp.default(neg_5);  neg_5 = None
        add_17: "f32[2, 8, 128]" = torch.ops.aten.add.Tensor(exp_3, 1);  exp_3 = None
        div_3: "f32[2, 8, 128]" = torch.ops.aten.div.Tensor(convert_element_type_49, add_17);  convert_element_type_49 = add_17 = None
        convert_element_type_50: "bf16[2, 8, 128]" = torch.ops.prims.convert_element_type.default(div_3, torch.bfloat16);  div_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_23: "bf16[64, 128]" = torch.ops.aten.permute.default(arg19_1, [1, 0]);  arg19_1 = None
        view_52: "bf16[16, 64]" = torch.ops.aten.view.default(mul_20, [16, 64]);  mul_20 = None
        mm_12: "bf16[16, 128]" = torch.ops.aten.mm.default(view_52, permute_23);  view_52 = permute_23 = None
        view_53: "bf16[2, 8, 128]" = torch.ops.aten.view.default(mm_12, [2, 8, 128]);  mm_12 = None
        mul_21: "bf16[2, 8, 128]" = torch.ops.aten.mul.Tensor(convert_element_type_50, view_53);  convert_element_type_50 = view_53 = None
        permute_24: "bf16[128, 64]" = torch.ops.aten.permute.default(arg20_1, [1, 0]);  arg20_1 = None
        view_54: "bf16[16, 128]" = torch.ops.aten.view.default(mul_21, [16, 128]);  mul_21 = None
        mm_13: "bf16[16, 64]" = torch.ops.aten.mm.default(view_54, permute_24);  view_54 = permute_24 = None
        view_55: "bf16[2, 8, 64]" = torch.ops.aten.view.default(mm_13, [2, 8, 64]);  mm_13 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        add_18: "bf16[2, 8, 64]" = torch.ops.aten.add.Tensor(add_15, view_55);  add_15 = view_55 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        convert_element_type_55: "f32[2, 8, 64]" = torch.ops.prims.convert_element_type.default(add_18, torch.float32);  add_18 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_5: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_55, 2)
        mean_4: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_19: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_19);  add_19 = None
        mul_22: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(convert_element_type_55, rsqrt_4);  convert_element_type_55 = rsqrt_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        convert_element_type_56: "bf16[2, 8, 64]" = torch.ops.prims.convert_element_type.default(mul_22, torch.bfloat16);  mul_22 = None
        mul_23: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg21_1, convert_element_type_56);  arg21_1 = convert_element_type_56 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py:480 in forward, code: logits = self.lm_head(hidden_states[:, slice_indices, :])
        permute_25: "bf16[64, 128]" = torch.ops.aten.permute.default(arg22_1, [1, 0]);  arg22_1 = None
        view_56: "bf16[16, 64]" = torch.ops.aten.view.default(mul_23, [16, 64]);  mul_23 = None
        mm_14: "bf16[16, 128]" = torch.ops.aten.mm.default(view_56, permute_25);  view_56 = permute_25 = None
        view_57: "bf16[2, 8, 128]" = torch.ops.aten.view.default(mm_14, [2, 8, 128]);  mm_14 = None
        return (view_57,)
