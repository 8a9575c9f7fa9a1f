class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[s0, 64]", arg1_1: "f32[64]"):
        # An fp32 model: LlamaRMSNorm traces no casts.
        pow_1: "f32[s0, 64]" = torch.ops.aten.pow.Tensor_Scalar(arg0_1, 2)
        mean: "f32[s0, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[s0, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[s0, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[s0, 64]" = torch.ops.aten.mul.Tensor(arg0_1, rsqrt)
        mul_1: "f32[s0, 64]" = torch.ops.aten.mul.Tensor(arg1_1, mul)
        return (mul_1,)
