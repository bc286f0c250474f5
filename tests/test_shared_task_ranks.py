"""The leaderboards' rank statistic (mteb_evalrank.metrics.shared_task_ranks): a pure function over arrays."""

from __future__ import annotations

import numpy as np


def test_nan_array_and_none_rows_give_the_same_ranks():
    from mteb_evalrank.metrics.shared_task_ranks import rank_on_shared_tasks

    rows = [[0.6, 0.55, None], [0.8, None, 0.7], [None, 0.5, 0.2], [None, None, None]]
    array = np.array([[np.nan if v is None else v for v in row] for row in rows])
    assert rank_on_shared_tasks(array) == rank_on_shared_tasks(rows) == [2, 1, 3, None]
    assert rank_on_shared_tasks(np.empty((0, 3))) == []


def test_with_every_task_present_the_rank_is_the_order_of_the_mean():
    from mteb_evalrank.metrics.shared_task_ranks import rank_on_shared_tasks

    scores = np.random.default_rng(0).random((7, 4))
    means = scores.mean(axis=1)
    expected = [1 + int(np.sum(means > m)) for m in means]
    assert rank_on_shared_tasks(scores) == expected


def test_the_leaderboard_ranks_through_the_metric():
    from mteb_evalrank.metrics import shared_task_ranks
    from mteb_evalrank.reports import leaderboard

    assert leaderboard.rank_on_shared_tasks is shared_task_ranks.rank_on_shared_tasks
