# R2: R1 with auto_functionalized_v2 (_all_bases = [out]).
class f(torch.nn.Module):
    def forward(self, x_1: "f32[3]"):
        # No stacktrace found for following nodes
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(x_1, pin_memory = False)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = x_1, _result_base_index = 0, _result_size = (3,), _result_stride = (1,), _result_storage_offset = 0, _all_bases = [empty_like]);  x_1 = None
        getitem = auto_functionalized_v2[0];  getitem = None
        getitem_1: "f32[3]" = auto_functionalized_v2[1];  auto_functionalized_v2 = None
        mul: "f32[3]" = torch.ops.aten.mul.Tensor(empty_like, getitem_1);  empty_like = None
        return (getitem_1, mul)
