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


def standard_error(scores: dict[str, Any], key: str) -> float | None:
    """The standard error the result stores for ``key`` (``<key>_se``; for ``main_score``, that of the metric
    it equals), or ``None``."""
    se = scores.get(f"{key}_se")
    if se is None and key == "main_score":
        main = scores.get("main_score")
        se = next((scores[f"{k}_se"] for k, v in scores.items() if f"{k}_se" in scores and v == main and k != key), None)
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
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))) for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def run_and_print(
    model_spec: str,
    task_names: list[str],
    output_folder: str,
    *,
    model_revision: str | None = None,
    device: str | None = None,
    batch_size: int | None = None,
    stop_words: str | None = None,
    strip_punctuation: bool = False,
    center: bool = True,
    ties: str = "pessimistic",
    overwrite_strategy: str = "only-missing",
    progress: bool = True,
) -> int:
    """``mteb-evalrank run``: evaluate one model with :func:`mteb.evaluate`, print the score table and
    where the results are; return the exit code (1 when a task failed).

    The results folder is checked before the model loads (a bad or read-only folder fails at once);
    when a save fails later, the table is printed first and
    :class:`~mteb_evalrank.errors.ResultsNotSavedError` (holding the scores) is raised.  ``center`` and
    ``ties`` are set on every task that has them (EvalRank, word similarity).
    """
    import sys

    import mteb

    from mteb_evalrank.errors import InputError, ResultsNotSavedError
    from mteb_evalrank.integration.model_specs import load_any_model
    from mteb_evalrank.integration.result_cache import check_model_meta, open_result_cache
    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    tasks = get_tasks_or_explain(task_names)
    cache = open_result_cache(output_folder, keep_unsaved=True)
    if not center or ties != "pessimistic":
        for task in tasks:
            if hasattr(task, "center"):
                task.center, task.ties = center, ties
    model = load_any_model(
        model_spec, device=device, revision=model_revision, stop_words=stop_words, strip_punctuation=strip_punctuation
    )
    # another model already filed under this name and revision: refused before anything is computed
    meta = getattr(model, "mteb_model_meta", None)
    if meta is not None:
        check_model_meta(cache.get_task_result_path(tasks[0].metadata.name, meta).parent, meta)
    if overwrite_strategy == "only-cache" and meta is not None:  # MTEB raises a bare ValueError later
        missing = [t.metadata.name for t in tasks if not cache.get_task_result_path(t.metadata.name, meta).is_file()]
        if missing:
            raise InputError(
                f"--overwrite-strategy only-cache: no cached result of {', '.join(missing)} for {meta.name} "
                f"revision {meta.revision} in {output_folder}; run without only-cache to compute it."
            )
    encode_kwargs: dict[str, Any] = {"show_progress_bar": progress}
    if batch_size:
        encode_kwargs["batch_size"] = batch_size
    result = mteb.evaluate(
        model, tasks, cache=cache, encode_kwargs=encode_kwargs, overwrite_strategy=overwrite_strategy,
        show_progress_bar=True,
    )  # fmt: skip
    meta = model.mteb_model_meta
    print(f"\nmodel: {meta.name}  revision: {meta.revision}")
    print(format_scores_table(task_scores_rows(result.task_results)))
    for err in result.exceptions or []:
        print(f"error in {err.task_name}: {err.exception}", file=sys.stderr)
    if cache.unsaved:
        raise ResultsNotSavedError(cache.unsaved_message(), unsaved=cache.unsaved, result=result)
    print(f"\nresults: {cache.get_task_result_path(tasks[0].metadata.name, meta).parent}")
    return 1 if result.exceptions else 0


def print_import_report(report) -> None:
    """What ``import-senteval`` / ``senteval`` filed: one line per imported task, warnings on stderr."""
    import sys

    for item in report.imported:
        print(f"{item.senteval_name} -> {item.task_name}: main_score {item.main_score:.4f}  {item.path}")
    for name, reason in report.skipped.items():
        print(f"warning: {name}: {reason}", file=sys.stderr)
    for message in report.warnings:
        print(f"warning: {message}", file=sys.stderr)
