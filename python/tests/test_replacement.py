"""eqfuse.register_replacement: TorchAir's documented custom-pass example, run
as written (only the imports and the example device differ), its extra_check
deciding per graph; registries; bad input."""
import functools

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
from eqfuse import Match  # TorchAir: from torch._inductor.pattern_matcher import Match
from npu_standins import torch_npu  # TorchAir: import torch_npu


# ---- TorchAir's example, unchanged but for the imports and device="cpu" ----------------

def search_fn(x1, x2, gamma):
    xOut = torch.add(x1, x2)
    y, _ = torch_npu.npu_rms_norm(xOut, gamma)
    return y, xOut


def replace_fn(x1, x2, gamma):
    y, _, xOut = torch_npu.npu_add_rms_norm(
        x1, x2, gamma
    )
    return y, xOut


def extra_check(match: Match):
    x1 = match.kwargs.get("x1")

    if x1 is None:
        return False
    if not hasattr(x1, "meta") or "val" not in x1.meta:
        return False

    a_shape = x1.meta["val"].shape
    return a_shape[-1] == 7168


def register_example(registry):
    fake_mode = FakeTensorMode()
    with fake_mode:
        input_tensor = functools.partial(torch.empty, (1, 1, 2), device="cpu", dtype=torch.float16)
        kwargs_tensor = functools.partial(torch.empty, 2, device="cpu", dtype=torch.float16)
        return eqfuse.register_replacement(
            search_fn=search_fn,
            replace_fn=replace_fn,
            example_inputs=(input_tensor(), input_tensor(), kwargs_tensor()),
            extra_check=extra_check,
            registry=registry,
        )

# ------------------------------------------------------------------------------------------


def model(x1, x2, gamma):
    h = torch.add(x1, x2)
    y, _ = torch.ops.npu.npu_rms_norm(h, gamma)
    return y * 2, h


def traced(hidden):
    g = torch.Generator().manual_seed(hidden)
    args = (torch.randn(2, 3, hidden, generator=g).half(),
            torch.randn(2, 3, hidden, generator=g).half(),
            torch.rand(hidden, generator=g).half())
    return make_fx(model)(*args), args


# The built-in rule for the same fusion is switched off, so only the user's can fire.
BUILTIN = ["mindspore/add-rms-norm"]


def test_torchair_example_fuses_where_its_extra_check_agrees():
    registry = eqfuse.ReplacementRegistry()
    r = register_example(registry)
    assert r.name == "user/search-fn" and r.name in registry
    assert "rule user/search-fn =>" in r.rule_text

    gm, args = traced(7168)
    result = eqfuse.optimize(gm, disable_rules=BUILTIN, replacements=registry)
    assert result.fusions == {"user/search-fn": 1}
    targets = [n.target for n in result.graph_module.graph.nodes if n.op == "call_function"]
    assert torch.ops.npu.npu_add_rms_norm.default in targets
    assert torch.ops.npu.npu_rms_norm.default not in targets
    for a, b in zip(gm(*args), result.graph_module(*args)):
        assert torch.equal(a, b)


def test_extra_check_refusal_keeps_the_graph_and_is_explained():
    registry = eqfuse.ReplacementRegistry()
    register_example(registry)
    gm, args = traced(64)
    result = eqfuse.optimize(gm, disable_rules=BUILTIN, replacements=registry)
    assert result.fusions == {}
    targets = [n.target for n in result.graph_module.graph.nodes if n.op == "call_function"]
    assert torch.ops.npu.npu_rms_norm.default in targets
    assert "extra_check" in result.explain()
    for a, b in zip(gm(*args), result.graph_module(*args)):
        assert torch.equal(a, b)


def test_registries_are_separate_and_the_default_one_is_used_by_default():
    gm, _ = traced(7168)
    assert eqfuse.optimize(gm, disable_rules=BUILTIN, replacements=()).fusions == {}
    try:
        register_example(None)  # the process-wide registry, as TorchAir's
        assert "user/search-fn" in eqfuse.default_registry
        assert eqfuse.optimize(gm, disable_rules=BUILTIN).fusions == {"user/search-fn": 1}
        with pytest.raises(eqfuse.EqfuseError, match="already registered"):
            register_example(None)
    finally:
        eqfuse.default_registry.clear()


def test_extra_check_exceptions_and_bad_registrations_are_clear_errors():
    registry = eqfuse.ReplacementRegistry()

    def failing(match):
        raise ValueError("boom")

    x = torch.randn(1, 1, 2).half()
    g = torch.rand(2).half()
    eqfuse.register_replacement(search_fn, replace_fn, (x, x, g), extra_check=failing,
                                name="user/failing", registry=registry)
    gm, _ = traced(64)
    with pytest.raises(eqfuse.EqfuseError, match="rule 'user/failing': extra_check raised"):
        eqfuse.optimize(gm, disable_rules=BUILTIN, replacements=registry)

    def broken(x1, x2, gamma):
        raise RuntimeError("cannot trace this")

    with pytest.raises(eqfuse.EqfuseError, match="search_fn could not be traced.*cannot trace"):
        eqfuse.register_replacement(broken, replace_fn, (x, x, g), registry=registry)
    with pytest.raises(eqfuse.EqfuseError, match="takes 3 positional parameters but "
                                                 "example_inputs has 2"):
        eqfuse.register_replacement(search_fn, replace_fn, (x, x), registry=registry)
    with pytest.raises(eqfuse.EqfuseError, match="search_fn_pattern must be a GraphModule"):
        eqfuse.register_replacement(search_fn, replace_fn, (x, x, g), search_fn_pattern=object(),
                                    registry=registry)


def test_graph_pass_rewrites_the_graph_in_place():
    gm, args = traced(7168)
    expected = gm(*args)
    registry = eqfuse.ReplacementRegistry()
    register_example(registry)
    p = eqfuse.GraphPass(disable_rules=BUILTIN, replacements=registry)
    p(gm.graph)
    gm.recompile()
    assert p.last_result.fusions == {"user/search-fn": 1}
    targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    assert torch.ops.npu.npu_add_rms_norm.default in targets
    for a, b in zip(expected, gm(*args)):
        assert torch.equal(a, b)
    assert len(p.uuid()) == 64 and p.uuid() == eqfuse.GraphPass(
        disable_rules=BUILTIN, replacements=registry).uuid()


@pytest.mark.skipif(not hasattr(torch, "compile"),
                    reason=f"torch.compile needs torch >= 2.0 (this is {torch.__version__})")
def test_backend_runs_the_optimized_graph_under_torch_compile():
    from models import LlamaBlock, llama_inputs
    block = LlamaBlock()
    be = eqfuse.backend()
    compiled = torch.compile(block, backend=be)
    args = llama_inputs()
    for a, b in zip(block(*args), compiled(*args)):
        assert torch.equal(a, b)
    assert be.last_result is not None and be.last_result.fusions


@pytest.mark.skipif(hasattr(torch, "compile"), reason="checks the message on torch 1.x")
def test_backend_explains_that_torch_compile_is_missing():
    with pytest.raises(eqfuse.EqfuseError, match="needs torch >= 2.0"):
        eqfuse.backend()


# ---- the load-time soundness check (docs/rules.md "User rules are proven at load") -----

def add_twice(x, y):
    return x + y + y


def times(x, y):
    return x * y


def test_an_unsound_replacement_is_refused_with_its_counterexample():
    mine = eqfuse.ReplacementRegistry()
    x = torch.randn(4, 8)
    with pytest.raises(eqfuse.EqfuseError) as e:
        eqfuse.register_replacement(add_twice, times, (x, x), registry=mine)
    text = str(e.value)
    assert "replace_fn 'times' does not compute what search_fn 'add_twice' computes" in text
    assert "rule 'user/add-twice' is unsound (check=False skips this check)" in text
    # The first difference (output, index, both values), both outputs and the inputs.
    assert "output 0 at [" in text and ": search " in text and ", replace " in text
    assert "search: f32[4, 8] [" in text and "replace: f32[4, 8] [" in text
    assert "inputs: x = f32[4, 8] [" in text and "; y = f32[4, 8] [" in text
    assert len(mine) == 0
    # check=False registers it unchecked, and explain says so.
    rule = eqfuse.register_replacement(add_twice, times, (x, x), registry=mine, check=False)
    assert "    trust: true\n" in rule.rule_text
    r = eqfuse.optimize(make_fx(add_twice)(x, x), replacements=mine)
    assert "user rules:\n  user/add-twice: trusted, not checked at load\n" in r.explain()


def test_a_sound_replacement_that_reorders_float_math_is_proven():
    mine = eqfuse.ReplacementRegistry()

    def left(x, y, z):
        return (x + y) + z

    def right(x, y, z):
        return x + (y + z)

    x = torch.randn(4, 8)
    eqfuse.register_replacement(left, right, (x, x, x), registry=mine)
    r = eqfuse.optimize(make_fx(left)(x, x, x), replacements=mine)
    assert "user/left: proven at load on random inputs" in r.explain()


def test_a_replacement_the_interpreter_cannot_run_is_registered_with_a_warning():
    lib = torch.library.Library("eqfuse_check_test", "DEF")
    lib.define("add_relu(Tensor a, Tensor b) -> Tensor")
    lib.impl("add_relu", lambda a, b: torch.relu(a + b), "CompositeExplicitAutograd")
    torch.library.register_fake("eqfuse_check_test::add_relu", lambda a, b: torch.empty_like(a),
                                lib=lib)

    def add_relu(a, b):
        return torch.relu(a + b)

    def fused(a, b):
        return torch.ops.eqfuse_check_test.add_relu(a, b)

    mine = eqfuse.ReplacementRegistry()
    x = torch.randn(4, 8)
    with pytest.warns(UserWarning, match="rule 'user/add-relu' not checked: op "
                                         "eqfuse_check_test::add_relu has no reference kernel"):
        eqfuse.register_replacement(add_relu, fused, (x, x), registry=mine)
    assert len(mine) == 1
