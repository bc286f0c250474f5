"""Uncertainty of a Spearman correlation over pairs (STS, word similarity) and of an accuracy over test items
(SentEval), with per-item values for ``compare`` and ``ranks``.

- **Spearman bootstrap** (:func:`spearman_bootstrap`): the pairs are resampled with replacement, within their
  strata (STS12-16's sub-datasets: each keeps its size), each stratum's Spearman correlation is recomputed on
  the replicate (average ranks, as ``scipy.stats.spearmanr``) and the strata are combined with their size
  weights (SentEval's ``all``, the ``wmean`` main score; one stratum: the correlation itself).  ``se`` = the
  standard deviation of the replicates, the interval = their 2.5% and 97.5% percentiles (``B = 1000``, seed 0:
  deterministic).
- **Per-item values of a Spearman correlation** (:func:`spearman_item_values`): with ``z`` the standardised
  average ranks of predictions and gold within a stratum and ``ρ`` the stratum's correlation,
  ``u_i = ρ + z_x z_y − ρ (z_x² + z_y²) / 2`` (the empirical influence of a pair on a Pearson correlation of
  fixed ranks, plus ``ρ``).  Their mean over a stratum is exactly ``ρ``, their mean over all pairs is the
  size-weighted mean of the strata: the task's main score.  A paired bootstrap of their mean is a first-order
  (linearised) bootstrap of the correlation: it holds the ranks fixed instead of re-ranking each replicate.
- **Accuracy** (:func:`accuracy_item_values`, :func:`accuracy_bootstrap`): each test item's value is
  ``correct · N / (K · n_k)`` within outer fold ``k`` of ``K`` (``N`` items), so that the plain mean is the
  mean of the folds' accuracies (SentEval's k-fold figure); one fold: ``correct`` itself.  The bootstrap
  resamples the items within their folds.

Nothing here depends on a model; the functions take arrays and return arrays or plain floats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import rankdata

from mteb_evalrank.errors import InputError

#: bootstrap replicates of the stored intervals
N_RESAMPLES = 1000


def _strata(strata: Any, n: int) -> np.ndarray:
    if strata is None:
        return np.zeros(n, dtype=np.int64)
    labels = np.asarray(strata)
    if labels.shape != (n,):
        raise InputError(f"strata need one label per item ({n}); got shape {labels.shape}.")
    return np.unique(labels, return_inverse=True)[1].reshape(-1)


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x = x - x.mean(axis=-1, keepdims=True)
    y = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (x * y).sum(axis=-1) / np.sqrt((x * x).sum(axis=-1) * (y * y).sum(axis=-1))


def spearman_item_values(predicted: Any, gold: Any, strata: Any = None) -> np.ndarray:
    """Per-pair values whose mean is the size-weighted mean of the strata's Spearman correlations (module
    docstring); NaN when a stratum's predictions or gold scores are constant."""
    p = np.asarray(predicted, dtype=np.float64).ravel()
    g = np.asarray(gold, dtype=np.float64).ravel()
    st = _strata(strata, p.size)
    out = np.empty(p.size)
    for s in range(int(st.max()) + 1 if p.size else 0):
        rows = st == s
        zx, zy = (rankdata(v[rows]) for v in (p, g))
        with np.errstate(invalid="ignore", divide="ignore"):
            zx = (zx - zx.mean()) / zx.std()
            zy = (zy - zy.mean()) / zy.std()
        rho = float(np.mean(zx * zy))
        out[rows] = rho + zx * zy - rho * (zx * zx + zy * zy) / 2
    return out


def spearman_bootstrap(
    predicted: Any, gold: Any, strata: Any = None, *, n_resamples: int = N_RESAMPLES, seed: int = 0
) -> dict[str, float]:
    """``{"se", "ci_low", "ci_high"}`` of the size-weighted mean of the strata's Spearman correlations:
    pairs resampled within strata, every correlation recomputed (module docstring)."""
    p = np.asarray(predicted, dtype=np.float64).ravel()
    g = np.asarray(gold, dtype=np.float64).ravel()
    st = _strata(strata, p.size)
    rng = np.random.default_rng(seed)
    total = np.zeros(n_resamples)
    for s in range(int(st.max()) + 1):
        rows = np.flatnonzero(st == s)
        pick = rows[rng.integers(0, rows.size, size=(n_resamples, rows.size))]
        rho = _pearson_rows(rankdata(p[pick], axis=1), rankdata(g[pick], axis=1))
        total += np.nan_to_num(rho, nan=0.0) * rows.size / p.size  # a constant replicate: no correlation
    return _summary(total)


def accuracy_item_values(correct: Any, folds: Any = None) -> np.ndarray:
    """Per-item values whose mean is the mean of the folds' accuracies (module docstring)."""
    c = np.asarray(correct, dtype=np.float64).ravel()
    st = _strata(folds, c.size)
    sizes = np.bincount(st).astype(np.float64)
    return c * c.size / (sizes.size * sizes[st])


def accuracy_bootstrap(
    correct: Any, folds: Any = None, *, n_resamples: int = N_RESAMPLES, seed: int = 0
) -> dict[str, float]:
    """``{"se", "ci_low", "ci_high"}`` of the mean of the folds' accuracies, items resampled within folds."""
    c = np.asarray(correct, dtype=np.float64).ravel()
    st = _strata(folds, c.size)
    rng = np.random.default_rng(seed)
    k = int(st.max()) + 1
    total = np.zeros(n_resamples)
    for s in range(k):
        rows = np.flatnonzero(st == s)
        total += c[rows][rng.integers(0, rows.size, size=(n_resamples, rows.size))].mean(axis=1) / k
    return _summary(total)


def _summary(replicates: np.ndarray) -> dict[str, float]:
    return {
        "se": float(np.std(replicates, ddof=1)),
        "ci_low": float(np.percentile(replicates, 2.5)),
        "ci_high": float(np.percentile(replicates, 97.5)),
    }


def uncertainty_keys(metric: str, summary: dict[str, float]) -> dict[str, float]:
    """``<metric>_se``, ``<metric>_ci_low``, ``<metric>_ci_high`` for a score dict."""
    return {f"{metric}_{k}": v for k, v in summary.items()}


__all__ = [
    "N_RESAMPLES",
    "accuracy_bootstrap",
    "accuracy_item_values",
    "spearman_bootstrap",
    "spearman_item_values",
    "uncertainty_keys",
]
