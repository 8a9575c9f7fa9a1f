#!/usr/bin/env python3
"""Compact forward passes of ten LLM / encoder architectures written in plain
PyTorch after their Hugging Face modeling code, in two flavours, for tests that
trace them with make_fx on the installed torch (python/tests/test_corpus.py).

The committed FX files this script used to write (traced on torch 1.13) are
retired: the live corpus is python/tests/test_live_corpus.py (transformers' own
model code traced by the test), and the committed torch 2.11 traces are
tests/data/torch2/.  What remains here is what transformers has no model for:

  aten  the model as written (aten ops only);
  npu   RMSNorm -> torch.ops.npu.npu_rms_norm and every linear layer (except the
        LM head and the MoE router, which vllm-ascend keeps in floating point) ->
        W8A8-dynamic: npu_dynamic_quant on the flattened activation +
        npu_quant_matmul with int8 weights and a per-channel scale.

trace(arch, flavour, tracing_mode) is make_fx with static shapes ("real") or
symbolic ones ("symbolic": batch and sequence become symbols; the weights stay
real module constants).  The npu ops are the CPU references of
eqfuse.testing.npu_reference (python/tests/npu_standins.py).  Weights come from
a fixed seed per architecture and are module attributes, so make_fx makes them
get_attr constants (`_param_constant*`); only their types reach the FX text.

Library use: ARCHS, FLAVOURS, build_model(arch, flavour), example_inputs(arch),
trace(arch, flavour, tracing_mode).  As a script it prints the traces as FX
text into a folder of your choice (for inspection; nothing here reads them):

    .venv/bin/python tests/data/corpus/trace_corpus.py --out /tmp/corpus --only llama gpt2
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))  # npu_standins
try:
    import eqfuse  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

import npu_standins  # noqa: E402,F401  (registers torch.ops.npu.* on CPU)

npu = torch.ops.npu

# torch ScalarType code of the npu_quant_matmul output (bfloat16).
BF16_CODE = 15


# ----------------------------------------------------------------------------
# Configuration and weights


@dataclass(frozen=True)
class Config:
    vocab: int = 128
    hidden: int = 64
    heads: int = 4
    kv_heads: int = 2
    head_dim: int = 16
    inter: int = 128
    layers: int = 2
    eps: float = 1e-6
    rope_theta: float = 10000.0
    batch: int = 2
    seq: int = 8
    dtype: torch.dtype = torch.bfloat16
    qkv_bias: bool = False
    sliding_window: Optional[int] = None
    # MoE
    experts: int = 4
    top_k: int = 2
    moe_inter: int = 64


class Init:
    """Deterministic weights: one generator per model, drawn in construction order."""

    def __init__(self, seed: int, dtype: torch.dtype):
        self.g = torch.Generator().manual_seed(seed)
        self.dtype = dtype

    def normal(self, *shape, std=0.02, dtype=None) -> torch.Tensor:
        t = torch.randn(*shape, generator=self.g) * std
        return t.to(dtype or self.dtype)

    def ones_ish(self, n, dtype=None) -> torch.Tensor:
        return (1.0 + 0.1 * torch.randn(n, generator=self.g)).to(dtype or self.dtype)

    def param(self, t: torch.Tensor) -> nn.Parameter:
        return nn.Parameter(t, requires_grad=False)


class Linear(nn.Module):
    """y = x W^T + b.  `quant`: vllm-ascend's W8A8-dynamic linear (int8 weight
    stored transposed [in, out], per-output-channel float32 scale, per-token
    dynamic activation quant); the bias is added to the bfloat16 output."""

    def __init__(self, init: Init, k: int, n: int, bias: bool = False, quant: bool = False,
                 std: float = 0.05):
        super().__init__()
        self.k, self.n, self.quant = k, n, quant
        w = init.normal(n, k, std=std, dtype=torch.float32)
        b = init.normal(n, std=std) if bias else None
        if quant:
            scale = w.abs().amax(dim=1) / 127.0
            self.weight = init.param(torch.round(w / scale[:, None]).clamp(-128, 127)
                                     .to(torch.int8).t().contiguous())
            self.weight_scale = init.param(scale)
        else:
            self.weight = init.param(w.to(init.dtype))
        self.bias = init.param(b) if b is not None else None

    def forward(self, x):
        if not self.quant:
            return F.linear(x, self.weight, self.bias)
        q, scale = npu.npu_dynamic_quant(x.reshape(-1, self.k))
        out = npu.npu_quant_matmul(q, self.weight, self.weight_scale, pertoken_scale=scale,
                                   output_dtype=BF16_CODE)
        out = out.view(*x.shape[:-1], self.n)
        if self.bias is not None:
            out = out + self.bias
        return out


class Conv1D(nn.Module):
    """GPT-2's Conv1D: addmm(bias, x.view(-1, nx), weight[nx, nf])."""

    def __init__(self, init: Init, nx: int, nf: int, quant: bool):
        super().__init__()
        self.nf, self.quant = nf, quant
        if quant:
            self.inner = Linear(init, nx, nf, bias=True, quant=True)
        else:
            self.weight = init.param(init.normal(nx, nf, std=0.05))
            self.bias = init.param(init.normal(nf, std=0.05))

    def forward(self, x):
        if self.quant:
            return self.inner(x)
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class RMSNorm(nn.Module):
    """Llama's RMSNorm (`weight * h.to(input_dtype)`); `style="olmo2"` multiplies
    before the cast, `style="gemma"` scales by (1 + weight) in float32.  The npu
    flavour calls npu_rms_norm (gamma = 1 + weight for Gemma, as vllm-ascend)."""

    def __init__(self, init: Init, dim: int, eps: float, use_npu: bool, style: str = "llama"):
        super().__init__()
        self.eps, self.use_npu, self.style = eps, use_npu, style
        w = init.normal(dim, std=0.1) if style == "gemma" else init.ones_ish(dim)
        self.weight = init.param(w)

    def forward(self, x):
        if self.use_npu:
            gamma = 1.0 + self.weight if self.style == "gemma" else self.weight
            return npu.npu_rms_norm(x, gamma, self.eps)[0]
        dtype = x.dtype
        h = x.to(torch.float32)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + self.eps)
        if self.style == "gemma":
            return (h * (1.0 + self.weight.float())).type_as(x)
        if self.style == "olmo2":
            return (self.weight * h).to(dtype)
        return self.weight * h.to(dtype)


class LayerNorm(nn.Module):
    def __init__(self, init: Init, dim: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = init.param(init.ones_ish(dim))
        self.bias = init.param(init.normal(dim, std=0.1))

    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, self.eps)


class Embedding(nn.Module):
    def __init__(self, init: Init, num: int, dim: int):
        super().__init__()
        self.weight = init.param(init.normal(num, dim, std=0.5))

    def forward(self, ids):
        return F.embedding(ids, self.weight)


# ----------------------------------------------------------------------------
# Shared decoder pieces (transformers' modeling_llama and friends)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim: int, theta: float):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = (self.inv_freq[None, :, None].float()
                             .expand(position_ids.shape[0], -1, 1))
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def repeat_kv(x, n_rep: int):
    b, kvh, s, d = x.shape
    if n_rep == 1:
        return x
    x = x[:, :, None, :, :]
    x = x.expand(b, kvh, n_rep, s, d)
    return x.reshape(b, kvh * n_rep, s, d)


def eager_attention(q, k, v, mask, scaling, softcap=None):
    n_rep = q.shape[1] // k.shape[1]
    k = repeat_kv(k, n_rep)
    v = repeat_kv(v, n_rep)
    w = torch.matmul(q, k.transpose(2, 3)) * scaling
    if softcap is not None:
        w = w / softcap
        w = torch.tanh(w)
        w = w * softcap
    if mask is not None:
        w = w + mask
    w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
    out = torch.matmul(w, v)
    return out.transpose(1, 2).contiguous()


def causal_mask(batch: int, seq: int, dtype, sliding_window: Optional[int] = None):
    """transformers' _update_causal_mask (4.4x, no cache): a float mask with
    finfo.min above the diagonal (and, with a sliding window, before it)."""
    min_dtype = torch.finfo(dtype).min
    cache_position = torch.arange(0, seq)
    mask = torch.full((seq, seq), fill_value=min_dtype, dtype=dtype)
    mask = torch.triu(mask, diagonal=1)
    exclude = torch.arange(seq) > cache_position.reshape(-1, 1)
    if sliding_window is not None:
        sliding = torch.arange(seq) <= (cache_position.reshape(-1, 1) - sliding_window)
        exclude = exclude | sliding
    mask = mask * exclude
    return mask[None, None, :, :].expand(batch, 1, -1, -1)


class SwiGLU(nn.Module):
    def __init__(self, init: Init, hidden: int, inter: int, quant: bool, act: str = "silu"):
        super().__init__()
        self.act = act
        self.gate_proj = Linear(init, hidden, inter, quant=quant)
        self.up_proj = Linear(init, hidden, inter, quant=quant)
        self.down_proj = Linear(init, inter, hidden, quant=quant)

    def forward(self, x):
        g = self.gate_proj(x)
        g = F.gelu(g, approximate="tanh") if self.act == "gelu_tanh" else F.silu(g)
        return self.down_proj(g * self.up_proj(x))


class Attention(nn.Module):
    """Llama-family attention: GQA, RoPE, optional qkv bias (Qwen2), per-head q/k
    RMSNorm (Qwen3), whole-projection q/k RMSNorm (OLMo2), logit softcap (Gemma2)."""

    def __init__(self, init: Init, cfg: Config, use_npu: bool, qk_norm: Optional[str] = None,
                 softcap: Optional[float] = None, scaling: Optional[float] = None):
        super().__init__()
        self.cfg, self.qk_norm, self.softcap = cfg, qk_norm, softcap
        self.scaling = scaling if scaling is not None else cfg.head_dim ** -0.5
        h, hd = cfg.hidden, cfg.head_dim
        self.q_proj = Linear(init, h, cfg.heads * hd, bias=cfg.qkv_bias, quant=use_npu)
        self.k_proj = Linear(init, h, cfg.kv_heads * hd, bias=cfg.qkv_bias, quant=use_npu)
        self.v_proj = Linear(init, h, cfg.kv_heads * hd, bias=cfg.qkv_bias, quant=use_npu)
        self.o_proj = Linear(init, cfg.heads * hd, h, quant=use_npu)
        if qk_norm == "head":
            self.q_norm = RMSNorm(init, hd, cfg.eps, use_npu)
            self.k_norm = RMSNorm(init, hd, cfg.eps, use_npu)
        elif qk_norm == "full":
            self.q_norm = RMSNorm(init, cfg.heads * hd, cfg.eps, use_npu, style="olmo2")
            self.k_norm = RMSNorm(init, cfg.kv_heads * hd, cfg.eps, use_npu, style="olmo2")

    def forward(self, x, cos, sin, mask):
        b, s = x.shape[0], x.shape[1]
        hd = self.cfg.head_dim
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        if self.qk_norm == "full":
            q, k = self.q_norm(q), self.k_norm(k)
        q = q.view(b, s, -1, hd)
        k = k.view(b, s, -1, hd)
        if self.qk_norm == "head":
            q, k = self.q_norm(q), self.k_norm(k)
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        v = v.view(b, s, -1, hd).transpose(1, 2)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        out = eager_attention(q, k, v, mask, self.scaling, self.softcap)
        return self.o_proj(out.reshape(b, s, -1))


class DecoderLayer(nn.Module):
    """Pre-norm (Llama, Qwen, Mistral, Mixtral), pre+post norms (Gemma2) or
    post-norm (OLMo2) residual block around attention and an MLP or MoE."""

    def __init__(self, init: Init, cfg: Config, use_npu: bool, norm: str = "pre",
                 qk_norm: Optional[str] = None, mlp: Optional[nn.Module] = None,
                 norm_style: str = "llama", softcap: Optional[float] = None,
                 scaling: Optional[float] = None, sliding_window: Optional[int] = None):
        super().__init__()
        self.norm = norm
        self.sliding_window = sliding_window
        mk = lambda: RMSNorm(init, cfg.hidden, cfg.eps, use_npu, style=norm_style)  # noqa: E731
        if norm in ("pre", "sandwich"):
            self.input_layernorm = mk()
        self.self_attn = Attention(init, cfg, use_npu, qk_norm, softcap, scaling)
        self.post_attention_layernorm = mk()
        if norm == "sandwich":
            self.pre_feedforward_layernorm = mk()
        if norm in ("sandwich", "post"):
            self.post_feedforward_layernorm = mk()
        self.mlp = mlp if mlp is not None else SwiGLU(init, cfg.hidden, cfg.inter, use_npu)

    def forward(self, h, cos, sin, mask):
        residual = h
        if self.norm == "pre":
            h = self.self_attn(self.input_layernorm(h), cos, sin, mask)
            h = residual + h
            residual = h
            h = self.mlp(self.post_attention_layernorm(h))
            return residual + h
        if self.norm == "sandwich":
            h = self.self_attn(self.input_layernorm(h), cos, sin, mask)
            h = self.post_attention_layernorm(h)
            h = residual + h
            residual = h
            h = self.mlp(self.pre_feedforward_layernorm(h))
            h = self.post_feedforward_layernorm(h)
            return residual + h
        # post-norm (OLMo2)
        h = self.post_attention_layernorm(self.self_attn(h, cos, sin, mask))
        h = residual + h
        residual = h
        h = self.post_feedforward_layernorm(self.mlp(h))
        return residual + h


def static_dispatch(hidden, topk_idx, topk_w, experts, out_dtype):
    """Expert dispatch after transformers' Mixtral/DeepSeek-V3 eager loop
    (one-hot expert mask, hidden[token_idx] gather, weighted index_add_ into the
    output), with one change: HF takes `token_idx, slot = torch.where(mask)`,
    whose size depends on the routing (a data-dependent shape that a static
    trace would bake in); here every expert takes the full static slot list
    [T*K] with weight 0 on slots routed elsewhere."""
    t, k = topk_idx.shape
    final = torch.zeros((t, hidden.shape[-1]), dtype=out_dtype)
    # F.one_hot(topk_idx, num_classes=E), written as the zeros().scatter_() it
    # lowers to: one_hot checks the index range with .item(), which a real-mode
    # make_fx trace cannot do.
    one_hot = torch.zeros((t, k, len(experts)), dtype=torch.long)
    one_hot.scatter_(-1, topk_idx.unsqueeze(-1), 1)
    expert_mask = one_hot.permute(2, 0, 1)
    token_idx = torch.arange(t).unsqueeze(1).expand(t, k).reshape(-1)
    flat_w = topk_w.reshape(-1)
    for e, expert in enumerate(experts):
        routed = expert_mask[e].reshape(-1)
        w = torch.where(routed.bool(), flat_w, torch.zeros_like(flat_w))
        current = hidden[token_idx]
        out = expert(current) * w[:, None].to(current.dtype)
        final.index_add_(0, token_idx, out.to(out_dtype))
    return final


class MixtralMoE(nn.Module):
    """MixtralSparseMoeBlock: float32 softmax router, top-2, renormalized."""

    def __init__(self, init: Init, cfg: Config, use_npu: bool):
        super().__init__()
        self.cfg = cfg
        self.gate = Linear(init, cfg.hidden, cfg.experts)  # router: not quantized
        self.experts = nn.ModuleList(SwiGLU(init, cfg.hidden, cfg.moe_inter, use_npu)
                                     for _ in range(cfg.experts))

    def forward(self, h):
        b, s, d = h.shape
        h = h.view(-1, d)
        router_logits = self.gate(h)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected = torch.topk(routing_weights, self.cfg.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(h.dtype)
        out = static_dispatch(h, selected, routing_weights, self.experts, h.dtype)
        return out.reshape(b, s, d)


class DeepseekV3Router(nn.Module):
    """DeepseekV3TopkRouter: float32 logits (cast), sigmoid scores plus the
    correction bias, group-limited top-k (topk, scatter_, masked_fill), gather."""

    def __init__(self, init: Init, cfg: Config, n_group: int, topk_group: int, scale: float):
        super().__init__()
        self.cfg, self.n_group, self.topk_group, self.scale = cfg, n_group, topk_group, scale
        self.weight = init.param(init.normal(cfg.experts, cfg.hidden, std=0.1))
        self.e_score_correction_bias = init.param(
            init.normal(cfg.experts, std=0.01, dtype=torch.float32))

    def forward(self, h):
        e = self.cfg.experts
        h = h.view(-1, self.cfg.hidden)
        router_logits = F.linear(h.type(torch.float32), self.weight.type(torch.float32))
        scores = router_logits.sigmoid()
        scores_for_choice = scores.view(-1, e) + self.e_score_correction_bias.unsqueeze(0)
        group_scores = (scores_for_choice.view(-1, self.n_group, e // self.n_group)
                        .topk(2, dim=-1)[0].sum(dim=-1))
        group_idx = torch.topk(group_scores, k=self.topk_group, dim=-1, sorted=False)[1]
        group_mask = torch.zeros_like(group_scores)
        group_mask.scatter_(1, group_idx, 1)
        score_mask = (group_mask.unsqueeze(-1).expand(-1, self.n_group, e // self.n_group)
                      .reshape(-1, e))
        scores_for_choice = scores_for_choice.masked_fill(~score_mask.bool(), 0.0)
        topk_indices = torch.topk(scores_for_choice, k=self.cfg.top_k, dim=-1, sorted=False)[1]
        topk_weights = scores.gather(1, topk_indices)
        topk_weights /= topk_weights.sum(dim=-1, keepdim=True) + 1e-20
        topk_weights = topk_weights * self.scale
        return topk_indices, topk_weights


class DeepseekV3MoE(nn.Module):
    def __init__(self, init: Init, cfg: Config, use_npu: bool):
        super().__init__()
        self.cfg = cfg
        self.gate = DeepseekV3Router(init, cfg, n_group=2, topk_group=1, scale=2.5)
        self.experts = nn.ModuleList(SwiGLU(init, cfg.hidden, cfg.moe_inter, use_npu)
                                     for _ in range(cfg.experts))
        self.shared_experts = SwiGLU(init, cfg.hidden, cfg.moe_inter, use_npu)

    def forward(self, h):
        residuals = h
        shape = h.shape
        topk_indices, topk_weights = self.gate(h)
        flat = h.view(-1, h.shape[-1])
        out = static_dispatch(flat, topk_indices, topk_weights, self.experts, topk_weights.dtype)
        out = out.type(h.dtype).view(*shape)
        return out + self.shared_experts(residuals)


class MLAttention(nn.Module):
    """DeepSeek-V3 multi-head latent attention, small: low-rank q (q_a/q_b with
    RMSNorm), compressed kv with a shared rope key, interleaved RoPE."""

    def __init__(self, init: Init, cfg: Config, use_npu: bool, q_lora=32, kv_lora=32,
                 nope=16, rope=8, v_dim=16):
        super().__init__()
        self.cfg, self.kv_lora, self.nope, self.rope, self.v_dim = cfg, kv_lora, nope, rope, v_dim
        self.qk_dim = nope + rope
        self.scaling = self.qk_dim ** -0.5
        h = cfg.hidden
        self.q_a_proj = Linear(init, h, q_lora, quant=use_npu)
        self.q_a_layernorm = RMSNorm(init, q_lora, cfg.eps, use_npu)
        self.q_b_proj = Linear(init, q_lora, cfg.heads * self.qk_dim, quant=use_npu)
        self.kv_a_proj_with_mqa = Linear(init, h, kv_lora + rope, quant=use_npu)
        self.kv_a_layernorm = RMSNorm(init, kv_lora, cfg.eps, use_npu)
        self.kv_b_proj = Linear(init, kv_lora, cfg.heads * (nope + v_dim), quant=use_npu)
        self.o_proj = Linear(init, cfg.heads * v_dim, h, quant=use_npu)

    @staticmethod
    def _rope_interleave(q, k, cos, sin):
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        b, h, s, d = q.shape
        q = q.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
        b, h, s, d = k.shape
        k = k.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
        return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)

    def forward(self, x, cos, sin, mask):
        b, s = x.shape[0], x.shape[1]
        q = self.q_b_proj(self.q_a_layernorm(self.q_a_proj(x)))
        q = q.view(b, s, -1, self.qk_dim).transpose(1, 2)
        q_pass, q_rot = torch.split(q, [self.nope, self.rope], dim=-1)
        compressed_kv = self.kv_a_proj_with_mqa(x)
        k_pass, k_rot = torch.split(compressed_kv, [self.kv_lora, self.rope], dim=-1)
        k_pass = self.kv_b_proj(self.kv_a_layernorm(k_pass))
        k_pass = k_pass.view(b, s, -1, self.nope + self.v_dim).transpose(1, 2)
        k_pass, value_states = torch.split(k_pass, [self.nope, self.v_dim], dim=-1)
        k_rot = k_rot.view(b, 1, s, self.rope)
        q_rot, k_rot = self._rope_interleave(q_rot, k_rot, cos, sin)
        k_rot = k_rot.expand(*k_pass.shape[:-1], -1)
        query_states = torch.cat((q_pass, q_rot), dim=-1)
        key_states = torch.cat((k_pass, k_rot), dim=-1)
        out = eager_attention(query_states, key_states, value_states, mask, self.scaling)
        return self.o_proj(out.reshape(b, s, -1))


class DeepseekV3Layer(DecoderLayer):
    def __init__(self, init: Init, cfg: Config, use_npu: bool, moe: bool):
        nn.Module.__init__(self)
        self.norm = "pre"
        self.input_layernorm = RMSNorm(init, cfg.hidden, cfg.eps, use_npu)
        self.self_attn = MLAttention(init, cfg, use_npu)
        self.post_attention_layernorm = RMSNorm(init, cfg.hidden, cfg.eps, use_npu)
        self.mlp = (DeepseekV3MoE(init, cfg, use_npu) if moe
                    else SwiGLU(init, cfg.hidden, cfg.inter, use_npu))


class CausalLM(nn.Module):
    """Embedding -> decoder layers -> final norm -> LM head (logits).  The LM
    head is not quantized in the npu flavour (vllm-ascend keeps it in bf16)."""

    def __init__(self, init: Init, cfg: Config, use_npu: bool, layers: List[nn.Module],
                 rope_dim: int, norm_style: str = "llama", embed_scale: bool = False,
                 final_softcap: Optional[float] = None, tie: bool = False,
                 sliding: Sequence[Optional[int]] = ()):
        super().__init__()
        self.cfg, self.embed_scale, self.final_softcap = cfg, embed_scale, final_softcap
        self.sliding = list(sliding) or [cfg.sliding_window] * len(layers)
        self.embed_tokens = Embedding(init, cfg.vocab, cfg.hidden)
        self.layers = nn.ModuleList(layers)
        self.norm = RMSNorm(init, cfg.hidden, cfg.eps, use_npu, style=norm_style)
        self.rotary_emb = RotaryEmbedding(rope_dim, cfg.rope_theta)
        self.lm_head = None if tie else Linear(init, cfg.hidden, cfg.vocab)

    def forward(self, input_ids):
        b, s = input_ids.shape[0], input_ids.shape[1]
        h = self.embed_tokens(input_ids)
        if self.embed_scale:
            normalizer = torch.tensor(self.cfg.hidden ** 0.5, dtype=h.dtype)
            h = h * normalizer
        cache_position = torch.arange(0, s)
        position_ids = cache_position.unsqueeze(0)
        cos, sin = self.rotary_emb(h, position_ids)
        masks = {w: causal_mask(b, s, h.dtype, w) for w in sorted(set(self.sliding), key=str)}
        for layer, window in zip(self.layers, self.sliding):
            h = layer(h, cos, sin, masks[window])
        h = self.norm(h)
        if self.lm_head is None:
            logits = F.linear(h, self.embed_tokens.weight)
        else:
            logits = self.lm_head(h)
        if self.final_softcap is not None:
            logits = logits / self.final_softcap
            logits = torch.tanh(logits)
            logits = logits * self.final_softcap
        return logits


# ----------------------------------------------------------------------------
# The architectures


def _llama_like(seed, cfg, use_npu, **layer_kw):
    init = Init(seed, cfg.dtype)
    layers = [DecoderLayer(init, cfg, use_npu, **layer_kw) for _ in range(cfg.layers)]
    return CausalLM(init, cfg, use_npu, layers, cfg.head_dim)


def llama(use_npu):
    return _llama_like(1, Config(), use_npu)


def qwen2(use_npu):
    return _llama_like(2, Config(qkv_bias=True, rope_theta=1e6), use_npu)


def qwen3(use_npu):
    return _llama_like(3, Config(rope_theta=1e6), use_npu, qk_norm="head")


def mistral(use_npu):
    return _llama_like(4, Config(sliding_window=4), use_npu)


def mixtral(use_npu):
    cfg = Config(rope_theta=1e6)
    init = Init(5, cfg.dtype)
    layers = [DecoderLayer(init, cfg, use_npu, mlp=MixtralMoE(init, cfg, use_npu))
              for _ in range(cfg.layers)]
    return CausalLM(init, cfg, use_npu, layers, cfg.head_dim)


def deepseek_v3(use_npu):
    cfg = Config(kv_heads=4)
    init = Init(6, cfg.dtype)
    layers = [DeepseekV3Layer(init, cfg, use_npu, moe=i >= 1) for i in range(cfg.layers)]
    return CausalLM(init, cfg, use_npu, layers, rope_dim=8)


def gemma2(use_npu):
    cfg = Config()
    init = Init(7, cfg.dtype)
    layers = [DecoderLayer(init, cfg, use_npu, norm="sandwich", norm_style="gemma",
                           softcap=50.0, scaling=cfg.head_dim ** -0.5,
                           mlp=SwiGLU(init, cfg.hidden, cfg.inter, use_npu, act="gelu_tanh"))
              for _ in range(cfg.layers)]
    # Gemma2 alternates local (sliding window) and global attention layers.
    return CausalLM(init, cfg, use_npu, layers, cfg.head_dim, norm_style="gemma",
                    embed_scale=True, final_softcap=30.0, tie=True, sliding=[4, None])


def olmo2(use_npu):
    cfg = Config(kv_heads=4, rope_theta=500000.0)
    init = Init(8, cfg.dtype)
    layers = [DecoderLayer(init, cfg, use_npu, norm="post", qk_norm="full", norm_style="olmo2")
              for _ in range(cfg.layers)]
    return CausalLM(init, cfg, use_npu, layers, cfg.head_dim, norm_style="olmo2")


class NewGELU(nn.Module):
    """transformers' NewGELUActivation (GPT-2's "gelu_new", the tanh approximation)."""

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi)
                                           * (x + 0.044715 * torch.pow(x, 3.0))))


class GPT2Block(nn.Module):
    def __init__(self, init: Init, cfg: Config, use_npu: bool):
        super().__init__()
        h = cfg.hidden
        self.cfg = cfg
        self.ln_1 = LayerNorm(init, h, 1e-5)
        self.c_attn = Conv1D(init, h, 3 * h, use_npu)
        self.attn_c_proj = Conv1D(init, h, h, use_npu)
        self.ln_2 = LayerNorm(init, h, 1e-5)
        self.c_fc = Conv1D(init, h, 4 * h, use_npu)
        self.mlp_c_proj = Conv1D(init, 4 * h, h, use_npu)
        self.act = NewGELU()
        self.register_buffer("bias", torch.tril(torch.ones((32, 32), dtype=torch.bool)).view(1, 1, 32, 32), persistent=False)

    def _split_heads(self, x):
        new_shape = x.size()[:-1] + (self.cfg.heads, self.cfg.head_dim)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def attn(self, x):
        q, k, v = self.c_attn(x).split(self.cfg.hidden, dim=2)
        q, k, v = self._split_heads(q), self._split_heads(k), self._split_heads(v)
        w = torch.matmul(q, k.transpose(-1, -2))
        w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype, device=w.device)
        query_length, key_length = q.size(-2), k.size(-2)
        causal = self.bias[:, :, key_length - query_length : key_length, :key_length]
        mask_value = torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype, device=w.device)
        w = torch.where(causal, w.to(w.dtype), mask_value)
        w = F.softmax(w, dim=-1)
        out = torch.matmul(w, v)
        out = out.permute(0, 2, 1, 3).contiguous()
        out = out.view(out.size()[:-2] + (self.cfg.hidden,))
        return self.attn_c_proj(out)

    def forward(self, h):
        h = h + self.attn(self.ln_1(h))
        return h + self.mlp_c_proj(self.act(self.c_fc(self.ln_2(h))))


class GPT2(nn.Module):
    def __init__(self, use_npu):
        super().__init__()
        cfg = self.cfg = Config(kv_heads=4)
        init = Init(9, cfg.dtype)
        self.wte = Embedding(init, cfg.vocab, cfg.hidden)
        self.wpe = Embedding(init, 32, cfg.hidden)
        self.h = nn.ModuleList(GPT2Block(init, cfg, use_npu) for _ in range(cfg.layers))
        self.ln_f = LayerNorm(init, cfg.hidden, 1e-5)

    def forward(self, input_ids):
        s = input_ids.shape[-1]
        position_ids = torch.arange(0, s, dtype=torch.long).unsqueeze(0)
        h = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            h = block(h)
        h = self.ln_f(h)
        return F.linear(h, self.wte.weight)  # lm_head tied to wte


def gpt2(use_npu):
    return GPT2(use_npu)


class BertLayer(nn.Module):
    def __init__(self, init: Init, cfg: Config, use_npu: bool):
        super().__init__()
        h = cfg.hidden
        self.cfg = cfg
        self.query = Linear(init, h, h, bias=True, quant=use_npu)
        self.key = Linear(init, h, h, bias=True, quant=use_npu)
        self.value = Linear(init, h, h, bias=True, quant=use_npu)
        self.attn_out = Linear(init, h, h, bias=True, quant=use_npu)
        self.attn_ln = LayerNorm(init, h, 1e-12)
        self.intermediate = Linear(init, h, cfg.inter, bias=True, quant=use_npu)
        self.output = Linear(init, cfg.inter, h, bias=True, quant=use_npu)
        self.out_ln = LayerNorm(init, h, 1e-12)

    def _heads(self, x):
        new_shape = x.size()[:-1] + (self.cfg.heads, self.cfg.head_dim)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, h, mask):
        q, k, v = self._heads(self.query(h)), self._heads(self.key(h)), self._heads(self.value(h))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.cfg.head_dim)
        scores = scores + mask
        probs = F.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(ctx.size()[:-2] + (self.cfg.hidden,))
        h = self.attn_ln(self.attn_out(ctx) + h)
        return self.out_ln(self.output(F.gelu(self.intermediate(h))) + h)


class Bert(nn.Module):
    """BertModel without pooler: returns the last hidden state."""

    def __init__(self, use_npu):
        super().__init__()
        cfg = self.cfg = Config(kv_heads=4, seq=16)
        init = Init(10, cfg.dtype)
        self.word_embeddings = Embedding(init, cfg.vocab, cfg.hidden)
        self.position_embeddings = Embedding(init, 32, cfg.hidden)
        self.token_type_embeddings = Embedding(init, 2, cfg.hidden)
        self.ln = LayerNorm(init, cfg.hidden, 1e-12)
        self.register_buffer("position_ids", torch.arange(32).expand((1, -1)), persistent=False)
        self.layer = nn.ModuleList(BertLayer(init, cfg, use_npu) for _ in range(cfg.layers))

    def forward(self, input_ids, token_type_ids, attention_mask):
        s = input_ids.shape[1]
        position_ids = self.position_ids[:, 0:s]
        h = (self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
             + self.position_embeddings(position_ids))
        h = self.ln(h)
        # transformers' _prepare_4d_attention_mask
        b, src = attention_mask.shape
        dtype = h.dtype
        expanded = attention_mask[:, None, None, :]
        expanded = expanded.expand(b, 1, s, src).to(dtype)
        inverted = 1.0 - expanded
        mask = inverted.masked_fill(inverted.to(torch.bool), torch.finfo(dtype).min)
        for layer in self.layer:
            h = layer(h, mask)
        return h


def bert(use_npu):
    return Bert(use_npu)


# arch -> (constructor, one-line description for the README)
ARCHS: Dict[str, Tuple[Callable[[bool], nn.Module], str]] = {
    "llama": (llama, "RMSNorm, RoPE, GQA (4 q / 2 kv heads), SwiGLU, causal mask, LM head"),
    "qwen2": (qwen2, "Llama + q/k/v projection bias"),
    "qwen3": (qwen3, "Llama + per-head q/k RMSNorm"),
    "mistral": (mistral, "Llama + sliding-window causal mask (window 4)"),
    "mixtral": (mixtral, "Mistral attention + top-2 MoE (4 experts, float32 softmax router, "
                         "one_hot / index / index_add_ dispatch)"),
    "deepseek_v3": (deepseek_v3, "MLA-lite attention (low-rank q, compressed kv, interleaved "
                                 "RoPE) + dense layer, then sigmoid group-limited top-2 MoE "
                                 "with shared expert (float32 router via casts)"),
    "gemma2": (gemma2, "embedding scaling, (1+w) RMSNorm pre+post norms, GeGLU (gelu tanh), "
                       "attention and final logit softcap (tanh), local/global layers, tied head"),
    "olmo2": (olmo2, "post-norm residuals, whole-projection q/k RMSNorm"),
    "gpt2": (gpt2, "LayerNorm, Conv1D as addmm, gelu_new (tanh formula), learned positions "
                   "from arange, bool causal buffer + where, tied LM head"),
    "bert": (bert, "word + position + token-type embeddings, LayerNorm, erf gelu, padding "
                   "mask via masked_fill; returns the last hidden state"),
}
FLAVOURS = ("aten", "npu")
MODES = ("static", "symbolic")


def build_model(arch: str, flavour: str) -> nn.Module:
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown flavour {flavour!r}")
    return ARCHS[arch][0](flavour == "npu").eval()


def example_inputs(arch: str) -> Tuple[torch.Tensor, ...]:
    g = torch.Generator().manual_seed(1234)
    if arch == "bert":
        b, s = 2, 16
        ids = torch.randint(0, 128, (b, s), generator=g)
        token_types = torch.cat([torch.zeros(b, s // 2, dtype=torch.long),
                                 torch.ones(b, s // 2, dtype=torch.long)], dim=1)
        mask = torch.ones(b, s, dtype=torch.long)
        mask[1, s - 5:] = 0  # the second sequence is padded
        return ids, token_types, mask
    return (torch.randint(0, 128, (2, 8), generator=g),)


def trace(arch: str, flavour: str, tracing_mode: str = "real"):
    """make_fx GraphModule of one architecture ("real" = static shapes,
    "symbolic": symbolic input sizes, the weights kept as real constants)."""
    model = build_model(arch, flavour)
    with torch.no_grad():
        return make_fx(model, tracing_mode=tracing_mode,
                       _allow_non_fake_inputs=tracing_mode != "real")(*example_inputs(arch))


def call_nodes(gm) -> int:
    return sum(1 for n in gm.graph.nodes if n.op == "call_function")


# ----------------------------------------------------------------------------
# FX text of the traces (script use)


def _write(gm, inputs, name: str, out_dir: str, json_dir: str, eqfuse_bin: str) -> str:
    import eqfuse
    doc = eqfuse.to_document(gm, inputs)
    json_path = os.path.join(json_dir, name + ".json")
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    txt = os.path.join(out_dir, name + ".txt")
    _eqfuse(eqfuse_bin, "print", json_path, "--format", "fx", "-o", txt)
    _eqfuse(eqfuse_bin, "print", txt)  # the text must read back
    return txt


def _eqfuse(eqfuse_bin: str, *args: str) -> None:
    """Runs the CLI; its stderr (notes on opaque ops) is shown only on failure."""
    p = subprocess.run([eqfuse_bin, *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise RuntimeError(f"eqfuse {' '.join(args)}: exit {p.returncode}")


def _first_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}".strip().splitlines()
    return text[0].split("(*(")[0][:300] if text else type(e).__name__


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the folder the .txt files go to")
    ap.add_argument("--keep-json", metavar="DIR", help="keep the eqfuse-graph JSON here")
    ap.add_argument("--eqfuse", default=os.path.join(ROOT, "build", "eqfuse"))
    ap.add_argument("--only", nargs="*", choices=sorted(ARCHS), help="architectures to trace")
    ap.add_argument("--modes", nargs="*", choices=MODES, default=list(MODES))
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    os.makedirs(args.out, exist_ok=True)
    tmp = None
    json_dir = args.keep_json
    if json_dir is None:
        tmp = tempfile.TemporaryDirectory()
        json_dir = tmp.name
    os.makedirs(json_dir, exist_ok=True)
    failures = []
    for arch in args.only or list(ARCHS):
        for flavour in FLAVOURS:
            for mode in args.modes:
                name = f"{arch}_{flavour}_{mode}"
                try:
                    gm = trace(arch, flavour, "real" if mode == "static" else "symbolic")
                except Exception as e:  # report, go on with the others
                    failures.append((name, _first_line(e)))
                    print(f"{name}: trace failed: {_first_line(e)}", file=sys.stderr)
                    continue
                path = _write(gm, example_inputs(arch), name, args.out, json_dir, args.eqfuse)
                print(f"{name}: {call_nodes(gm)} call nodes, {os.path.getsize(path)} bytes")
    if failures:
        print(f"{len(failures)} traces failed (listed above)", file=sys.stderr)
    if tmp is not None:
        tmp.cleanup()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
