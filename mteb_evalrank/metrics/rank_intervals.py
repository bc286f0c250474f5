"""Rank intervals and tie groups for any set of models: a paired bootstrap over items and tasks.

Input: for each task, every model's score and (when the task kept them) the per-item values whose mean is
that score, the same items in the same order for every model.  Output: each model's rank with a percentile
interval, and groups of models that cannot be told apart at a stated simultaneous error rate.

- **Paired bootstrap over items.**  Each replicate draws *one* multinomial resample of a task's items and
  applies it to every model (a weight matrix ``W`` of counts, ``B × n``; the replicate scores are
  ``W @ V / W @ 1``).  Strata (SentEval's outer folds, STS12-16's sub-datasets) are resampled within
  themselves, so their sizes stay fixed; clusters (EvalRank's two directions of a pair) are drawn whole,
  and the replicate score is then ``Σ_c n*_c S_c / Σ_c n*_c n_c`` (cluster sums ``S_c``, sizes ``n_c``).
  A task without per-item values (MTEB's own tasks, older files) keeps its observed scores in every
  replicate: it is resampled *by task only*.
- **Benchmark aggregation** over the tasks of each replicate, as MTEB aggregates: ``mean`` (the mean of the
  task scores), or ``borda`` (MTEB's ``_get_borda_rank``: per task the models' average rank ``r``
  (descending), ``n_models − r`` points, summed over tasks; the rank of the points total, ties ``min``).
  With ``resample_tasks`` (a benchmark: its tasks are a sample of tasks too) each replicate also draws the
  tasks with replacement.
- **Rank** of a model: ``1 + #{models with a strictly higher aggregate}`` (ties ``min``, as MTEB).  The
  interval is the ``α/2`` and ``1 − α/2`` percentiles of the replicate ranks (``lower`` and ``higher``
  order statistics: conservative for integer ranks).
- **Tie groups** from simultaneous intervals of all pairwise differences ``D_jk = S_j − S_k`` of the
  aggregate: with ``se_jk`` the bootstrap standard deviation of ``D*_jk``, the critical value ``c`` is the
  ``1 − α`` quantile over replicates of ``max_{j<k} |D*_jk − D_jk| / se_jk`` (the most extreme pair of each
  replicate; max-T, Romano & Wolf 2005).  A pair *differs* when ``|D_jk| > c · se_jk``: the probability that
  any pair of models with equal true aggregates is declared different is at most ``α`` (asymptotically),
  for all pairs at once.  In observed order, the groups split between two neighbours only where every model
  above differs from every model below: any two models in different groups were declared different, so
  models with equal true scores are split with probability at most ``α``.  (Within a group, two models may
  still differ: the groups are where the ranking splits cleanly, not sets of equals.)

Everything is numpy, vectorised over models and replicates; nothing reads files or prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError

#: bootstrap replicates by default
N_RESAMPLES = 1000
#: aggregations of a benchmark's task scores (MTEB's)
AGGREGATIONS = ("mean", "borda")
#: replicates handled at once when building weights (memory: chunk × items)
_CHUNK = 250


@dataclass(frozen=True)
class TaskValues:
    """One task's scores for every model (columns in the order of the models).

    - ``scores``: ``(n_models,)`` observed task scores;
    - ``values``: ``(n_items, n_models)`` per-item values whose (cluster-weighted) mean is ``scores``, or
      ``None`` (no per-item values: the task is resampled by task only);
    - ``strata``, ``clusters``: one label per item, or ``None``; clusters must lie within one stratum.
    """

    name: str
    scores: np.ndarray
    values: np.ndarray | None = None
    strata: np.ndarray | None = None
    clusters: np.ndarray | None = None

    @property
    def by_items(self) -> bool:
        """Whether the task has per-item values (else it is resampled by task only)."""
        return self.values is not None


@dataclass(frozen=True)
class RankIntervals:
    """Result of :func:`rank_intervals`; arrays in the order of ``models``."""

    models: list[str]
    score: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    group: np.ndarray
    task_names: list[str]
    task_scores: np.ndarray
    by_items: list[bool]
    aggregation: str
    alpha: float
    n_resamples: int
    critical_value: float
    differs: np.ndarray = field(repr=False)
    resampled_tasks: bool = False


def _dense(labels: Any, n: int, *, each: bool) -> np.ndarray:
    """Dense ids ``0..K-1`` of ``labels``; ``None``: every item its own id (``each``) or one id for all."""
    if labels is None:
        return np.arange(n) if each else np.zeros(n, dtype=np.int64)
    arr = np.asarray(labels)
    if arr.shape != (n,):
        raise InputError(f"strata/clusters need one label per item ({n}); got shape {arr.shape}.")
    return np.unique(arr, return_inverse=True)[1].reshape(-1)


def cluster_weights(
    n_items: int, n_resamples: int, rng: np.random.Generator, strata: Any = None, clusters: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial resampling counts of the clusters, within strata: ``(counts (B × C) float32, cluster of
    each item (n,))``.  Each stratum's ``C_s`` clusters are drawn ``C_s`` times with replacement."""
    cl = _dense(clusters, n_items, each=True)
    st = _dense(strata, n_items, each=False)
    n_clusters = int(cl.max()) + 1
    stratum_of = np.full(n_clusters, -1)
    stratum_of[cl] = st
    if not np.array_equal(stratum_of[cl], st):
        raise InputError("a cluster spans several strata; clusters must lie within one stratum.")
    members = [np.flatnonzero(stratum_of == s) for s in range(int(st.max()) + 1)]
    counts = np.zeros((n_resamples, n_clusters), dtype=np.float32)
    for start in range(0, n_resamples, _CHUNK):
        stop = min(start + _CHUNK, n_resamples)
        rows = stop - start
        offsets = (np.arange(rows) * n_clusters)[:, None]
        picks = [ids[rng.integers(0, ids.size, size=(rows, ids.size))] for ids in members if ids.size]
        flat = (np.concatenate(picks, axis=1) + offsets).ravel()
        counts[start:stop] = np.bincount(flat, minlength=rows * n_clusters).reshape(rows, n_clusters)
    return counts, cl


def task_replicates(task: TaskValues, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``(B, n_models)`` replicate scores of one task: the paired bootstrap over its items (one weight matrix
    for every model), or its observed scores repeated when it has no per-item values."""
    scores = np.asarray(task.scores, dtype=np.float64)
    if task.values is None:
        return np.broadcast_to(scores, (n_resamples, scores.size))
    values = np.asarray(task.values, dtype=np.float64)
    n = values.shape[0]
    counts, cl = cluster_weights(n, n_resamples, rng, task.strata, task.clusters)
    sizes = np.bincount(cl).astype(np.float64)
    centre = values.mean(axis=0)  # float32 matmul on centred values: exact enough, twice as fast
    order = np.argsort(cl, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    sums = np.add.reduceat((values - centre)[order], bounds, axis=0)  # cluster sums (one row per item if none)
    total = counts @ sizes.astype(np.float32)
    reps = (counts @ sums.astype(np.float32)).astype(np.float64) / total[:, None]
    # the observed score may differ from the plain mean of the values (clusters of unequal size)
    observed = (sums.sum(axis=0) / sizes.sum()) + centre
    return reps + centre + (scores - observed)


def _tie_blocks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each element along the last axis: the first and last 0-based position of its tie block in
    ascending order (``start``, ``end``), vectorised over the leading axes."""
    order = np.argsort(x, axis=-1, kind="stable")
    s = np.take_along_axis(x, order, axis=-1)
    m = x.shape[-1]
    idx = np.broadcast_to(np.arange(m), s.shape)
    new = np.ones(s.shape, dtype=bool)
    new[..., 1:] = s[..., 1:] != s[..., :-1]
    start_sorted = np.maximum.accumulate(np.where(new, idx, 0), axis=-1)
    last = np.ones(s.shape, dtype=bool)
    last[..., :-1] = new[..., 1:]
    end_sorted = np.flip(np.minimum.accumulate(np.flip(np.where(last, idx, m - 1), axis=-1), axis=-1), axis=-1)
    start = np.empty_like(start_sorted)
    end = np.empty_like(end_sorted)
    np.put_along_axis(start, order, start_sorted, axis=-1)
    np.put_along_axis(end, order, end_sorted, axis=-1)
    return start, end


def min_rank(scores: np.ndarray) -> np.ndarray:
    """Descending rank with ties ``min`` (1 = best) along the last axis: ``1 + #{strictly higher}``."""
    _, end = _tie_blocks(np.asarray(scores))
    return scores.shape[-1] - end


def average_rank(scores: np.ndarray) -> np.ndarray:
    """Descending rank with ties ``average`` along the last axis (polars' ``rank("average", descending)``)."""
    start, end = _tie_blocks(np.asarray(scores))
    return scores.shape[-1] + 1 - (start + end + 2) / 2.0


def aggregate(task_scores: np.ndarray, aggregation: str) -> np.ndarray:
    """Aggregate ``(..., T, M)`` task scores over tasks: ``mean``, or ``borda`` points (MTEB: per task
    ``M − average rank``, summed).  Higher is better for both."""
    if aggregation == "mean":
        return task_scores.mean(axis=-2)
    if aggregation == "borda":
        return (task_scores.shape[-1] - average_rank(task_scores)).sum(axis=-2)
    raise InputError(f"unknown aggregation {aggregation!r}; choose one of {', '.join(AGGREGATIONS)}.")


def _pairwise_se(reps: np.ndarray) -> np.ndarray:
    cov = np.cov(reps, rowvar=False).reshape(reps.shape[1], reps.shape[1])
    var = np.diag(cov)
    return np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * cov, 0.0))


def simultaneous_differences(reps: np.ndarray, observed: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    """``(differs (M × M) bool, critical value c)``: max-T simultaneous intervals of all pairwise differences
    (module docstring); a pair with no bootstrap spread differs when its observed difference is not 0."""
    se = _pairwise_se(reps)
    m = observed.size
    safe = np.where(se > 0, se, np.inf)
    dev = reps - observed
    max_t = np.empty(reps.shape[0])
    step = max(1, 2_000_000 // max(m * m, 1))
    for start in range(0, reps.shape[0], step):
        d = dev[start : start + step]
        max_t[start : start + step] = (np.abs(d[:, :, None] - d[:, None, :]) / safe).max(axis=(1, 2)) if m > 1 else 0.0
    crit = float(np.quantile(max_t, 1 - alpha, method="higher"))
    diff = np.abs(observed[:, None] - observed[None, :])
    differs = np.where(se > 0, diff > crit * se, diff > 0)
    np.fill_diagonal(differs, False)
    return differs, crit


def tie_groups(observed: np.ndarray, differs: np.ndarray) -> np.ndarray:
    """Group number (1 = best) of each model: in observed order, the groups split between two neighbours only
    where every model above differs from every model below.  So any two models in different groups were
    declared different, and models with equal true scores are split only by a false declaration."""
    order = np.argsort(-observed, kind="stable")
    d = differs[np.ix_(order, order)]
    group = np.zeros(observed.size, dtype=np.int64)
    g = 1
    for k, i in enumerate(order):
        if k > 0 and d[:k, k:].all():
            g += 1
        group[i] = g
    return group


def _check(tasks: Sequence[TaskValues], n_models: int, n_resamples: int, alpha: float, aggregation: str) -> None:
    if not tasks:
        raise InputError("rank intervals need at least one task.")
    if n_models < 1:
        raise InputError("rank intervals need at least one model.")
    if n_resamples < 100:
        raise InputError(f"--resamples must be at least 100; got {n_resamples}.")
    if not 0 < alpha < 0.5:
        raise InputError(f"--alpha must be between 0 and 0.5; got {alpha}.")
    if aggregation not in AGGREGATIONS:
        raise InputError(f"unknown aggregation {aggregation!r}; choose one of {', '.join(AGGREGATIONS)}.")
    for t in tasks:
        if np.shape(t.scores) != (n_models,) or not np.isfinite(t.scores).all():
            raise InputError(f"{t.name}: needs one finite score per model ({n_models}).")
        if t.values is not None:
            v = np.asarray(t.values)
            if v.ndim != 2 or v.shape[1] != n_models or v.shape[0] == 0 or not np.isfinite(v).all():
                raise InputError(f"{t.name}: per-item values must be finite, items × {n_models} models; got {v.shape}.")


def rank_intervals(
    models: Sequence[str],
    tasks: Sequence[TaskValues],
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = 0,
    alpha: float = 0.05,
    aggregation: str = "mean",
    resample_tasks: bool = False,
) -> RankIntervals:
    """Ranks, ``1 − alpha`` rank intervals and tie groups (simultaneous error rate ``alpha``) of ``models``
    over ``tasks`` (module docstring)."""
    models = list(models)
    _check(tasks, len(models), n_resamples, alpha, aggregation)
    rng = np.random.default_rng(seed)
    reps = np.stack([task_replicates(t, n_resamples, rng) for t in tasks], axis=1)  # (B, T, M)
    if resample_tasks and len(tasks) > 1:
        pick = rng.integers(0, len(tasks), size=(n_resamples, len(tasks)))
        reps = np.take_along_axis(reps, pick[:, :, None], axis=1)
    task_scores = np.stack([np.asarray(t.scores, dtype=np.float64) for t in tasks])  # (T, M)
    observed = aggregate(task_scores, aggregation)
    agg = aggregate(reps, aggregation)
    ranks = min_rank(agg)
    differs, crit = simultaneous_differences(agg, observed, alpha)
    return RankIntervals(
        models=models,
        score=observed,
        rank=min_rank(observed),
        rank_low=np.quantile(ranks, alpha / 2, axis=0, method="lower").astype(np.int64),
        rank_high=np.quantile(ranks, 1 - alpha / 2, axis=0, method="higher").astype(np.int64),
        group=tie_groups(observed, differs),
        task_names=[t.name for t in tasks],
        task_scores=task_scores,
        by_items=[t.by_items for t in tasks],
        aggregation=aggregation,
        alpha=alpha,
        n_resamples=n_resamples,
        critical_value=crit,
        differs=differs,
        resampled_tasks=resample_tasks and len(tasks) > 1,
    )


__all__ = [
    "AGGREGATIONS",
    "N_RESAMPLES",
    "RankIntervals",
    "TaskValues",
    "aggregate",
    "average_rank",
    "cluster_weights",
    "min_rank",
    "rank_intervals",
    "simultaneous_differences",
    "task_replicates",
    "tie_groups",
]
