class mlp_allreduce_norm(torch.nn.Module):
    def forward(self, x_1: "bf16[8, 64]", w_up_1: "bf16[64, 32]", w_down_1: "bf16[32, 64]", residual_1: "bf16[8, 64]", gamma_1: "bf16[64]"):
        # No stacktrace found for following nodes
        mm: "bf16[8, 32]" = torch.ops.aten.mm.default(x_1, w_up_1);  x_1 = w_up_1 = None
        silu: "bf16[8, 32]" = torch.ops.aten.silu.default(mm);  mm = None
        mm_1: "bf16[8, 64]" = torch.ops.aten.mm.default(silu, w_down_1);  silu = w_down_1 = None
        all_reduce: "bf16[8, 64]" = torch.ops._c10d_functional.all_reduce.default(mm_1, 'sum', '0');  mm_1 = None
        wait_tensor: "bf16[8, 64]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        add: "bf16[8, 64]" = torch.ops.aten.add.Tensor(wait_tensor, residual_1);  wait_tensor = residual_1 = None
        _to_copy: "f32[8, 64]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        pow_1: "f32[8, 64]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2);  _to_copy = None
        mean: "f32[8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None
        _to_copy_1: "f32[8, 64]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        add_1: "f32[8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[8, 1]" = torch.ops.aten.rsqrt.default(add_1);  add_1 = None
        mul: "f32[8, 64]" = torch.ops.aten.mul.Tensor(_to_copy_1, rsqrt);  _to_copy_1 = rsqrt = None
        _to_copy_2: "bf16[8, 64]" = torch.ops.aten._to_copy.default(mul, dtype = torch.bfloat16);  mul = None
        mul_1: "bf16[8, 64]" = torch.ops.aten.mul.Tensor(_to_copy_2, gamma_1);  _to_copy_2 = gamma_1 = None
        all_gather_into_tensor: "bf16[32, 64]" = torch.ops._c10d_functional.all_gather_into_tensor.default(mul_1, 4, '0')
        wait_tensor_1: "bf16[32, 64]" = torch.ops._c10d_functional.wait_tensor.default(all_gather_into_tensor);  all_gather_into_tensor = None
        reduce_scatter_tensor: "bf16[8, 64]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(wait_tensor_1, 'sum', 4, '0');  wait_tensor_1 = None
        wait_tensor_2: "bf16[8, 64]" = torch.ops._c10d_functional.wait_tensor.default(reduce_scatter_tensor);  reduce_scatter_tensor = None
        return (mul_1, add, wait_tensor_2)
