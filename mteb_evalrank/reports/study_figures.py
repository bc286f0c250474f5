"""The correlation study's figures (matplotlib), one level at a time.

:func:`write_study_figures` draws, from the numbers of :mod:`mteb_evalrank.reports.study_analysis`: the
primary correlation table as a heatmap (``correlation.png``), EvalRank Figure 4 with SentEvalMR as the pivot
(``ranks.png``, :mod:`mteb_evalrank.reports.rank_panels`) and one rank plot per pivot — MR, SST2, the
downstream mean — with model names (``ranks_mr.png``, ``ranks_sst2.png``, ``ranks_mean.png``); each file name
carries the level's prefix.  The plots themselves are :mod:`mteb_evalrank.reports.correlation_figures` and
:mod:`mteb_evalrank.reports.rank_panels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from mteb_evalrank.integration.task_lookup import task_selection
from mteb_evalrank.reports.correlation_figures import plot_heatmap, plot_ranks
from mteb_evalrank.reports.rank_panels import plot_rank_panels
from mteb_evalrank.reports.study_analysis import DOWNSTREAM_MEAN


def write_study_figures(
    out: Path,
    prefix: str,
    scores: pd.DataFrame,
    table: pd.DataFrame,
    families: dict[str, str],
    rank_cols: Sequence[str],
) -> list[str]:
    """Write one level's figures into ``out`` (names starting with ``prefix``) and return their file names, in
    the order the page lists them.  ``table``: the level's correlation table (its primary rows are drawn);
    ``rank_cols``: the intrinsic scores whose ranks are plotted (none: no rank plot)."""
    rank_cols = list(rank_cols)
    n_fam = len(set(families.values()))
    primary = table[table["primary"].astype(bool)]
    plots = []
    if len(primary):  # no cell (no intrinsic or no downstream score): no heatmap; the page says what is missing
        plot_heatmap(
            primary,
            out / f"{prefix}correlation.png",
            title=f"Spearman ρ×100 across {len(scores)} models in {n_fam} families (primary scores)",
        )
        plots.append(f"{prefix}correlation.png")
    pivot, *others = task_selection("figure4_pivots")
    if pivot in scores.columns and rank_cols:  # EvalRank Figure 4: MR as the pivot, SST2 and the intrinsic scores
        plot_rank_panels(scores, pivot, [*others, *rank_cols], families, out / f"{prefix}ranks.png")
        plots.append(f"{prefix}ranks.png")
    for d in (pivot, *others, DOWNSTREAM_MEAN):  # the same, one axes per pivot, with model names
        if d in scores.columns and rank_cols:
            name = f"{prefix}ranks_{'mean' if d == DOWNSTREAM_MEAN else d.removeprefix('SentEval').lower()}.png"
            plot_ranks(scores, d, rank_cols, out / name)
            plots.append(name)
    return plots
