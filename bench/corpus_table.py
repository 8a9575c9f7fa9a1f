#!/usr/bin/python3
"""Per-graph results of the model corpus (tests/data/corpus/*.txt) as a
Markdown table for docs/benchmarks.md: for each graph, `eqfuse optimize`
(--stats-json) then `eqfuse check` of the input against the result.

    bench/corpus_table.py                        # build/eqfuse, every corpus graph
    bench/corpus_table.py --eqfuse build-x/eqfuse --only llama_npu_static
    bench/corpus_table.py --live                 # + eqfuse.optimize on the live
                                                 #   GraphModule, torch.equal of outputs

Columns: call nodes (call_function nodes of the input), kernels before -> after
and the fusions fired (optimize's stats), optimize and check wall time, the
check verdict (reference mode: fused kernels round like the chain they
replace, outputs exact), the largest deviation the real fused numerics cause
(max abs err over the outputs `check` reports; 0 when identical), and the ops
eqfuse kept opaque (no schema).  --live needs /usr/bin/python3 with torch.
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
CORPUS = os.path.join(ROOT, "tests", "data", "corpus")

OPAQUE_RE = re.compile(r"ops? without a schema kept opaque \(passed through unchanged\): (.*)$")
DEVIATION_RE = re.compile(r"max abs err ([0-9.eE+\-]+|inf|nan)")


def run(cmd: List[str]):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, time.perf_counter() - t0


def call_nodes(eqfuse: str, graph: str) -> int:
    p, _ = run([eqfuse, "print", graph, "--format", "json", "--compact"])
    if p.returncode != 0:
        return -1
    return sum(1 for n in json.loads(p.stdout)["nodes"] if n["op"] == "call_function")


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


def analyse(eqfuse: str, graph: str, tmp: str) -> Dict[str, object]:
    name = os.path.splitext(os.path.basename(graph))[0]
    row: Dict[str, object] = {"graph": name, "call_nodes": call_nodes(eqfuse, graph)}
    opt = os.path.join(tmp, name + ".opt.txt")
    stats_path = os.path.join(tmp, name + ".stats.json")
    p, t_opt = run([eqfuse, "optimize", graph, "-o", opt, "--stats-json", stats_path])
    row["optimize_s"] = t_opt
    row["opaque"] = opaque_ops(p.stderr)
    if p.returncode != 0:
        row.update(verdict=f"optimize error (exit {p.returncode})", detail=first_error(p))
        return row
    with open(stats_path) as f:
        stats = json.load(f)
    row["kernels"] = (stats["kernels_before"], stats["kernels_after"])
    row["fusions"] = stats["fusions"]
    p, t_check = run([eqfuse, "check", graph, opt])
    row["check_s"] = t_check
    row.update(check_result(p))
    return row


def live_results(names: List[str]) -> Dict[str, str]:
    """eqfuse.optimize on the freshly traced GraphModule; torch.equal of outputs."""
    sys.path.insert(0, CORPUS)
    import torch
    import trace_corpus as tc
    import eqfuse
    out = {}
    for name in names:
        m = re.fullmatch(r"(.+)_(aten|npu)_(static|symbolic)", name)
        if not m or m.group(3) != "static":
            continue
        arch, flavour = m.group(1), m.group(2)
        gm = tc.trace(arch, flavour)
        inputs = tc.example_inputs(arch)
        try:
            r = eqfuse.optimize(gm, inputs)
            a, b = gm(*inputs), r.graph_module(*inputs)
        except Exception as e:  # report, do not stop the table
            out[name] = f"error: {type(e).__name__}"
            continue
        a = a if isinstance(a, (tuple, list)) else (a,)
        b = b if isinstance(b, (tuple, list)) else (b,)
        if all(torch.equal(x, y) for x, y in zip(a, b)):
            out[name] = "equal"
        else:
            diff = max(float((x.float() - y.float()).abs().max()) for x, y in zip(a, b))
            out[name] = f"differ ({diff:.3g})"
    return out


def fmt_fusions(f: Dict[str, int]) -> str:
    return ", ".join(f"{k} x{v}" for k, v in sorted(f.items())) or "none"


def table(rows: List[Dict[str, object]], live: Optional[Dict[str, str]]) -> str:
    head = ["graph", "call nodes", "kernels", "fusions", "optimize + check (s)", "check",
            "fused numerics max abs dev"]
    if live is not None:
        head.append("torch.equal (live)")
    head.append("opaque ops")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        k = r.get("kernels")
        dev = r.get("deviation")
        cells = [
            f"`{r['graph']}`",
            str(r["call_nodes"]),
            f"{k[0]} -> {k[1]}" if k else "-",
            fmt_fusions(r.get("fusions", {})),
            f"{r.get('optimize_s', 0):.2f} + {r.get('check_s', 0):.2f}",
            str(r.get("verdict", "-")),
            "-" if dev is None else f"{dev:.3g}",
        ]
        if live is not None:
            cells.append(live.get(str(r["graph"]), "-"))
        cells.append(", ".join(o.replace("aten::", "") for o in r.get("opaque", [])) or "none")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--eqfuse", default=os.path.join(ROOT, "build", "eqfuse"))
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--only", nargs="*", help="graph names (file names without .txt)")
    ap.add_argument("--live", action="store_true", help="also compare outputs in PyTorch")
    ap.add_argument("--details", action="store_true",
                    help="list the first mismatch / error of each failing graph")
    args = ap.parse_args(argv)
    graphs = sorted(glob.glob(os.path.join(args.corpus, "*.txt")))
    if args.only:
        graphs = [g for g in graphs if os.path.splitext(os.path.basename(g))[0] in args.only]
    with tempfile.TemporaryDirectory() as tmp:
        rows = [analyse(args.eqfuse, g, tmp) for g in graphs]
    live = live_results([str(r["graph"]) for r in rows]) if args.live else None
    print(table(rows, live))
    if args.details:
        for r in rows:
            if r.get("detail"):
                print(f"\n- `{r['graph']}`: {r['detail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
