"""Small model code the tests trace with make_fx into real FX graphs."""
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import npu_standins  # noqa: F401

npu = torch.ops.npu

HIDDEN, INTER = 64, 128


class W8A8DynamicLinear(torch.nn.Module):
    """A W8A8-dynamic linear: per-token dynamic quant of the flattened
    [tokens, hidden] input, int8 matmul with per-channel weight scales."""

    def __init__(self, k, n, seed):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.weight = torch.randint(-128, 128, (k, n), generator=g, dtype=torch.int8)
        self.weight_scale = torch.rand(n, generator=g) / 64

    def forward(self, x):
        flat = x.view(-1, x.shape[-1])
        q, scale = npu.npu_dynamic_quant(flat)
        out = npu.npu_quant_matmul(q, self.weight, self.weight_scale, pertoken_scale=scale,
                                   output_dtype=5)  # float16
        return out.view(*x.shape[:-1], -1)


class LlamaBlock(torch.nn.Module):
    """Residual add + RMSNorm (npu_add_rms_norm) feeding a W8A8-dynamic MLP
    projection, then the final norm whose output is also cast to float32
    (the lm-head input)."""

    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.norm_weight = torch.rand(HIDDEN, generator=g, dtype=torch.float32).half()
        self.final_norm_weight = torch.rand(HIDDEN, generator=g, dtype=torch.float32).half()
        self.up = W8A8DynamicLinear(HIDDEN, INTER, 1)
        self.down = W8A8DynamicLinear(INTER, HIDDEN, 2)

    def forward(self, hidden, residual):
        y, _, residual = npu.npu_add_rms_norm(hidden, residual, self.norm_weight, 1e-6)
        h = self.up(y)
        h = torch.nn.functional.silu(h.float()).half()
        h = self.down(h)
        y2, _, residual = npu.npu_add_rms_norm(h, residual, self.final_norm_weight, 1e-6)
        logits_in = y2.to(torch.float32)
        return logits_in, y2, residual


def llama_inputs(seed=0, batch=2, seq=3):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, seq, HIDDEN, generator=g).half(),
            torch.randn(batch, seq, HIDDEN, generator=g).half())


def trace_llama(tracing_mode="real"):
    block = LlamaBlock()
    return make_fx(block, tracing_mode=tracing_mode)(*llama_inputs())


def bmm_transpose(a, b):
    return torch.bmm(a, b).transpose(0, 1)


def bmm_inputs(seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 8, 128, generator=g), torch.randn(4, 128, 256, generator=g)


def trace_bmm(tracing_mode="fake"):
    return make_fx(bmm_transpose, tracing_mode=tracing_mode)(*bmm_inputs())


def without_meta(gm):
    """A copy of ``gm`` whose nodes carry no meta (as symbolic_trace leaves them)."""
    import copy
    graph = copy.deepcopy(gm.graph)
    for n in graph.nodes:
        n.meta.clear()
    return torch.fx.GraphModule(gm, graph)


def qknorm_rope_prologue():
    """vllm-ascend's QKNormRopeFusionPass input: the q/k/v split of a fused projection
    (2 q heads, 1 kv head of 128, bf16, 4 tokens), a per-head npu_rms_norm of q and k,
    then the rotary embedding of both. Returns the function and its inputs."""
    def attention_prologue(qkv, q_weight, k_weight, cos_sin_cache, positions):
        q, k, v = qkv.split([256, 128, 128], -1)
        qn = torch.ops.npu.npu_rms_norm(q.view(4, 2, 128), q_weight, 1e-6)[0]
        kn = torch.ops.npu.npu_rms_norm(k.view(4, 1, 128), k_weight, 1e-6)[0]
        q_rope, k_rope = torch.ops.vllm.npu_rotary_embedding(
            positions, qn.view(4, 256), kn.view(4, 128), cos_sin_cache, 128, 128, True)
        return q_rope, k_rope, v

    g = torch.Generator().manual_seed(0)
    inputs = (torch.randn(4, 512, generator=g).to(torch.bfloat16),
              torch.randn(128, generator=g).to(torch.bfloat16),
              torch.randn(128, generator=g).to(torch.bfloat16),
              torch.randn(64, 128, generator=g).to(torch.bfloat16),
              torch.tensor([0, 5, 17, 63]))
    return attention_prologue, inputs
