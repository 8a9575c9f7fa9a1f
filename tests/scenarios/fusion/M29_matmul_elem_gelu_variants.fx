class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[8, 128]", w1: "f16[128, 256]", w2: "f16[256, 128]", b2: "f16[128]"):
        # The other two gelu forms: tanh-approximated gelu of an mm, exact gelu of an addmm.
        mm: "f16[8, 256]" = torch.ops.aten.mm.default(x, w1);  x = w1 = None
        gelu: "f16[8, 256]" = torch.ops.aten.gelu.default(mm, approximate = 'tanh');  mm = None
        addmm: "f16[8, 128]" = torch.ops.aten.addmm.default(b2, gelu, w2);  b2 = gelu = w2 = None
        gelu_1: "f16[8, 128]" = torch.ops.aten.gelu.default(addmm);  addmm = None
        return (gelu_1,)
