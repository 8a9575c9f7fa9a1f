class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[64, 128]", w: "f16[128, 256]", b: "f16[256]", row: "f16[1, 256]", other32: "f32[64, 256]"):
        # Adds that are not npu_fused_matmul's x3: a [1, N] row broadcast over the tokens, and
        # an fp32 tensor that promotes the sum (x3 must have the result's shape and dtype),
        # after an mm and after an addmm, on either side of the add.
        mm: "f16[64, 256]" = torch.ops.aten.mm.default(x, w)
        add: "f16[64, 256]" = torch.ops.aten.add.Tensor(mm, row)
        add_1: "f32[64, 256]" = torch.ops.aten.add.Tensor(other32, mm);  mm = None
        addmm: "f16[64, 256]" = torch.ops.aten.addmm.default(b, x, w);  b = x = w = None
        add_2: "f16[64, 256]" = torch.ops.aten.add.Tensor(addmm, row);  row = None
        add_3: "f32[64, 256]" = torch.ops.aten.add.Tensor(other32, addmm);  other32 = addmm = None
        return (add, add_1, add_2, add_3)
