class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[16, 64]", w: "f32[64, 128]", bias: "f32[128]"):
        # M27 with the default rules: mm then a broadcast add, since addmm rounds once where
        # the chain rounds twice (the rule is inexact, off by default).
        mm: "f32[16, 128]" = torch.ops.aten.mm.default(x, w);  x = w = None
        add: "f32[16, 128]" = torch.ops.aten.add.Tensor(mm, bias);  mm = bias = None
        return (add,)
