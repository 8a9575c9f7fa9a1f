class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[2, s0, 64]", arg1_1: "bf16[2, s0, 64]", arg2_1: "f32[64]"):
        # M17 with the casts spelled as torch_npu and AOTAutograd write them
        # (_npu_dtype_cast up, prims.convert_element_type down), 3-D.
        add: "bf16[2, s0, 64]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        _npu_dtype_cast: "f32[2, s0, 64]" = torch.ops.npu._npu_dtype_cast.default(add, torch.float32)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(_npu_dtype_cast, arg2_1, 1e-05)
        getitem: "f32[2, s0, 64]" = npu_rms_norm[0]
        convert_element_type: "bf16[2, s0, 64]" = torch.ops.prims.convert_element_type.default(getitem, torch.bfloat16)
        return (convert_element_type, add)
