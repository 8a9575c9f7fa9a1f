"""eqfuse inside torch.compile (docs/python.md, "In torch.compile").

Two entry points:

* ``backend(inner=...)``: a ``torch.compile`` backend.  TorchDynamo captures
  each graph of the model (one per graph break), AOTAutograd lowers it to an
  aten graph, eqfuse optimizes that graph and hands the result to ``inner``:
  ``None`` runs the optimized graph eagerly, ``"inductor"`` compiles it with
  Inductor (eqfuse runs where Inductor's own post-grad passes would start, on
  Inductor's decomposed graph), or any ``(gm, example_inputs) -> callable``.
* ``GraphPass`` / ``graph_pass``: a plain FX pass that rewrites a
  ``torch.fx.Graph`` in place, for the hooks that take custom passes on the
  aten-level graph: Inductor's ``post_grad_custom_post_pass`` (and
  ``_pre_pass``), vLLM's and vllm-ascend's pass managers, TorchAir /
  npugraph_ex custom passes.

Both run the same pipeline as ``eqfuse.optimize`` with the keyword arguments
given (mode, device, config, rules, ...).  The model's parameters and buffers
are frozen inputs by default (``freeze_parameters=False`` turns that off): the
cost model prices what is computed from weights alone once, not per call.
Every graph's Result is kept in ``.results`` (``.last_result`` is the newest);
``.report()`` summarises them.  A failure raises; with ``fallback=True`` the
graph runs unoptimized and a warning says why.
"""
from __future__ import annotations

import hashlib
import warnings
from typing import Any, Callable, List, Optional, Sequence, Union

import torch
import torch.fx

from ._eqfuse import EqfuseError

__all__ = ["GraphPass", "graph_pass", "backend", "CompileReport"]


def _replace_graph(graph: torch.fx.Graph, new: torch.fx.Graph) -> None:
    """Makes ``graph`` hold ``new``'s nodes: passes must edit the graph they are given."""
    for node in reversed(list(graph.nodes)):  # users before producers
        graph.erase_node(node)
    value_map: dict = {}
    out = graph.graph_copy(new, value_map)
    graph.output(out)


def _static_input_names(gm: torch.fx.GraphModule) -> List[str]:
    """The placeholders of an AOTAutograd graph that hold parameters or buffers: the
    static inputs AOTAutograd records for the graph being compiled (Dynamo's lifted
    ``nn.Parameter``s and buffers), plus every get_attr (constants and frozen weights)."""
    names: List[str] = []
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    try:
        from torch._guards import TracingContext
        context = TracingContext.try_get()
    except ImportError:
        context = None
    metadata = getattr(context, "fw_metadata", None) if context is not None else None
    for i in getattr(metadata, "static_input_indices", None) or ():
        if 0 <= i < len(placeholders):
            names.append(placeholders[i].name)
    names += sorted({str(n.target) for n in gm.graph.nodes if n.op == "get_attr"})
    return names


def _composite_calls(gm: torch.fx.GraphModule) -> List[str]:
    """The calls of ops that decompose themselves (CompositeImplicitAutograd, such as
    ``aten.matmul``): eqfuse's layout rules may choose them, but Inductor lowers only
    decomposed graphs."""
    found = []
    for n in gm.graph.nodes:
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            if torch._C._dispatch_has_kernel_for_dispatch_key(n.target.name(),
                                                              "CompositeImplicitAutograd"):
                found.append(n.name)
    return found


def _kept_for_eqfuse():
    """Ops Inductor's decompositions would take apart before eqfuse sees the graph,
    though eqfuse's fusions start from them (add + LayerNorm, softmax in attention,
    activations): AOTAutograd leaves them whole for eqfuse, and what eqfuse does not
    fuse is decomposed afterwards (``_decomposed_for_inductor``)."""
    aten = torch.ops.aten
    return {aten.native_layer_norm.default, aten._softmax.default, aten.gelu.default,
            aten.silu.default}


def _inductor_decompositions_without_kept():
    from torch._inductor.decomposition import select_decomp_table
    kept = _kept_for_eqfuse()
    return {op: fn for op, fn in select_decomp_table().items() if op not in kept}


def _decomposed_for_inductor(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    """``gm`` retraced with Inductor's decomposition table when it calls composite ops
    or ops kept whole for eqfuse (fake tensors only: nothing runs); ``gm`` itself
    otherwise.  The NPU ops stay calls."""
    kept = _kept_for_eqfuse()
    if not _composite_calls(gm) and not any(n.op == "call_function" and n.target in kept
                                            for n in gm.graph.nodes):
        return gm
    from torch._dispatch.python import enable_python_dispatcher
    from torch._inductor.decomposition import select_decomp_table
    from torch.fx.experimental.proxy_tensor import make_fx
    from .fx_convert import _fake_mode_for
    inputs = [n.meta["val"] for n in gm.graph.nodes if n.op == "placeholder"]
    mode = _fake_mode_for(inputs)
    with mode, enable_python_dispatcher(), torch.no_grad():
        return make_fx(torch.fx.Interpreter(gm).run, select_decomp_table(),
                       tracing_mode="real")(*inputs)


class _Optimizer:
    """What the backend and the pass share: the options, the freezing of weights, the
    fallback policy and the Results of every graph."""

    def __init__(self, fallback: bool, freeze_parameters: bool, options: dict):
        if not isinstance(fallback, bool) or not isinstance(freeze_parameters, bool):
            raise EqfuseError("fallback and freeze_parameters take True or False")
        self.options = dict(options)
        self.fallback = fallback
        self.freeze_parameters = freeze_parameters
        self.results: list = []

    @property
    def last_result(self):
        return self.results[-1] if self.results else None

    def optimize(self, gm: torch.fx.GraphModule, example_inputs=None,
                 need_fake_values: bool = False, for_inductor: bool = False
                 ) -> torch.fx.GraphModule:
        """The optimized GraphModule of ``gm`` (``gm`` itself when it falls back); with
        ``need_fake_values`` every node has ``meta["val"]``; ``for_inductor`` also
        decomposes the composite ops it calls."""
        from . import optimize
        from .fx_convert import propagate_fake_values
        options = dict(self.options)
        if for_inductor:
            # Inductor reuses buffers itself and lowers functional graphs (an in-place
            # op on an intermediate left its scheduler without a producer on OLMo2).
            options.setdefault("reinplace_passes", False)
        if self.freeze_parameters:
            frozen = list(options.pop("frozen_inputs", ()) or ())
            options["frozen_inputs"] = frozen + [n for n in _static_input_names(gm)
                                                 if n not in frozen]
        try:
            result = optimize(gm, example_inputs, **options)
            new_gm = result.graph_module
            if need_fake_values:
                propagate_fake_values(new_gm, example_inputs)
                if for_inductor:
                    new_gm = _decomposed_for_inductor(new_gm)
        except Exception as e:  # noqa: BLE001  re-raised unless the user asked for a fallback
            if not self.fallback:
                raise
            warnings.warn(f"eqfuse: optimizing graph {len(self.results)} failed, running it "
                          f"unoptimized (fallback=True): {type(e).__name__}: {e}",
                          RuntimeWarning, stacklevel=3)
            self.results.append(None)
            return gm
        self.results.append(result)
        return new_gm

    def report(self) -> "CompileReport":
        return CompileReport(list(self.results))


class CompileReport:
    """The Results of every graph a backend or pass optimized (``None`` for a graph that
    fell back): kernels and modeled time before -> after, fusions by rule."""

    def __init__(self, results: Sequence[Any]):
        self.results = list(results)

    @property
    def fusions(self) -> dict:
        total: dict = {}
        for r in self.results:
            for rule, n in (r.fusions if r is not None else {}).items():
                total[rule] = total.get(rule, 0) + n
        return dict(sorted(total.items()))

    @property
    def graphs(self) -> int:
        return len(self.results)

    @property
    def fell_back(self) -> int:
        return sum(1 for r in self.results if r is None)

    def __str__(self) -> str:
        lines = [f"eqfuse: {self.graphs} graph{'s' if self.graphs != 1 else ''} optimized"
                 + (f", {self.fell_back} ran unoptimized" if self.fell_back else "")]
        for i, r in enumerate(self.results):
            if r is None:
                lines.append(f"  graph {i}: unoptimized (fallback)")
                continue
            s = r.stats
            fused = ", ".join(f"{k} x{v}" for k, v in sorted(r.fusions.items())) or "no fusion"
            lines.append(f"  graph {i}: {s.get('kernels_before')} -> {s.get('kernels_after')} "
                         f"kernels, {s.get('cost_before_us', 0):.1f} -> "
                         f"{s.get('cost_after_us', 0):.1f} us modeled; {fused}")
        return "\n".join(lines)

    __repr__ = __str__


class _KeepsResults:
    """``results`` (one Result per optimized graph, None where it fell back),
    ``last_result`` and ``report()`` of the _Optimizer in ``self._opt``."""

    _opt: _Optimizer

    @property
    def results(self) -> list:
        return self._opt.results

    @property
    def last_result(self):
        return self._opt.last_result

    def report(self) -> CompileReport:
        return self._opt.report()


class GraphPass(_KeepsResults):
    """A custom FX pass: ``GraphPass(mode="reduce-overhead")(graph)`` optimizes ``graph``
    (a torch.fx.Graph whose owning module holds its get_attr tensors) in place.

    Nodes need ``meta["val"]`` (as AOTAutograd, Inductor and make_fx leave them) or the
    pass raises EqfuseError naming the untyped input; the nodes it writes get
    ``meta["val"]`` too.  ``uuid()`` identifies the pass's options for Inductor's FX
    graph cache.  ``results``/``last_result``/``report()`` as for ``backend``."""

    def __init__(self, *, fallback: bool = False, freeze_parameters: bool = True,
                 **optimize_options: Any):
        self._opt = _Optimizer(fallback, freeze_parameters, optimize_options)
        self.options = self._opt.options

    def __call__(self, graph: Union[torch.fx.Graph, torch.fx.GraphModule]) -> None:
        gm = graph if isinstance(graph, torch.fx.GraphModule) else graph.owning_module
        if gm is None:
            gm = torch.fx.GraphModule(torch.nn.Module(), graph)
        target = gm.graph if isinstance(graph, torch.fx.GraphModule) else graph
        new_gm = self._opt.optimize(gm, need_fake_values=True, for_inductor=True)
        if new_gm is gm:
            return
        _replace_graph(target, new_gm.graph)
        if isinstance(graph, torch.fx.GraphModule):
            graph.recompile()

    def uuid(self) -> str:
        text = repr(sorted((k, repr(v)) for k, v in self.options.items()))
        text += repr((self._opt.fallback, self._opt.freeze_parameters))
        return hashlib.sha256(("eqfuse-graph-pass:" + text).encode()).hexdigest()


def graph_pass(graph: Union[torch.fx.Graph, torch.fx.GraphModule], **optimize_options) -> None:
    """``GraphPass(**optimize_options)(graph)``: one call, no state kept."""
    GraphPass(**optimize_options)(graph)


class _Backend(_KeepsResults):
    """What ``backend()`` returns: a torch.compile backend keeping every graph's Result."""

    def __init__(self, inner, optimizer: _Optimizer):
        self._inner = inner
        self._opt = optimizer

    def __call__(self, gm: torch.fx.GraphModule, example_inputs):
        if self._inner == "inductor":
            return self._inductor(gm, example_inputs)
        from functorch.compile import make_boxed_func
        from torch._dynamo.backends.common import aot_autograd

        def fw_compiler(aot_gm: torch.fx.GraphModule, aot_inputs):
            new_gm = self._opt.optimize(aot_gm, aot_inputs, need_fake_values=self._inner is not None)
            if self._inner is None:
                return make_boxed_func(new_gm.forward)
            return self._inner(new_gm, aot_inputs)

        return aot_autograd(fw_compiler=fw_compiler)(gm, example_inputs)

    def _inductor(self, gm: torch.fx.GraphModule, example_inputs):
        """Inductor's own AOTAutograd and decompositions; eqfuse optimizes each graph
        Inductor's inner compiler receives, before Inductor lowers it."""
        from torch._inductor.compile_fx import compile_fx, compile_fx_inner

        def inner_compile(aot_gm: torch.fx.GraphModule, aot_inputs, **kwargs):
            new_gm = self._opt.optimize(aot_gm, aot_inputs, need_fake_values=True,
                                        for_inductor=True)
            return compile_fx_inner(new_gm, aot_inputs, **kwargs)

        # Inductor's caches key on the graph Dynamo traced, not on eqfuse: a graph
        # compiled before (by Inductor alone, or with other eqfuse options) would be
        # loaded without calling inner_compile. Off for this compile only.
        import torch._functorch.config as functorch_config
        import torch._inductor.config as inductor_config
        with functorch_config.patch(enable_autograd_cache=False,
                                    enable_remote_autograd_cache=False), \
                inductor_config.patch(fx_graph_cache=False, fx_graph_remote_cache=False):
            return compile_fx(gm, example_inputs, inner_compile=inner_compile,
                              decompositions=_inductor_decompositions_without_kept())


def backend(inner: Union[None, str, Callable] = None, *, fallback: bool = False,
            freeze_parameters: bool = True, **optimize_options: Any):
    """A torch.compile backend: ``torch.compile(model, backend=eqfuse.backend())``.

    ``inner``: ``None`` (run the optimized aten graph eagerly), ``"inductor"`` (compile
    it with Inductor), or a callable ``(gm, example_inputs) -> callable`` (an AOTAutograd
    fw_compiler; it receives the optimized graph, whose nodes carry ``meta["val"]``).
    ``optimize_options`` as for ``eqfuse.optimize``.  ``freeze_parameters``: parameters,
    buffers and get_attr constants are frozen inputs (priced once); explain lists them.
    ``fallback``: on a failure, warn and run the graph unoptimized instead of raising.
    The backend keeps every graph's Result in ``.results`` (one per graph break plus
    one), ``.last_result``, and ``.report()``."""
    if inner is not None and inner != "inductor" and not callable(inner):
        raise EqfuseError(f"backend: inner must be None, 'inductor' or a callable "
                          f"(gm, example_inputs) -> callable, got {inner!r}")
    return _Backend(inner, _Optimizer(fallback, freeze_parameters, optimize_options))
