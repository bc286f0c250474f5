"""Rank intervals and tie groups (metrics/rank_intervals.py): calibration on simulated models with known true
scores, pairing, strata and clusters, and MTEB's Borda rank."""

from __future__ import annotations

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics import rank_intervals as ri
from mteb_evalrank.metrics.rank_intervals import TaskValues, average_rank, cluster_weights, min_rank, rank_intervals


def simulate(true: np.ndarray, n_items: int, rng: np.random.Generator, *, item_sd=0.3, noise_sd=0.3) -> TaskValues:
    """Per-item values = item effect (shared by all models) + the model's true score + noise."""
    item = rng.normal(0.0, item_sd, (n_items, 1))
    values = item + true + rng.normal(0.0, noise_sd, (n_items, true.size))
    return TaskValues("sim", values.mean(axis=0), values)


def test_intervals_cover_the_true_rank_at_their_level():
    true = np.array([0.00, 0.02, 0.04, 0.06, 0.10])
    true_rank = min_rank(true)
    rng = np.random.default_rng(1)
    runs = 150
    covered = np.zeros(true.size)
    widths = []
    for r in range(runs):
        res = rank_intervals(list("abcde"), [simulate(true, 800, rng)], n_resamples=300, seed=r)
        covered += (res.rank_low <= true_rank) & (true_rank <= res.rank_high)
        widths.append(res.rank_high - res.rank_low)
    coverage = covered / runs
    width = np.mean(widths, axis=0)
    print("coverage per model (95% intervals):", [round(float(c), 3) for c in coverage])
    print("mean interval width per model:", [round(float(w), 2) for w in width])
    assert coverage.min() >= 0.90
    assert (
        width[-1] < 1.0
    )  # not covering by being uninformative: the clearly best model is told apart  # 0.95 less three Monte Carlo standard errors (0.018) of 150 runs


def _split_rate(true: np.ndarray, equal: list[int], alpha: float, runs: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    split = 0
    for r in range(runs):
        res = rank_intervals(
            [str(i) for i in range(true.size)], [simulate(true, 600, rng)], n_resamples=400, seed=r, alpha=alpha
        )
        split += len(set(res.group[equal].tolist())) > 1
    return split / runs


def test_equal_true_scores_are_split_no_more_often_than_alpha():
    alpha = 0.1
    rate = _split_rate(np.array([0.5, 0.5, 0.5, 0.5]), [0, 1, 2, 3], alpha, runs=200, seed=2)
    rate_pair = _split_rate(np.array([0.5, 0.5, 0.0, 0.0]), [0, 1], alpha, runs=200, seed=3)
    # an equal pair just below a better model that leads their group
    rate_below = _split_rate(np.array([0.56, 0.5, 0.5]), [1, 2], alpha, runs=200, seed=4)
    print(
        f"split rate, alpha={alpha}: 4 equal models {rate}; equal pair beside another pair {rate_pair}; "
        f"equal pair below a better model {rate_below}"
    )
    assert rate <= alpha + 0.064  # alpha + three Monte Carlo standard errors of 200 runs
    assert rate_pair <= alpha + 0.064
    assert rate_below <= alpha + 0.064


def test_clearly_different_models_are_separated():
    rng = np.random.default_rng(4)
    res = rank_intervals(list("abc"), [simulate(np.array([0.0, 0.3, 0.6]), 1000, rng)], n_resamples=500)
    assert res.group.tolist() == [3, 2, 1]
    assert res.rank.tolist() == res.rank_low.tolist() == res.rank_high.tolist() == [3, 2, 1]


def _paired_check(function) -> None:
    """Two models scored on the same hard and easy items, B a little better on every item: only a paired
    bootstrap sees that B is always first."""
    rng = np.random.default_rng(5)
    item = rng.normal(0.5, 0.3, 2000)
    a = item + rng.normal(0, 0.01, item.size)
    b = item + 0.01 + rng.normal(0, 0.01, item.size)
    values = np.stack([a, b], axis=1)
    res = function(["A", "B"], [TaskValues("t", values.mean(axis=0), values)], n_resamples=500)
    assert res.rank_low.tolist() == res.rank_high.tolist() == [2, 1]
    assert res.group.tolist() == [2, 1]


def test_resampling_is_paired():
    _paired_check(rank_intervals)


def test_the_pairing_test_fails_on_unpaired_resampling(monkeypatch):
    paired = ri.task_replicates

    def unpaired(task, n_resamples, rng):  # an independent resample of the items for every model
        one = [
            paired(TaskValues(task.name, task.scores[[m]], task.values[:, [m]]), n_resamples, rng)
            for m in range(task.scores.size)
        ]
        return np.concatenate(one, axis=1)

    monkeypatch.setattr(ri, "task_replicates", unpaired)
    with pytest.raises(AssertionError):
        _paired_check(ri.rank_intervals)


def test_strata_keep_their_sizes_and_clusters_move_whole():
    rng = np.random.default_rng(6)
    strata = np.repeat([0, 1, 2], [5, 7, 9])
    counts, cl = cluster_weights(21, 50, rng, strata=strata)
    per_stratum = np.stack([counts[:, strata == s].sum(axis=1) for s in range(3)], axis=1)
    assert (per_stratum == [5, 7, 9]).all()
    clusters = np.arange(20) // 2  # pairs of items
    counts, cl = cluster_weights(20, 50, rng, clusters=clusters)
    assert counts.shape == (50, 10) and (counts.sum(axis=1) == 10).all()
    assert cl.tolist() == clusters.tolist()
    with pytest.raises(InputError, match="spans several strata"):
        cluster_weights(4, 10, rng, strata=[0, 0, 1, 1], clusters=[0, 1, 1, 2])


def test_clustered_replicates_are_ratio_means_and_match_the_observed_score():
    rng = np.random.default_rng(7)
    values = rng.normal(size=(30, 3))
    clusters = np.arange(30) // 3
    task = TaskValues("t", values.mean(axis=0), values, clusters=clusters)
    reps = ri.task_replicates(task, 2000, np.random.default_rng(0))
    assert reps.shape == (2000, 3)
    assert np.allclose(reps.mean(axis=0), values.mean(axis=0), atol=0.05)
    by_cluster = np.add.reduceat(values, np.arange(0, 30, 3), axis=0) / 3  # the se of a mean of 10 clusters
    assert np.allclose(reps.std(axis=0), by_cluster.std(axis=0) / np.sqrt(10), rtol=0.15)


def test_task_without_item_values_keeps_its_scores():
    task = TaskValues("mteb", np.array([0.3, 0.5]))
    reps = ri.task_replicates(task, 100, np.random.default_rng(0))
    assert (reps == [0.3, 0.5]).all()
    res = rank_intervals(["a", "b"], [task], n_resamples=100)
    assert res.by_items == [False]
    assert res.rank_low.tolist() == res.rank_high.tolist() == [2, 1]


def test_benchmark_resamples_tasks_too():
    tasks = [TaskValues(f"t{i}", np.array(s)) for i, s in enumerate([[0.1, 0.9], [0.9, 0.1], [0.6, 0.5]])]
    fixed = rank_intervals(["a", "b"], tasks, n_resamples=400)
    resampled = rank_intervals(["a", "b"], tasks, n_resamples=400, resample_tasks=True)
    assert fixed.rank_low.tolist() == fixed.rank_high.tolist() == [1, 2]
    assert resampled.rank_low.tolist() == [1, 1] and resampled.rank_high.tolist() == [2, 2]


def test_ranks_with_ties():
    x = np.array([[0.5, 0.7, 0.5, 0.1], [1.0, 1.0, 1.0, 1.0]])
    assert min_rank(x).tolist() == [[2, 1, 2, 4], [1, 1, 1, 1]]
    assert average_rank(x).tolist() == [[2.5, 1.0, 2.5, 4.0], [2.5, 2.5, 2.5, 2.5]]


def test_borda_matches_mtebs_own_borda_rank():
    pl = pytest.importorskip("polars")
    from mteb.benchmarks._create_table import _get_borda_rank

    rng = np.random.default_rng(8)
    scores = np.round(rng.uniform(size=(6, 7)), 1)  # 6 tasks, 7 models, ties on purpose
    frame = pl.DataFrame({f"t{i}": scores[i] for i in range(6)})
    mteb_rank = frame.select(_get_borda_rank(frame.columns)).to_series().to_list()
    assert min_rank(ri.aggregate(scores, "borda")).tolist() == mteb_rank
    res = rank_intervals(
        list("abcdefg"), [TaskValues(f"t{i}", scores[i]) for i in range(6)], aggregation="borda", n_resamples=100
    )
    assert res.rank.tolist() == mteb_rank


def test_bad_arguments_are_refused():
    task = TaskValues("t", np.array([0.1, 0.2]))
    with pytest.raises(InputError, match="aggregation"):
        rank_intervals(["a", "b"], [task], aggregation="median")
    with pytest.raises(InputError, match="resamples"):
        rank_intervals(["a", "b"], [task], n_resamples=10)
    with pytest.raises(InputError, match="alpha"):
        rank_intervals(["a", "b"], [task], alpha=0.7)
    with pytest.raises(InputError, match="one finite score per model"):
        rank_intervals(["a", "b", "c"], [task])
