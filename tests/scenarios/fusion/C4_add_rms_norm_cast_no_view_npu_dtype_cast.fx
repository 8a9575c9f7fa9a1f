class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 64]", arg1_1: "f16[4, 64]", arg2_1: "f16[64]"):
        # Rule (c), no-view variant, npu._npu_dtype_cast spelling (torchair-passes.md §3.3).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[4, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[4, 64]" = npu_add_rms_norm[2]
        _npu_dtype_cast: "f32[4, 64]" = torch.ops.npu._npu_dtype_cast.default(getitem, torch.float32)
        return (_npu_dtype_cast, getitem_2)
