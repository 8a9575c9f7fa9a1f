"""Ops torch knows and eqfuse's catalog does not (eqfuse/torch_ops.py): a
torch.library op with a fake kernel as a replacement's target, fused and run; such
ops in graphs handed to optimize, typed by their fake kernel (symbolic shapes
included); ops without a fake kernel stay opaque; Inductor-style keywords of
register_replacement; a replace_fn that does not return what search_fn returns."""
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
from eqfuse import _eqfuse, torch_ops
from checks import assert_same_outputs

# ---- the user's ops ----------------------------------------------------------------------

_LIB = torch.library.Library("mylib", "DEF")

# relu(a + b) as one kernel, with a fake kernel: the replacement's target.
_LIB.define("add_relu(Tensor a, Tensor b) -> Tensor")


def _add_relu(a, b):
    return torch.relu(a + b)


_LIB.impl("add_relu", _add_relu, "CompositeExplicitAutograd")


@torch.library.register_fake("mylib::add_relu", lib=_LIB)
def _add_relu_fake(a, b):
    shape = torch.broadcast_shapes(a.shape, b.shape)
    return a.new_empty(shape, dtype=torch.promote_types(a.dtype, b.dtype))


# Rows of two tensors stacked (a cat along dim 0): output [m + n, k] -- not elementwise.
_LIB.define("stack_rows(Tensor a, Tensor b) -> Tensor")
_LIB.impl("stack_rows", lambda a, b: torch.cat([a, b]), "CPU")


@torch.library.register_fake("mylib::stack_rows", lib=_LIB)
def _stack_rows_fake(a, b):
    torch._check(a.shape[1] == b.shape[1], lambda: "stack_rows: the rows differ in length")
    return a.new_empty((a.shape[0] + b.shape[0], a.shape[1]))


# A fake kernel that refuses CPU tensors (as some device kernels' do): on the graph's own
# types it raises, so eqfuse cannot type the op.
_LIB.define("device_only(Tensor a) -> Tensor")
_LIB.impl("device_only", lambda a: a * 2, "CPU")


@torch.library.register_fake("mylib::device_only", lib=_LIB)
def _device_only_fake(a):
    torch._check(a.device.type == "npu", lambda: "device_only: npu tensors only")
    return torch.empty_like(a)


# A kernel with no fake kernel at all: eqfuse cannot type it.
_LIB.define("opaque_scale(Tensor a) -> Tensor")
_LIB.impl("opaque_scale", lambda a: a * 3, "CPU")


# ---- register_replacement with a torch.library op as the target --------------------------

def add_then_relu(a, b):
    return torch.relu(a + b)


def fused_add_relu(a, b):
    return torch.ops.mylib.add_relu(a, b)


def two_sites(x, y, z):
    h = torch.relu(x + y)
    return torch.relu(h + z) * 2


def example():
    g = torch.Generator().manual_seed(0)
    return tuple(torch.randn(4, 8, generator=g) for _ in range(3))


def calls(gm, op):
    return [n for n in gm.graph.nodes if n.op == "call_function" and n.target == op]


def test_user_op_with_fake_kernel_is_replace_fns_target_and_fuses():
    registry = eqfuse.ReplacementRegistry()
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    r = eqfuse.register_replacement(add_then_relu, fused_add_relu, (a, b), registry=registry)
    assert r.name == "user/add-then-relu"
    assert any(e.startswith("mylib::add_relu(Tensor a, Tensor b) -> Tensor | kind=elementwise")
               for e in r.ops)
    assert set(r.op_metas) == {"mylib::add_relu"}

    args = example()
    gm = make_fx(two_sites)(*args)
    result = eqfuse.optimize(gm, replacements=registry)
    assert result.fusions.get("user/add-then-relu") == 2
    new = result.graph_module
    assert len(calls(new, torch.ops.mylib.add_relu.default)) == 2
    assert not calls(new, torch.ops.aten.relu.default)
    assert "mylib::add_relu" not in result.opaque_ops
    assert_same_outputs(gm(*args), new(*args))
    assert_same_outputs(two_sites(*args), new(*args))


def test_user_op_fuses_on_a_symbolic_graph():
    registry = eqfuse.ReplacementRegistry()
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    eqfuse.register_replacement(add_then_relu, fused_add_relu, (a, b), registry=registry)
    args = example()
    gm = make_fx(two_sites, tracing_mode="symbolic")(*args)
    result = eqfuse.optimize(gm, replacements=registry)
    assert result.fusions.get("user/add-then-relu") == 2
    assert len(calls(result.graph_module, torch.ops.mylib.add_relu.default)) == 2
    assert_same_outputs(gm(*args), result.graph_module(*args))


def test_inductor_keywords_are_accepted_where_they_can_be_honoured():
    from torch._inductor.pattern_matcher import PatternMatcherPass, fwd_only, joint_fwd_bwd
    registry = eqfuse.ReplacementRegistry()
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    seen = []

    def check(match):
        seen.append(tuple(match.kwargs["a"].meta["val"].shape))
        return True

    # Inductor's positional order: trace_fn, pass_dicts, then extra_check.
    r = eqfuse.register_replacement(add_then_relu, fused_add_relu, [a, b], fwd_only,
                                    [PatternMatcherPass()], check, registry=registry,
                                    pattern_name="user/inductor-style")
    assert r.name == "user/inductor-style" and r.extra_check is check
    args = example()
    result = eqfuse.optimize(make_fx(two_sites)(*args), replacements=registry)
    assert result.fusions.get("user/inductor-style") == 2 and (4, 8) in seen

    with pytest.raises(eqfuse.EqfuseError, match="scalar_workaround is not supported"):
        eqfuse.register_replacement(add_then_relu, fused_add_relu, [a, b], fwd_only,
                                    pass_dicts=PatternMatcherPass(),
                                    scalar_workaround={"p": 0.5}, registry=registry)
    with pytest.raises(eqfuse.EqfuseError, match="exclusive_arg_names is not supported"):
        eqfuse.register_replacement(add_then_relu, fused_add_relu, [a, b], fwd_only,
                                    exclusive_arg_names=("a",), registry=registry)
    with pytest.raises(eqfuse.EqfuseError, match="joint_fwd_bwd"):
        eqfuse.register_replacement(add_then_relu, fused_add_relu, [a, b], joint_fwd_bwd,
                                    registry=registry)


def test_replace_fn_must_return_what_search_fn_returns():
    registry = eqfuse.ReplacementRegistry()
    a, b = torch.randn(2, 3), torch.randn(2, 3)

    def two_outputs(a, b):
        return torch.ops.mylib.add_relu(a, b), a

    def rows(a, b):
        return torch.ops.mylib.stack_rows(a, b)

    def as_half(a, b):
        return torch.ops.mylib.add_relu(a, b).half()

    with pytest.raises(eqfuse.EqfuseError, match="replace_fn 'two_outputs' returns 2 value"):
        eqfuse.register_replacement(add_then_relu, two_outputs, (a, b), registry=registry)
    with pytest.raises(eqfuse.EqfuseError,
                       match=r"output 0 of replace_fn 'rows' is float32\[4, 3\] but output 0 "
                             r"of search_fn 'add_then_relu' is float32\[2, 3\]"):
        eqfuse.register_replacement(add_then_relu, rows, (a, b), registry=registry)
    with pytest.raises(eqfuse.EqfuseError, match=r"replace_fn 'as_half' is float16\[2, 3\]"):
        eqfuse.register_replacement(add_then_relu, as_half, (a, b), registry=registry)
    assert len(registry) == 0


# ---- graphs handed to optimize -----------------------------------------------------------

def uses_stack_rows(x, y):
    return torch.ops.mylib.stack_rows(torch.relu(x), y) + 1


def test_graph_op_unknown_to_eqfuse_is_typed_by_its_fake_kernel():
    x, y = torch.randn(2, 4), torch.randn(3, 4)
    gm = make_fx(uses_stack_rows)(x, y)
    result = eqfuse.optimize(gm)
    assert "mylib::stack_rows" not in result.opaque_ops
    assert_same_outputs(gm(x, y), result.graph_module(x, y))

    # The same graph without the node's annotation: the fake kernel gives its type.
    doc = eqfuse.to_document(gm)
    node = next(n for n in doc["nodes"] if n.get("target") == "mylib::stack_rows")
    del node["meta"]
    typed = eqfuse.optimize_document(doc)
    out = next(n for n in typed.document["nodes"] if n.get("target") == "mylib::stack_rows")
    assert out["meta"]["type"] == "f32[5, 4]"
    assert "mylib::stack_rows" not in typed.opaque_ops


def test_symbolic_graph_op_is_typed_with_symbolic_dims():
    x, y = torch.randn(2, 4), torch.randn(3, 4)
    gm = make_fx(uses_stack_rows, tracing_mode="symbolic")(x, y)
    doc = eqfuse.to_document(gm)
    node = next(n for n in doc["nodes"] if n.get("target") == "mylib::stack_rows")
    annotated = node["meta"]["type"]
    del node["meta"]
    result = eqfuse.optimize_document(doc)
    out = next(n for n in result.document["nodes"] if n.get("target") == "mylib::stack_rows")
    assert out["meta"]["type"] == annotated  # f32[s0 + s1, s2], as torch traced it
    assert "+" in annotated
    direct = eqfuse.optimize(gm)
    assert "mylib::stack_rows" not in direct.opaque_ops
    assert_same_outputs(gm(x, y), direct.graph_module(x, y))


def test_op_without_fake_kernel_stays_opaque():
    def model(x):
        return torch.ops.mylib.opaque_scale(torch.relu(x)) + 1

    x = torch.randn(2, 4)
    gm = make_fx(model)(x)
    result = eqfuse.optimize(gm)
    assert "mylib::opaque_scale" in result.opaque_ops
    assert_same_outputs(gm(x), result.graph_module(x))
    assert torch_ops.torch_ops_for([torch.ops.mylib.opaque_scale.default]) == ([], {})

    # As a replacement's target it is an error that says why.
    def scaled(a, b):
        return torch.ops.mylib.opaque_scale(a + b)

    def search(a, b):
        return (a + b) * 3

    with pytest.raises(eqfuse.EqfuseError, match=r"(?s)unknown op 'mylib::opaque_scale' in "
                                                 r"replace.*could not take mylib::opaque_scale "
                                                 r"from torch: an op needs a fake kernel"):
        eqfuse.register_replacement(search, scaled, (torch.randn(2, 3), torch.randn(2, 3)),
                                    registry=eqfuse.ReplacementRegistry())


def test_op_whose_fake_kernel_refuses_the_graphs_types_stays_opaque():
    def model(x):
        return torch.ops.mylib.device_only(torch.relu(x)) + 1

    x = torch.randn(2, 4)
    gm = make_fx(model)(x)  # real: the fake kernel would refuse CPU tensors
    result = eqfuse.optimize(gm)
    assert "mylib::device_only" in result.opaque_ops
    assert_same_outputs(gm(x), result.graph_module(x))


# ---- torch_ops on its own ----------------------------------------------------------------

def test_shape_function_answers_from_the_fake_kernel():
    meta = torch_ops.meta_function(torch.ops.mylib.stack_rows.default)
    assert meta([("f32", [2, 4]), ("f32", [3, 4])]) == [("f32", [5, 4])]
    assert meta([("bf16", ["s0", 8]), ("bf16", ["2*s0", 8])]) == [("bf16", ["3*s0", 8])]
    assert meta([("f32", [2, 4]), Ellipsis]) is None  # an input of unknown type
    add_relu = torch_ops.meta_function(torch.ops.mylib.add_relu.default)
    assert add_relu([("f16", ["s0", 4]), ("f32", [4])]) == [("f32", ["s0", 4])]
    with pytest.raises(RuntimeError):  # a real shape error on concrete shapes propagates
        add_relu([("f32", [2, 4]), ("f32", [3, 4])])


def test_catalog_entries_for_ops_the_catalog_lacks():
    assert "aten::add.Tensor" in torch_ops.known_ops()
    entries, metas = torch_ops.torch_ops_for([torch.ops.aten.add.Tensor,
                                              torch.ops.mylib.add_relu.default,
                                              torch.ops.mylib.opaque_scale.default, "x"])
    assert entries == ["mylib::add_relu(Tensor a, Tensor b) -> Tensor | kind=other"]
    assert list(metas) == ["mylib::add_relu"]
    assert _eqfuse.check_ops(entries) == [None]
    assert "already registered" in _eqfuse.check_ops(["aten::relu(Tensor self) -> Tensor "
                                                      "| kind=elementwise"])[0]
    assert "unknown type" in _eqfuse.check_ops(["mylib::x(Dict(str, Tensor) d) -> Tensor "
                                                "| kind=other"])[0]
    with pytest.raises(eqfuse.EqfuseError, match="op_metas: op 'mylib::nowhere' is not "
                                                 "registered"):
        _eqfuse.check_rules("", "<none>", op_metas={"mylib::nowhere": lambda args: None})


def test_torch_schemas_the_catalog_lacks_load_or_are_skipped():
    """Every aten overload this torch has that eqfuse's catalog lacks: torch's schema
    text loads as a catalog entry wherever torch_ops would take the op, but for rare
    exotic schemas (a test op's string default with escaped quotes), which torch_ops
    leaves opaque; never an error."""
    ops = []
    for name in dir(torch.ops.aten):
        packet = getattr(torch.ops.aten, name, None)
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            ops.append(getattr(packet, overload))
    lacking = [op for op in ops if torch_ops.qualified_name(op) not in torch_ops.known_ops()]
    takeable = [op for op in lacking if torch_ops._usable(op)]
    raw = [torch_ops.catalog_entry(op) for op in takeable]
    assert len(raw) > 100
    loadable = [e for e, err in zip(raw, _eqfuse.check_ops(raw)) if err is None]
    assert len(raw) - len(loadable) <= len(raw) // 100
    entries, metas = torch_ops.torch_ops_for(ops)
    assert entries == loadable and len(metas) == len(entries)


def test_shape_function_errors_name_the_op():
    """A fake kernel raising on a graph's own (concrete) types is an EqfuseError naming
    the op, not a crash."""
    x, y = torch.randn(2, 4), torch.randn(3, 4)
    doc = eqfuse.to_document(make_fx(uses_stack_rows)(x, y))
    for n in doc["nodes"]:
        if n["op"] == "placeholder" and n["name"].startswith("y"):
            n["meta"]["type"] = "f32[3, 5]"  # stack_rows needs equal row lengths
        elif n["op"] != "placeholder":
            n.pop("meta", None)
    with pytest.raises(eqfuse.EqfuseError, match="mylib::stack_rows"):
        eqfuse.optimize_document(doc)
