class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16]", arg1_1: "f32[8, 16]"):
        # prims.convert_element_type to the tensor's own dtype feeding an add (torchair-passes.md §8.7)
        convert_element_type: "f32[8, 16]" = torch.ops.prims.convert_element_type.default(arg0_1, torch.float32)
        add: "f32[8, 16]" = torch.ops.aten.add.Tensor(convert_element_type, arg1_1)
        return (add,)
