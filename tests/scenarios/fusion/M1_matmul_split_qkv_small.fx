class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[16, 64]"):
        wq: "bf16[64, 64]" = self.wq
        wk: "bf16[32, 64]" = self.wk
        wv: "bf16[32, 64]" = self.wv
        t: "bf16[64, 64]" = torch.ops.aten.t.default(wq)
        mm: "bf16[16, 64]" = torch.ops.aten.mm.default(x, t)
        t_1: "bf16[64, 32]" = torch.ops.aten.t.default(wk)
        mm_1: "bf16[16, 32]" = torch.ops.aten.mm.default(x, t_1)
        t_2: "bf16[64, 32]" = torch.ops.aten.t.default(wv)
        mm_2: "bf16[16, 32]" = torch.ops.aten.mm.default(x, t_2)
        return (mm, mm_1, mm_2)
