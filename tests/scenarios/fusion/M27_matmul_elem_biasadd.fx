class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[16, 64]", w: "f32[64, 128]", bias: "f32[128]"):
        # A linear layer written as x @ w + b (MindSpore's BiasAdd(MatMul)): one addmm once
        # the inexact matmul_elem_biasadd rule is enabled.
        mm: "f32[16, 128]" = torch.ops.aten.mm.default(x, w);  x = w = None
        add: "f32[16, 128]" = torch.ops.aten.add.Tensor(mm, bias);  mm = bias = None
        return (add,)
