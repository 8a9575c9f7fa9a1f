class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[128, 512]", w: "bf16[512, 512]"):
        all_gather_into_tensor: "bf16[256, 512]" = torch.ops._c10d_functional.all_gather_into_tensor.default(x, 2, '0');  x = None
        wait_tensor: "bf16[256, 512]" = torch.ops._c10d_functional.wait_tensor.default(all_gather_into_tensor);  all_gather_into_tensor = None
        mm: "bf16[256, 512]" = torch.ops.aten.mm.default(wait_tensor, w);  wait_tensor = w = None
        return (mm,)
