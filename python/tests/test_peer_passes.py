"""Fusions of other frameworks' passes (issue 20) on make_fx graphs built from the
ops those passes match: eqfuse fuses them and the optimized GraphModule computes
bit-identical outputs in PyTorch (the fused ops' stand-ins in npu_standins.py are
written as the chains they replace)."""
import math

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
import models
import npu_standins  # noqa: F401  (torch.ops.npu / vllm / _C_ascend stand-ins)
from checks import assert_same_outputs


def _optimize_and_compare(fn, inputs, rule, fewer_kernels=True):
    gm = make_fx(fn)(*inputs)
    r = eqfuse.optimize(gm, inputs)
    assert r.stats["fusions"].get(rule, 0) == 1, r.stats["fusions"]
    assert r.stats["cost_after_us"] < r.stats["cost_before_us"]
    if fewer_kernels:
        assert r.stats["kernels_after"] < r.stats["kernels_before"]
    assert_same_outputs(gm(*inputs), r.graph_module(*inputs))
    return r


def test_qknorm_rope_fuses_into_qkv_rmsnorm_rope():
    # vllm-ascend QKNormRopeFusionPass: 2 q heads, 1 kv head of 128, bf16, 4 tokens.
    attention_prologue, inputs = models.qknorm_rope_prologue()
    r = _optimize_and_compare(attention_prologue, inputs, "vllm/qknorm-rope")
    assert "qkv_rmsnorm_rope" in r.fx_text


def test_add_rms_norm_bias_then_dynamic_quant_fuses():
    # vllm-ascend AddRMSNormQuantFusionPass, the npu_add_rms_norm_bias variant.
    def norm_quant(x, residual, weight, bias):
        y, _, x_out = torch.ops._C_ascend.npu_add_rms_norm_bias(x, residual, weight, bias, 1e-6)
        q, scale = torch.ops.npu.npu_dynamic_quant(y)
        return q, scale, x_out

    g = torch.Generator().manual_seed(1)
    inputs = tuple(torch.randn(*shape, generator=g).to(torch.bfloat16)
                   for shape in ((16, 256), (16, 256), (256,), (256,)))
    _optimize_and_compare(norm_quant, inputs, "vllm/add-rms-norm-bias-dynamic-quant")


def test_quant_matmul_bias_add_folds_the_bias():
    # MindSpore inference_qbmm_add_fusion: w8a8 matmul, bf16 output, then a bf16 bias.
    def qbmm_add(x, weight, deq_scale, bias):
        return torch.ops.npu.npu_quant_matmul(x, weight, deq_scale, output_dtype=15) + bias

    g = torch.Generator().manual_seed(2)
    inputs = (torch.randint(-128, 128, (16, 64), generator=g, dtype=torch.int8),
              torch.randint(-128, 128, (64, 128), generator=g, dtype=torch.int8),
              torch.rand(128, generator=g) * 0.01,
              torch.randn(128, generator=g).to(torch.bfloat16))
    _optimize_and_compare(qbmm_add, inputs, "mindspore/quant-matmul-bias")


def test_rms_norm_then_per_tensor_quantize_fuses_into_rms_norm_quant():
    # MindSpore rms_norm_quant_fusion: at 1024 tokens x 4096 the saved y round trip pays
    # for the zero beta the fused kernel needs; with a bias (RmsNormAddQuant) the bias
    # is beta.
    def norm_quant(x, weight, scale, offset):
        y = torch.ops.npu.npu_rms_norm(x, weight, 1e-6)[0]
        return torch.ops.npu.npu_quantize(y, scale, offset, 1, -1, False)

    def norm_bias_quant(x, weight, bias, scale, offset):
        y = torch.ops.npu.npu_rms_norm(x, weight, 1e-6)[0] + bias
        return torch.ops.npu.npu_quantize(y, scale, offset, 1, -1, False)

    g = torch.Generator().manual_seed(4)
    x = torch.randn(1024, 4096, generator=g).to(torch.bfloat16)
    weight = torch.randn(4096, generator=g).to(torch.bfloat16)
    scale = torch.tensor([20.0]).to(torch.bfloat16)
    offset = torch.tensor([3], dtype=torch.int8)
    # Two kernels either way (the zero fill replaces the quantize launch); less traffic.
    r = _optimize_and_compare(norm_quant, (x, weight, scale, offset), "mindspore/rms-norm-quant",
                              fewer_kernels=False)
    assert "npu_rms_norm_quant" in r.fx_text and "zeros_like" in r.fx_text
    bias = torch.randn(4096, generator=g).to(torch.bfloat16)
    _optimize_and_compare(norm_bias_quant, (x, weight, bias, scale, offset),
                          "mindspore/rms-norm-add-quant")


def test_rotary_embedding_written_with_chunk_fuses_into_npu_rotary_mul():
    # TorchAir npu_fx_pass npu_rotary_mul, rotate_half spelled with chunk (one split).
    def rope(q, cos, sin):
        x1, x2 = q.chunk(2, -1)
        return q * cos + torch.cat((-x2, x1), -1) * sin

    g = torch.Generator().manual_seed(5)
    inputs = (torch.randn(1, 4, 8, 64, generator=g).to(torch.bfloat16),
              torch.randn(1, 1, 8, 64, generator=g).to(torch.bfloat16),
              torch.randn(1, 1, 8, 64, generator=g).to(torch.bfloat16))
    r = _optimize_and_compare(rope, inputs, "torchair/npu-rotary-mul-chunk")
    assert "npu_rotary_mul" in r.fx_text


def test_swiglu_then_dynamic_quant_fuses_into_dequant_swiglu_quant():
    # vLLM's ActivationQuant on Ascend: the w8a8 MLP's activation and its per-token quant.
    def activation(x):
        q, scale = torch.ops.npu.npu_dynamic_quant(torch.ops.npu.npu_swiglu(x, -1))
        return q, scale

    g = torch.Generator().manual_seed(3)
    inputs = (torch.randn(6, 256, generator=g).to(torch.bfloat16),)
    r = _optimize_and_compare(activation, inputs, "npu/swiglu-dynamic-quant")
    assert "npu_dequant_swiglu_quant" in r.fx_text


def _eager_attention(n_rep):
    # HF eager_attention_forward with repeat_kv, as LLaMA-family models write it.
    def attention(q, k, v, mask):
        b, kv_heads, t, d = k.shape
        k = k[:, :, None].expand(b, kv_heads, n_rep, t, d).reshape(b, kv_heads * n_rep, t, d)
        v = v[:, :, None].expand(b, kv_heads, n_rep, t, d).reshape(b, kv_heads * n_rep, t, d)
        w = torch.matmul(q, k.transpose(2, 3)) * (d ** -0.5) + mask
        w = torch.nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)
    return attention


def _attention_inputs(dtype, heads, kv_heads, seq=8, dim=32, seed=5):
    g = torch.Generator().manual_seed(seed)
    causal = torch.full((seq, seq), torch.finfo(dtype).min).triu(1)
    return (torch.randn(2, heads, seq, dim, generator=g).to(dtype),
            torch.randn(2, kv_heads, seq, dim, generator=g).to(dtype),
            torch.randn(2, kv_heads, seq, dim, generator=g).to(dtype),
            causal.to(dtype)[None, None].expand(2, 1, seq, seq).contiguous())


def test_gqa_eager_attention_fuses_into_npu_fusion_attention_on_unrepeated_kv():
    # TorchAir npu_fx_pass npu_fusion_attention / MindSpore FlashAttentionFusion, bf16,
    # 4 query heads sharing 2 kv heads: the mask becomes pse, repeat_kv disappears.
    inputs = _attention_inputs(torch.bfloat16, heads=4, kv_heads=2)
    r = _optimize_and_compare(_eager_attention(2), inputs, "torchair/npu-fusion-attention-gqa")
    assert "npu_fusion_attention_v2" in r.fx_text and "pse_type = 0" in r.fx_text
    assert "aten.bmm" not in r.fx_text and "aten.clone" not in r.fx_text


def test_fp32_eager_attention_fuses_without_casts():
    inputs = _attention_inputs(torch.float32, heads=4, kv_heads=4)
    r = _optimize_and_compare(_eager_attention(1), inputs, "torchair/npu-fusion-attention-fp32")
    assert "npu_fusion_attention_v2" in r.fx_text


def _bert_attention(q, k, v, mask):
    # HF BertSelfAttention (eager, eval): the scores divided by sqrt(head_dim), then the
    # additive extended mask, the softmax and the product with v.
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    probs = torch.nn.functional.softmax(scores + mask, dim=-1)
    return torch.matmul(probs, v)


def test_bert_attention_divided_by_a_power_of_two_fuses_exactly():
    # head_dim 64: sqrt(64) = 8 is a power of two, so x / 8 is x * 0.125 bit for bit
    # (layout/div-by-power-of-two-is-mul) and the fp32 attention rule applies.
    inputs = _attention_inputs(torch.float32, heads=4, kv_heads=4, dim=64)
    r = _optimize_and_compare(_bert_attention, inputs, "torchair/npu-fusion-attention-fp32")
    assert "npu_fusion_attention_v2" in r.fx_text and "scale = 0.125" in r.fx_text


def test_attention_divided_by_sqrt_128_fuses_only_when_inexact_rules_are_enabled():
    # TorchAir's own npu_fx_pass patterns divide by sqrt(128): the product by the rounded
    # reciprocal may differ in the last place, so eqfuse fuses only on request.
    inputs = _attention_inputs(torch.float32, heads=2, kv_heads=2, dim=128)
    gm = make_fx(_bert_attention)(*inputs)
    assert "npu_fusion_attention" not in eqfuse.optimize(gm, inputs).fx_text
    r = eqfuse.optimize(gm, inputs, enable_rules=["layout/div-is-mul-by-reciprocal"])
    assert r.stats["fusions"].get("torchair/npu-fusion-attention-fp32", 0) == 1, r.stats
    torch.testing.assert_close(gm(*inputs), r.graph_module(*inputs), rtol=1e-5, atol=1e-6)


def test_add_rms_norm_bias_then_vllm_quantize_is_inexact_and_opt_in():
    # vllm-ascend AddRMSNormQuantFusionPass with vllm.quantize: the fused kernel divides by
    # reciprocal(scale_reciprocal) where the chain multiplies by scale_reciprocal, so an
    # int8 value may move by one step; the rule is labelled inexact and off by default.
    def norm_quant(x, residual, weight, bias, scale, scale_reciprocal, offset):
        y, _, x_out = torch.ops._C_ascend.npu_add_rms_norm_bias(x, residual, weight, bias, 1e-6)
        q = torch.ops.vllm.quantize(y, scale, scale_reciprocal, offset)
        return q, x_out

    g = torch.Generator().manual_seed(6)
    x, residual = (torch.randn(64, 256, generator=g).to(torch.bfloat16) for _ in range(2))
    weight, bias = (torch.randn(256, generator=g).to(torch.bfloat16) for _ in range(2))
    scale = torch.full((256,), 0.03).to(torch.bfloat16)
    scale_reciprocal = torch.full((256,), 1 / 0.03).to(torch.bfloat16)
    offset = torch.zeros(256).to(torch.bfloat16)
    inputs = (x, residual, weight, bias, scale, scale_reciprocal, offset)
    gm = make_fx(norm_quant)(*inputs)
    rule = "vllm/add-rms-norm-bias-quantize"
    assert rule not in eqfuse.optimize(gm, inputs).stats["fusions"]
    r = eqfuse.optimize(gm, inputs, enable_rules=[rule])
    assert r.stats["fusions"].get(rule, 0) == 1, r.stats["fusions"]
    assert "npu_add_rms_norm_quant" in r.fx_text
    (q0, x0), (q1, x1) = gm(*inputs), r.graph_module(*inputs)
    assert torch.equal(x0, x1)
    assert (q0.int() - q1.int()).abs().max() <= 1


def _rms_normed(x, eps):
    h = x.float()
    return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)


def test_gemma_rms_norm_with_one_plus_weight_fuses_as_fp32_npu_rms_norm():
    # transformers' Gemma RMSNorm: the norm in fp32, times (1 + w) in fp32, cast back.
    def gemma_norm(x, w):
        return (_rms_normed(x, 1e-6) * (1.0 + w.float())).type_as(x)

    g = torch.Generator().manual_seed(3)
    inputs = (torch.randn(2, 8, 64, generator=g).to(torch.bfloat16),
              torch.randn(64, generator=g).to(torch.bfloat16))
    r = _optimize_and_compare(gemma_norm, inputs, "torchair/npu-rms-norm-fp32-weight-last")
    assert torch.ops.npu.npu_rms_norm.default in [
        n.target for n in r.graph_module.graph.nodes if n.op == "call_function"]


def test_olmo2_rms_norm_and_rope_with_fp32_tables_fuse():
    # transformers' OLMo2: the bf16 weight times the fp32 normalized value, cast back after;
    # RoPE on the bf16 result with fp32 cos and sin, cast back after the sum.
    def olmo2_norm_rope(x, w, cos, sin):
        q = (w * _rms_normed(x, 1e-5)).to(x.dtype).view(2, 8, 4, 16).transpose(1, 2)
        half = q.shape[-1] // 2
        rotated = torch.cat((-q[..., half:], q[..., :half]), dim=-1)
        return ((q * cos) + (rotated * sin)).to(q.dtype)

    g = torch.Generator().manual_seed(4)
    inputs = (torch.randn(2, 8, 64, generator=g).to(torch.bfloat16),
              torch.randn(64, generator=g).to(torch.bfloat16),
              torch.randn(1, 1, 8, 16, generator=g), torch.randn(1, 1, 8, 16, generator=g))
    gm = make_fx(olmo2_norm_rope)(*inputs)
    r = eqfuse.optimize(gm, inputs)
    assert r.stats["fusions"].get("torchair/npu-rms-norm-fp32") == 1, r.stats["fusions"]
    assert r.stats["fusions"].get("torchair/npu-rotary-mul") == 1, r.stats["fusions"]
    assert r.stats["kernels_after"] < r.stats["kernels_before"]
    assert_same_outputs(gm(*inputs), r.graph_module(*inputs))


def test_frozen_weights_make_the_matmul_split_win():
    # MindSpore inference_matmul_split_fusion on 2048-wide q/k/v projections: concatenating
    # the weights on every call costs more than the two launches the split saves, so the
    # projections stay apart; with the weights frozen (computed once, as under Inductor's
    # freezing) the concatenation is free and the split wins. Small integer values keep
    # every sum exact, so both graphs agree bit for bit whatever order torch sums in.
    def qkv(x, wq, wk, wv):
        return x @ wq.t(), x @ wk.t(), x @ wv.t()

    g = torch.Generator().manual_seed(0)

    def ints(*shape):
        return torch.randint(-2, 3, shape, generator=g).float()

    inputs = (ints(16, 2048), ints(2048, 2048), ints(512, 2048), ints(512, 2048))
    gm = make_fx(qkv)(*inputs)
    plain = eqfuse.optimize(gm, inputs)
    assert "mindspore/matmul-split-3" not in plain.stats["fusions"]
    frozen = eqfuse.optimize(gm, inputs, frozen_inputs=["w?_1"])
    assert frozen.stats["fusions"].get("mindspore/matmul-split-3") == 1, frozen.stats["fusions"]
    assert frozen.stats["cost_after_us"] < frozen.stats["cost_before_us"]
    assert "folded: reads only frozen inputs, computed once" in frozen.fx_text
    assert_same_outputs(gm(*inputs), frozen.graph_module(*inputs))
    with pytest.raises(eqfuse.EqfuseError, match="'weight' matches no graph input"):
        eqfuse.optimize(gm, inputs, frozen_inputs=["weight"])


def test_freeze_parameters_freezes_a_traced_modules_weights():
    # make_fx turns a module's weights into get_attr nodes (_param_constant0, ...);
    # freeze_parameters=True freezes all of them, so the q/k/v split wins as above.
    class Projections(torch.nn.Module):
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(1)
            self.q = torch.nn.Linear(2048, 2048, bias=False)
            self.k = torch.nn.Linear(2048, 512, bias=False)
            self.v = torch.nn.Linear(2048, 512, bias=False)
            for lin in (self.q, self.k, self.v):
                with torch.no_grad():
                    lin.weight.copy_(torch.randint(-2, 3, lin.weight.shape, generator=g))

        def forward(self, x):
            return self.q(x), self.k(x), self.v(x)

    x = torch.randint(-2, 3, (16, 2048), generator=torch.Generator().manual_seed(2)).float()
    gm = make_fx(Projections())(x)
    plain = eqfuse.optimize(gm, (x,))
    assert "mindspore/matmul-split-3" not in plain.stats["fusions"]
    frozen = eqfuse.optimize(gm, (x,), freeze_parameters=True)
    assert frozen.stats["fusions"].get("mindspore/matmul-split-3") == 1, frozen.stats["fusions"]
    assert_same_outputs(gm(x), frozen.graph_module(x))

