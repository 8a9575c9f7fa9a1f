"""The live model corpus: transformers' own model code (tests/hf_models.py: tiny models
built from config classes, random weights, nothing downloaded) traced with make_fx on
the installed torch, optimized with eqfuse.optimize, and checked three ways:

(a) the traced GraphModule computes exactly what the eager model does, and the
    optimized GraphModule exactly what the traced one does, in PyTorch
    (torch.equal; the fused NPU ops run eqfuse.testing.npu_reference, the unfused
    chain with the same roundings); the optimized graph never costs more;
(b) each architecture shows the fusion families its structure calls for (EXPECTED
    below: minimum counts of what 2 layers must give, not exact kernel counts);
(c) the input graph and ``result.fx_text``, written as FX text, are equivalent to
    `eqfuse check` (the CLI: EQFUSE_BINARY, default build/eqfuse), i.e. the FX text
    round-trips and the C++ reference interpreter agrees.

How the models are traced (trace_live): ``make_fx(forward, tracing_mode="fake" or
"symbolic", _allow_non_fake_inputs=True)(ids)``, the weights staying real module
constants (get_attr ``_param_constant*``), ``use_cache=False`` (BERT: ``model(ids)``),
the output the logits (BERT: last hidden state).  "static" is the fake mode, not
"real": with real tensors transformers' mask code (masking_utils.
find_packed_sequence_indices) asks ``bool(tensor.all())``, a data-dependent branch
make_fx refuses, while under fake tensors its is_tracing() check skips the branch.

torch 2.13 limitation: the MoE models' default experts implementation calls
``grouped_mm``, whose fake kernel accepts only bfloat16 (the CPU kernel runs float32
too), so float32 MoE models do not trace with their default experts; they are traced
with ``experts_implementation="batched_mm"`` (``"eager"``'s per-expert loop is
data-dependent).  test_fp32_grouped_mm_moe_does_not_trace pins this down.

bench/corpus_table.py prints the same corpus (every architecture, bf16 and fp32,
static and symbolic) as the table in docs/benchmarks.md."""
import os
import subprocess

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import eqfuse
import eqfuse.testing.npu_reference  # noqa: F401  (CPU kernels of the fused NPU ops)
import hf_models

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MOE = ("qwen3_moe", "mixtral", "deepseek_v3")


def trace_live(arch: str, dtype=torch.bfloat16, mode: str = "static", attn: str = "eager"):
    """(make_fx GraphModule, model, ids) of one architecture; mode "static" or "symbolic"."""
    model = hf_models.build(arch, dtype, attn)
    if dtype != torch.bfloat16 and arch in MOE:
        model.set_experts_implementation("batched_mm")  # grouped_mm's fake kernel: bf16 only
    ids = hf_models.inputs()

    def forward(ids):
        if arch == "bert":
            return hf_models.output_of(model(ids))
        return hf_models.output_of(model(ids, use_cache=False))

    tracing_mode = {"static": "fake", "symbolic": "symbolic"}[mode]
    with torch.no_grad():
        gm = make_fx(forward, tracing_mode=tracing_mode, _allow_non_fake_inputs=True)(ids)
    return gm, model, ids


def fx_text(doc, tmp_dir: str, name: str, binary: str) -> str:
    """FX text of an eqfuse-graph document (as `eqfuse print --format fx`)."""
    print_fx = getattr(eqfuse._eqfuse, "print_fx", None)
    if print_fx is not None:
        return print_fx(doc)
    import json
    path = os.path.join(tmp_dir, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    p = subprocess.run([binary, "print", path, "--format", "fx"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def eqfuse_binary() -> str:
    return os.environ.get("EQFUSE_BINARY", os.path.join(ROOT, "build", "eqfuse"))


# Fusion families (rule-name substrings) and the minimum count each architecture's
# 2-layer graph must show, whatever the dtype and shape mode:
#   rms-norm       every RMSNorm becomes one fused kernel (npu_rms_norm, or
#                  npu_add_rms_norm with the residual add before it): 2 per layer + the
#                  final norm; qwen3 and qwen3_moe add q_norm and k_norm per layer, DeepSeek
#                  its q_a and kv_a norms, Gemma2 pre- and post-norms around both blocks,
#                  OLMo2 post-norms and q/k norms (9);
#   add-rms-norm   the residual adds before an RMSNorm (after attention and after the
#                  MLP of each layer: 4);
#   rotary-mul     RoPE of q and k in both layers (DeepSeek: the interleaved variant);
#   npu-fusion-attention  transformers' eager attention (matmul, fp32 softmax, matmul)
#                  in both layers: GQA for the models with fewer KV heads; not Gemma2
#                  (soft-capped scores), not DeepSeek (MLA), GPT-2 and BERT only in fp32
#                  (their bf16 softmax has no fused form);
#   matmul-split   projections that read the same activation joined into one matmul:
#                  q/k/v and gate/up per layer (qwen2's biased q/k/v and phi3's already
#                  fused qkv_proj / gate_up_proj do not), DeepSeek's q_a and kv_a and its
#                  dense / shared-expert gate/up;
#   swiglu         silu(gate) * up of the routed experts' fused gate_up grouped matmul,
#                  one per MoE layer (DeepSeek: layer 0 is dense);
#   add-layer-norm the residual adds before LayerNorm (GPT-2 pre-norm, BERT post-norm);
#   muls-add       GPT-2's tanh-GELU x + 0.044715 * x^3, one per layer.
_LLAMA = {"rms-norm": 5, "add-rms-norm": 4, "rotary-mul": 4, "npu-fusion-attention": 2}
EXPECTED = {
    "llama": dict(_LLAMA, **{"matmul-split": 4}),
    "qwen2": dict(_LLAMA, **{"matmul-split": 2}),
    "qwen3": dict(_LLAMA, **{"rms-norm": 9, "matmul-split": 4}),
    "qwen3_moe": dict(_LLAMA, **{"rms-norm": 9, "matmul-split": 2, "swiglu": 2}),
    "mixtral": dict(_LLAMA, **{"matmul-split": 2, "swiglu": 2}),
    "phi3": dict(_LLAMA),
    "deepseek_v3": {"rms-norm": 9, "add-rms-norm": 4, "rotary-mul": 4, "matmul-split": 4,
                    "swiglu": 1},
    "gemma2": {"rms-norm": 9, "rotary-mul": 4, "matmul-split": 4},
    "olmo2": {"rms-norm": 9, "rotary-mul": 4, "npu-fusion-attention": 2, "matmul-split": 4},
    "gpt2": {"add-layer-norm": 4, "muls-add": 2},
    "bert": {"add-layer-norm": 4},
}
EXPECTED_FP32 = {"gpt2": {"npu-fusion-attention": 2}, "bert": {"npu-fusion-attention": 2}}

BF16, FP32 = torch.bfloat16, torch.float32
# Every architecture static in bf16; symbolic shapes (make_fx's symbolic mode: batch and
# sequence become s-symbols) for a dense decoder, two MoE models and GPT-2; fp32 for a
# dense decoder, an MoE model (batched_mm experts) and the two LayerNorm models.
CASES = ([(arch, BF16, "static") for arch in hf_models.ARCHS]
         + [(arch, BF16, "symbolic") for arch in ("llama", "qwen3_moe", "deepseek_v3", "gpt2")]
         + [(arch, FP32, "static") for arch in ("llama", "mixtral", "gpt2", "bert")])


def _case_id(case):
    arch, dtype, mode = case
    return f"{arch}-{'bf16' if dtype == BF16 else 'fp32'}-{mode}"


def family_count(fusions, family: str) -> int:
    return sum(n for rule, n in fusions.items() if family in rule)


@pytest.mark.parametrize("arch,dtype,mode", CASES, ids=[_case_id(c) for c in CASES])
def test_live_model_optimizes_fuses_and_checks(arch, dtype, mode, tmp_path):
    gm, model, ids = trace_live(arch, dtype, mode)
    with torch.no_grad():
        expected = gm(ids)
        eager = hf_models.output_of(model(ids) if arch == "bert" else model(ids, use_cache=False))
    assert torch.equal(expected, eager)  # the trace is what transformers computes

    r = eqfuse.optimize(gm, [ids])

    # (a) exact in PyTorch, never costlier
    assert r.stats["kernels_after"] <= r.stats["kernels_before"]
    assert r.stats["cost_after_us"] <= r.stats["cost_before_us"] + 1e-9
    assert not r.opaque_ops, r.opaque_ops
    with torch.no_grad():
        got = r.graph_module(ids)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert torch.equal(got, expected), (
        f"max abs {float((got.float() - expected.float()).abs().max()):g}; {r.fusions}")
    if mode == "symbolic":  # one graph for every batch and sequence length
        other = hf_models.inputs(batch=3, seq=5, seed=1)
        with torch.no_grad():
            assert torch.equal(r.graph_module(other), gm(other))

    # (b) the fusion families of the architecture
    want = dict(EXPECTED[arch], **(EXPECTED_FP32.get(arch, {}) if dtype == FP32 else {}))
    for family, minimum in want.items():
        assert family_count(r.fusions, family) >= minimum, f"{family}: {r.fusions}"

    # (c) FX text of both graphs, equivalent under `eqfuse check`
    binary = eqfuse_binary()
    if not os.path.exists(binary):
        if "EQFUSE_BINARY" in os.environ:
            pytest.fail(f"EQFUSE_BINARY={binary} does not exist")
        pytest.skip(f"no eqfuse CLI at {binary} (set EQFUSE_BINARY)")
    name = _case_id((arch, dtype, mode))
    a, b = tmp_path / f"{name}.txt", tmp_path / f"{name}.opt.txt"
    a.write_text(fx_text(eqfuse.to_document(gm, [ids]), str(tmp_path), name, binary))
    b.write_text(r.fx_text)
    p = subprocess.run([binary, "check", str(a), str(b)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.startswith("equivalent"), p.stdout + p.stderr


def test_fp32_grouped_mm_moe_does_not_trace():
    """torch 2.13: grouped_mm's fake kernel refuses float32 (its CPU kernel runs it), so
    a float32 MoE model with transformers' default grouped_mm experts cannot be traced
    with fake or symbolic tensors.  When this starts to pass, trace_live can drop its
    batched_mm workaround."""
    model = hf_models.build("mixtral", FP32)
    ids = hf_models.inputs()
    with torch.no_grad():
        model(ids, use_cache=False)  # eager float32 runs
        with pytest.raises(RuntimeError, match="BF16"):
            make_fx(lambda ids: model(ids, use_cache=False).logits, tracing_mode="fake",
                    _allow_non_fake_inputs=True)(ids)
