class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 128]", arg1_1: "f32[16, 128]", arg2_1: "f32[128]", arg3_1: "f32[128]"):
        # A StarCoder2-style block: the residual add feeds the next LayerNorm and the next
        # residual add (MindSpore add_layer_norm_fusion: one npu_add_layer_norm, x = the add).
        add: "f32[16, 128]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(add, [128], arg2_1, arg3_1, 1e-05)
        getitem: "f32[16, 128]" = native_layer_norm[0]
        return (getitem, add)
