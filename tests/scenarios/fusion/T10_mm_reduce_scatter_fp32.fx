class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[256, 512]", w: "f32[512, 512]"):
        mm: "f32[256, 512]" = torch.ops.aten.mm.default(x, w);  x = w = None
        reduce_scatter_tensor: "f32[128, 512]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(mm, 'sum', 2, '0');  mm = None
        wait_tensor: "f32[128, 512]" = torch.ops._c10d_functional.wait_tensor.default(reduce_scatter_tensor);  reduce_scatter_tensor = None
        return (wait_tensor,)
