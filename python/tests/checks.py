"""Assertions the Python suites share."""
import torch


def assert_same_outputs(a, b):
    """Same number of outputs, and each pair bit-identical (dtype, shape, values)."""
    a = a if isinstance(a, (tuple, list)) else (a,)
    b = b if isinstance(b, (tuple, list)) else (b,)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert torch.equal(x, y)
