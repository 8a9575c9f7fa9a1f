# R6: auto_functionalized_v2 on a graph input without a copy_ epilogue (the input must not change).
# Upstream returns None; the new value is returned here so the equivalence check sees it.
class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        select_1: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 2);  select_1 = None
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (3,), _x_stride = (1,), _x_storage_offset = 0, _all_bases = [arg0_1_1]);  arg0_1_1 = None
        getitem = auto_functionalized_v2[0];  getitem = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        return (getitem_1,)
