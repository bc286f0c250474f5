"""Across-model rank correlation of two scores, with bootstrap intervals (EvalRank §5-6, Tables 3 and 6).

EvalRank's claim is about *rankings of models*: an intrinsic score is useful if it orders models as a
downstream task does.  For ``n`` models with intrinsic scores ``x`` and downstream scores ``y``:

- ``rho`` = Spearman's ρ(x, y) × 100 (the paper's unit), :func:`scipy.stats.spearmanr`;
- ``tau`` = Kendall's τ_b(x, y), :func:`scipy.stats.kendalltau`;
- ``ci_low``/``ci_high``: a percentile bootstrap interval of ρ × 100 over *models* (pairs (x_i, y_i)
  resampled together; :func:`scipy.stats.bootstrap` with ``paired=True``, seeded);
- :func:`compare_predictors`: the paired bootstrap of ρ(a, y) − ρ(b, y) on the same models (the claim
  "a predicts y better than b" holds at 95% when the interval excludes 0).

ρ is undefined with fewer than 3 models or when either score is constant; those cells carry a
``reason`` instead of a number.  A bootstrap resample whose scores are constant has no ρ; such
resamples count as ρ = 0 (no association), which only widens the interval, and their number is
returned (``n_degenerate``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError

MIN_MODELS = 3
#: Most values one bootstrap holds at once (units × resamples, 8 bytes each: 745 MiB per array; scipy's
#: vectorised bootstrap keeps several such arrays).  Larger is refused before it starts, never a MemoryError.
MAX_BOOTSTRAP_VALUES = 100_000_000


def check_bootstrap_size(n_units: int, n_resamples: int, *, units: str = "models") -> None:
    """:class:`InputError` when a bootstrap of ``n_units`` resampled ``n_resamples`` times would hold more than
    :data:`MAX_BOOTSTRAP_VALUES` values at once, naming the estimate and the limit (the one check of every
    bootstrap over models or pairs: correlations, comparisons, family clusters, STS levels)."""
    values = int(n_units) * int(n_resamples)
    if values > MAX_BOOTSTRAP_VALUES:
        raise InputError(
            f"{n_units:,} {units} x {n_resamples:,} resamples = {values:,} bootstrap values per score pair "
            f"({values * 8 / 2**30:.1f} GiB at once); the limit is {MAX_BOOTSTRAP_VALUES:,}: lower --n-resamples."
        )


@dataclass(frozen=True)
class Correlation:
    """ρ × 100, its bootstrap interval, Kendall's τ and the models used; ``reason`` when undefined."""

    rho: float
    ci_low: float
    ci_high: float
    tau: float
    n_models: int
    n_resamples: int
    n_degenerate: int = 0
    reason: str | None = None

    @property
    def defined(self) -> bool:
        return self.reason is None


def paired_scores(
    x, y, *, what: str = "score vectors", hint: str = " (drop models without a score before correlating)"
) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` as aligned, finite, 1-D float64 arrays, or an :class:`InputError` naming ``what``."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise InputError(f"{what} must be 1-D and of equal length, got {x.shape} and {y.shape}.")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise InputError(f"{what} must be finite{hint}.")
    return x, y


def _undefined_reason(*vectors: np.ndarray) -> str | None:
    n = len(vectors[0])
    if n < MIN_MODELS:
        return f"undefined: {n} model{'s' if n != 1 else ''} (ρ needs ≥ {MIN_MODELS})"
    for v in vectors:
        if np.all(v == v[0]):
            return "undefined: a score is constant across models"
    return None


def spearman_along(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Spearman ρ along ``axis`` (vectorised for :func:`scipy.stats.bootstrap`); constant rows give 0."""
    from scipy.stats import rankdata

    rx = rankdata(x, axis=axis)
    ry = rankdata(y, axis=axis)
    rx = rx - rx.mean(axis=axis, keepdims=True)
    ry = ry - ry.mean(axis=axis, keepdims=True)
    num = (rx * ry).sum(axis=axis)
    den = np.sqrt((rx * rx).sum(axis=axis) * (ry * ry).sum(axis=axis))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    return out


def spearman_with_ci(x, y, *, n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95) -> Correlation:
    """ρ × 100 between ``x`` and ``y`` across models, with a paired percentile bootstrap interval."""
    from scipy.stats import bootstrap, kendalltau, spearmanr

    x, y = paired_scores(x, y)
    check_bootstrap_size(len(x), n_resamples)
    reason = _undefined_reason(x, y)
    if reason is not None:
        nan = float("nan")
        return Correlation(nan, nan, nan, nan, len(x), n_resamples, reason=reason)
    rho = float(spearmanr(x, y).statistic) * 100
    tau = float(kendalltau(x, y).statistic)
    degenerate = [0]

    def statistic(a, b, axis=-1):
        r = spearman_along(a, b, axis=axis)
        degenerate[0] += int(np.sum((np.ptp(a, axis=axis) == 0) | (np.ptp(b, axis=axis) == 0)))
        return r * 100

    res = bootstrap(
        (x, y),
        statistic,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    ci = res.confidence_interval
    return Correlation(rho, float(ci.low), float(ci.high), tau, len(x), n_resamples, degenerate[0])


@dataclass(frozen=True)
class Comparison:
    """ρ(a, y) − ρ(b, y) (× 100) on the same models, with its paired bootstrap interval."""

    difference: float
    ci_low: float
    ci_high: float
    n_models: int
    n_resamples: int
    reason: str | None = None


def compare_predictors(a, b, y, *, n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95) -> Comparison:
    """Paired bootstrap over models of ρ(a, y) − ρ(b, y): does ``a`` predict ``y`` better than ``b``?"""
    from scipy.stats import bootstrap, spearmanr

    a, y = paired_scores(a, y)
    b, _ = paired_scores(b, y)
    check_bootstrap_size(len(y), n_resamples)
    reason = _undefined_reason(a, b, y)
    if reason is not None:
        nan = float("nan")
        return Comparison(nan, nan, nan, len(y), n_resamples, reason)
    diff = (float(spearmanr(a, y).statistic) - float(spearmanr(b, y).statistic)) * 100

    def statistic(ra, rb, ry, axis=-1):
        return (spearman_along(ra, ry, axis=axis) - spearman_along(rb, ry, axis=axis)) * 100

    res = bootstrap(
        (a, b, y),
        statistic,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return Comparison(
        diff, float(res.confidence_interval.low), float(res.confidence_interval.high), len(y), n_resamples
    )
