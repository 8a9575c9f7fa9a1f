
import torch
from torch import tensor, device
import torch.fx as fx
from torch._dynamo.testing import rand_strided
from math import inf
import torch._inductor.inductor_prims

import torch._dynamo.config
import torch._inductor.config
torch._inductor.config.debug = True

isolate_fails_code_str = None


# torch version: 2.5.1

from torch.nn import *
class Repro(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()



    def forward(self, arg0_1, arg1_1, arg2_1):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg1_1, arg0_1);  arg2_1 = arg1_1 = arg0_1 = None
        getitem = npu_add_rms_norm[0]
        getitem_2 = npu_add_rms_norm[2];  npu_add_rms_norm = None
        view = torch.ops.aten.view.default(getitem, [6, 4]);  getitem = None
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view);  view = None
        getitem_3 = npu_dynamic_quant[0]
        getitem_4 = npu_dynamic_quant[1];  npu_dynamic_quant = None
        view_1 = torch.ops.aten.view.default(getitem_4, [-1, 1]);  getitem_4 = None
        return (getitem_3, view_1, getitem_2)

def load_args(reader):
    buf0 = reader.storage(None, 8, device=device(type='npu', index=0), dtype_hint=torch.float16)
    reader.tensor(buf0, (4,), dtype=torch.float16, is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 48, device=device(type='npu', index=0), dtype_hint=torch.float16)
    reader.tensor(buf1, (2, 3, 4), dtype=torch.float16, is_leaf=True)  # arg1_1
    buf2 = reader.storage(None, 48, device=device(type='npu', index=0), dtype_hint=torch.float16)
    reader.tensor(buf2, (2, 3, 4), dtype=torch.float16, is_leaf=True)  # arg2_1
load_args._version = 0
mod = Repro()
if __name__ == '__main__':
    from torch._dynamo.repro.after_aot import run_repro
    with torch.no_grad():
        run_repro(mod, load_args, accuracy=False, command='run', save_dir=None, tracing_mode='real', check_str=None)
        # To run it separately, do 
        # mod, args = run_repro(mod, load_args, accuracy=False, command='get_args', save_dir=None, tracing_mode='real', check_str=None)
        # mod(*args)
