"""eqfuse.testing.npu_reference: every op it provides traces and runs as a single
op (its fake kernel gives the real call's output shapes and dtypes, and
torch.compile(backend="aot_eager", fullgraph=True) reproduces eager bit for bit)."""
import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

try:
    from eqfuse.testing import npu_reference
except ImportError:  # eqfuse's extension not built: npu_standins loaded the module file
    import npu_standins as npu_reference

H = 16  # hidden size / head dim of the examples


def _randn(*shape, dtype=torch.float16, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


def _int8(*shape, seed=0):
    return torch.randint(-128, 128, shape, generator=torch.Generator().manual_seed(seed),
                         dtype=torch.int8)


def _cases():
    """case id -> (op, args, kwargs): small inputs of the dtypes and argument
    combinations eqfuse's rules produce."""
    npu, vllm = torch.ops.npu, torch.ops.vllm
    bf16 = torch.bfloat16

    def fp16_add_norm_inputs():
        return _randn(2, 4, H), _randn(2, 4, H, seed=1), _randn(H, seed=2)

    def scales(n, seed):
        return _randn(n, dtype=torch.float32, seed=seed).abs() + 0.01

    mask = torch.triu(torch.ones(8, 8, dtype=torch.bool), 1).reshape(1, 1, 8, 8)
    positions = torch.tensor([0, 3, 7, 31])
    cache = _randn(32, H, dtype=bf16, seed=5)
    rotary = (_randn(2, 4, 3, H, dtype=bf16), _randn(1, 4, 1, H, dtype=bf16, seed=1),
              _randn(1, 4, 1, H, dtype=bf16, seed=2))
    return {
        "npu::npu_rms_norm": (npu.npu_rms_norm, (_randn(2, 4, H, dtype=bf16),
                                                 _randn(H, dtype=bf16, seed=1)),
                              {"epsilon": 1e-6}),
        "npu::npu_quantize": (npu.npu_quantize, (_randn(4, H), scales(H, 1),
                                                 _randn(H, dtype=torch.float32, seed=2), 1, -1,
                                                 True), {}),
        "npu::npu_add_rms_norm_quant": (
            npu.npu_add_rms_norm_quant,
            fp16_add_norm_inputs() + (scales(H, 3), _randn(H, dtype=torch.float32, seed=4)),
            {"beta": _randn(H, seed=5), "scales2": scales(H, 6), "epsilon": 1e-6}),
        "npu::npu_rms_norm_quant": (
            npu.npu_rms_norm_quant,
            (_randn(4, H), _randn(H, seed=1), _randn(H, seed=2),
             torch.tensor([0.05], dtype=torch.float16), torch.tensor([3], dtype=torch.int8)),
            {"epsilon": 1e-6}),
        "npu::npu_rotary_mul[half]": (npu.npu_rotary_mul, rotary, {"rotary_mode": "half"}),
        "npu::npu_rotary_mul[interleave]": (npu.npu_rotary_mul, rotary,
                                            {"rotary_mode": "interleave"}),
        "npu::npu_fusion_attention": (  # BNSD, GQA (4 query heads over 2 kv heads), causal
            npu.npu_fusion_attention,
            (_randn(1, 4, 8, H), _randn(1, 2, 8, H, seed=1), _randn(1, 2, 8, H, seed=2), 4,
             "BNSD"),
            {"atten_mask": mask, "scale": 0.25}),
        "npu::npu_fusion_attention_v2": (  # BSND with pse
            npu.npu_fusion_attention_v2,
            (_randn(1, 8, 4, H), _randn(1, 8, 4, H, seed=1), _randn(1, 8, 4, H, seed=2), 4,
             "BSND"),
            {"pse": _randn(1, 4, 8, 8, seed=3), "atten_mask": mask, "scale": 0.25,
             "pse_type": 1}),
        "npu::npu_swiglu": (npu.npu_swiglu, (_randn(4, 2 * H, dtype=bf16),), {"dim": -1}),
        "npu::npu_dequant_swiglu_quant": (npu.npu_dequant_swiglu_quant,
                                          (_randn(4, 2 * H, dtype=bf16),),
                                          {"activate_left": True, "quant_mode": 1}),
        "npu::npu_add_rms_norm": (npu.npu_add_rms_norm, fp16_add_norm_inputs(),
                                  {"epsilon": 1e-6}),
        "npu::npu_dynamic_quant": (npu.npu_dynamic_quant, (_randn(4, H, dtype=bf16),),
                                   {"smooth_scales": _randn(H, dtype=bf16, seed=1)}),
        "npu::npu_add_rms_norm_dynamic_quant": (
            npu.npu_add_rms_norm_dynamic_quant, fp16_add_norm_inputs(),
            {"smooth_scale1": _randn(H, seed=3), "smooth_scale2": _randn(H, seed=4),
             "beta": _randn(H, seed=5), "epsilon": 1e-6, "output_mask": [True, True]}),
        "npu::npu_add_layer_norm": (npu.npu_add_layer_norm,
                                    fp16_add_norm_inputs() + (_randn(H, seed=3),),
                                    {"epsilon": 1e-5, "additional_output": True}),
        "npu::npu_add_rms_norm_cast": (npu.npu_add_rms_norm_cast, fp16_add_norm_inputs(),
                                       {"epsilon": 1e-6}),
        "npu::npu_transpose_batchmatmul": (
            npu.npu_transpose_batchmatmul, (_randn(4, 3, 8), _randn(3, 8, 6, seed=1)),
            {"perm_x1": [1, 0, 2], "perm_x2": [0, 1, 2], "perm_y": [1, 0, 2]}),
        "npu::npu_quant_matmul[bf16]": (  # W8A8-dynamic: per-token and per-channel scales
            npu.npu_quant_matmul, (_int8(4, H), _int8(H, 8, seed=1), scales(8, 2) / 100),
            {"pertoken_scale": scales(4, 3), "output_dtype": 15}),
        "npu::npu_quant_matmul[int8]": (  # int32 bias, int8 output
            npu.npu_quant_matmul, (_int8(4, H), _int8(H, 8, seed=1), scales(8, 2) / 100),
            {"bias": torch.arange(-40, 40, 10, dtype=torch.int32)}),
        "vllm::muls_add": (vllm.muls_add, (_randn(4, H, dtype=bf16),
                                           _randn(4, H, dtype=bf16, seed=1), 0.5), {}),
        "vllm::npu_rotary_embedding[neox]": (
            vllm.npu_rotary_embedding,
            (positions, _randn(4, 2 * H, dtype=bf16), _randn(4, H, dtype=bf16, seed=1), cache,
             H, H, True), {}),
        "vllm::npu_rotary_embedding[gptj]": (
            vllm.npu_rotary_embedding,
            (positions, _randn(4, 2 * H, dtype=bf16), _randn(4, H, dtype=bf16, seed=1), cache,
             H, H, False), {}),
        "vllm::qkv_rmsnorm_rope": (  # 2 q heads, 1 kv head
            vllm.qkv_rmsnorm_rope,
            (_randn(4, 4 * H, dtype=bf16), cache, positions, _randn(H, dtype=bf16, seed=1),
             _randn(H, dtype=bf16, seed=2), 2 * H, H, H, 1e-6),
            {"q_bias": _randn(H, dtype=bf16, seed=3), "k_bias": _randn(H, dtype=bf16, seed=4)}),
        "vllm::quantize": (vllm.quantize,
                           (_randn(4, H, dtype=bf16), torch.tensor([0.05], dtype=bf16),
                            torch.tensor([20.0], dtype=bf16), torch.tensor([2], dtype=torch.int8)),
                           {}),
        "_C_ascend::npu_add_rms_norm_bias": (torch.ops._C_ascend.npu_add_rms_norm_bias,
                                             fp16_add_norm_inputs(),
                                             {"beta": _randn(H, seed=3), "epsilon": 1e-6}),
    }


CASES = sorted(_cases())


def _outputs(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _assert_identical(actual, expected):
    actual, expected = _outputs(actual), _outputs(expected)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        if isinstance(e, torch.Tensor):
            assert isinstance(a, torch.Tensor) and a.dtype == e.dtype and torch.equal(a, e)
        else:
            assert a == e


# The matmul + communication ops run on a process group: test_tensor_parallel.py runs them
# on two gloo ranks.
MC2_OPS = {"npu::npu_mm_all_reduce_base", "npu::npu_all_gather_base_mm",
           "npu::npu_mm_reduce_scatter_base", "npu::npu_mm_all_reduce_add_rms_norm"}


def test_every_op_has_a_case():
    assert {case.split("[")[0] for case in CASES} == set(npu_reference.OPS) - MC2_OPS


def test_register_again_defines_nothing():
    assert npu_reference.register() == ()


@pytest.mark.parametrize("case", CASES)
def test_fake_kernel_gives_the_real_shapes_and_dtypes(case):
    op, args, kwargs = _cases()[case]
    real = _outputs(op(*args, **kwargs))
    with FakeTensorMode() as mode:
        fake_args = [mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args]
        fake_kwargs = {k: mode.from_tensor(v) if isinstance(v, torch.Tensor) else v
                       for k, v in kwargs.items()}
        fake = _outputs(op(*fake_args, **fake_kwargs))
    assert len(fake) == len(real)
    for f, r in zip(fake, real):
        if isinstance(r, torch.Tensor):
            assert (f.shape, f.dtype, f.device) == (r.shape, r.dtype, r.device)
        else:
            assert type(f) is type(r)


@pytest.mark.parametrize("case", CASES)
def test_torch_compile_matches_eager(case):
    op, args, kwargs = _cases()[case]
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    tensors += [v for v in kwargs.values() if isinstance(v, torch.Tensor)]

    def fn(*ts):  # the op with its tensor arguments as graph inputs, the rest constants
        it = iter(ts)
        a = [next(it) if isinstance(v, torch.Tensor) else v for v in args]
        k = {n: next(it) if isinstance(v, torch.Tensor) else v for n, v in kwargs.items()}
        return op(*a, **k)

    torch._dynamo.reset()
    try:
        compiled = torch.compile(fn, backend="aot_eager", fullgraph=True, dynamic=False)
        _assert_identical(compiled(*tensors), op(*args, **kwargs))
    finally:
        torch._dynamo.reset()
