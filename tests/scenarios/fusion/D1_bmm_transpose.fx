class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        # Rule (d) `pattern` (torchair-passes.md §3.4; §8.3 B1 with smaller sizes): matmul(x1, x2).transpose(1, 0)
        # after remove_noop_ops: expand (kept, not a no-op pass) -> bmm -> transpose.
        # Fused: npu_transpose_batchmatmul(expand(x1), x2, perm_x1=[0, 1, 2]).
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        return (transpose,)
