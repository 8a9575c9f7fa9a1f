class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "bf16[s0, 2, 128]", arg2_1: "bf16[s0, 2, 128]", arg3_1: "bf16[128]"):
        # Rule (b) with dynamic shapes and epsilon (torchair-passes.md §3.2; §8.1 F2 add_rms_norm #3): the
        # flattened size is a SymInt product (TorchAir's "node name starts with mul" check).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg1_1, arg2_1, arg3_1, 1e-05)
        getitem: "bf16[s0, 2, 128]" = npu_add_rms_norm[0]
        getitem_2: "bf16[s0, 2, 128]" = npu_add_rms_norm[2]
        mul: "Sym(2*s0)" = arg0_1 * 2
        view: "bf16[2*s0, 128]" = torch.ops.aten.view.default(getitem, [mul, 128])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
        getitem_3: "i8[2*s0, 128]" = npu_dynamic_quant[0]
        getitem_4: "f32[2*s0]" = npu_dynamic_quant[1]
        view_1: "f32[2*s0, 1]" = torch.ops.aten.view.default(getitem_4, [-1, 1])
        return (getitem_3, view_1, getitem_2)
