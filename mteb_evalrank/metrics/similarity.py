"""Similarity baselines (STS12-16, STS-B, SICK-R, STR) as SentEval scores them — pure numpy/scipy.

EvalRank (Wang et al., ACL 2022, §5.1 and §6.1, Table 6) compares its ranking scores with the usual
similarity evaluation: the cosine of the two sentence embeddings of each pair, correlated with the
human scores.  SentEval (``senteval/sts.py``, commit 5d6dc11) and the EvalRank toolkit's copy of it
compute, for each sub-dataset ``k`` with pairs ``(a_i, b_i)`` and gold scores ``g_i``:

- ``cos_i = a_i · b_i / (‖a_i‖ ‖b_i‖)``; a pair with a zero vector gets ``cos_i = 0`` (SentEval's
  ``np.nan_to_num(cosine(...))``); :func:`paired_cosine` counts such pairs so that they are visible.
  Computed in float64 so that two identical embeddings get exactly 1: pairs of identical sentences
  (65 in STS12 SMTeuroparl, 14 in surprise.SMTnews) tie, where SentEval's float32 arithmetic orders
  them by rounding noise (GloVe 6B 50d: SMTeuroparl Spearman 0.5996 here, 0.5980 in SentEval);
- ``ρ_k`` = Spearman's rank correlation of ``(cos_i)`` and ``(g_i)`` (``scipy.stats.spearmanr``:
  average ranks for ties, then Pearson on the ranks) and ``r_k`` = Pearson's correlation
  (``scipy.stats.pearsonr``).  Both are fractions in [-1, 1], MTEB's convention for STS scores;

and for a year of STS12-16 (several sub-datasets), the ``all`` figure, two ways (SentEval's
``results['all']``), never a correlation over the pooled pairs:

- ``mean  = (1/K) · Σ_k ρ_k`` (plain mean over the K sub-datasets);
- ``wmean = Σ_k n_k · ρ_k / Σ_k n_k`` (weighted by ``n_k``, the number of scored pairs of sub-dataset
  k, SentEval's ``nsamples``), likewise for Pearson.

The EvalRank toolkit prints the weighted figure (``results[dataset]['all'][...]['wmean']`` in
``src/s_evaluation.py``, table titled "weighted-average"), so ``wmean`` is the paper's STS12-16 number.

Undefined correlations are errors, not NaN: with fewer than two pairs, or when the predicted or the
gold scores are all equal (e.g. a model that returns one constant vector), :class:`InputError` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError

#: The two ways SentEval aggregates per-subset correlations into ``all``.
AGGREGATIONS: tuple[str, ...] = ("mean", "wmean")
#: The aggregation the EvalRank paper reports (the toolkit's "weighted-average" table).
PAPER_AGGREGATION = "wmean"


def _as_matrix(x: Any, what: str) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2:
        raise InputError(f"{what}: expected a 2-D array, got shape {arr.shape}.")
    if not np.isfinite(arr).all():
        raise InputError(f"{what}: contains NaN or inf.")
    return arr


def paired_cosine(a: Any, b: Any) -> tuple[np.ndarray, int]:
    """Cosine of row ``i`` of ``a`` with row ``i`` of ``b`` (float64), and the number of zero-vector pairs.

    A pair where either row is all-zero gets cosine 0, as in SentEval (``nan_to_num`` of 0/0).
    """
    a, b = _as_matrix(a, "first embeddings"), _as_matrix(b, "second embeddings")
    if a.shape != b.shape:
        raise InputError(f"paired embeddings differ in shape: {a.shape} vs {b.shape}.")
    dots = np.einsum("ij,ij->i", a, b)
    # sqrt(|a|² |b|²) rather than |a| |b|: for two identical rows dot = |a|² = |b|² bit for bit and
    # sqrt(x²) = x exactly, so identical embeddings get cosine exactly 1 and tie with each other
    norms = np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", b, b))
    zero = norms == 0.0
    cos = np.zeros(len(a), dtype=np.float64)
    np.divide(dots, norms, out=cos, where=~zero)
    return np.clip(cos, -1.0, 1.0), int(zero.sum())


def correlations(predicted: Any, gold: Any, *, what: str = "scores") -> dict[str, float]:
    """``{"pearson": r, "spearman": ρ}`` of predicted vs gold scores (fractions in [-1, 1]).

    Raises :class:`InputError` if the lengths differ, there are fewer than two pairs, a value is not
    finite, or either side is constant (the correlation is undefined).
    """
    from scipy.stats import pearsonr, spearmanr

    p = np.asarray(predicted, dtype=np.float64).ravel()
    g = np.asarray(gold, dtype=np.float64).ravel()
    if p.shape != g.shape:
        raise InputError(f"{what}: {p.size} predicted scores for {g.size} gold scores.")
    if p.size < 2:
        raise InputError(f"{what}: a correlation needs at least two pairs, got {p.size}.")
    if not (np.isfinite(p).all() and np.isfinite(g).all()):
        raise InputError(f"{what}: scores contain NaN or inf.")
    if np.ptp(g) == 0.0:
        raise InputError(f"{what}: all gold scores are equal; the correlation is undefined.")
    if np.ptp(p) == 0.0:
        raise InputError(
            f"{what}: all {p.size} predicted similarities are equal (does the model return one constant "
            "vector?); the correlation is undefined."
        )
    return {"pearson": float(pearsonr(p, g)[0]), "spearman": float(spearmanr(p, g)[0])}


def aggregate_all(values: Sequence[float], sizes: Sequence[int]) -> dict[str, float]:
    """SentEval's ``all`` of per-subset values: ``{"mean": plain mean, "wmean": size-weighted mean}``.

    ``mean = Σ v_k / K``; ``wmean = Σ n_k v_k / Σ n_k`` (``np.average`` with ``weights=sizes``, as
    SentEval computes it).
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    n = np.asarray(sizes, dtype=np.float64).ravel()
    if v.size == 0:
        raise InputError("no per-subset values to aggregate.")
    if v.shape != n.shape:
        raise InputError(f"{v.size} per-subset values but {n.size} subset sizes.")
    if not np.isfinite(v).all():
        raise InputError("per-subset values contain NaN or inf.")
    if (n <= 0).any() or not np.isfinite(n).all():
        raise InputError("subset sizes must be positive.")
    return {"mean": float(np.average(v)), "wmean": float(np.average(v, weights=n))}


def sts_scores(
    cosines: Any,
    gold: Any,
    subsets: Sequence[str],
    *,
    aggregate: bool,
    main: str = PAPER_AGGREGATION,
) -> dict[str, dict[str, Any]]:
    """Per-subset cosine correlations, plus SentEval's ``all`` when ``aggregate``.

    Args:
        cosines, gold: one value per pair.
        subsets: the sub-dataset of each pair (e.g. ``"MSRpar"``); order of first appearance is kept.
        aggregate: add an ``"all"`` entry (STS12-16) from the per-subset values.
        main: which aggregate is ``all``'s ``cosine_spearman``/``cosine_pearson`` (``"wmean"``, the
            paper's, or ``"mean"``).

    Returns ``{subset: {"cosine_spearman", "cosine_pearson", "num_pairs"}}``; ``"all"`` (if asked)
    has ``cosine_spearman``/``cosine_pearson`` (= the ``main`` aggregate) and
    ``cosine_spearman_mean``, ``cosine_spearman_wmean``, ``cosine_pearson_mean``,
    ``cosine_pearson_wmean``, ``num_pairs`` (total), ``num_subsets`` and ``aggregation`` (= ``main``).
    """
    if main not in AGGREGATIONS:
        raise InputError(f"aggregation must be one of {AGGREGATIONS}, got {main!r}.")
    cos = np.asarray(cosines, dtype=np.float64).ravel()
    g = np.asarray(gold, dtype=np.float64).ravel()
    labels = np.asarray(list(subsets), dtype=object)
    if not (cos.size == g.size == labels.size):
        raise InputError(f"{cos.size} similarities, {g.size} gold scores and {labels.size} subset labels.")
    out: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(labels.tolist()):
        rows = labels == name
        corr = correlations(cos[rows], g[rows], what=f"subset {name!r}")
        out[name] = {
            "cosine_spearman": corr["spearman"],
            "cosine_pearson": corr["pearson"],
            "num_pairs": int(rows.sum()),
        }
    if aggregate:
        if "all" in out:
            raise InputError("a sub-dataset may not be called 'all'.")
        sizes = [out[s]["num_pairs"] for s in out]
        entry: dict[str, Any] = {}
        for metric in ("cosine_spearman", "cosine_pearson"):
            agg = aggregate_all([out[s][metric] for s in out], sizes)
            entry[metric] = agg[main]
            entry[f"{metric}_mean"] = agg["mean"]
            entry[f"{metric}_wmean"] = agg["wmean"]
        entry.update(num_pairs=int(sum(sizes)), num_subsets=len(sizes), aggregation=main)
        out["all"] = entry
    return out
