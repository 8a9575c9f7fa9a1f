# R11 (lists, auto_functionalized_v2): f(b): mutate_op([b[0], b[1]]) with b an f32[2] input.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2]"):
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.mutate_op.default, _y_length = 2, _y_0_base_index = 0, _y_0_size = (), _y_0_stride = (), _y_0_storage_offset = 0, _y_1_base_index = 0, _y_1_size = (), _y_1_stride = (), _y_1_storage_offset = 1, _all_bases = [arg0_1])
        getitem_1: "f32[2]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        copy_: "f32[2]" = torch.ops.aten.copy_.default(arg0_1, getitem_1);  arg0_1 = getitem_1 = copy_ = None
        return ()
