"""Estimands that do not depend on how many variants of a lineage were run: every lineage one unit of weight.

The study's models are not independent: the poolings, whitenings, layers and distilled tables of one
checkpoint, and every model trained by one method on one corpus, form one *lineage*
(``docs/statistics.md``).  A per-model statistic gives a lineage of 23 variants 23 times the say of a lineage
of one model, so the answer depends on how many variants somebody chose to run.  Every confirmatory estimand
of the study therefore **weighs lineages equally**: the ``n_L`` models of lineage ``L`` each carry weight
``w_i = 1 / n_L`` (:func:`unit_weights`).

**Lineage-weighted Spearman** (:func:`lineage_spearman`).  The Spearman correlation of the weighted sample
(Bailey, Emad, Zhang & Xie, *wCorr Formulas*, the R package wCorr's vignette: weighted ranks, then the
weighted Pearson correlation of the ranks)::

    R_w(x)_i = Σ_{j: x_j < x_i} w_j + ½ Σ_{j: x_j = x_i} w_j          (weighted mid-rank)
    ρ_w(x, y) = Σ w_i (R_i − R̄)(S_i − S̄) / √(Σ w_i (R_i − R̄)² · Σ w_i (S_i − S̄)²),   R̄ = Σ w_i R_i / Σ w_i

with ``R = R_w(x)``, ``S = R_w(y)``.  With integer weights it is exactly :func:`scipy.stats.spearmanr` of the
sample in which model ``i`` appears ``w_i`` times; with ``w_i = 1/n_L`` it is the Spearman correlation of the
population in which every lineage has total mass one.  Entering a lineage's rows ``k`` times changes nothing:
the ``k`` copies tie with each other and share the lineage's unit of weight.

**Lineage bootstrap** (:func:`lineage_counts`, :func:`expand_counts`).  A resample draws ``n_draw`` lineages
(by default as many as there are, ``L``) with replacement; lineage ``L`` drawn ``c_L`` times gives each of its
models the weight ``c_L / n_L``.  The lineages are coded in sorted order of their labels, so the same seed
draws the same lineages whatever the order or multiplicity of the rows.  Drawing ``n_draw > L`` lineages from
the observed ones simulates a larger population with the observed structure (used for "how many more
lineages would detect +10", :func:`mteb_evalrank.metrics.confirmatory.better_than_all`).

**Lineage-weighted mean** (:func:`lineage_mean`): ``Σ_L mean_{i ∈ L}(v_i) / L``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteb_evalrank.errors import InputError


def lineage_codes(lineages: Sequence[object]) -> tuple[np.ndarray, list[object]]:
    """Integer codes of the lineage labels in *sorted* order of the labels (order-independent), and the labels."""
    labels = list(lineages)
    try:
        unique = sorted(set(labels), key=lambda v: (str(type(v)), v))
    except TypeError:
        unique = sorted(set(labels), key=str)
    index = {u: i for i, u in enumerate(unique)}
    return np.asarray([index[v] for v in labels], dtype=np.int64), unique


def unit_weights(codes: np.ndarray) -> np.ndarray:
    """``1 / n_L`` per model: each lineage's models share one unit of weight."""
    codes = np.asarray(codes, dtype=np.int64)
    if not len(codes):
        return np.zeros(0)
    sizes = np.bincount(codes)
    return 1.0 / sizes[codes]


def lineage_counts(n_lineages: int, n_resamples: int, seed: int = 0, n_draw: int | None = None) -> np.ndarray:
    """``(n_resamples, n_lineages)`` counts: how often each lineage is drawn when ``n_draw`` (default
    ``n_lineages``) lineages are drawn with replacement (seeded)."""
    if n_lineages < 1:
        raise InputError("a lineage bootstrap needs at least one lineage.")
    draw = n_lineages if n_draw is None else int(n_draw)
    rng = np.random.default_rng(seed)
    return rng.multinomial(draw, np.full(n_lineages, 1.0 / n_lineages), size=n_resamples).astype(np.float64)


def expand_counts(counts: np.ndarray, codes: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """Per-model weights ``c_L / n_L`` of each resample row of lineage ``counts``."""
    return np.atleast_2d(counts)[:, codes] * unit[None, :]


def weighted_ranks(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted mid-ranks ``Σ_{x_j < x_i} w_j + ½ Σ_{x_j = x_i} w_j`` of each model, one row per weight row.

    Computed from one sort of ``x`` and a running sum of the weights in that order: ``O(R·n)`` for ``R`` weight rows
    of ``n`` models, where the pairwise form (``w @ less.T``) is ``O(R·n²)``.  Integer weights (counts) give the
    same ranks exactly; a score that is NaN is less than, greater than and equal to nothing, as in the pairwise
    form (:func:`_pairwise_weighted_ranks`, used then)."""
    x = np.asarray(x, dtype=np.float64)
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    if np.isnan(x).any():
        return _pairwise_weighted_ranks(x, w)
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])  # first sorted position of each distinct value
    ends = np.r_[starts[1:], len(xs)]
    group = np.repeat(np.arange(len(starts)), ends - starts)  # the distinct value of each sorted position
    running = np.zeros((w.shape[0], len(xs) + 1))
    np.cumsum(w[:, order], axis=1, out=running[:, 1:])
    below = running[:, starts]  # Σ w_j over x_j < value
    ranks = np.empty_like(w)
    ranks[:, order] = (below + 0.5 * (running[:, ends] - below))[:, group]
    return ranks


def _pairwise_weighted_ranks(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:func:`weighted_ranks` by comparing every pair of models (what NaN scores need)."""
    less = (x[None, :] < x[:, None]).astype(np.float64)  # less[i, j] = x_j < x_i
    equal = (x[None, :] == x[:, None]).astype(np.float64)
    return w @ less.T + 0.5 * (w @ equal.T)


def weighted_spearman_rows(x, y, weights: np.ndarray) -> np.ndarray:
    """ρ_w(x, y) (not × 100) for every row of ``weights``; a row in which a score is constant gives 0."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    rx, ry = weighted_ranks(x, w), weighted_ranks(y, w)
    total = w.sum(axis=1, keepdims=True)
    safe = np.where(total > 0, total, 1.0)
    dx = rx - (w * rx).sum(axis=1, keepdims=True) / safe
    dy = ry - (w * ry).sum(axis=1, keepdims=True) / safe
    sxy = (w * dx * dy).sum(axis=1)
    sxx = (w * dx * dx).sum(axis=1)
    syy = (w * dy * dy).sum(axis=1)
    scale = np.maximum(total[:, 0], 1e-300) ** 3
    degenerate = (sxx <= 1e-12 * scale) | (syy <= 1e-12 * scale)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(degenerate, 0.0, sxy / np.sqrt(np.where(degenerate, 1.0, sxx * syy)))


def lineage_spearman(x, y, lineages: Sequence[object]) -> float:
    """Lineage-weighted Spearman ρ × 100 (each lineage one unit of weight; see the module docstring).

    >>> round(lineage_spearman([1, 2, 3, 3, 3], [1, 2, 3, 3, 3], ["a", "b", "c", "c", "c"]), 6)
    100.0
    """
    codes, _ = lineage_codes(lineages)
    if len(codes) != len(np.asarray(x)):
        raise InputError(f"got {len(codes)} lineage labels for {len(np.asarray(x))} models.")
    return float(weighted_spearman_rows(x, y, unit_weights(codes)[None, :])[0] * 100)


def lineage_mean(values, lineages: Sequence[object]) -> float:
    """``Σ_L mean_{i ∈ L}(v_i) / L``: the mean with every lineage one unit of weight."""
    v = np.asarray(values, dtype=np.float64)
    codes, labels = lineage_codes(lineages)
    if len(codes) != len(v):
        raise InputError(f"got {len(codes)} lineage labels for {len(v)} values.")
    return float((unit_weights(codes) @ v) / len(labels)) if len(v) else float("nan")
