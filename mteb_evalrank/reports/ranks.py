"""``mteb-evalrank ranks FOLDER (-t TASK... | -b BENCHMARK)``: which of a set of models can be told apart?

Each model's rank with a ``1 − α`` interval and groups of models that cannot be told apart at a simultaneous
error rate ``α`` (:mod:`mteb_evalrank.metrics.rank_intervals`):

- within a task, a paired bootstrap over the items of ``<Task>.items.npz`` (the same resample for every model;
  SentEval's outer folds and STS12-16's sub-datasets as strata, EvalRank's pairs as clusters);
- over several tasks, MTEB's aggregation (``mean``, or its ``borda`` rank); for a benchmark (``-b``) the
  tasks are resampled too;
- a task without per-item values for every model (MTEB's own tasks, files from ``mteb run`` or older
  versions) keeps its observed scores in every replicate: it is resampled *by task only*, and one line says so.

Only models with a result for every task are ranked (one line names the others); a model with several
revisions is ranked on its newest results (one line).  Outputs: lines on stdout, ``--csv`` (``model, rank,
rank_low, rank_high, group`` and one column per score: the aggregate and each task), ``--out`` (a figure).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.item_values import SubsetItems, items_path, read_items
from mteb_evalrank.metrics.rank_intervals import N_RESAMPLES, RankIntervals, TaskValues, rank_intervals
from mteb_evalrank.results.record import ResultRecord, RunSettings, Uncertainty

#: per-item value arrays whose mean is a task's main score: (array name, transform)
MAIN_VALUES = (
    ("cos_rank", "reciprocal"),  # EvalRank: MRR = mean(1 / rank)
    ("needle_rank", "reciprocal"),  # N2O's needle MRR
    ("synonym_minus_negation", "identity"),  # HEROS
    ("cosine_spearman", "identity"),  # STS, word similarity: each pair's share of the Spearman correlation
    ("accuracy", "identity"),  # SentEval: each test item's share of the accuracy
)
#: a stored score and the mean of its per-item values agree to this (MTEB rounds stored floats)
SCORE_TOLERANCE = 1e-4


@dataclass
class RankReport:
    """What :func:`rank_models` found: the intervals and the lines that explain them."""

    result: RankIntervals
    notes: list[str] = field(default_factory=list)


# --- TEMPORARY: until results/record.py's read_records(folder) lands (helper `record`) -------------------
# MERGER: replace this function by `from mteb_evalrank.results.record import read_records` and delete it.
def _read_records(folder: Path, tasks: Sequence[str]) -> list[ResultRecord]:
    """Every result entry under ``folder`` as :class:`ResultRecord` (headline entry of the preferred split),
    built from :func:`~mteb_evalrank.reports.results_reader.read_results_folder` and the items files.

    The main score of each of ``tasks`` is read by the rule of every reader
    (:func:`~mteb_evalrank.reports.results_reader.check_stored_score`, as ``correlate`` and ``report``): a score
    outside its range or not a number is refused in one line; a main score that is null, NaN or Infinity is
    missing, with a warning, and that result is left out (the model then lacks the task)."""
    import os

    from mteb_evalrank.data.result_layout import BREAKDOWN_KEYS, entry_parts
    from mteb_evalrank.reports.results_reader import (
        SPLIT_PREFERENCE,
        ScoreName,
        check_stored_score,
        read_results_folder,
        read_score,
    )

    read = read_results_folder(folder)
    experiments = {r.path: r.experiment for r in read.result_records}
    out = []
    for rec in read.records:
        path = Path(rec["path"])
        scores = rec["scores"]
        split = next((s for s in SPLIT_PREFERENCE if s in scores), next(iter(scores), None))
        if split is None:
            continue
        if rec["task"] in tasks:  # out of range, not a number: refused; null, NaN, Infinity: missing, warned
            check_stored_score(rec, ScoreName(rec["task"]))
            if read_score(scores, ScoreName(rec["task"])) is None:
                continue
        ipath = items_path(path)
        uncertainty = Uncertainty(items_path=ipath if os.path.lexists(ipath) else None)
        experiment = experiments.get(path)
        model = rec["model"].removesuffix(f" [{experiment}]") if experiment else rec["model"]
        for entry in scores[split]:
            subset = str(entry.get("hf_subset", "default"))
            out.append(
                ResultRecord(
                    model=model,
                    revision=rec["revision"],
                    experiment=experiment,
                    task=rec["task"],
                    split=split,
                    subset=subset,
                    scores={k: v for k, v in entry.items() if k not in BREAKDOWN_KEYS},
                    main_metric=None,
                    parts={name: dict(s) for _, name, s in entry_parts(entry)},
                    uncertainty=uncertainty,
                    run_settings=RunSettings(),
                    model_meta=None,
                    path=path,
                    mtime=rec["mtime"],
                )
            )
    return out


# --- per task ----------------------------------------------------------------------------------------------
def _task_score(records: Sequence[ResultRecord]) -> float | None:
    """The task's number as MTEB shows it: the headline subset's ``main_score`` (``default``, ``all``), else the
    mean of the subsets' (MTEB's ``get_score``)."""
    by_subset = {r.subset: r for r in records}
    for name in ("default", "all"):
        if name in by_subset:
            return by_subset[name].main_score
    scores = [r.main_score for r in records]
    return None if any(s is None for s in scores) else float(np.mean(scores))  # type: ignore[arg-type]


def main_values(item: SubsetItems) -> tuple[str, np.ndarray] | None:
    """``(name, per-item values whose mean is the main score)`` of an items entry, or ``None``."""
    for name, transform in MAIN_VALUES:
        if name in item.values:
            v = np.asarray(item.values[name], dtype=np.float64)
            return name, 1.0 / v if transform == "reciprocal" else v
    return None


def _items_of(record: ResultRecord, score: float) -> tuple[SubsetItems, np.ndarray] | str:
    """The headline entry's items and main values, or why there are none."""
    path = record.uncertainty.items_path
    if path is None:
        return "no per-item values"
    try:
        entries = read_items(path)
    except InputError as exc:
        return str(exc).rstrip(".")
    item = entries.get((record.split, record.subset))
    found = main_values(item) if item is not None else None
    if item is None or found is None:
        return f"{path.name} holds no per-item values of the main score"
    if not math.isclose(float(found[1].mean()), score, abs_tol=SCORE_TOLERANCE):
        return f"{path.name} does not match {record.path.name} (rewritten by another run)"
    return item, found[1]


def task_values(
    task: str, records: dict[str, list[ResultRecord]], models: Sequence[str]
) -> tuple[TaskValues, str | None]:
    """One task's :class:`TaskValues` for ``models`` (records of that task per model), and the reason it is
    resampled by task only (``None`` when it has per-item values for every model)."""
    scores = np.array([_task_score(records[m]) for m in models], dtype=np.float64)
    heads = [next((r for r in records[m] if r.subset in ("default", "all")), None) for m in models]
    if any(h is None for h in heads):
        return TaskValues(task, scores), "no headline subset with per-item values (MTEB's mean over subsets)"
    found = [_items_of(h, s) for h, s in zip(heads, scores)]  # type: ignore[arg-type]
    missing = [(m, f) for m, f in zip(models, found) if isinstance(f, str)]
    if missing:
        m, why = missing[0]
        more = f" and {len(missing) - 1} more model(s)" if len(missing) > 1 else ""
        return TaskValues(task, scores), f"{why} for {m}{more}"
    items = [f[0] for f in found if not isinstance(f, str)]
    values = [f[1] for f in found if not isinstance(f, str)]
    if len({it.digest for it in items}) > 1 or len({v.size for v in values}) > 1:
        return TaskValues(task, scores), "the models were scored on different items (another data revision)"
    first = items[0]
    return TaskValues(task, scores, np.stack(values, axis=1), strata=first.strata, clusters=first.groups), None


# --- the report ---------------------------------------------------------------------------------------------
def _benchmark_tasks(benchmark: str) -> list[str]:
    import mteb

    try:
        bench = mteb.get_benchmark(benchmark)
    except (KeyError, ValueError) as exc:
        raise InputError(f"unknown benchmark {benchmark!r} ({str(exc).splitlines()[0][:200]}).") from None
    return [t.metadata.name for t in bench.tasks]


def _choose_models(
    records: list[ResultRecord], tasks: Sequence[str], notes: list[str]
) -> dict[str, dict[str, list[ResultRecord]]]:
    """label -> task -> records of the newest revision; models without every task are left out (one line)."""
    newest: dict[str, tuple[float, str]] = {}
    for r in records:
        if r.task in tasks:
            newest[r.label] = max(newest.get(r.label, (0.0, r.revision)), (r.mtime, r.revision))
    revisions: dict[str, set[str]] = {}
    for r in records:
        revisions.setdefault(r.label, set()).add(r.revision)
    table: dict[str, dict[str, list[ResultRecord]]] = {}
    for r in records:
        if r.task in tasks and r.label in newest and r.revision == newest[r.label][1]:
            table.setdefault(r.label, {}).setdefault(r.task, []).append(r)
    several = sorted(m for m in table if len(revisions[m]) > 1)
    if several:
        notes.append(
            f"{len(several)} model(s) with several revisions ranked on their newest results: {', '.join(several)}"
        )
    incomplete = sorted(m for m, t in table.items() if set(tasks) - set(t))
    if incomplete:
        notes.append(f"left out (not every task run): {', '.join(incomplete)}")
    return {m: t for m, t in table.items() if m not in incomplete}


def rank_models(
    folder: Path | str,
    *,
    tasks: Sequence[str] | None = None,
    benchmark: str | None = None,
    n_resamples: int = N_RESAMPLES,
    seed: int = 0,
    alpha: float = 0.05,
    aggregation: str = "mean",
) -> RankReport:
    """Rank intervals of every model in ``folder`` with results for all ``tasks`` (or the tasks of
    ``benchmark``, then resampled too)."""
    if (tasks is None) == (benchmark is None):
        raise InputError("give the tasks (-t TASK ...) or a benchmark (-b NAME), not both.")
    names = list(dict.fromkeys(tasks)) if tasks is not None else _benchmark_tasks(str(benchmark))
    notes: list[str] = []
    table = _choose_models(_read_records(Path(folder), names), names, notes)
    if not table:
        raise InputError(f"no model in {folder} has results for every task of {', '.join(names)}.")
    models = sorted(table)
    values = []
    for task in names:
        tv, why = task_values(task, {m: table[m][task] for m in models}, models)
        if not np.isfinite(tv.scores).all():
            raise InputError(f"{task}: a result without a numeric main_score; re-run it.")
        if why is not None:
            notes.append(f"{task}: resampled by task only ({why}).")
        values.append(tv)
    result = rank_intervals(
        models,
        values,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        aggregation=aggregation,
        resample_tasks=benchmark is not None,
    )
    return RankReport(result, notes)


def _order(result: RankIntervals) -> list[int]:
    return sorted(range(len(result.models)), key=lambda i: (result.rank[i], -result.score[i], result.models[i]))


def format_lines(report: RankReport) -> list[str]:
    """The lines ``ranks`` prints: what was resampled, the notes, one row per model."""
    r = report.result
    level = round(100 * (1 - r.alpha))
    what = "items and tasks" if r.resampled_tasks else "items"
    lines = [
        f"{len(r.models)} models, {len(r.task_names)} task(s), {r.aggregation} aggregation; paired bootstrap over "
        f"{what} ({r.n_resamples} resamples); {level}% rank intervals; groups: models that cannot be told apart "
        f"(all pairs at once, simultaneous error rate {r.alpha:g})",
        *report.notes,
        f"{int(np.triu(r.differs, 1).sum())} of {len(r.models) * (len(r.models) - 1) // 2} pairs of models differ; "
        f"{int(r.group.max())} group(s): the ranking splits only where every model above differs from every model below",
    ]
    width = max(len(m) for m in r.models)
    for i in _order(r):
        lines.append(
            f"{r.rank[i]:>3}  [{r.rank_low[i]}, {r.rank_high[i]}]  group {r.group[i]:<3} {r.models[i]:<{width}}  "
            f"{r.aggregation} {r.score[i]:.4f}"
        )
    return lines


def write_csv(report: RankReport, path: Path) -> Path:
    """``model, rank, rank_low, rank_high, group``, the aggregate score and one column per task."""
    from mteb_evalrank.data.files import atomic_target

    r = report.result
    with atomic_target(Path(path)) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["model", "rank", "rank_low", "rank_high", "group", r.aggregation, *r.task_names])
        for i in _order(r):
            writer.writerow(
                [r.models[i], int(r.rank[i]), int(r.rank_low[i]), int(r.rank_high[i]), int(r.group[i])]
                + [f"{r.score[i]:.6g}"]
                + [f"{v:.6g}" for v in r.task_scores[:, i]]
            )
    return Path(path)


def plot_rank_intervals(report: RankReport, path: Path | str) -> Path:
    """A figure of the rank intervals (one row per model, best on top; colour = tie group)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mteb_evalrank.reports.figures import save_figure

    r = report.result
    order = _order(r)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.28 * len(order)))
    colours = plt.get_cmap("tab10")
    for y, i in enumerate(order):
        c = colours((int(r.group[i]) - 1) % 10)
        ax.plot([r.rank_low[i], r.rank_high[i]], [y, y], color=c, lw=3, solid_capstyle="round")
        ax.plot([r.rank[i]], [y], "o", color="black", ms=4)
    ax.set_yticks(range(len(order)), [r.models[i] for i in order], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"rank ({round(100 * (1 - r.alpha))}% interval; colour: group, simultaneous error rate {r.alpha:g})")
    ax.set_xlim(0.5, len(order) + 0.5)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"{len(r.task_names)} task(s), {r.aggregation}, {r.n_resamples} resamples", fontsize=9)
    return save_figure(fig, path)


def run_ranks(
    folder: Path | str,
    *,
    tasks: Sequence[str] | None = None,
    benchmark: str | None = None,
    csv_path: Path | None = None,
    figure: Path | None = None,
    **options: Any,
) -> list[str]:
    """The ``ranks`` command: check the outputs, rank, write CSV and figure; the lines to print."""
    from mteb_evalrank.data.files import figure_file, output_file

    if csv_path is not None:
        csv_path = output_file(Path(csv_path), what="CSV file", suffixes=["csv"])
    if figure is not None:
        figure = figure_file(Path(figure))
        if csv_path is not None and figure.absolute() == Path(csv_path).absolute():
            raise InputError(f"--csv and --out name the same file {figure}; give each its own file.")
    report = rank_models(folder, tasks=tasks, benchmark=benchmark, **options)
    lines = format_lines(report)
    if csv_path is not None:
        lines.append(f"wrote {write_csv(report, csv_path)}")
    if figure is not None:
        lines.append(f"wrote {plot_rank_intervals(report, figure)}")
    return lines


def benchmark_ranks_path(folder: Path | str, benchmark: str) -> Path:
    """``FOLDER/leaderboard/ranks_<benchmark>.csv`` (characters other than letters, digits, ``-`` and ``.`` as
    ``_``: ``EvalRank(study)`` → ``ranks_EvalRank_study_.csv``)."""
    import re

    return Path(folder) / "leaderboard" / f"ranks_{re.sub(r'[^A-Za-z0-9.-]', '_', benchmark)}.csv"


def write_benchmark_ranks(folder: Path | str, benchmark: str, **options: Any) -> str:
    """Rank intervals of ``benchmark`` (its tasks resampled too) written beside MTEB's leaderboard app; the one
    line to show (what was written, or why there are none: the app runs either way)."""
    try:
        report = rank_models(folder, benchmark=benchmark, **options)
    except InputError as exc:
        return f"note: no rank intervals for {benchmark}: {exc}"
    path = write_csv(report, benchmark_ranks_path(folder, benchmark))
    by_task = sum(1 for note in report.notes if "resampled by task only" in note)
    extra = f"; {by_task} task(s) resampled by task only" if by_task else ""
    return f"rank intervals of {benchmark} ({len(report.result.models)} models{extra}): {path}"


__all__ = [
    "RankReport",
    "benchmark_ranks_path",
    "format_lines",
    "main_values",
    "plot_rank_intervals",
    "rank_models",
    "run_ranks",
    "task_values",
    "write_benchmark_ranks",
    "write_csv",
]
