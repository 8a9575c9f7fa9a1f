"""Bad input: unknown ops stay opaque, bad example inputs, unsupported node
kinds, bad options and documents, and ops missing from this process all
raise eqfuse.EqfuseError with a message that says what is wrong."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
import models
from eqfuse import fx_convert

_TEST_LIB = torch.library.Library("eqfuse_test", "DEF")
_TEST_LIB.define("mystery(Tensor x) -> Tensor")
_TEST_LIB.impl("mystery", lambda x: x * 2, "CPU")  # no fake kernel: eqfuse cannot type it


def test_unknown_op_is_kept_opaque_and_the_rest_still_optimizes():
    def f(a, b):
        return torch.ops.eqfuse_test.mystery(torch.bmm(a, b).transpose(0, 1))

    gm = make_fx(f)(*models.bmm_inputs())  # real: mystery has no fake kernel
    r = eqfuse.optimize(gm)
    assert r.opaque_ops == ["eqfuse_test::mystery"]
    assert r.stats["fusions"] == {"torchair/bmm-transpose": 1}
    targets = [n.target for n in r.graph_module.graph.nodes if n.op == "call_function"]
    assert targets == [torch.ops.npu.npu_transpose_batchmatmul.default,
                       torch.ops.eqfuse_test.mystery.default]
    a, b = models.bmm_inputs(3)
    assert torch.equal(gm(a, b), r.graph_module(a, b))


def test_malformed_example_inputs():
    gm = models.without_meta(models.trace_bmm())
    with pytest.raises(eqfuse.EqfuseError, match=r"the graph has 2 inputs \(a_1, b_1\) but 1"):
        eqfuse.optimize(gm, [torch.randn(4, 8, 128)])
    with pytest.raises(eqfuse.EqfuseError, match="input 'b_1' is a str"):
        eqfuse.optimize(gm, [torch.randn(4, 8, 128), "nope"])
    # inputs the graph cannot take: the node that rejects them is named
    with pytest.raises(eqfuse.EqfuseError, match="node 'bmm'.*inner dims do not match"):
        eqfuse.optimize(gm, [torch.randn(4, 8, 128), torch.randn(4, 64, 256)])
    with pytest.raises(eqfuse.EqfuseError, match="expected a list or tuple"):
        eqfuse.optimize(gm, torch.randn(4, 8, 128))


class _WithLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.linear(x).relu()


def test_call_module_and_call_method_are_refused():
    gm = torch.fx.symbolic_trace(_WithLinear())
    with pytest.raises(eqfuse.EqfuseError, match="node 'linear': call_module nodes are not "
                                                 "supported.*make_fx"):
        eqfuse.optimize(gm, [torch.randn(2, 4)])
    gm = torch.fx.symbolic_trace(lambda x: x.relu())
    with pytest.raises(eqfuse.EqfuseError, match="node 'relu': call_method nodes are not supported"):
        eqfuse.optimize(gm)


def test_not_a_graph_module():
    with pytest.raises(eqfuse.EqfuseError, match="expected a torch.fx.GraphModule, got function"):
        eqfuse.optimize(models.bmm_transpose)


def test_bad_options_are_eqfuse_errors_from_cpp():
    gm = models.trace_bmm()
    with pytest.raises(eqfuse.EqfuseError, match="error: .*mode"):
        eqfuse.optimize(gm, mode="turbo")
    with pytest.raises(eqfuse.EqfuseError, match="no_such_key"):
        eqfuse.optimize(gm, config={"no_such_key": 1})
    with pytest.raises(eqfuse.EqfuseError, match="config: expected a dict or a file path"):
        eqfuse._eqfuse.optimize(eqfuse.to_document(gm), config=3)
    with pytest.raises(eqfuse.EqfuseError, match="hints: 's0' must be >= 1"):
        eqfuse.optimize(gm, hints={"s0": 0})
    with pytest.raises(eqfuse.EqfuseError, match="rules"):
        eqfuse.optimize(gm, rules=["rule broken <=>\n    nonsense\n"])
    with pytest.raises(eqfuse.EqfuseError, match=r"did you mean 'torchair/bmm-transpose'"):
        eqfuse.optimize(gm, disable_rules=["torchair/bmm-transpos"])


def test_bad_documents_are_eqfuse_errors():
    doc = eqfuse.to_document(models.trace_bmm())
    doc["nodes"][2]["args"][0] = {"node": "nowhere"}
    with pytest.raises(eqfuse.EqfuseError, match="nowhere"):
        eqfuse._eqfuse.optimize(doc)
    with pytest.raises(eqfuse.EqfuseError, match=r"graph.nodes\[0\].meta: unsupported Python "
                                                 r"value of type 'object'"):
        eqfuse._eqfuse.optimize({"format": "eqfuse-graph", "version": 1,
                                 "nodes": [{"name": "x", "op": "placeholder", "meta": object()}]})
    with pytest.raises(eqfuse.EqfuseError, match="does not fit in 64 bits"):
        eqfuse._eqfuse.load({"format": "eqfuse-graph", "version": 2**70, "nodes": []})
    with pytest.raises(eqfuse.EqfuseError, match="version"):
        eqfuse._eqfuse.load({"format": "eqfuse-graph", "version": 7, "nodes": []})


def test_op_not_registered_in_this_process():
    with pytest.raises(eqfuse.EqfuseError, match=r"npu::npu_not_there \(torch.ops.npu."
                                                 r"npu_not_there.default\), which is not registered"):
        fx_convert.resolve_op("npu::npu_not_there")
    gm = models.trace_bmm()
    doc = eqfuse.to_document(gm)
    doc["nodes"][2]["target"] = "npu::npu_not_there.fast"
    with pytest.raises(eqfuse.EqfuseError, match="torch_npu"):
        eqfuse.from_document(doc, gm)
