class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[1, 16]", arg1_1: "f32[256, 128]", arg2_1: "f32[16]", arg3_1: "f32[128]", arg4_1: "f32[128]", arg5_1: "f32[128, 128]", arg6_1: "f32[128]", arg7_1: "f32[64, 128]", arg8_1: "f32[64]", arg9_1: "f32[64, 128]", arg10_1: "f32[64]", arg11_1: "f32[128, 128]", arg12_1: "f32[128]", arg13_1: "f32[128]", arg14_1: "f32[128]", arg15_1: "f32[256, 128]", arg16_1: "f32[256]", arg17_1: "f32[128, 256]", arg18_1: "f32[128]", arg19_1: "f32[128]", arg20_1: "f32[128]", arg21_1: "f32[128, 128]", arg22_1: "f32[128]", arg23_1: "f32[64, 128]", arg24_1: "f32[64]", arg25_1: "f32[64, 128]", arg26_1: "f32[64]", arg27_1: "f32[128, 128]", arg28_1: "f32[128]", arg29_1: "f32[128]", arg30_1: "f32[128]", arg31_1: "f32[256, 128]", arg32_1: "f32[256]", arg33_1: "f32[128, 256]", arg34_1: "f32[128]", arg35_1: "f32[128]", arg36_1: "f32[128]"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:357 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        embedding: "f32[1, 16, 128]" = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg0_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:364 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.ops.aten.arange.default(16, device = device(type='cuda', index=0), pin_memory = False)
        add: "i64[16]" = torch.ops.aten.add.Tensor(arange, 0);  arange = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:365 in forward, code: position_ids = position_ids.unsqueeze(0)
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

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:377 in forward, code: hidden_states = nn.functional.dropout(
        clone: "f32[1, 16, 128]" = torch.ops.aten.clone.default(embedding);  embedding = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:307 in forward, code: self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1).to(dtype=torch.float, device=x.device)
        unsqueeze_7: "f32[1, 16]" = torch.ops.aten.unsqueeze.default(arg2_1, 0);  arg2_1 = None
        unsqueeze_8: "f32[1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 2);  unsqueeze_7 = None
        expand_1: "f32[1, 16, 1]" = torch.ops.aten.expand.default(unsqueeze_8, [1, -1, 1]);  unsqueeze_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:309 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        unsqueeze_9: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        _to_copy: "f32[1, 1, 16]" = torch.ops.aten._to_copy.default(unsqueeze_9, dtype = torch.float32);  unsqueeze_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:314 in forward, code: freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        expand_2: "f32[1, 16, 1]" = torch.ops.aten.expand.default(expand_1, [1, 16, 1]);  expand_1 = None
        view: "f32[1, 16, 1]" = torch.ops.aten.view.default(expand_2, [1, 16, 1]);  expand_2 = None
        expand_3: "f32[1, 1, 16]" = torch.ops.aten.expand.default(_to_copy, [1, 1, 16]);  _to_copy = None
        view_1: "f32[1, 1, 16]" = torch.ops.aten.view.default(expand_3, [1, 1, 16]);  expand_3 = None
        bmm: "f32[1, 16, 16]" = torch.ops.aten.bmm.default(view, view_1);  view = view_1 = None
        view_2: "f32[1, 16, 16]" = torch.ops.aten.view.default(bmm, [1, 16, 16]);  bmm = None
        transpose: "f32[1, 16, 16]" = torch.ops.aten.transpose.int(view_2, 1, 2);  view_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:315 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        cat: "f32[1, 16, 32]" = torch.ops.aten.cat.default([transpose, transpose], -1);  transpose = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:316 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 16, 32]" = torch.ops.aten.cos.default(cat)
        mul: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:317 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 16, 32]" = torch.ops.aten.sin.default(cat);  cat = None
        mul_1: "f32[1, 16, 32]" = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:225 in forward, code: hidden_states = self.input_layernorm(hidden_states)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(clone, [128], arg3_1, arg4_1, 1e-05);  arg3_1 = arg4_1 = None
        getitem: "f32[1, 16, 128]" = native_layer_norm[0];  native_layer_norm = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:170 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_3: "f32[16, 128]" = torch.ops.aten.view.default(getitem, [16, 128])
        t: "f32[128, 128]" = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
        addmm: "f32[16, 128]" = torch.ops.aten.addmm.default(arg6_1, view_3, t);  arg6_1 = view_3 = t = None
        view_4: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm, [1, 16, 128]);  addmm = None
        view_5: "f32[1, 16, 4, 32]" = torch.ops.aten.view.default(view_4, [1, 16, -1, 32]);  view_4 = None
        transpose_1: "f32[1, 4, 16, 32]" = torch.ops.aten.transpose.int(view_5, 1, 2);  view_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:171 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_6: "f32[16, 128]" = torch.ops.aten.view.default(getitem, [16, 128])
        t_1: "f32[128, 64]" = torch.ops.aten.t.default(arg7_1);  arg7_1 = None
        addmm_1: "f32[16, 64]" = torch.ops.aten.addmm.default(arg8_1, view_6, t_1);  arg8_1 = view_6 = t_1 = None
        view_7: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_1, [1, 16, 64]);  addmm_1 = None
        view_8: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(view_7, [1, 16, -1, 32]);  view_7 = None
        transpose_2: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_8, 1, 2);  view_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:172 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_9: "f32[16, 128]" = torch.ops.aten.view.default(getitem, [16, 128]);  getitem = None
        t_2: "f32[128, 64]" = torch.ops.aten.t.default(arg9_1);  arg9_1 = None
        addmm_2: "f32[16, 64]" = torch.ops.aten.addmm.default(arg10_1, view_9, t_2);  arg10_1 = view_9 = t_2 = None
        view_10: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_2, [1, 16, 64]);  addmm_2 = None
        view_11: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(view_10, [1, 16, -1, 32]);  view_10 = None
        transpose_3: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_11, 1, 2);  view_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:96 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_10: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:97 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_11: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_1, 1)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:98 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_2: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_1, unsqueeze_10)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:72 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_1: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_1, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:73 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_2: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_1, 3, 16, 9223372036854775807);  transpose_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:74 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f32[1, 4, 16, 16]" = torch.ops.aten.neg.default(slice_2);  slice_2 = None
        cat_1: "f32[1, 4, 16, 32]" = torch.ops.aten.cat.default([neg, slice_1], -1);  neg = slice_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:98 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_3: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_11);  cat_1 = None
        add_3: "f32[1, 4, 16, 32]" = torch.ops.aten.add.Tensor(mul_2, mul_3);  mul_2 = mul_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:99 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_4: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_2, unsqueeze_10);  unsqueeze_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:72 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_3: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_2, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:73 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_4: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_2, 3, 16, 9223372036854775807);  transpose_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:74 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f32[1, 2, 16, 16]" = torch.ops.aten.neg.default(slice_4);  slice_4 = None
        cat_2: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([neg_1, slice_3], -1);  neg_1 = slice_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:99 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_5: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_11);  cat_2 = unsqueeze_11 = None
        add_4: "f32[1, 2, 16, 32]" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant1: "f32[0]" = self._tensor_constant1
        lift_fresh_copy_1: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant1);  _tensor_constant1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant2: "f32[0]" = self._tensor_constant2
        lift_fresh_copy_2: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant2);  _tensor_constant2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_3: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_1, add_4], -2);  lift_fresh_copy_1 = add_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_4: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_2, transpose_3], -2);  lift_fresh_copy_2 = transpose_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:111 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_12: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_3, 2)
        expand_4: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_12, [1, 2, 2, 16, 32]);  unsqueeze_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:112 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_1: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_4, memory_format = torch.contiguous_format);  expand_4 = None
        _unsafe_view: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_1, [1, 4, 16, 32]);  clone_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:111 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_13: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_4, 2)
        expand_5: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_13, [1, 2, 2, 16, 32]);  unsqueeze_13 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:112 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_2: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        _unsafe_view_1: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_2, [1, 4, 16, 32]);  clone_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:128 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_4: "f32[1, 4, 32, 16]" = torch.ops.aten.transpose.int(_unsafe_view, 2, 3);  _unsafe_view = None
        expand_6: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(add_3, [1, 4, 16, 32]);  add_3 = None
        view_12: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_6, [4, 16, 32]);  expand_6 = None
        expand_7: "f32[1, 4, 32, 16]" = torch.ops.aten.expand.default(transpose_4, [1, 4, 32, 16]);  transpose_4 = None
        view_13: "f32[4, 32, 16]" = torch.ops.aten.view.default(expand_7, [4, 32, 16]);  expand_7 = None
        bmm_1: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_12, view_13);  view_12 = view_13 = None
        view_14: "f32[1, 4, 16, 16]" = torch.ops.aten.view.default(bmm_1, [1, 4, 16, 16]);  bmm_1 = None
        mul_6: "f32[1, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_14, 0.1767766952966369);  view_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:130 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_5: "f32[1, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_6, where);  mul_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:132 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax: "f32[1, 4, 16, 16]" = torch.ops.aten._softmax.default(add_5, -1, False);  add_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:133 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_3: "f32[1, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:134 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_8: "f32[1, 4, 16, 16]" = torch.ops.aten.expand.default(clone_3, [1, 4, 16, 16]);  clone_3 = None
        view_15: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_8, [4, 16, 16]);  expand_8 = None
        expand_9: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(_unsafe_view_1, [1, 4, 16, 32]);  _unsafe_view_1 = None
        view_16: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_9, [4, 16, 32]);  expand_9 = None
        bmm_2: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_15, view_16);  view_15 = view_16 = None
        view_17: "f32[1, 4, 16, 32]" = torch.ops.aten.view.default(bmm_2, [1, 4, 16, 32]);  bmm_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:135 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_5: "f32[1, 16, 4, 32]" = torch.ops.aten.transpose.int(view_17, 1, 2);  view_17 = None
        clone_4: "f32[1, 16, 4, 32]" = torch.ops.aten.clone.default(transpose_5, memory_format = torch.contiguous_format);  transpose_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:196 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_18: "f32[1, 16, 128]" = torch.ops.aten.view.default(clone_4, [1, 16, -1]);  clone_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:197 in forward, code: attn_output = self.o_proj(attn_output)
        view_19: "f32[16, 128]" = torch.ops.aten.view.default(view_18, [16, 128]);  view_18 = None
        t_3: "f32[128, 128]" = torch.ops.aten.t.default(arg11_1);  arg11_1 = None
        addmm_3: "f32[16, 128]" = torch.ops.aten.addmm.default(arg12_1, view_19, t_3);  arg12_1 = view_19 = t_3 = None
        view_20: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm_3, [1, 16, 128]);  addmm_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:198 in forward, code: attn_output = nn.functional.dropout(
        clone_5: "f32[1, 16, 128]" = torch.ops.aten.clone.default(view_20);  view_20 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:236 in forward, code: hidden_states = residual + hidden_states
        add_6: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(clone, clone_5);  clone = clone_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:240 in forward, code: hidden_states = self.post_attention_layernorm(hidden_states)
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add_6, [128], arg13_1, arg14_1, 1e-05);  arg13_1 = arg14_1 = None
        getitem_3: "f32[1, 16, 128]" = native_layer_norm_1[0];  native_layer_norm_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:63 in forward, code: hidden_states = self.c_fc(hidden_states)
        view_21: "f32[16, 128]" = torch.ops.aten.view.default(getitem_3, [16, 128]);  getitem_3 = None
        t_4: "f32[128, 256]" = torch.ops.aten.t.default(arg15_1);  arg15_1 = None
        addmm_4: "f32[16, 256]" = torch.ops.aten.addmm.default(arg16_1, view_21, t_4);  arg16_1 = view_21 = t_4 = None
        view_22: "f32[1, 16, 256]" = torch.ops.aten.view.default(addmm_4, [1, 16, 256]);  addmm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:51 in forward, code: return self.act(input)
        gelu: "f32[1, 16, 256]" = torch.ops.aten.gelu.default(view_22, approximate = 'tanh');  view_22 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:65 in forward, code: hidden_states = self.c_proj(hidden_states)
        view_23: "f32[16, 256]" = torch.ops.aten.view.default(gelu, [16, 256]);  gelu = None
        t_5: "f32[256, 128]" = torch.ops.aten.t.default(arg17_1);  arg17_1 = None
        addmm_5: "f32[16, 128]" = torch.ops.aten.addmm.default(arg18_1, view_23, t_5);  arg18_1 = view_23 = t_5 = None
        view_24: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm_5, [1, 16, 128]);  addmm_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:66 in forward, code: hidden_states = nn.functional.dropout(hidden_states, p=self.residual_dropout, training=self.training)
        clone_6: "f32[1, 16, 128]" = torch.ops.aten.clone.default(view_24);  view_24 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:242 in forward, code: hidden_states = residual + hidden_states
        add_7: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_6, clone_6);  add_6 = clone_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:225 in forward, code: hidden_states = self.input_layernorm(hidden_states)
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_7, [128], arg19_1, arg20_1, 1e-05);  arg19_1 = arg20_1 = None
        getitem_6: "f32[1, 16, 128]" = native_layer_norm_2[0];  native_layer_norm_2 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:170 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_25: "f32[16, 128]" = torch.ops.aten.view.default(getitem_6, [16, 128])
        t_6: "f32[128, 128]" = torch.ops.aten.t.default(arg21_1);  arg21_1 = None
        addmm_6: "f32[16, 128]" = torch.ops.aten.addmm.default(arg22_1, view_25, t_6);  arg22_1 = view_25 = t_6 = None
        view_26: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm_6, [1, 16, 128]);  addmm_6 = None
        view_27: "f32[1, 16, 4, 32]" = torch.ops.aten.view.default(view_26, [1, 16, -1, 32]);  view_26 = None
        transpose_6: "f32[1, 4, 16, 32]" = torch.ops.aten.transpose.int(view_27, 1, 2);  view_27 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:171 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_28: "f32[16, 128]" = torch.ops.aten.view.default(getitem_6, [16, 128])
        t_7: "f32[128, 64]" = torch.ops.aten.t.default(arg23_1);  arg23_1 = None
        addmm_7: "f32[16, 64]" = torch.ops.aten.addmm.default(arg24_1, view_28, t_7);  arg24_1 = view_28 = t_7 = None
        view_29: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_7, [1, 16, 64]);  addmm_7 = None
        view_30: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(view_29, [1, 16, -1, 32]);  view_29 = None
        transpose_7: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_30, 1, 2);  view_30 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:172 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        view_31: "f32[16, 128]" = torch.ops.aten.view.default(getitem_6, [16, 128]);  getitem_6 = None
        t_8: "f32[128, 64]" = torch.ops.aten.t.default(arg25_1);  arg25_1 = None
        addmm_8: "f32[16, 64]" = torch.ops.aten.addmm.default(arg26_1, view_31, t_8);  arg26_1 = view_31 = t_8 = None
        view_32: "f32[1, 16, 64]" = torch.ops.aten.view.default(addmm_8, [1, 16, 64]);  addmm_8 = None
        view_33: "f32[1, 16, 2, 32]" = torch.ops.aten.view.default(view_32, [1, 16, -1, 32]);  view_32 = None
        transpose_8: "f32[1, 2, 16, 32]" = torch.ops.aten.transpose.int(view_33, 1, 2);  view_33 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:96 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_14: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul, 1);  mul = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:97 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_15: "f32[1, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(mul_1, 1);  mul_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:98 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_7: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_6, unsqueeze_14)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:72 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_5: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_6, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:73 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_6: "f32[1, 4, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_6, 3, 16, 9223372036854775807);  transpose_6 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:74 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_2: "f32[1, 4, 16, 16]" = torch.ops.aten.neg.default(slice_6);  slice_6 = None
        cat_5: "f32[1, 4, 16, 32]" = torch.ops.aten.cat.default([neg_2, slice_5], -1);  neg_2 = slice_5 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:98 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_8: "f32[1, 4, 16, 32]" = torch.ops.aten.mul.Tensor(cat_5, unsqueeze_15);  cat_5 = None
        add_8: "f32[1, 4, 16, 32]" = torch.ops.aten.add.Tensor(mul_7, mul_8);  mul_7 = mul_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:99 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_9: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(transpose_7, unsqueeze_14);  unsqueeze_14 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:72 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_7: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_7, 3, 0, 16)

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:73 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_8: "f32[1, 2, 16, 16]" = torch.ops.aten.slice.Tensor(transpose_7, 3, 16, 9223372036854775807);  transpose_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:74 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "f32[1, 2, 16, 16]" = torch.ops.aten.neg.default(slice_8);  slice_8 = None
        cat_6: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([neg_3, slice_7], -1);  neg_3 = slice_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:99 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_10: "f32[1, 2, 16, 32]" = torch.ops.aten.mul.Tensor(cat_6, unsqueeze_15);  cat_6 = unsqueeze_15 = None
        add_9: "f32[1, 2, 16, 32]" = torch.ops.aten.add.Tensor(mul_9, mul_10);  mul_9 = mul_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:125 in lazy_initialization, code: self.keys = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant3: "f32[0]" = self._tensor_constant3
        lift_fresh_copy_3: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant3);  _tensor_constant3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:126 in lazy_initialization, code: self.values = torch.tensor([], dtype=self.dtype, device=self.device)
        _tensor_constant4: "f32[0]" = self._tensor_constant4
        lift_fresh_copy_4: "f32[0]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant4);  _tensor_constant4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:146 in update, code: self.keys = torch.cat([self.keys, key_states], dim=-2)
        cat_7: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_3, add_9], -2);  lift_fresh_copy_3 = add_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/cache_utils.py:147 in update, code: self.values = torch.cat([self.values, value_states], dim=-2)
        cat_8: "f32[1, 2, 16, 32]" = torch.ops.aten.cat.default([lift_fresh_copy_4, transpose_8], -2);  lift_fresh_copy_4 = transpose_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:111 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_16: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_7, 2)
        expand_10: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_16, [1, 2, 2, 16, 32]);  unsqueeze_16 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:112 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_7: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_10, memory_format = torch.contiguous_format);  expand_10 = None
        _unsafe_view_2: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_7, [1, 4, 16, 32]);  clone_7 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:111 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_17: "f32[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(cat_8, 2)
        expand_11: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze_17, [1, 2, 2, 16, 32]);  unsqueeze_17 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:112 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_8: "f32[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_11, memory_format = torch.contiguous_format);  expand_11 = None
        _unsafe_view_3: "f32[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone_8, [1, 4, 16, 32]);  clone_8 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:128 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_9: "f32[1, 4, 32, 16]" = torch.ops.aten.transpose.int(_unsafe_view_2, 2, 3);  _unsafe_view_2 = None
        expand_12: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(add_8, [1, 4, 16, 32]);  add_8 = None
        view_34: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_12, [4, 16, 32]);  expand_12 = None
        expand_13: "f32[1, 4, 32, 16]" = torch.ops.aten.expand.default(transpose_9, [1, 4, 32, 16]);  transpose_9 = None
        view_35: "f32[4, 32, 16]" = torch.ops.aten.view.default(expand_13, [4, 32, 16]);  expand_13 = None
        bmm_3: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_34, view_35);  view_34 = view_35 = None
        view_36: "f32[1, 4, 16, 16]" = torch.ops.aten.view.default(bmm_3, [1, 4, 16, 16]);  bmm_3 = None
        mul_11: "f32[1, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_36, 0.1767766952966369);  view_36 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:130 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_10: "f32[1, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_11, where);  mul_11 = where = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:132 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax_1: "f32[1, 4, 16, 16]" = torch.ops.aten._softmax.default(add_10, -1, False);  add_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:133 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_9: "f32[1, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:134 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_14: "f32[1, 4, 16, 16]" = torch.ops.aten.expand.default(clone_9, [1, 4, 16, 16]);  clone_9 = None
        view_37: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_14, [4, 16, 16]);  expand_14 = None
        expand_15: "f32[1, 4, 16, 32]" = torch.ops.aten.expand.default(_unsafe_view_3, [1, 4, 16, 32]);  _unsafe_view_3 = None
        view_38: "f32[4, 16, 32]" = torch.ops.aten.view.default(expand_15, [4, 16, 32]);  expand_15 = None
        bmm_4: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_37, view_38);  view_37 = view_38 = None
        view_39: "f32[1, 4, 16, 32]" = torch.ops.aten.view.default(bmm_4, [1, 4, 16, 32]);  bmm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:135 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_10: "f32[1, 16, 4, 32]" = torch.ops.aten.transpose.int(view_39, 1, 2);  view_39 = None
        clone_10: "f32[1, 16, 4, 32]" = torch.ops.aten.clone.default(transpose_10, memory_format = torch.contiguous_format);  transpose_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:196 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_40: "f32[1, 16, 128]" = torch.ops.aten.view.default(clone_10, [1, 16, -1]);  clone_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:197 in forward, code: attn_output = self.o_proj(attn_output)
        view_41: "f32[16, 128]" = torch.ops.aten.view.default(view_40, [16, 128]);  view_40 = None
        t_9: "f32[128, 128]" = torch.ops.aten.t.default(arg27_1);  arg27_1 = None
        addmm_9: "f32[16, 128]" = torch.ops.aten.addmm.default(arg28_1, view_41, t_9);  arg28_1 = view_41 = t_9 = None
        view_42: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm_9, [1, 16, 128]);  addmm_9 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:198 in forward, code: attn_output = nn.functional.dropout(
        clone_11: "f32[1, 16, 128]" = torch.ops.aten.clone.default(view_42);  view_42 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:236 in forward, code: hidden_states = residual + hidden_states
        add_11: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_7, clone_11);  add_7 = clone_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:240 in forward, code: hidden_states = self.post_attention_layernorm(hidden_states)
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_11, [128], arg29_1, arg30_1, 1e-05);  arg29_1 = arg30_1 = None
        getitem_9: "f32[1, 16, 128]" = native_layer_norm_3[0];  native_layer_norm_3 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:63 in forward, code: hidden_states = self.c_fc(hidden_states)
        view_43: "f32[16, 128]" = torch.ops.aten.view.default(getitem_9, [16, 128]);  getitem_9 = None
        t_10: "f32[128, 256]" = torch.ops.aten.t.default(arg31_1);  arg31_1 = None
        addmm_10: "f32[16, 256]" = torch.ops.aten.addmm.default(arg32_1, view_43, t_10);  arg32_1 = view_43 = t_10 = None
        view_44: "f32[1, 16, 256]" = torch.ops.aten.view.default(addmm_10, [1, 16, 256]);  addmm_10 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/activations.py:51 in forward, code: return self.act(input)
        gelu_1: "f32[1, 16, 256]" = torch.ops.aten.gelu.default(view_44, approximate = 'tanh');  view_44 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:65 in forward, code: hidden_states = self.c_proj(hidden_states)
        view_45: "f32[16, 256]" = torch.ops.aten.view.default(gelu_1, [16, 256]);  gelu_1 = None
        t_11: "f32[256, 128]" = torch.ops.aten.t.default(arg33_1);  arg33_1 = None
        addmm_11: "f32[16, 128]" = torch.ops.aten.addmm.default(arg34_1, view_45, t_11);  arg34_1 = view_45 = t_11 = None
        view_46: "f32[1, 16, 128]" = torch.ops.aten.view.default(addmm_11, [1, 16, 128]);  addmm_11 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:66 in forward, code: hidden_states = nn.functional.dropout(hidden_states, p=self.residual_dropout, training=self.training)
        clone_12: "f32[1, 16, 128]" = torch.ops.aten.clone.default(view_46);  view_46 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:242 in forward, code: hidden_states = residual + hidden_states
        add_12: "f32[1, 16, 128]" = torch.ops.aten.add.Tensor(add_11, clone_12);  add_11 = clone_12 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:393 in forward, code: hidden_states = self.norm(hidden_states)
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_12, [128], arg35_1, arg36_1, 1e-05);  add_12 = arg35_1 = arg36_1 = None
        getitem_12: "f32[1, 16, 128]" = native_layer_norm_4[0];  native_layer_norm_4 = None

        # File: /opt/torch/.venv/lib/python3.12/site-packages/transformers/models/starcoder2/modeling_starcoder2.py:461 in forward, code: logits = self.lm_head(hidden_states[:, slice_indices, :])
        alias: "f32[1, 16, 128]" = torch.ops.aten.alias.default(getitem_12);  getitem_12 = None
        t_12: "f32[128, 256]" = torch.ops.aten.t.default(arg1_1);  arg1_1 = None
        view_47: "f32[16, 128]" = torch.ops.aten.view.default(alias, [16, 128]);  alias = None
        mm: "f32[16, 256]" = torch.ops.aten.mm.default(view_47, t_12);  view_47 = t_12 = None
        _unsafe_view_4: "f32[1, 16, 256]" = torch.ops.aten._unsafe_view.default(mm, [1, 16, 256]);  mm = None
        return (cat_4, cat_3, cat_8, cat_7, _unsafe_view_4)
