"""Score tables for the terminal: one row per (task, subset), the headline metrics as columns."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Columns shown when present, in this order (others are in the JSON result files).
#: EvalRank first, then HEROS, then N2O (whose main score is the needle MRR).
HEADLINE = (
    "main_score",
    "mrr",
    "hits_at_1",
    "hits_at_3",
    "hits_at_10",
    "mean_rank",
    "l2_mrr",
    "l2_hits_at_1",
    "l2_hits_at_10",
    "num_pairs",
    # HEROS
    "cosine",
    "normalized_cosine",
    "baseline",
    "negation_minus_synonym",
    # N2O
    "needle_top1",
    "needle_top5",
    "needle_count",
    # similarity baselines (SentEvalSTS12-16: main_score of "all" is the weighted mean)
    "cosine_pearson",
    "cosine_spearman_mean",
    # word similarity (WS-353-All ... VERB-143): the l2 reading and the pairs with an out-of-vocabulary word
    "l2_spearman",
    "num_oov_pairs",
    # SentEval downstream (main_score = test accuracy)
    "devacc",
    "f1",
    "ntest",
)


def task_scores_rows(task_results: Iterable[Any]) -> list[dict[str, Any]]:
    """Flatten MTEB ``TaskResult`` objects into rows: task, split, subset, scores."""
    rows = []
    for tr in task_results:
        for split, subsets in tr.scores.items():
            for scores in subsets:
                rows.append({"task": tr.task_name, "split": split, "subset": scores["hf_subset"], **scores})
    return rows


def format_scores_table(rows: list[dict[str, Any]], columns: Iterable[str] = HEADLINE) -> str:
    """Fixed-width text table; fractions with 4 decimals, mean ranks with 1."""
    if not rows:
        return "(no scores)"
    cols = [c for c in columns if any(c in r for r in rows)]
    header = ["task", "subset", *cols]

    def fmt(col: str, value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, float):
            return f"{value:.1f}" if "rank" in col else f"{value:.4f}"
        return str(value)

    table = [header] + [[str(r["task"]), str(r["subset"])] + [fmt(c, r.get(c)) for c in cols] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))) for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
