class GraphModule(torch.nn.Module):
    def forward(self, x: "i8[16, 64]", weight: "i8[64, 128]", deq_scale: "f32[128]", bias: "f32[128]"):
        npu_quant_matmul: "bf16[16, 128]" = torch.ops.npu.npu_quant_matmul.default(x, weight, deq_scale, output_dtype = torch.bfloat16);  x = weight = deq_scale = None
        add: "f32[16, 128]" = torch.ops.aten.add.Tensor(npu_quant_matmul, bias);  npu_quant_matmul = bias = None
        return (add,)
