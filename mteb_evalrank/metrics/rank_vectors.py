"""RankEncoder's rank vectors and similarity (RankEncoder §3, Eq. 2-3 and 7).

For a corpus ``c_1 … c_m`` and a base encoder ``E``, the rank vector of a sentence ``x`` is the rank of
every corpus sentence by cosine to ``x`` (Eq. 2): ``r_i(x) = rank of cos(E(x), E(c_i))`` among the m
cosines (ties get their average rank, as in :func:`scipy.stats.rankdata`).  ``g`` (Eq. 3) centres and
scales it to unit norm,

    u(x) = (r(x) − (m + 1)/2) / ‖r(x) − (m + 1)/2‖,

so that ``u(a) · u(b)`` is Pearson's correlation of the two rank vectors, i.e. Spearman's ρ between
the similarity profiles of ``a`` and ``b`` over the corpus.  (The mean of ranks 1..m is (m + 1)/2 with
or without ties.)  A sentence whose cosines to all corpus sentences are equal has a constant rank
vector; its ``u`` is the zero vector (no information), never NaN.

Inference (Eq. 7): ``sim(a, b) = λ · u(a)·u(b) + (1 − λ) · cos(E(a), E(b))``.

Everything is computed in chunks of queries: memory is O(chunk × m) for the cosines and ranks, plus
the output.  :func:`rank_similarity_pairs` returns only the m-free pair similarities, so scoring n
pairs never holds an n × m matrix.
"""

from __future__ import annotations

import numpy as np

from mteb_evalrank.errors import InputError


def _unit_rows(x: np.ndarray, what: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise InputError(f"{what}: expected a 2-D embedding matrix, got shape {x.shape}.")
    if not np.isfinite(x).all():
        raise InputError(f"{what}: embeddings contain NaN or inf.")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    if (norms == 0).any():
        raise InputError(f"{what}: {int((norms == 0).sum())} embeddings are all-zero (cosine undefined).")
    return x / norms


def _g(ranks: np.ndarray) -> np.ndarray:
    """Eq. 3: centre ranks on (m + 1)/2 and scale each row to unit norm (constant rows → 0)."""
    m = ranks.shape[1]
    centred = ranks - (m + 1) / 2.0
    norms = np.linalg.norm(centred, axis=1, keepdims=True)
    return np.divide(centred, norms, out=np.zeros_like(centred), where=norms > 0)


def rank_vectors(queries: np.ndarray, corpus: np.ndarray, *, chunk_size: int = 1024) -> np.ndarray:
    """``u(x)`` for each query row: ``(n, m)`` float32, unit norm (Eq. 2-3), computed ``chunk_size`` rows at a time."""
    from scipy.stats import rankdata

    c = _unit_rows(corpus, "rank-vector corpus")
    if c.shape[0] < 2:
        raise InputError(f"a rank-vector corpus needs at least 2 sentences, got {c.shape[0]}.")
    q = _unit_rows(queries, "rank-vector inputs")
    if q.shape[1] != c.shape[1]:
        raise InputError(f"inputs have dimension {q.shape[1]}, the corpus {c.shape[1]}.")
    out = np.empty((q.shape[0], c.shape[0]), dtype=np.float32)
    for lo in range(0, q.shape[0], max(1, int(chunk_size))):
        cos = q[lo : lo + chunk_size] @ c.T
        out[lo : lo + chunk_size] = _g(rankdata(cos, axis=1))
    return out


def rank_similarity_pairs(a: np.ndarray, b: np.ndarray, corpus: np.ndarray, *, chunk_size: int = 1024) -> np.ndarray:
    """``u(a_k) · u(b_k)`` for aligned rows (Spearman ρ of the two similarity profiles), in chunks."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        raise InputError(f"pair embeddings must have the same shape, got {a.shape} and {b.shape}.")
    out = np.empty(a.shape[0], dtype=np.float64)
    for lo in range(0, a.shape[0], max(1, int(chunk_size))):
        ua = rank_vectors(a[lo : lo + chunk_size], corpus, chunk_size=chunk_size).astype(np.float64)
        ub = rank_vectors(b[lo : lo + chunk_size], corpus, chunk_size=chunk_size).astype(np.float64)
        out[lo : lo + chunk_size] = np.einsum("ij,ij->i", ua, ub)
    return out


def check_weight(weight: float) -> float:
    """λ of Eq. 7 must lie in [0, 1]."""
    w = float(weight)
    if not 0.0 <= w <= 1.0 or w != w:
        raise InputError(f"RankEncoder weight λ must be in [0, 1], got {weight}.")
    return w


def combined_similarity(rank_sim: np.ndarray, cos_sim: np.ndarray, weight: float) -> np.ndarray:
    """Eq. 7: ``λ · u(a)·u(b) + (1 − λ) · cos(E(a), E(b))``."""
    w = check_weight(weight)
    return w * np.asarray(rank_sim, dtype=np.float64) + (1.0 - w) * np.asarray(cos_sim, dtype=np.float64)


def rank_encoder_embeddings(embeddings: np.ndarray, corpus: np.ndarray, weight: float, *, chunk_size: int = 1024) -> np.ndarray:
    """``[√λ · u(x), √(1 − λ) · E(x)/‖E(x)‖]``: unit-norm rows whose dot products (= cosines) are Eq. 7."""
    w = check_weight(weight)
    u = rank_vectors(embeddings, corpus, chunk_size=chunk_size)
    e = _unit_rows(embeddings, "RankEncoder base embeddings")
    return np.hstack([np.sqrt(w) * u, np.sqrt(1.0 - w) * e]).astype(np.float32)
