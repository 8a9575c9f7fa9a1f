class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 8, 64]", arg1_1: "bf16[64]"):
        # Gemma's RMSNorm as torch 2.11's AOTAutograd traces transformers' Gemma2RMSNorm:
        # the norm in fp32, times (1 + weight.float()) on the right, then cast back
        # (the cast spelled with layout and device, as torch 2.x writes `type_as`).
        _to_copy: "f32[2, 8, 64]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        pow_1: "f32[2, 8, 64]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2)
        mean: "f32[2, 8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[2, 8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[2, 8, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(_to_copy, rsqrt)
        _to_copy_1: "f32[64]" = torch.ops.aten._to_copy.default(arg1_1, dtype = torch.float32)
        add_1: "f32[64]" = torch.ops.aten.add.Tensor(_to_copy_1, 1.0)
        mul_1: "f32[2, 8, 64]" = torch.ops.aten.mul.Tensor(mul, add_1)
        _to_copy_2: "bf16[2, 8, 64]" = torch.ops.aten._to_copy.default(mul_1, dtype = torch.bfloat16, layout = torch.strided, device = device(type='cpu'))
        return (_to_copy_2,)
