# R3: an unused view of the input; boo mutates the input through auto_functionalized_v2; copy_ epilogue.
class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (3,), _x_stride = (1,), _x_storage_offset = 0, _all_bases = [arg0_1_1])
        getitem = auto_functionalized_v2[0];  getitem = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1_1, getitem_1);  arg0_1_1 = getitem_1 = copy_ = None
        return ()
