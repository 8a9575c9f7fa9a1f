class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[16, 4096]"):
        wq: "bf16[4096, 4096]" = self.wq
        wk: "bf16[1024, 4096]" = self.wk
        wv: "bf16[1024, 4096]" = self.wv
        t: "bf16[4096, 4096]" = torch.ops.aten.t.default(wq)
        mm: "bf16[16, 4096]" = torch.ops.aten.mm.default(x, t)
        t_1: "bf16[4096, 1024]" = torch.ops.aten.t.default(wk)
        mm_1: "bf16[16, 1024]" = torch.ops.aten.mm.default(x, t_1)
        t_2: "bf16[4096, 1024]" = torch.ops.aten.t.default(wv)
        mm_2: "bf16[16, 1024]" = torch.ops.aten.mm.default(x, t_2)
        return (mm, mm_1, mm_2)
