"""Traces the tensor-parallel test graphs of this folder with make_fx on a fake
process group (no devices, no peers: torch's FakeStore), as a TP rank sees them.

    .venv/bin/python tests/data/tp/trace.py tests/data/tp

mlp_allreduce_norm_tp4.fx: a row-parallel MLP (column-parallel up projection,
silu, row-parallel down projection), all_reduce, residual add and RMSNorm,
then an all_gather and a reduce_scatter of the normed rows; TP 4, bf16.
"""
import sys
from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch.fx.experimental.proxy_tensor import make_fx
from torch.testing._internal.distributed.fake_pg import FakeStore


def mlp_allreduce_norm(x, w_up, w_down, residual, gamma):
    group = dist.group.WORLD
    h = torch.nn.functional.silu(torch.mm(x, w_up))
    o = funcol.all_reduce(torch.mm(h, w_down), "sum", group)
    r = o + residual
    var = r.float().pow(2).mean(-1, keepdim=True)
    y = (r.float() * torch.rsqrt(var + 1e-6)).to(r.dtype) * gamma
    gathered = funcol.all_gather_single(y, 0, group)
    scattered = funcol.reduce_scatter_single(gathered, "sum", 0, group)
    return y, r, scattered


def main(out_dir: Path) -> None:
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=4)
    bf16 = torch.bfloat16
    args = (torch.randn(8, 64, dtype=bf16), torch.randn(64, 32, dtype=bf16),
            torch.randn(32, 64, dtype=bf16), torch.randn(8, 64, dtype=bf16),
            torch.randn(64, dtype=bf16))
    gm = make_fx(mlp_allreduce_norm)(*args)
    text = gm.print_readable(print_output=False)
    (out_dir / "mlp_allreduce_norm_tp4.fx").write_text(text)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
