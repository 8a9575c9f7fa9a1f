class GraphModule(torch.nn.Module):
    def forward(self, hidden: "f32[2, 16, 256]", w_in: "f32[1024, 256]", b_in: "f32[1024]", w_out: "f32[256, 1024]", b_out: "f32[256]"):
        # M24's 3-D feed-forward in fp32: the view forms take fp16/bf16 only, like the rest.
        view: "f32[32, 256]" = torch.ops.aten.view.default(hidden, [32, 256]);  hidden = None
        t: "f32[256, 1024]" = torch.ops.aten.t.default(w_in);  w_in = None
        addmm: "f32[32, 1024]" = torch.ops.aten.addmm.default(b_in, view, t);  b_in = view = t = None
        view_1: "f32[2, 16, 1024]" = torch.ops.aten.view.default(addmm, [2, 16, 1024]);  addmm = None
        gelu: "f32[2, 16, 1024]" = torch.ops.aten.gelu.default(view_1);  view_1 = None
        view_2: "f32[32, 1024]" = torch.ops.aten.view.default(gelu, [32, 1024]);  gelu = None
        t_1: "f32[1024, 256]" = torch.ops.aten.t.default(w_out);  w_out = None
        addmm_1: "f32[32, 256]" = torch.ops.aten.addmm.default(b_out, view_2, t_1);  b_out = view_2 = t_1 = None
        view_3: "f32[2, 16, 256]" = torch.ops.aten.view.default(addmm_1, [2, 16, 256]);  addmm_1 = None
        relu: "f32[2, 16, 256]" = torch.ops.aten.relu.default(view_3);  view_3 = None
        return (relu,)
