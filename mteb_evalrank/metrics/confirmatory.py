"""Confirmatory tests of the study's claims: named in advance, selection-aware, clustered by lineage, powered.

Every function here takes plain arrays and a cluster label per model (its *lineage*: everything that shares
weights or training, see ``docs/statistics.md``) and returns the test's figures; the reports turn them into
Findings.

**The estimand weighs lineages equally.**  ρ of a claim is the lineage-weighted Spearman correlation (every
lineage one unit of weight, its models ``1 / n_L`` each; :mod:`mteb_evalrank.metrics.lineage_weighting`), so
the answer does not depend on how many variants of a lineage were run; the per-model ρ is a sensitivity line
(``weighting="model"``).  The resampling unit is the lineage: a resample draws as many lineages as there are,
with replacement, coded in sorted order of their labels (the same seed draws the same lineages whatever the
order or multiplicity of the rows).

**Wald statistics with a bootstrap standard error and few clusters.**  Each test statistic is
``t = (estimate − null value) / se*`` with ``se*`` the standard deviation of the estimate over the lineage
bootstrap, referred to Student's t with ``L − 1`` degrees of freedom (``L`` = number of lineages), not to
the normal: with few clusters the normal reference over-rejects (Cameron, Gelbach & Miller 2008, §IV).
Fewer than :data:`MIN_CLUSTERS` lineages never decide anything.  The printed 1 − 2α interval comes from the
same bootstrap distribution and the same reference (:func:`t_interval`: ``estimate ± t_{1−α, L−1} · se*``), so
it excludes 0 exactly when a one-sided p is below α; a percentile interval of the same draws could disagree
with the p-value.

**"A predicts the target better than every baseline"** (:func:`better_than_all`).  For each baseline
``b`` named in advance, ``d_b = ρ_w(A, y) − ρ_w(b, y)`` (× 100) on the same models, with its bootstrap
``se_b`` from the *same* resamples.  The claim is the intersection of ``K`` one-sided hypotheses
``d_b > 0``; the intersection-union test rejects the joint null at level α when every one-sided test
rejects at α, so its p-value is ``max_b p_b`` and no correction over the baselines is needed (Berger
1982).  This is selection-aware: A must beat every baseline, not the one that looks strongest after the
fact.  The reverse reading ("some baseline predicts better") is a union of ``K`` one-sided tests in the
other direction, so its p-value is Bonferroni-adjusted: ``min(1, K · min_b p'_b)``.

**Minimum detectable difference, at the level the verdict uses** (``mdd``).  The smallest common advantage
``δ`` over every baseline that the test would declare with probability ``power`` (default 0.8) at level
``mdd_alpha`` — the level of the verdict after Holm across the claims (``α / m`` for ``m`` claims, Holm's
first step, the level a claim must reach when no other claim is rejected).  It is computed from the bootstrap
itself: the centred bootstrap differences ``c*_b = d*_b − mean(d*_b)`` stand for the sampling error, and
``power(δ) = mean_r[ ∀b: (δ + c*_rb) / se_b > t_{1−α', L−1} ]``; ``δ`` solves ``power(δ) = 0.8`` by
bisection.  An advantage cannot exceed ``room = 100 − max_b ρ_w(b, y)``: when ``mdd > room`` no attainable
advantage had 80% power, and the report says so (with ``power_at_room``, the chance of SUPPORTED at the largest
possible advantage, and the non-inferiority margin these data could show instead, which is the MDD itself: the
power of "not worse than every baseline by more than ``m``" when the true difference is 0 equals
``power(m)``).

**How many more lineages** (``more_lineages``).  Not an extrapolation with ``se ∝ 1/√L``: ``L'`` lineages are
drawn with replacement from the observed ones (a population with the observed lineage structure), the
statistics recomputed on each of ``n_resamples`` such populations, and the power at ``growth_target`` (10
points, or the room when less is attainable) read off their spread at ``t_{1−α', L'−1}``; the smallest ``L'``
with power ≥ 0.8 (doubling, then bisection) gives ``L' − L``.

**The second estimand against its baselines** (:func:`better_within`).  Does a score pick the better of two
variants of one checkpoint more often than every baseline does?  The statistic is the lineage-weighted
within-checkpoint concordance κ over pairs of one contrast type (:func:`contrast_type`: pooling, layer,
post-processing, dimension, quantisation, training), tested exactly like the first estimand.

**Equivalence** (:func:`mean_tests`).  "X does not change Y" is supported only by two one-sided
tests (TOST, Schuirmann 1987) that put the lineage-weighted mean change inside ``±margin``, a margin fixed in
advance: ``p = max(p(Δ ≤ −m), p(Δ ≥ +m))``.  An interval that merely contains 0 is not evidence of no effect.
The smallest margin the data could show at 80% power when the true change is 0 is
``se · (t_{1−α'} + t_{1−(1−power)/2})``.

**Within a checkpoint, per model** (:func:`within_cluster_permutation`, exploratory).  The partial Spearman
correlation for checkpoint (Pearson of the ranks minus their checkpoint's mean rank,
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
from mteb_evalrank.metrics.lineage_weighting import (
    expand_counts,
    lineage_codes,
    lineage_counts,
    unit_weights,
    weighted_ranks,
)
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


def t_interval(estimate: float, se: float, alpha: float, n_clusters: int) -> tuple[float, float]:
    """The one-sided tests' 1 − 2α interval, ``estimate ± t_{1−α, L−1} · se``, from the same bootstrap SE and
    Student t as their p-values: it excludes 0 exactly when one of the two one-sided p-values is below α."""
    if not se > 0:
        return float(estimate), float(estimate)
    half = t_critical(alpha, n_clusters) * se
    return float(estimate - half), float(estimate + half)


def _wald_p(estimate: float, null: float, se: float, n_clusters: int) -> float:
    """One-sided p for ``estimate > null``; a zero standard error decides by the sign alone."""
    if se > 0:
        return _p_above((estimate - null) / se, n_clusters)
    return 0.0 if estimate > null else 1.0


@dataclass(frozen=True)
class BaselineContrast:
    """stat(claim) − stat(baseline) × 100 with its lineage-bootstrap SE, interval and one-sided p-values."""

    baseline: str
    rho_baseline: float
    difference: float
    se: float
    ci_low: float
    ci_high: float
    p_better: float  # H1: the claim's statistic is higher
    p_worse: float  # H1: the baseline's statistic is higher


@dataclass(frozen=True)
class BetterThanAll:
    """The intersection-union test of "``claim`` beats every baseline", with its power.

    ``mdd`` is the common advantage detected with probability ``power`` at level ``mdd_alpha`` (the level the
    verdict uses after Holm across the claims); ``room`` = 100 − the best baseline's statistic, the largest
    advantage that can exist; ``more_lineages``: how many lineages beyond the ``n_clusters`` observed a
    simulation under the observed lineage structure needs for 80% power at ``growth_target`` (``inf``: more
    than ``growth_cap`` in all; NaN: not simulated)."""

    rho_claim: float
    contrasts: tuple[BaselineContrast, ...]
    p_support: float  # max_b p_better (Berger 1982)
    p_refute: float  # Bonferroni min_b p_worse
    mdd: float
    alpha: float
    power: float
    n_models: int
    n_clusters: int
    n_resamples: int
    reason: str | None = None
    mdd_alpha: float = float("nan")
    room: float = float("nan")
    power_at_room: float = float("nan")  # probability of SUPPORTED if the claim's advantage were `room`
    more_lineages: float = float("nan")
    growth_target: float = float("nan")
    growth_cap: int = 0
    estimand: str = "lineage-weighted"

    @property
    def attainable(self) -> bool:
        """Whether the MDD is an advantage that can exist (≤ 100 − the best baseline's statistic)."""
        return bool(np.isfinite(self.mdd) and np.isfinite(self.room) and self.mdd <= self.room)


def _check_clusters(clusters: Sequence[object], n: int) -> tuple[np.ndarray, int]:
    """Sorted-label lineage codes (the same resamples whatever the row order or multiplicity) and their number."""
    labels = list(clusters)
    if len(labels) != n:
        raise InputError(f"got {len(labels)} lineage labels for {n} models.")
    codes, unique = lineage_codes(labels)
    return codes, len(unique)


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


def _iut_power(centred: np.ndarray, se: np.ndarray, crit: float):
    """``δ ↦ P(every one-sided test rejects)`` when every difference is ``δ`` plus the centred bootstrap error."""
    return lambda delta: float(np.mean(np.all((delta + centred) / se > crit, axis=1)))


def _more_lineages(
    stat, n_clusters: int, target: float, alpha: float, power: float, n_resamples: int, seed: int, cap_factor: int = 64
) -> tuple[float, int]:
    """Extra lineages (beyond ``n_clusters``) a population with the observed lineage structure needs so that an
    advantage of ``target`` over every baseline is SUPPORTED with probability ``power`` at level ``alpha``:
    ``L'`` lineages are drawn with replacement from the observed ones, the statistics recomputed, and the power
    read off their spread (as the MDD is).  Returns ``(extra, cap)``; ``extra`` is ``inf`` beyond ``cap``."""
    cap = max(n_clusters * cap_factor, n_clusters + 1)

    def power_at(total: int) -> float:
        boot = stat(lineage_counts(n_clusters, n_resamples, seed + 7919, n_draw=total))
        d = boot[:, :1] - boot[:, 1:]
        se = np.std(d, axis=0, ddof=1)
        if not np.all(se > 0):
            return 0.0
        return _iut_power(d - d.mean(axis=0), se, t_critical(alpha, total))(target)

    if power_at(n_clusters) >= power:
        return 0.0, cap
    low, high = n_clusters, 2 * n_clusters
    while power_at(high) < power:
        low, high = high, 2 * high
        if high > cap:
            return float("inf"), cap
    while high - low > 1:
        mid = (low + high) // 2
        if power_at(mid) >= power:
            high = mid
        else:
            low = mid
    return float(high - n_clusters), cap


def _intersection_union(
    stat,
    names: Sequence[str],
    n_clusters: int,
    n_models: int,
    *,
    alpha: float,
    mdd_alpha: float | None,
    power: float,
    n_resamples: int,
    seed: int,
    growth_target: float,
    simulate_growth: bool,
    estimand: str,
) -> BetterThanAll:
    """The shared core of the better-than-every-baseline tests.  ``stat(counts)`` maps lineage counts
    ``(R, L)`` to the statistics × 100 ``(R, 1 + K)``, the claim's first, then each baseline's in ``names``."""
    mdd_alpha = alpha if mdd_alpha is None else mdd_alpha
    observed = stat(np.ones((1, n_clusters)))[0]
    boot = stat(lineage_counts(n_clusters, n_resamples, seed))
    draws = boot[:, :1] - boot[:, 1:]
    contrasts = []
    for k, name in enumerate(names):
        d = draws[:, k]
        diff = float(observed[0] - observed[1 + k])
        se = float(np.std(d, ddof=1))
        low, high = t_interval(diff, se, alpha, n_clusters)
        contrasts.append(
            BaselineContrast(
                name,
                float(observed[1 + k]),
                diff,
                se,
                float(low),
                float(high),
                _wald_p(diff, 0.0, se, n_clusters),
                _wald_p(-diff, 0.0, se, n_clusters),
            )
        )
    p_support = max(c.p_better for c in contrasts)
    p_refute = min(1.0, len(contrasts) * min(c.p_worse for c in contrasts))
    ses = np.array([c.se for c in contrasts])
    room = float(100.0 - max(c.rho_baseline for c in contrasts))
    mdd = power_room = more = target = float("nan")
    cap = 0
    if np.all(ses > 0):
        power_at = _iut_power(draws - draws.mean(axis=0), ses, t_critical(mdd_alpha, n_clusters))
        mdd = _bisect_power(power_at, power)
        power_room = power_at(max(room, 0.0))
        target = float(min(growth_target, room))
        if simulate_growth and target > 0 and not (np.isfinite(mdd) and mdd <= target):
            more, cap = _more_lineages(stat, n_clusters, target, mdd_alpha, power, n_resamples, seed)
    # else: a baseline identical in ranks to the claim: no advantage over it can ever be shown
    reason = f"{n_clusters} lineages (fewer than {MIN_CLUSTERS} never decide)" if n_clusters < MIN_CLUSTERS else None
    return BetterThanAll(
        float(observed[0]),
        tuple(contrasts),
        p_support,
        p_refute,
        mdd,
        alpha,
        power,
        n_models,
        n_clusters,
        n_resamples,
        reason,
        mdd_alpha,
        room,
        power_room,
        more,
        target,
        cap,
        estimand,
    )


def _not_decidable(
    reason: str,
    n_models: int,
    n_clusters: int,
    alpha: float,
    mdd_alpha: float | None,
    power: float,
    n_resamples: int,
    estimand: str,
) -> BetterThanAll:
    nan = float("nan")
    return BetterThanAll(
        nan,
        (),
        nan,
        nan,
        nan,
        alpha,
        power,
        n_models,
        n_clusters,
        n_resamples,
        reason,
        alpha if mdd_alpha is None else mdd_alpha,
        estimand=estimand,
    )


def _rank_correlations(scores: Sequence[np.ndarray], y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """ρ_w(s, y) × 100 for every score and weight row: ``(R, len(scores))``."""
    w = np.atleast_2d(weights)
    ry = weighted_ranks(y, w)
    total = w.sum(axis=1, keepdims=True)
    dy = ry - (w * ry).sum(axis=1, keepdims=True) / total
    syy = (w * dy * dy).sum(axis=1)
    scale = total[:, 0] ** 3
    out = np.empty((w.shape[0], len(scores)))
    for k, s in enumerate(scores):
        rx = weighted_ranks(s, w)
        dx = rx - (w * rx).sum(axis=1, keepdims=True) / total
        sxx = (w * dx * dx).sum(axis=1)
        sxy = (w * dx * dy).sum(axis=1)
        bad = (sxx <= 1e-12 * scale) | (syy <= 1e-12 * scale)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:, k] = np.where(bad, 0.0, sxy / np.sqrt(np.where(bad, 1.0, sxx * syy)))
    return out * 100


ESTIMANDS = {"lineage": "lineage-weighted", "model": "per-model"}


def better_than_all(
    claim,
    baselines: Mapping[str, object],
    y,
    clusters: Sequence[object],
    *,
    alpha: float = 0.05,
    mdd_alpha: float | None = None,
    power: float = POWER,
    n_resamples: int = 2000,
    seed: int = 0,
    weighting: str = "lineage",
    growth_target: float = 10.0,
    simulate_growth: bool = True,
) -> BetterThanAll:
    """Does ``claim`` rank the models like ``y`` better than *every* baseline?  See the module docstring.

    ``claim``, each baseline and ``y``: one finite score per model (the same models, in the same order);
    ``clusters``: the lineage of each model.  ``weighting="lineage"`` (the estimand fixed in advance): the
    lineage-weighted Spearman ρ, every lineage one unit of weight
    (:func:`~mteb_evalrank.metrics.lineage_weighting.lineage_spearman`); ``"model"``: the per-model ρ (a
    sensitivity line).  Either way whole lineages are resampled.  ``alpha`` is the level of each one-sided
    test (the caller adjusts the p-values across claims); ``mdd_alpha`` the level the MDD is computed at (the
    level the verdict actually uses after Holm, e.g. α/3 for three claims; default ``alpha``).
    """
    if weighting not in ESTIMANDS:
        raise InputError(f"weighting must be one of {', '.join(ESTIMANDS)}, got {weighting!r}.")
    a, y = paired_scores(claim, y)
    bs = {name: paired_scores(v, y)[0] for name, v in baselines.items()}
    if not bs:
        raise InputError("the claim needs at least one baseline named in advance.")
    codes, n_clusters = _check_clusters(clusters, len(y))
    degenerate = [n for n, v in (("the claim's score", a), ("the target", y), *bs.items()) if np.ptp(v) == 0]
    reason = None
    if len(y) < 3:
        reason = f"{len(y)} models (ρ needs ≥ 3)"
    elif n_clusters < 2:
        reason = f"{n_clusters} lineage (a lineage bootstrap needs ≥ 2)"
    elif degenerate:
        reason = f"{degenerate[0]} is constant across the models"
    if reason is not None:
        return _not_decidable(reason, len(y), n_clusters, alpha, mdd_alpha, power, n_resamples, ESTIMANDS[weighting])
    unit = unit_weights(codes) if weighting == "lineage" else np.ones(len(y))
    scores = [a, *bs.values()]

    def stat(counts: np.ndarray) -> np.ndarray:
        return _rank_correlations(scores, y, expand_counts(counts, codes, unit))

    return _intersection_union(
        stat,
        list(bs),
        n_clusters,
        len(y),
        alpha=alpha,
        mdd_alpha=mdd_alpha,
        power=power,
        n_resamples=n_resamples,
        seed=seed,
        growth_target=growth_target,
        simulate_growth=simulate_growth,
        estimand=ESTIMANDS[weighting],
    )


@dataclass(frozen=True)
class PlannedPower:
    """The expected power of :func:`better_than_all` for a population of ``n_lineages`` lineages drawn with
    replacement from the observed ones (:func:`plan_power`)."""

    n_lineages: int
    alpha: float
    mdd: float  # expected minimum detectable difference (80% power); NaN: none up to 400 points
    room: float  # the largest attainable advantage: 100 − the best baseline's observed statistic
    target: float  # the advantage the power and the lineages needed are given at (10 points, or the room)
    power_at_target: float
    power_at_room: float
    lineages_needed: float  # lineages in all for 80% power at `target`; inf: more than `cap`
    cap: int
    n_observed: int


@dataclass(frozen=True)
class ClaimScores:
    """One claim's data: the claim's score, each baseline's and the target, one per model, and each model's
    lineage (the arguments of :func:`better_than_all`)."""

    claim: Sequence[float]
    baselines: Mapping[str, Sequence[float]]
    y: Sequence[float]
    clusters: Sequence[object]


#: the advantage a plan gives its power and lineages needed at, in ρ points
PLAN_TARGET = 10.0


def plan_power(
    data: ClaimScores,
    n_lineages: int,
    alpha: float,
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    simulate_growth: bool = True,
) -> PlannedPower:
    """Power (80%: :data:`POWER`) of "``claim`` beats every baseline" (lineage-weighted, as :func:`better_than_all`) in a population
    of ``n_lineages`` lineages like the observed ones: ``n_resamples`` populations of ``n_lineages`` lineages are
    drawn with replacement from the observed ``clusters``, the statistics recomputed on each, and the power at an
    advantage ``δ`` over every baseline read off their spread at ``t_{1−α, n_lineages−1}`` (as the MDD of
    :func:`better_than_all` is; at ``n_lineages`` = the observed count it is that MDD, with the same seed).
    ``lineages_needed``: the smallest such population with 80% power at :data:`PLAN_TARGET` (or at the room
    when less is attainable), by :func:`better_than_all`'s own growth simulation (NaN without ``simulate_growth``)."""
    if int(n_lineages) < 2:
        raise InputError(f"a population needs at least 2 lineages to be planned, got {n_lineages}.")
    a, y = paired_scores(data.claim, data.y)
    bs = {name: paired_scores(v, y)[0] for name, v in data.baselines.items()}
    if not bs:
        raise InputError("the claim needs at least one baseline named in advance.")
    codes, n_clusters = _check_clusters(data.clusters, len(y))
    unit = unit_weights(codes)
    scores = [a, *bs.values()]

    def stat(counts: np.ndarray) -> np.ndarray:
        return _rank_correlations(scores, y, expand_counts(counts, codes, unit))

    observed = stat(np.ones((1, n_clusters)))[0]
    room = float(100.0 - max(observed[1:]))
    boot = stat(lineage_counts(n_clusters, n_resamples, seed, n_draw=int(n_lineages)))
    d = boot[:, :1] - boot[:, 1:]
    se = np.std(d, axis=0, ddof=1)
    nan = float("nan")
    if not np.all(se > 0):
        return PlannedPower(int(n_lineages), alpha, nan, room, nan, 0.0, 0.0, float("inf"), 0, n_clusters)
    power_at = _iut_power(d - d.mean(axis=0), se, t_critical(alpha, int(n_lineages)))
    goal = float(min(PLAN_TARGET, room))
    extra, cap = float("nan"), 0
    if simulate_growth:
        extra, cap = _more_lineages(stat, n_clusters, goal, alpha, POWER, n_resamples, seed)
    return PlannedPower(
        int(n_lineages),
        alpha,
        _bisect_power(power_at, POWER),
        room,
        goal,
        power_at(goal),
        power_at(max(room, 0.0)),
        n_clusters + extra,
        cap,
        n_clusters,
    )


#: the contrast types of the second estimand: one factor differs between two variants of one checkpoint
CONTRAST_TYPES = ("pooling", "layer", "post-processing", "dimension", "quantisation", "training")


def contrast_type(a: Mapping[str, object], b: Mapping[str, object]) -> str:
    """What distinguishes two variants of one checkpoint: the one factor of :data:`CONTRAST_TYPES` in which
    their ``factors`` differ; ``"other"`` when only an undeclared difference (``recipe``: another way of making
    the model from the checkpoint) does, ``"mixed"`` when several do, ``"none"`` when nothing does."""
    keys = sorted(set(a) | set(b))
    differ = [k for k in keys if a.get(k) != b.get(k)]
    if not differ:
        return "none"
    if len(differ) > 1:
        return "mixed"
    return differ[0] if differ[0] in CONTRAST_TYPES else "other"


def within_pairs(
    strata: Sequence[object], factors: Sequence[Mapping[str, object]] | None = None
) -> list[tuple[int, int, str]]:
    """Every pair ``(i, j, type)`` of models of one stratum (checkpoint), ``i < j``, typed by
    :func:`contrast_type` (``"unspecified"`` when no factors are known)."""
    strata = list(strata)
    by: dict[object, list[int]] = {}
    for i, s in enumerate(strata):
        by.setdefault(s, []).append(i)
    out = []
    for members in by.values():
        for x in range(len(members)):
            for z in range(x + 1, len(members)):
                i, j = members[x], members[z]
                kind = "unspecified" if factors is None else contrast_type(factors[i], factors[j])
                out.append((i, j, kind))
    return out


def better_within(
    claim,
    baselines: Mapping[str, object],
    y,
    strata: Sequence[object],
    clusters: Sequence[object],
    pairs: Sequence[tuple[int, int]],
    *,
    alpha: float = 0.05,
    mdd_alpha: float | None = None,
    power: float = POWER,
    n_resamples: int = 2000,
    seed: int = 0,
    growth_target: float = 10.0,
    simulate_growth: bool = True,
) -> BetterThanAll:
    """The second estimand against its baselines: does ``claim`` pick the better of two variants of one
    checkpoint more often than *every* baseline does, on the given within-checkpoint ``pairs``?

    The statistic of a score ``s`` is the lineage-weighted within-checkpoint concordance ×
    100 (a Kendall-type pairwise agreement, stratified by checkpoint)::

        κ(s) = Σ_p w_p · sign(s_i − s_j) · sign(y_i − y_j) / Σ_p w_p

    over the pairs ``p = (i, j)`` of one checkpoint with ``y_i ≠ y_j``, each lineage one unit of weight split
    equally over its pairs (so neither the number of variants nor of pairs of a lineage changes κ; entering a
    lineage's rows ``k`` times only repeats its pairs).  κ = 100: the score always picks the variant that is
    better downstream; 0: a coin; a tie in ``s`` counts 0.  The test is :func:`better_than_all`'s: paired
    differences κ(claim) − κ(b) over the same pairs, lineages (with pairs) resampled whole, one-sided Wald
    tests with Student t on L − 1 df, intersection-union over the baselines.
    """
    a, y = paired_scores(claim, y)
    bs = {name: paired_scores(v, y)[0] for name, v in baselines.items()}
    if not bs:
        raise InputError("the claim needs at least one baseline named in advance.")
    if len(list(strata)) != len(y) or len(list(clusters)) != len(y):
        raise InputError("strata and lineages need one label per model.")
    clusters = list(clusters)
    useful = [(i, j) for i, j in pairs if y[i] != y[j]]
    lin = [clusters[i] for i, _ in useful]
    codes, labels = lineage_codes(lin)
    n_clusters = len(labels)
    n_models = len({k for p in useful for k in p})
    if not useful:
        return _not_decidable(
            "no within-checkpoint pair differs in the target",
            0,
            0,
            alpha,
            mdd_alpha,
            power,
            n_resamples,
            "lineage-weighted",
        )
    if n_clusters < 2:
        return _not_decidable(
            f"{n_clusters} lineage with such pairs (a lineage bootstrap needs ≥ 2)",
            n_models,
            n_clusters,
            alpha,
            mdd_alpha,
            power,
            n_resamples,
            "lineage-weighted",
        )
    i_idx = np.array([i for i, _ in useful])
    j_idx = np.array([j for _, j in useful])
    sign_y = np.sign(y[i_idx] - y[j_idx])
    agree = np.stack([np.sign(s[i_idx] - s[j_idx]) * sign_y for s in (a, *bs.values())], axis=1)  # (P, 1 + K)
    unit = unit_weights(codes)

    def stat(counts: np.ndarray) -> np.ndarray:
        w = expand_counts(counts, codes, unit)
        return (w @ agree) / w.sum(axis=1, keepdims=True) * 100

    return _intersection_union(
        stat,
        list(bs),
        n_clusters,
        n_models,
        alpha=alpha,
        mdd_alpha=mdd_alpha,
        power=power,
        n_resamples=n_resamples,
        seed=seed,
        growth_target=growth_target,
        simulate_growth=simulate_growth,
        estimand="lineage-weighted",
    )


@dataclass(frozen=True)
class MeanTest:
    """A lineage-weighted mean change with its lineage-bootstrap SE and one-sided / equivalence p-values."""

    mean: float
    se: float
    ci_low: float  # 1 − 2α interval (the TOST's interval): mean ± t_{1−α, L−1} · se, as the p-values
    ci_high: float
    p_positive: float  # H1: mean > 0
    p_not_positive: float  # H1: mean < 0
    p_equivalent: float  # TOST: H1: −m < mean < m
    p_outside: float  # H1: mean > m or mean < −m (Bonferroni over the two sides)
    margin: float
    mdd_positive: float  # smallest mean > 0 detected with probability `power` at `mdd_alpha`
    min_margin: float  # smallest margin shown at `power` when the true change is 0, at `mdd_alpha`
    n: int
    n_clusters: int
    reason: str | None = None
    mdd_alpha: float = float("nan")


def mean_tests(
    values,
    clusters: Sequence[object],
    *,
    margin: float = float("nan"),
    alpha: float = 0.05,
    mdd_alpha: float | None = None,
    power: float = POWER,
    n_resamples: int = 2000,
    seed: int = 0,
) -> MeanTest:
    """One-sided and equivalence (TOST, Schuirmann 1987) tests of the *lineage-weighted* mean of ``values``
    (one per model pair; every lineage one unit of weight, :func:`~mteb_evalrank.metrics.lineage_weighting.
    lineage_mean`), resampling whole lineages; ``margin``: the equivalence margin fixed in advance (same unit
    as ``values``); ``mdd_alpha``: the level of the power figures (default ``alpha``)."""
    from scipy.stats import t as student

    mdd_alpha = alpha if mdd_alpha is None else mdd_alpha
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or not np.isfinite(v).all():
        raise InputError("mean_tests needs a 1-D array of finite values.")
    codes, n_clusters = _check_clusters(clusters, len(v))
    nan = float("nan")
    if len(v) < 2 or n_clusters < 2:
        return MeanTest(
            nan,
            nan,
            nan,
            nan,
            nan,
            nan,
            nan,
            nan,
            margin,
            nan,
            nan,
            len(v),
            n_clusters,
            f"{len(v)} values in {n_clusters} lineage(s) (needs ≥ 2 lineages)",
            mdd_alpha,
        )
    unit = unit_weights(codes)
    w = expand_counts(lineage_counts(n_clusters, n_resamples, seed), codes, unit)
    means = (w @ v) / w.sum(axis=1)
    mean = float((unit @ v) / n_clusters)
    se = float(np.std(means, ddof=1))
    low, high = t_interval(mean, se, alpha, n_clusters)
    p_pos = _wald_p(mean, 0.0, se, n_clusters)
    p_neg = _wald_p(-mean, 0.0, se, n_clusters)
    if np.isfinite(margin) and margin > 0:
        p_eq = max(_wald_p(mean, -margin, se, n_clusters), _wald_p(-mean, -margin, se, n_clusters))
        p_out = min(1.0, 2 * min(_wald_p(mean, margin, se, n_clusters), _wald_p(-mean, margin, se, n_clusters)))
    else:
        p_eq = p_out = nan
    df = _df(n_clusters)
    crit = t_critical(mdd_alpha, n_clusters)
    mdd = se * (crit + float(student.ppf(power, df)))
    min_margin = se * (crit + float(student.ppf(1 - (1 - power) / 2, df)))
    reason = f"{n_clusters} lineages (fewer than {MIN_CLUSTERS} never decide)" if n_clusters < MIN_CLUSTERS else None
    return MeanTest(
        mean,
        se,
        float(low),
        float(high),
        p_pos,
        p_neg,
        p_eq,
        p_out,
        margin,
        mdd,
        min_margin,
        len(v),
        n_clusters,
        reason,
        mdd_alpha,
    )


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


def within_cluster_permutation(
    x, y, strata: Sequence[object], *, n_permutations: int = 5000, seed: int = 0
) -> WithinPermutation:
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
        return WithinPermutation(
            nan, nan, nan, len(x), informative, n_permutations, "a score does not vary within any checkpoint"
        )
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
