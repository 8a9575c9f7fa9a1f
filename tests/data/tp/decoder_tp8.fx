class decoder_tp8(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1024]", arg1_1: "bf16[1024]", arg2_1: "bf16[384, 1024]", arg3_1: "bf16[1024, 128]", arg4_1: "bf16[704, 1024]", arg5_1: "bf16[1024, 352]", arg6_1: "bf16[16, 1024]", arg7_1: "bf16[16, 1024]"):
        # No stacktrace found for following nodes
        add: "bf16[16, 1024]" = torch.ops.aten.add.Tensor(arg6_1, arg7_1);  arg6_1 = arg7_1 = None
        _to_copy: "f32[16, 1024]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        pow_1: "f32[16, 1024]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2);  _to_copy = None
        mean: "f32[16, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None
        _to_copy_1: "f32[16, 1024]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        add_1: "f32[16, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[16, 1]" = torch.ops.aten.rsqrt.default(add_1);  add_1 = None
        mul: "f32[16, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_1, rsqrt);  _to_copy_1 = rsqrt = None
        _to_copy_2: "bf16[16, 1024]" = torch.ops.aten._to_copy.default(mul, dtype = torch.bfloat16);  mul = None
        mul_1: "bf16[16, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_2, arg0_1);  _to_copy_2 = arg0_1 = None
        t: "bf16[1024, 384]" = torch.ops.aten.t.default(arg2_1);  arg2_1 = None
        mm: "bf16[16, 384]" = torch.ops.aten.mm.default(mul_1, t);  mul_1 = t = None
        split = torch.ops.aten.split.Tensor(mm, 128, -1);  mm = None
        getitem: "bf16[16, 128]" = split[0]
        getitem_1: "bf16[16, 128]" = split[1]
        getitem_2: "bf16[16, 128]" = split[2];  split = None
        view: "bf16[16, 2, 64]" = torch.ops.aten.view.default(getitem, [16, 2, 64]);  getitem = None
        transpose: "bf16[2, 16, 64]" = torch.ops.aten.transpose.int(view, 0, 1);  view = None
        view_1: "bf16[16, 2, 64]" = torch.ops.aten.view.default(getitem_1, [16, 2, 64]);  getitem_1 = None
        transpose_1: "bf16[2, 16, 64]" = torch.ops.aten.transpose.int(view_1, 0, 1);  view_1 = None
        view_2: "bf16[16, 2, 64]" = torch.ops.aten.view.default(getitem_2, [16, 2, 64]);  getitem_2 = None
        transpose_2: "bf16[2, 16, 64]" = torch.ops.aten.transpose.int(view_2, 0, 1);  view_2 = None
        _to_copy_3: "f32[2, 16, 64]" = torch.ops.aten._to_copy.default(transpose, dtype = torch.float32);  transpose = None
        _to_copy_4: "f32[2, 16, 64]" = torch.ops.aten._to_copy.default(transpose_1, dtype = torch.float32);  transpose_1 = None
        _to_copy_5: "f32[2, 16, 64]" = torch.ops.aten._to_copy.default(transpose_2, dtype = torch.float32);  transpose_2 = None
        mul_2: "f32[2, 16, 64]" = torch.ops.aten.mul.Scalar(_to_copy_3, 0.3535533905932738);  _to_copy_3 = None
        ones: "b8[16, 16]" = torch.ops.aten.ones.default([16, 16], dtype = torch.bool, layout = torch.strided, device = device(type='cpu'))
        tril: "b8[16, 16]" = torch.ops.aten.tril.default(ones);  ones = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-inf, dtype = torch.float32, device = device(type='cpu'))
        scalar_tensor_1: "f32[]" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[16, 16]" = torch.ops.aten.where.self(tril, scalar_tensor_1, scalar_tensor);  tril = scalar_tensor_1 = scalar_tensor = None
        transpose_3: "f32[2, 64, 16]" = torch.ops.aten.transpose.int(_to_copy_4, -2, -1);  _to_copy_4 = None
        mul_3: "f32[2, 64, 16]" = torch.ops.aten.mul.Scalar(transpose_3, 0.3535533905932738);  transpose_3 = None
        expand: "f32[2, 16, 64]" = torch.ops.aten.expand.default(mul_2, [2, 16, 64]);  mul_2 = None
        view_3: "f32[2, 16, 64]" = torch.ops.aten.view.default(expand, [2, 16, 64]);  expand = None
        expand_1: "f32[2, 64, 16]" = torch.ops.aten.expand.default(mul_3, [2, 64, 16]);  mul_3 = None
        view_4: "f32[2, 64, 16]" = torch.ops.aten.view.default(expand_1, [2, 64, 16]);  expand_1 = None
        bmm: "f32[2, 16, 16]" = torch.ops.aten.bmm.default(view_3, view_4);  view_3 = view_4 = None
        _unsafe_view: "f32[2, 16, 16]" = torch.ops.aten._unsafe_view.default(bmm, [2, 16, 16]);  bmm = None
        add_2: "f32[2, 16, 16]" = torch.ops.aten.add.Tensor(_unsafe_view, where);  _unsafe_view = where = None
        _safe_softmax: "f32[2, 16, 16]" = torch.ops.aten._safe_softmax.default(add_2, -1);  add_2 = None
        _to_copy_6: "bf16[2, 16, 16]" = torch.ops.aten._to_copy.default(_safe_softmax, dtype = torch.bfloat16);  _to_copy_6 = None
        expand_2: "f32[2, 16, 16]" = torch.ops.aten.expand.default(_safe_softmax, [2, 16, 16]);  _safe_softmax = None
        view_5: "f32[2, 16, 16]" = torch.ops.aten.view.default(expand_2, [2, 16, 16]);  expand_2 = None
        expand_3: "f32[2, 16, 64]" = torch.ops.aten.expand.default(_to_copy_5, [2, 16, 64]);  _to_copy_5 = None
        view_6: "f32[2, 16, 64]" = torch.ops.aten.view.default(expand_3, [2, 16, 64]);  expand_3 = None
        bmm_1: "f32[2, 16, 64]" = torch.ops.aten.bmm.default(view_5, view_6);  view_5 = view_6 = None
        _unsafe_view_1: "f32[2, 16, 64]" = torch.ops.aten._unsafe_view.default(bmm_1, [2, 16, 64]);  bmm_1 = None
        _to_copy_7: "bf16[2, 16, 64]" = torch.ops.aten._to_copy.default(_unsafe_view_1, dtype = torch.bfloat16);  _unsafe_view_1 = None
        transpose_4: "bf16[16, 2, 64]" = torch.ops.aten.transpose.int(_to_copy_7, 0, 1);  _to_copy_7 = None
        clone: "bf16[16, 2, 64]" = torch.ops.aten.clone.default(transpose_4, memory_format = torch.contiguous_format);  transpose_4 = None
        _unsafe_view_2: "bf16[16, 128]" = torch.ops.aten._unsafe_view.default(clone, [16, 128]);  clone = None
        t_1: "bf16[128, 1024]" = torch.ops.aten.t.default(arg3_1);  arg3_1 = None
        mm_1: "bf16[16, 1024]" = torch.ops.aten.mm.default(_unsafe_view_2, t_1);  _unsafe_view_2 = t_1 = None
        all_reduce: "bf16[16, 1024]" = torch.ops._c10d_functional.all_reduce.default(mm_1, 'sum', '0');  mm_1 = None
        wait_tensor: "bf16[16, 1024]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        add_3: "bf16[16, 1024]" = torch.ops.aten.add.Tensor(wait_tensor, add);  wait_tensor = add = None
        _to_copy_8: "f32[16, 1024]" = torch.ops.aten._to_copy.default(add_3, dtype = torch.float32)
        pow_2: "f32[16, 1024]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy_8, 2);  _to_copy_8 = None
        mean_1: "f32[16, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None
        _to_copy_9: "f32[16, 1024]" = torch.ops.aten._to_copy.default(add_3, dtype = torch.float32)
        add_4: "f32[16, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[16, 1]" = torch.ops.aten.rsqrt.default(add_4);  add_4 = None
        mul_4: "f32[16, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_9, rsqrt_1);  _to_copy_9 = rsqrt_1 = None
        _to_copy_10: "bf16[16, 1024]" = torch.ops.aten._to_copy.default(mul_4, dtype = torch.bfloat16);  mul_4 = None
        mul_5: "bf16[16, 1024]" = torch.ops.aten.mul.Tensor(_to_copy_10, arg1_1);  _to_copy_10 = arg1_1 = None
        t_2: "bf16[1024, 704]" = torch.ops.aten.t.default(arg4_1);  arg4_1 = None
        mm_2: "bf16[16, 704]" = torch.ops.aten.mm.default(mul_5, t_2);  mul_5 = t_2 = None
        split_1 = torch.ops.aten.split.Tensor(mm_2, 352, -1);  mm_2 = None
        getitem_3: "bf16[16, 352]" = split_1[0]
        getitem_4: "bf16[16, 352]" = split_1[1];  split_1 = None
        silu: "bf16[16, 352]" = torch.ops.aten.silu.default(getitem_3);  getitem_3 = None
        mul_6: "bf16[16, 352]" = torch.ops.aten.mul.Tensor(silu, getitem_4);  silu = getitem_4 = None
        t_3: "bf16[352, 1024]" = torch.ops.aten.t.default(arg5_1);  arg5_1 = None
        mm_3: "bf16[16, 1024]" = torch.ops.aten.mm.default(mul_6, t_3);  mul_6 = t_3 = None
        all_reduce_1: "bf16[16, 1024]" = torch.ops._c10d_functional.all_reduce.default(mm_3, 'sum', '0');  mm_3 = None
        wait_tensor_1: "bf16[16, 1024]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce_1);  all_reduce_1 = None
        return (wait_tensor_1, add_3)
