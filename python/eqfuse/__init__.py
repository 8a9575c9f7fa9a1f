"""eqfuse: equality-saturation fusion of PyTorch FX graphs for Ascend NPUs.

    import eqfuse
    result = eqfuse.optimize(gm)              # gm: a torch.fx.GraphModule (make_fx)
    result.graph_module                        # a new GraphModule calling the fused torch.ops
    print(result.summary)                      # kernels and modeled time before -> after
    result.stats["fusions"]                    # rule -> fused kernels
    print(result.explain())                    # why each fusion was (not) applied

The C++ library does the work (eqfuse._eqfuse); graphs cross as eqfuse-graph
JSON documents held in dicts (docs/graph-json.md).  docs/python.md has the
details.
"""
from __future__ import annotations

import time
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Union

from ._eqfuse import EqfuseError, default_device
from . import _eqfuse
from .replacement import (Match, Replacement, ReplacementRegistry, default_registry,
                          optimize_inputs, register_replacement, rules_and_checks)

__all__ = ["EqfuseError", "Result", "optimize", "optimize_document", "to_document",
           "from_document", "default_device", "register_replacement", "Match", "Replacement",
           "ReplacementRegistry", "default_registry", "graph_pass", "GraphPass", "backend",
           "CompileReport"]
__version__ = "0.1.0"


def _strs(name: str, values) -> list:
    if isinstance(values, str):
        return [values]
    out = list(values or ())
    for v in out:
        if not isinstance(v, str):
            raise EqfuseError(f"{name}: expected strings, got {type(v).__name__}")
    return out


def _run(doc: Dict[str, Any], mode, device, config, rules, disable_rules, enable_rules, hints,
         replacements=None, frozen_inputs=(), reinplace_passes=None, memory_limit=None,
         preset=None):
    if config is not None and not isinstance(config, (dict, str)):
        import os
        if isinstance(config, os.PathLike):
            config = os.fspath(config)
    if preset is not None and not isinstance(preset, str):
        raise EqfuseError(f"preset: expected a preset name, got {type(preset).__name__}")
    if preset is not None and mode == "reduce-overhead":
        mode = None  # the default mode gives way to the preset's (torchair-ge: max-autotune)
    rules = [str(r) if not isinstance(r, str) else r for r in (rules or ())]
    # Ops torch knows and eqfuse's catalog lacks (of the graph and of the replacements)
    # come with their schemas and fake-kernel shape functions (torch_ops.py).
    registered, checks, ops, op_metas = optimize_inputs(replacements, hints, doc)
    return _eqfuse.optimize(doc, mode=mode, device=device, config=config,
                            rules=rules + registered,
                            disable_rules=_strs("disable_rules", disable_rules),
                            enable_rules=_strs("enable_rules", enable_rules),
                            hints=dict(hints or {}),
                            frozen_inputs=_strs("frozen_inputs", frozen_inputs),
                            extra_checks=checks, ops=ops, op_metas=op_metas,
                            reinplace_passes=reinplace_passes,
                            memory_limit=None if memory_limit is None else str(memory_limit),
                            preset=preset)


def optimize_document(doc: Dict[str, Any], *, mode: Optional[str] = "reduce-overhead",
                      device: Optional[str] = default_device, config=None, rules=(),
                      disable_rules=(), enable_rules=(), hints=None,
                      replacements=None, frozen_inputs=(), preset=None) -> "Result":
    """Optimizes an eqfuse-graph document (a dict) with no torch involved.
    The Result has no graph_module; ``.document`` is the optimized graph."""
    t0 = time.perf_counter()
    run = _run(doc, mode, device, config, rules, disable_rules, enable_rules, hints,
               replacements, frozen_inputs, preset=preset)
    return Result(run, timings={"optimize_s": time.perf_counter() - t0})


def to_document(gm, example_inputs=None) -> Dict[str, Any]:
    """The eqfuse-graph document of a GraphModule (see fx_convert)."""
    from .fx_convert import graph_module_to_document
    return graph_module_to_document(gm, example_inputs)


def from_document(doc: Dict[str, Any], root):
    """A new GraphModule for ``doc`` whose get_attr nodes read ``root``'s attributes."""
    from .fx_convert import ConversionContext, document_to_graph_module
    return document_to_graph_module(doc, root, ConversionContext())


class Result:
    """One optimize run.

    ``graph_module``: a new torch.fx.GraphModule of the optimized graph (built
    on first access; EqfuseError if it calls an op this process has not
    registered), ``document``: the optimized eqfuse-graph document,
    ``summary``: the `eqfuse optimize` summary, ``stats``: the --stats-json
    object, ``fx_text``: the optimized graph as FX text, ``explain(format)``:
    the `eqfuse explain` report ("text", "json" or "html"), ``timings``:
    seconds spent converting, optimizing and rebuilding."""

    def __init__(self, run, timings=None, root=None, ctx=None):
        self._run = run
        self._root = root
        self._ctx = ctx
        self._gm = None
        self.timings: Dict[str, float] = dict(timings or {})
        self.document: Dict[str, Any] = run.graph()
        self.stats: Dict[str, Any] = run.stats()
        self.summary: str = run.summary()
        self.opaque_ops = list(run.opaque_ops)

    @property
    def fx_text(self) -> str:
        return self._run.fx_text()

    @property
    def graph_module(self):
        if self._gm is None:
            if self._root is None:
                raise EqfuseError("this result was optimized from a document: it has no "
                                  "graph_module (use from_document(result.document, root))")
            from .fx_convert import document_to_graph_module
            t0 = time.perf_counter()
            self._gm = document_to_graph_module(self.document, self._root, self._ctx)
            self.timings["rebuild_s"] = time.perf_counter() - t0
        return self._gm

    @property
    def fusions(self) -> Dict[str, int]:
        return dict(self.stats.get("fusions", {}))

    def explain(self, format: str = "text", *, dot_timeout: float = 20.0) -> str:
        if format not in ("text", "json", "html"):
            raise EqfuseError(f"explain: unknown format '{format}' (text, json or html)")
        return self._run.explain(format, dot_timeout)

    def __repr__(self) -> str:
        s = self.stats
        return (f"<eqfuse.Result kernels {s.get('kernels_before')} -> {s.get('kernels_after')}, "
                f"fusions {self.fusions}>")


def optimize(gm, example_inputs: Optional[Sequence[Any]] = None, *,
             mode: Optional[str] = "reduce-overhead", device: Optional[str] = default_device,
             config: Union[None, str, Mapping[str, Any]] = None, rules: Iterable[str] = (),
             disable_rules: Iterable[str] = (), enable_rules: Iterable[str] = (),
             hints: Optional[Mapping[str, int]] = None,
             replacements: Optional[Iterable[Replacement]] = None,
             frozen_inputs: Iterable[str] = (), freeze_parameters: bool = False,
             reinplace_passes: Optional[bool] = None,
             memory_limit: Union[None, int, str] = None,
             preset: Optional[str] = None) -> Result:
    """Optimizes a torch.fx.GraphModule as `eqfuse optimize` does.

    ``gm`` is not modified.  ``example_inputs`` type the graph when node
    meta ("val"/"tensor_meta") is missing.  ``mode``/``device``: as the CLI's
    --mode/--device (None: the config's, else the defaults); ``config``: a
    dict like the --config JSON or its path; ``rules``: extra .rules texts or
    paths; ``disable_rules``/``enable_rules``: rule names or labels;
    ``hints``: values of symbolic dims for costs ({"s0": 4096}); ``replacements``: the
    register_replacement rules to apply (default: those registered process-wide,
    ``default_registry``; ``()`` for none); ``frozen_inputs``: graph inputs that are the
    same on every call (placeholder names or get_attr targets, ``*``/``?`` wildcards, e.g.
    ``["_param_constant*"]`` for make_fx's parameters): what is computed from them alone
    is priced once (docs/cost-model.md "Frozen inputs"); ``freeze_parameters``: also
    freeze every get_attr of ``gm`` (its parameters, buffers and traced constants, as
    Inductor's freezing does); ``reinplace_passes``: False keeps the optimized graph
    functional in reduce-overhead mode (no reinplace passes; None: the config's, else on),
    as a compiler that reuses buffers itself wants it (the backend's inner="inductor" and
    GraphPass pass False); ``memory_limit``: the resident memory the run may use, bytes or
    a size such as ``"8G"`` (0: none; None: the config's, else 3/4 of the machine's), as
    the CLI's --memory-limit; ``preset``: a peer's default pass set (``"vllm-ascend"``,
    ``"npugraph_ex"``, ``"torchair-ge"``, ``"vllm"``; the CLI's --preset), the base that
    ``config`` and the other arguments adjust; with it, the default ``mode`` is the
    preset's. The fused sites that rely on a peer's assumption are in
    ``stats["assumptions"]``."""
    from .fx_convert import ConversionContext, graph_module_to_document
    ctx = ConversionContext()
    t0 = time.perf_counter()
    doc = graph_module_to_document(gm, example_inputs, ctx)
    t1 = time.perf_counter()
    frozen = _strs("frozen_inputs", frozen_inputs)
    if freeze_parameters:
        frozen += sorted({str(n.target) for n in gm.graph.nodes if n.op == "get_attr"})
    run = _run(doc, mode, device, config, rules, disable_rules, enable_rules, hints,
               replacements, frozen, reinplace_passes, memory_limit, preset)
    t2 = time.perf_counter()
    result = Result(run, timings={"convert_s": t1 - t0, "optimize_s": t2 - t1}, root=gm, ctx=ctx)
    try:
        result.graph_module  # built now, so that a missing op is reported by optimize itself
    except EqfuseError as e:
        e.result = result  # fx_text, stats and explain stay available
        raise
    return result


from .compile import CompileReport, GraphPass, backend, graph_pass  # noqa: E402  (needs optimize above)
