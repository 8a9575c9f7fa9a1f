class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[4, 64]", arg1_1: "bf16[4, 64]", arg2_1: "bf16[64]"):
        # Negative for rule (c): npu._npu_dtype_cast to float16 (not float32) (torchair-passes.md §3.3).
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "bf16[4, 64]" = npu_add_rms_norm[0]
        getitem_2: "bf16[4, 64]" = npu_add_rms_norm[2]
        _npu_dtype_cast: "f16[4, 64]" = torch.ops.npu._npu_dtype_cast.default(getitem, torch.float16)
        return (_npu_dtype_cast, getitem_2)
