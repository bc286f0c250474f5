"""The correlation study's figures (matplotlib): the ρ heatmap and EvalRank Figure 4's rank plot.

Plain arguments in (a correlation table, a models × scores matrix), a PNG out through
:func:`mteb_evalrank.reports.figures.save_figure`; the Markdown is :mod:`mteb_evalrank.reports.correlation_rendering`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.correlation_rendering import format_number
from mteb_evalrank.reports.figures import save_figure

__all__ = ["plot_heatmap", "plot_ranks"]


def plot_heatmap(table: pd.DataFrame, path: str | Path, *, title: str | None = None) -> Path:
    """ρ × 100 as a diverging heatmap (rows intrinsic, columns downstream), values printed in cells."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = table.pivot(index="intrinsic", columns="downstream", values="rho")
    grid = grid.loc[list(dict.fromkeys(table["intrinsic"])), list(dict.fromkeys(table["downstream"]))]
    rows, cols = grid.shape
    fig, ax = plt.subplots(figsize=(min(max(6, 1.0 * cols + 3), 40), min(max(3, 0.45 * rows + 2), 40)))
    im = ax.imshow(grid.to_numpy(dtype=float), cmap="RdBu", vmin=-100, vmax=100, aspect="auto")
    ax.set_xticks(range(cols), grid.columns, rotation=40, ha="right", fontsize=8 if cols > 20 else 10)
    ax.set_yticks(range(rows), grid.index, fontsize=8 if rows > 20 else 10)
    if rows * cols <= 400:
        for (r, c), v in np.ndenumerate(grid.to_numpy(dtype=float)):
            ax.text(
                c,
                r,
                "–" if np.isnan(v) else format_number(v, 0),
                ha="center",
                va="center",
                fontsize=8,
                color="white" if not np.isnan(v) and abs(v) > 60 else "black",
            )
    n = int(table["n_models"].max()) if len(table) else 0
    ax.set_title(
        title or f"Spearman ρ×100 across {n} models\n(rows: intrinsic scores; columns: downstream; – undefined)",
        fontsize=10,
    )
    fig.colorbar(im, ax=ax, label="ρ × 100")
    return save_figure(fig, path)


def plot_ranks(scores: pd.DataFrame, downstream: str, intrinsic: Sequence[str], path: str | Path) -> Path:
    """EvalRank Figure 4: models ordered by ``downstream`` (x), each intrinsic score's rank of them (y).

    A perfect predictor puts its dots on the diagonal.  At most about 40 model names label the x axis
    (every k-th model beyond 40) and the figure widens up to a cap, so it stays readable for hundreds
    of models.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [c for c in intrinsic if c in scores.columns]
    part = scores[[downstream, *cols]].dropna(subset=[downstream])
    part = part.sort_values(downstream, ascending=False)
    n = len(part)
    if n == 0:
        raise InputError(f"no model has the downstream score {downstream!r}.")
    import textwrap

    x = np.arange(1, n + 1)
    width = min(max(7, 0.25 * n + 3), 30)
    fig, ax = plt.subplots(figsize=(width, 6))
    ax.plot(x, x, color="black", lw=1, label=f"{downstream} (reference)")
    markers = "osD^v<>ph*"
    # two scores that rank a model alike would hide each other's markers: each score's dots sit at its own
    # fixed horizontal offset from the model's position (within ±0.3 of a model), so every series shows
    step = min(0.25, 0.6 / max(len(cols) - 1, 1))
    for k, c in enumerate(cols):
        valid = part[c].notna().to_numpy()
        ranks = part[c].rank(ascending=False, method="average").to_numpy()
        dodge = (k - (len(cols) - 1) / 2) * step
        ax.scatter(
            x[valid] + dodge, ranks[valid], s=max(8, 40 - n // 5), marker=markers[k % len(markers)], alpha=0.75, label=c
        )
    ax.set_xlabel(f"models ranked by {downstream} (1 = best)")
    ax.set_ylabel("rank of the model under the intrinsic score")
    ax.invert_yaxis()
    step = max(1, math.ceil(n / 40))  # at most ~40 model names on the axis, whatever the number of models
    shown = x[::step]
    from mteb_evalrank.zoo.adapter import short_name

    ax.set_xticks(shown, [short_name(m) for m in part.index[::step]], rotation=70, ha="right", fontsize=7)
    if step > 1:
        ax.set_xlabel(f"models ranked by {downstream} (1 = best; every {step}th model named)")
    question, hint = f"Do intrinsic scores rank {n} models as {downstream} does?", "(dots on the line = yes)"
    # wrapped to the axes' width (the legend takes the right of the figure): a one-line title of a narrow
    # figure ran past its left edge and was clipped
    chars = max(28, int((width - 2.5) * 12))
    title = f"{question} {hint}"
    ax.set_title(title if len(title) <= chars else "\n".join([*textwrap.wrap(question, chars), hint]), fontsize=11)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save_figure(fig, path)
