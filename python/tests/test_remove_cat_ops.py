"""TorchAir's remove_cat_ops (aclgraph): a dim-0 cat of matmul and add results becomes
one buffer the producers write through their `.out` variants; the GraphModule eqfuse
builds runs in PyTorch and computes bit-identical outputs."""
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
from checks import assert_same_outputs


def _tokens_of_two_experts(x, w1, w2, bias):
    a = torch.mm(x, w1)
    b = torch.mm(x, w2) + bias
    return torch.cat([a, b]) * 2


def _inputs():
    g = torch.Generator().manual_seed(3)
    return (torch.randn(8, 64, generator=g), torch.randn(64, 32, generator=g),
            torch.randn(64, 32, generator=g), torch.randn(32, generator=g))


def test_cat_of_producers_is_written_in_place():
    inputs = _inputs()
    gm = make_fx(_tokens_of_two_experts)(*inputs)
    r = eqfuse.optimize(gm, inputs, mode="reduce-overhead")
    assert r.stats["remove_cat_ops"]["removed_cats"] == 1, r.stats["remove_cat_ops"]
    assert "aten.cat" not in r.fx_text and "mm.out" in r.fx_text and "add.out" in r.fx_text
    assert_same_outputs(gm(*inputs), r.graph_module(*inputs))


def test_off_outside_reduce_overhead_and_by_config():
    inputs = _inputs()
    gm = make_fx(_tokens_of_two_experts)(*inputs)
    assert eqfuse.optimize(gm, inputs, mode="max-autotune").stats["remove_cat_ops"][
        "removed_cats"] == 0
    r = eqfuse.optimize(gm, inputs, config={"debug": {"aclgraph": {"remove_cat_ops": False}}})
    assert r.stats["remove_cat_ops"]["removed_cats"] == 0
    assert_same_outputs(gm(*inputs), r.graph_module(*inputs))


def test_symbolic_token_counts_are_read_from_the_inputs():
    # make_fx's symbolic tracing: the experts' token counts are sizes of the inputs, so the
    # buffer and its slices are computed from sym_size reads of them before the first mm.
    def two_experts(x, y, w1, w2):
        return torch.cat([torch.mm(x, w1), torch.mm(y, w2)]) * 2

    g = torch.Generator().manual_seed(4)
    inputs = (torch.randn(6, 64, generator=g), torch.randn(10, 64, generator=g),
              torch.randn(64, 32, generator=g), torch.randn(64, 32, generator=g))
    gm = make_fx(two_experts, tracing_mode="symbolic")(*inputs)
    r = eqfuse.optimize(gm, inputs, mode="reduce-overhead")
    assert r.stats["remove_cat_ops"]["removed_cats"] == 1, r.stats["remove_cat_ops"]
    assert "aten.cat" not in r.fx_text and "sym_size" in r.fx_text, r.fx_text
    assert_same_outputs(gm(*inputs), r.graph_module(*inputs))
    other = tuple(torch.randn(n, 64, generator=g) for n in (3, 7)) + inputs[2:]
    assert_same_outputs(gm(*other), r.graph_module(*other))
