class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 2, 128]", arg1_1: "f32[4, 128, 128]"):
        # Rule (d) in float32: TorchAir's extra_check accepts bf16, fp16 and fp32 (torchair-passes.md §3.4
        # check 3; §7.8 lists fp16/bf16/fp32), so this fuses.
        bmm: "f32[4, 2, 128]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f32[2, 4, 128]" = torch.ops.aten.transpose.int(bmm, 0, 1)
        return (transpose,)
