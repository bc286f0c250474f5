"""The correlation study's text: the Markdown of a correlation table (EvalRank Tables 3/6 layout), of the
exploratory paired comparisons and of the noise table.

Plain arguments in (the tables of :mod:`mteb_evalrank.reports.correlation_study`), text out; the figures are
:mod:`mteb_evalrank.reports.correlation_figures`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from mteb_evalrank.metrics.sampling_error import NOISE_RATIO_MIN
from mteb_evalrank.reports.results_reader import is_primary

__all__ = ["NOISE_RATIO_MIN", "format_comparisons", "format_markdown", "format_noise", "format_number"]


def format_number(value: float, digits: int) -> str:
    """``value`` rounded for display, without a negative zero (−0.4 → ``0``, not ``-0``)."""
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def _uses_cluster_interval(table: pd.DataFrame) -> bool:
    """The family interval is shown when some family has more than one model."""
    if not len(table) or "n_families" not in table:
        return False
    return bool(((table["n_families"] < table["n_models"]) & (table["n_families"] >= 2)).any())


def _cell_text(r: Any, cluster: bool) -> str:
    low, high = (r.cluster_ci_low, r.cluster_ci_high) if cluster else (r.ci_low, r.ci_high)
    interval = f"[{format_number(low, 0)}, {format_number(high, 0)}]" if np.isfinite(low) else "[–]"
    n_fam = getattr(r, "n_families", r.n_models)
    partial = getattr(r, "rho_partial_family", float("nan"))
    if np.isfinite(partial):
        extra = f"; partial {format_number(partial, 1)}"
    else:
        extra = "; partial undefined" if cluster else ""
    return f"{interval} (n={r.n_models}, f={n_fam}{extra})"


def _block(
    table: pd.DataFrame,
    intrinsic: list[str],
    downstream: list[str],
    *,
    mark: bool,
    cluster: bool,
    noise: Mapping[str, float] | None,
) -> list[str]:
    cell = {(r.intrinsic, r.downstream): r for r in table.itertuples()}
    rank: dict[tuple[str, str], int] = {}
    if mark:
        for d in downstream:
            vals = sorted({round(cell[(i, d)].rho, 6) for i in intrinsic if cell[(i, d)].note == ""}, reverse=True)
            for i in intrinsic:
                r = cell[(i, d)]
                if r.note == "" and vals:
                    pos = vals.index(round(r.rho, 6))
                    if pos < 2:
                        rank[(i, d)] = pos
    heads = [f"{d} ⚠" if noise and noise.get(d, float("inf")) < NOISE_RATIO_MIN else d for d in downstream]
    lines = ["| intrinsic \\ downstream | " + " | ".join(heads) + " |", "|---|" + "---|" * len(downstream)]
    for i in intrinsic:
        cells = []
        for d in downstream:
            r = cell[(i, d)]
            if r.note:
                cells.append(f"{r.note} (n={r.n_models})")
                continue
            value = format_number(r.rho, 1)
            value = {0: f"**{value}**", 1: f"<u>{value}</u>"}.get(rank.get((i, d), -1), value)
            cells.append(f"{value} {_cell_text(r, cluster)}")
        lines.append(f"| {i} | " + " | ".join(cells) + " |")
    return lines


def format_markdown(table: pd.DataFrame, *, noise: Mapping[str, float] | None = None) -> str:
    """EvalRank Tables 3/6 layout: rows intrinsic, columns downstream, ρ × 100 [95% interval] (n models,
    f families; partial ρ for family).  Primary rows (each task's main score) come first and per column
    the best primary ρ is **bold** and the second <u>underlined</u> (ties share the mark).  Exploratory rows
    (``Task:metric``, ``Task/subset``) follow in a separate block and are never marked.  The interval is
    the family bootstrap when some family has more than one model, else the model bootstrap.  ``noise``:
    downstream column → spread / median standard error; columns below 2 are marked ⚠."""
    intrinsic = list(dict.fromkeys(table["intrinsic"]))
    downstream = list(dict.fromkeys(table["downstream"]))
    primary_of = {r.intrinsic: bool(getattr(r, "primary", is_primary(r.intrinsic))) for r in table.itertuples()}
    primary = [i for i in intrinsic if primary_of[i]]
    exploratory = [i for i in intrinsic if not primary_of[i]]
    cluster = _uses_cluster_interval(table)
    lines: list[str] = []
    if primary:
        lines += _block(table, primary, downstream, mark=True, cluster=cluster, noise=noise)
    if exploratory:
        if lines:
            lines += [
                "",
                "**Exploratory scores** (other metrics and subsets of the same tasks; not fixed in advance, "
                "so never marked best and never used by the comparisons):",
                "",
            ]
        lines += _block(table, exploratory, downstream, mark=False, cluster=cluster, noise=noise)
    n = int(table["n_resamples"].iloc[0]) if "n_resamples" in table and len(table) else 0
    kind = "family bootstrap: whole families resampled" if cluster else "bootstrap over models"
    legend = (
        f"Spearman's ρ × 100 across models; [95% percentile interval, {kind}, {n} resamples]; n = models with "
        "both scores, f = families; partial = Spearman partial correlation controlling for family (ranks "
        "minus the family's mean rank), shown when ≥ 2 families have ≥ 2 models. Best primary ρ per column "
        "**bold**, second <u>underlined</u>."
    )
    if noise and any(v < NOISE_RATIO_MIN for v in noise.values()):
        legend += (
            f" ⚠ = mostly noise: the column's spread across models is below {NOISE_RATIO_MIN:g} median "
            "standard errors of a model's score."
        )
    lines += ["", legend]
    return "\n".join(lines)


def format_comparisons(comp: pd.DataFrame) -> str:
    """Markdown table of exploratory paired comparisons: ρ(A) − ρ(B) × 100 [95% interval], unadjusted p,
    Benjamini-Hochberg q, n models and clusters.  No row is a verdict."""
    lines = [
        "| A | B | downstream | ρ(A) − ρ(B) | 95% interval | p | q (BH) | n, clusters |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in comp.itertuples():
        if r.note:
            lines.append(f"| {r.a} | {r.b} | {r.downstream} | – | – | – | – | {r.n_models} ({r.note}) |")
            continue
        lines.append(
            f"| {r.a} | {r.b} | {r.downstream} | {r.difference:+.1f} | [{r.ci_low:+.1f}, {r.ci_high:+.1f}] "
            f"| {_p(r.p_value)} | {_p(r.q_bh)} | {r.n_models}, {r.n_families} |"
        )
    n = comp.attrs.get("n_comparisons", len(comp))
    lines += [
        "",
        f"Exploratory. p: two-sided, normal approximation with the bootstrap standard error of the difference; "
        f"q: Benjamini-Hochberg over the {n} comparisons of this table. These rows never decide a claim: the "
        "confirmatory tests are in the Findings (`--claim`).",
    ]
    return "\n".join(lines)


def _p(p: float) -> str:
    if not np.isfinite(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def format_noise(noise: pd.DataFrame) -> str:
    """Markdown of :func:`noise_table`."""
    lines = [
        "| score | models | spread across models (std, points) | median standard error (points) | ratio | |",
        "|---|---|---|---|---|---|",
    ]
    for r in noise.itertuples():
        flag = "⚠ mostly noise" if r.mostly_noise else ("no standard error stored" if not np.isfinite(r.ratio) else "")
        lines.append(
            f"| {r.score} | {r.n_models} | {r.spread:.2f} | {r.median_se:.2f} | "
            f"{'–' if not np.isfinite(r.ratio) else f'{r.ratio:.1f}'} | {flag} |"
        )
    lines += [
        "",
        "Standard errors: accuracy binomial over the test items; STS Spearman by Fieller's approximation "
        "(1 − ρ²)·√(1.06 / (n − 3)); EvalRank MRR bounded by √(m(1 − m) / (pairs / 2)); a mean of sub-scores "
        "√(Σ se²) / k. A column whose spread is below "
        f"{NOISE_RATIO_MIN:g} median standard errors cannot rank models and is marked ⚠.",
    ]
    return "\n".join(lines)
