class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[64, 4, 512]", arg1_1: "f16[64, 512, 128]"):
        # File: /home/user/test_bmm.py:14 in forward, code: return torch.matmul(x1, x2).transpose(1, 0)
        expand: "f16[64, 4, 512]" = torch.ops.aten.expand.default(arg0_1, [64, 4, 512]);  arg0_1 = None
        expand_1: "f16[64, 512, 128]" = torch.ops.aten.expand.default(arg1_1, [64, 512, 128]);  arg1_1 = None
        bmm: "f16[64, 4, 128]" = torch.ops.aten.bmm.default(expand, expand_1);  expand = expand_1 = None
        transpose: "f16[4, 64, 128]" = torch.ops.aten.transpose.int(bmm, 1, 0);  bmm = None
        return (transpose,)
