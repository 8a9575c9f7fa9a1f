class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[32, 256]", w1: "f32[256, 512]", b1: "f32[512]", w2: "f32[512, 256]", w3: "f32[256, 512]", b3: "f32[512]", w4: "f32[512, 256]"):
        # The same MLP stack in fp32: torch_npu's pass and the rules take fp16/bf16 only
        # (fp32 would need HF32 switched on at call time), so nothing fuses even with
        # the Ascend 950 rules enabled.
        addmm: "f32[32, 512]" = torch.ops.aten.addmm.default(b1, x, w1);  b1 = w1 = None
        relu: "f32[32, 512]" = torch.ops.aten.relu.default(addmm);  addmm = None
        mm: "f32[32, 256]" = torch.ops.aten.mm.default(relu, w2);  relu = w2 = None
        relu_1: "f32[32, 256]" = torch.ops.aten.relu.default(mm);  mm = None
        addmm_1: "f32[32, 512]" = torch.ops.aten.addmm.default(b3, relu_1, w3);  b3 = relu_1 = w3 = None
        gelu: "f32[32, 512]" = torch.ops.aten.gelu.default(addmm_1, approximate = 'tanh');  addmm_1 = None
        mm_1: "f32[32, 256]" = torch.ops.aten.mm.default(gelu, w4);  gelu = w4 = None
        gelu_1: "f32[32, 256]" = torch.ops.aten.gelu.default(mm_1);  mm_1 = None
        return (gelu_1,)
