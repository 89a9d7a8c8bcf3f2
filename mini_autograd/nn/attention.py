"""``scaled_dot_product_attention``: softmax(q k^T / sqrt(d) + mask) v, the attention of a transformer.

PyTorch counterpart: torch/nn/functional.py (``scaled_dot_product_attention``, a C++ kernel there;
here the math its docstring gives as the reference implementation, in tensor operations, so its
graph is matmuls, a softmax and a masked fill rather than PyTorch's fused attention node, and
float32 results can differ from PyTorch's fused kernel in the last bits).
"""
import math

from .. import creation, _dtype
from . import functional as F


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """Attention of ``query`` over ``key``/``value``; ``is_causal``: each position sees itself and the
    ones before; ``attn_mask``: bool (True = may attend) or added to the scores."""
    _check_inputs(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                           "is_causal=True")
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = creation.zeros(L, S, dtype=query.dtype)
    if is_causal:
        temp_mask = creation.ones(L, S, dtype=_dtype.bool_).tril(diagonal=0)
        attn_bias = attn_bias.masked_fill(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None and attn_mask.dtype is _dtype.bool_:
        attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
    if enable_gqa:
        raise NotImplementedError("mini_autograd's scaled_dot_product_attention has no enable_gqa=True")
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    # a float mask is added to the scores (attn_bias is zeros then: the same sum, and PyTorch's words
    # when the shapes do not broadcast)
    attn_weight = attn_weight + (attn_mask if attn_mask is not None and attn_mask.dtype is not _dtype.bool_
                                 else attn_bias)
    attn_weight = F.softmax(attn_weight, dim=-1)
    if dropout_p > 0.0:                  # PyTorch's math path drops only for p > 0 (so p < 0 is no dropout)
        if dropout_p > 1.0:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
        attn_weight = F.dropout(attn_weight, dropout_p, training=True)
    return attn_weight @ value


def _check_inputs(query, key, value, attn_mask):
    """aten/src/ATen/native/transformers/attention.cpp, validate_sdpa_input: PyTorch's checks, in its
    order."""
    if not query.dtype is key.dtype is value.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{query.dtype.c_name} key.dtype: {key.dtype.c_name} and value.dtype: "
                           f"{value.dtype.c_name} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got "
                           f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
                           f"instead.")
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool_, _dtype.float32, query.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {attn_mask.dtype.c_name} and  query.dtype: "
                           f"{query.dtype.c_name} instead.")
