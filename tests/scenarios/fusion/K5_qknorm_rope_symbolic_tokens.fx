class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 768]", arg1_1: "bf16[128]", arg2_1: "bf16[128]", arg3_1: "bf16[64, 128]", arg4_1: "i64[s0]"):
        # Dynamic token count, as vLLM compiles it: the views spell the tokens with sym_size
        # (q.view(*q.shape[:-1], -1, 128)), 4 q heads and 1 kv head. Fuses as K1.
        sym_size_int = torch.ops.aten.sym_size.int(arg0_1, 0)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(arg0_1, [512, 128, 128], -1)
        getitem: "bf16[s0, 512]" = split_with_sizes[0]
        getitem_1: "bf16[s0, 128]" = split_with_sizes[1]
        getitem_2: "bf16[s0, 128]" = split_with_sizes[2]
        view: "bf16[s0, 4, 128]" = torch.ops.aten.view.default(getitem, [sym_size_int, 4, 128])
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(view, arg1_1, 1e-06)
        getitem_3: "bf16[s0, 4, 128]" = npu_rms_norm[0]
        view_1: "bf16[s0, 1, 128]" = torch.ops.aten.view.default(getitem_1, [sym_size_int, 1, 128])
        npu_rms_norm_1 = torch.ops.npu.npu_rms_norm.default(view_1, arg2_1, 1e-06)
        getitem_5: "bf16[s0, 1, 128]" = npu_rms_norm_1[0]
        view_2: "bf16[s0, 512]" = torch.ops.aten.view.default(getitem_3, [sym_size_int, 512])
        view_3: "bf16[s0, 128]" = torch.ops.aten.view.default(getitem_5, [sym_size_int, 128])
        npu_rotary_embedding = torch.ops.vllm.npu_rotary_embedding.default(arg4_1, view_2, view_3, arg3_1, 128, 128, True)
        getitem_7: "bf16[s0, 512]" = npu_rotary_embedding[0]
        getitem_8: "bf16[s0, 128]" = npu_rotary_embedding[1]
        return (getitem_7, getitem_8, getitem_2)
