"""Tiny, randomly initialised Hugging Face transformers models built from their config
classes (nothing is downloaded): the architectures eqfuse's users compile.

``build(arch, dtype, attn)`` returns an eval-mode model and ``inputs(model, batch, seq)``
its input ids.  Sizes are small so that a torch.compile of one model takes seconds on
two CPU cores; they keep each architecture's structure (GQA, MoE routing with shared
experts, MLA, sliding windows, soft-capping, qk-norm, RoPE variants)."""
import torch
import transformers

VOCAB = 128
COMMON = dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
              num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
              pad_token_id=0, bos_token_id=1, eos_token_id=2, tie_word_embeddings=False)


def _moe(**extra):
    return dict(COMMON, **extra)


# arch -> (config class name, model class name, config keyword arguments)
ARCHS = {
    "llama": ("LlamaConfig", "LlamaForCausalLM", COMMON),
    "qwen2": ("Qwen2Config", "Qwen2ForCausalLM", COMMON),
    "qwen3": ("Qwen3Config", "Qwen3ForCausalLM", dict(COMMON, head_dim=16)),
    "qwen3_moe": ("Qwen3MoeConfig", "Qwen3MoeForCausalLM",
                  _moe(head_dim=16, num_experts=4, num_experts_per_tok=2,
                       moe_intermediate_size=32, decoder_sparse_step=1, mlp_only_layers=[])),
    "mixtral": ("MixtralConfig", "MixtralForCausalLM",
                _moe(num_local_experts=4, num_experts_per_tok=2)),
    "deepseek_v3": ("DeepseekV3Config", "DeepseekV3ForCausalLM",
                    _moe(moe_intermediate_size=32, n_routed_experts=4, n_shared_experts=1,
                         num_experts_per_tok=2, first_k_dense_replace=1, n_group=2,
                         topk_group=1, q_lora_rank=32, kv_lora_rank=16, qk_rope_head_dim=8,
                         qk_nope_head_dim=8, v_head_dim=16, routed_scaling_factor=2.5,
                         rope_interleave=True, num_key_value_heads=4)),
    "gemma2": ("Gemma2Config", "Gemma2ForCausalLM",
               dict(COMMON, head_dim=16, sliding_window=4, query_pre_attn_scalar=16)),
    "phi3": ("Phi3Config", "Phi3ForCausalLM", dict(COMMON, num_key_value_heads=4)),
    "olmo2": ("Olmo2Config", "Olmo2ForCausalLM", COMMON),
    "gpt2": ("GPT2Config", "GPT2LMHeadModel",
             dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=128,
                  bos_token_id=1, eos_token_id=2)),
    "bert": ("BertConfig", "BertModel",
             dict(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                  intermediate_size=128, max_position_embeddings=128, pad_token_id=0)),
}


def build(arch: str, dtype=torch.float32, attn: str = "eager", seed: int = 0):
    config_cls, model_cls, kwargs = ARCHS[arch]
    config = getattr(transformers, config_cls)(**kwargs)
    config._attn_implementation = attn
    torch.manual_seed(seed)
    model = getattr(transformers, model_cls)(config).eval().to(dtype)
    for p in model.parameters():
        p.requires_grad_(False)
    return model


def inputs(batch: int = 2, seq: int = 8, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(3, VOCAB, (batch, seq), generator=g)


def output_of(out):
    """The tensor a model call returns (logits or the last hidden state)."""
    if isinstance(out, torch.Tensor):
        return out
    for key in ("logits", "last_hidden_state"):
        v = getattr(out, key, None)
        if v is not None:
            return v
    return out[0]
