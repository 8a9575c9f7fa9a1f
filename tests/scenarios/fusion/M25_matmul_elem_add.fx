class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[64, 128]", w1: "f16[128, 128]", r1: "f16[64, 128]", w2: "f16[128, 128]", w3: "f16[128, 128]", b3: "f16[128]", w4: "f16[128, 128]", b4: "f16[128]"):
        # Residual adds after 2-D matmuls of one input, with the residual on either side, with
        # and without a bias: each becomes npu_fused_matmul with the residual as x3 and
        # fused_op_type add.
        mm: "f16[64, 128]" = torch.ops.aten.mm.default(x, w1);  w1 = None
        add: "f16[64, 128]" = torch.ops.aten.add.Tensor(mm, r1);  mm = r1 = None
        mm_1: "f16[64, 128]" = torch.ops.aten.mm.default(x, w2);  w2 = None
        add_1: "f16[64, 128]" = torch.ops.aten.add.Tensor(add, mm_1);  add = mm_1 = None
        addmm: "f16[64, 128]" = torch.ops.aten.addmm.default(b3, x, w3);  b3 = w3 = None
        add_2: "f16[64, 128]" = torch.ops.aten.add.Tensor(addmm, add_1);  addmm = add_1 = None
        addmm_1: "f16[64, 128]" = torch.ops.aten.addmm.default(b4, x, w4);  b4 = x = w4 = None
        add_3: "f16[64, 128]" = torch.ops.aten.add.Tensor(add_2, addmm_1);  add_2 = addmm_1 = None
        return (add_3,)
