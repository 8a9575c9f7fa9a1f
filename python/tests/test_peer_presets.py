"""Peer presets (issue 35): the models vllm-ascend's own AddRMSNormQuant pass tests build
(residual add + RMS norm with and without a norm bias, then ``vllm.quantize`` of a w8a8
static layer; two epsilons), traced by make_fx with real and with symbolic sizes and by
torch.compile.  Under ``preset="vllm-ascend"`` eqfuse fuses every site as vllm-ascend
does, handing ``npu_add_rms_norm_quant`` the scale and stating the assumption
``scale_reciprocal == reciprocal(scale)``; with the weights holding it (as vllm-ascend's
loader makes them), the optimized GraphModule gives the same float outputs bit for bit and
int8 values within the one quantization step vllm-ascend's own kernel moves them by.
Without the preset the rule stays off: eqfuse never assumes on its own."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
import models
import npu_standins  # noqa: F401  (torch.ops.npu / vllm / _C_ascend stand-ins)

RULE = "vllm/add-rms-norm-bias-quantize-scale"


def _norm_quant(eps, with_bias):
    def model(x, residual, weight, bias, scale, scale_reciprocal, offset):
        y, _, x_out = torch.ops._C_ascend.npu_add_rms_norm_bias(
            x, residual, weight, bias if with_bias else None, eps)
        q = torch.ops.vllm.quantize(y, scale, scale_reciprocal, offset)
        return q, x_out
    return model


def _inputs(tokens, hidden, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    x, residual = (torch.randn(tokens, hidden, generator=g).to(dtype) for _ in range(2))
    weight, bias = (torch.randn(hidden, generator=g).to(dtype) for _ in range(2))
    scale = (torch.rand(hidden, generator=g) * 0.05 + 0.01).to(dtype)
    # The layer's weights hold the assumption: the reciprocal is computed from the scale.
    scale_reciprocal = torch.reciprocal(scale)
    offset = torch.randint(-4, 5, (hidden,), generator=g).to(dtype)
    return (x, residual, weight, bias, scale, scale_reciprocal, offset)


def _assert_peer_equal(expected, actual):
    (q0, x0), (q1, x1) = expected, actual
    assert torch.equal(x0, x1)
    assert q0.dtype == q1.dtype == torch.int8 and q0.shape == q1.shape
    assert (q0.int() - q1.int()).abs().max().item() <= 1


def _assert_equal_but_int8_step(expected, actual):
    """Float outputs bit-identical; int8 within one step (the fused norm-quant kernels
    quantize y before rounding it to the activation dtype)."""
    expected = expected if isinstance(expected, tuple) else (expected,)
    actual = actual if isinstance(actual, tuple) else (actual,)
    assert len(expected) == len(actual)
    for a, b in zip(expected, actual):
        tol = 1 if a.dtype == torch.int8 else 0
        assert a.dtype == b.dtype and a.shape == b.shape
        assert (a.float() - b.float()).abs().max().item() <= tol


CASES = [(eps, bias, dtype) for eps in (1e-5, 1e-6) for bias in (True, False)
         for dtype in (torch.bfloat16,)] + [(1e-6, False, torch.float16)]


def _plain_norm_quant(eps):
    # vllm-ascend's pattern before PR #6726, and its graphs without the custom ops:
    # torch_npu's npu_add_rms_norm (no bias) feeding vllm.quantize.
    def model(x, residual, weight, bias, scale, scale_reciprocal, offset):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm(x, residual, weight, eps)
        q = torch.ops.vllm.quantize(y, scale, scale_reciprocal, offset)
        return q, x_out
    return model


@pytest.mark.parametrize("tracing_mode", ["real", "symbolic"])
@pytest.mark.parametrize("eps", [1e-5, 1e-6])
def test_vllm_ascend_preset_fuses_the_torch_npu_norm_form(eps, tracing_mode):
    inputs = _inputs(16, 256, torch.bfloat16, seed=7)
    gm = make_fx(_plain_norm_quant(eps), tracing_mode=tracing_mode)(*inputs)
    r = eqfuse.optimize(gm, inputs, preset="vllm-ascend")
    assert r.stats["fusions"] == {"vllm/add-rms-norm-quantize-scale": 1}, r.stats["fusions"]
    assert len(r.stats["assumptions"]) == 1
    _assert_peer_equal(gm(*inputs), r.graph_module(*inputs))


@pytest.mark.parametrize("tracing_mode", ["real", "symbolic"])
@pytest.mark.parametrize("eps,with_bias,dtype", CASES)
def test_vllm_ascend_preset_fuses_every_norm_quant_site(eps, with_bias, dtype, tracing_mode):
    inputs = _inputs(16, 256, dtype, seed=3)
    gm = make_fx(_norm_quant(eps, with_bias), tracing_mode=tracing_mode)(*inputs)
    r = eqfuse.optimize(gm, inputs, preset="vllm-ascend")
    assert r.stats["fusions"] == {RULE: 1}, r.stats["fusions"]
    assert r.stats["kernels_after"] == 1
    names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    assert r.stats["assumptions"] == [
        {"rule": RULE, "assumption": f"{names[5]} == reciprocal({names[4]})"}]
    _assert_peer_equal(gm(*inputs), r.graph_module(*inputs))
    # eqfuse's default never makes the assumption.
    assert RULE not in eqfuse.optimize(gm, inputs).stats["fusions"]


def test_vllm_ascend_config_switch_accepts_the_assumption_too():
    inputs = _inputs(8, 128, torch.bfloat16, seed=4)
    gm = make_fx(_norm_quant(1e-6, True))(*inputs)
    config = {"additional_config": {"ascend_compilation_config": {"fuse_norm_quant": True}}}
    r = eqfuse.optimize(gm, inputs, config=config)
    assert r.stats["fusions"].get(RULE) == 1
    off = {"additional_config": {"ascend_compilation_config": {"fuse_norm_quant": False}}}
    assert not eqfuse.optimize(gm, inputs, config=off, preset="vllm-ascend").stats["fusions"]


@pytest.mark.parametrize("dynamic", [False, True])
def test_vllm_ascend_preset_inside_torch_compile(dynamic):
    # dynamic=True: the token count is a SymInt with its size ops in the graph (TorchAir
    # f2f29ebf, vllm-ascend #5253: patterns stopped matching under dynamic shapes).
    inputs = _inputs(16, 256, torch.bfloat16, seed=5)
    model = _norm_quant(1e-6, True)
    expected = model(*inputs)
    torch._dynamo.reset()
    be = eqfuse.backend(preset="vllm-ascend")
    actual = torch.compile(model, backend=be, dynamic=dynamic)(*inputs)
    report = be.report()
    assert report.fell_back == 0, str(report)
    assert report.fusions.get(RULE) == 1, str(report)
    _assert_peer_equal(expected, actual)


def test_presets_select_the_peer_pass_set():
    # A MindSpore fusion is not a pass of vllm-ascend: off under its preset, on by default.
    def add_rms_norm(x, residual, weight):
        h = x + residual
        y = torch.ops.npu.npu_rms_norm(h, weight, 1e-6)[0]
        return y, h
    g = torch.Generator().manual_seed(6)
    inputs = (torch.randn(16, 256, generator=g).to(torch.bfloat16),
              torch.randn(16, 256, generator=g).to(torch.bfloat16),
              torch.randn(256, generator=g).to(torch.bfloat16))
    gm = make_fx(add_rms_norm)(*inputs)
    assert "mindspore/add-rms-norm" in eqfuse.optimize(gm, inputs).stats["fusions"]
    assert not eqfuse.optimize(gm, inputs, preset="vllm-ascend").stats["fusions"]
    with pytest.raises(eqfuse.EqfuseError, match="unknown preset 'vllm_ascend'.*vllm-ascend"):
        eqfuse.optimize(gm, inputs, preset="vllm_ascend")


# npugraph_ex's own pattern tests (its patterns/: AddRmsNorm+DynamicQuant, AddRmsNormCast,
# TransposeBatchMatmul, AddRmsNormQuant), written here as models: each fuses under
# preset="npugraph_ex"; under "torchair-ge" (GE mode) the two patterns TorchAir skips in
# GE, bmm+transpose and add_rms_norm+quantize, stay unfused, as they do there.
def _bf16(g, *shape):
    return torch.randn(*shape, generator=g).to(torch.bfloat16)


def _add_rms_norm_dynamic_quant():
    def model(x1, x2, gamma):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm(x1, x2, gamma, 1e-6)
        q, scale = torch.ops.npu.npu_dynamic_quant(y)
        return q, scale, x_out
    g = torch.Generator().manual_seed(10)
    return model, (_bf16(g, 16, 256), _bf16(g, 16, 256), _bf16(g, 256))


def _add_rms_norm_cast():
    def model(x1, x2, gamma):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm(x1, x2, gamma, 1e-6)
        return y.to(torch.float32), y, x_out
    g = torch.Generator().manual_seed(11)
    return model, (_bf16(g, 16, 256), _bf16(g, 16, 256), _bf16(g, 256))


def _bmm_transpose():
    def model(x1, x2):
        return torch.matmul(x1, x2).transpose(1, 0)
    g = torch.Generator().manual_seed(12)
    return model, (torch.randn(4, 2, 128, generator=g).half(),
                   torch.randn(4, 128, 256, generator=g).half())


def _add_rms_norm_quantize():
    def model(x1, x2, gamma, scales, zero_points):
        y, _, x_out = torch.ops.npu.npu_add_rms_norm(x1, x2, gamma, 1e-6)
        return torch.ops.npu.npu_quantize(y, scales, zero_points, torch.qint8, -1), x_out
    g = torch.Generator().manual_seed(13)
    scales = (torch.rand(256, generator=g) + 0.5).to(torch.bfloat16)
    zero_points = torch.randint(-3, 4, (256,), generator=g).to(torch.bfloat16)
    return model, (_bf16(g, 16, 256), _bf16(g, 16, 256), _bf16(g, 256), scales, zero_points)


NPUGRAPH_EX_MODELS = {
    "torchair/add-rms-norm-dynamic-quant": (_add_rms_norm_dynamic_quant, True),
    "torchair/add-rms-norm-cast": (_add_rms_norm_cast, True),
    "torchair/bmm-transpose": (_bmm_transpose, False),
    "torchair/add-rms-norm-quant": (_add_rms_norm_quantize, False),
}


@pytest.mark.parametrize("rule", sorted(NPUGRAPH_EX_MODELS))
def test_npugraph_ex_and_torchair_ge_presets_fuse_as_the_peer(rule):
    build, in_ge = NPUGRAPH_EX_MODELS[rule]
    model, inputs = build()
    gm = make_fx(model)(*inputs)
    ex = eqfuse.optimize(gm, inputs, preset="npugraph_ex")
    assert ex.stats["fusions"] == {rule: 1}, ex.stats["fusions"]
    ge = eqfuse.optimize(gm, inputs, preset="torchair-ge")
    assert ge.stats["mode"] == "max-autotune"
    assert ge.stats["fusions"] == ({rule: 1} if in_ge else {}), ge.stats["fusions"]
    for r in (ex, ge):
        _assert_equal_but_int8_step(gm(*inputs), r.graph_module(*inputs))


# vllm-ascend's other default passes (QKNormRope, MulsAdd) and vLLM's (RMSNormQuant,
# ActivationQuant: their NPU kernels) under their presets, outputs bit-identical.
def _qknorm_rope():
    return models.qknorm_rope_prologue()


def _muls_add():
    def model(x, y):
        return x * 2.5 + y
    g = torch.Generator().manual_seed(21)
    return model, (_bf16(g, 16, 256), _bf16(g, 16, 256))


def _swiglu_dynamic_quant():
    def model(x):
        q, scale = torch.ops.npu.npu_dynamic_quant(torch.ops.npu.npu_swiglu(x, -1))
        return q, scale
    g = torch.Generator().manual_seed(22)
    return model, (_bf16(g, 16, 512),)


PEER_MODELS = [
    ("vllm-ascend", "vllm/qknorm-rope", _qknorm_rope),
    ("vllm-ascend", "vllm/muls-add", _muls_add),
    ("vllm-ascend", "torchair/add-rms-norm-dynamic-quant", _add_rms_norm_dynamic_quant),
    ("vllm", "npu/swiglu-dynamic-quant", _swiglu_dynamic_quant),
    ("vllm", "torchair/add-rms-norm-dynamic-quant", _add_rms_norm_dynamic_quant),
]


@pytest.mark.parametrize("preset,rule,build", PEER_MODELS,
                         ids=[f"{p}-{r}" for p, r, _ in PEER_MODELS])
def test_vllm_presets_fuse_their_passes(preset, rule, build):
    model, inputs = build()
    gm = make_fx(model)(*inputs)
    r = eqfuse.optimize(gm, inputs, preset=preset)
    assert r.stats["fusions"] == {rule: 1}, r.stats["fusions"]
    _assert_equal_but_int8_step(gm(*inputs), r.graph_module(*inputs))


def test_vllm_preset_leaves_vllm_ascend_only_passes_off():
    # vLLM upstream has no muls_add pass: its preset leaves the chain alone.
    model, inputs = _muls_add()
    gm = make_fx(model)(*inputs)
    assert eqfuse.optimize(gm, inputs, preset="vllm-ascend").stats["fusions"]
    assert not eqfuse.optimize(gm, inputs, preset="vllm").stats["fusions"]
