"""Ops torch knows and eqfuse's catalog does not (docs/python.md, "Ops from torch").

A graph handed to ``eqfuse.optimize`` (or a ``register_replacement`` search/replace
function) may call an op that torch has registered -- a ``torch.library`` op of your
own, a torch_npu op eqfuse lacks, a rarer aten op -- but that is not in eqfuse's op
catalog (graph/ops/*.schemas).  Such an op is taken from torch:

* its **schema** is ``OpOverload._schema`` (torch's own text, which eqfuse's schema
  parser reads), written as a catalog entry (docs/ops.md) ``<schema> | kind=<kind>``;
* its **kind** is ``elementwise`` when at every call seen its one tensor output has
  the broadcast shape of its tensor inputs, else ``other`` (the cost model prices by
  kind; nothing else depends on it);
* its **shape function** runs the op's fake (meta) kernel on FakeTensors of the call's
  argument types (``meta_function``), symbolic dims included.

An op eqfuse cannot take this way stays opaque, as before, and is never an error: no
usable fake kernel (Meta, ``register_fake``, CompositeExplicit/ImplicitAutograd), a
schema eqfuse's parser rejects, alias annotations (views, in-place or ``out=`` ops),
no returns, or a random op (``nondeterministic_seeded``: equal calls must not merge).
"""
from __future__ import annotations

import ast
import operator
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import torch

from . import _eqfuse

__all__ = ["known_ops", "resolve_overload", "catalog_entry", "meta_function", "torch_ops_for",
           "ops_of_documents", "ops_of_graph_modules", "merge_ops", "untaken_ops"]

# eqfuse's dtype codes (fx_convert._SHORT_DTYPES) both ways.
_CODES: Dict[torch.dtype, str] = {
    torch.bool: "b8", torch.uint8: "u8", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float32: "f32", torch.float64: "f64", torch.complex64: "c64",
    torch.qint8: "qi8", torch.quint8: "qu8", torch.qint32: "qi32",
}
_CODES.update({getattr(torch, name): code for name, code in
               (("float8_e4m3fn", "f8e4m3fn"), ("float8_e5m2", "f8e5m2"),
                ("float8_e8m0fnu", "f8e8m0fnu")) if hasattr(torch, name)})
_DTYPES: Dict[str, torch.dtype] = {code: dt for dt, code in _CODES.items()}

# torch's ScalarType codes (c10/core/ScalarType.h), for ScalarType arguments given as ints.
_SCALAR_TYPE_CODES = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32,
                      4: torch.int64, 5: torch.float16, 6: torch.float32, 7: torch.float64,
                      9: torch.complex64, 11: torch.bool, 15: torch.bfloat16}

# Distinct sizes for the symbols of a symbolic call: no two dims are equal by accident
# (a kernel's guard on such an equality would make the answer wrong for other sizes).
_SYMBOL_HINT_BASE = 1031
_SYMBOL_HINT_STEP = 64
_CACHE_LIMIT = 4096

_known: Optional[frozenset] = None


def known_ops() -> frozenset:
    """Qualified names of the ops of eqfuse's built-in catalog."""
    global _known
    if _known is None:
        _known = frozenset(_eqfuse.known_ops())
    return _known


def qualified_name(op) -> Optional[str]:
    """``torch.ops.aten.add.Tensor`` -> ``aten::add.Tensor``, the default overload
    without its name (``mylib::add_relu``); None for anything but an OpOverload."""
    if not isinstance(op, torch._ops.OpOverload):
        return None
    name, overload = op._schema.name, op._overloadname
    return name if overload == "default" else f"{name}.{overload}"


def resolve_overload(name: str):
    """The OpOverload ``ns::name[.overload]`` names in this process (the default overload
    when none is named), or None."""
    ns, sep, rest = name.partition("::")
    if not sep or not ns or not rest:
        return None
    op_name, _, overload = rest.partition(".")
    try:
        packet = getattr(getattr(torch.ops, ns), op_name)
        op = getattr(packet, overload or "default")
    except Exception:  # AttributeError, RuntimeError: not registered here
        return None
    return op if isinstance(op, torch._ops.OpOverload) else None


# ---- which ops can be taken --------------------------------------------------------------

def _has_fake_kernel(op) -> bool:
    name = op.name()
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    for key in ("Meta", "CompositeImplicitAutograd", "CompositeExplicitAutograd"):
        try:
            if has(name, key):
                return True
        except Exception:
            pass
    try:
        if torch._C.DispatchKey.Meta in getattr(op, "py_kernels", {}):
            return True
    except Exception:
        pass
    try:
        from torch._library.simple_registry import singleton
        entry = singleton.find(op._schema.name)
        if getattr(entry.fake_impl, "kernel", None) is not None:
            return True
    except Exception:
        pass
    return False


def _usable(op) -> bool:
    schema = op._schema
    if not schema.returns:
        return False  # side effects only: eqfuse would drop an unused call
    if any(a.alias_info is not None for a in list(schema.arguments) + list(schema.returns)):
        return False  # views, in-place and out= ops: eqfuse would not know what aliases
    if any(str(a.type).startswith("Generator") for a in schema.arguments):
        return False
    nondeterministic = getattr(torch.Tag, "nondeterministic_seeded", None)
    if nondeterministic is not None and nondeterministic in getattr(op, "tags", ()):
        return False  # random: two equal calls must stay two calls
    return _has_fake_kernel(op)


def schema_text(op) -> str:
    """The op's torch schema as eqfuse's schema parser reads it (torch's own text: the
    parser takes its grammar, docs/ops.md)."""
    return " ".join(str(op._schema).split())


def catalog_entry(op, kind: str = "other") -> str:
    """The docs/ops.md catalog line for ``op``."""
    return f"{schema_text(op)} | kind={kind}"


_entry_ok: Dict[str, bool] = {}


def _check_entries(entries: Dict[str, str]) -> Dict[str, str]:
    """The entries eqfuse's catalog loader accepts (each checked once per process)."""
    todo = [n for n in entries if n not in _entry_ok]
    if todo:
        errors = _eqfuse.check_ops([entries[n] for n in todo])
        for n, err in zip(todo, errors):
            _entry_ok[n] = err is None
    return {n: e for n, e in entries.items() if _entry_ok[n]}


# ---- kind from the calls seen ------------------------------------------------------------

def _dims_of(annotation: Any) -> Optional[List[str]]:
    """``"f32[2, s0]"`` (strides and device may follow) -> ``["2", "s0"]``; None for
    anything else (tuples, scalars)."""
    if not isinstance(annotation, str):
        return None
    open_at = annotation.find("[")
    close_at = annotation.find("]", open_at + 1)
    if open_at <= 0 or close_at < 0:
        return None
    body = annotation[open_at + 1:close_at].strip()
    return [d.strip() for d in body.split(",")] if body else []


def _broadcast(shapes: Sequence[List[str]]) -> Optional[List[str]]:
    rank = max(len(s) for s in shapes)
    out: List[str] = []
    for i in range(rank):
        dim = "1"
        for s in shapes:
            j = len(s) - rank + i
            if j < 0:
                continue
            d = s[j]
            if d == "1" or d == dim:
                continue
            if dim == "1":
                dim = d
            else:
                return None
        out.append(dim)
    return out


def _node_args(value: Any, out: List[str]) -> None:
    if isinstance(value, dict):
        if set(value) == {"node"}:
            out.append(value["node"])
            return
        for v in value.values():
            _node_args(v, out)
    elif isinstance(value, list):
        for v in value:
            _node_args(v, out)


def _elementwise_site(node: Dict[str, Any], types: Dict[str, Any]) -> bool:
    """One call: a tensor output with the broadcast shape of the tensor arguments, every
    argument node given directly (not inside a list)."""
    out = _dims_of(node.get("meta", {}).get("type"))
    if out is None:
        return False
    inputs = []
    values = list(node.get("args", [])) + list(node.get("kwargs", {}).values())
    for v in values:
        if isinstance(v, dict) and set(v) == {"node"}:
            dims = _dims_of(types.get(v["node"]))
            if dims is not None:
                inputs.append(dims)
            elif isinstance(types.get(v["node"]), list):
                return False
        else:
            nested: List[str] = []
            _node_args(v, nested)
            if nested:
                return False  # a list of tensors: cat-like, not elementwise
    return bool(inputs) and _broadcast(inputs) == out


# ---- shape inference from the fake kernel ------------------------------------------------

class _CannotType(Exception):
    """The call's arguments cannot be built as fake values: the type stays unknown."""


def _fake_failure_types() -> Tuple[type, ...]:
    names = [("torch._subclasses.fake_tensor", "UnsupportedOperatorException"),
             ("torch._subclasses.fake_tensor", "DynamicOutputShapeException"),
             ("torch._subclasses.fake_tensor", "DataDependentOutputException"),
             ("torch._subclasses.fake_tensor", "UnsupportedFakeTensorException"),
             ("torch.fx.experimental.symbolic_shapes", "GuardOnDataDependentSymNode")]
    found: List[type] = [NotImplementedError]
    for module, name in names:
        try:
            mod = __import__(module, fromlist=[name])
            found.append(getattr(mod, name))
        except (ImportError, AttributeError):
            pass
    return tuple(found)


_ALLOWED_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                   ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
                   ast.Pow: operator.pow}


class _Symbols:
    """eqfuse's symbol names <-> the symbols of one ShapeEnv."""

    def __init__(self):
        self.env = None
        self.by_name: Dict[str, Any] = {}    # our name -> SymInt
        self.names: Dict[Any, str] = {}      # ShapeEnv sympy symbol -> our name

    def make_env(self) -> None:
        from torch.fx.experimental.symbolic_shapes import ShapeEnv
        self.env = ShapeEnv(duck_shape=False)

    def _symbol(self, name: str):
        if name not in self.by_name:
            from torch._dynamo.source import ConstantSource
            from torch.fx.experimental.symbolic_shapes import DimDynamic
            if self.env is None:
                self.make_env()
            hint = _SYMBOL_HINT_BASE + _SYMBOL_HINT_STEP * len(self.by_name)
            sym = self.env.create_symbol(hint, source=ConstantSource(f"eqfuse_{name}"),
                                         dynamic_dim=DimDynamic.DYNAMIC)
            self.by_name[name] = self.env.create_symintnode(sym, hint=hint)
            self.names[sym] = name
        return self.by_name[name]

    def value(self, text: str):
        """A dim or SymInt written by eqfuse (``s0``, ``4*s0``, ``(s0 + 1)//2``)."""
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            raise _CannotType(text) from e
        return self._eval(tree.body, text)

    def _eval(self, n, text: str):
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.Name):
            return self._symbol(n.id)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -self._eval(n.operand, text)
        if isinstance(n, ast.BinOp) and type(n.op) in _ALLOWED_BINOPS:
            return _ALLOWED_BINOPS[type(n.op)](self._eval(n.left, text),
                                               self._eval(n.right, text))
        raise _CannotType(text)  # floor(), Max(), ...: not built

    def text(self, d) -> Any:
        """A dim of an output: an int, eqfuse's text of the expression, or None when it
        has a symbol of its own (data-dependent) or one eqfuse cannot spell."""
        if isinstance(d, int):
            return d
        try:
            expr = d.node.expr
        except AttributeError:
            return None
        if expr.is_number:
            return int(expr)
        if not all(s in self.names for s in expr.free_symbols):
            return None
        import sympy
        renamed = expr.xreplace({s: sympy.Symbol(self.names[s], integer=True, positive=True)
                                 for s in expr.free_symbols})
        return str(renamed)

    def guard_count(self) -> int:
        if self.env is None:
            return 0
        asserts = getattr(self.env, "deferred_runtime_asserts", {}) or {}
        return len(self.env.guards) + sum(len(v) for v in asserts.values())


def _base_type(arg) -> str:
    """The base of an argument's type: ``Tensor?[]`` -> ``Tensor``, ``SymInt[]`` ->
    ``SymInt``, ``ScalarType?`` -> ``ScalarType``."""
    t = getattr(arg, "real_type", None) or arg.type
    text = str(t)
    for ch in "?[]0123456789":
        text = text.replace(ch, "")
    return text.strip()


def _literal(text: str):
    obj = torch
    for part in text.split(".")[1:] if text.startswith("torch.") else text.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise _CannotType(text)
    return obj


class _FakeMeta:
    """The shape function of one op: the call's argument descriptions (from C++,
    python/src/module.cpp) -> one output description per schema return."""

    def __init__(self, op):
        self.op = op
        self.name = qualified_name(op) or str(op)
        self.schema = op._schema
        self.cache: Dict[str, Any] = {}
        self.failures = _fake_failure_types()

    def __repr__(self) -> str:
        return f"<eqfuse fake-kernel shape function of {self.name}>"

    def __call__(self, args: List[Any]) -> Any:
        key = repr(args)
        if key in self.cache:
            hit = self.cache[key]
            if isinstance(hit, BaseException):
                raise hit
            return hit
        try:
            result = self._compute(args)
        except Exception as e:
            self._remember(key, e)
            raise
        self._remember(key, result)
        return result

    def _remember(self, key: str, value: Any) -> None:
        if len(self.cache) >= _CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = value

    def _compute(self, args: List[Any]) -> Any:
        if _has_unknown(args):
            return None
        arguments = list(self.schema.arguments)
        if len(args) != len(arguments):
            return None
        syms = _Symbols()
        symbolic = _has_symbolic(args, arguments)
        try:
            with _no_outer_modes(), _quiet_fake_tensor_log():
                if symbolic:
                    syms.make_env()
                mode = _fake_mode(syms.env)
                with mode:
                    positional, kwargs = [], {}
                    for a, sa in zip(args, arguments):
                        v = self._value(a, _base_type(sa), syms)
                        if sa.kwarg_only:
                            kwargs[sa.name] = v
                        else:
                            positional.append(v)
                guards = syms.guard_count()
                try:
                    with mode:
                        out = self.op(*positional, **kwargs)
                except self.failures:
                    return None  # no fake kernel after all, or a data-dependent shape
                except Exception:
                    if symbolic:
                        return None  # the sizes eqfuse picked for the symbols may not fit
                    raise
                if symbolic and syms.guard_count() != guards:
                    return None  # the answer holds only under a guard on the sizes
                return self._describe_outputs(out, syms)
        except _CannotType:
            return None

    def _value(self, a: Any, base: str, syms: _Symbols):
        if a is None or isinstance(a, bool):
            return a
        if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str):
            dtype = _DTYPES.get(a[0])
            if dtype is None:
                raise _CannotType(a[0])
            sizes = [syms.value(d) if isinstance(d, str) else int(d) for d in a[1]]
            return torch.empty(sizes, dtype=dtype)
        if isinstance(a, list):
            return [self._value(x, base, syms) for x in a]
        if isinstance(a, int):
            if base == "ScalarType":
                if a not in _SCALAR_TYPE_CODES:
                    raise _CannotType(str(a))
                return _SCALAR_TYPE_CODES[a]
            return a
        if isinstance(a, float):
            return a
        if isinstance(a, str):
            if base in ("int", "SymInt"):
                return syms.value(a)
            if base == "ScalarType":
                dtype = getattr(torch, a, None)
                if not isinstance(dtype, torch.dtype):
                    raise _CannotType(a)
                return dtype
            if base == "Device":
                return torch.device(a)
            if base in ("Layout", "MemoryFormat"):
                return _literal(a)
            if base in ("float", "SymFloat", "Scalar") and a in ("nan", "inf", "-inf"):
                return float(a)
            return a
        raise _CannotType(repr(a))

    def _describe_outputs(self, out: Any, syms: _Symbols) -> List[Any]:
        returns = list(self.schema.returns)
        values = [out] if len(returns) == 1 else list(out)
        return [_describe(v, syms) for v in values]


def _describe(v: Any, syms: _Symbols) -> Any:
    if isinstance(v, torch.Tensor):
        code = _CODES.get(v.dtype)
        if code is None:
            return None
        dims = [syms.text(d) for d in v.shape]
        return (code, None if any(d is None for d in dims) else dims)
    if isinstance(v, (list, tuple)):
        return [_describe(x, syms) for x in v]
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, torch.SymInt):
        return syms.text(v)
    if isinstance(v, float):
        return v
    return None


def _has_unknown(v: Any) -> bool:
    if v is Ellipsis:
        return True
    return isinstance(v, list) and any(_has_unknown(x) for x in v)


def _has_symbolic(args: List[Any], arguments) -> bool:
    def sym(v, base):
        if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
            return any(isinstance(d, str) for d in v[1])
        if isinstance(v, list):
            return any(sym(x, base) for x in v)
        return isinstance(v, str) and base in ("int", "SymInt")
    return any(sym(a, _base_type(sa)) for a, sa in zip(args, arguments))


_concrete_mode = None


def _fake_mode(shape_env):
    """A FakeTensorMode: a new one for a symbolic call (with its ShapeEnv), else one
    shared by the concrete calls."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    global _concrete_mode
    if shape_env is not None:
        return FakeTensorMode(shape_env=shape_env, allow_non_fake_inputs=True)
    if _concrete_mode is None:
        _concrete_mode = FakeTensorMode(allow_non_fake_inputs=True)
    return _concrete_mode


class _quiet_fake_tensor_log:
    """FakeTensorMode logs a traceback when a meta kernel raises; eqfuse asks kernels
    about calls that may not type-check (candidate rewrites), so that is not news."""

    def __enter__(self):
        import logging
        self._logger = logging.getLogger("torch._subclasses.fake_tensor")
        self._disabled = self._logger.disabled
        self._logger.disabled = True
        return self

    def __exit__(self, *exc):
        self._logger.disabled = self._disabled
        return False


class _no_outer_modes:
    """Runs the fake kernel outside any dispatch mode of the caller (a backend called
    under Dynamo's FakeTensorMode, a make_fx trace)."""

    def __enter__(self):
        try:
            from torch.utils._python_dispatch import _disable_current_modes
            self._ctx = _disable_current_modes()
        except ImportError:
            self._ctx = None
        if self._ctx is not None:
            self._ctx.__enter__()
        return self

    def __exit__(self, *exc):
        if self._ctx is not None:
            return self._ctx.__exit__(*exc)
        return False


_metas: Dict[Any, _FakeMeta] = {}


def meta_function(op) -> Callable[[List[Any]], Any]:
    """The shape function eqfuse calls for ``op`` (one per op and process, with a cache of
    answers): it takes one description per schema argument -- a tensor as ``(dtype
    code, [dims])`` with symbolic dims as text (``"s0"``, ``"2*s0"``), a SymInt as an
    int or its text, a constant as its value (a dtype by its torch name), a list item by
    item, ``None``, and ``Ellipsis`` for a value of unknown type -- builds FakeTensors
    (symbolic dims as symbols of a ShapeEnv), runs the op's fake kernel and returns one
    description per schema return (``None`` where unknown; ``None`` alone when the call
    cannot be typed).  An exception of the kernel on concrete shapes propagates (eqfuse
    reports it naming the op); on symbolic shapes, or when the kernel is missing or the
    output shape is data-dependent, the answer is ``None``."""
    if op not in _metas:
        _metas[op] = _FakeMeta(op)
    return _metas[op]


# ---- the catalog for a set of ops --------------------------------------------------------

def torch_ops_for(ops: Iterable[Any], kinds: Optional[Dict[str, str]] = None
                  ) -> Tuple[List[str], Dict[str, Callable]]:
    """(catalog entries, {qualified name: shape function}) for those of ``ops``
    (OpOverloads; anything else is ignored) that eqfuse's catalog lacks and that can be
    taken from torch; ``kinds`` gives an op's kind by qualified name (default
    ``other``).  Never raises for an op it cannot take: that op stays opaque."""
    kinds = kinds or {}
    entries: Dict[str, str] = {}
    overloads: Dict[str, Any] = {}
    for op in ops:
        name = qualified_name(op)
        if name is None or name in known_ops() or name in entries:
            continue
        try:
            if not _usable(op):
                continue
            entries[name] = catalog_entry(op, kinds.get(name, "other"))
        except Exception:  # an exotic schema object: stays opaque
            continue
        overloads[name] = op
    entries = _check_entries(entries)
    return list(entries.values()), {n: meta_function(overloads[n]) for n in entries}


def ops_of_documents(docs: Iterable[Dict[str, Any]]) -> Tuple[List[str], Dict[str, Callable]]:
    """The ops (as ``torch_ops_for``) that the call nodes of eqfuse-graph documents name
    and eqfuse's catalog lacks, found in this process's ``torch.ops``; kind from the
    documents' calls.  An op whose fake kernel raises on the documents' own call types
    is left out (opaque)."""
    found: Dict[str, Any] = {}
    elementwise: Dict[str, bool] = {}
    sites: Dict[str, List[Tuple[Dict[str, Any], Dict[str, Any]]]] = {}
    for doc in docs:
        if not doc:
            continue
        nodes = doc.get("nodes", [])
        types = {n.get("name"): n.get("meta", {}).get("type") for n in nodes}
        for n in nodes:
            target = n.get("target")
            if n.get("op") != "call_function" or not isinstance(target, str) \
                    or "::" not in target or target in known_ops():
                continue
            if target not in found:
                found[target] = resolve_overload(target)
            if found[target] is None:
                continue
            name = qualified_name(found[target])
            ok = len(found[target]._schema.returns) == 1 and _elementwise_site(n, types)
            elementwise[name] = elementwise.get(name, True) and ok
            sites.setdefault(name, []).append((n, types))
    kinds = {name: "elementwise" if ok else "other" for name, ok in elementwise.items()}
    entries, metas = torch_ops_for([op for op in found.values() if op is not None], kinds)
    # A kernel that raises on a call's own types (a device check, say) cannot type the
    # op: it stays opaque rather than failing the graph.  Answers are cached, so eqfuse's
    # own inference of these calls costs nothing more.
    refused = set()
    for name, meta in metas.items():
        op = resolve_overload(name)
        if not all(_probe(meta, op, n, types) for n, types in sites.get(name, [])[:_PROBE_SITES]):
            refused.add(name)
    return ([e for e in entries if e.split("(", 1)[0].strip() not in refused],
            {name: fn for name, fn in metas.items() if name not in refused})


_PROBE_SITES = 16


def _type_description(t: Any) -> Any:
    """A document type (``"f32[2, s0]"``, ``"Sym(s0)"``) as the shape function takes it;
    Ellipsis when unknown."""
    if isinstance(t, str):
        if t.startswith("Sym(") and t.endswith(")"):
            inner = t[4:-1].strip()
            return int(inner) if inner.lstrip("-").isdigit() else inner
        dims = _dims_of(t)
        if dims is not None:
            return (t[:t.find("[")], [int(d) if d.lstrip("-").isdigit() else d for d in dims])
    return Ellipsis


def _literal_description(v: Any, types: Dict[str, Any]) -> Any:
    if isinstance(v, list):
        return [_literal_description(x, types) for x in v]
    if isinstance(v, dict) and len(v) == 1:
        (tag, x), = v.items()
        if tag == "node":
            return _type_description(types.get(x))
        if tag == "tuple":
            return [_literal_description(y, types) for y in x]
        if tag == "float":
            return float(x)
        if tag in ("dtype", "device", "literal"):
            return x
        return Ellipsis
    return v


def _probe(meta: Callable, op: Any, node: Dict[str, Any], types: Dict[str, Any]) -> bool:
    """False when the op's fake kernel raises on the call's own (known) types."""
    if op is None:
        return True
    arguments = list(op._schema.arguments)
    args, kwargs = list(node.get("args", [])), dict(node.get("kwargs", {}))
    described = []
    for i, a in enumerate(arguments):
        if i < len(args) and not a.kwarg_only:
            v = _literal_description(args[i], types)
        elif a.name in kwargs:
            v = _literal_description(kwargs[a.name], types)
        elif a.has_default_value():
            v = a.default_value
            if isinstance(v, torch.dtype):
                v = str(v).replace("torch.", "")
            elif isinstance(v, (torch.device, torch.layout, torch.memory_format)):
                v = str(v)
            elif isinstance(v, tuple):
                v = list(v)
        else:
            return True  # a call torch would reject: eqfuse says so itself
        described.append(v)
    try:
        meta(described)
    except Exception:
        return False
    return True


def untaken_ops(docs: Iterable[Dict[str, Any]], taken: Iterable[str]) -> List[str]:
    """The ``ns::op`` targets of the documents that neither eqfuse's catalog nor
    ``taken`` has (sorted): the ops that stay opaque."""
    taken = set(taken)
    names = set()
    for doc in docs:
        for n in (doc or {}).get("nodes", []):
            target = n.get("target")
            if n.get("op") == "call_function" and isinstance(target, str) and "::" in target \
                    and target not in known_ops() and target not in taken:
                names.add(target)
    return sorted(names)


def ops_of_graph_modules(gms: Iterable[Any]) -> Tuple[List[str], Dict[str, Callable]]:
    """As ``ops_of_documents`` for GraphModules (their call_function OpOverloads, and the
    default overload of an OpOverloadPacket target)."""
    from .fx_convert import graph_module_to_document
    return ops_of_documents([graph_module_to_document(gm) for gm in gms])


def merge_ops(*parts: Tuple[List[str], Dict[str, Callable]]
              ) -> Tuple[List[str], Dict[str, Callable]]:
    """Several (entries, metas) as one; the first entry for an op wins."""
    entries: Dict[str, str] = {}
    metas: Dict[str, Callable] = {}
    for part_entries, part_metas in parts:
        for e in part_entries:
            entries.setdefault(e.split("(", 1)[0].strip(), e)
        for name, fn in part_metas.items():
            metas.setdefault(name, fn)
    return list(entries.values()), metas
