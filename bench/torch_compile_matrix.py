#!/usr/bin/env python3
"""eqfuse inside torch.compile on the Hugging Face architectures of
python/tests/hf_models.py (tiny configs, random weights, nothing downloaded), as a
Markdown table for docs/benchmarks.md: the full matrix the tests sample.

    .venv/bin/python bench/torch_compile_matrix.py                  # every case, eager runs
    .venv/bin/python bench/torch_compile_matrix.py --arch llama,gpt2 --inductor
    .venv/bin/python bench/torch_compile_matrix.py --convert-only    # + ViT: conversion cost

Per case (architecture x dtype x attention x static/dynamic x how eqfuse runs): the
graphs Dynamo made, call nodes, kernels before -> after and the fusions (summed over the
graphs), the time eqfuse spent converting the GraphModule, optimizing in C++ and
rebuilding the result, and the equivalence verdict: `exact` (torch.equal with the
uncompiled model; eqfuse.backend() with inner=None), or the max abs difference to
Inductor alone (inner="inductor" and GraphPass). The build tree's package is used when
it exists (PYTHONPATH=build/python), else the installed one.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
if os.path.isdir(os.path.join(ROOT, "build", "python", "eqfuse")):
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))

import torch  # noqa: E402

import eqfuse  # noqa: E402
import eqfuse.testing.npu_reference  # noqa: E402,F401
import hf_models  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16}


def call(model, ids):
    if "Bert" in type(getattr(model, "_orig_mod", model)).__name__:
        return hf_models.output_of(model(ids))
    return hf_models.output_of(model(ids, use_cache=False))


def compiled_output(model, ids, backend, dynamic):
    torch._dynamo.reset()
    with torch.no_grad():
        return call(torch.compile(model, backend=backend, dynamic=dynamic), ids)


def summarise(results):
    calls = kb = ka = 0
    fusions: dict = {}
    t = {"convert_s": 0.0, "optimize_s": 0.0, "rebuild_s": 0.0}
    for r in results:
        if r is None:
            continue
        s = r.stats
        kb += s["kernels_before"]
        ka += s["kernels_after"]
        calls += sum(1 for n in r.document["nodes"] if n["op"] == "call_function")
        for k, v in r.fusions.items():
            fusions[k] = fusions.get(k, 0) + v
        for k in t:
            t[k] += r.timings.get(k, 0.0)
    return calls, kb, ka, fusions, t


def run_case(arch, dtype_name, attn, dynamic, how):
    import torch._inductor.config as inductor_config
    model = hf_models.build(arch, DTYPES[dtype_name], attn=attn)
    ids = hf_models.inputs()
    t0 = time.perf_counter()
    if how == "backend":
        be = eqfuse.backend()
        out = compiled_output(model, ids, be, dynamic)
        with torch.no_grad():
            ref = call(model, ids)
        verdict = "exact" if torch.equal(out, ref) else f"differs {(out - ref).abs().max():.2e}"
        results = be.results
    else:
        with inductor_config.patch(fx_graph_cache=False):
            ref = compiled_output(model, ids, "inductor", dynamic)
            if how == "inductor":
                be = eqfuse.backend(inner="inductor")
                out = compiled_output(model, ids, be, dynamic)
                results = be.results
            else:
                p = eqfuse.GraphPass()
                with inductor_config.patch(post_grad_custom_post_pass=p):
                    out = compiled_output(model, ids, "inductor", dynamic)
                results = p.results
        verdict = f"max diff {(out.float() - ref.float()).abs().max():.1e} vs Inductor"
    calls, kb, ka, fusions, t = summarise(results)
    fused = ", ".join(f"{k.split('/')[-1]} x{v}" for k, v in sorted(fusions.items())) or "-"
    return (f"| {arch} | {dtype_name} | {attn} | {'dynamic' if dynamic else 'static'} | {how} "
            f"| {len(results)} | {calls} | {kb} -> {ka} | {fused} | {t['convert_s'] * 1e3:.0f} "
            f"| {t['optimize_s'] * 1e3:.0f} | {t['rebuild_s'] * 1e3:.0f} | {verdict} "
            f"| {time.perf_counter() - t0:.1f} |")


def conversion_only(archs):
    """make_fx traces (static, bf16; ViT fp32) through eqfuse.optimize with example inputs: the time
    to convert the GraphModule (with its meta, and with every node's meta stripped, which
    makes eqfuse propagate fake tensors), to optimize in C++ and to rebuild the result."""
    import copy
    from torch.fx.experimental.proxy_tensor import make_fx
    print("| model | call nodes | convert ms (meta) | convert ms (no meta) | optimize ms | "
          "rebuild ms |")
    print("|---|---|---|---|---|---|")
    # bf16: torch 2.13's fake kernel of grouped_mm (the MoE experts) takes only bf16.
    models = [(f"{a} (bf16)", hf_models.build(a, torch.bfloat16), hf_models.inputs())
              for a in archs]
    try:
        import transformers
        cfg = transformers.ViTConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                                     intermediate_size=3072, image_size=224, patch_size=16)
        torch.manual_seed(0)
        models.append(("ViT-B/16 (transformers config)", transformers.ViTModel(cfg).eval(),
                       torch.randn(1, 3, 224, 224)))
    except Exception as e:  # noqa: BLE001
        print(f"(ViT skipped: {e})", file=sys.stderr)
    def forward_of(model):
        if "ViT" in type(model).__name__ or "Bert" in type(model).__name__:
            return lambda t: hf_models.output_of(model(t))
        return lambda t: hf_models.output_of(model(t, use_cache=False))

    for name, model, x in models:
        forward = forward_of(model)
        with torch.no_grad():
            gm = make_fx(forward, tracing_mode="fake", _allow_non_fake_inputs=True)(x)
            r = eqfuse.optimize(gm, [x])
            r.graph_module  # noqa: B018  (rebuilt and timed)
            bare = torch.fx.GraphModule(gm, copy.deepcopy(gm.graph))
            for n in bare.graph.nodes:
                n.meta.clear()
            r_bare = eqfuse.optimize(bare, [x])
        calls = sum(1 for n in gm.graph.nodes if n.op == "call_function")
        t = r.timings
        print(f"| {name} | {calls} | {t['convert_s'] * 1e3:.0f} | "
              f"{r_bare.timings['convert_s'] * 1e3:.0f} | {t['optimize_s'] * 1e3:.0f} | "
              f"{t.get('rebuild_s', 0) * 1e3:.0f} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default=",".join(hf_models.ARCHS))
    ap.add_argument("--dtype", default="fp32,bf16")
    ap.add_argument("--attn", default="eager,sdpa")
    ap.add_argument("--shapes", default="static,dynamic")
    ap.add_argument("--inductor", action="store_true",
                    help="also inner='inductor' and GraphPass in Inductor (slow: C++ codegen)")
    ap.add_argument("--how", default=None,
                    help="comma list of backend, inductor, graph_pass (default: backend, plus "
                         "the two Inductor ways with --inductor)")
    ap.add_argument("--convert-only", action="store_true",
                    help="the conversion-cost table (make_fx traces, ViT-B/16 included)")
    a = ap.parse_args()
    archs = [x for x in a.arch.split(",") if x]
    unknown = [x for x in archs if x not in hf_models.ARCHS]
    if unknown:
        sys.exit(f"unknown architecture {unknown[0]} (known: {', '.join(hf_models.ARCHS)})")
    if a.convert_only:
        conversion_only(archs)
        return
    hows = ["backend"] + (["inductor", "graph_pass"] if a.inductor else [])
    if a.how:
        hows = [h for h in a.how.split(",") if h]
        bad = [h for h in hows if h not in ("backend", "inductor", "graph_pass")]
        if bad:
            sys.exit(f"unknown --how {bad[0]} (known: backend, inductor, graph_pass)")
    print(f"torch {torch.__version__}, eqfuse {eqfuse.__version__}")
    print("| arch | dtype | attention | shapes | eqfuse as | graphs | call nodes | kernels "
          "| fusions | convert ms | optimize ms | rebuild ms | equivalence | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for arch in archs:
        for dt in a.dtype.split(","):
            for attn in a.attn.split(","):
                for shapes in a.shapes.split(","):
                    for how in hows:
                        try:
                            row = run_case(arch, dt, attn, shapes == "dynamic", how)
                        except Exception as e:  # noqa: BLE001  one failing case is a row
                            row = (f"| {arch} | {dt} | {attn} | {shapes} | {how} | error: "
                                   f"{type(e).__name__}: {str(e).splitlines()[0][:120]} |")
                        print(row, flush=True)


if __name__ == "__main__":
    main()
