"""EvalRank Figure 4 as small multiples: readable for any number of models.

The paper's Figure 4 (§6.2, "Correlation Visualization") orders 67 models by their MR rank (the pivot) and
plots each model's rank on SST2, EvalRank, STS-B and STR in one panel.  With five series of 60+ dots in one
axes the series hide each other, so this figure gives each series its own panel, all sharing the pivot's
order on x:

* x: the model's rank on the pivot (1 = best), y: its rank under the panel's score (1 = best);
* the diagonal is perfect agreement; a dot's colour (and marker) is its family, so a reader sees whether
  agreement comes from within families or only from the gap between them;
* each panel's title gives Spearman ρ × 100 over the models it shows and the family-partial ρ
  (:func:`mteb_evalrank.metrics.family_statistics.partial_spearman_family`), the two figures of the
  study's table.

Ranks use the models that have both the pivot and the panel's score; ties take the average rank.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.figures import save_figure

MARKERS = "osD^v<>phP*X"


def plot_rank_panels(
    scores: pd.DataFrame,
    pivot: str,
    series: Sequence[str],
    families: Mapping[str, str],
    path: str | Path,
    *,
    columns: int = 3,
) -> Path:
    """One panel per score of ``series`` (missing columns are left out): every model's rank under it against
    its rank on ``pivot``, coloured by ``families[model]``.  Raises :class:`InputError` when no model has the
    pivot score or no series column exists."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    from scipy.stats import spearmanr

    from mteb_evalrank.metrics.family_statistics import partial_spearman_family

    if pivot not in scores.columns or scores[pivot].notna().sum() == 0:
        raise InputError(f"no model has the pivot score {pivot!r}.")
    shown = [s for s in series if s in scores.columns and s != pivot]
    if not shown:
        raise InputError(f"none of the scores {list(series)} is in the table.")
    names = sorted({families.get(m, m) for m in scores.index[scores[pivot].notna()]})
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    style = {
        f: (
            cmap(i % cmap.N),
            MARKERS[(i // cmap.N) % len(MARKERS)] if len(names) > cmap.N else MARKERS[i % len(MARKERS)],
        )
        for i, f in enumerate(names)
    }
    rows = math.ceil(len(shown) / columns)
    cols = min(columns, len(shown))
    fig, axes = plt.subplots(
        rows, cols, figsize=(4.6 * cols + (0 if rows * cols > len(shown) else 2.6), 4.6 * rows), squeeze=False
    )
    for ax, score in zip(axes.flat, shown):
        part = scores[[pivot, score]].dropna()
        n = len(part)
        if n < 2:
            ax.set_title(f"{score}: {n} model(s) with both scores", fontsize=9)
            ax.axis("off")
            continue
        x = part[pivot].rank(ascending=False, method="average").to_numpy()
        y = part[score].rank(ascending=False, method="average").to_numpy()
        fam = [families.get(m, m) for m in part.index]
        ax.plot([1, n], [1, n], color="black", lw=0.8, zorder=1)
        for f in dict.fromkeys(fam):
            mask = np.array([g == f for g in fam])
            colour, marker = style[f]
            ax.scatter(
                x[mask],
                y[mask],
                s=max(10, 46 - n // 4),
                color=colour,
                marker=marker,
                alpha=0.85,
                edgecolors="none",
                zorder=2,
            )
        rho = 100 * spearmanr(part[pivot], part[score]).statistic
        partial = partial_spearman_family(part[pivot].to_numpy(), part[score].to_numpy(), fam)
        partial_text = f"{partial.value:.0f}" if np.isfinite(partial.value) else "undefined"
        ax.set_title(
            f"{score}\nρ = {rho:.0f}, family-partial ρ = {partial_text} (n = {n}, {len(set(fam))} families)", fontsize=9
        )
        ax.set_xlim(0, n + 1)
        ax.set_ylim(n + 1, 0)  # rank 1 at the top left: the diagonal runs from the best model to the worst
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(f"rank on {pivot} (1 = best)", fontsize=8)
        ax.set_ylabel(f"rank under {score}", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_aspect("equal", adjustable="box")
    spare = list(axes.flat)[len(shown) :]
    for ax in spare:
        ax.axis("off")
    handles = [plt.Line2D([], [], color=style[f][0], marker=style[f][1], linestyle="", markersize=6) for f in names]
    legend_kw = {
        "title": "family",
        "fontsize": 7,
        "title_fontsize": 8,
        "frameon": False,
        "ncol": 1 if len(names) <= 16 else 2,
    }
    if spare:  # the legend takes an empty panel
        spare[0].legend(handles, names, loc="center", **legend_kw)
        rect = None
    else:
        fig.legend(handles, names, loc="center right", **legend_kw)
        rect = (0, 0, 1 - 2.4 / (4.6 * cols + 2.6), 0.97)
    n_models = int(scores[pivot].notna().sum())
    fig.suptitle(
        f"Ranks of {n_models} models on {pivot} (x) against each score (y); dots on the diagonal = the "
        "same order (EvalRank Figure 4)",
        fontsize=10,
    )
    return save_figure(fig, path, rect=rect or (0, 0, 1, 0.97))
