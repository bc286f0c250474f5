"""Sentence vectors from a transformer's hidden states: the pooling variants of the model zoo.

A transformer with ``L`` layers gives ``L + 1`` hidden-state tensors ``H_0 … H_L`` of shape
``(batch, seq, d)``: ``H_0`` is the token-embedding layer (word + position embeddings after layer
norm), ``H_l`` the output of layer ``l``.  With the attention mask ``m`` (1 for real tokens):

- ``cls``: ``H_L[:, 0]``, the first token ([CLS]) of the last layer (BERT's sentence vector,
  Devlin et al. 2019; EvalRank Table 6 "CLS");
- ``mean`` / ``layer-l``: ``Σ_t m_t H_l[:, t] / Σ_t m_t``, the masked mean of one layer
  (``mean`` = the last layer, Reimers & Gurevych 2019; ``layer-0`` = the token embeddings);
- ``first-last-avg``: ``(mean(H_1) + mean(H_L)) / 2``, the average of the first and the last
  layer's means (Su et al. 2021, "first-last-avg", as in BERT-whitening's and SimCSE's code, which
  take the *first transformer layer's* output ``H_1``, not the embedding layer).

The zoo stores, per text, the ``cls`` vector and the masked mean of every layer a variant needs
(:func:`pooled_blocks`), once per forward pass; every pooling above is then a slice or an average
of stored blocks (:func:`select_pooling`), so that no pooling variant runs the transformer again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError

_LAYER = re.compile(r"^layer-(\d+)$")
POOLING_NAMES = ("cls", "mean", "first-last-avg", "layer-<l>")


@dataclass(frozen=True)
class Pooling:
    """A parsed pooling name: which stored blocks it averages.

    ``blocks`` holds block keys: ``"cls"`` or ``"mean:<layer>"`` (layer index into ``H_0 … H_L``).
    """

    name: str
    blocks: tuple[str, ...]


def parse_pooling(name: str, *, n_layers: int) -> Pooling:
    """Resolve a pooling name for a model with ``n_layers`` transformer layers.

    Accepts ``cls``, ``mean``, ``first-last-avg`` and ``layer-<l>`` with ``0 ≤ l ≤ n_layers``.
    """
    if name == "cls":
        return Pooling(name, ("cls",))
    if name == "mean":
        return Pooling(name, (f"mean:{n_layers}",))
    if name == "first-last-avg":
        if n_layers < 1:
            raise InputError("first-last-avg needs a model with at least one transformer layer.")
        return Pooling(name, ("mean:1", f"mean:{n_layers}"))
    match = _LAYER.match(name)
    if match:
        layer = int(match.group(1))
        if layer > n_layers:
            raise InputError(f"pooling {name!r}: the model has layers 0..{n_layers} (0 = token embeddings).")
        return Pooling(name, (f"mean:{layer}",))
    raise InputError(f"unknown pooling {name!r}; known: {', '.join(POOLING_NAMES)}.")


def block_layer(block: str) -> int | None:
    """The hidden-state layer a block key reads (``None`` for ``cls``, which reads the last layer)."""
    return None if block == "cls" else int(block.split(":", 1)[1])


def pooled_blocks(layers: dict[int, np.ndarray], mask: np.ndarray, blocks: Sequence[str], *, last: int) -> np.ndarray:
    """Pool one batch into the concatenation of ``blocks`` → ``(batch, len(blocks) * d)`` float32.

    ``layers`` maps layer index → ``(batch, seq, d)`` hidden states; ``mask`` is ``(batch, seq)``.
    Means are accumulated in float64 and rounded once to float32.
    """
    mask = np.asarray(mask)
    if mask.ndim != 2:
        raise InputError(f"attention mask must be 2-D (batch, seq), got shape {mask.shape}.")
    weights = mask.astype(np.float64)
    counts = weights.sum(axis=1, keepdims=True)
    if (counts == 0).any():
        raise InputError("a text has no tokens after tokenisation (all-zero attention mask).")
    out = []
    for block in blocks:
        layer = block_layer(block)
        states = layers[last if layer is None else layer]
        if states.shape[:2] != mask.shape:
            raise InputError(f"hidden states {states.shape} do not match the attention mask {mask.shape}.")
        if layer is None:
            out.append(np.asarray(states[:, 0], dtype=np.float64))
        else:
            summed = np.einsum("bsd,bs->bd", np.asarray(states, dtype=np.float64), weights)
            out.append(summed / counts)
    return np.concatenate(out, axis=1).astype(np.float32)


def select_pooling(stored: np.ndarray, stored_blocks: Sequence[str], pooling: Pooling) -> np.ndarray:
    """Read a pooling from stored block vectors: the block itself, or the mean of its blocks."""
    stored = np.asarray(stored)
    n_blocks = len(stored_blocks)
    if stored.ndim != 2 or stored.shape[1] % n_blocks:
        raise InputError(f"stored vectors of shape {stored.shape} do not hold {n_blocks} blocks.")
    dim = stored.shape[1] // n_blocks
    parts = []
    for block in pooling.blocks:
        if block not in stored_blocks:
            raise InputError(f"pooling {pooling.name!r} needs block {block!r}, stored: {', '.join(stored_blocks)}.")
        i = list(stored_blocks).index(block)
        parts.append(stored[:, i * dim : (i + 1) * dim])
    if len(parts) == 1:
        return np.ascontiguousarray(parts[0], dtype=np.float32)
    total = sum((p.astype(np.float64) for p in parts), start=np.zeros((stored.shape[0], dim)))  # 0.0 + ...: as sum()
    return (total / len(parts)).astype(np.float32)
