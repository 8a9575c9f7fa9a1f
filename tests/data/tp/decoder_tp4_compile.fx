class decoder_tp4_compile(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s26)", arg1_1: "bf16[s26, 1024]", arg2_1: "Sym(s26)", arg3_1: "bf16[s26, 1024]", arg4_1: "bf16[1024]", arg5_1: "bf16[768, 1024]", arg6_1: "bf16[1024, 256]", arg7_1: "bf16[1024]", arg8_1: "bf16[1408, 1024]", arg9_1: "bf16[1024, 704]"):
        # File: /work/main/tests/data/tp/trace.py:71 in forward, code: r = hidden + residual
        add: "bf16[s26, 1024]" = torch.ops.aten.add.Tensor(arg1_1, arg3_1);  arg1_1 = arg3_1 = None

        # File: /work/main/tests/data/tp/trace.py:50 in forward, code: var = x.float().pow(2).mean(-1, keepdim=True)
        _to_copy: "f32[s26, 1024]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        pow_1: "f32[s26, 1024]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2);  _to_copy = None
        mean: "f32[s26, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: /work/main/tests/data/tp/trace.py:51 in forward, code: return (x.float() * torch.rsqrt(var + 1e-6)).to(x.dtype) * self.weight
        _to_copy_1: "f32[s26, 1024]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        add_16: "f32[s26, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[s26, 1]" = torch.ops.aten.rsqrt.default(add_16);  add_16 = None
        mul_11: "f32[s26, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_1, rsqrt);  _to_copy_1 = rsqrt = None
        _to_copy_2: "bf16[s26, 1024]" = torch.ops.aten._to_copy.default(mul_11, dtype = torch.bfloat16);  mul_11 = None
        mul_16: "bf16[s26, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_2, arg4_1);  _to_copy_2 = arg4_1 = None

        # File: /work/main/tests/data/tp/trace.py:72 in forward, code: q, k, v = self.qkv(self.input_norm(r)).chunk(3, dim=-1)
        t: "bf16[1024, 768]" = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
        mm: "bf16[s26, 768]" = torch.ops.aten.mm.default(mul_16, t);  mul_16 = t = None
        split = torch.ops.aten.split.Tensor(mm, 256, -1);  mm = None
        getitem: "bf16[s26, 256]" = split[0]
        getitem_1: "bf16[s26, 256]" = split[1]
        getitem_2: "bf16[s26, 256]" = split[2];  split = None

        # File: /work/main/tests/data/tp/trace.py:73 in <genexpr>, code: q, k, v = (t.view(tokens, self.local_heads, self.head_dim).transpose(0, 1)
        view: "bf16[s26, 4, 64]" = torch.ops.aten.view.default(getitem, [arg2_1, 4, 64]);  getitem = None
        transpose: "bf16[4, s26, 64]" = torch.ops.aten.transpose.int(view, 0, 1);  view = None
        view_1: "bf16[s26, 4, 64]" = torch.ops.aten.view.default(getitem_1, [arg2_1, 4, 64]);  getitem_1 = None
        transpose_1: "bf16[4, s26, 64]" = torch.ops.aten.transpose.int(view_1, 0, 1);  view_1 = None
        view_2: "bf16[s26, 4, 64]" = torch.ops.aten.view.default(getitem_2, [arg2_1, 4, 64]);  getitem_2 = None
        transpose_2: "bf16[4, s26, 64]" = torch.ops.aten.transpose.int(view_2, 0, 1);  view_2 = None

        # File: /work/main/tests/data/tp/trace.py:75 in forward, code: a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        _to_copy_3: "f32[4, s26, 64]" = torch.ops.aten._to_copy.default(transpose, dtype = torch.float32);  transpose = None
        _to_copy_4: "f32[4, s26, 64]" = torch.ops.aten._to_copy.default(transpose_1, dtype = torch.float32);  transpose_1 = None
        _to_copy_5: "f32[4, s26, 64]" = torch.ops.aten._to_copy.default(transpose_2, dtype = torch.float32);  transpose_2 = None
        mul_47: "f32[4, s26, 64]" = torch.ops.aten.mul.Scalar(_to_copy_3, 0.3535533905932738);  _to_copy_3 = None
        ones: "b8[s26, s26]" = torch.ops.aten.ones.default([arg2_1, arg2_1], dtype = torch.bool, layout = torch.strided, device = device(type='cpu'))
        tril: "b8[s26, s26]" = torch.ops.aten.tril.default(ones);  ones = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, device = device(type='cpu'))
        scalar_tensor_1: "f32[]" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[s26, s26]" = torch.ops.aten.where.self(tril, scalar_tensor_1, scalar_tensor);  tril = scalar_tensor_1 = scalar_tensor = None
        transpose_3: "f32[4, 64, s26]" = torch.ops.aten.transpose.int(_to_copy_4, -2, -1);  _to_copy_4 = None
        mul_56: "f32[4, 64, s26]" = torch.ops.aten.mul.Scalar(transpose_3, 0.3535533905932738);  transpose_3 = None
        expand: "f32[4, s26, 64]" = torch.ops.aten.expand.default(mul_47, [4, arg2_1, 64]);  mul_47 = None
        view_3: "f32[4, s26, 64]" = torch.ops.aten.view.default(expand, [4, arg2_1, 64]);  expand = None
        expand_1: "f32[4, 64, s26]" = torch.ops.aten.expand.default(mul_56, [4, 64, arg2_1]);  mul_56 = None
        view_4: "f32[4, 64, s26]" = torch.ops.aten.view.default(expand_1, [4, 64, arg2_1]);  expand_1 = None
        bmm: "f32[4, s26, s26]" = torch.ops.aten.bmm.default(view_3, view_4);  view_3 = view_4 = None
        view_5: "f32[4, s26, s26]" = torch.ops.aten.view.default(bmm, [4, arg2_1, arg2_1]);  bmm = None
        add_108: "f32[4, s26, s26]" = torch.ops.aten.add.Tensor(view_5, where);  view_5 = where = None
        _safe_softmax: "f32[4, s26, s26]" = torch.ops.aten._safe_softmax.default(add_108, -1);  add_108 = None
        expand_2: "f32[4, s26, s26]" = torch.ops.aten.expand.default(_safe_softmax, [4, arg2_1, arg2_1]);  _safe_softmax = None
        view_6: "f32[4, s26, s26]" = torch.ops.aten.view.default(expand_2, [4, arg2_1, arg2_1]);  expand_2 = None
        expand_3: "f32[4, s26, 64]" = torch.ops.aten.expand.default(_to_copy_5, [4, arg2_1, 64]);  _to_copy_5 = None
        view_7: "f32[4, s26, 64]" = torch.ops.aten.view.default(expand_3, [4, arg2_1, 64]);  expand_3 = None
        bmm_1: "f32[4, s26, 64]" = torch.ops.aten.bmm.default(view_6, view_7);  view_6 = view_7 = None
        view_8: "f32[4, s26, 64]" = torch.ops.aten.view.default(bmm_1, [4, arg2_1, 64]);  bmm_1 = None
        _to_copy_7: "bf16[4, s26, 64]" = torch.ops.aten._to_copy.default(view_8, dtype = torch.bfloat16);  view_8 = None

        # File: /work/main/tests/data/tp/trace.py:76 in forward, code: a = a.transpose(0, 1).reshape(tokens, self.local_heads * self.head_dim)
        transpose_4: "bf16[s26, 4, 64]" = torch.ops.aten.transpose.int(_to_copy_7, 0, 1);  _to_copy_7 = None
        clone: "bf16[s26, 4, 64]" = torch.ops.aten.clone.default(transpose_4, memory_format = torch.contiguous_format);  transpose_4 = None
        _unsafe_view: "bf16[s26, 256]" = torch.ops.aten._unsafe_view.default(clone, [arg2_1, 256]);  clone = arg2_1 = None

        # File: /work/main/tests/data/tp/trace.py:77 in forward, code: attn = funcol.all_reduce(self.o(a), "sum", group)
        t_1: "bf16[256, 1024]" = torch.ops.aten.t.default(arg6_1);  arg6_1 = None
        mm_1: "bf16[s26, 1024]" = torch.ops.aten.mm.default(_unsafe_view, t_1);  _unsafe_view = t_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/distributed/_functional_collectives.py:179 in all_reduce, code: tensor = torch.ops._c10d_functional.all_reduce(
        all_reduce: "bf16[s26, 1024]" = torch.ops._c10d_functional.all_reduce.default(mm_1, 'sum', '0');  mm_1 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/distributed/_functional_collectives.py:142 in wait_tensor, code: return torch.ops._c10d_functional.wait_tensor(tensor)  # type: ignore[attr-defined]
        wait_tensor: "bf16[s26, 1024]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None

        # File: /work/main/tests/data/tp/trace.py:78 in forward, code: r2 = attn + r
        add_167: "bf16[s26, 1024]" = torch.ops.aten.add.Tensor(wait_tensor, add);  wait_tensor = add = None

        # File: /work/main/tests/data/tp/trace.py:50 in forward, code: var = x.float().pow(2).mean(-1, keepdim=True)
        _to_copy_8: "f32[s26, 1024]" = torch.ops.aten._to_copy.default(add_167, dtype = torch.float32)
        pow_2: "f32[s26, 1024]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy_8, 2);  _to_copy_8 = None
        mean_1: "f32[s26, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: /work/main/tests/data/tp/trace.py:51 in forward, code: return (x.float() * torch.rsqrt(var + 1e-6)).to(x.dtype) * self.weight
        _to_copy_9: "f32[s26, 1024]" = torch.ops.aten._to_copy.default(add_167, dtype = torch.float32)
        add_183: "f32[s26, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[s26, 1]" = torch.ops.aten.rsqrt.default(add_183);  add_183 = None
        mul_168: "f32[s26, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_9, rsqrt_1);  _to_copy_9 = rsqrt_1 = None
        _to_copy_10: "bf16[s26, 1024]" = torch.ops.aten._to_copy.default(mul_168, dtype = torch.bfloat16);  mul_168 = None
        mul_173: "bf16[s26, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_10, arg7_1);  _to_copy_10 = arg7_1 = None

        # File: /work/main/tests/data/tp/trace.py:79 in forward, code: gate, up = self.gate_up(self.post_norm(r2)).chunk(2, dim=-1)
        t_2: "bf16[1024, 1408]" = torch.ops.aten.t.default(arg8_1);  arg8_1 = None
        mm_2: "bf16[s26, 1408]" = torch.ops.aten.mm.default(mul_173, t_2);  mul_173 = t_2 = None
        split_1 = torch.ops.aten.split.Tensor(mm_2, 704, -1);  mm_2 = None
        getitem_3: "bf16[s26, 704]" = split_1[0]
        getitem_4: "bf16[s26, 704]" = split_1[1];  split_1 = None

        # File: /work/main/tests/data/tp/trace.py:80 in forward, code: mlp = funcol.all_reduce(self.down(torch.nn.functional.silu(gate) * up), "sum", group)
        silu: "bf16[s26, 704]" = torch.ops.aten.silu.default(getitem_3);  getitem_3 = None
        mul_184: "bf16[s26, 704]" = torch.ops.aten.mul.Tensor(silu, getitem_4);  silu = getitem_4 = None
        t_3: "bf16[704, 1024]" = torch.ops.aten.t.default(arg9_1);  arg9_1 = None
        mm_3: "bf16[s26, 1024]" = torch.ops.aten.mm.default(mul_184, t_3);  mul_184 = t_3 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/distributed/_functional_collectives.py:179 in all_reduce, code: tensor = torch.ops._c10d_functional.all_reduce(
        all_reduce_1: "bf16[s26, 1024]" = torch.ops._c10d_functional.all_reduce.default(mm_3, 'sum', '0');  mm_3 = None

        # File: /work/main/.venv/lib/python3.11/site-packages/torch/distributed/_functional_collectives.py:142 in wait_tensor, code: return torch.ops._c10d_functional.wait_tensor(tensor)  # type: ignore[attr-defined]
        wait_tensor_1: "bf16[s26, 1024]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce_1);  all_reduce_1 = None
        return (wait_tensor_1, add_167)
