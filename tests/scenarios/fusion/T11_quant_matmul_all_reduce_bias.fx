class GraphModule(torch.nn.Module):
    def forward(self, x: "i8[16, 64]", weight: "i8[64, 128]", deq_scale: "f32[128]", pertoken: "f32[16]", bias: "bf16[128]"):
        npu_quant_matmul: "bf16[16, 128]" = torch.ops.npu.npu_quant_matmul.default(x, weight, deq_scale, pertoken_scale = pertoken, output_dtype = torch.bfloat16);  x = weight = deq_scale = pertoken = None
        all_reduce: "bf16[16, 128]" = torch.ops._c10d_functional.all_reduce.default(npu_quant_matmul, 'sum', '0');  npu_quant_matmul = None
        wait_tensor: "bf16[16, 128]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        add: "bf16[16, 128]" = torch.ops.aten.add.Tensor(wait_tensor, bias);  wait_tensor = bias = None
        return (add,)
