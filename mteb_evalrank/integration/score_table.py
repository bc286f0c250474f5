"""Score tables for the terminal: one row per (task, subset), the headline metrics as columns, a main score
with a stored standard error as ``0.8295 ± 0.0041``.  Printed by :func:`mteb_evalrank.integration.run.run`
(``mteb_evalrank.run``, ``mteb.run`` and ``mteb-evalrank run``, one path)."""

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
    "synonym_minus_negation",
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
    """Flatten MTEB ``TaskResult`` objects into rows: task, split, subset, scores; after a subset's row, one row
    per part of its breakdown (``scores_per_source``, ``scores_per_edit``: EvalRank's source datasets, STS12-16's
    sub-datasets, HEROS's edit types), its subset shown as ``  <part>`` (not a subset MTEB averages)."""
    from mteb_evalrank.data.result_layout import entry_parts

    rows = []
    for tr in task_results:
        for split, subsets in tr.scores.items():
            for scores in subsets:
                rows.append({"task": tr.task_name, "split": split, "subset": scores["hf_subset"], **scores})
                for _, part, values in entry_parts(scores):
                    rows.append({"task": "", "split": split, "subset": f"  {part}", **values})
    return rows


def standard_error(scores: dict[str, Any], key: str) -> float | None:
    """The standard error the result stores for ``key`` (``<key>_se``; for ``main_score``, that of the metric
    it equals), or ``None``."""
    se = scores.get(f"{key}_se")
    if se is None and key == "main_score":
        main = scores.get("main_score")
        se = next(
            (scores[f"{k}_se"] for k, v in scores.items() if f"{k}_se" in scores and v == main and k != key), None
        )
    return float(se) if isinstance(se, (int, float)) and not isinstance(se, bool) else None


def format_scores_table(
    rows: list[dict[str, Any]], columns: Iterable[str] = HEADLINE, with_se: Iterable[str] = ("main_score",)
) -> str:
    """Fixed-width text table; fractions with 4 decimals, mean ranks with 1; a score with a stored standard
    error as ``0.8295 ± 0.0041`` (:func:`standard_error`) in the columns ``with_se`` (default: the main score)."""
    if not rows:
        return "(no scores)"
    cols = [c for c in columns if any(c in r for r in rows)]
    header = ["task", "subset", *cols]

    def fmt(col: str, value: Any, se: Any = None) -> str:
        if value is None:
            return "-"
        if isinstance(value, float):
            text = f"{value:.1f}" if "rank" in col else f"{value:.4f}"
            return text + (f" ± {se:.4f}" if isinstance(se, float) and se == se else "")
        return str(value)

    table = [header] + [
        [str(r["task"]), str(r["subset"])]
        + [fmt(c, r.get(c), standard_error(r, c) if c in with_se else None) for c in cols]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
        for line in table
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
