"""eqfuse.optimize on the plain-PyTorch corpus models (tests/data/corpus/trace_corpus.py):
five architectures traced here with make_fx on the installed torch, in both flavours
(the npu one, W8A8-dynamic linears and npu_rms_norm as vllm-ascend runs them, is what
transformers' own models, test_live_corpus.py, do not have), static shapes.  The
optimized GraphModule must compute exactly what the original does in PyTorch
(the npu stand-ins reproduce the unfused rounding), never cost more, and on the
npu flavour of the RMSNorm decoders fuse the residual add into the norm; the aten
flavour joins projections (matmul-split), fuses LayerNorm's residual add and turns
the eager RMSNorm, rotary embedding and attention into npu_rms_norm / npu_rotary_mul /
npu_fusion_attention_v2."""
import os
import sys

import pytest
import torch

import eqfuse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "data", "corpus"))
import trace_corpus  # noqa: E402

CASES = [(arch, flavour) for arch in ("llama", "mixtral", "qwen3", "gpt2", "bert")
         for flavour in trace_corpus.FLAVOURS]

# Fusions each npu-flavour graph must show (rule-name substring -> minimum count).
EXPECTED_NPU_FUSIONS = {
    "llama": {"add-rms-norm": 4},   # 2 layers x (attention, MLP) residual adds
    "mixtral": {"add-rms-norm": 1},
}
# ... and the aten flavour: the q/k/v and gate/up projections joined into one matmul
# on concatenated weights (its split outputs are strided: the views after them must
# be reshapes to run in PyTorch), and LayerNorm's residual add fused.
# The RMSNorm decoders' eager RMSNorm and rotate_half RoPE become npu_rms_norm (the
# norms after a residual add then npu_add_rms_norm) and npu_rotary_mul (q and k of
# both layers); qwen3 also normalizes q and k per head. Their eager attention (GQA:
# repeat_kv, bmm of flattened operands, fp32 softmax) becomes npu_fusion_attention_v2
# on the unrepeated key and value, the causal mask as pse.
EXPECTED_ATEN_FUSIONS = {
    "llama": {"matmul-split": 2, "npu-rms-norm": 1, "add-rms-norm": 4, "npu-rotary-mul": 4,
              "npu-fusion-attention-gqa": 2},
    "mixtral": {"matmul-split": 2, "npu-rms-norm": 1, "add-rms-norm": 1, "npu-rotary-mul": 4,
                "npu-fusion-attention-gqa": 2},
    "qwen3": {"npu-rms-norm": 5, "add-rms-norm": 4, "npu-rotary-mul": 4,
              "npu-fusion-attention-gqa": 2},
    "gpt2": {"add-layer-norm": 2},
    "bert": {"add-layer-norm": 2},
}


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


@pytest.mark.parametrize("arch,flavour", CASES, ids=[f"{a}-{f}" for a, f in CASES])
def test_corpus_model_optimizes_to_identical_outputs(arch, flavour):
    gm = trace_corpus.trace(arch, flavour)
    inputs = trace_corpus.example_inputs(arch)
    with torch.no_grad():
        expected = _as_tuple(gm(*inputs))

    r = eqfuse.optimize(gm, inputs)

    assert r.stats["kernels_after"] <= r.stats["kernels_before"]
    assert r.stats["cost_after_us"] <= r.stats["cost_before_us"] + 1e-9
    with torch.no_grad():
        got = _as_tuple(r.graph_module(*inputs))
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(expected, got)):
        assert a.dtype == b.dtype and a.shape == b.shape, f"output {i}"
        if not torch.equal(a, b):
            pytest.fail(f"output {i} differs (max abs "
                        f"{float((a.float() - b.float()).abs().max()):g}); fusions {r.fusions}")
    expected_fusions = EXPECTED_NPU_FUSIONS if flavour == "npu" else EXPECTED_ATEN_FUSIONS
    for family, minimum in expected_fusions.get(arch, {}).items():
        count = sum(v for k, v in r.fusions.items() if family in k)
        assert count >= minimum, f"{family}: {r.fusions}"


def test_corpus_trace_is_deterministic():
    a = trace_corpus.trace("llama", "npu")
    b = trace_corpus.trace("llama", "npu")
    assert a.code == b.code
    assert eqfuse.to_document(a) == eqfuse.to_document(b)
