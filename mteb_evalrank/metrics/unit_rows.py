"""Rows scaled to unit length: the one place the package normalises embedding rows for cosines.

``unit_rows(x)[i] = x[i] / ‖x[i]‖₂`` (float64), so that ``unit_rows(a) @ unit_rows(b).T`` are the cosines of
the rows.  A row of zeros has no direction and its cosine is undefined; the caller says what it means:

- ``zero_rows="raise"`` (the default; ranking, HEROS, RankEncoder): :class:`InputError` naming the first
  rows (and their ``labels``, e.g. the sentences, when given);
- ``zero_rows="zero"`` (the word level's copy check): the row stays zero, so its cosine with every row is
  0 — a set that has no vector for a word shares no similarity structure through it.

The input must be a finite 2-D matrix (:class:`InputError` otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from mteb_evalrank.errors import InputError


def unit_rows(
    x: Any,
    what: str = "embeddings",
    *,
    labels: Sequence[str] | None = None,
    zero_rows: Literal["raise", "zero"] = "raise",
) -> np.ndarray:
    """``x`` (rows × dim) with each row divided by its Euclidean norm, float64 (see the module docstring)."""
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2:
        raise InputError(f"{what}: expected a 2-D embedding matrix, got shape {arr.shape}.")
    if not np.isfinite(arr).all():
        bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))[:5].tolist()
        raise InputError(f"{what}: embeddings contain NaN or inf (rows {bad}).")
    norms = np.linalg.norm(arr, axis=1)
    zero = np.flatnonzero(norms == 0)
    if len(zero) and zero_rows == "raise":
        shown = zero[:5].tolist()
        names = f" ({', '.join(repr(str(labels[i])[:60]) for i in shown)})" if labels is not None else ""
        raise InputError(
            f"{what}: {len(zero)} all-zero embedding(s), cosine is undefined: rows {shown}{names}"
            + (" ..." if len(zero) > 5 else "")
            + "."
        )
    if zero_rows not in ("raise", "zero"):
        raise InputError(f"unit_rows: zero_rows must be 'raise' or 'zero', not {zero_rows!r}.")
    return arr / np.where(norms > 0, norms, 1.0)[:, None]
