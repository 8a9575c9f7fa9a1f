#!/usr/bin/env python3
"""Writes a real TORCH_COMPILE_DEBUG tree: the tiny Llama of trace_hf_torch2.py (eager
attention, static shapes) compiled by Inductor on the CPU with TORCH_COMPILE_DEBUG=1 in
the current directory. Run with torch >= 2.4 and transformers (see README.md)."""
import os
import sys

os.environ["TORCH_COMPILE_DEBUG"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.argv = [sys.argv[0], "/tmp/unused-trace-out"]
os.environ["ONLY"] = "none"  # import the definitions without tracing everything
import torch  # noqa: E402
import trace_hf_torch2 as t  # noqa: E402

model = t.build("llama", "eager")
ids = torch.randint(0, 128, (2, 8))
with torch.no_grad():
    torch.compile(model, backend="inductor")(input_ids=ids)
print("debug tree written under", os.getcwd())
