# A7: a = x.clone(); b = a.add_(1); y.mul(5); return b, x  (keep_inference_input_mutations off, remove_noop_ops off)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(clone, 1)
        return (add, arg0_1)
