"""Tensor-parallel graphs in PyTorch: a row-parallel block traced with make_fx on a real
2-rank gloo group (two processes on the CPU), optimized by eqfuse with the group's size,
and both GraphModules run on every rank. The MC2 kernels eqfuse fuses into (through
eqfuse.testing.npu_reference, the chain on torch.distributed) give bit-identical outputs
on every rank, and the fused ops are the ones the cost model chooses."""
import os
import tempfile

import pytest
import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
import torch.multiprocessing as mp

try:
    import eqfuse
    from eqfuse.testing import npu_reference  # noqa: F401  (defines the MC2 ops)
except ImportError:  # eqfuse's extension not built
    eqfuse = None

pytestmark = pytest.mark.skipif(eqfuse is None, reason="eqfuse extension not built")

WORLD = 2
MC2_OPS = {"npu::npu_mm_all_reduce_base", "npu::npu_all_gather_base_mm",
           "npu::npu_mm_reduce_scatter_base", "npu::npu_mm_all_reduce_add_rms_norm"}


def block(x, w_o, residual, gamma, w_up, w_down):
    """Row-parallel attention output with its all_reduce, residual add and RMSNorm, then a
    row-parallel MLP whose all_reduce is reduce-scattered and gathered again."""
    group = dist.group.WORLD
    o = funcol.all_reduce(torch.mm(x, w_o), "sum", group)
    r = o + residual
    var = r.float().pow(2).mean(-1, keepdim=True)
    h = (r.float() * torch.rsqrt(var + 1e-6)).to(r.dtype) * gamma
    down = torch.mm(torch.nn.functional.silu(torch.mm(h, w_up)), w_down)
    scattered = funcol.reduce_scatter_single(down, "sum", 0, group)
    gathered = funcol.all_gather_single(scattered, 0, group)
    return r, torch.mm(gathered, w_o.t().contiguous())


def inputs(rank):
    g = torch.Generator().manual_seed(100 + rank)
    bf16 = torch.bfloat16
    def randn(*shape):
        return torch.randn(*shape, generator=g).to(bf16)
    # The residual and gamma are the same on every rank, as in a TP model.
    shared = torch.Generator().manual_seed(7)
    return (randn(256, 512), randn(512, 512), torch.randn(256, 512, generator=shared).to(bf16),
            torch.randn(512, generator=shared).to(bf16), randn(512, 1024), randn(1024, 512))


def rank_main(rank, store_path, out_dir):
    dist.init_process_group("gloo", init_method=f"file://{store_path}", rank=rank,
                            world_size=WORLD)
    from torch.fx.experimental.proxy_tensor import make_fx
    args = inputs(rank)
    gm = make_fx(block)(*args)
    result = eqfuse.optimize(gm, mode="max-autotune", config={"world_size": WORLD})
    ops = sorted({f"{n.target.namespace}::{n.target._opname}" for n in result.graph_module.graph.nodes
                  if n.op == "call_function" and hasattr(n.target, "namespace")})
    before = gm(*args)
    after = result.graph_module(*args)
    same = [torch.equal(a, b) for a, b in zip(before, after)]
    torch.save({"ops": ops, "same": same, "fusions": dict(result.fusions)},
               os.path.join(out_dir, f"rank{rank}.pt"))
    dist.destroy_process_group()


def test_optimized_tp_block_is_bit_identical_on_every_rank():
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "store")
        mp.spawn(rank_main, args=(store, tmp), nprocs=WORLD, join=True)
        results = [torch.load(os.path.join(tmp, f"rank{r}.pt")) for r in range(WORLD)]
    for rank, res in enumerate(results):
        assert all(res["same"]), (rank, res)
        # 256 tokens on 2 ranks, GE mode: each collective fuses with its matmul.
        assert res["fusions"] == {"collectives/mm-all-reduce-add-rms-norm": 1,
                                  "collectives/mm-reduce-scatter": 1,
                                  "collectives/all-gather-mm": 1}, (rank, res["fusions"])
        assert MC2_OPS - {"npu::npu_mm_all_reduce_base"} <= set(res["ops"]), (rank, res["ops"])
        assert "_c10d_functional::all_reduce" not in res["ops"], (rank, res["ops"])
    # Every rank traced the same graph and took the same decisions.
    assert results[0]["ops"] == results[1]["ops"]


def test_the_mc2_ops_are_defined():
    assert MC2_OPS <= set(npu_reference.OPS)
