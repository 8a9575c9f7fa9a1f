
import os
os.environ['TORCH_CUDA_ARCH_LIST'] = '9.0a'
os.environ['TORCH_COMPILE_DEBUG'] = '1'
os.environ['TORCHINDUCTOR_CACHE_DIR'] = '/tmp/torchinductor_root'

import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims



import torch._dynamo.config
import torch._inductor.config
import torch._functorch.config
import torch.fx.experimental._config

torch._inductor.config.trace.enabled = False
torch._inductor.config.trace.save_real_tensors = False
torch._functorch.config.functionalize_rng_ops = False
torch._functorch.config.debug_partitioner = True
torch._functorch.config.fake_tensor_allow_unsafe_data_ptr_access = True
torch._functorch.config.unlift_effect_tokens = True
torch._functorch.config.selective_decompose = False



isolate_fails_code_str = None





if "__compile_source__" in globals():
    import inspect as __after_aot_inspect
    import linecache as __after_aot_linecache
    __after_aot_filename = __after_aot_inspect.currentframe().f_code.co_filename
    __after_aot_linecache.cache[__after_aot_filename] = (
        len(__compile_source__),
        None,
        __compile_source__.splitlines(True),
        __after_aot_filename,
    )
# torch version: 2.11.0+cu130
# torch cuda version: 13.0
# torch git version: 70d99e998b4955e0049d13a98d77ae1b14db1f45


# CUDA Info: 
# nvcc: NVIDIA (R) Cuda compiler driver 
# Copyright (c) 2005-2025 NVIDIA Corporation 
# Built on Wed_Aug_20_01:58:59_PM_PDT_2025 
# Cuda compilation tools, release 13.0, V13.0.88 
# Build cuda_13.0.r13.0/compiler.36424714_0 

# GPU Hardware Info: 
# NVIDIA H200 : 1 

torch._higher_order_ops.triton_kernel_wrap.kernel_side_table.reset_table()

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer('_tensor_constant0', tensor(0., dtype=torch.bfloat16))



    def forward(self, arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1):
        embedding = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None
        iota = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add = torch.ops.aten.add.Tensor(iota, 0);  iota = None
        unsqueeze = torch.ops.aten.unsqueeze.default(add, 0);  add = None
        expand = torch.ops.aten.expand.default(unsqueeze, [2, -1])
        slice_1 = torch.ops.aten.slice.Tensor(expand, 1, 0, 1)
        sub = torch.ops.aten.sub.Tensor(slice_1, 1);  slice_1 = None
        cat = torch.ops.aten.cat.default([sub, expand], -1);  sub = expand = None
        slice_2 = torch.ops.aten.slice.Tensor(cat, -1, 0, 8)
        slice_3 = torch.ops.aten.slice.Tensor(cat, -1, 1, 9);  cat = None
        sub_1 = torch.ops.aten.sub.Tensor(slice_3, slice_2);  slice_3 = slice_2 = None
        ne = torch.ops.aten.ne.Scalar(sub_1, 1);  sub_1 = None
        cumsum = torch.ops.aten.cumsum.default(ne, -1);  ne = None
        iota_1 = torch.ops.prims.iota.default(2, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        iota_3 = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add_1 = torch.ops.aten.add.Tensor(iota_3, 0);  iota_3 = None
        iota_4 = torch.ops.prims.iota.default(8, start = 0, step = 1, dtype = torch.int64, device = device(type='cpu'), requires_grad = False)
        add_2 = torch.ops.aten.add.Tensor(iota_4, 0);  iota_4 = None
        unsqueeze_1 = torch.ops.aten.unsqueeze.default(iota_1, 1);  iota_1 = None
        unsqueeze_2 = torch.ops.aten.unsqueeze.default(unsqueeze_1, 2);  unsqueeze_1 = None
        unsqueeze_3 = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None
        unsqueeze_4 = torch.ops.aten.unsqueeze.default(add_1, 0);  add_1 = None
        unsqueeze_5 = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6 = torch.ops.aten.unsqueeze.default(unsqueeze_5, 3);  unsqueeze_5 = None
        unsqueeze_7 = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_8 = torch.ops.aten.unsqueeze.default(unsqueeze_7, 1);  unsqueeze_7 = None
        unsqueeze_9 = torch.ops.aten.unsqueeze.default(unsqueeze_8, 2);  unsqueeze_8 = None
        full_default = torch.ops.aten.full.default([], True, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        le = torch.ops.aten.le.Tensor(unsqueeze_9, unsqueeze_6)
        bitwise_and = torch.ops.aten.bitwise_and.Tensor(full_default, le);  full_default = le = None
        index = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_6]);  unsqueeze_6 = None
        index_1 = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_9]);  cumsum = unsqueeze_3 = unsqueeze_9 = None
        eq = torch.ops.aten.eq.Tensor(index, index_1);  index = index_1 = None
        bitwise_and_1 = torch.ops.aten.bitwise_and.Tensor(bitwise_and, eq);  bitwise_and = eq = None
        expand_1 = torch.ops.aten.expand.default(bitwise_and_1, [2, -1, 8, 8]);  bitwise_and_1 = None
        _tensor_constant0 = self._tensor_constant0;  _tensor_constant0 = None
        full_default_1 = torch.ops.aten.full.default([], 0.0, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        full_default_2 = torch.ops.aten.full.default([], -3.3895313892515355e+38, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where = torch.ops.aten.where.self(expand_1, full_default_1, full_default_2);  expand_1 = full_default_1 = full_default_2 = None
        unsqueeze_10 = torch.ops.aten.unsqueeze.default(arg2_1, 0);  arg2_1 = None
        unsqueeze_11 = torch.ops.aten.unsqueeze.default(unsqueeze_10, 2);  unsqueeze_10 = None
        expand_2 = torch.ops.aten.expand.default(unsqueeze_11, [1, -1, 1]);  unsqueeze_11 = None
        unsqueeze_12 = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        convert_element_type = torch.ops.prims.convert_element_type.default(unsqueeze_12, torch.float32);  unsqueeze_12 = None
        expand_3 = torch.ops.aten.expand.default(expand_2, [1, 8, 1]);  expand_2 = None
        expand_4 = torch.ops.aten.expand.default(convert_element_type, [1, 1, 8]);  convert_element_type = None
        bmm = torch.ops.aten.bmm.default(expand_3, expand_4);  expand_3 = expand_4 = None
        permute = torch.ops.aten.permute.default(bmm, [0, 2, 1]);  bmm = None
        unsqueeze_13 = torch.ops.aten.unsqueeze.default(permute, 2);  permute = None
        expand_5 = torch.ops.aten.expand.default(unsqueeze_13, [1, 8, 2, 8]);  unsqueeze_13 = None
        clone = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        view_3 = torch.ops.aten.view.default(clone, [1, 8, 16]);  clone = None
        cos = torch.ops.aten.cos.default(view_3)
        mul = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None
        sin = torch.ops.aten.sin.default(view_3);  view_3 = None
        mul_1 = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None
        convert_element_type_1 = torch.ops.prims.convert_element_type.default(mul, torch.bfloat16);  mul = None
        convert_element_type_2 = torch.ops.prims.convert_element_type.default(mul_1, torch.bfloat16);  mul_1 = None
        convert_element_type_3 = torch.ops.prims.convert_element_type.default(embedding, torch.float32)
        pow_1 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_3, 2)
        mean = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None
        add_3 = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        mul_2 = torch.ops.aten.mul.Tensor(convert_element_type_3, rsqrt);  convert_element_type_3 = rsqrt = None
        convert_element_type_4 = torch.ops.prims.convert_element_type.default(mul_2, torch.bfloat16);  mul_2 = None
        mul_3 = torch.ops.aten.mul.Tensor(arg3_1, convert_element_type_4);  arg3_1 = convert_element_type_4 = None
        permute_1 = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        view_4 = torch.ops.aten.view.default(mul_3, [16, 64])
        mm = torch.ops.aten.mm.default(view_4, permute_1);  view_4 = permute_1 = None
        view_5 = torch.ops.aten.view.default(mm, [2, 8, 64]);  mm = None
        view_6 = torch.ops.aten.view.default(view_5, [2, 8, -1, 16]);  view_5 = None
        permute_2 = torch.ops.aten.permute.default(view_6, [0, 2, 1, 3]);  view_6 = None
        permute_3 = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        view_7 = torch.ops.aten.view.default(mul_3, [16, 64])
        mm_1 = torch.ops.aten.mm.default(view_7, permute_3);  view_7 = permute_3 = None
        view_8 = torch.ops.aten.view.default(mm_1, [2, 8, 32]);  mm_1 = None
        view_9 = torch.ops.aten.view.default(view_8, [2, 8, -1, 16]);  view_8 = None
        permute_4 = torch.ops.aten.permute.default(view_9, [0, 2, 1, 3]);  view_9 = None
        permute_5 = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        view_10 = torch.ops.aten.view.default(mul_3, [16, 64]);  mul_3 = None
        mm_2 = torch.ops.aten.mm.default(view_10, permute_5);  view_10 = permute_5 = None
        view_11 = torch.ops.aten.view.default(mm_2, [2, 8, 32]);  mm_2 = None
        view_12 = torch.ops.aten.view.default(view_11, [2, 8, -1, 16]);  view_11 = None
        permute_6 = torch.ops.aten.permute.default(view_12, [0, 2, 1, 3]);  view_12 = None
        unsqueeze_14 = torch.ops.aten.unsqueeze.default(convert_element_type_1, 1)
        unsqueeze_15 = torch.ops.aten.unsqueeze.default(convert_element_type_2, 1)
        mul_4 = torch.ops.aten.mul.Tensor(permute_2, unsqueeze_14)
        slice_4 = torch.ops.aten.slice.Tensor(permute_2, 3, 0, 8)
        slice_5 = torch.ops.aten.slice.Tensor(permute_2, 3, 8, 9223372036854775807);  permute_2 = None
        neg = torch.ops.aten.neg.default(slice_5);  slice_5 = None
        cat_1 = torch.ops.aten.cat.default([neg, slice_4], -1);  neg = slice_4 = None
        mul_5 = torch.ops.aten.mul.Tensor(cat_1, unsqueeze_15);  cat_1 = None
        add_4 = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
        mul_6 = torch.ops.aten.mul.Tensor(permute_4, unsqueeze_14);  unsqueeze_14 = None
        slice_6 = torch.ops.aten.slice.Tensor(permute_4, 3, 0, 8)
        slice_7 = torch.ops.aten.slice.Tensor(permute_4, 3, 8, 9223372036854775807);  permute_4 = None
        neg_1 = torch.ops.aten.neg.default(slice_7);  slice_7 = None
        cat_2 = torch.ops.aten.cat.default([neg_1, slice_6], -1);  neg_1 = slice_6 = None
        mul_7 = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_15);  cat_2 = unsqueeze_15 = None
        add_5 = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None
        unsqueeze_16 = torch.ops.aten.unsqueeze.default(add_5, 2);  add_5 = None
        expand_6 = torch.ops.aten.expand.default(unsqueeze_16, [2, 2, 2, 8, 16]);  unsqueeze_16 = None
        clone_2 = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_13 = torch.ops.aten.view.default(clone_2, [2, 4, 8, 16]);  clone_2 = None
        unsqueeze_17 = torch.ops.aten.unsqueeze.default(permute_6, 2);  permute_6 = None
        expand_7 = torch.ops.aten.expand.default(unsqueeze_17, [2, 2, 2, 8, 16]);  unsqueeze_17 = None
        clone_3 = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        view_14 = torch.ops.aten.view.default(clone_3, [2, 4, 8, 16]);  clone_3 = None
        permute_7 = torch.ops.aten.permute.default(view_13, [0, 1, 3, 2]);  view_13 = None
        expand_8 = torch.ops.aten.expand.default(add_4, [2, 4, 8, 16]);  add_4 = None
        clone_4 = torch.ops.aten.clone.default(expand_8, memory_format = torch.contiguous_format);  expand_8 = None
        view_15 = torch.ops.aten.view.default(clone_4, [8, 8, 16]);  clone_4 = None
        expand_9 = torch.ops.aten.expand.default(permute_7, [2, 4, 16, 8]);  permute_7 = None
        view_16 = torch.ops.aten.view.default(expand_9, [8, 16, 8]);  expand_9 = None
        bmm_1 = torch.ops.aten.bmm.default(view_15, view_16);  view_15 = view_16 = None
        view_17 = torch.ops.aten.view.default(bmm_1, [2, 4, 8, 8]);  bmm_1 = None
        mul_8 = torch.ops.aten.mul.Tensor(view_17, 0.25);  view_17 = None
        add_6 = torch.ops.aten.add.Tensor(mul_8, where);  mul_8 = None
        convert_element_type_13 = torch.ops.prims.convert_element_type.default(add_6, torch.float32);  add_6 = None
        amax = torch.ops.aten.amax.default(convert_element_type_13, [-1], True)
        sub_2 = torch.ops.aten.sub.Tensor(convert_element_type_13, amax);  convert_element_type_13 = amax = None
        exp = torch.ops.aten.exp.default(sub_2);  sub_2 = None
        sum_1 = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        convert_element_type_14 = torch.ops.prims.convert_element_type.default(div, torch.bfloat16);  div = None
        expand_10 = torch.ops.aten.expand.default(convert_element_type_14, [2, 4, 8, 8]);  convert_element_type_14 = None
        view_18 = torch.ops.aten.view.default(expand_10, [8, 8, 8]);  expand_10 = None
        expand_11 = torch.ops.aten.expand.default(view_14, [2, 4, 8, 16]);  view_14 = None
        view_19 = torch.ops.aten.view.default(expand_11, [8, 8, 16]);  expand_11 = None
        bmm_2 = torch.ops.aten.bmm.default(view_18, view_19);  view_18 = view_19 = None
        view_20 = torch.ops.aten.view.default(bmm_2, [2, 4, 8, 16]);  bmm_2 = None
        permute_8 = torch.ops.aten.permute.default(view_20, [0, 2, 1, 3]);  view_20 = None
        clone_6 = torch.ops.aten.clone.default(permute_8, memory_format = torch.contiguous_format);  permute_8 = None
        view_21 = torch.ops.aten.view.default(clone_6, [2, 8, -1]);  clone_6 = None
        permute_9 = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        view_22 = torch.ops.aten.view.default(view_21, [16, 64]);  view_21 = None
        mm_3 = torch.ops.aten.mm.default(view_22, permute_9);  view_22 = permute_9 = None
        view_23 = torch.ops.aten.view.default(mm_3, [2, 8, 64]);  mm_3 = None
        add_7 = torch.ops.aten.add.Tensor(embedding, view_23);  embedding = view_23 = None
        convert_element_type_19 = torch.ops.prims.convert_element_type.default(add_7, torch.float32)
        pow_2 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_19, 2)
        mean_1 = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None
        add_8 = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1 = torch.ops.aten.rsqrt.default(add_8);  add_8 = None
        mul_9 = torch.ops.aten.mul.Tensor(convert_element_type_19, rsqrt_1);  convert_element_type_19 = rsqrt_1 = None
        convert_element_type_20 = torch.ops.prims.convert_element_type.default(mul_9, torch.bfloat16);  mul_9 = None
        mul_10 = torch.ops.aten.mul.Tensor(arg8_1, convert_element_type_20);  arg8_1 = convert_element_type_20 = None
        permute_10 = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        view_24 = torch.ops.aten.view.default(mul_10, [16, 64])
        mm_4 = torch.ops.aten.mm.default(view_24, permute_10);  view_24 = permute_10 = None
        view_25 = torch.ops.aten.view.default(mm_4, [2, 8, 128]);  mm_4 = None
        convert_element_type_23 = torch.ops.prims.convert_element_type.default(view_25, torch.float32);  view_25 = None
        neg_2 = torch.ops.aten.neg.default(convert_element_type_23)
        exp_1 = torch.ops.aten.exp.default(neg_2);  neg_2 = None
        add_9 = torch.ops.aten.add.Tensor(exp_1, 1);  exp_1 = None
        div_1 = torch.ops.aten.div.Tensor(convert_element_type_23, add_9);  convert_element_type_23 = add_9 = None
        convert_element_type_24 = torch.ops.prims.convert_element_type.default(div_1, torch.bfloat16);  div_1 = None
        permute_11 = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        view_26 = torch.ops.aten.view.default(mul_10, [16, 64]);  mul_10 = None
        mm_5 = torch.ops.aten.mm.default(view_26, permute_11);  view_26 = permute_11 = None
        view_27 = torch.ops.aten.view.default(mm_5, [2, 8, 128]);  mm_5 = None
        mul_11 = torch.ops.aten.mul.Tensor(convert_element_type_24, view_27);  convert_element_type_24 = view_27 = None
        permute_12 = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        view_28 = torch.ops.aten.view.default(mul_11, [16, 128]);  mul_11 = None
        mm_6 = torch.ops.aten.mm.default(view_28, permute_12);  view_28 = permute_12 = None
        view_29 = torch.ops.aten.view.default(mm_6, [2, 8, 64]);  mm_6 = None
        add_10 = torch.ops.aten.add.Tensor(add_7, view_29);  add_7 = view_29 = None
        convert_element_type_29 = torch.ops.prims.convert_element_type.default(add_10, torch.float32)
        pow_3 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_29, 2)
        mean_2 = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None
        add_11 = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2 = torch.ops.aten.rsqrt.default(add_11);  add_11 = None
        mul_12 = torch.ops.aten.mul.Tensor(convert_element_type_29, rsqrt_2);  convert_element_type_29 = rsqrt_2 = None
        convert_element_type_30 = torch.ops.prims.convert_element_type.default(mul_12, torch.bfloat16);  mul_12 = None
        mul_13 = torch.ops.aten.mul.Tensor(arg12_1, convert_element_type_30);  arg12_1 = convert_element_type_30 = None
        permute_13 = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        view_30 = torch.ops.aten.view.default(mul_13, [16, 64])
        mm_7 = torch.ops.aten.mm.default(view_30, permute_13);  view_30 = permute_13 = None
        view_31 = torch.ops.aten.view.default(mm_7, [2, 8, 64]);  mm_7 = None
        view_32 = torch.ops.aten.view.default(view_31, [2, 8, -1, 16]);  view_31 = None
        permute_14 = torch.ops.aten.permute.default(view_32, [0, 2, 1, 3]);  view_32 = None
        permute_15 = torch.ops.aten.permute.default(arg14_1, [1, 0]);  arg14_1 = None
        view_33 = torch.ops.aten.view.default(mul_13, [16, 64])
        mm_8 = torch.ops.aten.mm.default(view_33, permute_15);  view_33 = permute_15 = None
        view_34 = torch.ops.aten.view.default(mm_8, [2, 8, 32]);  mm_8 = None
        view_35 = torch.ops.aten.view.default(view_34, [2, 8, -1, 16]);  view_34 = None
        permute_16 = torch.ops.aten.permute.default(view_35, [0, 2, 1, 3]);  view_35 = None
        permute_17 = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        view_36 = torch.ops.aten.view.default(mul_13, [16, 64]);  mul_13 = None
        mm_9 = torch.ops.aten.mm.default(view_36, permute_17);  view_36 = permute_17 = None
        view_37 = torch.ops.aten.view.default(mm_9, [2, 8, 32]);  mm_9 = None
        view_38 = torch.ops.aten.view.default(view_37, [2, 8, -1, 16]);  view_37 = None
        permute_18 = torch.ops.aten.permute.default(view_38, [0, 2, 1, 3]);  view_38 = None
        unsqueeze_18 = torch.ops.aten.unsqueeze.default(convert_element_type_1, 1);  convert_element_type_1 = None
        unsqueeze_19 = torch.ops.aten.unsqueeze.default(convert_element_type_2, 1);  convert_element_type_2 = None
        mul_14 = torch.ops.aten.mul.Tensor(permute_14, unsqueeze_18)
        slice_8 = torch.ops.aten.slice.Tensor(permute_14, 3, 0, 8)
        slice_9 = torch.ops.aten.slice.Tensor(permute_14, 3, 8, 9223372036854775807);  permute_14 = None
        neg_3 = torch.ops.aten.neg.default(slice_9);  slice_9 = None
        cat_3 = torch.ops.aten.cat.default([neg_3, slice_8], -1);  neg_3 = slice_8 = None
        mul_15 = torch.ops.aten.mul.Tensor(cat_3, unsqueeze_19);  cat_3 = None
        add_12 = torch.ops.aten.add.Tensor(mul_14, mul_15);  mul_14 = mul_15 = None
        mul_16 = torch.ops.aten.mul.Tensor(permute_16, unsqueeze_18);  unsqueeze_18 = None
        slice_10 = torch.ops.aten.slice.Tensor(permute_16, 3, 0, 8)
        slice_11 = torch.ops.aten.slice.Tensor(permute_16, 3, 8, 9223372036854775807);  permute_16 = None
        neg_4 = torch.ops.aten.neg.default(slice_11);  slice_11 = None
        cat_4 = torch.ops.aten.cat.default([neg_4, slice_10], -1);  neg_4 = slice_10 = None
        mul_17 = torch.ops.aten.mul.Tensor(cat_4, unsqueeze_19);  cat_4 = unsqueeze_19 = None
        add_13 = torch.ops.aten.add.Tensor(mul_16, mul_17);  mul_16 = mul_17 = None
        unsqueeze_20 = torch.ops.aten.unsqueeze.default(add_13, 2);  add_13 = None
        expand_12 = torch.ops.aten.expand.default(unsqueeze_20, [2, 2, 2, 8, 16]);  unsqueeze_20 = None
        clone_7 = torch.ops.aten.clone.default(expand_12, memory_format = torch.contiguous_format);  expand_12 = None
        view_39 = torch.ops.aten.view.default(clone_7, [2, 4, 8, 16]);  clone_7 = None
        unsqueeze_21 = torch.ops.aten.unsqueeze.default(permute_18, 2);  permute_18 = None
        expand_13 = torch.ops.aten.expand.default(unsqueeze_21, [2, 2, 2, 8, 16]);  unsqueeze_21 = None
        clone_8 = torch.ops.aten.clone.default(expand_13, memory_format = torch.contiguous_format);  expand_13 = None
        view_40 = torch.ops.aten.view.default(clone_8, [2, 4, 8, 16]);  clone_8 = None
        permute_19 = torch.ops.aten.permute.default(view_39, [0, 1, 3, 2]);  view_39 = None
        expand_14 = torch.ops.aten.expand.default(add_12, [2, 4, 8, 16]);  add_12 = None
        clone_9 = torch.ops.aten.clone.default(expand_14, memory_format = torch.contiguous_format);  expand_14 = None
        view_41 = torch.ops.aten.view.default(clone_9, [8, 8, 16]);  clone_9 = None
        expand_15 = torch.ops.aten.expand.default(permute_19, [2, 4, 16, 8]);  permute_19 = None
        view_42 = torch.ops.aten.view.default(expand_15, [8, 16, 8]);  expand_15 = None
        bmm_3 = torch.ops.aten.bmm.default(view_41, view_42);  view_41 = view_42 = None
        view_43 = torch.ops.aten.view.default(bmm_3, [2, 4, 8, 8]);  bmm_3 = None
        mul_18 = torch.ops.aten.mul.Tensor(view_43, 0.25);  view_43 = None
        add_14 = torch.ops.aten.add.Tensor(mul_18, where);  mul_18 = where = None
        convert_element_type_39 = torch.ops.prims.convert_element_type.default(add_14, torch.float32);  add_14 = None
        amax_1 = torch.ops.aten.amax.default(convert_element_type_39, [-1], True)
        sub_3 = torch.ops.aten.sub.Tensor(convert_element_type_39, amax_1);  convert_element_type_39 = amax_1 = None
        exp_2 = torch.ops.aten.exp.default(sub_3);  sub_3 = None
        sum_2 = torch.ops.aten.sum.dim_IntList(exp_2, [-1], True)
        div_2 = torch.ops.aten.div.Tensor(exp_2, sum_2);  exp_2 = sum_2 = None
        convert_element_type_40 = torch.ops.prims.convert_element_type.default(div_2, torch.bfloat16);  div_2 = None
        expand_16 = torch.ops.aten.expand.default(convert_element_type_40, [2, 4, 8, 8]);  convert_element_type_40 = None
        view_44 = torch.ops.aten.view.default(expand_16, [8, 8, 8]);  expand_16 = None
        expand_17 = torch.ops.aten.expand.default(view_40, [2, 4, 8, 16]);  view_40 = None
        view_45 = torch.ops.aten.view.default(expand_17, [8, 8, 16]);  expand_17 = None
        bmm_4 = torch.ops.aten.bmm.default(view_44, view_45);  view_44 = view_45 = None
        view_46 = torch.ops.aten.view.default(bmm_4, [2, 4, 8, 16]);  bmm_4 = None
        permute_20 = torch.ops.aten.permute.default(view_46, [0, 2, 1, 3]);  view_46 = None
        clone_11 = torch.ops.aten.clone.default(permute_20, memory_format = torch.contiguous_format);  permute_20 = None
        view_47 = torch.ops.aten.view.default(clone_11, [2, 8, -1]);  clone_11 = None
        permute_21 = torch.ops.aten.permute.default(arg16_1, [1, 0]);  arg16_1 = None
        view_48 = torch.ops.aten.view.default(view_47, [16, 64]);  view_47 = None
        mm_10 = torch.ops.aten.mm.default(view_48, permute_21);  view_48 = permute_21 = None
        view_49 = torch.ops.aten.view.default(mm_10, [2, 8, 64]);  mm_10 = None
        add_15 = torch.ops.aten.add.Tensor(add_10, view_49);  add_10 = view_49 = None
        convert_element_type_45 = torch.ops.prims.convert_element_type.default(add_15, torch.float32)
        pow_4 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_45, 2)
        mean_3 = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None
        add_16 = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3 = torch.ops.aten.rsqrt.default(add_16);  add_16 = None
        mul_19 = torch.ops.aten.mul.Tensor(convert_element_type_45, rsqrt_3);  convert_element_type_45 = rsqrt_3 = None
        convert_element_type_46 = torch.ops.prims.convert_element_type.default(mul_19, torch.bfloat16);  mul_19 = None
        mul_20 = torch.ops.aten.mul.Tensor(arg17_1, convert_element_type_46);  arg17_1 = convert_element_type_46 = None
        permute_22 = torch.ops.aten.permute.default(arg18_1, [1, 0]);  arg18_1 = None
        view_50 = torch.ops.aten.view.default(mul_20, [16, 64])
        mm_11 = torch.ops.aten.mm.default(view_50, permute_22);  view_50 = permute_22 = None
        view_51 = torch.ops.aten.view.default(mm_11, [2, 8, 128]);  mm_11 = None
        convert_element_type_49 = torch.ops.prims.convert_element_type.default(view_51, torch.float32);  view_51 = None
        neg_5 = torch.ops.aten.neg.default(convert_element_type_49)
        exp_3 = torch.ops.aten.exp.default(neg_5);  neg_5 = None
        add_17 = torch.ops.aten.add.Tensor(exp_3, 1);  exp_3 = None
        div_3 = torch.ops.aten.div.Tensor(convert_element_type_49, add_17);  convert_element_type_49 = add_17 = None
        convert_element_type_50 = torch.ops.prims.convert_element_type.default(div_3, torch.bfloat16);  div_3 = None
        permute_23 = torch.ops.aten.permute.default(arg19_1, [1, 0]);  arg19_1 = None
        view_52 = torch.ops.aten.view.default(mul_20, [16, 64]);  mul_20 = None
        mm_12 = torch.ops.aten.mm.default(view_52, permute_23);  view_52 = permute_23 = None
        view_53 = torch.ops.aten.view.default(mm_12, [2, 8, 128]);  mm_12 = None
        mul_21 = torch.ops.aten.mul.Tensor(convert_element_type_50, view_53);  convert_element_type_50 = view_53 = None
        permute_24 = torch.ops.aten.permute.default(arg20_1, [1, 0]);  arg20_1 = None
        view_54 = torch.ops.aten.view.default(mul_21, [16, 128]);  mul_21 = None
        mm_13 = torch.ops.aten.mm.default(view_54, permute_24);  view_54 = permute_24 = None
        view_55 = torch.ops.aten.view.default(mm_13, [2, 8, 64]);  mm_13 = None
        add_18 = torch.ops.aten.add.Tensor(add_15, view_55);  add_15 = view_55 = None
        convert_element_type_55 = torch.ops.prims.convert_element_type.default(add_18, torch.float32);  add_18 = None
        pow_5 = torch.ops.aten.pow.Tensor_Scalar(convert_element_type_55, 2)
        mean_4 = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None
        add_19 = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4 = torch.ops.aten.rsqrt.default(add_19);  add_19 = None
        mul_22 = torch.ops.aten.mul.Tensor(convert_element_type_55, rsqrt_4);  convert_element_type_55 = rsqrt_4 = None
        convert_element_type_56 = torch.ops.prims.convert_element_type.default(mul_22, torch.bfloat16);  mul_22 = None
        mul_23 = torch.ops.aten.mul.Tensor(arg21_1, convert_element_type_56);  arg21_1 = convert_element_type_56 = None
        permute_25 = torch.ops.aten.permute.default(arg22_1, [1, 0]);  arg22_1 = None
        view_56 = torch.ops.aten.view.default(mul_23, [16, 64]);  mul_23 = None
        mm_14 = torch.ops.aten.mm.default(view_56, permute_25);  view_56 = permute_25 = None
        view_57 = torch.ops.aten.view.default(mm_14, [2, 8, 128]);  mm_14 = None
        return (view_57,)

def load_args(reader):
    buf0 = reader.storage(None, 128, dtype_hint=torch.int64)
    reader.tensor(buf0, (2, 8), dtype=torch.int64, is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf1, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg1_1
    buf2 = reader.storage(None, 32)
    reader.tensor(buf2, (8,), is_leaf=True)  # arg2_1
    buf3 = reader.storage(None, 128, dtype_hint=torch.bfloat16)
    reader.tensor(buf3, (64,), dtype=torch.bfloat16, is_leaf=True)  # arg3_1
    buf4 = reader.storage(None, 8192, dtype_hint=torch.bfloat16)
    reader.tensor(buf4, (64, 64), dtype=torch.bfloat16, is_leaf=True)  # arg4_1
    buf5 = reader.storage(None, 4096, dtype_hint=torch.bfloat16)
    reader.tensor(buf5, (32, 64), dtype=torch.bfloat16, is_leaf=True)  # arg5_1
    buf6 = reader.storage(None, 4096, dtype_hint=torch.bfloat16)
    reader.tensor(buf6, (32, 64), dtype=torch.bfloat16, is_leaf=True)  # arg6_1
    buf7 = reader.storage(None, 8192, dtype_hint=torch.bfloat16)
    reader.tensor(buf7, (64, 64), dtype=torch.bfloat16, is_leaf=True)  # arg7_1
    buf8 = reader.storage(None, 128, dtype_hint=torch.bfloat16)
    reader.tensor(buf8, (64,), dtype=torch.bfloat16, is_leaf=True)  # arg8_1
    buf9 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf9, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg9_1
    buf10 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf10, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg10_1
    buf11 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf11, (64, 128), dtype=torch.bfloat16, is_leaf=True)  # arg11_1
    buf12 = reader.storage(None, 128, dtype_hint=torch.bfloat16)
    reader.tensor(buf12, (64,), dtype=torch.bfloat16, is_leaf=True)  # arg12_1
    buf13 = reader.storage(None, 8192, dtype_hint=torch.bfloat16)
    reader.tensor(buf13, (64, 64), dtype=torch.bfloat16, is_leaf=True)  # arg13_1
    buf14 = reader.storage(None, 4096, dtype_hint=torch.bfloat16)
    reader.tensor(buf14, (32, 64), dtype=torch.bfloat16, is_leaf=True)  # arg14_1
    buf15 = reader.storage(None, 4096, dtype_hint=torch.bfloat16)
    reader.tensor(buf15, (32, 64), dtype=torch.bfloat16, is_leaf=True)  # arg15_1
    buf16 = reader.storage(None, 8192, dtype_hint=torch.bfloat16)
    reader.tensor(buf16, (64, 64), dtype=torch.bfloat16, is_leaf=True)  # arg16_1
    buf17 = reader.storage(None, 128, dtype_hint=torch.bfloat16)
    reader.tensor(buf17, (64,), dtype=torch.bfloat16, is_leaf=True)  # arg17_1
    buf18 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf18, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg18_1
    buf19 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf19, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg19_1
    buf20 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf20, (64, 128), dtype=torch.bfloat16, is_leaf=True)  # arg20_1
    buf21 = reader.storage(None, 128, dtype_hint=torch.bfloat16)
    reader.tensor(buf21, (64,), dtype=torch.bfloat16, is_leaf=True)  # arg21_1
    buf22 = reader.storage(None, 16384, dtype_hint=torch.bfloat16)
    reader.tensor(buf22, (128, 64), dtype=torch.bfloat16, is_leaf=True)  # arg22_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='real', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='real', check_str=None)
        # mod(*args)