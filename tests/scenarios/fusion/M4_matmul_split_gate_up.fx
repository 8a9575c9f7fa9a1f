class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[8, 64]"):
        w_gate: "f16[128, 64]" = self.w_gate
        w_up: "f16[128, 64]" = self.w_up
        t: "f16[64, 128]" = torch.ops.aten.t.default(w_gate)
        mm: "f16[8, 128]" = torch.ops.aten.mm.default(x, t)
        silu: "f16[8, 128]" = torch.ops.aten.silu.default(mm)
        t_1: "f16[64, 128]" = torch.ops.aten.t.default(w_up)
        mm_1: "f16[8, 128]" = torch.ops.aten.mm.default(x, t_1)
        mul: "f16[8, 128]" = torch.ops.aten.mul.Tensor(silu, mm_1)
        view: "f16[2, 4, 128]" = torch.ops.aten.view.default(mul, [2, 4, 128])
        return (view,)
