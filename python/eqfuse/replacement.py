"""TorchAir's ``register_replacement`` for eqfuse (docs/python.md).

``search_fn`` and ``replace_fn`` are traced on ``example_inputs`` (make_fx,
or the given ``trace_fn``) into FX graphs and written as one eqfuse rule
(the ``.rules`` format of docs/rules.md): the search graph is the pattern,
the replace graph what it becomes.  Unlike TorchAir's pattern matcher the
rule is an equality in the e-graph, so the cost model decides whether the
replacement is used, and explain reports it like any built-in rule.

``extra_check(match)`` runs at match time, as in TorchAir: ``match.kwargs``
maps each parameter of ``search_fn`` to a node-like object whose
``meta["val"]`` is a meta tensor of the matched value's dtype and shape
(symbolic sizes take their hint, default 1024) and whose
``meta["tensor_meta"]`` has ``.shape`` and ``.dtype``; scalar parameters map
to their values.  A refusal is counted and explained like a rule condition.

Registered replacements live in a ``ReplacementRegistry``; the module-level
``register_replacement`` uses the process-wide default one, which
``eqfuse.optimize`` applies unless given ``replacements=`` (a registry of
your own, or ``()`` for none) -- so one model's patterns need not leak into
another's.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import torch

from ._eqfuse import EqfuseError
from . import _eqfuse

__all__ = ["Match", "Replacement", "ReplacementRegistry", "register_replacement",
           "default_registry", "DEFAULT_SYMBOL_SIZE"]

# The size a symbolic dim has in the meta tensors extra_check sees when no hint is given
# (the same default the cost model uses for symbols).
DEFAULT_SYMBOL_SIZE = 1024


class Match:
    """What ``extra_check`` receives (the parts of Inductor's Match that TorchAir's
    checks use): ``kwargs`` by parameter name, ``nodes`` their values, ``rule``."""

    def __init__(self, rule: str, kwargs: Dict[str, Any]):
        self.rule = rule
        self.kwargs = kwargs
        self.nodes = list(kwargs.values())

    def __repr__(self) -> str:
        return f"<eqfuse.Match {self.rule} {sorted(self.kwargs)}>"


class _MatchedNode:
    """A matched tensor, shaped like an FX node for extra_check: ``name`` and ``meta``."""

    def __init__(self, name: str, value: torch.Tensor):
        self.name = name
        self.meta = {"val": value,
                     "tensor_meta": SimpleNamespace(shape=value.shape, dtype=value.dtype)}

    def __repr__(self) -> str:
        return f"<matched {self.name}: {self.meta['val'].dtype} {tuple(self.meta['val'].shape)}>"


@dataclass
class Replacement:
    """One registered replacement: the rule text eqfuse reads and the check."""
    name: str
    rule_text: str
    extra_check: Optional[Callable[[Match], bool]] = None


class ReplacementRegistry:
    """An ordered set of replacements, by rule name."""

    def __init__(self):
        self._items: Dict[str, Replacement] = {}

    def add(self, r: Replacement, skip_duplicates: bool = False) -> bool:
        if r.name in self._items:
            if skip_duplicates:
                return False
            raise EqfuseError(f"register_replacement: a replacement named '{r.name}' is already "
                              f"registered (pass name=... or skip_duplicates=True)")
        self._items[r.name] = r
        return True

    def clear(self) -> None:
        self._items.clear()

    def __iter__(self):
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: str) -> bool:
        return name in self._items


default_registry = ReplacementRegistry()


# ---- tracing ---------------------------------------------------------------------------

def _concrete(example: Any) -> Any:
    """Example inputs as real CPU tensors: TorchAir examples are often FakeTensors (or on
    a device this process lacks); tracing only needs dtypes and shapes."""
    if not isinstance(example, torch.Tensor):
        return example
    shape = tuple(int(d) for d in example.shape)
    if example.dtype.is_floating_point:
        return torch.rand(shape, dtype=torch.float32).to(example.dtype) + 0.5
    if example.dtype == torch.bool:
        return torch.ones(shape, dtype=torch.bool)
    return torch.zeros(shape, dtype=example.dtype)


def _trace(fn: Callable, examples: Sequence[Any], trace_fn: Optional[Callable], what: str):
    from torch.fx.experimental.proxy_tensor import make_fx
    try:
        if trace_fn is not None:
            return trace_fn(fn, examples)
        return make_fx(fn)(*examples)
    except EqfuseError:
        raise
    except Exception as e:  # any tracing failure, named for the user
        raise EqfuseError(f"register_replacement: {what} could not be traced on the example "
                          f"inputs: {type(e).__name__}: {e}") from e


def _parameter_names(fn: Callable, count: int, what: str) -> List[str]:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if not len(required) <= count <= len(positional):
        raise EqfuseError(f"register_replacement: {what} takes {len(positional)} positional "
                          f"parameters but example_inputs has {count} values")
    return [p.name for p in positional[:count]]


# ---- rule text -------------------------------------------------------------------------

def _rename_nodes(value: Any, renames: Dict[str, str]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"node"} and value["node"] in renames:
            return {"node": renames[value["node"]]}
        return {k: _rename_nodes(v, renames) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename_nodes(v, renames) for v in value]
    return value


def _function_text(gm, params: List[str], examples: Sequence[Any], def_name: str) -> str:
    """The traced graph as the indented ``def search(...)`` / ``def replace(...)`` block of
    a rule, its placeholders renamed to the Python function's parameters."""
    from .fx_convert import graph_module_to_document
    doc = graph_module_to_document(gm, list(examples))
    placeholders = [n for n in doc["nodes"] if n["op"] == "placeholder"]
    if len(placeholders) != len(params):
        raise EqfuseError(f"register_replacement: the traced {def_name} graph has "
                          f"{len(placeholders)} inputs, expected {len(params)} ({params}); "
                          f"an unused parameter is dropped by tracing: use every parameter")
    renames = {p["name"]: new for p, new in zip(placeholders, params)}
    taken = set(params)
    for n in doc["nodes"]:  # a body node named like a parameter moves aside
        if n["op"] != "placeholder" and n["name"] in taken:
            renames[n["name"]] = n["name"] + "_v"
    doc = _rename_nodes(doc, renames)
    for n in doc["nodes"]:
        if n["name"] in renames:
            n["name"] = renames[n["name"]]
        if n["op"] == "placeholder":
            n["target"] = n["name"]
    text = _eqfuse.print_fx(doc)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def forward("))
    header = re.sub(r"def forward\(self,?\s*", f"def {def_name}(", lines[start].strip())
    body = [line for line in lines[start + 1:] if line.strip()]
    return "\n".join(["    " + header] + body)


def _rule_text(name: str, bidirectional: bool, search: str, replace: str) -> str:
    arrow = "<=>" if bidirectional else "=>"
    return (f"rule {name} {arrow}\n"
            f"    labels: user, fusion\n"
            f"    description: registered from Python (eqfuse.register_replacement)\n\n"
            f"{search}\n\n{replace}\n")


_DTYPES = {"b8": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16,
           "i32": torch.int32, "i64": torch.int64, "f16": torch.float16, "bf16": torch.bfloat16,
           "f32": torch.float32, "f64": torch.float64}
_DTYPES.update({code: getattr(torch, name) for name, code in
                (("float8_e4m3fn", "f8e4m3fn"), ("float8_e5m2", "f8e5m2"),
                 ("float8_e8m0fnu", "f8e8m0fnu")) if hasattr(torch, name)})


def _meta_value(dtype_code: str, shape: Sequence[Any], hints: Dict[str, int]) -> torch.Tensor:
    sizes = [d if isinstance(d, int) else int(hints.get(d, DEFAULT_SYMBOL_SIZE)) for d in shape]
    return torch.empty(sizes, dtype=_DTYPES.get(dtype_code, torch.float32), device="meta")


def checker_for(r: Replacement, hints: Optional[Dict[str, int]] = None):
    """The callable the C++ rule calls: builds the Match and asks the user's check."""
    hints = dict(hints or {})

    def check(values: Dict[str, Any]) -> bool:
        kwargs: Dict[str, Any] = {}
        for name, v in values.items():
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
                kwargs[name] = _MatchedNode(name, _meta_value(v[0], v[1], hints))
            else:
                kwargs[name] = v
        return bool(r.extra_check(Match(r.name, kwargs)))

    return check


def register_replacement(search_fn: Callable, replace_fn: Callable,
                         example_inputs: Sequence[Any], trace_fn: Optional[Callable] = None,
                         extra_check: Optional[Callable[[Match], bool]] = None,
                         search_fn_pattern: Any = None, *, name: Optional[str] = None,
                         bidirectional: bool = False, skip_duplicates: bool = False,
                         registry: Optional[ReplacementRegistry] = None) -> Replacement:
    """TorchAir's register_replacement: ``search_fn`` -> ``replace_fn`` as an eqfuse rule.

    ``trace_fn(fn, example_inputs)`` returns a GraphModule (default: make_fx).
    ``search_fn_pattern`` may be a ready-made search GraphModule (Inductor pattern objects
    are not supported).  ``name`` defaults to ``user/<search_fn name>``; one direction by
    default, as in TorchAir (``bidirectional=True`` lets the extractor also undo it).
    Returns the Replacement (also added to ``registry``, default: the process-wide one)."""
    if not callable(search_fn) or not callable(replace_fn):
        raise EqfuseError("register_replacement: search_fn and replace_fn must be callables")
    if extra_check is not None and not callable(extra_check):
        raise EqfuseError("register_replacement: extra_check must be a callable taking a Match")
    examples = list(example_inputs)
    concrete = [_concrete(e) for e in examples]
    params = _parameter_names(search_fn, len(examples), "search_fn")
    replace_params = _parameter_names(replace_fn, len(examples), "replace_fn")
    if replace_params != params:
        raise EqfuseError(f"register_replacement: replace_fn's parameters {replace_params} "
                          f"differ from search_fn's {params}")
    if search_fn_pattern is None:
        search_gm = _trace(search_fn, concrete, trace_fn, "search_fn")
    elif isinstance(search_fn_pattern, torch.fx.GraphModule):
        search_gm = search_fn_pattern
    else:
        raise EqfuseError("register_replacement: search_fn_pattern must be a GraphModule "
                          "(Inductor pattern objects are not supported: eqfuse traces search_fn)")
    replace_gm = _trace(replace_fn, concrete, trace_fn, "replace_fn")
    rule_name = name or f"user/{getattr(search_fn, '__name__', 'replacement')}".replace("_", "-")
    text = _rule_text(rule_name, bidirectional,
                      _function_text(search_gm, params, concrete, "search"),
                      _function_text(replace_gm, params, concrete, "replace"))
    r = Replacement(rule_name, text, extra_check)
    _eqfuse.check_rules(text, rule_name)  # a bad rule fails here, not at optimize
    (registry if registry is not None else default_registry).add(r, skip_duplicates)
    return r


def rules_and_checks(replacements: Optional[Iterable[Replacement]], hints=None):
    """(rule texts, {rule name: checker}) for optimize."""
    texts, checks = [], {}
    for r in (default_registry if replacements is None else replacements):
        texts.append(r.rule_text)
        if r.extra_check is not None:
            checks[r.name] = checker_for(r, hints)
    return texts, checks
