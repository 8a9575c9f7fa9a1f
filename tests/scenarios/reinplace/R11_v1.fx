# R11 (lists, auto_functionalized v1): f(b): mutate_op([b[0], b[1]]); v1 passes the views themselves,
# and functionalization writes the new values back into b with select_scatter.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2]"):
        select: "f32[]" = torch.ops.aten.select.int(arg0_1, 0, 0)
        select_1: "f32[]" = torch.ops.aten.select.int(arg0_1, 0, 1)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.custom.mutate_op.default, y = [select, select_1]);  select = select_1 = None
        getitem_1 = auto_functionalized[1];  auto_functionalized = None
        getitem_2: "f32[]" = getitem_1[0]
        getitem_3: "f32[]" = getitem_1[1];  getitem_1 = None
        select_scatter: "f32[2]" = torch.ops.aten.select_scatter.default(arg0_1, getitem_2, 0, 0);  getitem_2 = None
        select_scatter_1: "f32[2]" = torch.ops.aten.select_scatter.default(select_scatter, getitem_3, 0, 1);  select_scatter = getitem_3 = None
        copy_: "f32[2]" = torch.ops.aten.copy_.default(arg0_1, select_scatter_1);  arg0_1 = select_scatter_1 = copy_ = None
        return ()
