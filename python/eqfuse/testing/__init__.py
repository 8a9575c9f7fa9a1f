"""Helpers for running and testing eqfuse-optimized graphs on machines without
an Ascend NPU.

Submodules (imported on demand, never by ``import eqfuse.testing`` itself):

``eqfuse.testing.npu_reference``
    CPU reference implementations of the fused NPU ops eqfuse's rules emit
    (``torch.ops.npu.*``, vllm-ascend's ``torch.ops.vllm.*`` and
    ``torch.ops._C_ascend.npu_add_rms_norm_bias``), registered with
    ``torch.library`` together with fake (meta) kernels, so that graphs calling
    them can be traced (make_fx, TorchDynamo / torch.compile, AOTAutograd) and
    run on CPU.  Importing it registers the ops that are not defined yet.

This package is pure Python: it needs torch but not eqfuse's C++ extension.
"""
