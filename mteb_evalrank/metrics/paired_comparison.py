"""Paired comparison of two models on the same items: paired bootstrap over items (clusters).

Both models were scored on the same items ``i`` (same data, same order); the task score is the mean of
the per-item values, so the difference of the two scores is the mean of ``d_i = a_i − b_i``.  Items
may come in clusters (EvalRank's two directions of one pair); resampling is over clusters.

- **difference** ``D = mean(d)`` (A − B).
- **95% interval**: percentile interval of the paired bootstrap — ``B`` resamples of the ``C`` clusters
  with replacement, ``D* = Σ S*_c / Σ n*_c`` (cluster sums and sizes of ``d``), 2.5% and 97.5% percentiles.
- **p (two-sided)**: the bootstrap under the null hypothesis "no difference" — the replicates shifted to
  mean 0, ``p = (1 + #{|D* − D| ≥ |D|}) / (B + 1)`` (Efron & Tibshirani 1993, §16.4).  The smallest p a
  run can give is ``1 / (B + 1)``.
- **minimum detectable difference** at 80% power, two-sided α = 0.05:
  ``MDD = (z_{0.975} + z_{0.80}) · se(D) ≈ 2.80 · se(D)``, with ``se(D)`` the cluster-robust analytic
  standard error of the mean of ``d`` (:func:`~mteb_evalrank.metrics.score_uncertainty.clustered_mean_se`):
  a true difference of that size is found 80% of the time by a test at this level.
- **identical per-item values** (a model against itself): ``D = 0``, interval ``[0, 0]``, ``p = 1``.
- **several tasks**: Holm's step-down adjustment of the p values (:func:`holm`, statsmodels
  ``multipletests(method="holm")``), which controls the family-wise error rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import norm

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.score_uncertainty import cluster_ids, clustered_mean_se

#: bootstrap resamples of :func:`paired_bootstrap`
N_RESAMPLES = 10_000
#: ``z_{0.975} + z_{0.80}``: the minimum detectable difference in standard errors
MDD_FACTOR = float(norm.ppf(0.975) + norm.ppf(0.80))


@dataclass(frozen=True)
class PairedComparison:
    """Result of :func:`paired_bootstrap` (A − B)."""

    difference: float
    ci_low: float
    ci_high: float
    p_value: float
    se: float
    min_detectable: float
    n_items: int
    n_clusters: int
    n_resamples: int

    @property
    def significant(self) -> bool:
        """``p < 0.05``."""
        return self.p_value < 0.05


def paired_bootstrap(
    a: Any, b: Any, groups: Any = None, *, n_resamples: int = N_RESAMPLES, seed: int = 0, chunk: int = 1000
) -> PairedComparison:
    """Paired bootstrap test of ``mean(a) − mean(b)`` over the same items (module docstring for the rules).

    Args:
        a, b: per-item values of model A and model B, the same items in the same order.
        groups: optional cluster label per item (resampled together); ``None``: items independent.
        n_resamples: bootstrap replicates (≥ 100).
        seed: resampling seed (the result is deterministic for a seed).
    """
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape or x.size == 0:
        raise InputError(f"a and b must be non-empty 1-D arrays of one length; got shapes {x.shape} and {y.shape}.")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise InputError("per-item values contain NaN or inf.")
    if n_resamples < 100:
        raise InputError(f"n_resamples must be at least 100; got {n_resamples}.")
    d = x - y
    ids = cluster_ids(groups, d.size)
    sums = np.bincount(ids, weights=d)
    sizes = np.bincount(ids).astype(np.float64)
    c = sums.size
    diff = float(d.mean())
    if not np.any(d):
        return PairedComparison(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, int(d.size), int(c), int(n_resamples))
    _, se, _ = clustered_mean_se(d, ids)
    rng = np.random.default_rng(seed)
    reps = np.empty(n_resamples)
    for start in range(0, n_resamples, chunk):
        stop = min(start + chunk, n_resamples)
        pick = rng.integers(0, c, size=(stop - start, c))
        reps[start:stop] = sums[pick].sum(axis=1) / sizes[pick].sum(axis=1)
    extreme = int(np.count_nonzero(np.abs(reps - diff) >= abs(diff)))
    p = (1 + extreme) / (n_resamples + 1)
    se = se if np.isfinite(se) else float(np.std(reps, ddof=1))
    return PairedComparison(
        difference=diff,
        ci_low=float(np.percentile(reps, 2.5)),
        ci_high=float(np.percentile(reps, 97.5)),
        p_value=float(p),
        se=float(se),
        min_detectable=float(MDD_FACTOR * se),
        n_items=int(d.size),
        n_clusters=int(c),
        n_resamples=int(n_resamples),
    )


def holm(p_values: Any) -> list[float]:
    """Holm-adjusted p values (:func:`mteb_evalrank.metrics.family_statistics.holm`), in the given order."""
    from mteb_evalrank.metrics.family_statistics import holm as holm_adjusted

    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or p.size == 0:
        raise InputError("holm needs a non-empty list of p values.")
    return [float(v) for v in holm_adjusted(p)]


__all__ = ["MDD_FACTOR", "N_RESAMPLES", "PairedComparison", "holm", "paired_bootstrap"]
