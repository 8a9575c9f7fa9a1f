"""Shared fixtures of the eqfuse Python tests: the npu stand-ins and the
traced test models (tests/models.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import npu_standins  # noqa: E402,F401  (registers torch.ops.npu.* stand-ins)
