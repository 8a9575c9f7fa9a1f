"""eqfuse.optimize on real make_fx graphs: the expected fusions by rule,
the input GraphModule untouched, and the optimized module computing
bit-identical outputs in PyTorch (npu ops: tests/npu_standins.py)."""
import operator

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
import models
from checks import assert_same_outputs as _assert_same_outputs


def _snapshot(gm):
    return gm.code, [(n.name, n.op, n.target, dict(n.meta)) for n in gm.graph.nodes]


def _targets(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


def test_llama_block_fuses_add_rms_norm_with_dynamic_quant_and_cast():
    gm = models.trace_llama()
    before = _snapshot(gm)
    inputs = models.llama_inputs()
    expected = gm(*inputs)

    r = eqfuse.optimize(gm)

    assert _snapshot(gm) == before  # the input is untouched
    assert r.stats["fusions"] == {"torchair/add-rms-norm-dynamic-quant": 1,
                                  "torchair/add-rms-norm-cast": 1}
    assert r.stats["kernels_after"] < r.stats["kernels_before"]
    out = r.graph_module
    assert out is not gm
    targets = _targets(out)
    assert targets.count(torch.ops.npu.npu_add_rms_norm_dynamic_quant.default) == 1
    assert targets.count(torch.ops.npu.npu_add_rms_norm_cast.default) == 1
    assert torch.ops.npu.npu_add_rms_norm.default not in targets
    # get_attr constants are the original module's tensors, not copies
    assert out._tensor_constant1 is gm._tensor_constant1
    _assert_same_outputs(expected, out(*inputs))
    other = models.llama_inputs(seed=7)
    _assert_same_outputs(gm(*other), out(*other))
    assert "npu_add_rms_norm_dynamic_quant" in r.fx_text
    assert r.summary.startswith("eqfuse: reduce-overhead on ascend910b2")
    assert {"convert_s", "optimize_s", "rebuild_s"} <= set(r.timings)


def test_bmm_transpose_becomes_transpose_batchmatmul():
    gm = models.trace_bmm()
    code = gm.code
    a, b = models.bmm_inputs()
    r = eqfuse.optimize(gm)
    assert gm.code == code
    assert r.stats["fusions"] == {"torchair/bmm-transpose": 1}
    assert _targets(r.graph_module) == [torch.ops.npu.npu_transpose_batchmatmul.default]
    _assert_same_outputs(gm(a, b), r.graph_module(a, b))


def test_max_autotune_mode_excludes_bmm_transpose():
    r = eqfuse.optimize(models.trace_bmm(), mode="max-autotune")
    assert r.stats["fusions"] == {}
    assert r.stats["mode"] == "max-autotune"
    assert _targets(r.graph_module) == [torch.ops.aten.bmm.default, torch.ops.aten.transpose.int]


def test_memory_limit_stops_saturation_and_the_graph_stays_right():
    gm = models.trace_bmm()
    a, b = models.bmm_inputs()
    r = eqfuse.optimize(gm, memory_limit="1M")  # far below what the process holds
    assert r.stats["stop_reason"] == "MemoryLimit"
    assert any("memory limit reached" in n for n in r.stats["notes"]), r.stats["notes"]
    assert r.stats["cost_after_us"] <= r.stats["cost_before_us"]
    _assert_same_outputs(gm(a, b), r.graph_module(a, b))
    by_config = eqfuse.optimize(gm, config={"memory_limit": 1 << 20})
    assert by_config.stats["stop_reason"] == "MemoryLimit"
    assert eqfuse.optimize(gm, memory_limit=0).stats["stop_reason"] != "MemoryLimit"
    with pytest.raises(eqfuse.EqfuseError, match="memory_limit: expected a size"):
        eqfuse.optimize(gm, memory_limit="8X")


def test_disable_rule_and_config_dict():
    gm = models.trace_llama()
    r = eqfuse.optimize(gm, disable_rules=["torchair/add-rms-norm-cast"])
    assert "torchair/add-rms-norm-cast" not in r.stats["fusions"]
    r = eqfuse.optimize(gm, mode=None, config={"mode": "eager", "disable_rules": ["fusion"]})
    assert r.stats["mode"] == "eager" and r.stats["fusions"] == {}


_DOUBLE_NEG_RULE = """rule user/double-neg =>
    labels: user
    description: neg(neg(a)) is a

    def search(a: "f32[4, 8]"):
        neg = torch.ops.aten.neg.default(a)
        neg_1 = torch.ops.aten.neg.default(neg)
        return (neg_1,)

    def replace(a):
        return (a,)
"""


def test_config_reads_rules_files_and_vllm_ascend_switches_as_the_cli_does(tmp_path):
    # A config's "rules" (relative to the config file), vllm-ascend's additional_config
    # section and an unsound rule refused at load: the same reader as `--config`.
    (tmp_path / "mine.rules").write_text(_DOUBLE_NEG_RULE)
    gm = make_fx(lambda a: torch.neg(torch.neg(a)) + 1)(torch.randn(4, 8))
    assert eqfuse.optimize(gm).stats["kernels_after"] == 3

    def applied(r):  # the two negations gone, by the user's rule
        rule = [x for x in r.stats["rules"] if x["rule"] == "user/double-neg"]
        return (r.stats["kernels_after"], rule[0]["applications"] if rule else 0)

    config = tmp_path / "config.json"
    config.write_text('{"rules": "mine.rules"}')
    r = eqfuse.optimize(gm, config=str(config))
    assert applied(r) == (1, 1)
    assert _targets(r.graph_module) == [torch.ops.aten.add.Tensor]
    x = torch.randn(4, 8)
    _assert_same_outputs(gm(x), r.graph_module(x))
    # A dict config names files relative to the working directory.
    r = eqfuse.optimize(gm, config={"rules": [str(tmp_path / "mine.rules")]})
    assert applied(r) == (1, 1)
    (tmp_path / "bad.rules").write_text(_DOUBLE_NEG_RULE.replace("return (a,)", "return (neg,)")
                                        .replace("def replace(a):", "def replace(a):\n"
                                                 "        neg = torch.ops.aten.neg.default(a)"))
    with pytest.raises(eqfuse.EqfuseError, match="rule 'user/double-neg' is unsound"):
        eqfuse.optimize(gm, config={"rules": str(tmp_path / "bad.rules")})
    with pytest.raises(eqfuse.EqfuseError, match="cannot"):
        eqfuse.optimize(gm, config={"rules": str(tmp_path / "absent.rules")})
    # vllm-ascend's switch turns its rules off (it was an unknown key before).
    llama = models.trace_llama()
    on = eqfuse.optimize(llama, config={"additional_config": {
        "ascend_compilation_config": {"fuse_norm_quant": True}}})
    off = eqfuse.optimize(llama, config={"additional_config": {
        "ascend_compilation_config": {"fuse_norm_quant": False}}})
    fused = set(on.stats["fusions"]) - set(off.stats["fusions"])
    assert fused, (on.stats["fusions"], off.stats["fusions"])


def test_graph_without_meta_is_typed_from_example_inputs():
    # no meta (as symbolic_trace leaves it): the example inputs type the inputs, and eqfuse
    # infers every op overload's type from them (nothing is propagated in Python)
    gm = models.without_meta(models.trace_bmm())
    assert all("val" not in n.meta and "tensor_meta" not in n.meta for n in gm.graph.nodes)
    a, b = models.bmm_inputs()
    doc = eqfuse.to_document(gm, (a, b))
    types = {n["name"]: n.get("meta", {}).get("type") for n in doc["nodes"]}
    assert types == {"a_1": "f32[4, 8, 128]", "b_1": "f32[4, 128, 256]",
                     "bmm": None, "transpose": None, "output": None}
    loaded = {n["name"]: n.get("meta", {}).get("type")
              for n in eqfuse._eqfuse.load(doc)["nodes"]}
    assert loaded["bmm"] == "f32[4, 8, 256]" and loaded["transpose"] == "f32[8, 4, 256]"
    assert all(not n.meta for n in gm.graph.nodes)  # still untouched
    r = eqfuse.optimize(gm, (a, b))
    assert r.stats["fusions"] == {"torchair/bmm-transpose": 1}
    assert torch.equal(gm(a, b), r.graph_module(a, b))


def test_document_round_trip_keeps_names_and_args():
    gm = models.trace_llama()
    doc = eqfuse.to_document(gm)
    names = [n["name"] for n in doc["nodes"]]
    assert names == [n.name for n in gm.graph.nodes]
    qm = next(n for n in doc["nodes"] if n["name"] == "npu_quant_matmul")
    assert qm["target"] == "npu::npu_quant_matmul"
    assert qm["kwargs"] == {"pertoken_scale": {"node": "getitem_4"}, "output_dtype": 5}
    cast = next(n for n in doc["nodes"] if n["name"] == "_to_copy")
    assert cast["kwargs"] == {"dtype": {"dtype": "float32"}}
    assert next(n for n in doc["nodes"] if n["name"] == "getitem_2")["op"] == "getitem"
    # an untouched round trip through the C++ loader types every node
    typed = eqfuse._eqfuse.load(doc)
    assert [n["name"] for n in typed["nodes"]] == names
    back = eqfuse.from_document(doc, gm)
    inputs = models.llama_inputs()
    _assert_same_outputs(gm(*inputs), back(*inputs))


def test_symint_operators_and_packets_are_converted():
    def f(x):
        n = x.shape[0] * 2
        return torch.ops.aten.add(x.reshape(n, -1), 1.0)

    gm = make_fx(f, tracing_mode="real")(torch.randn(4, 6))
    # a hand-made node with an operator target on ints and an OpOverloadPacket
    doc = eqfuse.to_document(gm)
    targets = [n["target"] for n in doc["nodes"] if n["op"] == "call_function"]
    assert "aten::add.Tensor" in targets or "aten::add" in targets
    r = eqfuse.optimize(gm)
    x = torch.randn(4, 6)
    _assert_same_outputs(gm(x), r.graph_module(x))

    g = torch.fx.Graph()
    x_ = g.placeholder("x")
    m = g.call_function(operator.mul, (3, 4))
    y = g.call_function(torch.ops.aten.mul, (x_, m))
    g.output((y,))
    gm2 = torch.fx.GraphModule(torch.nn.Module(), g)
    doc2 = eqfuse.to_document(gm2, (torch.randn(2, 2),))
    call_targets = [n["target"] for n in doc2["nodes"] if n["op"] == "call_function"]
    assert call_targets == ["operator.mul", "aten::mul"]
    r2 = eqfuse.optimize(gm2, (torch.randn(2, 2),))
    t = torch.randn(2, 2)
    _assert_same_outputs(gm2(t), r2.graph_module(t))


def test_symbolic_make_fx_graph_is_typed_with_symbols_and_stays_general():
    # PyTorch 1.13 names sizes after their input (`t0.size(1)`), 2.x `s0`: either way
    # the document carries symbols, not the traced sizes.
    gm = models.trace_bmm(tracing_mode="symbolic")
    doc = eqfuse.to_document(gm)
    types = [n["meta"]["type"] for n in doc["nodes"] if n["op"] == "placeholder"]
    assert types[0] != "f32[4, 8, 128]" and types[1] != "f32[4, 128, 256]", types
    assert all(any(ch.isalpha() for ch in t[len("f32["):]) for t in types), types
    r = eqfuse.optimize(gm)
    assert r.stats["kernels_after"] <= r.stats["kernels_before"]
    for a, b in (models.bmm_inputs(), (torch.randn(2, 8, 128), torch.randn(2, 128, 64))):
        _assert_same_outputs(gm(a, b), r.graph_module(a, b))  # other sizes too
