"""Sampling standard errors of one model's task score: is a difference between models above noise?

A downstream column can only rank models if the models differ by more than each score's own sampling
noise (MRPC's test set has 1,725 pairs: one accuracy point is ±1.1 standard errors).  The formulas,
each a function of what an MTEB result stores:

- **accuracy** over ``n`` test items: binomial, ``se = sqrt(p (1 − p) / n)``.  For SentEval's k-fold
  tasks (MR, CR, SUBJ, MPQA) every item is tested once, so ``n`` is the data set size.
- **Spearman's ρ** over ``n`` pairs (STS): Fieller, Hartley & Pearson (1957),
  ``se = (1 − ρ²) · sqrt(1.06 / (n − 3))`` (the Fisher-z standard error mapped back to ρ).
- **a mean of values in [0, 1]** over ``n`` items (EvalRank's MRR, ``1/rank``; Hits@k):
  ``se ≤ sqrt(m (1 − m) / n)`` because a variable in [0, 1] with mean ``m`` has variance at most
  ``m (1 − m)`` (equality for Hits@k, a conservative bound for MRR).  EvalRank evaluates every pair in
  both directions, so ``n`` is half the number of directed pairs.
- **a mean of k sub-scores** (STS12-16 "all", the downstream mean): ``se = sqrt(Σ se_i²) / k``
  (independent sub-scores).

:func:`noise_ratio`: the spread of a score across models (sample standard deviation) divided by the
median standard error of the models' scores; below 2 the column mostly measures noise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: a score whose spread across models is below this many median standard errors (:func:`noise_ratio`) is
#: "mostly noise": it cannot rank the models
NOISE_RATIO_MIN = 2.0


def binomial_se(p: float, n: int) -> float:
    """``sqrt(p (1 − p) / n)``."""
    return float(np.sqrt(p * (1 - p) / n)) if n > 0 else float("nan")


def spearman_se(rho: float, n: int) -> float:
    """``(1 − ρ²) sqrt(1.06 / (n − 3))`` (Fieller et al. 1957)."""
    return float((1 - rho * rho) * np.sqrt(1.06 / (n - 3))) if n > 3 else float("nan")


def bounded_mean_se(m: float, n: int) -> float:
    """Upper bound ``sqrt(m (1 − m) / n)`` for the standard error of a mean of values in [0, 1]."""
    return float(np.sqrt(max(m * (1 - m), 0.0) / n)) if n > 0 else float("nan")


def mean_se(ses: Sequence[float]) -> float:
    """Standard error of the mean of independent sub-scores: ``sqrt(Σ se_i²) / k``."""
    s = np.asarray(list(ses), dtype=np.float64)
    if len(s) == 0 or not np.isfinite(s).all():
        return float("nan")
    return float(np.sqrt((s * s).sum()) / len(s))


def noise_ratio(scores: Sequence[float], ses: Sequence[float]) -> float:
    """std(scores across models, ddof=1) / median(se); NaN with fewer than 2 scores or no finite se."""
    x = np.asarray(list(scores), dtype=np.float64)
    s = np.asarray(list(ses), dtype=np.float64)
    x, s = x[np.isfinite(x)], s[np.isfinite(s)]
    if len(x) < 2 or len(s) == 0 or np.median(s) <= 0:
        return float("nan")
    return float(np.std(x, ddof=1) / np.median(s))
