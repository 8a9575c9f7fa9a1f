"""The CPU stand-ins of the NPU ops, now the public module
eqfuse.testing.npu_reference (python/eqfuse/testing/npu_reference.py).  This
shim keeps ``import npu_standins`` and ``from npu_standins import torch_npu``
working for the tests and tests/data/corpus/trace_corpus.py; importing it
registers the ops."""
try:
    from eqfuse.testing.npu_reference import *  # noqa: F401,F403
    from eqfuse.testing.npu_reference import (_CODES, SCHEMAS, OPS, register,  # noqa: F401
                                              torch_npu)
except ImportError:
    # eqfuse's C++ extension is not built, so the eqfuse package does not import:
    # load the pure-Python module file from the source tree instead.
    import importlib.util
    import os
    import sys

    _spec = importlib.util.spec_from_file_location(
        "_eqfuse_npu_reference",
        os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "eqfuse",
                     "testing", "npu_reference.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _module
    _spec.loader.exec_module(_module)
    globals().update({name: getattr(_module, name) for name in _module.__all__ + ["_CODES"]})
