class GraphModule(torch.nn.Module):
    def forward(self, hidden: "bf16[2, 16, 256]", w_in: "bf16[1024, 256]", b_in: "bf16[1024]", w_out: "bf16[256, 1024]", b_out: "bf16[256]"):
        # AOTAutograd's spelling of a BERT-style feed-forward on 3-D activations: each linear
        # is view -> addmm(bias, x, t(weight)) -> view, and the activation (exact gelu here,
        # relu in the second) reads the 3-D view (torch_npu fused_matmul_relu_pass pattern 2).
        view: "bf16[32, 256]" = torch.ops.aten.view.default(hidden, [32, 256]);  hidden = None
        t: "bf16[256, 1024]" = torch.ops.aten.t.default(w_in);  w_in = None
        addmm: "bf16[32, 1024]" = torch.ops.aten.addmm.default(b_in, view, t);  b_in = view = t = None
        view_1: "bf16[2, 16, 1024]" = torch.ops.aten.view.default(addmm, [2, 16, 1024]);  addmm = None
        gelu: "bf16[2, 16, 1024]" = torch.ops.aten.gelu.default(view_1);  view_1 = None
        view_2: "bf16[32, 1024]" = torch.ops.aten.view.default(gelu, [32, 1024]);  gelu = None
        t_1: "bf16[1024, 256]" = torch.ops.aten.t.default(w_out);  w_out = None
        addmm_1: "bf16[32, 256]" = torch.ops.aten.addmm.default(b_out, view_2, t_1);  b_out = view_2 = t_1 = None
        view_3: "bf16[2, 16, 256]" = torch.ops.aten.view.default(addmm_1, [2, 16, 256]);  addmm_1 = None
        relu: "bf16[2, 16, 256]" = torch.ops.aten.relu.default(view_3);  view_3 = None
        return (relu,)
