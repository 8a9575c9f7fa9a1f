class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 8, 64]", arg1_1: "bf16[64]"):
        # OLMo2's RMSNorm as torch 2.11's AOTAutograd traces transformers' Olmo2RMSNorm:
        # the bf16 weight multiplies the fp32 normalized value (promoting to fp32), and
        # only the product is cast back: `(self.weight * x).to(input_dtype)`.
        _to_copy: "f32[2, 8, 64]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        pow_1: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2)
        mean: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-05)
        rsqrt: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(_to_copy, rsqrt)
        mul_1: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(arg1_1, mul)
        _to_copy_1: "bf16[2, 8, 64]" = torch.ops.aten._to_copy.default(mul_1, dtype = torch.bfloat16)
        return (_to_copy_1,)
