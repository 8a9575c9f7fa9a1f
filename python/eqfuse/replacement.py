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

An op of ``search_fn`` or ``replace_fn`` that eqfuse's catalog lacks (a
``torch.library`` op of your own with a fake kernel, a torch_npu op eqfuse
does not know) is taken from torch (torch_ops.py): its schema, and its fake
kernel as its shape function.  Inductor's ``register_replacement`` keywords
are accepted where they can be honoured (see ``register_replacement``).
"""
from __future__ import annotations

import inspect
import re
import warnings
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import torch

from ._eqfuse import EqfuseError
from . import _eqfuse
from . import torch_ops

__all__ = ["Match", "Replacement", "ReplacementRegistry", "register_replacement",
           "default_registry", "DEFAULT_SYMBOL_SIZE", "rules_and_checks", "optimize_inputs"]

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
    """One registered replacement: the rule text eqfuse reads and the check; ``ops``: the
    catalog entries (docs/ops.md) of the ops it calls that eqfuse's catalog lacks, taken
    from torch, and ``op_metas`` their shape functions (torch_ops.py)."""
    name: str
    rule_text: str
    extra_check: Optional[Callable[[Match], bool]] = None
    ops: List[str] = field(default_factory=list)
    op_metas: Dict[str, Callable] = field(default_factory=dict)


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


def _trace(fn: Callable, examples: Sequence[Any], trace_fn: Optional[Callable], what: str,
           get_decomp_fn: Optional[Callable] = None):
    from torch.fx.experimental.proxy_tensor import make_fx
    try:
        if trace_fn is not None:
            if get_decomp_fn is not None:
                return trace_fn(fn, examples, get_decomp_fn=get_decomp_fn)
            return trace_fn(fn, examples)
        if get_decomp_fn is not None:
            return make_fx(fn, get_decomp_fn())(*examples)
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


def _function_text(gm, params: List[str], examples: Sequence[Any], def_name: str):
    """The traced graph as the indented ``def search(...)`` / ``def replace(...)`` block of
    a rule, its placeholders renamed to the Python function's parameters, and the
    graph's document."""
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
    return "\n".join(["    " + header] + body), doc


def _rule_text(name: str, bidirectional: bool, search: str, replace: str,
               trust: bool = False) -> str:
    arrow = "<=>" if bidirectional else "=>"
    return (f"rule {name} {arrow}\n"
            f"    labels: user, fusion\n"
            f"    description: registered from Python (eqfuse.register_replacement)\n"
            + ("    trust: true\n" if trust else "") +
            f"\n{search}\n\n{replace}\n")


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


def _fn_name(fn: Callable, what: str) -> str:
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None)
    return f"{what} '{name}'" if name and name != "<lambda>" else what


def _output_values(gm) -> Optional[List[Any]]:
    """The traced graph's outputs, flattened: each node's meta["val"] (None where a node
    has none), or the constant; None when the graph has no output node."""
    import torch.utils._pytree as pytree
    out = next((n for n in gm.graph.nodes if n.op == "output"), None)
    if out is None:
        return None
    leaves = pytree.tree_leaves(out.args[0])
    return [n.meta.get("val") if isinstance(n, torch.fx.Node) else n for n in leaves]


def _value_text(v: Any) -> str:
    if isinstance(v, torch.Tensor):
        return f"{str(v.dtype).replace('torch.', '')}{list(v.shape)}"
    return type(v).__name__


def _check_outputs(search_gm, replace_gm, search_fn: Callable, replace_fn: Callable) -> None:
    """replace_fn must return what search_fn returns: as many values, each tensor of the
    same dtype and shape (read from the traced graphs' meta)."""
    found, given = _output_values(search_gm), _output_values(replace_gm)
    if found is None or given is None:
        return
    search_name, replace_name = _fn_name(search_fn, "search_fn"), _fn_name(replace_fn, "replace_fn")
    if len(found) != len(given):
        raise EqfuseError(f"register_replacement: {replace_name} returns {len(given)} value(s) "
                          f"but {search_name} returns {len(found)}: the replacement must return "
                          f"what the pattern returns")
    for i, (a, b) in enumerate(zip(found, given)):
        if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
            continue  # no meta (a trace_fn that keeps none), or a scalar
        if a.dtype != b.dtype or [str(d) for d in a.shape] != [str(d) for d in b.shape]:
            raise EqfuseError(f"register_replacement: output {i} of {replace_name} is "
                              f"{_value_text(b)} but output {i} of {search_name} is "
                              f"{_value_text(a)}: the replacement must return what the "
                              f"pattern returns")


def _looks_like_pass_dicts(v: Any) -> bool:
    """Inductor's 5th positional argument: a PatternMatcherPass, a dict of patterns, or a
    sequence of them (TorchAir's 5th is extra_check)."""
    if isinstance(v, (list, tuple, dict)):
        return True
    return type(v).__name__ == "PatternMatcherPass" or hasattr(v, "patterns")


def _is_joint_trace(trace_fn: Optional[Callable]) -> bool:
    fn = getattr(trace_fn, "func", trace_fn)  # functools.partial
    return getattr(fn, "__name__", "") == "joint_fwd_bwd"


def register_replacement(search_fn: Callable, replace_fn: Callable,
                         example_inputs: Sequence[Any], trace_fn: Optional[Callable] = None,
                         extra_check: Optional[Callable[[Match], bool]] = None,
                         search_fn_pattern: Any = None, *, name: Optional[str] = None,
                         bidirectional: bool = False, skip_duplicates: bool = False,
                         registry: Optional[ReplacementRegistry] = None,
                         pass_dicts: Any = None, scalar_workaround: Any = None,
                         exclusive_arg_names: Sequence[str] = (),
                         pattern_name: Optional[str] = None,
                         get_decomp_fn: Optional[Callable] = None,
                         check: bool = True) -> Replacement:
    """TorchAir's register_replacement: ``search_fn`` -> ``replace_fn`` as an eqfuse rule.

    ``trace_fn(fn, example_inputs)`` returns a GraphModule (default: make_fx).
    ``search_fn_pattern`` may be a ready-made search GraphModule (Inductor pattern objects
    are not supported).  ``name`` defaults to ``user/<search_fn name>``; one direction by
    default, as in TorchAir (``bidirectional=True`` lets the extractor also undo it).
    Returns the Replacement (also added to ``registry``, default: the process-wide one).

    Ops of either function that eqfuse's catalog lacks (``torch.ops.mylib.*`` of your
    own, torch_npu ops eqfuse does not know) are taken from torch: their schema, and
    their fake kernel for shapes (torch_ops.py); an op eqfuse can neither find in its
    catalog nor take from torch (no fake kernel, say) is an EqfuseError saying so.
    ``replace_fn`` must return as many values as ``search_fn``, of the same dtypes and
    shapes on the examples (EqfuseError otherwise).

    The rule is proven before it is registered: both functions' graphs run in eqfuse's
    reference interpreter on random values of the examples' types, and an EqfuseError
    naming both functions and giving the counterexample (first differing element,
    outputs, inputs) refuses a replacement that computes something else (docs/rules.md
    "User rules are proven at load": floats within the tolerance of the inputs' dtype,
    so reordered float math passes).  ``check=False`` registers a knowingly inexact
    replacement unchecked (the rule's ``trust: true``).  A rule the interpreter cannot
    run (an op of your own has no reference kernel) is registered with a UserWarning
    saying so.

    Inductor's signature (``torch._inductor.pattern_matcher.register_replacement(
    search_fn, replace_fn, example_inputs, trace_fn, pass_dicts, extra_check=...,
    scalar_workaround=..., exclusive_arg_names=..., search_fn_pattern=...,
    skip_duplicates=..., pattern_name=..., get_decomp_fn=...)``) is accepted too: a pass
    dict (or list of them) in the 5th position is taken as ``pass_dicts`` (the
    argument after it as ``extra_check``).  ``pass_dicts`` is accepted and ignored:
    the rule goes to ``registry`` and eqfuse applies it, not Inductor's pass.
    ``trace_fn`` (``fwd_only``) and ``extra_check`` are honoured, ``pattern_name`` is
    ``name``, ``get_decomp_fn`` is given to ``trace_fn`` (or make_fx).  EqfuseError for
    what cannot be honoured: a ``scalar_workaround`` (scalars are matched as the literals
    of the examples), ``exclusive_arg_names`` (matched inputs are e-classes, not nodes),
    ``trace_fn=joint_fwd_bwd`` (eqfuse rewrites inference graphs) and Inductor pattern
    objects as ``search_fn_pattern``."""
    if _looks_like_pass_dicts(extra_check):  # Inductor's positional order
        if pass_dicts is not None:
            raise EqfuseError("register_replacement: pass_dicts given twice (positionally, in "
                              "Inductor's order, and by keyword)")
        pass_dicts, extra_check = extra_check, None
        if callable(search_fn_pattern) and not isinstance(search_fn_pattern,
                                                          torch.fx.GraphModule):
            extra_check, search_fn_pattern = search_fn_pattern, None
    if not callable(search_fn) or not callable(replace_fn):
        raise EqfuseError("register_replacement: search_fn and replace_fn must be callables")
    if extra_check is not None and not callable(extra_check):
        raise EqfuseError("register_replacement: extra_check must be a callable taking a Match")
    if scalar_workaround:
        raise EqfuseError("register_replacement: scalar_workaround is not supported: eqfuse "
                          "matches the scalars of example_inputs as literals (register one "
                          "replacement per value, or give the scalar as a tensor input)")
    if exclusive_arg_names:
        raise EqfuseError("register_replacement: exclusive_arg_names is not supported: eqfuse "
                          "matches inputs as e-classes, not as distinct FX nodes")
    if _is_joint_trace(trace_fn):
        raise EqfuseError("register_replacement: trace_fn=joint_fwd_bwd (a training pattern) "
                          "cannot be honoured: eqfuse rewrites inference graphs; use fwd_only "
                          "(or leave trace_fn out)")
    if trace_fn is not None and not callable(trace_fn):
        raise EqfuseError("register_replacement: trace_fn must be a callable (fn, "
                          "example_inputs) -> GraphModule")
    if pattern_name is not None:
        if name is not None and name != pattern_name:
            raise EqfuseError(f"register_replacement: name '{name}' and pattern_name "
                              f"'{pattern_name}' differ")
        name = pattern_name
    examples = list(example_inputs)
    concrete = [_concrete(e) for e in examples]
    params = _parameter_names(search_fn, len(examples), "search_fn")
    replace_params = _parameter_names(replace_fn, len(examples), "replace_fn")
    if replace_params != params:
        raise EqfuseError(f"register_replacement: replace_fn's parameters {replace_params} "
                          f"differ from search_fn's {params}")
    if search_fn_pattern is None:
        search_gm = _trace(search_fn, concrete, trace_fn, "search_fn", get_decomp_fn)
    elif isinstance(search_fn_pattern, torch.fx.GraphModule):
        search_gm = search_fn_pattern
    else:
        raise EqfuseError("register_replacement: search_fn_pattern must be a GraphModule "
                          "(Inductor pattern objects are not supported: eqfuse traces search_fn)")
    replace_gm = _trace(replace_fn, concrete, trace_fn, "replace_fn", get_decomp_fn)
    _check_outputs(search_gm, replace_gm, search_fn, replace_fn)
    rule_name = name or f"user/{getattr(search_fn, '__name__', 'replacement')}".replace("_", "-")
    search_text, search_doc = _function_text(search_gm, params, concrete, "search")
    replace_text, replace_doc = _function_text(replace_gm, params, concrete, "replace")
    text = _rule_text(rule_name, bidirectional, search_text, replace_text, trust=not check)
    ops, metas = torch_ops.ops_of_documents([search_doc, replace_doc])
    r = Replacement(rule_name, text, extra_check, ops=ops, op_metas=metas)
    # A bad rule fails here, not at optimize.
    try:
        notes = _eqfuse.check_rules(text, rule_name, ops=ops, op_metas=metas)
    except EqfuseError as e:
        if " is unsound (" in str(e):
            raise _unsound(e, search_fn, replace_fn) from e
        untaken = torch_ops.untaken_ops([search_doc, replace_doc], metas)
        if not untaken:
            raise
        raise EqfuseError(f"{e}\nnote: eqfuse could not take {', '.join(untaken)} from torch: "
                          f"an op needs a fake kernel (torch.library.register_fake or a Meta "
                          f"kernel), a schema without alias annotations and a return value "
                          f"(docs/python.md)") from e
    for note in notes or ():
        warnings.warn(f"eqfuse: {note}", UserWarning, stacklevel=2)
    (registry if registry is not None else default_registry).add(r, skip_duplicates)
    return r


def _unsound(e: EqfuseError, search_fn: Callable, replace_fn: Callable) -> EqfuseError:
    """The load-time check's refusal, naming the Python functions and the Python
    opt-out."""
    text = str(e).replace("`trust: true` skips this check", "check=False skips this check")
    return EqfuseError(f"register_replacement: {_fn_name(replace_fn, 'replace_fn')} does not "
                       f"compute what {_fn_name(search_fn, 'search_fn')} computes: {text}")


def rules_and_checks(replacements: Optional[Iterable[Replacement]], hints=None):
    """(rule texts, {rule name: checker}) for optimize."""
    texts, checks = [], {}
    for r in (default_registry if replacements is None else replacements):
        texts.append(r.rule_text)
        if r.extra_check is not None:
            checks[r.name] = checker_for(r, hints)
    return texts, checks


def optimize_inputs(replacements: Optional[Iterable[Replacement]], hints=None,
                    doc: Optional[Dict[str, Any]] = None):
    """What ``_eqfuse.optimize`` takes besides the graph: (rule texts, {rule name:
    checker}, op catalog entries, {op: shape function}) -- the ops being those that
    the graph ``doc`` and the replacements call, that torch knows and eqfuse's catalog
    lacks (torch_ops.py)."""
    items = list(default_registry if replacements is None else replacements)
    texts, checks = rules_and_checks(items, hints)
    ops, metas = torch_ops.merge_ops(torch_ops.ops_of_documents([doc] if doc else []),
                                     *[(getattr(r, "ops", []), getattr(r, "op_metas", {}))
                                       for r in items])
    return texts, checks, ops, metas
