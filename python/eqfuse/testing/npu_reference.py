"""CPU reference implementations of the fused NPU ops that eqfuse emits.

eqfuse rewrites FX graphs to call fused Ascend kernels: torch_npu's
``torch.ops.npu.*`` (npu_rms_norm, npu_add_rms_norm, npu_quant_matmul,
npu_fusion_attention, ...), vllm-ascend's ``torch.ops.vllm.*`` (muls_add,
npu_rotary_embedding, qkv_rmsnorm_rope, quantize) and
``torch.ops._C_ascend.npu_add_rms_norm_bias``, and torch_npu's matmul + communication
(MC2) kernels (npu_mm_all_reduce_base, npu_all_gather_base_mm,
npu_mm_reduce_scatter_base, npu_mm_all_reduce_add_rms_norm) on a torch.distributed process
group, such as gloo's on CPU.  Without an NPU, torch_npu and
vllm-ascend are normally not installed, those ops do not exist, and an optimized
graph can be neither traced nor run.  This module defines them for CPU (and any
other device torch runs the unfused ops on)::

    import eqfuse
    import eqfuse.testing.npu_reference      # defines the ops that are missing

    result = eqfuse.optimize(gm)
    result.graph_module(*inputs)             # runs on CPU
    torch.compile(result.graph_module, backend="aot_eager")(*inputs)

Import it before tracing or running a graph that calls the fused ops (before
``torch.compile`` with eqfuse's backend too).  ``register()`` does the same
registration explicitly; ``OPS`` lists every op the module provides.

Each op is defined with its torch_npu / vllm-ascend schema (``SCHEMAS`` for the
``npu`` namespace, as in eqfuse's graph/ops/builtin.schemas), a
``CompositeExplicitAutograd`` kernel (the reference function of the same name
below) and a fake kernel (``torch.library.register_fake``), so FakeTensorMode,
make_fx (real, fake and symbolic tracing), TorchDynamo and AOTAutograd keep a
call as one opaque node and know its output shapes and dtypes without running it.

Numerics: every op is computed as the chain of unfused ops it replaces, with the
same intermediate roundings (a float16 sum stored in float16 before the norm,
float32 statistics, int8 round-half-to-even, ...), so on CPU an optimized graph and
the original graph give bit-identical outputs (``torch.equal``).  These are
therefore references for checking rewrites, not bit-exact models of the device
kernels, whose results may differ in the last bits.  Only the argument
combinations eqfuse's rules produce are implemented; others raise
NotImplementedError.

Ops that already exist are left alone: an op defined before this module is
imported (by torch_npu, vllm-ascend, or an earlier copy of this module) is not
redefined and its kernels are not touched, so on a machine with torch_npu the
import is a no-op for every op torch_npu has registered.  Import torch_npu /
vllm-ascend first when you have them.  Importing the module again, or calling
``register()`` again, changes nothing.

``torch_npu`` below stands in for the module of that name for code written
against it: ``torch_npu.npu_rms_norm(x, gamma)`` calls
``torch.ops.npu.npu_rms_norm``.
"""
import functools

import torch

__all__ = [
    "SCHEMAS", "OPS", "register", "torch_npu",
    "npu_rms_norm", "npu_quantize", "npu_add_rms_norm_quant", "npu_rms_norm_quant",
    "npu_rotary_mul", "npu_fusion_attention", "npu_fusion_attention_v2", "npu_add_rms_norm",
    "npu_dynamic_quant", "npu_swiglu", "npu_dequant_swiglu_quant",
    "npu_add_rms_norm_dynamic_quant", "npu_add_layer_norm", "npu_add_rms_norm_cast",
    "npu_transpose_batchmatmul", "npu_quant_matmul", "npu_add_rms_norm_bias",
    "vllm_quantize", "muls_add", "npu_rotary_embedding", "qkv_rmsnorm_rope",
    "npu_mm_all_reduce_base", "npu_all_gather_base_mm", "npu_mm_reduce_scatter_base",
    "npu_mm_all_reduce_add_rms_norm",
]

SCHEMAS = {
    "npu_rms_norm": "npu_rms_norm(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor y, Tensor rstd)",
    "npu_quantize": "npu_quantize(Tensor self, Tensor scales, Tensor? zero_points, int dtype, "
                    "int axis=1, bool div_mode=True) -> Tensor",
    "npu_add_rms_norm_quant":
        "npu_add_rms_norm_quant(Tensor x1, Tensor x2, Tensor gamma, Tensor scales1, "
        "Tensor? zero_points1, Tensor? beta=None, Tensor? scales2=None, Tensor? zero_points2=None, "
        "*, int axis=-1, float epsilon=1e-06, bool div_mode=True, int? dst_type=None) "
        "-> (Tensor y1, Tensor y2, Tensor x)",
    "npu_rms_norm_quant": "npu_rms_norm_quant(Tensor x, Tensor gamma, Tensor beta, Tensor scale, "
                          "Tensor offset, float epsilon=1e-06, int? dst_dtype=None) -> Tensor",
    "npu_rotary_mul": "npu_rotary_mul(Tensor self, Tensor r1, Tensor r2, str rotary_mode=\"half\") -> Tensor",
    "npu_fusion_attention":
        "npu_fusion_attention(Tensor query, Tensor key, Tensor value, int head_num, "
        "str input_layout, Tensor? pse=None, Tensor? padding_mask=None, Tensor? atten_mask=None, "
        "float scale=1., float keep_prob=1., int pre_tockens=2147483647, "
        "int next_tockens=2147483647, int inner_precise=0, int[]? prefix=None, "
        "int[]? actual_seq_qlen=None, int[]? actual_seq_kvlen=None, int sparse_mode=0, "
        "bool gen_mask_parallel=True, bool sync=False) "
        "-> (Tensor, Tensor, Tensor, Tensor, int, int, int)",
    "npu_fusion_attention_v2":
        "npu_fusion_attention_v2(Tensor query, Tensor key, Tensor value, int head_num, "
        "str input_layout, *, Tensor? pse=None, Tensor? padding_mask=None, "
        "Tensor? atten_mask=None, float scale=1., float keep_prob=1., "
        "int pre_tokens=2147483647, int next_tokens=2147483647, int inner_precise=0, "
        "int[]? prefix=None, int[]? actual_seq_qlen=None, int[]? actual_seq_kvlen=None, "
        "int sparse_mode=0, bool gen_mask_parallel=True, bool sync=False, int pse_type=1, "
        "int[]? q_start_idx=None, int[]? kv_start_idx=None) "
        "-> (Tensor, Tensor, Tensor, Tensor, int, int, int)",
    "npu_swiglu": "npu_swiglu(Tensor self, int dim=-1) -> Tensor",
    "npu_dequant_swiglu_quant":
        "npu_dequant_swiglu_quant(Tensor x, *, Tensor? weight_scale=None, "
        "Tensor? activation_scale=None, Tensor? bias=None, Tensor? quant_scale=None, "
        "Tensor? quant_offset=None, Tensor? group_index=None, bool activate_left=False, "
        "int quant_mode=0) -> (Tensor y, Tensor scale)",
    "npu_add_rms_norm": "npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) "
                        "-> (Tensor y, Tensor rstd, Tensor x)",
    "npu_dynamic_quant": "npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None, "
                         "Tensor? group_index=None, int? dst_type=None, str quant_mode=\"pertoken\", "
                         "float dst_type_max=0.0) -> (Tensor y, Tensor scale)",
    "npu_add_rms_norm_dynamic_quant":
        "npu_add_rms_norm_dynamic_quant(Tensor x1, Tensor x2, Tensor gamma, *, "
        "Tensor? smooth_scale1=None, Tensor? smooth_scale2=None, Tensor? beta=None, "
        "float epsilon=1e-6, bool[2]? output_mask=None, int? y_dtype=None) "
        "-> (Tensor y1, Tensor y2, Tensor x_out, Tensor scale1, Tensor scale2)",
    "npu_add_layer_norm": "npu_add_layer_norm(Tensor x1, Tensor x2, Tensor gamma, Tensor beta, "
                          "float epsilon=1e-05, bool additional_output=False) "
                          "-> (Tensor y, Tensor mean, Tensor rstd, Tensor x)",
    "npu_add_rms_norm_cast": "npu_add_rms_norm_cast(Tensor x1, Tensor x2, Tensor gamma, "
                             "float epsilon=1e-06) -> (Tensor y_fp32, Tensor y, Tensor rstd, Tensor x)",
    "npu_transpose_batchmatmul":
        "npu_transpose_batchmatmul(Tensor input, Tensor weight, *, Tensor? bias=None, "
        "Tensor? scale=None, int[]? perm_x1=None, int[]? perm_x2=None, int[]? perm_y=None, "
        "int? batch_split_factor=1) -> Tensor",
    "npu_quant_matmul":
        "npu_quant_matmul(Tensor x1, Tensor x2, Tensor scale, *, Tensor? offset=None, "
        "Tensor? pertoken_scale=None, Tensor? bias=None, int? output_dtype=None, "
        "int? x1_dtype=None, int? x2_dtype=None, int? pertoken_scale_dtype=None, "
        "int? scale_dtype=None, int[]? group_sizes=None, Tensor? y_scale=None) -> Tensor",
    # The matmul + communication (MC2) kernels. `hcom` names the group: here the
    # functional collectives' group name ('0' for the default group), as eqfuse's rules
    # pass it; on an NPU it is the HCCL communicator's name.
    "npu_mm_all_reduce_base":
        "npu_mm_all_reduce_base(Tensor x1, Tensor x2, str hcom, *, str reduce_op='sum', "
        "Tensor? bias=None, Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, "
        "Tensor? x3=None, Tensor? dequant_scale=None, Tensor? pertoken_scale=None, "
        "Tensor? comm_quant_scale_1=None, Tensor? comm_quant_scale_2=None, int comm_turn=0, "
        "int antiquant_group_size=0) -> Tensor",
    "npu_all_gather_base_mm":
        "npu_all_gather_base_mm(Tensor input, Tensor x2, str hcom, int world_size, *, "
        "Tensor? bias=None, int gather_index=0, bool gather_output=True, int comm_turn=0) "
        "-> (Tensor, Tensor)",
    "npu_mm_reduce_scatter_base":
        "npu_mm_reduce_scatter_base(Tensor input, Tensor x2, str hcom, int world_size, *, "
        "str reduce_op='sum', Tensor? bias=None, int comm_turn=0) -> Tensor",
    "npu_mm_all_reduce_add_rms_norm":
        "npu_mm_all_reduce_add_rms_norm(Tensor x1, Tensor x2, Tensor residual, Tensor gamma, "
        "str hcom, *, str reduce_op='sum', float epsilon=1e-06, Tensor? bias=None, "
        "Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, "
        "Tensor? dequant_scale=None, int antiquant_group_size=0, int comm_turn=0) "
        "-> (Tensor, Tensor)",
}

# torch ScalarType codes (the `int? *_dtype` arguments).
_CODES = {1: torch.int8, 5: torch.float16, 6: torch.float32, 15: torch.bfloat16}


def _add_rms_norm(x1, x2, gamma, epsilon):
    # The sum is normalized as the unfused add would hand it on: stored in x1's dtype.
    x_out = (x1.float() + x2.float()).to(x1.dtype)
    y, rstd = npu_rms_norm(x_out, gamma, epsilon)
    return y, rstd, x_out


def npu_rms_norm(self, gamma, epsilon=1e-06):
    # LlamaRMSNorm's eager chain (TorchAir's npu_fx_pass pattern): x * rstd stored in
    # self's dtype, then times gamma, so the decomposed form and this agree bit for bit.
    x = self.float()
    rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon)
    return gamma * (x * rstd).to(self.dtype), rstd


def npu_quantize(self, scales, zero_points, dtype, axis=1, div_mode=True):
    """int8 round-half-even(x / scales + zp) (div_mode) or (x * scales + zp), scales and
    zero points along `axis`, computed in float32."""
    if dtype not in (1, 12):
        raise NotImplementedError("stand-in npu_quantize: int8 only")

    def along_axis(p):
        p = p.float()
        if p.dim() == 1 and self.dim() > 1:
            shape = [1] * self.dim()
            shape[axis] = p.numel()
            p = p.reshape(shape)
        return p

    x = self.float()
    v = x / along_axis(scales) if div_mode else x * along_axis(scales)
    if zero_points is not None:
        v = v + along_axis(zero_points)
    return torch.round(v).clamp(-128, 127).to(torch.int8)


def npu_add_rms_norm_quant(x1, x2, gamma, scales1, zero_points1, beta=None, scales2=None,
                           zero_points2=None, axis=-1, epsilon=1e-06, div_mode=True,
                           dst_type=None):
    """torch_npu.npu_add_rms_norm_quant: npu_add_rms_norm (+ beta, rounded as the
    npu_add_rms_norm_bias stand-in rounds it), then npu_quantize of y along the last dim
    with each scale; y2 is zeros without scales2."""
    if axis != -1 or dst_type not in (None, 1, 12):
        raise NotImplementedError("stand-in npu_add_rms_norm_quant: axis -1, int8 only")
    y, _, x_out = npu_add_rms_norm_bias(x1, x2, gamma, beta, epsilon)
    y1 = npu_quantize(y, scales1, zero_points1, 1, -1, div_mode)
    y2 = (npu_quantize(y, scales2, zero_points2, 1, -1, div_mode) if scales2 is not None
          else torch.zeros_like(y1))
    return y1, y2, x_out


def npu_rms_norm_quant(x, gamma, beta, scale, offset, epsilon=1e-06, dst_dtype=None):
    """torch_npu.npu_rms_norm_quant (MindSpore rms_norm_quant_fusion's target), written as
    npu_rms_norm + add(beta) + npu_quantize(div_mode=False), the chain it replaces."""
    if dst_dtype not in (None, 1):
        raise NotImplementedError("stand-in npu_rms_norm_quant: int8 only")
    y = npu_rms_norm(x, gamma.reshape(-1), epsilon)[0] + beta.reshape(-1)
    return npu_quantize(y, scale, offset, 1, -1, False)


def npu_rotary_mul(self, r1, r2, rotary_mode="half"):
    """torch_npu.npu_rotary_mul: self * r1 + rotate(self) * r2 over the last dim, written
    as the chain TorchAir's npu_fx_pass pattern replaces (bit-identical)."""
    if rotary_mode == "half":
        half = self.shape[-1] // 2
        rotated = torch.cat((-self[..., half:], self[..., :half]), dim=-1)
    else:
        rotated = torch.stack((-self[..., 1::2], self[..., ::2]), dim=-1).flatten(-2)
    return self * r1 + rotated * r2


def _fusion_attention(query, key, value, head_num, input_layout, pse, atten_mask, scale,
                      keep_prob, pse_type):
    """torch_npu's npu_fusion_attention (BNSD / BSND, no dropout) written as the eager chain
    TorchAir's npu_fx_pass pattern replaces: q @ k^T stored in q's dtype, times the scale,
    plus pse (pse_type 0; pse_type 1 adds before scaling), fp32 softmax, cast back, @ v.
    kv heads shared by groups of query heads (GQA) are repeated as repeat_kv does."""
    if input_layout not in ("BNSD", "BSND") or keep_prob != 1.0:
        raise NotImplementedError("stand-in npu_fusion_attention: BNSD/BSND, no dropout")
    bsnd = input_layout == "BSND"
    q, k, v = (t.transpose(1, 2) if bsnd else t for t in (query, key, value))
    if k.shape[1] != q.shape[1]:
        group = q.shape[1] // k.shape[1]
        k, v = (t.repeat_interleave(group, dim=1) for t in (k, v))
    s = torch.matmul(q, k.transpose(2, 3))
    if pse is not None and pse_type == 1:
        s = (s + pse) * scale
    else:
        s = s * scale
        if pse is not None:
            s = s + pse
    if atten_mask is not None:
        s = s.masked_fill(atten_mask.bool(), float("-inf"))
    logits = s.float()
    p = torch.softmax(logits, dim=-1).to(q.dtype)
    out = torch.matmul(p, v)
    if bsnd:
        out = out.transpose(1, 2).contiguous()
    row_max = logits.amax(dim=-1, keepdim=True)
    row_sum = torch.exp(logits - row_max).sum(dim=-1, keepdim=True)
    stats = [t.expand(*t.shape[:-1], 8).contiguous() for t in (row_max, row_sum)]
    return out, stats[0], stats[1], q.new_empty([0]), 0, 0, 0


def npu_fusion_attention(query, key, value, head_num, input_layout, pse=None, padding_mask=None,
                         atten_mask=None, scale=1.0, keep_prob=1.0, pre_tockens=2147483647,
                         next_tockens=2147483647, inner_precise=0, prefix=None,
                         actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0,
                         gen_mask_parallel=True, sync=False):
    return _fusion_attention(query, key, value, head_num, input_layout, pse, atten_mask, scale,
                             keep_prob, 1)


def npu_fusion_attention_v2(query, key, value, head_num, input_layout, pse=None,
                            padding_mask=None, atten_mask=None, scale=1.0, keep_prob=1.0,
                            pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                            prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None,
                            sparse_mode=0, gen_mask_parallel=True, sync=False, pse_type=1,
                            q_start_idx=None, kv_start_idx=None):
    return _fusion_attention(query, key, value, head_num, input_layout, pse, atten_mask, scale,
                             keep_prob, pse_type)


def npu_add_rms_norm(x1, x2, gamma, epsilon=1e-06):
    return _add_rms_norm(x1, x2, gamma, epsilon)


def npu_dynamic_quant(input, smooth_scales=None, group_index=None, dst_type=None,
                      quant_mode="pertoken", dst_type_max=0.0):
    if group_index is not None or quant_mode != "pertoken" or dst_type not in (None, 1):
        raise NotImplementedError("stand-in npu_dynamic_quant: per-token int8 only")
    x = input.float()
    if smooth_scales is not None:
        x = x * smooth_scales.float()
    scale = x.abs().amax(-1) / 127.0
    safe = torch.where(scale == 0, torch.ones_like(scale), scale)
    y = torch.round(x / safe.unsqueeze(-1)).clamp(-128, 127).to(torch.int8)
    return y, scale


def npu_swiglu(self, dim=-1):
    """torch_npu.npu_swiglu: silu of the first half along dim times the second, written as
    the aten.silu + aten.mul chain MindSpore's inference_swiglu_fusion replaces."""
    a, b = self.chunk(2, dim)
    return torch.nn.functional.silu(a) * b


def npu_dequant_swiglu_quant(x, weight_scale=None, activation_scale=None, bias=None,
                             quant_scale=None, quant_offset=None, group_index=None,
                             activate_left=False, quant_mode=0):
    """torch_npu.npu_dequant_swiglu_quant on a float x (no dequant), per-token dynamic int8
    quant (quant_mode 1), written as npu_swiglu then npu_dynamic_quant."""
    if any(t is not None for t in (weight_scale, activation_scale, bias, quant_scale,
                                   quant_offset, group_index)) or quant_mode != 1:
        raise NotImplementedError("stand-in npu_dequant_swiglu_quant: float x, quant_mode 1")
    if activate_left:
        y = npu_swiglu(x, -1)
    else:
        a, b = x.chunk(2, -1)
        y = a * torch.nn.functional.silu(b)
    return npu_dynamic_quant(y)


def npu_add_rms_norm_dynamic_quant(x1, x2, gamma, smooth_scale1=None, smooth_scale2=None,
                                   beta=None, epsilon=1e-6, output_mask=None, y_dtype=None):
    y, _, x_out = _add_rms_norm(x1, x2, gamma, epsilon)
    if beta is not None:
        y = (y.float() + beta.float()).to(x1.dtype)
    out1 = True if output_mask is None else bool(output_mask[0])
    out2 = (smooth_scale1 is not None and smooth_scale2 is not None) if output_mask is None \
        else bool(output_mask[1])
    empty_q = torch.empty(0, dtype=torch.int8)
    empty_s = torch.empty(0, dtype=torch.float32)
    y1, s1 = npu_dynamic_quant(y, smooth_scales=smooth_scale1, dst_type=y_dtype) if out1 \
        else (empty_q, empty_s)
    y2, s2 = npu_dynamic_quant(y, smooth_scales=smooth_scale2, dst_type=y_dtype) if out2 \
        else (empty_q.clone(), empty_s.clone())
    return y1, y2, x_out, s1, s2


def npu_add_layer_norm(x1, x2, gamma, beta, epsilon=1e-05, additional_output=False):
    """torch_npu.npu_add_layer_norm (MindSpore's add_layer_norm_fusion target),
    written as the add + native_layer_norm chain it replaces so y and x are
    bit-identical; mean and rstd are fp32 of x's leading dims then one 1, as
    op-plugin allocates them.  Without additional_output x is zeros (the
    device leaves it unwritten)."""
    x = x1 + x2
    y, _, _ = torch.ops.aten.native_layer_norm(x, list(gamma.shape), gamma, beta, epsilon)
    _, mean, rstd = torch.ops.aten.native_layer_norm(x.float(), list(gamma.shape), gamma.float(),
                                                     beta.float(), epsilon)
    stats = tuple(x.shape[:x.dim() - gamma.dim()]) + (1,)
    return (y, mean.reshape(stats), rstd.reshape(stats),
            x if additional_output else torch.zeros_like(x))


def npu_add_rms_norm_cast(x1, x2, gamma, epsilon=1e-06):
    y, rstd, x_out = _add_rms_norm(x1, x2, gamma, epsilon)
    return y.float(), y, rstd, x_out


def npu_transpose_batchmatmul(input, weight, bias=None, scale=None, perm_x1=None, perm_x2=None,
                              perm_y=None, batch_split_factor=1):
    if bias is not None or scale is not None:
        raise NotImplementedError("stand-in npu_transpose_batchmatmul: no bias/scale")
    a = input.permute(list(perm_x1 or [0, 1, 2]))
    w = weight.permute(list(perm_x2 or [0, 1, 2]))
    return torch.bmm(a, w).permute(list(perm_y or [1, 0, 2])).contiguous()


def npu_quant_matmul(x1, x2, scale, offset=None, pertoken_scale=None, bias=None,
                     output_dtype=None, x1_dtype=None, x2_dtype=None, pertoken_scale_dtype=None,
                     scale_dtype=None, group_sizes=None, y_scale=None):
    acc = x1.float() @ x2.float()
    int_bias = bias is not None and not bias.is_floating_point()
    if int_bias:  # int32 bias: added to the accumulator, before the scales
        acc = acc + bias.float()
    acc = acc * scale.float()
    if pertoken_scale is not None:
        acc = acc * pertoken_scale.float().unsqueeze(-1)
    out = _CODES.get(output_dtype, torch.int8) if output_dtype is not None else torch.int8
    if out == torch.int8:
        return torch.round(acc).clamp(-128, 127).to(torch.int8)
    if bias is not None and not int_bias:
        # A float bias after the scales; rounded like the npu_quant_matmul + add chain
        # it replaces (mindspore/quant-matmul-bias), so outputs stay bit-identical.
        return acc.to(out) + bias
    return acc.to(out)


def npu_add_rms_norm_bias(x1, x2, gamma, beta=None, epsilon=1e-06):
    """vllm-ascend's _C_ascend.npu_add_rms_norm_bias: npu_add_rms_norm with beta added
    after gamma, rounded as the npu_add_rms_norm_dynamic_quant stand-in rounds it."""
    y, rstd, x_out = _add_rms_norm(x1, x2, gamma, epsilon)
    if beta is not None:
        y = (y.float() + beta.float()).to(x1.dtype)
    return y, rstd, x_out


def vllm_quantize(in_tensor, input_scale, input_scale_reciprocal, input_offset):
    """vllm-ascend's vllm.quantize: npu_quantize(x, scale_reciprocal, offset, qint8, -1,
    div_mode=False), i.e. int8 round(x * scale_reciprocal + offset); the scale is unused."""
    q = in_tensor.float() * input_scale_reciprocal.float() + input_offset.float()
    return torch.round(q).clamp(-128, 127).to(torch.int8)


def muls_add(x, y, scale):
    """vllm.muls_add (vllm-ascend's MulsAddFusionPass kernel): x * scale + y,
    written as the chain it replaces so outputs are bit-identical."""
    return x * scale + y


def npu_rotary_embedding(positions, query, key, cos_sin_cache, head_size, rotary_dim,
                         is_neox_style):
    """vllm-ascend's vllm.npu_rotary_embedding (functional: mutates_args=[]): the rows
    cos_sin_cache[positions] are [cos | sin] of rotary_dim / 2 each; neox rotates the
    halves of each head's first rotary_dim dims, GPT-J the even/odd pairs, in float32
    (each product and sum rounded to float32, as the Triton kernel), stored in the
    input's dtype."""
    cos_sin = cos_sin_cache.float()[positions.long()]
    half = rotary_dim // 2
    cos = cos_sin[:, None, :half]
    sin = cos_sin[:, None, half:rotary_dim]

    def rotate(x):
        heads = x.float().reshape(x.shape[0], -1, head_size).clone()
        rot = heads[..., :rotary_dim]
        if is_neox_style:
            x1, x2 = rot[..., :half].clone(), rot[..., half:].clone()
            rot[..., :half] = x1 * cos - x2 * sin
            rot[..., half:] = x2 * cos + x1 * sin
        else:
            x1, x2 = rot[..., 0::2].clone(), rot[..., 1::2].clone()
            rot[..., 0::2] = x1 * cos - x2 * sin
            rot[..., 1::2] = x2 * cos + x1 * sin
        return heads.reshape(x.shape).to(x.dtype)

    return rotate(query), rotate(key)


def qkv_rmsnorm_rope(input, cos_sin_cache, positions, q_weight, k_weight, q_hidden_size,
                     kv_hidden_size, head_dim, eps, q_bias=None, k_bias=None):
    """vllm-ascend's vllm.qkv_rmsnorm_rope (QKNormRopeFusionPass), written as the chain
    it replaces (split, per-head npu_rms_norm, optional bias, neox rope) so outputs are
    bit-identical."""
    q, k, v = input.split([q_hidden_size, kv_hidden_size, kv_hidden_size], dim=-1)
    tokens = input.shape[0]
    qn = npu_rms_norm(q.reshape(tokens, -1, head_dim), q_weight, eps)[0]
    kn = npu_rms_norm(k.reshape(tokens, -1, head_dim), k_weight, eps)[0]
    if q_bias is not None:
        qn = qn + q_bias
    if k_bias is not None:
        kn = kn + k_bias
    q_rope, k_rope = npu_rotary_embedding(positions, qn.reshape(tokens, q_hidden_size),
                                          kn.reshape(tokens, kv_hidden_size), cos_sin_cache,
                                          head_dim, cos_sin_cache.shape[-1], True)
    return q_rope, k_rope, v.contiguous()


# ---- matmul + communication (MC2) -------------------------------------------------------
# The product as mm / addmm computes it, then the collective through PyTorch's functional
# collectives on the process group named `hcom`: the unfused chain eqfuse's rules replace.

def _local_product(x1, x2, bias, *unsupported):
    if any(t is not None for t in unsupported):
        raise NotImplementedError("quantized matmul + communication")
    if bias is not None:
        return torch.addmm(bias, x1, x2) if x1.dim() == 2 else torch.matmul(x1, x2) + bias
    return torch.mm(x1, x2) if x1.dim() == 2 else torch.matmul(x1, x2)


def _wait(t):
    return torch.ops._c10d_functional.wait_tensor(t)


def npu_mm_all_reduce_base(x1, x2, hcom, *, reduce_op="sum", bias=None, antiquant_scale=None,
                           antiquant_offset=None, x3=None, dequant_scale=None,
                           pertoken_scale=None, comm_quant_scale_1=None,
                           comm_quant_scale_2=None, comm_turn=0, antiquant_group_size=0):
    out = _local_product(x1, x2, bias, antiquant_scale, antiquant_offset, dequant_scale,
                         pertoken_scale, comm_quant_scale_1, comm_quant_scale_2)
    if x3 is not None:
        out = out + x3
    return _wait(torch.ops._c10d_functional.all_reduce(out, reduce_op, hcom))


def npu_all_gather_base_mm(input, x2, hcom, world_size, *, bias=None, gather_index=0,
                           gather_output=True, comm_turn=0):
    if gather_index != 0:
        raise NotImplementedError("gather_index 1 (gathering x2)")
    gathered = _wait(torch.ops._c10d_functional.all_gather_into_tensor(input, world_size, hcom))
    return _local_product(gathered, x2, bias), gathered


def npu_mm_reduce_scatter_base(input, x2, hcom, world_size, *, reduce_op="sum", bias=None,
                               comm_turn=0):
    out = _local_product(input, x2, bias)
    return _wait(torch.ops._c10d_functional.reduce_scatter_tensor(out, reduce_op, world_size,
                                                                   hcom))


def npu_mm_all_reduce_add_rms_norm(x1, x2, residual, gamma, hcom, *, reduce_op="sum",
                                   epsilon=1e-06, bias=None, antiquant_scale=None,
                                   antiquant_offset=None, dequant_scale=None,
                                   antiquant_group_size=0, comm_turn=0):
    reduced = npu_mm_all_reduce_base(x1, x2, hcom, reduce_op=reduce_op, bias=bias,
                                     antiquant_scale=antiquant_scale,
                                     antiquant_offset=antiquant_offset,
                                     dequant_scale=dequant_scale)
    y, _, x = npu_add_rms_norm(reduced, residual, gamma, epsilon)
    return x, y


# ---- registration -------------------------------------------------------------------------

# (namespace, schema, reference function) of every op this module provides.
_DEFINITIONS = [("npu", schema, globals()[name]) for name, schema in SCHEMAS.items()] + [
    ("vllm", "muls_add(Tensor x, Tensor y, float scale) -> Tensor", muls_add),
    ("vllm", "npu_rotary_embedding(Tensor positions, Tensor query, Tensor key, "
             "Tensor cos_sin_cache, int head_size, int rotary_dim, bool is_neox_style) "
             "-> (Tensor, Tensor)", npu_rotary_embedding),
    ("vllm", "qkv_rmsnorm_rope(Tensor input, Tensor cos_sin_cache, Tensor positions, "
             "Tensor q_weight, Tensor k_weight, int q_hidden_size, int kv_hidden_size, "
             "int head_dim, float eps, Tensor? q_bias=None, Tensor? k_bias=None) "
             "-> (Tensor, Tensor, Tensor)", qkv_rmsnorm_rope),
    ("vllm", "quantize(Tensor in_tensor, Tensor input_scale, Tensor input_scale_reciprocal, "
             "Tensor input_offset) -> Tensor", vllm_quantize),
    ("_C_ascend", "npu_add_rms_norm_bias(Tensor x1, Tensor x2, Tensor gamma, "
                  "Tensor? beta=None, float epsilon=1e-06) -> (Tensor y, Tensor rstd, Tensor x)",
     npu_add_rms_norm_bias),
]

#: Qualified names ("namespace::op") of every op this module provides.
OPS = tuple(f"{ns}::{schema.split('(', 1)[0]}" for ns, schema, _ in _DEFINITIONS)

# namespace -> the "FRAGMENT" library holding the ops this module defined there.  Kept
# for the life of the process: dropping a Library deregisters its ops.
_LIBS = {}
# Qualified names of the ops this module defined (the rest already existed).
_DEFINED = []


def _kernel(fn):
    """fn as an op kernel (reference and fake): an output tensor that shares storage
    with an input or an earlier output is returned as a copy, since the schemas
    declare no aliasing.  Only edge cases hit it (qkv_rmsnorm_rope's
    ``v.contiguous()`` of a one-token input is a view of the input,
    npu_add_rms_norm_cast's ``y.float()`` of a float32 y is y); values are unchanged."""

    @functools.wraps(fn)
    def kernel(*args, **kwargs):
        out = fn(*args, **kwargs)
        seen = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        fresh = []
        for o in (out if isinstance(out, tuple) else (out,)):
            if isinstance(o, torch.Tensor):
                if any(torch._C._is_alias_of(o, t) for t in seen):
                    o = o.clone()
                seen.append(o)
            fresh.append(o)
        return tuple(fresh) if isinstance(out, tuple) else fresh[0]

    return kernel


def _is_defined(namespace, name):
    try:
        getattr(getattr(torch.ops, namespace), name).default
        return True
    except (AttributeError, RuntimeError):
        return False


def register():
    """Defines every op of ``OPS`` that is not defined yet, with its reference kernel
    (CompositeExplicitAutograd) and its fake kernel; returns the qualified names it
    defined in this call.  Runs on import; calling it again is harmless."""
    defined = []
    for namespace, schema, fn in _DEFINITIONS:
        name = schema.split("(", 1)[0]
        if _is_defined(namespace, name):
            continue  # torch_npu, vllm-ascend or an earlier registration has it
        lib = _LIBS.get(namespace)
        if lib is None:
            # FRAGMENT (not DEF): leaves the namespace open to torch_npu / vllm's own
            # libraries and to other fragments.
            lib = _LIBS[namespace] = torch.library.Library(namespace, "FRAGMENT")
        lib.define(schema)
        kernel = _kernel(fn)
        lib.impl(name, kernel, "CompositeExplicitAutograd")
        # The reference functions are made only of torch ops whose output shapes do not
        # depend on tensor data, so each one is also its op's fake (meta) kernel: run on
        # fake tensors (symbolic sizes included), it computes shapes and dtypes only.
        torch.library.register_fake(f"{namespace}::{name}", kernel, lib=lib)
        defined.append(f"{namespace}::{name}")
    _DEFINED.extend(defined)
    return tuple(defined)


register()


class _TorchNpuShim:
    """The ``torch_npu.npu_*`` spellings of code written for torch_npu, over
    ``torch.ops.npu`` (``import torch_npu`` ->
    ``from eqfuse.testing.npu_reference import torch_npu``)."""

    def __getattr__(self, name):
        return getattr(torch.ops.npu, name)


torch_npu = _TorchNpuShim()
