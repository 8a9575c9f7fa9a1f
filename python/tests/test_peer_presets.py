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


CASES = [(eps, bias, dtype) for eps in (1e-5, 1e-6) for bias in (True, False)
         for dtype in (torch.bfloat16,)] + [(1e-6, False, torch.float16)]


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


def test_vllm_ascend_preset_inside_torch_compile():
    inputs = _inputs(16, 256, torch.bfloat16, seed=5)
    model = _norm_quant(1e-6, True)
    expected = model(*inputs)
    torch._dynamo.reset()
    be = eqfuse.backend(preset="vllm-ascend")
    actual = torch.compile(model, backend=be)(*inputs)
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
