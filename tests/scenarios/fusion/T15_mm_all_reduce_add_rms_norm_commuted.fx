class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[16, 512]", w: "bf16[512, 512]", residual: "bf16[16, 512]", gamma: "bf16[512]"):
        mm: "bf16[16, 512]" = torch.ops.aten.mm.default(x, w);  x = w = None
        all_reduce: "bf16[16, 512]" = torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0');  mm = None
        wait_tensor: "bf16[16, 512]" = torch.ops._c10d_functional.wait_tensor.default(all_reduce);  all_reduce = None
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(residual, wait_tensor, gamma, 1e-06);  wait_tensor = residual = gamma = None
        getitem: "bf16[16, 512]" = npu_add_rms_norm[0]
        getitem_2: "bf16[16, 512]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        return (getitem, getitem_2,)
