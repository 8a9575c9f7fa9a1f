#!/usr/bin/env python3
"""Traces Hugging Face `transformers` models, as the library itself writes them, with
torch 2.x's torch.compile + AOTAutograd, and writes the inference graphs as FX text.

This is the generator of tests/data/torch2/. It needs torch >= 2.4 and transformers,
which Debian 12 does not package; it was run once on a machine that has them (see
README.md beside it for versions) and its output is committed. Nothing in the build or
the tests runs it.

    python3 trace_hf_torch2.py OUT_DIR

For every architecture below (tiny configs: 2 layers, hidden 64, 4 heads, 2 KV heads
where the architecture has GQA, vocabulary 128, bfloat16), for attention implementations
"eager" and "sdpa", and for static shapes, dynamic shapes (`dynamic=True`, which lifts
float attributes such as RMSNorm's epsilon into f64[] graph inputs) and dynamic shapes
with `torch._dynamo.config.specialize_float = True` ("dynamic-fixed-floats", which keeps
them literals), the model runs once under
torch.compile with a backend that records each AOTAutograd forward graph
(`print_readable`, torch's own text) and runs it unchanged. Graph breaks give several
graphs; each is kept (`<arch>_<attn>_<static|dynamic>_<n>.txt`). Failures are recorded
in manifest.json with the exception text, not hidden.

It also writes float8.json: torch's own decoding of every bit pattern of each float8
dtype it has, and its rounding of chosen float32 values to them, so that eqfuse's
conversions can be compared with torch's.
"""
from __future__ import annotations

import json
import math
import os
import struct
import sys
import traceback

import torch

OUT = sys.argv[1] if len(sys.argv) > 1 else "out"
os.makedirs(OUT, exist_ok=True)
manifest: dict = {"torch": torch.__version__, "graphs": [], "failures": []}

try:
    import transformers
    manifest["transformers"] = transformers.__version__
except Exception as e:  # recorded, the float8 table is still written
    transformers = None
    manifest["failures"].append({"what": "import transformers", "error": repr(e)})


# ------------------------------------------------------------------------- float8
def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def float8_table() -> dict:
    table = {}
    names = ["float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float8_e4m3fnuz",
             "float8_e5m2fnuz"]
    gen = torch.Generator().manual_seed(20261127)
    for name in names:
        dt = getattr(torch, name, None)
        if dt is None:
            continue
        pats = torch.arange(256, dtype=torch.int32).to(torch.uint8)
        decoded = pats.view(dt).to(torch.float32)
        finite = sorted({v for v in decoded.tolist() if math.isfinite(v)})
        probes = set(finite)
        for a, b in zip(finite, finite[1:]):  # midpoints and just either side
            mid = (a + b) / 2
            probes.add(mid)
            mid32 = torch.tensor(mid, dtype=torch.float32)
            probes.add(torch.nextafter(mid32, torch.tensor(-math.inf)).item())
            probes.add(torch.nextafter(mid32, torch.tensor(math.inf)).item())
        top = max(finite)
        for k in range(1, 40):  # past the largest finite value
            probes.add(top * (1 + k / 16))
            probes.add(-top * (1 + k / 16))
        for scale in (1e-6, 1e-3, 1.0, 10.0, 300.0, 1e4, 1e6):
            probes.update((torch.randn(64, generator=gen) * scale).tolist())
        probes.update((math.inf, -math.inf, 0.0, -0.0, 1e-40, -1e-40, 3.4e38, -3.4e38))
        vals = torch.tensor(sorted(probes, key=lambda v: (v, math.copysign(1, v))),
                            dtype=torch.float32)
        vals = torch.cat([vals, torch.tensor([math.nan])])
        enc = vals.to(dt).view(torch.uint8).tolist()
        table[name] = {
            "decode_f32_bits": [f32_bits(v) for v in decoded.tolist()],
            "encode": [[f32_bits(v), e] for v, e in zip(vals.tolist(), enc)],
        }
    for name in ["float4_e2m1fn_x2"]:
        dt = getattr(torch, name, None)
        if dt is not None:
            try:
                torch.tensor([1.0, 2.0]).to(dt)
                table[name] = {"conversion": "supported"}
            except Exception as e:
                table[name] = {"conversion": "unsupported: " + str(e).splitlines()[0]}
    return table


with open(os.path.join(OUT, "float8.json"), "w") as f:
    json.dump(float8_table(), f)


# ------------------------------------------------------------------------- models
COMMON = dict(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
              num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
              torch_dtype=torch.bfloat16)
ARCHS = {
    "llama": dict(COMMON),
    "qwen2": dict(COMMON),
    "qwen3": dict(COMMON, head_dim=16),
    "mistral": dict(COMMON, sliding_window=4),
    "gemma2": dict(COMMON, head_dim=16, sliding_window=4),
    "olmo2": dict(COMMON),
    "phi3": dict(COMMON, pad_token_id=0, bos_token_id=1, eos_token_id=2),
    "mixtral": dict(COMMON, num_local_experts=4, num_experts_per_tok=2),
    "qwen3_moe": dict(COMMON, head_dim=16, num_experts=4, num_experts_per_tok=2,
                      moe_intermediate_size=32, decoder_sparse_step=1),
    # MLA keeps one key head per query head: no GQA here.
    "deepseek_v3": dict(COMMON, num_key_value_heads=4, q_lora_rank=32, kv_lora_rank=16, qk_rope_head_dim=8,
                        qk_nope_head_dim=16, v_head_dim=16, n_routed_experts=4,
                        num_experts_per_tok=2, n_group=2, topk_group=1,
                        moe_intermediate_size=32, first_k_dense_replace=1),
    "gpt2": dict(vocab_size=128, n_embd=64, n_layer=2, n_head=4, n_positions=64,
                 torch_dtype=torch.bfloat16),
    "bert": dict(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                 num_attention_heads=4, max_position_embeddings=64,
                 torch_dtype=torch.bfloat16),
}

captured: list = []


def recording_backend():
    from torch._dynamo.backends.common import aot_autograd
    from functorch.compile import make_boxed_func

    def fw(gm, example_inputs):
        captured.append(gm.print_readable(print_output=False))
        return make_boxed_func(gm.forward)

    return aot_autograd(fw_compiler=fw)


def build(arch: str, attn: str):
    from transformers import AutoConfig, AutoModel, AutoModelForCausalLM
    cfg = AutoConfig.for_model(arch, **ARCHS[arch])
    cfg.use_cache = False
    torch.manual_seed(0)
    cls = AutoModel if arch == "bert" else AutoModelForCausalLM
    model = cls.from_config(cfg, attn_implementation=attn, torch_dtype=torch.bfloat16)
    return model.eval()


SHAPES = {"static": (False, False), "dynamic": (True, False),
          "dynamic-fixed-floats": (True, True)}


def trace(arch: str, attn: str, shapes: str) -> None:
    import torch._dynamo
    torch._dynamo.reset()
    dynamic, fixed_floats = SHAPES[shapes]
    captured.clear()
    model = build(arch, attn)
    ids = torch.randint(0, 128, (2, 8))
    kwargs = {"input_ids": ids}
    if arch == "bert":
        kwargs["attention_mask"] = torch.ones(2, 8, dtype=torch.int64)
    compiled = torch.compile(model, backend=recording_backend(), dynamic=dynamic)
    with torch.no_grad(), torch._dynamo.config.patch(specialize_float=fixed_floats):
        compiled(**kwargs)
    tag = f"{arch}_{attn}_{shapes}"
    for i, text in enumerate(captured):
        name = f"{tag}_{i}.txt"
        with open(os.path.join(OUT, name), "w") as f:
            f.write(text)
        manifest["graphs"].append({"file": name, "arch": arch, "attn": attn,
                                   "shapes": shapes, "lines": text.count("\n")})


if transformers is not None:
    # ONLY=arch,arch and SHAPES=static,dynamic narrow the run.
    only = os.environ.get("ONLY", "").split(",") if os.environ.get("ONLY") else None
    shape_list = os.environ.get("SHAPES", ",".join(SHAPES)).split(",")
    for arch in ARCHS:
        if only and arch not in only:
            continue
        for attn in ("eager", "sdpa"):
            for shapes in shape_list:
                try:
                    trace(arch, attn, shapes)
                except Exception as e:
                    message = str(e).strip().splitlines()
                    manifest["failures"].append({
                        "what": f"{arch} {attn} {shapes}",
                        "error": f"{type(e).__name__}: {message[0] if message else ''}"})
                print(arch, attn, shapes, "graphs so far", len(manifest["graphs"]),
                      flush=True)
                with open(os.path.join(OUT, "manifest.json"), "w") as f:
                    json.dump(manifest, f, indent=1)

with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
