class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 128]", arg1_1: "f32[16, 128]", arg2_1: "f32[128]", arg3_1: "f32[128]"):
        # Training graph: mean and rstd are saved for the backward. In fp32 they are
        # npu_add_layer_norm's own mean and rstd, so the fusion keeps them.
        add: "f32[16, 128]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(add, [128], arg2_1, arg3_1, 1e-05)
        getitem: "f32[16, 128]" = native_layer_norm[0]
        getitem_1: "f32[16, 1]" = native_layer_norm[1]
        getitem_2: "f32[16, 1]" = native_layer_norm[2]
        return (getitem, getitem_1, getitem_2, add)
