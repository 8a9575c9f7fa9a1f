"""The extension module over documents: dict <-> JSON conversion, the
optimize options, stats, summary, FX text and the three explain formats."""
import json
import os

import pytest

import eqfuse
from eqfuse import _eqfuse

SOURCE = os.environ.get("EQFUSE_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", ".."))

# docs/graph-json.md's example: the seed add_rms_norm + dynamic_quant graph.
SEED = {
    "format": "eqfuse-graph", "version": 1, "name": "GraphModule",
    "nodes": [
        {"name": "arg0_1", "op": "placeholder", "target": "arg0_1", "meta": {"type": "f16[4]"}},
        {"name": "arg1_1", "op": "placeholder", "target": "arg1_1", "meta": {"type": "f16[2, 3, 4]"}},
        {"name": "arg2_1", "op": "placeholder", "target": "arg2_1", "meta": {"type": "f16[2, 3, 4]"}},
        {"name": "npu_add_rms_norm", "op": "call_function", "target": "npu::npu_add_rms_norm",
         "args": [{"node": "arg2_1"}, {"node": "arg1_1"}, {"node": "arg0_1"}]},
        {"name": "getitem", "op": "getitem", "args": [{"node": "npu_add_rms_norm"}, 0]},
        {"name": "getitem_2", "op": "getitem", "args": [{"node": "npu_add_rms_norm"}, 2]},
        {"name": "view", "op": "call_function", "target": "aten::view",
         "args": [{"node": "getitem"}, [6, 4]]},
        {"name": "npu_dynamic_quant", "op": "call_function", "target": "npu::npu_dynamic_quant",
         "args": [{"node": "view"}]},
        {"name": "getitem_3", "op": "getitem", "args": [{"node": "npu_dynamic_quant"}, 0]},
        {"name": "getitem_4", "op": "getitem", "args": [{"node": "npu_dynamic_quant"}, 1]},
        {"name": "view_1", "op": "call_function", "target": "aten::view",
         "args": [{"node": "getitem_4"}, [-1, 1]]},
        {"name": "output", "op": "output",
         "args": [{"tuple": [{"node": "getitem_3"}, {"node": "view_1"}, {"node": "getitem_2"}]}]},
    ],
}


def test_load_types_every_node_and_keeps_values():
    typed = _eqfuse.load(SEED)
    nodes = {n["name"]: n for n in typed["nodes"]}
    assert nodes["npu_dynamic_quant"]["meta"]["type"] == ["i8[6, 4]", "f32[6]"]
    assert nodes["view"]["args"] == [{"node": "getitem"}, [6, 4]]
    assert typed["nodes"][-1]["args"][0] == {
        "tuple": [{"node": "getitem_3"}, {"node": "view_1"}, {"node": "getitem_2"}]}
    assert "torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg1_1, arg0_1)" in _eqfuse.print_fx(SEED)


def test_optimize_document_stats_summary_fx():
    r = eqfuse.optimize_document(SEED)
    assert r.stats["fusions"] == {"torchair/add-rms-norm-dynamic-quant": 1}
    assert (r.stats["kernels_before"], r.stats["kernels_after"]) == (2, 1)
    assert r.stats["device"] == "ascend910b2" and r.stats["mode"] == "reduce-overhead"
    assert isinstance(r.stats["rules"], list) and isinstance(r.stats["extraction_optimal"], bool)
    assert "fusion       torchair/add-rms-norm-dynamic-quant x1" in r.summary
    assert "torch.ops.npu.npu_add_rms_norm_dynamic_quant.default" in r.fx_text
    targets = [n["target"] for n in r.document["nodes"] if n["op"] == "call_function"]
    assert "npu::npu_add_rms_norm_dynamic_quant" in targets
    with pytest.raises(eqfuse.EqfuseError, match="no graph_module"):
        r.graph_module


def test_explain_formats():
    r = eqfuse.optimize_document(SEED)
    text = r.explain()
    assert "torchair/add-rms-norm-dynamic-quant" in text
    rep = json.loads(r.explain("json"))
    assert rep["chosen"][0]["rule"] == "torchair/add-rms-norm-dynamic-quant"
    html = r.explain("html", dot_timeout=10)
    assert html.lstrip().lower().startswith("<!doctype html") and "fusion-0" in html
    with pytest.raises(eqfuse.EqfuseError, match="unknown format 'pdf'"):
        r.explain("pdf")


def test_user_rules_as_text_and_path(tmp_path):
    rule = (
        "rule user/double-neg =>\n"
        "    labels: user\n"
        "    description: neg(neg(x)) is x\n"
        "\n"
        "    def search(x: \"f16[8]\"):\n"
        "        a = torch.ops.aten.neg.default(x)\n"
        "        b = torch.ops.aten.neg.default(a)\n"
        "        return (b,)\n"
        "\n"
        "    def replace(x):\n"
        "        return (x,)\n")
    doc = {"format": "eqfuse-graph", "version": 1, "nodes": [
        {"name": "x", "op": "placeholder", "meta": {"type": "f16[8]"}},
        {"name": "neg", "op": "call_function", "target": "aten::neg", "args": [{"node": "x"}]},
        {"name": "neg_1", "op": "call_function", "target": "aten::neg", "args": [{"node": "neg"}]},
        {"name": "relu", "op": "call_function", "target": "aten::relu", "args": [{"node": "neg_1"}]},
        {"name": "output", "op": "output", "args": [{"tuple": [{"node": "relu"}]}]}]}
    for rules in ([rule], [str(tmp_path / "user.rules")]):
        (tmp_path / "user.rules").write_text(rule)
        r = eqfuse.optimize_document(doc, rules=rules)
        ops = [n["target"] for n in r.document["nodes"] if n["op"] == "call_function"]
        assert ops == ["aten::relu"], r.fx_text


def test_config_path_and_hints(tmp_path):
    cfg = tmp_path / "cfg.json"
    cfg.write_text('{"mode": "max-autotune", "experimental_config": {"pattern_fusion_pass": false}}')
    r = eqfuse.optimize_document(SEED, mode=None, config=str(cfg))
    assert r.stats["mode"] == "max-autotune" and r.stats["fusions"] == {}
    r = eqfuse.optimize_document(SEED, hints={"s0": 4096})
    assert r.stats["fusions"]


def test_error_class_and_message():
    assert issubclass(eqfuse.EqfuseError, Exception)
    with pytest.raises(eqfuse.EqfuseError) as e:
        _eqfuse.load({"format": "eqfuse-graph", "version": 1, "nodes": [{"name": "a"}]})
    assert "error:" in str(e.value) and "nodes[0]" in str(e.value)
