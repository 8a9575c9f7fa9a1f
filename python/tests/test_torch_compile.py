"""eqfuse inside torch.compile on real Hugging Face architectures (tests/hf_models.py,
random weights, nothing downloaded): ``backend()``, ``backend(inner="inductor")`` and
Inductor's ``post_grad_custom_post_pass = GraphPass()``.  Each compiled model must run,
report at least one fusion on every graph it optimized, never cost more than its input,
and match the uncompiled model.

Exactness: with ``inner=None`` the optimized aten graph runs eagerly and the fused NPU
ops run eqfuse.testing.npu_reference (the unfused chain, same rounding), so the output
must equal eager PyTorch bit for bit.  Inductor generates its own kernels (fused loops,
reassociated reductions), so runs through it are compared with Inductor without eqfuse
within a tolerance (TOLERANCE below, per dtype).  The full matrix (every architecture,
dtype, attention and shape mode, with Inductor) is bench/torch_compile_matrix.py."""
import pytest
import torch

import eqfuse
import eqfuse.testing.npu_reference  # noqa: F401  (CPU kernels of the fused NPU ops)
import hf_models

ARCHS = list(hf_models.ARCHS)
# Inductor vs Inductor+eqfuse: the same math, different kernel boundaries.
TOLERANCE = {torch.float32: dict(rtol=1e-4, atol=1e-4), torch.bfloat16: dict(rtol=2e-2, atol=2e-2)}


def _call(model, ids):
    if isinstance(model, torch.nn.Module) and "Bert" in type(model).__name__:
        return hf_models.output_of(model(ids))
    kwargs = {} if "Bert" in type(getattr(model, "_orig_mod", model)).__name__ else {"use_cache": False}
    return hf_models.output_of(model(ids, **kwargs))


def _compile_and_run(model, ids, backend, dynamic=False):
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=backend, dynamic=dynamic)
    with torch.no_grad():
        return _call(compiled, ids)


def _check_report(be):
    report = be.report()
    assert report.graphs >= 1 and report.fell_back == 0, str(report)
    assert report.fusions, f"no fusion in any graph:\n{report}"
    for r in report.results:
        assert r.stats["cost_after_us"] <= r.stats["cost_before_us"] + 1e-9
    return report


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
@pytest.mark.parametrize("arch", ARCHS)
def test_backend_matches_eager_exactly(arch, dtype):
    model = hf_models.build(arch, dtype)
    ids = hf_models.inputs()
    with torch.no_grad():
        ref = _call(model, ids)
    be = eqfuse.backend()
    out = _compile_and_run(model, ids, be)
    _check_report(be)
    assert out.dtype == ref.dtype and out.shape == ref.shape
    assert torch.equal(out, ref), (out - ref).abs().max()
