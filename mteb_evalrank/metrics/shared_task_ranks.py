"""Ranks of models whose scores cover different tasks: pairwise comparison on the tasks both have.

The leaderboards (:mod:`mteb_evalrank.reports.leaderboard`) rank models of a results folder where some
models lack some tasks.  Ranking only the models that have every task would put a model with one good
task first and leave a better model, missing one task, without a rank; ranking by the mean over each
model's own tasks would compare means over different tasks.  :func:`rank_on_shared_tasks` compares
every pair of models on the tasks both have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["rank_on_shared_tasks"]

#: two means closer than this are equal (half a win each), and so are two shares of wins
_EQUAL = 1e-12


def rank_on_shared_tasks(scores: Sequence[Sequence[float | None]] | Any) -> list[int | None]:
    """Rank of each model (row; columns = tasks; ``None`` or NaN = missing), comparing every pair of
    models on the tasks both have.

    Rule: with ``S(a, b)`` the tasks both ``a`` and ``b`` have and ``d(a, b)`` the mean of ``a``'s scores
    over ``S(a, b)`` minus that of ``b``'s, ``a`` wins against ``b`` when ``d(a, b) > 1e-12``, and equal
    means (``|d| <= 1e-12``) are half a win each; pairs with ``S(a, b)`` empty are not compared.

        share(a) = wins(a) / #{b != a : S(a, b) non-empty}
        rank(a)  = 1 + #{b : share(b) > share(a) + 1e-12}          (equal shares share a rank)

    With every task present this is the order of the mean over all tasks.  A model that shares no task
    with any other has no rank (``None``), unless it is the only model with scores (rank 1).

    Returns one rank (or ``None``) per row, in row order.
    """
    values = np.array([[np.nan if v is None else float(v) for v in row] for row in scores], dtype=float)
    if values.size == 0:
        return [None] * len(values)
    present = ~np.isnan(values)
    filled = np.where(present, values, 0.0)
    mask = present.astype(float)
    shared = mask @ mask.T  # [i, j]: tasks both have
    sums = filled @ mask.T  # [i, j]: i's scores summed over the tasks both have
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (sums - sums.T) / shared  # [i, j]: i's mean minus j's mean, over the shared tasks
    compared = shared > 0
    np.fill_diagonal(compared, False)
    wins = np.where(compared, (diff > _EQUAL) + 0.5 * (np.abs(diff) <= _EQUAL), 0.0).sum(axis=1)
    n_compared = compared.sum(axis=1)
    share = np.where(n_compared > 0, wins / np.maximum(n_compared, 1), np.nan)
    alone = present.any(axis=1) & (present.any(axis=1).sum() == 1)
    share = np.where(alone, 1.0, share)
    ranks: list[int | None] = []
    for i in range(len(share)):
        ranks.append(None if np.isnan(share[i]) else int(1 + np.sum(share > share[i] + _EQUAL)))
    return ranks
