"""Confirmatory tests of the study's claims: named in advance, selection-aware, clustered by lineage, powered.

Every function here takes plain arrays and a cluster label per model (its *lineage*: everything that shares
weights or training, see ``docs/statistics.md``) and returns the test's figures; the reports turn them into
Findings.  The resampling unit is the lineage: a resample draws as many lineages as there are, with
replacement, and keeps each drawn lineage whole (:func:`~mteb_evalrank.metrics.family_statistics.
cluster_bootstrap_weights`).

**Wald statistics with a bootstrap standard error and few clusters.**  Each test statistic is
``t = (estimate − null value) / se*`` with ``se*`` the standard deviation of the estimate over the cluster
bootstrap, referred to Student's t with ``L − 1`` degrees of freedom (``L`` = number of lineages), not to
the normal: with few clusters the normal reference over-rejects (Cameron, Gelbach & Miller 2008, §IV).
Fewer than :data:`MIN_CLUSTERS` lineages never decide anything.

**"A predicts the target better than every baseline"** (:func:`better_than_all`).  For each baseline
``b`` named in advance, ``d_b = ρ(A, y) − ρ(b, y)`` (× 100) on the same models, with its bootstrap
``se_b`` from the *same* resamples.  The claim is the intersection of ``K`` one-sided hypotheses
``d_b > 0``; the intersection-union test rejects the joint null at level α when every one-sided test
rejects at α, so its p-value is ``max_b p_b`` and no correction over the baselines is needed (Berger
1982).  This is selection-aware: A must beat every baseline, not the one that looks strongest after the
fact.  The reverse reading ("some baseline predicts better") is a union of ``K`` one-sided tests in the
other direction, so its p-value is Bonferroni-adjusted: ``min(1, K · min_b p'_b)``.

**Minimum detectable difference** (``mdd``).  The smallest common advantage ``δ`` over every baseline
that the test would declare with probability ``power`` (default 0.8) at level ``alpha``, computed from
the bootstrap itself: the centred bootstrap differences ``c*_b = d*_b − mean(d*_b)`` stand for the
sampling error, and ``power(δ) = mean_r[ ∀b: (δ + c*_rb) / se_b > t_{1−α, L−1} ]``; ``δ`` solves
``power(δ) = 0.8`` by bisection.  ``lineages_needed(10)`` extrapolates how many lineages like these would
bring the MDD down to 10 ρ points, with ``se ∝ 1/√L``: ``L · (mdd / 10)²``.

**Equivalence** (:func:`equivalence_mean`).  "X does not change Y" is supported only by two one-sided
tests (TOST, Schuirmann 1987) that put the mean change inside ``±margin``, a margin fixed in advance:
``p = max(p(Δ ≤ −m), p(Δ ≥ +m))``.  An interval that merely contains 0 is not evidence of no effect.
The smallest margin the data could show at 80% power when the true change is 0 is
``se · (t_{1−α} + t_{1−(1−power)/2})``.

**Within a checkpoint** (:func:`within_cluster_permutation`).  The second estimand: does a score order
the variants of one checkpoint (poolings, layers, post-processing) as the target does?  The statistic is
the partial Spearman correlation for checkpoint (Pearson of the ranks minus their checkpoint's mean rank,
:func:`~mteb_evalrank.metrics.family_statistics.partial_spearman_family`); its null distribution permutes
the target within each checkpoint (a stratified permutation test), one-sided.

**Holm across the claims** (:func:`holm_across_claims`): the confirmatory family is the claims, not every
comparison of a report (Holm 1979).  Exploratory comparisons get unadjusted p-values and
Benjamini-Hochberg q-values (:func:`bh_q`) and never decide a verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.family_statistics import cluster_bootstrap_weights, family_codes, weighted_spearman
from mteb_evalrank.metrics.rank_correlation import paired_scores

SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE = "supported", "not supported", "inconclusive"
#: a cluster bootstrap over fewer lineages than this has too few distinct resamples to decide anything
MIN_CLUSTERS = 5
POWER = 0.8


def _df(n_clusters: int) -> int:
    return max(int(n_clusters) - 1, 1)


def t_critical(alpha: float, n_clusters: int) -> float:
    """One-sided critical value ``t_{1−α, L−1}``."""
    from scipy.stats import t

    return float(t.ppf(1 - alpha, _df(n_clusters)))


def _p_above(stat: float, n_clusters: int) -> float:
    """One-sided p of ``t`` against the upper tail of Student's t with ``L − 1`` df."""
    from scipy.stats import t

    return float(t.sf(stat, _df(n_clusters)))


def _wald_p(estimate: float, null: float, se: float, n_clusters: int) -> float:
    """One-sided p for ``estimate > null``; a zero standard error decides by the sign alone."""
    if se > 0:
        return _p_above((estimate - null) / se, n_clusters)
    return 0.0 if estimate > null else 1.0


@dataclass(frozen=True)
class BaselineContrast:
    """ρ(claim, y) − ρ(baseline, y) × 100 with its lineage-bootstrap SE, interval and one-sided p-values."""

    baseline: str
    rho_baseline: float
    difference: float
    se: float
    ci_low: float
    ci_high: float
    p_better: float  # H1: the claim's ρ is higher
    p_worse: float  # H1: the baseline's ρ is higher


@dataclass(frozen=True)
class BetterThanAll:
    """The intersection-union test of "``claim`` predicts ``y`` better than every baseline"."""

    rho_claim: float
    contrasts: tuple[BaselineContrast, ...]
    p_support: float  # max_b p_better (Berger 1982)
    p_refute: float  # Bonferroni min_b p_worse
    mdd: float  # common advantage (ρ points) detected with probability `power` at level `alpha`
    alpha: float
    power: float
    n_models: int
    n_clusters: int
    n_resamples: int
    reason: str | None = None

    def lineages_needed(self, target: float = 10.0) -> float:
        """Lineages like these needed for an MDD of ``target`` ρ points (``se ∝ 1/√L``)."""
        if not np.isfinite(self.mdd) or self.mdd <= 0:
            return float("nan")
        return float(self.n_clusters * (self.mdd / target) ** 2)


def _check_clusters(clusters: Sequence[object], n: int) -> tuple[np.ndarray, int]:
    codes = family_codes(clusters, n)
    return codes, int(codes.max()) + 1 if len(codes) else 0


def _bisect_power(power_at, target: float, high: float = 400.0) -> float:
    """Smallest δ ≥ 0 with ``power_at(δ) ≥ target`` (``power_at`` non-decreasing); NaN if beyond ``high``."""
    if power_at(high) < target:
        return float("nan")
    low = 0.0
    if power_at(low) >= target:
        return 0.0
    for _ in range(60):
        mid = (low + high) / 2
        if power_at(mid) >= target:
            high = mid
        else:
            low = mid
    return float(high)


def better_than_all(claim, baselines: Mapping[str, object], y, clusters: Sequence[object], *, alpha: float = 0.05,
                    power: float = POWER, n_resamples: int = 2000, seed: int = 0) -> BetterThanAll:  # fmt: skip
    """Does ``claim`` rank the models like ``y`` better than *every* baseline?  See the module docstring.

    ``claim``, each baseline and ``y``: one finite score per model (the same models, in the same order);
    ``clusters``: the lineage of each model.  ``alpha`` is the level each one-sided test is run at (the
    caller adjusts it, or the p-values, across claims).
    """
    from scipy.stats import spearmanr

    a, y = paired_scores(claim, y)
    bs = {name: paired_scores(v, y)[0] for name, v in baselines.items()}
    if not bs:
        raise InputError("the claim needs at least one baseline named in advance.")
    codes, n_clusters = _check_clusters(clusters, len(y))
    nan = float("nan")
    degenerate = [n for n, v in (("the claim's score", a), ("the target", y), *bs.items()) if np.ptp(v) == 0]
    reason = None
    if len(y) < 3:
        reason = f"{len(y)} models (ρ needs ≥ 3)"
    elif n_clusters < 2:
        reason = f"{n_clusters} lineage (a lineage bootstrap needs ≥ 2)"
    elif degenerate:
        reason = f"{degenerate[0]} is constant across the models"
    if reason is not None:
        return BetterThanAll(nan, (), nan, nan, nan, alpha, power, len(y), n_clusters, n_resamples, reason)
    w = cluster_bootstrap_weights(codes, n_resamples, seed)
    rho_a = float(spearmanr(a, y).statistic) * 100
    boot_a, _ = weighted_spearman(a, y, w)
    draws, contrasts = [], []
    for name, b in bs.items():
        rho_b = float(spearmanr(b, y).statistic) * 100
        boot_b, _ = weighted_spearman(b, y, w)
        d = (boot_a - boot_b) * 100
        diff = rho_a - rho_b
        se = float(np.std(d, ddof=1))
        low, high = np.quantile(d, [alpha, 1 - alpha])  # the one-sided tests' 1 − 2α interval
        contrasts.append(BaselineContrast(name, rho_b, diff, se, float(low), float(high),
                                          _wald_p(diff, 0.0, se, n_clusters), _wald_p(-diff, 0.0, se, n_clusters)))  # fmt: skip
        draws.append(d - d.mean())
    p_support = max(c.p_better for c in contrasts)
    p_refute = min(1.0, len(contrasts) * min(c.p_worse for c in contrasts))
    centred = np.stack(draws, axis=1)
    se = np.array([c.se for c in contrasts])
    crit = t_critical(alpha, n_clusters)
    if np.all(se > 0):
        mdd = _bisect_power(lambda delta: float(np.mean(np.all((delta + centred) / se > crit, axis=1))), power)
    else:  # a baseline identical in ranks to the claim: no advantage over it can ever be shown
        mdd = float("nan")
    reason = f"{n_clusters} lineages (fewer than {MIN_CLUSTERS} never decide)" if n_clusters < MIN_CLUSTERS else None
    return BetterThanAll(rho_a, tuple(contrasts), p_support, p_refute, mdd, alpha, power, len(y), n_clusters,
                         n_resamples, reason)  # fmt: skip


@dataclass(frozen=True)
class MeanTest:
    """A mean change with its lineage-bootstrap SE and one-sided / equivalence p-values (points)."""

    mean: float
    se: float
    ci_low: float  # 1 − 2α percentile interval (the TOST's interval)
    ci_high: float
    p_positive: float  # H1: mean > 0
    p_not_positive: float  # H1: mean < 0
    p_equivalent: float  # TOST: H1: −m < mean < m
    p_outside: float  # H1: mean > m or mean < −m (Bonferroni over the two sides)
    margin: float
    mdd_positive: float  # smallest mean > 0 detected with probability `power`
    min_margin: float  # smallest margin shown at `power` when the true change is 0
    n: int
    n_clusters: int
    reason: str | None = None


def mean_tests(values, clusters: Sequence[object], *, margin: float = float("nan"), alpha: float = 0.05,
               power: float = POWER, n_resamples: int = 2000, seed: int = 0) -> MeanTest:  # fmt: skip
    """One-sided and equivalence (TOST, Schuirmann 1987) tests of the mean of ``values`` (one per model pair),
    resampling whole lineages; ``margin``: the equivalence margin fixed in advance (same unit as ``values``)."""
    from scipy.stats import t as student

    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or not np.isfinite(v).all():
        raise InputError("mean_tests needs a 1-D array of finite values.")
    codes, n_clusters = _check_clusters(clusters, len(v))
    nan = float("nan")
    if len(v) < 2 or n_clusters < 2:
        return MeanTest(nan, nan, nan, nan, nan, nan, nan, nan, margin, nan, nan, len(v), n_clusters,
                        f"{len(v)} values in {n_clusters} lineage(s) (needs ≥ 2 lineages)")  # fmt: skip
    w = cluster_bootstrap_weights(codes, n_resamples, seed).astype(np.float64)
    means = (w @ v) / w.sum(axis=1)
    mean = float(v.mean())
    se = float(np.std(means, ddof=1))
    low, high = np.quantile(means, [alpha, 1 - alpha])
    p_pos = _wald_p(mean, 0.0, se, n_clusters)
    p_neg = _wald_p(-mean, 0.0, se, n_clusters)
    if np.isfinite(margin) and margin > 0:
        p_eq = max(_wald_p(mean, -margin, se, n_clusters), _wald_p(-mean, -margin, se, n_clusters))
        p_out = min(1.0, 2 * min(_wald_p(mean, margin, se, n_clusters), _wald_p(-mean, margin, se, n_clusters)))
    else:
        p_eq = p_out = nan
    df = _df(n_clusters)
    crit = t_critical(alpha, n_clusters)
    mdd = se * (crit + float(student.ppf(power, df)))
    min_margin = se * (crit + float(student.ppf(1 - (1 - power) / 2, df)))
    reason = f"{n_clusters} lineages (fewer than {MIN_CLUSTERS} never decide)" if n_clusters < MIN_CLUSTERS else None
    return MeanTest(mean, se, float(low), float(high), p_pos, p_neg, p_eq, p_out, margin, mdd, min_margin, len(v),
                    n_clusters, reason)  # fmt: skip


@dataclass(frozen=True)
class WithinPermutation:
    """Partial Spearman for checkpoint × 100 and its stratified-permutation one-sided p."""

    partial_rho: float
    p_value: float  # H1: x orders the variants as y does (partial ρ > 0)
    p_reverse: float  # H1: x orders them the opposite way (partial ρ < 0)
    n_models: int
    n_strata: int  # checkpoints with ≥ 2 variants (the others carry no within-checkpoint information)
    n_permutations: int
    reason: str | None = None


def within_cluster_permutation(x, y, strata: Sequence[object], *, n_permutations: int = 5000,
                               seed: int = 0) -> WithinPermutation:  # fmt: skip
    """Does ``x`` order the variants *within* each stratum (checkpoint) as ``y`` does?  One-sided
    stratified permutation test of the partial Spearman correlation for stratum (``y`` shuffled within each
    stratum; p = (1 + #{perm ≥ observed}) / (1 + B))."""
    from scipy.stats import rankdata

    x, y = paired_scores(x, y)
    codes, _ = _check_clusters(strata, len(x))
    sizes = np.bincount(codes) if len(codes) else np.zeros(0, dtype=np.int64)
    informative = int((sizes >= 2).sum())
    nan = float("nan")
    if informative < 1:
        return WithinPermutation(nan, nan, nan, len(x), informative, n_permutations, "no checkpoint has ≥ 2 variants")
    res = []
    for r in (rankdata(x), rankdata(y)):
        res.append(r - (np.bincount(codes, weights=r) / sizes)[codes])
    ex, ey = res
    den = float(np.sqrt((ex @ ex) * (ey @ ey)))
    if not den > 1e-12:
        return WithinPermutation(nan, nan, nan, len(x), informative, n_permutations,
                                 "a score does not vary within any checkpoint")  # fmt: skip
    observed = float(ex @ ey)
    rng = np.random.default_rng(seed)
    order = np.argsort(codes, kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    groups = [g for g in np.split(order, bounds) if len(g) >= 2]
    # one permutation per row: shuffle the indices of each stratum independently (argsort of uniform keys)
    perm = np.tile(np.arange(len(x)), (n_permutations, 1))
    for g in groups:
        keys = rng.random((n_permutations, len(g)))
        perm[:, g] = g[np.argsort(keys, axis=1)]
    stats = ey[perm] @ ex
    tol = 1e-12 * max(abs(observed), 1.0)
    p = (1 + int(np.sum(stats >= observed - tol))) / (1 + n_permutations)
    p_rev = (1 + int(np.sum(stats <= observed + tol))) / (1 + n_permutations)
    return WithinPermutation(observed / den * 100, float(p), float(p_rev), len(x), informative, n_permutations)


def holm_across_claims(p_values: Sequence[float]) -> np.ndarray:
    """Holm-adjusted p-values over the confirmatory claims only (NaN: a claim that was not tested)."""
    from mteb_evalrank.metrics.family_statistics import holm

    return holm(p_values)


def bh_q(p_values: Sequence[float]) -> np.ndarray:
    """Benjamini-Hochberg q-values of exploratory p-values (NaN stays NaN)."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p_values, dtype=np.float64)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="fdr_bh")[1]
    return out


def decide(p_support: float, p_refute: float, alpha: float, n_clusters: int, reason: str | None = None) -> str:
    """The verdict from (already adjusted) p-values: supported, not supported, or inconclusive.  Fewer than
    :data:`MIN_CLUSTERS` lineages, or a ``reason``, is always inconclusive."""
    if reason is not None or n_clusters < MIN_CLUSTERS:
        return INCONCLUSIVE
    if np.isfinite(p_support) and p_support < alpha:
        return SUPPORTED
    if np.isfinite(p_refute) and p_refute < alpha:
        return NOT_SUPPORTED
    return INCONCLUSIVE
