class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 8, 128]", arg1_1: "f16[128]"):
        # MindSpeed's unfused RMSNorm: norm(x.float()).type_as(x) * weight, the weight
        # on the right.
        _to_copy: "f32[4, 8, 128]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        pow_1: "f32[4, 8, 128]" = torch.ops.aten.pow.Tensor_Scalar(_to_copy, 2)
        mean: "f32[4, 8, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True)
        add: "f32[4, 8, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[4, 8, 1]" = torch.ops.aten.rsqrt.default(add)
        mul: "f32[4, 8, 128]" = torch.ops.aten.mul.Tensor(_to_copy, rsqrt)
        _to_copy_1: "f16[4, 8, 128]" = torch.ops.aten._to_copy.default(mul, dtype = torch.float16)
        mul_1: "f16[4, 8, 128]" = torch.ops.aten.mul.Tensor(_to_copy_1, arg1_1)
        return (mul_1,)
