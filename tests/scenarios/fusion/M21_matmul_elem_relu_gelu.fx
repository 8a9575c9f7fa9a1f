class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[32, 256]", w1: "bf16[256, 512]", b1: "bf16[512]", w2: "bf16[512, 256]", w3: "bf16[256, 512]", b3: "bf16[512]", w4: "bf16[512, 256]"):
        # Four epilogues on 2-D matmuls (an MLP stack): relu of an addmm, relu of an mm,
        # tanh-gelu of an addmm, exact gelu of an mm. With the Ascend 950 rules enabled
        # each pair is one npu_fused_matmul.
        addmm: "bf16[32, 512]" = torch.ops.aten.addmm.default(b1, x, w1);  b1 = w1 = None
        relu: "bf16[32, 512]" = torch.ops.aten.relu.default(addmm);  addmm = None
        mm: "bf16[32, 256]" = torch.ops.aten.mm.default(relu, w2);  relu = w2 = None
        relu_1: "bf16[32, 256]" = torch.ops.aten.relu.default(mm);  mm = None
        addmm_1: "bf16[32, 512]" = torch.ops.aten.addmm.default(b3, relu_1, w3);  b3 = relu_1 = w3 = None
        gelu: "bf16[32, 512]" = torch.ops.aten.gelu.default(addmm_1, approximate = 'tanh');  addmm_1 = None
        mm_1: "bf16[32, 256]" = torch.ops.aten.mm.default(gelu, w4);  gelu = w4 = None
        gelu_1: "bf16[32, 256]" = torch.ops.aten.gelu.default(mm_1);  mm_1 = None
        return (gelu_1,)
