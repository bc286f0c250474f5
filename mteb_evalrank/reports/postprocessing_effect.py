"""EvalRank Table 10 for any set of (post-processed, unprocessed) model pairs.

EvalRank (§6.2, Table 10) compares each post-processed model (BERT-whitening, BERT-flow, ABTT) with
the same model without post-processing: post-processing raises similarity scores (STS) but not
downstream accuracy.  :func:`postprocessing_effects` reads that off a score matrix: for every pair,
``Δ = score(processed) − score(unprocessed)`` (points × 100) per score, and per *group* of scores
(similarity, EvalRank, downstream) the mean Δ and whether it is positive.  :func:`format_effects`
prints the per-pair table and the counts ("post-processing helped similarity in 7 of 9 pairs, …").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd


def postprocessing_effects(
    scores: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    groups: Mapping[str, Sequence[str]],
) -> pd.DataFrame:
    """One row per (processed, unprocessed) pair present in ``scores``; columns = mean Δ per group.

    ``scores``: models × score names (fractions, as MTEB stores them); ``groups``: group name → score
    names (missing ones ignored).  A group's Δ is the mean over its scores that both models have, ×100.
    """
    rows = []
    for processed, plain in pairs:
        if processed not in scores.index or plain not in scores.index:
            continue
        row: dict[str, object] = {"processed": processed, "unprocessed": plain}
        for group, cols in groups.items():
            cols = [c for c in cols if c in scores.columns]
            delta = (scores.loc[processed, cols] - scores.loc[plain, cols]).dropna()
            row[group] = float(delta.mean() * 100) if len(delta) else float("nan")
            row[f"{group}_n"] = int(len(delta))
        rows.append(row)
    return pd.DataFrame(rows)


def format_effects(effects: pd.DataFrame, groups: Sequence[str]) -> str:
    """Markdown: per-pair mean Δ (points) per group, then how often each group improved."""
    if effects.empty:
        return "No (post-processed, unprocessed) pair has results in this folder."
    header = "| post-processed | unprocessed | " + " | ".join(f"Δ {g}" for g in groups) + " |"
    lines = [header, "|" + "---|" * (2 + len(groups))]
    for _, r in effects.iterrows():
        cells = [f"{r[g]:+.2f}" if r[g] == r[g] else "n/a" for g in groups]
        lines.append(f"| {r['processed']} | {r['unprocessed']} | " + " | ".join(cells) + " |")
    lines.append("")
    for g in groups:
        valid = effects[g].dropna()
        lines.append(
            f"- post-processing raised the mean {g} score in {int((valid > 0).sum())} of {len(valid)} pairs "
            f"(mean Δ {valid.mean():+.2f} points)"
        )
    return "\n".join(lines)
