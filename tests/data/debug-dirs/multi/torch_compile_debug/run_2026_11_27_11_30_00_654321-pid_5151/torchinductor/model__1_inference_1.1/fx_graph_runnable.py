
import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf

isolate_fails_code_str = None

# torch version: 2.0.1

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self):
        super().__init__()



    def forward(self, arg0_1, arg1_1):
        expand = torch.ops.aten.expand.default(arg0_1, [64, 4, 512]);  arg0_1 = None
        expand_1 = torch.ops.aten.expand.default(arg1_1, [64, 512, 128]);  arg1_1 = None
        bmm = torch.ops.aten.bmm.default(expand, expand_1);  expand = expand_1 = None
        transpose = torch.ops.aten.transpose.int(bmm, 1, 0);  bmm = None
        return (transpose,)


mod = Repro()

if __name__ == '__main__':
    arg0_1 = rand_strided((64, 4, 512), (2048, 512, 1), device='npu:0', dtype=torch.float16)
    arg1_1 = rand_strided((64, 512, 128), (65536, 128, 1), device='npu:0', dtype=torch.float16)
    with torch.cuda.amp.autocast(enabled=False):
        ref = mod(arg0_1, arg1_1)
