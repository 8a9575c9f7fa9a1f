"""eqfuse inside torch.compile (docs/python.md, "In torch.compile").

Two entry points:

* ``GraphPass`` / ``graph_pass``: a plain FX pass that rewrites a
  ``torch.fx.Graph`` in place, for the hooks that take custom passes on the
  aten-level graph: Inductor's ``post_grad_custom_post_pass`` (and
  ``_pre_pass``), vLLM's and vllm-ascend's pass managers, TorchAir /
  npugraph_ex custom passes.  It works on any torch that has torch.fx
  (1.13 included), because it needs nothing from Dynamo.
* ``backend(inner=...)``: a ``torch.compile`` backend (torch >= 2.0) that
  lets AOTAutograd produce the inference graph, optimizes it with eqfuse and
  hands the result to ``inner`` (``"inductor"``, ``None`` for eager
  execution of the optimized graph, or any fw_compiler-style callable).

Both run the same pipeline as ``eqfuse.optimize`` with the keyword
arguments given (mode, device, config, rules, ...), and keep the last
Result in ``.last_result`` for inspection (summary, stats, explain()).
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Optional, Union

import torch
import torch.fx

from ._eqfuse import EqfuseError

__all__ = ["GraphPass", "graph_pass", "backend"]


def _replace_graph(graph: torch.fx.Graph, new: torch.fx.Graph) -> None:
    """Makes ``graph`` hold ``new``'s nodes: passes must edit the graph they are given."""
    for node in reversed(list(graph.nodes)):  # users before producers
        graph.erase_node(node)
    value_map: dict = {}
    out = graph.graph_copy(new, value_map)
    graph.output(out)


class GraphPass:
    """A custom FX pass: ``GraphPass(mode="reduce-overhead")(graph)`` optimizes ``graph``
    (a torch.fx.Graph whose owning module holds its get_attr tensors) in place.

    Nodes need ``meta["val"]`` (as AOTAutograd and make_fx leave them) or the pass
    raises EqfuseError naming the untyped input.  ``uuid()`` identifies the pass's
    options for Inductor's FX graph cache."""

    def __init__(self, **optimize_options: Any):
        self.options = dict(optimize_options)
        self.last_result = None

    def __call__(self, graph: Union[torch.fx.Graph, torch.fx.GraphModule]) -> None:
        from . import optimize
        gm = graph if isinstance(graph, torch.fx.GraphModule) else graph.owning_module
        if gm is None:
            gm = torch.fx.GraphModule(torch.nn.Module(), graph)
        target = gm.graph if isinstance(graph, torch.fx.GraphModule) else graph
        result = optimize(gm, **self.options)
        self.last_result = result
        _replace_graph(target, result.graph_module.graph)
        if isinstance(graph, torch.fx.GraphModule):
            graph.recompile()

    def uuid(self) -> str:
        text = repr(sorted((k, repr(v)) for k, v in self.options.items()))
        return hashlib.sha256(("eqfuse-graph-pass:" + text).encode()).hexdigest()


def graph_pass(graph: Union[torch.fx.Graph, torch.fx.GraphModule], **optimize_options) -> None:
    """``GraphPass(**optimize_options)(graph)``: one call, no state kept."""
    GraphPass(**optimize_options)(graph)


def _inner_compiler(inner: Union[None, str, Callable]) -> Callable:
    if inner is None:
        return lambda gm, example_inputs: gm.forward
    if callable(inner):
        return inner
    if inner == "inductor":
        from torch._inductor.compile_fx import compile_fx_inner
        return compile_fx_inner
    raise EqfuseError(f"backend: inner must be None, 'inductor' or a callable "
                      f"(gm, example_inputs) -> callable, got {inner!r}")


def backend(inner: Union[None, str, Callable] = None, **optimize_options: Any):
    """A torch.compile backend: ``torch.compile(model, backend=eqfuse.backend())``.

    AOTAutograd traces the model to aten ops; eqfuse optimizes the inference graph
    (``optimize_options`` as for ``eqfuse.optimize``); ``inner`` compiles the result.
    The returned backend keeps the last Result in ``.last_result``.  Needs torch >= 2.0
    (torch.compile); on older torch it raises EqfuseError."""
    try:
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd
    except ImportError as e:
        raise EqfuseError(f"backend: torch.compile is not available in torch "
                          f"{torch.__version__} (needs torch >= 2.0); use eqfuse.optimize on a "
                          f"make_fx graph or eqfuse.GraphPass instead") from e
    from . import optimize
    compile_inner = _inner_compiler(inner)
    state: dict = {"last_result": None}

    def fw_compiler(gm: torch.fx.GraphModule, example_inputs):
        result = optimize(gm, example_inputs, **optimize_options)
        state["last_result"] = result
        compiled = compile_inner(result.graph_module, example_inputs)
        if inner is None:
            return make_boxed_func(compiled)
        return compiled

    compiled_backend = aot_autograd(fw_compiler=fw_compiler)

    class _Backend:
        def __call__(self, gm, example_inputs):
            return compiled_backend(gm, example_inputs)

        @property
        def last_result(self):
            return state["last_result"]

    return _Backend()
