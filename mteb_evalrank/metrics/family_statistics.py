"""Rank correlation across models that are *not* independent: families, cluster bootstrap, Holm.

EvalRank (§5-6, Tables 3, 6, 10) correlates an intrinsic score with a downstream score across models
and treats the models as independent.  They are not: the poolings, whitenings and ABTT versions of one
checkpoint share most of their behaviour, so a correlation over 12 poolings of one model and three
random floors mostly measures "which family".  This module gives the family-aware figures.

**Families.** ``families`` is one label per model; models with the same label are one family.

**Partial Spearman for family** (:func:`partial_spearman_family`).  Rank ``x`` and ``y`` over the
models (:func:`scipy.stats.rankdata`, average ties), subtract from each rank the mean rank of its
family, and take the Pearson correlation of the two residual vectors, × 100.  This equals regressing
the ranks on family indicators and correlating the residuals: only *within-family* differences in
ranking count.  A family of one model has residual 0 and contributes nothing; the value is undefined
with fewer than two families of at least two models (a single family's within-family ρ is what the
sensitivity tables show instead), or when a residual vector is constant.

**Cluster bootstrap** (:func:`cluster_bootstrap_weights`, :func:`weighted_spearman`).  A resample
draws as many *families* as there are, with replacement, and keeps every model of each drawn family
(Davison & Hinkley 1997, §3.8, resampling clusters).  A drawn family of ``m`` models drawn ``c`` times
contributes ``c`` copies of each of its ``m`` models.  Instead of materialising the copies, a resample
is an integer weight per model (``c`` of its family), and Spearman's ρ of the expanded sample is
computed from the weights: the average rank of model ``i`` is ``W_<(i) + (W_=(i) + 1) / 2`` with
``W_<(i)`` the total weight of models scoring strictly below it and ``W_=(i)`` of models tied with it
(itself included); ρ is the weight-``w`` Pearson correlation of those ranks.  This is exactly
:func:`scipy.stats.spearmanr` on the expanded sample.  With every model its own family it is the
ordinary model-level paired bootstrap.  The interval is the percentile interval; a resample in which a
score is constant has no ρ and counts as ρ = 0 (counted in ``n_degenerate``), as in
:mod:`mteb_evalrank.metrics.rank_correlation`.

**Paired comparisons** (:func:`compare_clustered`).  ρ(a, y) − ρ(b, y) on the same models, both
computed on every resample from the same weights.  The two-sided p-value is a normal approximation with
the bootstrap standard error, ``p = 2 Φ(−|d̂| / se*)`` (a Wald test with a bootstrap variance), so that
p is not floored at ``1 / n_resamples`` and survives a multiple-comparison correction over many cells;
the percentile interval is reported beside it.

**Multiple comparisons** (:func:`holm`).  Holm's step-down correction (Holm 1979): with the ``m`` p-values
sorted, ``p_(1) <= ... <= p_(m)``, the adjusted ``p~_(i) = min(1, max_{j <= i} (m - j + 1) p_(j))``.  The values
equal :func:`statsmodels.stats.multitest.multipletests` (``method="holm"``; a test compares them), which is not
called here because its Holm path runs ``gc.collect()`` on every call: a third of a second in a process that
holds MTEB, paid once per claim and page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteb_evalrank.metrics.lineage_weighting import weighted_ranks
from mteb_evalrank.metrics.rank_correlation import MIN_MODELS, _undefined_reason, check_bootstrap_size, paired_scores


def family_codes(families: Sequence[object] | np.ndarray, n: int | None = None) -> np.ndarray:
    """Integer codes ``0..k-1`` of the family labels, in order of first appearance."""
    labels = list(families)
    if n is not None and len(labels) != n:
        from mteb_evalrank.errors import InputError

        raise InputError(f"got {len(labels)} family labels for {n} models.")
    index: dict[object, int] = {}
    return np.asarray([index.setdefault(f, len(index)) for f in labels], dtype=np.int64)


@dataclass(frozen=True)
class PartialCorrelation:
    """Spearman partial correlation for family × 100, or ``reason`` when undefined."""

    value: float
    n_models: int
    n_families: int
    n_informative_families: int  # families with at least two models
    reason: str | None = None


def partial_spearman_family(x, y, families: Sequence[object]) -> PartialCorrelation:
    """ρ_partial = Pearson(rank(x) − family mean rank, rank(y) − family mean rank) × 100.

    >>> partial_spearman_family([1, 2, 3, 4], [2, 1, 4, 3], ["a", "a", "b", "b"]).value
    -100.0
    """
    from scipy.stats import rankdata

    x, y = paired_scores(x, y)
    codes = family_codes(families, len(x))
    sizes = np.bincount(codes) if len(codes) else np.zeros(0, dtype=np.int64)
    informative = int((sizes >= 2).sum())
    n_fam = int(len(sizes))
    if informative < 2:
        return PartialCorrelation(
            float("nan"),
            len(x),
            n_fam,
            informative,
            f"undefined: {informative} famil{'y' if informative == 1 else 'ies'} with ≥ 2 models (partial ρ needs ≥ 2)",
        )
    rx, ry = rankdata(x), rankdata(y)
    residuals = []
    for r in (rx, ry):
        means = np.bincount(codes, weights=r) / sizes
        residuals.append(r - means[codes])
    ex, ey = residuals
    den = np.sqrt((ex @ ex) * (ey @ ey))
    if not den > 1e-12:
        return PartialCorrelation(
            float("nan"), len(x), n_fam, informative, "undefined: a score does not vary within any family"
        )
    return PartialCorrelation(float(ex @ ey / den * 100), len(x), n_fam, informative)


def cluster_bootstrap_weights(families: Sequence[object] | np.ndarray, n_resamples: int, seed: int = 0) -> np.ndarray:
    """``(n_resamples, n_models)`` integer weights: each row draws the families with replacement, and a
    model's weight is how often its family was drawn (families drawn whole)."""
    codes = family_codes(families)
    check_bootstrap_size(len(codes), n_resamples)
    k = int(codes.max()) + 1 if len(codes) else 0
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, k, size=(n_resamples, k))
    counts = np.zeros((n_resamples, k), dtype=np.int64)
    np.add.at(counts, (np.arange(n_resamples)[:, None], drawn), 1)
    return counts[:, codes]


def _weighted_ranks(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Average ranks of each model in the weight-expanded sample, per resample row:
    ``Σ_{x_j < x_i} w_j + (Σ_{x_j = x_i} w_j + 1) / 2`` (:func:`~mteb_evalrank.metrics.lineage_weighting.weighted_ranks`
    plus ½)."""
    return weighted_ranks(x, weights) + 0.5


def weighted_spearman(x, y, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman ρ (not × 100) of the weight-expanded samples, one per row of ``weights``, and a mask of
    the rows where it is undefined (a constant score; ρ is set to 0 there)."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    rx, ry = _weighted_ranks(x, w), _weighted_ranks(y, w)
    total = w.sum(axis=1, keepdims=True)
    mx = (w * rx).sum(axis=1, keepdims=True) / total
    my = (w * ry).sum(axis=1, keepdims=True) / total
    dx, dy = rx - mx, ry - my
    sxy = (w * dx * dy).sum(axis=1)
    sxx = (w * dx * dx).sum(axis=1)
    syy = (w * dy * dy).sum(axis=1)
    scale = np.maximum(total[:, 0], 1.0) ** 2
    degenerate = (sxx <= 1e-12 * scale) | (syy <= 1e-12 * scale)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = np.where(degenerate, 0.0, sxy / np.sqrt(np.where(degenerate, 1.0, sxx * syy)))
    return rho, degenerate


@dataclass(frozen=True)
class ClusterInterval:
    """Percentile interval of ρ × 100 from a family bootstrap."""

    ci_low: float
    ci_high: float
    n_families: int
    n_resamples: int
    n_degenerate: int
    reason: str | None = None


def _too_few(n: int, n_families: int, *vectors: np.ndarray) -> str | None:
    """:func:`~mteb_evalrank.metrics.rank_correlation._undefined_reason`, plus: one family cannot be resampled."""
    if n >= MIN_MODELS and n_families < 2:
        return "undefined: 1 family (a family bootstrap needs ≥ 2)"
    return _undefined_reason(*vectors)


def cluster_bootstrap_spearman(
    x, y, families: Sequence[object], *, n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
) -> ClusterInterval:
    """95% percentile interval of Spearman ρ × 100 resampling whole families (seeded)."""
    x, y = paired_scores(x, y)
    codes = family_codes(families, len(x))
    n_fam = int(codes.max()) + 1 if len(codes) else 0
    reason = _too_few(len(x), n_fam, x, y)
    if reason is not None:
        return ClusterInterval(float("nan"), float("nan"), n_fam, n_resamples, 0, reason)
    w = cluster_bootstrap_weights(codes, n_resamples, seed)
    rho, degenerate = weighted_spearman(x, y, w)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(rho * 100, [alpha, 1 - alpha])
    return ClusterInterval(float(low), float(high), n_fam, n_resamples, int(degenerate.sum()))


@dataclass(frozen=True)
class ClusteredComparison:
    """ρ(a, y) − ρ(b, y) × 100 with its family-bootstrap interval, standard error and two-sided p."""

    difference: float
    ci_low: float
    ci_high: float
    se: float
    p_value: float
    n_models: int
    n_families: int
    n_resamples: int
    reason: str | None = None


def compare_clustered(
    a,
    b,
    y,
    families: Sequence[object] | None = None,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> ClusteredComparison:
    """Paired family bootstrap of ρ(a, y) − ρ(b, y); ``families=None``: every model its own family."""
    from scipy.stats import norm, spearmanr

    a, y = paired_scores(a, y)
    b, _ = paired_scores(b, y)
    families = list(range(len(y))) if families is None else list(families)
    codes = family_codes(families, len(y))
    n_fam = int(codes.max()) + 1 if len(codes) else 0
    reason = _too_few(len(y), n_fam, a, b, y)
    nan = float("nan")
    if reason is not None:
        return ClusteredComparison(nan, nan, nan, nan, nan, len(y), n_fam, n_resamples, reason)
    diff = (float(spearmanr(a, y).statistic) - float(spearmanr(b, y).statistic)) * 100
    w = cluster_bootstrap_weights(codes, n_resamples, seed)
    ra, _ = weighted_spearman(a, y, w)
    rb, _ = weighted_spearman(b, y, w)
    d = (ra - rb) * 100
    alpha = (1 - confidence) / 2
    low, high = np.quantile(d, [alpha, 1 - alpha])
    se = float(np.std(d, ddof=1))
    if se > 0:
        p = float(2 * norm.sf(abs(diff) / se))
    else:
        p = 1.0 if diff == 0 else 0.0
    return ClusteredComparison(diff, float(low), float(high), se, p, len(y), n_fam, n_resamples)


def holm(p_values: Sequence[float] | np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Holm-corrected p-values (the module docstring's step-down; NaN stays NaN and does not count as a
    comparison).  ``alpha`` changes no value: it is kept for the callers that pass statsmodels' signature."""
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if ok.size:
        finite = p[ok]
        order = np.argsort(finite, kind="stable")
        steps = np.arange(finite.size, 0, -1, dtype=np.float64)  # m - j + 1 for the j-th smallest
        adjusted = np.empty_like(finite)
        adjusted[order] = np.minimum(1.0, np.maximum.accumulate(finite[order] * steps))
        out[ok] = adjusted
    return out
