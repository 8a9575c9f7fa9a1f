class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8]", arg1_1: "f32[8, 8]"):
        # torchair-passes.md §8.6 A1 as TorchAir compiles it, before remove_noop_ops: a = x.clone(); b = a.add(1);
        # stream '1': y.mul_(2); return b, y. tests/scenarios/reinplace/A1.fx is this graph with the
        # clone dropped by hand; here the noop rules drop it, so the add reads an input (no add_).
        clone: "f32[8, 8]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 8]" = torch.ops.aten.add.Tensor(clone, 1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        mul: "f32[8, 8]" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        scope_exit = torch.ops.air.scope_exit.default()
        copy_: "f32[8, 8]" = torch.ops.aten.copy_.default(arg1_1, mul)
        return (add, mul)
