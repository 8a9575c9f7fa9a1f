class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[1, 4, 16, 32]", arg1_1: "bf16[1, 2, 16, 32]", arg2_1: "bf16[1, 4, 16, 32]"):
        # Unmasked npu_fusion_attention whose key is a repeat_kv of 2 heads but whose value
        # has 4 heads of its own: the kernel takes one kv head count for both.
        unsqueeze: "bf16[1, 2, 1, 16, 32]" = torch.ops.aten.unsqueeze.default(arg1_1, 2)
        expand: "bf16[1, 2, 2, 16, 32]" = torch.ops.aten.expand.default(unsqueeze, [1, 2, 2, 16, 32])
        clone: "bf16[1, 2, 2, 16, 32]" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format)
        _unsafe_view: "bf16[1, 4, 16, 32]" = torch.ops.aten._unsafe_view.default(clone, [1, 4, 16, 32])
        npu_fusion_attention = torch.ops.npu.npu_fusion_attention.default(arg0_1, _unsafe_view, arg2_1, 4, 'BNSD', scale = 0.17677669529663687)
        getitem: "bf16[1, 4, 16, 32]" = npu_fusion_attention[0]
        return (getitem,)
