"""Rows scaled to unit length: the one place the package normalises embedding rows for cosines, and the one rule
for rows that have no direction.

``unit_rows(x)[i] = x[i] / ‖x[i]‖₂`` (float64), so that ``unit_rows(a) @ unit_rows(b).T`` are the cosines of
the rows.  A row of zeros has no direction and its cosine is undefined (so has a row holding NaN or inf);
:func:`check_directions` finds such rows and raises :class:`~mteb_evalrank.errors.DirectionlessRowsError` naming
how many there are and the first of them.  The caller says what a zero row means:

- ``zero_rows="raise"`` (the default; HEROS, RankEncoder, and N2O's neighbour search through
  :func:`check_directions`): the error;
- ``zero_rows="zero"`` (the word level's copy check): the row stays zero, so its cosine with every row is
  0 — a set that has no vector for a word shares no similarity structure through it.

A bag-of-words encoder gives a text none of whose words it knows the vector :data:`NO_WORDS_FILL` in every
coordinate (the EvalRank toolkit's "zero vector + 1e-9", kept for its scores): a direction in name only, the same
for every such text.  N2O's neighbour search refuses those rows too (``no_words=True``): their neighbours would be
the corpus order, not the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from mteb_evalrank.errors import DirectionlessRowsError, InputError

#: the vector coordinate a bag of words gives a text without any known word (``models.static_vectors``)
NO_WORDS_FILL = 1e-9


def directionless_rows(x: np.ndarray, *, no_words: bool = False) -> dict[str, np.ndarray]:
    """Row numbers of a 2-D block without a direction: ``"nonfinite"`` (NaN or inf), ``"zero"`` (all zero) and,
    with ``no_words``, ``"no_words"`` (every coordinate :data:`NO_WORDS_FILL` as float32)."""
    finite = np.isfinite(x).all(axis=1)
    out = {"nonfinite": np.flatnonzero(~finite), "zero": np.flatnonzero(finite & ~np.asarray(x).any(axis=1))}
    if no_words:
        out["no_words"] = np.flatnonzero((np.asarray(x, dtype=np.float32) == np.float32(NO_WORDS_FILL)).all(axis=1))
    return out


def check_directions(
    x: Any,
    what: str = "embeddings",
    *,
    labels: Sequence[str] | None = None,
    no_words: bool = False,
    ignore_zero: bool = False,
) -> None:
    """:class:`~mteb_evalrank.errors.DirectionlessRowsError` when a row of ``x`` has no direction
    (:func:`directionless_rows`); ``ignore_zero`` lets all-zero rows pass (``unit_rows(zero_rows="zero")``)."""
    arr = np.asarray(x)
    rows = directionless_rows(arr, no_words=no_words)
    if ignore_zero:
        rows["zero"] = rows["zero"][:0]
    if any(len(r) for r in rows.values()):
        raise DirectionlessRowsError(what, len(arr), rows, noun="embedding rows", labels=labels)


def unit_rows(
    x: Any,
    what: str = "embeddings",
    *,
    labels: Sequence[str] | None = None,
    zero_rows: Literal["raise", "zero"] = "raise",
) -> np.ndarray:
    """``x`` (rows × dim) with each row divided by its Euclidean norm, float64 (see the module docstring)."""
    if zero_rows not in ("raise", "zero"):
        raise InputError(f"unit_rows: zero_rows must be 'raise' or 'zero', not {zero_rows!r}.")
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2:
        raise InputError(f"{what}: expected a 2-D embedding matrix, got shape {arr.shape}.")
    check_directions(arr, what, labels=labels, ignore_zero=zero_rows == "zero")
    norms = np.linalg.norm(arr, axis=1)
    return arr / np.where(norms > 0, norms, 1.0)[:, None]
