class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 8, 64]", arg1_1: "bf16[2, 8, 64]", arg2_1: "bf16[64]"):
        # A decoder's residual add, then LlamaRMSNorm of the sum, the sum also returned:
        # torchair/npu-rms-norm gives npu_rms_norm(add), then mindspore/add-rms-norm
        # folds the add in: one npu_add_rms_norm.
        add: "bf16[2, 8, 64]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        _to_copy: "f32[2, 8, 64]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        pow_1: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2)
        mean: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add_1: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-05)
        rsqrt: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add_1)
        mul: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(_to_copy, rsqrt)
        _to_copy_1: "bf16[2, 8, 64]" = torch.ops.aten._to_copy.default(mul, dtype = torch.bfloat16)
        mul_1: "bf16[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg2_1, _to_copy_1)
        return (mul_1, add)
