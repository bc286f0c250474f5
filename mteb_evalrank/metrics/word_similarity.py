"""Word similarity (WS-353, SimLex-999, MEN, ...) as the EvalRank toolkit scores it — pure numpy/scipy.

The EvalRank toolkit (``BinWang28/EvalRank-Embedding-Evaluation`` at ``c6422db``: ``src/w_model.py``,
``src/w_evaluation.py``, run by ``src/run_word_evaluation.py`` with its defaults) scores a set of word
vectors ``v_w`` over a vocabulary ``V`` on a dataset of pairs ``(a_i, b_i)`` with human scores ``g_i``:

1. **Centring** (always on): ``c_w = v_w − μ`` with ``μ`` the mean over ``V``.
2. **cos reading** (``dist_metric=cos``): every centred vector is normalised, ``u_w = c_w / ‖c_w‖``;
   an out-of-vocabulary word gets ``m = mean_{w∈V} u_w`` (the mean of the *normalised* vectors, a short
   vector, not re-normalised); the prediction is the dot product ``e_a · e_b``.  For two in-vocabulary
   words that is the cosine of the centred vectors; for a pair with an OOV word it is ``u_a · m`` (or
   ``m · m``), which is not a cosine.
3. **l2 reading** (``dist_metric=l2``): no normalisation; an OOV word gets ``mean_{w∈V} c_w``, which is
   0; the prediction is ``1 / (1 + ‖e_a − e_b‖)``.
4. Pearson's r, Spearman's ρ and Kendall's τ (``scipy.stats``: ``pearsonr``, ``spearmanr``, ``kendalltau``,
   τ-b) of the predictions against ``g``.

This module holds those steps as functions of arrays:

- :func:`vocabulary_statistics` — ``μ`` (the shift), ``m`` and the l2 OOV vector of a vocabulary
  matrix, for centring on or off (off: shift 0, ``m`` = mean of the unit raw vectors, l2 OOV vector ``μ``);
- :func:`prepare_word_vectors` — the vectors of the words of a task in both readings, OOV rows
  replaced as above;
- :func:`pair_predictions` and :func:`word_similarity_scores` — predictions and correlations.

Arithmetic is float64 throughout (the toolkit works in float32).  The toolkit's float32 rounding can
swap two predictions that differ by less than its rounding error: with its ``toy_emb.txt`` vectors this
happens once, in MEN-TR-3k (two cos predictions 4.8e-8 apart), and moves that Spearman by 1.2e-7; the 12
other Spearman values are identical to the last digit.  The l2 OOV vector is exactly 0 here (the
toolkit's float32 mean of the centred vectors is ~1e-9).

Undefined results are errors, not NaN: a word whose centred vector is zero (its cosine is undefined),
constant predictions or constant gold scores raise :class:`~mteb_evalrank.errors.InputError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError

#: Rows per block when reducing a large vocabulary matrix (bounded float64 temporaries).
_BLOCK_ROWS = 65_536


@dataclass(frozen=True)
class VocabularyStatistics:
    """What a vocabulary contributes to the toolkit's word-similarity scores (all float64, shape ``(d,)``).

    ``shift`` is subtracted from every vector (the vocabulary mean when centring, else 0);
    ``oov_cosine`` is the cos-reading vector of an out-of-vocabulary word (the mean of the unit shifted
    vectors); ``oov_l2`` the l2-reading one (the mean of the shifted vectors: 0 when centring).
    """

    shift: np.ndarray
    oov_cosine: np.ndarray
    oov_l2: np.ndarray
    centered: bool
    size: int


def _as_matrix(x: Any, what: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 2:
        raise InputError(f"{what}: expected a 2-D array, got shape {arr.shape}.")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"{what}: empty array (shape {arr.shape}).")
    return arr


def _column_mean(matrix: np.ndarray) -> np.ndarray:
    total = np.zeros(matrix.shape[1], dtype=np.float64)
    for start in range(0, matrix.shape[0], _BLOCK_ROWS):
        block = np.asarray(matrix[start : start + _BLOCK_ROWS], dtype=np.float64)
        if not np.isfinite(block).all():
            raise InputError("vocabulary vectors contain NaN or inf.")
        total += block.sum(axis=0)
    return total / matrix.shape[0]


def vocabulary_statistics(matrix: Any, *, center: bool = True) -> VocabularyStatistics:
    """The toolkit's centring vector and OOV vectors of a vocabulary matrix ``(n, d)`` (one row per word).

    Reads the matrix block by block in float64, so a memory-mapped 2M x 300 matrix is fine.  A row that
    is zero after the shift (its direction is undefined) raises :class:`InputError`.
    """
    m = _as_matrix(matrix, "vocabulary vectors")
    mean = _column_mean(m)
    shift = mean if center else np.zeros_like(mean)
    unit_total = np.zeros_like(mean)
    for start in range(0, m.shape[0], _BLOCK_ROWS):
        block = np.asarray(m[start : start + _BLOCK_ROWS], dtype=np.float64) - shift
        norms = np.sqrt(np.einsum("ij,ij->i", block, block))
        if (norms == 0).any():
            row = start + int(np.flatnonzero(norms == 0)[0])
            raise InputError(
                f"vocabulary row {row} is a zero vector{' after centring' if center else ''}: its cosine is undefined."
            )
        unit_total += (block / norms[:, None]).sum(axis=0)
    oov_l2 = np.zeros_like(mean) if center else mean.copy()  # the mean of the centred vectors is exactly 0
    return VocabularyStatistics(
        shift=shift, oov_cosine=unit_total / m.shape[0], oov_l2=oov_l2, centered=bool(center), size=int(m.shape[0])
    )


def prepare_word_vectors(
    embeddings: Any,
    *,
    shift: Any = None,
    oov: Any = None,
    oov_cosine: Any = None,
    oov_l2: Any = None,
    words: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(cos_vectors, l2_vectors)`` of the rows of ``embeddings`` (float64), as the toolkit forms them.

    Args:
        embeddings: ``(n, d)``, one row per word.
        shift: ``(d,)`` subtracted from every row (the centring mean); ``None`` for none.
        oov: ``(n,)`` booleans, the rows of out-of-vocabulary words (``None``: none); their rows are
            replaced by ``oov_cosine`` / ``oov_l2`` (both required when any row is OOV).
        words: the words of the rows, only to name a bad row in an error message.

    In-vocabulary rows: ``cos`` = the unit vector of ``x − shift``, ``l2`` = ``x − shift``.  A zero
    in-vocabulary row after the shift raises :class:`InputError`.
    """
    x = _as_matrix(embeddings, "word embeddings").astype(np.float64, copy=True)
    if not np.isfinite(x).all():
        raise InputError("word embeddings contain NaN or inf.")
    n, d = x.shape
    if shift is not None:
        s = np.asarray(shift, dtype=np.float64)
        if s.shape != (d,):
            raise InputError(f"centring vector has shape {s.shape}, expected ({d},).")
        x -= s
    mask = np.zeros(n, dtype=bool) if oov is None else np.asarray(oov, dtype=bool).ravel()
    if mask.shape != (n,):
        raise InputError(f"OOV mask has {mask.size} entries for {n} words.")
    norms = np.sqrt(np.einsum("ij,ij->i", x, x))
    zero = (norms == 0) & ~mask
    if zero.any():
        i = int(np.flatnonzero(zero)[0])
        name = f" ({words[i]!r})" if words is not None else ""
        raise InputError(
            f"{int(zero.sum())} word embedding(s) are zero vectors{' after centring' if shift is not None else ''}, "
            f"e.g. row {i}{name}: the cosine is undefined."
        )
    cos = np.divide(x, norms[:, None], out=np.zeros_like(x), where=~mask[:, None])
    l2 = x
    if mask.any():
        for vec, what in ((oov_cosine, "oov_cosine"), (oov_l2, "oov_l2")):
            if vec is None or np.asarray(vec).shape != (d,):
                raise InputError(f"{int(mask.sum())} OOV words need an {what} vector of shape ({d},).")
        cos[mask] = np.asarray(oov_cosine, dtype=np.float64)
        l2[mask] = np.asarray(oov_l2, dtype=np.float64)
    return cos, l2


def pair_predictions(a: Any, b: Any, reading: str) -> np.ndarray:
    """Prediction per pair of rows: ``"cos"`` → ``a_i · b_i``; ``"l2"`` → ``1 / (1 + ‖a_i − b_i‖)``."""
    a, b = _as_matrix(a, "first words"), _as_matrix(b, "second words")
    if a.shape != b.shape:
        raise InputError(f"paired word vectors differ in shape: {a.shape} vs {b.shape}.")
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if reading == "cos":
        return np.einsum("ij,ij->i", a, b)
    if reading == "l2":
        diff = a - b
        return 1.0 / (1.0 + np.sqrt(np.einsum("ij,ij->i", diff, diff)))
    raise InputError(f"reading must be 'cos' or 'l2', got {reading!r}.")


def correlations(predicted: Any, gold: Any, *, what: str = "scores") -> dict[str, float]:
    """``{"pearson", "spearman", "kendall"}`` of predictions vs gold (fractions in [-1, 1]).

    Pearson and Spearman as :func:`mteb_evalrank.metrics.similarity.correlations` (same checks: equal
    lengths, at least two pairs, finite, neither side constant); Kendall's τ-b by ``scipy.stats.kendalltau``.
    """
    from scipy.stats import kendalltau

    from mteb_evalrank.metrics.similarity import correlations as pearson_spearman

    out = pearson_spearman(predicted, gold, what=what)
    p = np.asarray(predicted, dtype=np.float64).ravel()
    g = np.asarray(gold, dtype=np.float64).ravel()
    out["kendall"] = float(kendalltau(p, g)[0])
    return out


def word_similarity_scores(
    cos_a: Any, cos_b: Any, l2_a: Any, l2_b: Any, gold: Any, *, what: str = "word pairs"
) -> dict[str, float]:
    """Correlations of both readings with the gold scores, under MTEB-style names.

    Takes the prepared vectors (:func:`prepare_word_vectors`) of the first and second word of every
    pair.  Returns ``cosine_spearman``, ``cosine_pearson``, ``cosine_kendall``, ``l2_spearman``,
    ``l2_pearson``, ``l2_kendall``.
    """
    out: dict[str, float] = {}
    for prefix, reading, a, b in (("cosine", "cos", cos_a, cos_b), ("l2", "l2", l2_a, l2_b)):
        pred = pair_predictions(a, b, reading)
        corr = correlations(pred, gold, what=f"{what} ({reading})")
        out.update(
            {
                f"{prefix}_{k}": v
                for k, v in (("spearman", corr["spearman"]), ("pearson", corr["pearson"]), ("kendall", corr["kendall"]))
            }
        )
    return out
