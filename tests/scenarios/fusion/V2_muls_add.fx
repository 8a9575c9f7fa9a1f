class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[64, 2048]", arg1_1: "bf16[64, 2048]"):
        # vllm-ascend MulsAddFusionPass (peer passes survey): a MoE output scaled by the
        # routed_scaling_factor plus the shared experts' output is one vllm.muls_add kernel.
        mul: "bf16[64, 2048]" = torch.ops.aten.mul.Tensor(arg0_1, 2.5)
        add: "bf16[64, 2048]" = torch.ops.aten.add.Tensor(mul, arg1_1)
        return (add,)
