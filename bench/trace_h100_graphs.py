#!/usr/bin/env python3
"""Trace small Hugging Face decoders to AOTAutograd inference graphs and time
each whole graph on a CUDA GPU, eager and replayed as one CUDA graph.

Writes <out>/<model>.fx (print_readable text, as TORCH_COMPILE_DEBUG does) and
<out>/whole_graph_times.json in the format `eqfuse calibrate --whole-graph`
and `eqfuse cost --measured` read. Needs torch >= 2.1, transformers and a GPU;
it is how tests/data/measurements/h100-heldout/ was made (docs/benchmarks.md).

    python3 bench/trace_h100_graphs.py OUT_DIR [model_type ...]
"""
import json
import sys
import time

import torch
import transformers
from torch._dynamo.backends.common import aot_autograd

SMALL = dict(hidden_size=128, intermediate_size=256, num_hidden_layers=2,
             num_attention_heads=4, num_key_value_heads=2, vocab_size=256,
             max_position_embeddings=64)


def capture(model, ids):
    captured = {}

    def fw(gm, example_inputs):
        captured["gm"] = gm

        def run(args):
            if "args" not in captured:
                captured["args"] = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
            return gm(*args)

        run._boxed_call = True
        return run

    torch._dynamo.reset()
    compiled = torch.compile(model, backend=aot_autograd(fw_compiler=fw), dynamic=False)
    with torch.no_grad():
        compiled(ids)
    return captured["gm"], captured["args"]


def time_eager(gm, args, runs=20):
    with torch.no_grad():
        for _ in range(3):
            gm(*args)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(runs):
            gm(*args)
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / runs * 1e6


def time_replay(gm, args, runs=20):
    with torch.no_grad():
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                gm(*args)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            gm(*args)
        g.replay()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(runs):
            g.replay()
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / runs * 1e6


def main():
    out = sys.argv[1]
    kinds = sys.argv[2:] or ["qwen3", "phi3", "olmo2", "starcoder2", "granite"]
    times = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
             "transformers": transformers.__version__,
             "note": "whole graph: GraphModule called from Python (eager, 20 runs averaged) "
                     "and one call captured in a CUDA graph (replay, 20 replays averaged); "
                     "two separate runs", "graphs": {}}
    for kind in kinds:
        try:
            cfg = transformers.AutoConfig.for_model(kind, **SMALL)
            cfg.attn_implementation = "eager"
            torch.manual_seed(0)
            model = transformers.AutoModelForCausalLM.from_config(
                cfg, attn_implementation="eager").cuda().eval()
            ids = torch.randint(0, SMALL["vocab_size"], (1, 16), device="cuda")
            gm, args = capture(model, ids)
            text = gm.print_readable(print_output=False)
            with open(f"{out}/{kind}.fx", "w") as f:
                f.write(text)
            runs = [{"eager_us": round(time_eager(gm, args), 1),
                     "graph_replay_us": round(time_replay(gm, args), 1)} for _ in range(2)]
            times["graphs"][f"{kind}.fx"] = runs
            print(kind, runs, flush=True)
        except Exception as e:  # one model failing must not lose the others
            print(f"{kind}: skipped: {type(e).__name__}: {e}", flush=True)
    with open(f"{out}/whole_graph_times.json", "w") as f:
        json.dump(times, f, indent=1)


if __name__ == "__main__":
    main()
