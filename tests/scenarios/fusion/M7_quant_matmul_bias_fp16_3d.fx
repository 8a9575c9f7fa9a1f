class GraphModule(torch.nn.Module):
    def forward(self, x: "i8[2, 8, 64]", weight: "i8[64, 256]", deq_scale: "f32[256]", bias: "f16[256]"):
        npu_quant_matmul: "f16[2, 8, 256]" = torch.ops.npu.npu_quant_matmul.default(x, weight, deq_scale, output_dtype = torch.float16);  x = weight = deq_scale = None
        add: "f16[2, 8, 256]" = torch.ops.aten.add.Tensor(npu_quant_matmul, bias);  npu_quant_matmul = bias = None
        return (add,)
