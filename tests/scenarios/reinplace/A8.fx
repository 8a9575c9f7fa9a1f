# A8: b = x.add_(1); y.mul(6); return b, x  (keep_inference_input_mutations off, inplaceable pass disabled)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        return (add, add)
