#!/usr/bin/env python3
"""Per-graph results of the model corpus as a Markdown table for docs/benchmarks.md.

By default the live corpus (python/tests/test_live_corpus.py): the tiny transformers
models of python/tests/hf_models.py traced with make_fx on the installed torch, per
architecture in bf16 and fp32 with static shapes and in bf16 with symbolic shapes;
each graph is optimized with eqfuse.optimize, the optimized GraphModule's output is
compared with the traced one (torch.equal), and the input graph and the result,
written as FX text, go through `eqfuse check`.  With --files, the FX files of a
folder instead (e.g. the committed torch 2.11 traces): `eqfuse optimize`
(--stats-json), then `eqfuse check` of the input against the result.

    PYTHONPATH=build/python .venv/bin/python bench/corpus_table.py
    PYTHONPATH=build/python .venv/bin/python bench/corpus_table.py --only llama gpt2 \\
        --dtypes bf16 --modes static
    .venv/bin/python bench/corpus_table.py --files tests/data/torch2 [--only NAME ...]

Columns: call nodes (of the input: FX call_function nodes less getitems), kernels
before -> after and the fusions fired (optimize's stats), optimize time (live: the C++
optimize of eqfuse.optimize, without the GraphModule conversions; --files: the
`eqfuse optimize` process), torch.equal of the live outputs, the `eqfuse check`
verdict (reference mode: fused kernels round like the chain they replace, outputs
exact) and its time, the largest deviation the real fused numerics cause on check's
random inputs (max abs err over the outputs check reports; 0 when identical), and
the ops eqfuse kept opaque (no schema).  --details lists the first error of each
failing graph.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

OPAQUE_RE = re.compile(r"ops? without a schema kept opaque \(passed through unchanged\): (.*)$")
DEVIATION_RE = re.compile(r"max abs err ([0-9.eE+\-]+|inf|nan)")


def run(cmd: List[str]):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, time.perf_counter() - t0


def opaque_ops(stderr: str) -> List[str]:
    for line in stderr.splitlines():
        m = OPAQUE_RE.search(line)
        if m:
            return [op.strip() for op in m.group(1).split(",")]
    return []


def first_error(p) -> str:
    lines = [ln for ln in (p.stderr + p.stdout).splitlines()
             if ln.strip() and "kept opaque" not in ln]
    return lines[0] if lines else f"exit {p.returncode}"


def check_result(p) -> Dict[str, object]:
    out = p.stdout.strip().splitlines()
    head = out[0] if out else ""
    if p.returncode == 0 and head.startswith("equivalent"):
        devs = [float(m.group(1)) for ln in out for m in [DEVIATION_RE.search(ln)] if m]
        return {"verdict": "equivalent", "deviation": max(devs) if devs else 0.0}
    if p.returncode == 1:
        return {"verdict": "NOT equivalent", "detail": head, "deviation": None}
    return {"verdict": f"error (exit {p.returncode})", "detail": first_error(p), "deviation": None}


def check(eqfuse: str, a: str, b: str) -> Dict[str, object]:
    p, t = run([eqfuse, "check", a, b])
    row = check_result(p)
    row["check_s"] = t
    return row


# ---- FX files (--files) ---------------------------------------------------------------


def file_call_nodes(eqfuse: str, graph: str) -> int:
    p, _ = run([eqfuse, "print", graph, "--format", "json", "--compact"])
    if p.returncode != 0:
        return -1
    return doc_call_nodes(json.loads(p.stdout))


def doc_call_nodes(doc) -> int:
    """Call nodes of an eqfuse-graph document (FX call_function nodes less getitems)."""
    return sum(1 for n in doc["nodes"] if n["op"] == "call_function")


def analyse_file(eqfuse: str, graph: str, tmp: str) -> Dict[str, object]:
    name = os.path.splitext(os.path.basename(graph))[0]
    row: Dict[str, object] = {"graph": name, "call_nodes": file_call_nodes(eqfuse, graph)}
    opt = os.path.join(tmp, name + ".opt.txt")
    stats_path = os.path.join(tmp, name + ".stats.json")
    p, t_opt = run([eqfuse, "optimize", graph, "-o", opt, "--stats-json", stats_path])
    row["optimize_ms"] = t_opt * 1e3
    row["opaque"] = opaque_ops(p.stderr)
    if p.returncode != 0:
        row.update(verdict=f"optimize error (exit {p.returncode})", detail=first_error(p))
        return row
    with open(stats_path) as f:
        stats = json.load(f)
    row["kernels"] = (stats["kernels_before"], stats["kernels_after"])
    row["fusions"] = stats["fusions"]
    row.update(check(eqfuse, graph, opt))
    return row


# ---- the live corpus --------------------------------------------------------------------

DTYPES = {"bf16": "bfloat16", "fp32": "float32"}


def live_cases(archs: List[str], dtypes: List[str], modes: List[str]):
    """(arch, dtype name, mode): every architecture static in each dtype, and symbolic
    in bf16 (the dtype transformers' MoE experts trace in with both modes)."""
    out = []
    for mode in modes:
        for dtype in dtypes:
            if mode == "symbolic" and dtype != "bf16":
                continue
            out += [(arch, dtype, mode) for arch in archs]
    return out


def analyse_live(eqfuse_bin: str, arch: str, dtype: str, mode: str, tmp: str):
    import torch
    import eqfuse
    import test_live_corpus as live
    name = f"{arch} {dtype} {mode}"
    row: Dict[str, object] = {"graph": name}
    try:
        gm, _, ids = live.trace_live(arch, getattr(torch, DTYPES[dtype]), mode)
    except Exception as e:  # report, do not stop the table
        row.update(verdict="trace error", detail=f"{type(e).__name__}: {str(e).splitlines()[0]}")
        return row
    doc = eqfuse.to_document(gm, [ids])
    row["call_nodes"] = doc_call_nodes(doc)
    try:
        r = eqfuse.optimize(gm, [ids])
    except Exception as e:
        row.update(verdict="optimize error", detail=f"{type(e).__name__}: {e}")
        return row
    row["kernels"] = (r.stats["kernels_before"], r.stats["kernels_after"])
    row["fusions"] = r.fusions
    row["optimize_ms"] = r.timings["optimize_s"] * 1e3
    row["opaque"] = list(r.opaque_ops)
    with torch.no_grad():
        a, b = gm(ids), r.graph_module(ids)
    if torch.equal(a, b):
        row["equal"] = "equal"
    else:
        row["equal"] = f"differ ({float((a.float() - b.float()).abs().max()):.3g})"
    stem = name.replace(" ", "_")
    src, opt = os.path.join(tmp, stem + ".txt"), os.path.join(tmp, stem + ".opt.txt")
    with open(src, "w") as f:
        f.write(live.fx_text(doc, tmp, stem, eqfuse_bin))
    with open(opt, "w") as f:
        f.write(r.fx_text)
    row.update(check(eqfuse_bin, src, opt))
    if "detail" in row:
        row["detail"] = str(row["detail"]).replace(tmp + os.sep, "")
    return row


# ---- the table ---------------------------------------------------------------------------


def fmt_fusions(f: Dict[str, int]) -> str:
    return ", ".join(f"{k} x{v}" for k, v in sorted(f.items())) or "none"


def table(rows: List[Dict[str, object]], live: bool) -> str:
    head = ["graph", "call nodes", "kernels", "fusions", "optimize (ms)"]
    if live:
        head.append("torch.equal")
    head += ["check", "check (s)", "fused numerics max abs dev", "opaque ops"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        k = r.get("kernels")
        dev = r.get("deviation")
        cells = [
            f"`{r['graph']}`",
            str(r.get("call_nodes", "-")),
            f"{k[0]} -> {k[1]}" if k else "-",
            fmt_fusions(r.get("fusions", {})),
            f"{r['optimize_ms']:.0f}" if "optimize_ms" in r else "-",
        ]
        if live:
            cells.append(str(r.get("equal", "-")))
        cells += [
            str(r.get("verdict", "-")),
            f"{r['check_s']:.2f}" if "check_s" in r else "-",
            "-" if dev is None else f"{dev:.3g}",
            ", ".join(o.replace("aten::", "") for o in r.get("opaque", [])) or "none",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eqfuse", default=os.environ.get("EQFUSE_BINARY",
                                                       os.path.join(ROOT, "build", "eqfuse")))
    ap.add_argument("--files", metavar="DIR",
                    help="a folder of FX files (*.txt) instead of the live corpus")
    ap.add_argument("--only", nargs="*",
                    help="architectures (live) or file names without .txt (--files)")
    ap.add_argument("--dtypes", nargs="*", choices=sorted(DTYPES), default=["bf16", "fp32"])
    ap.add_argument("--modes", nargs="*", choices=["static", "symbolic"],
                    default=["static", "symbolic"])
    ap.add_argument("--details", action="store_true",
                    help="list the first mismatch / error of each failing graph")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.files:
            graphs = sorted(glob.glob(os.path.join(args.files, "*.txt")))
            if args.only:
                graphs = [g for g in graphs
                          if os.path.splitext(os.path.basename(g))[0] in args.only]
            rows = [analyse_file(args.eqfuse, g, tmp) for g in graphs]
        else:
            sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
            import npu_standins  # noqa: F401  (the npu ops, as the tests' conftest does)
            import hf_models
            archs = args.only or list(hf_models.ARCHS)
            rows = []
            for arch, dtype, mode in live_cases(archs, args.dtypes, args.modes):
                rows.append(analyse_live(args.eqfuse, arch, dtype, mode, tmp))
                print(f"{rows[-1]['graph']}: {rows[-1].get('verdict')}", file=sys.stderr)
    print(table(rows, live=not args.files))
    if args.details:
        for r in rows:
            if r.get("detail"):
                print(f"\n- `{r['graph']}`: {r['detail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
