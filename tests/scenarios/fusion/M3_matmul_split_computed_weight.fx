class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[16, 64]"):
        wq: "bf16[64, 64]" = self.wq
        wk: "bf16[32, 64]" = self.wk
        scale: "bf16[32, 64]" = self.scale
        wk_scaled: "bf16[32, 64]" = torch.ops.aten.mul.Tensor(wk, scale)
        t: "bf16[64, 64]" = torch.ops.aten.t.default(wq)
        mm: "bf16[16, 64]" = torch.ops.aten.mm.default(x, t)
        t_1: "bf16[64, 32]" = torch.ops.aten.t.default(wk_scaled)
        mm_1: "bf16[16, 32]" = torch.ops.aten.mm.default(x, t_1)
        return (mm, mm_1)
