"""RankEncoder's gain against the neighbours two sentences share (RankEncoder §5.3, Figure 6).

The paper groups STS-B pairs by the base encoder's cosine, and shows per group the STS gain of
RankEncoder over its base next to the mean number of shared top-100 corpus neighbours of the two
sentences: the gain should grow with the overlap (similar pairs share neighbours, and only shared
neighbours' ranks separate them).

:func:`overlap_gain_table` computes that table for any base model from arrays (gold scores, the two
systems' pair similarities, the per-pair overlap from
:func:`mteb_evalrank.metrics.similarity_levels.topk_overlap`); :func:`plot_overlap_gain` draws it;
:func:`format_overlap_gain` prints it as Markdown.  Groups are quantiles of the base cosine, so each
holds about the same number of pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.figures import save_figure


def overlap_gain_table(
    gold: Sequence[float],
    base_sim: Sequence[float],
    new_sim: Sequence[float],
    overlap: Sequence[float],
    *,
    n_groups: int = 5,
) -> list[dict[str, float]]:
    """Per base-cosine quantile group: n, cosine range, mean top-k overlap, ρ(base), ρ(new), gain (ρ fractions)."""
    from scipy.stats import spearmanr

    gold_a, base_a, new_a, overlap_a = (np.asarray(v, dtype=np.float64) for v in (gold, base_sim, new_sim, overlap))
    if not (gold_a.shape == base_a.shape == new_a.shape == overlap_a.shape) or gold_a.ndim != 1:
        raise InputError("gold, base and new similarities and overlaps must be aligned 1-D arrays.")
    if n_groups < 1 or len(gold_a) < 3 * n_groups:
        raise InputError(f"{len(gold_a)} pairs are too few for {n_groups} groups of at least 3 pairs.")
    order = np.argsort(base_a, kind="stable")
    rows = []
    for idx in np.array_split(order, n_groups):
        g, b, n = gold_a[idx], base_a[idx], new_a[idx]
        constant = np.ptp(g) == 0 or np.ptp(b) == 0 or np.ptp(n) == 0
        rho_b = float("nan") if constant else float(spearmanr(b, g).statistic)
        rho_n = float("nan") if constant else float(spearmanr(n, g).statistic)
        rows.append(
            {
                "cos_low": float(b.min()),
                "cos_high": float(b.max()),
                "n_pairs": int(len(idx)),
                "mean_overlap": float(overlap_a[idx].mean()),
                "base": rho_b,
                "new": rho_n,
                "gain": rho_n - rho_b,
            }
        )
    return rows


def format_overlap_gain(rows: list[dict[str, float]], *, k: int, base: str, new: str) -> str:
    """Markdown table of :func:`overlap_gain_table` (ρ × 100)."""
    lines = [
        f"| base cosine ({base}) | pairs | shared top-{k} neighbours | ρ {base} | ρ {new} | gain |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['cos_low']:.2f} to {r['cos_high']:.2f} | {r['n_pairs']} | {r['mean_overlap'] * k:.1f} | "
            f"{r['base'] * 100:.1f} | {r['new'] * 100:.1f} | {r['gain'] * 100:+.1f} |"
        )
    return "\n".join(lines)


def plot_overlap_gain(
    rows: list[dict[str, float]], path: str | Path, *, k: int, base: str, new: str, task: str = "STS"
) -> Path:
    """Bars: mean shared top-k neighbours per base-cosine group; line: Spearman gain of ``new`` over ``base``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax.bar(x, [r["mean_overlap"] * k for r in rows], color="#f2c14e", label=f"shared top-{k} corpus neighbours (mean)")
    ax.set_ylabel(f"shared top-{k} corpus neighbours of the two sentences")
    ax.set_xticks(x, [f"{r['cos_low']:.2f}–{r['cos_high']:.2f}\n({r['n_pairs']} pairs)" for r in rows])
    ax.set_xlabel(f"pairs grouped by {base}'s cosine (low → high)")
    ax2 = ax.twinx()
    ax2.plot(x, [r["gain"] * 100 for r in rows], "o-", color="#1f5fa8", label=f"Spearman gain: {new} − {base}")
    ax2.axhline(0, color="#1f5fa8", lw=0.6, ls=":")
    ax2.set_ylabel("Spearman ρ × 100 gain within the group", color="#1f5fa8")
    handles = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    ax.legend(handles, [str(h.get_label()) for h in handles], loc="upper left", fontsize=8)

    ax.set_title(f"{task}: does {new} help most where the two sentences share neighbours?", fontsize=10)
    return save_figure(fig, path)
