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


def _assert_backend_exact(model):
    """Through eqfuse.backend(): fusions on every graph, never costlier, logits equal to
    eager bit for bit."""
    ids = hf_models.inputs()
    with torch.no_grad():
        ref = _call(model, ids)
    be = eqfuse.backend()
    out = _compile_and_run(model, ids, be)
    _check_report(be)
    assert out.dtype == ref.dtype and out.shape == ref.shape
    assert torch.equal(out, ref), (out - ref).abs().max()


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["fp32", "bf16"])
@pytest.mark.parametrize("arch", ARCHS)
def test_backend_matches_eager_exactly(arch, dtype):
    _assert_backend_exact(hf_models.build(arch, dtype))


@pytest.mark.parametrize("arch", ["llama", "qwen3_moe", "gpt2", "bert"])
def test_sdpa_attention_backend_matches_eager_exactly(arch):
    _assert_backend_exact(hf_models.build(arch, torch.float32, attn="sdpa"))


@pytest.mark.parametrize("arch,dtype", [("llama", torch.float32), ("mixtral", torch.bfloat16),
                                        ("deepseek_v3", torch.float32)])
def test_dynamic_shapes_backend_matches_eager_at_every_length(arch, dtype):
    """dynamic=True: one graph with symbolic batch/sequence sizes serves every length."""
    model = hf_models.build(arch, dtype)
    be = eqfuse.backend()
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=be, dynamic=True)
    for seq in (8, 11):
        ids = hf_models.inputs(seq=seq, seed=seq)
        with torch.no_grad():
            ref = _call(model, ids)
            out = _call(compiled, ids)
        assert torch.equal(out, ref), (seq, (out - ref).abs().max())
    report = _check_report(be)
    assert any("s" in str(p.meta.get("val", "")) for r in report.results
               for p in r.graph_module.graph.nodes if p.op == "placeholder"), \
        "the optimized graphs are not symbolic"


# OLMo2: reinplaced graphs once broke Inductor's scheduler (KeyError 'op10').
INDUCTOR_CASES = [("llama", torch.float32), ("qwen2", torch.bfloat16), ("olmo2", torch.float32)]


def _assert_functional(results):
    """The graphs eqfuse hands to Inductor mutate nothing: Inductor reuses buffers
    itself, so the reinplace passes stay off for it."""
    for r in results:
        for n in r.graph_module.graph.nodes:
            if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
                assert not n.target._schema.is_mutable, f"{n.name} ({n.target}) mutates"


@pytest.fixture
def no_inductor_cache():
    import torch._inductor.config as cfg
    with cfg.patch(fx_graph_cache=False, fx_graph_remote_cache=False,
                   autotune_local_cache=False):
        yield


# Inductor's caches stay on here: Inductor alone compiles (and caches) the same
# Dynamo graph first, and eqfuse must still be called, not bypassed by a cache hit.
@pytest.mark.parametrize("arch,dtype", INDUCTOR_CASES)
def test_inner_inductor_matches_inductor_alone(arch, dtype):
    model = hf_models.build(arch, dtype)
    ids = hf_models.inputs()
    ref = _compile_and_run(model, ids, "inductor")
    be = eqfuse.backend(inner="inductor")
    out = _compile_and_run(model, ids, be)
    _assert_functional(_check_report(be).results)
    torch.testing.assert_close(out, ref, **TOLERANCE[dtype])


@pytest.mark.parametrize("arch,dtype", INDUCTOR_CASES[:1])
def test_graph_pass_as_inductor_post_grad_pass(arch, dtype, no_inductor_cache):
    import torch._inductor.config as cfg
    model = hf_models.build(arch, dtype)
    ids = hf_models.inputs()
    ref = _compile_and_run(model, ids, "inductor")
    graph_pass = eqfuse.GraphPass()
    with cfg.patch(post_grad_custom_post_pass=graph_pass):
        out = _compile_and_run(model, ids, "inductor")
    report = _check_report(graph_pass)
    _assert_functional(report.results)
    assert report.results[0].stats["frozen_inputs"], "parameters were not frozen"
    torch.testing.assert_close(out, ref, **TOLERANCE[dtype])


def test_weights_are_frozen_by_default_and_explained():
    model = hf_models.build("llama")
    ids = hf_models.inputs()
    frozen, unfrozen = eqfuse.backend(), eqfuse.backend(freeze_parameters=False)
    _compile_and_run(model, ids, frozen)
    _compile_and_run(model, ids, unfrozen)
    names = frozen.last_result.stats["frozen_inputs"]
    n_params = sum(1 for _ in model.parameters()) + sum(1 for _ in model.buffers())
    assert len(names) >= n_params - 1  # tied or unused weights may not reach the graph
    assert unfrozen.last_result.stats["frozen_inputs"] == []
    assert "frozen inputs (priced once, not per call): " + names[0] in frozen.last_result.explain()


def test_graph_breaks_every_graph_is_optimized_and_reported():
    model = hf_models.build("qwen2")

    def run(ids):
        h = model.model.embed_tokens(ids)
        torch._dynamo.graph_break()
        return model(inputs_embeds=h, use_cache=False).logits

    be = eqfuse.backend()
    torch._dynamo.reset()
    ids = hf_models.inputs()
    with torch.no_grad():
        ref = run(ids)
        out = torch.compile(run, backend=be)(ids)
    report = _check_report(be)
    assert report.graphs >= 2
    assert "graph 1:" in str(report)
    assert torch.equal(out, ref)


def test_fallback_is_opt_in():
    model = hf_models.build("llama")
    ids = hf_models.inputs()
    strict = eqfuse.backend(mode="no-such-mode")
    with pytest.raises(Exception, match="no-such-mode"):
        _compile_and_run(model, ids, strict)
    lenient = eqfuse.backend(mode="no-such-mode", fallback=True)
    with pytest.warns(RuntimeWarning, match="running it unoptimized"):
        out = _compile_and_run(model, ids, lenient)
    with torch.no_grad():
        assert torch.equal(out, _call(model, ids))
    assert lenient.report().fell_back == lenient.report().graphs >= 1
