"""Is one set of vectors a copy of another?  Two pure measures over arrays.

- :func:`similarity_structure_correlation`: the Pearson correlation, over all pairs of a fixed word
  sample, of the cosine similarities two sets give those words.  It does not need the two spaces to
  be aligned: a copy that was rotated, rescaled, quantised or had a mean added still scores ~1, two
  independently trained sets of the same words typically 0.3-0.7, unrelated vectors ~0.
- :func:`median_row_cosine`: the median cosine between row ``i`` of two tables of the same shape
  (two token tables indexed by the same vocabulary): ~1 for a copy, ~0 for unrelated tables.
"""

from __future__ import annotations

import numpy as np

from mteb_evalrank.errors import InputError


def _unit_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1.0)


def similarity_structure_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson r between the upper-triangle cosine similarities of ``a`` (n, d1) and ``b`` (n, d2)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise InputError(f"copy check: need two matrices with the same rows (words), got {a.shape} and {b.shape}.")
    if a.shape[0] < 3:
        raise InputError(f"copy check: needs at least 3 words, got {a.shape[0]}.")
    iu = np.triu_indices(a.shape[0], k=1)
    sa = (_unit_rows(a) @ _unit_rows(a).T)[iu]
    sb = (_unit_rows(b) @ _unit_rows(b).T)[iu]
    sa, sb = sa - sa.mean(), sb - sb.mean()
    denom = np.sqrt((sa * sa).sum() * (sb * sb).sum())
    return float((sa * sb).sum() / denom) if denom > 0 else 0.0


def median_row_cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Median over rows of cos(a[i], b[i]) for two tables of the same shape."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 2:
        raise InputError(f"copy check: row cosines need two tables of one shape, got {a.shape} and {b.shape}.")
    return float(np.median((_unit_rows(a) * _unit_rows(b)).sum(axis=1)))
