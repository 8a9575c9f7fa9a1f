class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[4, 512]", arg1_1: "bf16[128]", arg2_1: "bf16[128]", arg3_1: "bf16[64, 64]", arg4_1: "i64[4]"):
        # Partial rotary (rotary_dim 64 of head_dim 128): vllm-ascend PR #6749 restricts the pass
        # to rotary_dim == head_size, so the chain stays unfused.
        split_with_sizes = torch.ops.aten.split_with_sizes.default(arg0_1, [256, 128, 128], -1)
        getitem: "bf16[4, 256]" = split_with_sizes[0]
        getitem_1: "bf16[4, 128]" = split_with_sizes[1]
        getitem_2: "bf16[4, 128]" = split_with_sizes[2]
        view: "bf16[4, 2, 128]" = torch.ops.aten.view.default(getitem, [4, 2, 128])
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(view, arg1_1, 1e-06)
        getitem_3: "bf16[4, 2, 128]" = npu_rms_norm[0]
        view_1: "bf16[4, 1, 128]" = torch.ops.aten.view.default(getitem_1, [4, 1, 128])
        npu_rms_norm_1 = torch.ops.npu.npu_rms_norm.default(view_1, arg2_1, 1e-06)
        getitem_5: "bf16[4, 1, 128]" = npu_rms_norm_1[0]
        view_2: "bf16[4, 256]" = torch.ops.aten.view.default(getitem_3, [4, 256])
        view_3: "bf16[4, 128]" = torch.ops.aten.view.default(getitem_5, [4, 128])
        npu_rotary_embedding = torch.ops.vllm.npu_rotary_embedding.default(arg4_1, view_2, view_3, arg3_1, 128, 64, True)
        getitem_7: "bf16[4, 256]" = npu_rotary_embedding[0]
        getitem_8: "bf16[4, 128]" = npu_rotary_embedding[1]
        return (getitem_7, getitem_8, getitem_2)
