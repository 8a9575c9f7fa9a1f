"""torch.fx.GraphModule <-> eqfuse-graph documents (docs/graph-json.md, docs/python.md).

``graph_module_to_document`` writes a live GraphModule as the JSON document
the C++ library reads (plain dicts and lists); ``document_to_graph_module``
builds a new GraphModule from an optimized document, calling the real
``torch.ops`` overloads.  What each FX construct becomes is listed in
docs/python.md.
"""
from __future__ import annotations

import math
import re
import operator
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Sequence

import torch
import torch.fx
from torch.fx import GraphModule, Node

from ._eqfuse import EqfuseError

__all__ = ["ConversionContext", "graph_module_to_document", "document_to_graph_module",
           "qualified_name", "resolve_op", "propagate_fake_values"]

# torch.SymInt / SymFloat / SymBool: a symbolic size (or scalar) of a dynamic-shape trace.
_SYMINT = (torch.SymInt,)


def _sym_text(v) -> str:
    return str(v)

_SHORT_DTYPES = {
    torch.bool: "b8", torch.uint8: "u8", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float32: "f32", torch.float64: "f64", torch.complex64: "c64",
    torch.qint8: "qi8", torch.quint8: "qu8", torch.qint32: "qi32",
}
# The 8-bit floats exist from torch 2.1 (e8m0fnu from 2.7): mapped where this torch has them.
_FLOAT8_CODES = {"float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
                 "float8_e8m0fnu": "f8e8m0fnu"}
_SHORT_DTYPES.update({getattr(torch, name): code for name, code in _FLOAT8_CODES.items()
                      if hasattr(torch, name)})


@dataclass
class ConversionContext:
    """What the document cannot carry, kept for the way back: the original
    callables by target text, Python objects written as literals or devices,
    and each input node's meta."""
    targets: Dict[str, Any] = field(default_factory=dict)
    literals: Dict[str, Any] = field(default_factory=dict)
    meta: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    node_targets: Dict[str, Any] = field(default_factory=dict)


def _dtype_name(dt: torch.dtype) -> str:
    return str(dt).replace("torch.", "")


def _dim(d) -> Any:
    if isinstance(d, int):
        return d
    return _sym_text(d)  # SymInt: its expression ("s0", "4*s0")


def _type_of_value(v) -> Any:
    """The document type of a runtime/fake value (docs/graph-json.md, Meta)."""
    if isinstance(v, torch.Tensor):
        short = _SHORT_DTYPES.get(v.dtype)
        dims = ", ".join(str(_dim(d)) for d in v.shape)
        if short is None:
            return None
        return f"{short}[{dims}]"
    if isinstance(v, _SYMINT):
        return f"Sym({_sym_text(v)})"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, (tuple, list)):
        items = [_type_of_value(x) for x in v]
        return items if any(i is not None for i in items) else None
    return None


def _type_of_tensor_meta(tm) -> Any:
    # TensorMetadata is itself a NamedTuple: test for it before sequences.
    if isinstance(tm, (tuple, list)) and not hasattr(tm, "shape"):
        items = [_type_of_tensor_meta(x) for x in tm]
        return items if any(i is not None for i in items) else None
    shape, dtype = getattr(tm, "shape", None), getattr(tm, "dtype", None)
    if shape is None or dtype not in _SHORT_DTYPES:
        return None
    return f"{_SHORT_DTYPES[dtype]}[{', '.join(str(_dim(d)) for d in shape)}]"


def _meta_type(node: Node) -> Any:
    if "val" in node.meta:
        t = _type_of_value(node.meta["val"])
        if t is not None:
            return t
    if "tensor_meta" in node.meta:
        return _type_of_tensor_meta(node.meta["tensor_meta"])
    return None


def qualified_name(target) -> Optional[str]:
    """``torch.ops.aten.add.Tensor`` -> ``aten::add.Tensor``; the default
    overload drops its name (``npu::npu_rms_norm``), as eqfuse names ops.
    An OpOverloadPacket keeps its packet name (``aten::add``), as the FX
    text reader does for ``torch.ops.aten.add``."""
    if isinstance(target, torch._ops.OpOverload):
        name = target._schema.name
        overload = target._overloadname
        return name if overload == "default" else f"{name}.{overload}"
    if isinstance(target, torch._ops.OpOverloadPacket):
        return target._qualified_op_name
    return None


def _callable_text(target) -> str:
    name = getattr(target, "__name__", None)
    if name is not None and getattr(operator, name, None) is target:
        return f"operator.{name}"
    module = getattr(target, "__module__", None) or type(target).__module__
    qual = getattr(target, "__qualname__", None) or name or repr(target)
    if module == "builtins":
        return qual
    return f"{module}.{qual}"


class _ShapeRecorder(torch.fx.Interpreter):
    """ShapeProp without writing into the module: records each node's value.  With a
    fake mode, the module's tensors (get_attr) are read as fake tensors, converted once."""

    def __init__(self, gm, mode=None):
        super().__init__(gm)
        self.values: Dict[str, Any] = {}
        self.mode = mode
        self._fake_attrs: Dict[str, Any] = {}

    def get_attr(self, target, args, kwargs):
        value = super().get_attr(target, args, kwargs)
        if self.mode is None or not isinstance(value, torch.Tensor):
            return value
        if target not in self._fake_attrs:
            self._fake_attrs[target] = _as_fake(self.mode, value)
        return self._fake_attrs[target]

    def run_node(self, n):
        self.current = n.name
        result = super().run_node(n)
        self.values[n.name] = result
        return result


def _data_dependent(e: Exception) -> bool:
    """Whether fake propagation stopped because a value depends on data or an op has no
    fake kernel (the graph is fine; its later nodes are typed by the C++ side), rather
    than because the inputs do not fit the graph."""
    from torch._subclasses import fake_tensor
    kinds = tuple(getattr(fake_tensor, k) for k in (
        "DataDependentOutputException", "DynamicOutputShapeException",
        "UnsupportedOperatorException", "UnsupportedFakeTensorException") if hasattr(fake_tensor, k))
    try:
        from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode
        kinds += (GuardOnDataDependentSymNode,)
    except ImportError:
        pass
    return isinstance(e, kinds) or "no fake" in str(e).lower() or "meta" in type(e).__name__.lower()


def _check_example_inputs(gm: GraphModule, example_inputs: Sequence[Any]) -> None:
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if not isinstance(example_inputs, (list, tuple)):
        raise EqfuseError(f"example_inputs: expected a list or tuple of inputs, got "
                          f"{type(example_inputs).__name__}")
    if len(example_inputs) != len(placeholders):
        raise EqfuseError(f"example_inputs: the graph has {len(placeholders)} inputs "
                          f"({', '.join(p.name for p in placeholders)}) but "
                          f"{len(example_inputs)} example inputs were given")
    for p, v in zip(placeholders, example_inputs):
        if not isinstance(v, (torch.Tensor, int, float, bool) + _SYMINT) and v is not None:
            raise EqfuseError(f"example_inputs: input '{p.name}' is a {type(v).__name__}; "
                              f"expected a tensor or a number")


def _fake_mode_for(values: Sequence[Any]):
    """The FakeTensorMode the values (or the current torch.compile trace) use, else a new one
    that accepts real tensors (a module's parameters) as constants."""
    from torch._guards import detect_fake_mode
    from torch._subclasses.fake_tensor import FakeTensorMode
    try:
        mode = detect_fake_mode([v for v in values if isinstance(v, torch.Tensor)])
    except AssertionError:  # fake tensors of several modes: start afresh (_as_fake copies them)
        mode = None
    if mode is None:
        mode = FakeTensorMode(allow_non_fake_inputs=True)
    return mode


def _as_fake(mode, v):
    from torch._subclasses.fake_tensor import FakeTensor
    if isinstance(v, FakeTensor) and v.fake_mode is not mode:
        with mode:  # another mode's fake tensor: a new one of the same metadata
            return torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device=v.device)
    if isinstance(v, torch.Tensor) and not isinstance(v, FakeTensor):
        return mode.from_tensor(v)
    return v


def _example_values(gm: GraphModule, example_inputs: Sequence[Any]) -> Dict[str, Any]:
    """Each node's value as fake tensors propagated from the example inputs (their
    shapes and dtypes only): the model's arithmetic never runs.  A node whose fake
    propagation fails (data-dependent output sizes, an op without a fake kernel)
    and every node after it stay untyped here; the C++ side infers their types."""
    _check_example_inputs(gm, example_inputs)
    mode = _fake_mode_for(example_inputs)
    fake_inputs = [_as_fake(mode, v) for v in example_inputs]
    rec = _ShapeRecorder(gm, mode)
    rec.current = None
    try:
        with mode, torch.no_grad():
            rec.run(*fake_inputs)
    except EqfuseError:
        raise
    except Exception as e:  # noqa: BLE001
        if not _data_dependent(e):  # the inputs do not fit the graph
            raise EqfuseError(f"example_inputs: the graph rejects them at node "
                              f"'{rec.current}': {type(e).__name__}: {e}") from e
        # What was recorded before a data-dependent node stays; the rest is typed in C++.
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for p, v in zip(placeholders, example_inputs):
        rec.values.setdefault(p.name, v)
    return rec.values


def propagate_fake_values(gm: GraphModule, example_inputs: Optional[Sequence[Any]] = None) -> None:
    """Sets ``meta["val"]`` (a FakeTensor) on every node of ``gm`` from its placeholders'
    ``meta["val"]`` (or ``example_inputs``), as AOTAutograd leaves them: what Inductor and
    other FX passes read.  Runs no real arithmetic."""
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    inputs = [n.meta.get("val") for n in placeholders]
    if example_inputs is not None and any(v is None for v in inputs):
        _check_example_inputs(gm, example_inputs)
        inputs = list(example_inputs)
    missing = [p.name for p, v in zip(placeholders, inputs) if v is None]
    if missing:
        raise EqfuseError(f"cannot type the optimized graph: input '{missing[0]}' has no "
                          f"meta['val'] and no example input was given")
    mode = _fake_mode_for(inputs)
    fake_inputs = [_as_fake(mode, v) for v in inputs]
    with torch.no_grad():
        FakeTensorProp(gm, mode).propagate_dont_convert_inputs(*fake_inputs)


def _attr(gm: torch.nn.Module, path: str):
    obj = gm
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _needs_example_run(gm: GraphModule) -> bool:
    return any(_meta_type(n) is None for n in gm.graph.nodes
               if n.op in ("placeholder", "call_function"))


def _untyped_calls_typed_by_eqfuse(gm: GraphModule) -> bool:
    """Whether every untyped call is an operator overload: the C++ side types those
    itself (its meta functions, or the op's own fake kernel through torch_ops), so only
    the inputs need types and nothing is propagated in Python."""
    return all(isinstance(n.target, torch._ops.OpOverload) for n in gm.graph.nodes
               if n.op == "call_function" and _meta_type(n) is None
               and n.target is not operator.getitem)


def _input_values(gm: GraphModule, example_inputs: Sequence[Any]) -> Dict[str, Any]:
    _check_example_inputs(gm, example_inputs)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    return {p.name: v for p, v in zip(placeholders, example_inputs)}


class _Writer:
    def __init__(self, ctx: ConversionContext):
        self.ctx = ctx

    def arg(self, v, where: str):
        if isinstance(v, Node):
            return {"node": v.name}
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            if math.isfinite(v):
                return v
            return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
        if isinstance(v, torch.dtype):
            return {"dtype": _dtype_name(v)}
        if isinstance(v, torch.device):
            text = str(v)
            self.ctx.literals[f"device:{text}"] = v
            return {"device": text}
        if isinstance(v, (torch.memory_format, torch.layout)):
            text = str(v)
            self.ctx.literals[text] = v
            return {"literal": text}
        if isinstance(v, list):
            return [self.arg(x, f"{where}[{i}]") for i, x in enumerate(v)]
        if isinstance(v, tuple):
            return {"tuple": [self.arg(x, f"{where}[{i}]") for i, x in enumerate(v)]}
        if isinstance(v, torch.Tensor):
            raise EqfuseError(f"{where}: a tensor constant inside the arguments; eqfuse reads "
                              f"constants from get_attr nodes (make_fx lifts them)")
        # Anything else (slice, Ellipsis, ...) travels as an opaque literal.
        text = f"{type(v).__name__}:{v!r}"
        self.ctx.literals[text] = v
        return {"literal": text}


def graph_module_to_document(gm: GraphModule, example_inputs: Optional[Sequence[Any]] = None,
                             ctx: Optional[ConversionContext] = None) -> Dict[str, Any]:
    """The eqfuse-graph document of ``gm`` (dicts and lists).  ``gm`` is not
    modified.  Types come from ``node.meta`` ("val", then "tensor_meta"), or,
    when some are missing and ``example_inputs`` is given, from them: the
    inputs' types directly when every untyped call is an op overload (eqfuse
    infers the rest), else fake tensors propagated through the graph (shapes
    and dtypes only: the model's arithmetic never runs)."""
    if not isinstance(gm, GraphModule):
        raise EqfuseError(f"expected a torch.fx.GraphModule, got {type(gm).__name__} "
                          f"(trace the model first, e.g. with make_fx)")
    ctx = ctx if ctx is not None else ConversionContext()
    values: Dict[str, Any] = {}
    if example_inputs is not None and _needs_example_run(gm):
        if _untyped_calls_typed_by_eqfuse(gm):
            values = _input_values(gm, example_inputs)
        else:
            values = _example_values(gm, example_inputs)
    w = _Writer(ctx)
    nodes = []
    for n in gm.graph.nodes:
        ctx.meta[n.name] = dict(n.meta)
        ctx.node_targets[n.name] = n.target
        where = f"node '{n.name}'"
        t = _meta_type(n)
        if t is None and n.name in values:
            t = _type_of_value(values[n.name])
        entry: Dict[str, Any] = {"name": n.name, "op": n.op}
        if n.op == "placeholder":
            entry["target"] = n.target
            entry["args"] = []
        elif n.op == "get_attr":
            entry["target"] = n.target
            entry["args"] = []
            try:
                value = _attr(gm, n.target)
            except AttributeError as e:
                raise EqfuseError(f"{where}: get_attr '{n.target}' does not name an attribute "
                                  f"of the module") from e
            if t is None:
                t = _type_of_value(value)
        elif n.op == "call_function":
            if (n.target is operator.getitem and len(n.args) == 2 and isinstance(n.args[0], Node)
                    and type(n.args[1]) is int and _is_multi_output(n.args[0], values)):
                entry["op"] = "getitem"
                entry["target"] = ""
                entry["args"] = [{"node": n.args[0].name}, n.args[1]]
            else:
                text = qualified_name(n.target)
                if text is None:
                    text = _callable_text(n.target)
                ctx.targets.setdefault(text, n.target)
                entry["target"] = text
                entry["args"] = [w.arg(a, f"{where}.args[{i}]") for i, a in enumerate(n.args)]
                entry["kwargs"] = {k: w.arg(v, f"{where}.kwargs.{k}") for k, v in n.kwargs.items()}
        elif n.op == "output":
            entry["target"] = ""
            if len(n.args) != 1:
                raise EqfuseError(f"{where}: the output node has {len(n.args)} arguments "
                                  f"(expected 1)")
            entry["args"] = [w.arg(n.args[0], f"{where}.args[0]")]
            t = None
        else:
            raise EqfuseError(
                f"{where}: {n.op} nodes are not supported (target {n.target!r}); eqfuse reads "
                f"graphs of operator calls: trace the model with make_fx (or AOTAutograd) so "
                f"that every call is a call_function")
        if t is not None:
            entry["meta"] = {"type": t}
        nodes.append(entry)
    name = type(gm).__name__
    return {"format": "eqfuse-graph", "version": 1,
            "name": name if name.isidentifier() else "GraphModule", "nodes": nodes}


def _is_multi_output(src: Node, values: Dict[str, Any]) -> bool:
    if src.op != "call_function":
        return False
    if isinstance(src.target, torch._ops.OpOverload):
        # A tuple of results, or one list of tensors (split, split_with_sizes,
        # unbind): either way its items are projections, not calls.
        returns = src.target._schema.returns
        return len(returns) > 1 or (len(returns) == 1
                                    and isinstance(returns[0].type, torch._C.ListType))
    v = src.meta.get("val", values.get(src.name))
    return isinstance(v, (tuple, list))


_PYTHON_MODULES = {"operator": operator, "_operator": operator, "math": math}


def resolve_op(text: str):
    """``ns::name.overload`` -> ``torch.ops.ns.name.overload`` (the default
    overload when none is named); a Python builtin on sizes (``operator.add``, which
    eqfuse writes when it computes symbolic sizes) -> that function; EqfuseError naming
    the op when this process has not registered it (torch_npu not imported, say)."""
    module, dot, attr = text.partition(".")
    if dot and module in _PYTHON_MODULES and hasattr(_PYTHON_MODULES[module], attr):
        return getattr(_PYTHON_MODULES[module], attr)
    ns, sep, rest = text.partition("::")
    if not sep or not ns or not rest:
        raise EqfuseError(f"the optimized graph calls '{text}', which is not a torch.ops name")
    name, _, overload = rest.partition(".")
    overload = overload or "default"
    try:
        packet = getattr(getattr(torch.ops, ns), name)
        return getattr(packet, overload)
    except (AttributeError, RuntimeError) as e:
        raise EqfuseError(
            f"the optimized graph calls {text} (torch.ops.{ns}.{name}.{overload}), which is not "
            f"registered in this process: import the library that defines it (torch_npu for "
            f"npu:: ops) before building the GraphModule") from e


def _resolve_literal(text: str, ctx: ConversionContext):
    if text in ctx.literals:
        return ctx.literals[text]
    if text.startswith("torch."):
        obj = torch
        try:
            for part in text.split(".")[1:]:
                obj = getattr(obj, part)
            return obj
        except AttributeError:
            pass
    raise EqfuseError(f"the optimized graph has the literal '{text}', which has no Python value")


class _Reader:
    def __init__(self, env: Dict[str, Node], ctx: ConversionContext):
        self.env, self.ctx = env, ctx

    def arg(self, j):
        if j is None or isinstance(j, (bool, int, float, str)):
            return j
        if isinstance(j, list):
            return [self.arg(x) for x in j]
        if isinstance(j, dict) and len(j) == 1:
            (tag, v), = j.items()
            if tag == "node":
                return self.env[v]
            if tag == "tuple":
                return tuple(self.arg(x) for x in v)
            if tag == "dtype":
                dt = getattr(torch, v, None)
                if not isinstance(dt, torch.dtype):
                    raise EqfuseError(f"unknown dtype '{v}' in the optimized graph")
                return dt
            if tag == "device":
                if f"device:{v}" in self.ctx.literals:
                    return self.ctx.literals[f"device:{v}"]
                try:
                    return torch.device(v)
                except RuntimeError as e:
                    raise EqfuseError(f"device '{v}' is not known to this torch: {e}") from e
            if tag == "float":
                return float(v)
            if tag == "literal":
                return _resolve_literal(v, self.ctx)
        raise EqfuseError(f"unexpected argument {j!r} in the optimized graph")


def document_to_graph_module(doc: Dict[str, Any], root: GraphModule,
                             ctx: ConversionContext) -> GraphModule:
    """A NEW GraphModule for ``doc``: calls resolve to ``torch.ops``
    overloads (or the input's own callables for targets it had), get_attr
    nodes to ``root``'s attributes, and nodes the input had keep its meta."""
    graph = torch.fx.Graph()
    env: Dict[str, Node] = {}
    r = _Reader(env, ctx)
    for j in doc["nodes"]:
        name, op = j["name"], j["op"]
        args = [r.arg(a) for a in j.get("args", [])]
        kwargs = {k: r.arg(v) for k, v in j.get("kwargs", {}).items()}
        if op == "placeholder":
            node = graph.placeholder(j.get("target") or name)
        elif op == "get_attr":
            node = graph.get_attr(j["target"])
        elif op == "getitem":
            node = graph.create_node("call_function", operator.getitem, tuple(args), {}, name=name)
        elif op == "call_function":
            text = j["target"]
            target = ctx.targets.get(text)
            if target is None:
                target = resolve_op(text)
            node = graph.create_node("call_function", target, tuple(args), kwargs, name=name)
        elif op == "output":
            graph.output(args[0])
            continue
        else:
            raise EqfuseError(f"node '{name}': unexpected op '{op}' in the optimized graph")
        old = ctx.meta.get(name)
        if old is not None and (op in ("placeholder", "get_attr") or
                                ctx.node_targets.get(name) is node.target):
            node.meta.update(old)
        env[name] = node
    graph.lint()
    return GraphModule(root, graph, class_name=type(root).__name__)
