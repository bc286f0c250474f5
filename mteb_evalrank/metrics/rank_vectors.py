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
the output.  A chunk is at most ``chunk_size`` rows and at most :data:`MAX_CHUNK_ELEMENTS` cosines
(ranking makes several float64 temporaries of the chunk's size, so a 1,024-row chunk over a 100k
corpus would need gigabytes).  :func:`rank_similarity_pairs` returns only the m-free pair
similarities, so scoring n pairs never holds an n × m matrix; :func:`rank_encoder_embeddings` writes
the rank vectors straight into its output (no second n × m copy).
"""

from __future__ import annotations

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.unit_rows import unit_rows

#: Upper bound on rows × corpus size per chunk (2**21 cosines = 16 MiB per float64 temporary).
MAX_CHUNK_ELEMENTS = 2**21


def _g(ranks: np.ndarray) -> np.ndarray:
    """Eq. 3: centre ranks on (m + 1)/2 and scale each row to unit norm (constant rows → 0)."""
    m = ranks.shape[1]
    centred = ranks - (m + 1) / 2.0
    norms = np.linalg.norm(centred, axis=1, keepdims=True)
    return np.divide(centred, norms, out=np.zeros_like(centred), where=norms > 0)


def _rows_per_chunk(chunk_size: int, m: int) -> int:
    return max(1, min(int(chunk_size), MAX_CHUNK_ELEMENTS // max(1, m)))


def rank_vectors(
    queries: np.ndarray, corpus: np.ndarray, *, chunk_size: int = 1024, out: np.ndarray | None = None
) -> np.ndarray:
    """``u(x)`` for each query row: ``(n, m)`` float32, unit norm (Eq. 2-3), computed a chunk of rows at a time.

    ``out``: an ``(n, m)`` float32 array (or view) to fill instead of allocating a new one.
    """
    from scipy.stats import rankdata

    c = unit_rows(corpus, "rank-vector corpus")
    if c.shape[0] < 2:
        raise InputError(f"a rank-vector corpus needs at least 2 sentences, got {c.shape[0]}.")
    q = unit_rows(queries, "rank-vector inputs")
    if q.shape[1] != c.shape[1]:
        raise InputError(f"inputs have dimension {q.shape[1]}, the corpus {c.shape[1]}.")
    if out is None:
        out = np.empty((q.shape[0], c.shape[0]), dtype=np.float32)
    elif out.shape != (q.shape[0], c.shape[0]):
        raise InputError(f"rank vectors: out has shape {out.shape}, expected {(q.shape[0], c.shape[0])}.")
    step = _rows_per_chunk(chunk_size, c.shape[0])
    for lo in range(0, q.shape[0], step):
        cos = q[lo : lo + step] @ c.T
        out[lo : lo + step] = _g(rankdata(cos, axis=1))
    return out


def rank_similarity_pairs(a: np.ndarray, b: np.ndarray, corpus: np.ndarray, *, chunk_size: int = 1024) -> np.ndarray:
    """``u(a_k) · u(b_k)`` for aligned rows (Spearman ρ of the two similarity profiles), in chunks."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        raise InputError(f"pair embeddings must have the same shape, got {a.shape} and {b.shape}.")
    out = np.empty(a.shape[0], dtype=np.float64)
    step = _rows_per_chunk(chunk_size, np.shape(corpus)[0])
    for lo in range(0, a.shape[0], step):
        ua = rank_vectors(a[lo : lo + step], corpus, chunk_size=step)
        ub = rank_vectors(b[lo : lo + step], corpus, chunk_size=step)
        out[lo : lo + step] = np.einsum("ij,ij->i", ua, ub, dtype=np.float64)
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


def rank_encoder_embeddings(
    embeddings: np.ndarray, corpus: np.ndarray, weight: float, *, chunk_size: int = 1024
) -> np.ndarray:
    """``[√λ · u(x), √(1 − λ) · E(x)/‖E(x)‖]``: unit-norm rows whose dot products (= cosines) are Eq. 7."""
    w = check_weight(weight)
    e = unit_rows(embeddings, "RankEncoder base embeddings")
    m = np.shape(corpus)[0]
    out = np.empty((e.shape[0], m + e.shape[1]), dtype=np.float32)
    rank_vectors(embeddings, corpus, chunk_size=chunk_size, out=out[:, :m])
    out[:, :m] *= np.float32(np.sqrt(w))
    out[:, m:] = np.sqrt(1.0 - w) * e
    return out
