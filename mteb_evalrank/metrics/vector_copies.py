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
from mteb_evalrank.metrics.unit_rows import unit_rows


def _unit(x: np.ndarray) -> np.ndarray:
    """Unit rows; a zero row (a set with no vector for the word) stays zero: cosine 0 with every word."""
    return unit_rows(x, "copy check", zero_rows="zero")


def similarity_structure_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson r between the upper-triangle cosine similarities of ``a`` (n, d1) and ``b`` (n, d2)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise InputError(f"copy check: need two matrices with the same rows (words), got {a.shape} and {b.shape}.")
    if a.shape[0] < 3:
        raise InputError(f"copy check: needs at least 3 words, got {a.shape[0]}.")
    iu = np.triu_indices(a.shape[0], k=1)
    sa = (_unit(a) @ _unit(a).T)[iu]
    sb = (_unit(b) @ _unit(b).T)[iu]
    sa, sb = sa - sa.mean(), sb - sb.mean()
    denom = np.sqrt((sa * sa).sum() * (sb * sb).sum())
    return float((sa * sb).sum() / denom) if denom > 0 else 0.0


def median_row_cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Median over rows of cos(a[i], b[i]) for two tables of the same shape."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 2:
        raise InputError(f"copy check: row cosines need two tables of one shape, got {a.shape} and {b.shape}.")
    return float(np.median((_unit(a) * _unit(b)).sum(axis=1)))
