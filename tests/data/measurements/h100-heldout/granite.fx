class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[1, 16]", arg1_1: "f32[256, 128]", arg2_1: "f32[16]", arg3_1: "f32[128]", arg4_1: "f32[128, 128]", arg5_1: "f32[64, 128]", arg6_1: "f32[64, 128]", arg7_1: "f32[128, 128]", arg8_1: "f32[128]", arg9_1: "f32[256, 128]", arg10_1: "f32[256, 128]", arg11_1: "f32[128, 256]", arg12_1: "f32[128]", arg13_1: "f32[128, 128]", arg14_1: "f32[64, 128]", arg15_1: "f32[64, 128]", arg16_1: "f32[128, 128]", arg17_1: "f32[128]", arg18_1: "f32[256, 128]", arg19_1: "f32[256, 128]", arg20_1: "f32[128, 256]", arg21_1: "f32[128]", arg22_1: "f32[256, 128]"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:395 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        embedding: "f32[1, 16, 128]" = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:397 in forward, code: inputs_embeds = inputs_embeds * self.embedding_multiplier
        mul: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(embedding, 1.0);  embedding = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:404 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.ops.aten.arange.default(16, device = device(type='cuda', index=0), pin_memory = False)
        add: "i64[16]" = torch.ops.aten.add.Tensor(arange, 0);  arange = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:405 in forward, code: position_ids = position_ids.unsqueeze(0)
        unsqueeze: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add, 0);  add = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_3: "i64[16]" = torch.ops.aten.arange.default(16, device = device(type='cuda', index=0), pin_memory = False)
        add_1: "i64[16]" = torch.ops.aten.add.Tensor(arange_3, 0);  arange_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_4: "i64[16]" = torch.ops.aten.arange.default(16, device = device(type='cuda', index=0), pin_memory = False)
        add_2: "i64[16]" = torch.ops.aten.add.Tensor(arange_4, 0);  arange_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_1: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_1, 0);  add_1 = None
        unsqueeze_2: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 1);  unsqueeze_1 = None
        unsqueeze_3: "i64[1, 1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_4: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_5: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 2);  unsqueeze_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:81 in causal_mask_function, code: return kv_idx <= q_idx
        le: "b8[1, 1, 16, 16]" = torch.ops.aten.le.Tensor(unsqueeze_6, unsqueeze_3);  unsqueeze_6 = unsqueeze_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand: "b8[1, 1, 16, 16]" = torch.ops.aten.expand.default(le, [1, -1, 16, 16]);  le = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        _tensor_constant0: "f32[]" = self._tensor_constant0
        lift_fresh_copy: "f32[]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0))
        where: "f32[1, 1, 16, 16]" = torch.ops.aten.where.self(expand, lift_fresh_copy, scalar_tensor);  expand = lift_fresh_copy = scalar_tensor = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:344 in forward, code: self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1).to(dtype=torch.float, device=x.device)
        unsqueeze_7: "f32[1, 16]" = torch.ops.aten.unsqueeze.default(arg2_1, 0);  arg2_1 = None
        unsqueeze_8: "f32[1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 2);  unsqueeze_7 = None
        expand_1: "f32[1, 16, 1]" = torch.ops.aten.expand.default(unsqueeze_8, [1, -1, 1]);  unsqueeze_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:346 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        unsqueeze_9: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        _to_copy: "f32[1, 1, 16]" = torch.ops.aten._to_copy.default(unsqueeze_9, dtype = torch.float32);  unsqueeze_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:351 in forward, code: freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        expand_2: "f32[1, 16, 1]" = torch.ops.aten.expand.default(expand_1, [1, 16, 1]);  expand_1 = None
        view: "f32[1, 16, 1]" = torch.ops.aten.view.default(expand_2, [1, 16, 1]);  expand_2 = None
        expand_3: "f32[1, 1, 16]" = torch.ops.aten.expand.default(_to_copy, [1, 1, 16]);  _to_copy = None
        view_1: "f32[1, 1, 16]" = torch.ops.aten.view.default(expand_3, [1, 1, 16]);  expand_3 = None
        bmm: "f32[1, 16, 16]" = torch.ops.aten.bmm.default(view, view_1);  view = view_1 = None
        view_2: "f32[1, 16, 16]" = torch.ops.aten.view.default(bmm, [1, 16, 16]);  bmm = None
        transpose: "f32[1, 16, 16]" = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:352 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        cat: "f32[1, 16, 32]" = torch.ops.aten.cat.default([transpose, transpose], -1);  transpose = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:353 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 16, 32]" = torch.ops.aten.cos.default(cat)
        mul_1: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:354 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 16, 32]" = torch.ops.aten.sin.default(cat);  cat = None
        mul_2: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:195 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[1, 16, 128]" = torch.ops.aten.pow.Tensor_Scalar(mul, 2)
        mean: "f32[1, 16, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:196 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_3: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        mul_3: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(mul, rsqrt);  rsqrt = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:197 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_4: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(arg3_1, mul_3);  arg3_1 = mul_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:152 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t: "f32[128, 128]" = torch.ops.aten.t.default(arg4_1);  arg4_1 = None
        view_3: "f32[16, 128]" = torch.ops.aten.view.default(mul_4, [16, 128])
        mm: "f32[16, 128]" = torch.ops.aten.mm.default(view_3, t);  view_3 = t = None
        _unsafe_view: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm, [1, 16, 128]);  mm = None
        view_4: "f32[1, 16, 4, 32]" = torch.ops.aten.view.default(_unsafe_view, [1, 16, -1, 32]);  _unsafe_view = None
        transpose_1: "f32[1, 4, 16, 32]" = torch.ops.aten.transpose.int(view_4, 1, 2);  view_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:153 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t_1: "f32[128, 64]" = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
        view_5: "f32[16, 128]" = torch.ops.aten.view.default(mul_4, [16, 128])
        mm_1: "f32[16, 64]" = torch.ops.aten.mm.default(view_5, t_1);  view_5 = t_1 = None
        _unsafe_view_1: "f32[1, 16, 64]" = torch.ops.aten._unsafe_view.default(mm_1, [1, 16, 64]);  mm_1 = None
        view_6: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(_unsafe_view_1, [1, 16, -1, 32]);  _unsafe_view_1 = None
        transpose_2: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_6, 1, 2);  view_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:154 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t_2: "f32[128, 64]" = torch.ops.aten.t.default(arg6_1);  arg6_1 = None
        view_7: "f32[16, 128]" = torch.ops.aten.view.default(mul_4, [16, 128]);  mul_4 = None
        mm_2: "f32[16, 64]" = torch.ops.aten.mm.default(view_7, t_2);  view_7 = t_2 = None
        _unsafe_view_2: "f32[1, 16, 64]" = torch.ops.aten._unsafe_view.default(mm_2, [1, 16, 64]);  mm_2 = None
        view_8: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(_unsafe_view_2, [1, 16, -1, 32]);  _unsafe_view_2 = None
        transpose_3: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_8, 1, 2);  view_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:70 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_10: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_1, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:71 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_11: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_2, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:72 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_5: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_1, unsqueeze_10)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:46 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_1: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_1, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:47 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_2: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_1, 3, 16, 9223372036854775807);  transpose_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:48 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f32[1, 4, 16, 16]" = torch.ops.aten.neg.default(slice_2);  slice_2 = None
        cat_1: "f32[1, 4, 16, 32]" = torch.ops.aten.cat.default([neg, slice_1], -1);  neg = slice_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:72 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_6: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_11);  cat_1 = None
        add_4: "f32[1, 4, 16, 32]" = torch.ops.aten.add.Tensor(mul_5, mul_6);  mul_5 = mul_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:73 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_7: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_2, unsqueeze_10);  unsqueeze_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:46 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_3: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_2, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:47 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_4: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_2, 3, 16, 9223372036854775807);  transpose_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:48 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f32[1, 2, 16, 16]" = torch.ops.aten.neg.default(slice_4);  slice_4 = None
        cat_2: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([neg_1, slice_3], -1);  neg_1 = slice_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:73 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_8: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_11);  cat_2 = unsqueeze_11 = None
        add_5: "f32[1, 2, 16, 32]" = torch.ops.aten.add.Tensor(mul_7, mul_8);  mul_7 = mul_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant1: "f32[0]" = self._tensor_constant1
        lift_fresh_copy_1: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant1);  _tensor_constant1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant2: "f32[0]" = self._tensor_constant2
        lift_fresh_copy_2: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant2);  _tensor_constant2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_3: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_1, add_5], -2);  lift_fresh_copy_1 = add_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_4: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_2, transpose_3], -2);  lift_fresh_copy_2 = transpose_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:85 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_12: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_3, 2)
        expand_4: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_12, [1, 2, 2, 16, 32]);  unsqueeze_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:86 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_4, memory_format = torch.contiguous_format);  expand_4 = None
        _unsafe_view_3: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone, [1, 4, 16, 32]);  clone = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:85 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_13: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_4, 2)
        expand_5: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_13, [1, 2, 2, 16, 32]);  unsqueeze_13 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:86 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_1: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        _unsafe_view_4: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_1, [1, 4, 16, 32]);  clone_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:102 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_4: "f32[1, 4, 32, 16]" = torch.ops.aten.transpose.int(_unsafe_view_3, 2, 3);  _unsafe_view_3 = None
        expand_6: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(add_4, [1, 4, 16, 32]);  add_4 = None
        view_9: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_6, [4, 16, 32]);  expand_6 = None
        expand_7: "f32[1, 4, 32, 16]" = torch.ops.aten.expand.default(transpose_4, [1, 4, 32, 16]);  transpose_4 = None
        view_10: "f32[4, 32, 16]" = torch.ops.aten.view.default(expand_7, [4, 32, 16]);  expand_7 = None
        bmm_1: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_9, view_10);  view_9 = view_10 = None
        view_11: "f32[1, 4, 16, 16]" = torch.ops.aten.view.default(bmm_1, [1, 4, 16, 16]);  bmm_1 = None
        mul_9: "f32[1, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_11, 1.0);  view_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:104 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_6: "f32[1, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_9, where);  mul_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:106 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax: "f32[1, 4, 16, 16]" = torch.ops.aten._softmax.default(add_6, -1, False);  add_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:107 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_2: "f32[1, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:108 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_8: "f32[1, 4, 16, 16]" = torch.ops.aten.expand.default(clone_2, [1, 4, 16, 16]);  clone_2 = None
        view_12: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_8, [4, 16, 16]);  expand_8 = None
        expand_9: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(_unsafe_view_4, [1, 4, 16, 32]);  _unsafe_view_4 = None
        view_13: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_9, [4, 16, 32]);  expand_9 = None
        bmm_2: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_12, view_13);  view_12 = view_13 = None
        view_14: "f32[1, 4, 16, 32]" = torch.ops.aten.view.default(bmm_2, [1, 4, 16, 32]);  bmm_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:109 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_5: "f32[1, 16, 4, 32]" = torch.ops.aten.transpose.int(view_14, 1, 2);  view_14 = None
        clone_3: "f32[1, 16, 4, 32]" = torch.ops.aten.clone.default(transpose_5, memory_format = torch.contiguous_format);  transpose_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:177 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_15: "f32[1, 16, 128]" = torch.ops.aten.view.default(clone_3, [1, 16, -1]);  clone_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:178 in forward, code: attn_output = self.o_proj(attn_output)
        t_3: "f32[128, 128]" = torch.ops.aten.t.default(arg7_1);  arg7_1 = None
        view_16: "f32[16, 128]" = torch.ops.aten.view.default(view_15, [16, 128]);  view_15 = None
        mm_3: "f32[16, 128]" = torch.ops.aten.mm.default(view_16, t_3);  view_16 = t_3 = None
        _unsafe_view_5: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm_3, [1, 16, 128]);  mm_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:273 in forward, code: hidden_states = residual + hidden_states * self.residual_multiplier
        mul_10: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(_unsafe_view_5, 1.0);  _unsafe_view_5 = None
        add_7: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(mul, mul_10);  mul = mul_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:195 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[1, 16, 128]" = torch.ops.aten.pow.Tensor_Scalar(add_7, 2)
        mean_1: "f32[1, 16, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:196 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_8: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_8);  add_8 = None
        mul_11: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(add_7, rsqrt_1);  rsqrt_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:197 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_12: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(arg8_1, mul_11);  arg8_1 = mul_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:215 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_4: "f32[128, 256]" = torch.ops.aten.t.default(arg9_1);  arg9_1 = None
        view_17: "f32[16, 128]" = torch.ops.aten.view.default(mul_12, [16, 128])
        mm_4: "f32[16, 256]" = torch.ops.aten.mm.default(view_17, t_4);  view_17 = t_4 = None
        _unsafe_view_6: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm_4, [1, 16, 256]);  mm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu: "f32[1, 16, 256]" = torch.ops.aten.silu.default(_unsafe_view_6);  _unsafe_view_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:215 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_5: "f32[128, 256]" = torch.ops.aten.t.default(arg10_1);  arg10_1 = None
        view_18: "f32[16, 128]" = torch.ops.aten.view.default(mul_12, [16, 128]);  mul_12 = None
        mm_5: "f32[16, 256]" = torch.ops.aten.mm.default(view_18, t_5);  view_18 = t_5 = None
        _unsafe_view_7: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm_5, [1, 16, 256]);  mm_5 = None
        mul_13: "f32[1, 16, 256]" = torch.ops.aten.mul.Tensor(silu, _unsafe_view_7);  silu = _unsafe_view_7 = None
        t_6: "f32[256, 128]" = torch.ops.aten.t.default(arg11_1);  arg11_1 = None
        view_19: "f32[16, 256]" = torch.ops.aten.view.default(mul_13, [16, 256]);  mul_13 = None
        mm_6: "f32[16, 128]" = torch.ops.aten.mm.default(view_19, t_6);  view_19 = t_6 = None
        _unsafe_view_8: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm_6, [1, 16, 128]);  mm_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:278 in forward, code: hidden_states = residual + hidden_states * self.residual_multiplier
        mul_14: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(_unsafe_view_8, 1.0);  _unsafe_view_8 = None
        add_9: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_7, mul_14);  add_7 = mul_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:195 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_3: "f32[1, 16, 128]" = torch.ops.aten.pow.Tensor_Scalar(add_9, 2)
        mean_2: "f32[1, 16, 1]" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:196 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_10: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_10);  add_10 = None
        mul_15: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(add_9, rsqrt_2);  rsqrt_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:197 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_16: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(arg12_1, mul_15);  arg12_1 = mul_15 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:152 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t_7: "f32[128, 128]" = torch.ops.aten.t.default(arg13_1);  arg13_1 = None
        view_20: "f32[16, 128]" = torch.ops.aten.view.default(mul_16, [16, 128])
        mm_7: "f32[16, 128]" = torch.ops.aten.mm.default(view_20, t_7);  view_20 = t_7 = None
        _unsafe_view_9: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm_7, [1, 16, 128]);  mm_7 = None
        view_21: "f32[1, 16, 4, 32]" = torch.ops.aten.view.default(_unsafe_view_9, [1, 16, -1, 32]);  _unsafe_view_9 = None
        transpose_6: "f32[1, 4, 16, 32]" = torch.ops.aten.transpose.int(view_21, 1, 2);  view_21 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:153 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t_8: "f32[128, 64]" = torch.ops.aten.t.default(arg14_1);  arg14_1 = None
        view_22: "f32[16, 128]" = torch.ops.aten.view.default(mul_16, [16, 128])
        mm_8: "f32[16, 64]" = torch.ops.aten.mm.default(view_22, t_8);  view_22 = t_8 = None
        _unsafe_view_10: "f32[1, 16, 64]" = torch.ops.aten._unsafe_view.default(mm_8, [1, 16, 64]);  mm_8 = None
        view_23: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(_unsafe_view_10, [1, 16, -1, 32]);  _unsafe_view_10 = None
        transpose_7: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_23, 1, 2);  view_23 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:154 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        t_9: "f32[128, 64]" = torch.ops.aten.t.default(arg15_1);  arg15_1 = None
        view_24: "f32[16, 128]" = torch.ops.aten.view.default(mul_16, [16, 128]);  mul_16 = None
        mm_9: "f32[16, 64]" = torch.ops.aten.mm.default(view_24, t_9);  view_24 = t_9 = None
        _unsafe_view_11: "f32[1, 16, 64]" = torch.ops.aten._unsafe_view.default(mm_9, [1, 16, 64]);  mm_9 = None
        view_25: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(_unsafe_view_11, [1, 16, -1, 32]);  _unsafe_view_11 = None
        transpose_8: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_25, 1, 2);  view_25 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:70 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_14: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_1, 1);  mul_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:71 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_15: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_2, 1);  mul_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:72 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_17: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_6, unsqueeze_14)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:46 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_5: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_6, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:47 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_6: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_6, 3, 16, 9223372036854775807);  transpose_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:48 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_2: "f32[1, 4, 16, 16]" = torch.ops.aten.neg.default(slice_6);  slice_6 = None
        cat_5: "f32[1, 4, 16, 32]" = torch.ops.aten.cat.default([neg_2, slice_5], -1);  neg_2 = slice_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:72 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_18: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(cat_5, unsqueeze_15);  cat_5 = None
        add_11: "f32[1, 4, 16, 32]" = torch.ops.aten.add.Tensor(mul_17, mul_18);  mul_17 = mul_18 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:73 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_19: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_7, unsqueeze_14);  unsqueeze_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:46 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_7: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_7, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:47 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_8: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_7, 3, 16, 9223372036854775807);  transpose_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:48 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "f32[1, 2, 16, 16]" = torch.ops.aten.neg.default(slice_8);  slice_8 = None
        cat_6: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([neg_3, slice_7], -1);  neg_3 = slice_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:73 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_20: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(cat_6, unsqueeze_15);  cat_6 = unsqueeze_15 = None
        add_12: "f32[1, 2, 16, 32]" = torch.ops.aten.add.Tensor(mul_19, mul_20);  mul_19 = mul_20 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant3: "f32[0]" = self._tensor_constant3
        lift_fresh_copy_3: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant3);  _tensor_constant3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant4: "f32[0]" = self._tensor_constant4
        lift_fresh_copy_4: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant4);  _tensor_constant4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_7: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_3, add_12], -2);  lift_fresh_copy_3 = add_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_8: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_4, transpose_8], -2);  lift_fresh_copy_4 = transpose_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:85 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_16: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_7, 2)
        expand_10: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_16, [1, 2, 2, 16, 32]);  unsqueeze_16 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:86 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_4: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_10, memory_format = torch.contiguous_format);  expand_10 = None
        _unsafe_view_12: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_4, [1, 4, 16, 32]);  clone_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:85 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_17: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_8, 2)
        expand_11: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_17, [1, 2, 2, 16, 32]);  unsqueeze_17 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:86 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_5: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_11, memory_format = torch.contiguous_format);  expand_11 = None
        _unsafe_view_13: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_5, [1, 4, 16, 32]);  clone_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:102 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_9: "f32[1, 4, 32, 16]" = torch.ops.aten.transpose.int(_unsafe_view_12, 2, 3);  _unsafe_view_12 = None
        expand_12: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(add_11, [1, 4, 16, 32]);  add_11 = None
        view_26: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_12, [4, 16, 32]);  expand_12 = None
        expand_13: "f32[1, 4, 32, 16]" = torch.ops.aten.expand.default(transpose_9, [1, 4, 32, 16]);  transpose_9 = None
        view_27: "f32[4, 32, 16]" = torch.ops.aten.view.default(expand_13, [4, 32, 16]);  expand_13 = None
        bmm_3: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_26, view_27);  view_26 = view_27 = None
        view_28: "f32[1, 4, 16, 16]" = torch.ops.aten.view.default(bmm_3, [1, 4, 16, 16]);  bmm_3 = None
        mul_21: "f32[1, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_28, 1.0);  view_28 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:104 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_13: "f32[1, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_21, where);  mul_21 = where = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:106 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax_1: "f32[1, 4, 16, 16]" = torch.ops.aten._softmax.default(add_13, -1, False);  add_13 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:107 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_6: "f32[1, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:108 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_14: "f32[1, 4, 16, 16]" = torch.ops.aten.expand.default(clone_6, [1, 4, 16, 16]);  clone_6 = None
        view_29: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_14, [4, 16, 16]);  expand_14 = None
        expand_15: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(_unsafe_view_13, [1, 4, 16, 32]);  _unsafe_view_13 = None
        view_30: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_15, [4, 16, 32]);  expand_15 = None
        bmm_4: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_29, view_30);  view_29 = view_30 = None
        view_31: "f32[1, 4, 16, 32]" = torch.ops.aten.view.default(bmm_4, [1, 4, 16, 32]);  bmm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:109 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_10: "f32[1, 16, 4, 32]" = torch.ops.aten.transpose.int(view_31, 1, 2);  view_31 = None
        clone_7: "f32[1, 16, 4, 32]" = torch.ops.aten.clone.default(transpose_10, memory_format = torch.contiguous_format);  transpose_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:177 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_32: "f32[1, 16, 128]" = torch.ops.aten.view.default(clone_7, [1, 16, -1]);  clone_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:178 in forward, code: attn_output = self.o_proj(attn_output)
        t_10: "f32[128, 128]" = torch.ops.aten.t.default(arg16_1);  arg16_1 = None
        view_33: "f32[16, 128]" = torch.ops.aten.view.default(view_32, [16, 128]);  view_32 = None
        mm_10: "f32[16, 128]" = torch.ops.aten.mm.default(view_33, t_10);  view_33 = t_10 = None
        _unsafe_view_14: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm_10, [1, 16, 128]);  mm_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:273 in forward, code: hidden_states = residual + hidden_states * self.residual_multiplier
        mul_22: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(_unsafe_view_14, 1.0);  _unsafe_view_14 = None
        add_14: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_9, mul_22);  add_9 = mul_22 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:195 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_4: "f32[1, 16, 128]" = torch.ops.aten.pow.Tensor_Scalar(add_14, 2)
        mean_3: "f32[1, 16, 1]" = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:196 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_15: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_15);  add_15 = None
        mul_23: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(add_14, rsqrt_3);  rsqrt_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:197 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_24: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(arg17_1, mul_23);  arg17_1 = mul_23 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:215 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_11: "f32[128, 256]" = torch.ops.aten.t.default(arg18_1);  arg18_1 = None
        view_34: "f32[16, 128]" = torch.ops.aten.view.default(mul_24, [16, 128])
        mm_11: "f32[16, 256]" = torch.ops.aten.mm.default(view_34, t_11);  view_34 = t_11 = None
        _unsafe_view_15: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm_11, [1, 16, 256]);  mm_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu_1: "f32[1, 16, 256]" = torch.ops.aten.silu.default(_unsafe_view_15);  _unsafe_view_15 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:215 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        t_12: "f32[128, 256]" = torch.ops.aten.t.default(arg19_1);  arg19_1 = None
        view_35: "f32[16, 128]" = torch.ops.aten.view.default(mul_24, [16, 128]);  mul_24 = None
        mm_12: "f32[16, 256]" = torch.ops.aten.mm.default(view_35, t_12);  view_35 = t_12 = None
        _unsafe_view_16: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm_12, [1, 16, 256]);  mm_12 = None
        mul_25: "f32[1, 16, 256]" = torch.ops.aten.mul.Tensor(silu_1, _unsafe_view_16);  silu_1 = _unsafe_view_16 = None
        t_13: "f32[256, 128]" = torch.ops.aten.t.default(arg20_1);  arg20_1 = None
        view_36: "f32[16, 256]" = torch.ops.aten.view.default(mul_25, [16, 256]);  mul_25 = None
        mm_13: "f32[16, 128]" = torch.ops.aten.mm.default(view_36, t_13);  view_36 = t_13 = None
        _unsafe_view_17: "f32[1, 16, 128]" = torch.ops.aten._unsafe_view.default(mm_13, [1, 16, 128]);  mm_13 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:278 in forward, code: hidden_states = residual + hidden_states * self.residual_multiplier
        mul_26: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(_unsafe_view_17, 1.0);  _unsafe_view_17 = None
        add_16: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_14, mul_26);  add_14 = mul_26 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:195 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_5: "f32[1, 16, 128]" = torch.ops.aten.pow.Tensor_Scalar(add_16, 2)
        mean_4: "f32[1, 16, 1]" = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:196 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_17: "f32[1, 16, 1]" = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4: "f32[1, 16, 1]" = torch.ops.aten.rsqrt.default(add_17);  add_17 = None
        mul_27: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(add_16, rsqrt_4);  add_16 = rsqrt_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:197 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_28: "f32[1, 16, 128]" = torch.ops.aten.mul.Tensor(arg21_1, mul_27);  arg21_1 = mul_27 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:496 in forward, code: logits = self.lm_head(hidden_states[:, slice_indices, :])
        alias: "f32[1, 16, 128]" = torch.ops.aten.alias.default(mul_28);  mul_28 = None
        t_14: "f32[128, 256]" = torch.ops.aten.t.default(arg22_1);  arg22_1 = None
        view_37: "f32[16, 128]" = torch.ops.aten.view.default(alias, [16, 128]);  alias = None
        mm_14: "f32[16, 256]" = torch.ops.aten.mm.default(view_37, t_14);  view_37 = t_14 = None
        _unsafe_view_18: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm_14, [1, 16, 256]);  mm_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/granite/modeling_granite.py:497 in forward, code: logits = logits / self.config.logits_scaling  # main diff with Llama
        div: "f32[1, 16, 256]" = torch.ops.aten.div.Tensor(_unsafe_view_18, 1.0);  _unsafe_view_18 = None
        return (cat_4, cat_3, cat_8, cat_7, div)
