# R12: a, b = empty_like(x); sin_cos_inplace(x, a, b), functionalized to sin_cos_functional.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1)
        empty_like_1: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1)
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, empty_like, empty_like_1);  arg0_1 = empty_like = empty_like_1 = None
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1];  sin_cos_functional = None
        return (getitem, getitem_1)
