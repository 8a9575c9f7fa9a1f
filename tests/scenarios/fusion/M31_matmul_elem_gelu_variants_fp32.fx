class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[8, 128]", w1: "f32[128, 256]", w2: "f32[256, 128]", b2: "f32[128]"):
        # M29 in fp32: neither gelu form fuses.
        mm: "f32[8, 256]" = torch.ops.aten.mm.default(x, w1);  x = w1 = None
        gelu: "f32[8, 256]" = torch.ops.aten.gelu.default(mm, approximate = 'tanh');  mm = None
        addmm: "f32[8, 128]" = torch.ops.aten.addmm.default(b2, gelu, w2);  b2 = gelu = w2 = None
        gelu_1: "f32[8, 128]" = torch.ops.aten.gelu.default(addmm);  addmm = None
        return (gelu_1,)
