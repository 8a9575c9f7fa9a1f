class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, 3, 128]", arg1_1: "bf16[2, 3, 128]", arg2_1: "bf16[128]"):
        # Rule (c), view variant, older torch_npu spelling npu._npu_dtype_cast (torchair-passes.md §3.3,
        # §7.14; TorchAir commit 772569ea registers both spellings), epsilon 1e-05.
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1, 1e-05)
        getitem: "bf16[2, 3, 128]" = npu_add_rms_norm[0]
        getitem_2: "bf16[2, 3, 128]" = npu_add_rms_norm[2]
        view: "bf16[6, 128]" = torch.ops.aten.view.default(getitem, [-1, 128])
        _npu_dtype_cast: "f32[6, 128]" = torch.ops.npu._npu_dtype_cast.default(view, torch.float32)
        return (_npu_dtype_cast, getitem_2)
