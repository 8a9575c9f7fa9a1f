"""Traces the tensor-parallel test graphs of this folder on a fake process group (no
devices, no peers: torch's FakeStore), as rank 0 of a TP group sees them.

    .venv/bin/python tests/data/tp/trace.py tests/data/tp

mlp_allreduce_norm_tp4.fx: a row-parallel MLP (column-parallel up projection,
silu, row-parallel down projection), all_reduce, residual add and RMSNorm,
then an all_gather and a reduce_scatter of the normed rows; TP 4, bf16; make_fx.

decoder_tp{2,4,8}.fx: one Llama-style decoder layer sharded Megatron-style (column-
parallel fused qkv and gate/up projections, row-parallel o and down projections, each
followed by an all_reduce), hidden 1024, 16 heads, intermediate 2816, 16 tokens, bf16;
make_fx, static shapes. decoder_tp{2,4,8}_compile.fx: the same layer through
torch.compile (AOTAutograd's forward graph), the token count symbolic.
llama7b_tp{2,4,8}_compile.fx: the layer at Llama-2-7B's sizes (hidden 4096, 32 heads,
intermediate 11008) through torch.compile, tokens symbolic: the cost-model workload of
docs/benchmarks.md "Tensor parallelism" (too large for the interpreter in tests).
"""
import sys
from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch._dynamo.backends.common import aot_autograd
from torch.fx.experimental.proxy_tensor import make_fx
from torch.testing._internal.distributed.fake_pg import FakeStore

BF16 = torch.bfloat16


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


class RMSNorm(torch.nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(hidden))

    def forward(self, x):
        var = x.float().pow(2).mean(-1, keepdim=True)
        return (x.float() * torch.rsqrt(var + 1e-6)).to(x.dtype) * self.weight


class TPDecoderLayer(torch.nn.Module):
    """Rank r's shard of a Llama layer: heads/tp heads, intermediate/tp columns."""

    def __init__(self, hidden, heads, intermediate, tp):
        super().__init__()
        self.head_dim = hidden // heads
        self.local_heads = heads // tp
        self.input_norm = RMSNorm(hidden)
        self.post_norm = RMSNorm(hidden)
        self.qkv = torch.nn.Linear(hidden, 3 * hidden // tp, bias=False)
        self.o = torch.nn.Linear(hidden // tp, hidden, bias=False)
        self.gate_up = torch.nn.Linear(hidden, 2 * intermediate // tp, bias=False)
        self.down = torch.nn.Linear(intermediate // tp, hidden, bias=False)

    def forward(self, hidden, residual):
        group = dist.group.WORLD
        tokens = hidden.shape[0]
        r = hidden + residual
        q, k, v = self.qkv(self.input_norm(r)).chunk(3, dim=-1)
        q, k, v = (t.view(tokens, self.local_heads, self.head_dim).transpose(0, 1)
                   for t in (q, k, v))
        a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        a = a.transpose(0, 1).reshape(tokens, self.local_heads * self.head_dim)
        attn = funcol.all_reduce(self.o(a), "sum", group)
        r2 = attn + r
        gate, up = self.gate_up(self.post_norm(r2)).chunk(2, dim=-1)
        mlp = funcol.all_reduce(self.down(torch.nn.functional.silu(gate) * up), "sum", group)
        return mlp, r2


def layer_inputs(hidden, tokens):
    return torch.randn(tokens, hidden, dtype=BF16), torch.randn(tokens, hidden, dtype=BF16)


def trace_make_fx(layer, hidden, tokens):
    names = [n for n, _ in layer.named_parameters()]

    def run(*flat):
        params = dict(zip(names, flat[:len(names)]))
        return torch.func.functional_call(layer, params, tuple(flat[len(names):]))

    weights = [p.detach() for p in layer.parameters()]
    return make_fx(run)(*weights, *layer_inputs(hidden, tokens))


def trace_compile(layer, hidden, tokens):
    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm

    torch._dynamo.reset()
    compiled = torch.compile(layer, backend=aot_autograd(fw_compiler=keep), dynamic=False)
    h, r = layer_inputs(hidden, tokens)
    torch._dynamo.mark_dynamic(h, 0)
    torch._dynamo.mark_dynamic(r, 0)
    with torch.no_grad():
        compiled(h, r)
    return graphs[0]


def write(gm, path: Path, name: str):
    text = gm.print_readable(print_output=False)
    # print_readable names the class after the traced callable; name it after the file.
    first, rest = text.split("\n", 1)
    path.write_text(f"class {name}(torch.nn.Module):\n{rest}")


def main(out_dir: Path) -> None:
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=4)
    args = (torch.randn(8, 64, dtype=BF16), torch.randn(64, 32, dtype=BF16),
            torch.randn(32, 64, dtype=BF16), torch.randn(8, 64, dtype=BF16),
            torch.randn(64, dtype=BF16))
    write(make_fx(mlp_allreduce_norm)(*args), out_dir / "mlp_allreduce_norm_tp4.fx",
          "mlp_allreduce_norm")
    dist.destroy_process_group()
    for tp in (2, 4, 8):
        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=tp)
        torch.manual_seed(0)
        small = TPDecoderLayer(1024, 16, 2816, tp).to(BF16)
        write(trace_make_fx(small, 1024, 16), out_dir / f"decoder_tp{tp}.fx", f"decoder_tp{tp}")
        write(trace_compile(small, 1024, 64), out_dir / f"decoder_tp{tp}_compile.fx",
              f"decoder_tp{tp}_compile")
        with torch.device("meta"):
            big = TPDecoderLayer(4096, 32, 11008, tp).to(BF16)
        big = big.to_empty(device="cpu")
        write(trace_compile(big, 4096, 64), out_dir / f"llama7b_tp{tp}_compile.fx",
              f"llama7b_tp{tp}_compile")
        dist.destroy_process_group()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
