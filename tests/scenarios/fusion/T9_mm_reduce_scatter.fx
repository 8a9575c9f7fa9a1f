class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[256, 512]", w: "bf16[512, 512]"):
        mm: "bf16[256, 512]" = torch.ops.aten.mm.default(x, w);  x = w = None
        reduce_scatter_tensor: "bf16[128, 512]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(mm, 'sum', 2, '0');  mm = None
        wait_tensor: "bf16[128, 512]" = torch.ops._c10d_functional.wait_tensor.default(reduce_scatter_tensor);  reduce_scatter_tensor = None
        return (wait_tensor,)
