class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[16, 128]", arg1_1: "f16[16, 128]", arg2_1: "f16[128]", arg3_1: "f16[128]"):
        # F.layer_norm before decomposition (aten.layer_norm, fp16), only y read: the add
        # and the norm are still one npu_add_layer_norm (MindSpore add_layer_norm_ext_fusion).
        add: "f16[16, 128]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        layer_norm: "f16[16, 128]" = torch.ops.aten.layer_norm.default(add, [128], arg2_1, arg3_1, 1e-05)
        return (layer_norm,)
