class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[16, 64]", arg1_1: "bf16[64]"):
        # LlamaRMSNorm as make_fx traces it (TorchAir npu_fx_pass npu_rms_norm pattern):
        # fp32 upcast, x * rsqrt(mean(x^2) + eps), cast back, weight * it.
        _to_copy: "f32[16, 64]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        pow_1: "f32[16, 64]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2)
        mean: "f32[16, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[16, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[16, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[16, 64]" = torch.ops.aten.mul.Tensor(_to_copy, rsqrt)
        _to_copy_1: "bf16[16, 64]" = torch.ops.aten._to_copy.default(mul, dtype = torch.bfloat16)
        mul_1: "bf16[16, 64]" = torch.ops.aten.mul.Tensor(arg1_1, _to_copy_1)
        return (mul_1,)
