"""Does an intrinsic score predict downstream quality?  Any MTEB results folder → EvalRank Tables 3/6.

:func:`correlate` reads a results folder (any tasks: this plugin's, MTEB's own such as ``STSBenchmark``,
SentEval results imported with ``mteb-evalrank import-senteval``), builds the models × scores matrix
and, for every (intrinsic, downstream) pair, computes Spearman's ρ × 100 across the models that have
both scores, a seeded bootstrap 95% interval over models and Kendall's τ
(:mod:`mteb_evalrank.metrics.rank_correlation`).  Models missing a score are dropped from that cell and
counted (``n_dropped``), never imputed.

**Score names.** ``Task`` is the task's main score: the ``all`` subset when the task has one (this
plugin's EvalRank and STS12-16 tasks store their overall figure there), else MTEB's
``TaskResult.get_score()`` (the mean of the subsets' main scores).  ``Task:metric`` reads another
metric the same way; ``Task/subset`` and ``Task/subset:metric`` read one subset.  The split is the
first of ``test``, ``validation``, ``dev``, ``train`` present.

**One model, several revisions.** ``revision_policy``: ``newest`` (default: the revision whose result
file is newest, with a warning listing the others), ``oldest``, ``error``, or ``separate`` (each
revision is its own model, named ``name@revision``).

**Outputs** (plain arguments, no MTEB): :func:`format_markdown` (rows intrinsic, columns downstream,
best of each column **bold**, second <u>underlined</u>, n per cell), :func:`write_csv`,
:func:`plot_heatmap` and :func:`plot_ranks` (the paper's Figure 4).
"""

from __future__ import annotations

import difflib
import json
import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.figures import save_figure
from mteb_evalrank.metrics.rank_correlation import compare_predictors, spearman_with_ci

SPLIT_PREFERENCE = ("test", "validation", "dev", "train")
REVISION_POLICIES = ("newest", "oldest", "error", "separate")
CSV_COLUMNS = ["intrinsic", "downstream", "rho", "ci_low", "ci_high", "kendall_tau", "n_models"]


# --- score names --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreName:
    """``Task[/subset][:metric]``."""

    task: str
    subset: str | None = None
    metric: str | None = None

    @classmethod
    def parse(cls, text: str) -> ScoreName:
        text = str(text).strip()
        head, _, metric = text.partition(":")
        task, _, subset = head.partition("/")
        if not task:
            raise InputError(f"empty task in score name {text!r} (expected Task, Task:metric or Task/subset:metric).")
        return cls(task, subset or None, metric or None)

    def __str__(self) -> str:
        return self.task + (f"/{self.subset}" if self.subset else "") + (f":{self.metric}" if self.metric else "")


def _split_entries(scores: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    for split in SPLIT_PREFERENCE:
        if split in scores:
            return scores[split]
    return next(iter(scores.values()), [])


def read_score(scores: dict[str, list[dict[str, Any]]], name: ScoreName) -> float | None:
    """One score from a TaskResult's ``scores`` dict (``None`` when absent)."""
    entries = _split_entries(scores)
    if not entries:
        return None
    by_subset = {e.get("hf_subset", "default"): e for e in entries}
    key = name.metric or "main_score"

    def value(entry: dict[str, Any]) -> float | None:
        v = entry.get(key)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None

    if name.subset is not None:
        entry = by_subset.get(name.subset)
        return None if entry is None else value(entry)
    if "all" in by_subset:
        return value(by_subset["all"])
    values = [value(e) for e in entries]
    if any(v is None for v in values):
        return None
    return float(np.mean(values))


def available_names(scores: dict[str, list[dict[str, Any]]], task: str) -> set[str]:
    names = {task}
    for e in _split_entries(scores):
        subset = e.get("hf_subset", "default")
        names.add(f"{task}/{subset}")
        for k, v in e.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                names.add(f"{task}:{k}")
                names.add(f"{task}/{subset}:{k}")
    return names


# --- reading a results folder ---------------------------------------------------------------------------
@dataclass
class ResultsFolder:
    """What was read: ``records`` (model, revision, task, scores, mtime, path), and what was skipped."""

    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    warnings: list[str] = field(default_factory=list)


def read_results_folder(folder: str | Path, *, progress: bool = False) -> ResultsFolder:
    """Every task result under ``folder`` through MTEB's ``ResultCache`` path discovery and ``TaskResult``.

    ``folder`` is a ResultCache folder (holding ``results/``) or the ``results/`` folder itself.  A file
    that is not a valid TaskResult is skipped, named in ``skipped`` and warned about.
    """
    from mteb.cache import ResultCache
    from mteb.results import TaskResult

    folder = Path(folder)
    if not folder.exists():
        raise InputError(f"results folder {folder} does not exist.")
    root = folder.parent if folder.name == "results" and not (folder / "results").is_dir() else folder
    cache = ResultCache(root)
    paths = cache.get_cache_paths(require_model_meta=False, include_remote=False)
    out = ResultsFolder()
    from tqdm.auto import tqdm

    for path in tqdm(sorted(paths), desc="reading results", unit="file", disable=not progress, leave=False):
        path = Path(path)
        if path.name == "model_meta.json":
            continue
        try:
            result = TaskResult.from_disk(path)
        except Exception as exc:  # noqa: BLE001 - any unreadable file is named and skipped
            reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}" if str(exc) else type(exc).__name__
            out.skipped.append((str(path), reason))
            warnings.warn(f"skipped {path}: not a readable MTEB result ({reason})", stacklevel=2)
            continue
        model, revision = _identity(path)
        out.records.append({"model": model, "revision": revision, "task": result.task_name,
                            "scores": result.scores, "mtime": path.stat().st_mtime, "path": str(path)})  # fmt: skip
    if not out.records:
        raise InputError(
            f"no MTEB results found in {folder}"
            + (f" ({len(out.skipped)} unreadable file(s) skipped)" if out.skipped else "")
            + "; expected results/<org>__<model>/<revision>/<Task>.json (mteb run --output-folder)."
        )
    return out


def _identity(path: Path) -> tuple[str, str]:
    meta = path.parent / "model_meta.json"
    if meta.exists():
        try:
            data = json.loads(meta.read_text(encoding="utf-8"))
            if data.get("name"):
                return str(data["name"]), str(data.get("revision") or path.parent.name)
        except (OSError, ValueError):
            pass
    return path.parent.parent.name.replace("__", "/", 1), path.parent.name


def score_matrix(
    results: str | Path | ResultsFolder,
    names: Sequence[str],
    *,
    revision_policy: str = "newest",
) -> tuple[pd.DataFrame, ResultsFolder]:
    """Models × ``names`` (NaN where a model has no such score); unknown names raise with close matches."""
    if revision_policy not in REVISION_POLICIES:
        raise InputError(f"unknown revision policy {revision_policy!r}; choose from {', '.join(REVISION_POLICIES)}.")
    folder = results if isinstance(results, ResultsFolder) else read_results_folder(results)
    parsed = [ScoreName.parse(n) for n in names]
    # which revision of each model counts
    revisions: dict[str, dict[str, float]] = {}
    for r in folder.records:
        revs = revisions.setdefault(r["model"], {})
        revs[r["revision"]] = max(revs.get(r["revision"], 0.0), r["mtime"])
    chosen: dict[str, list[str]] = {}
    for model, revs in revisions.items():
        if len(revs) == 1 or revision_policy == "separate":
            chosen[model] = list(revs)
            continue
        order = sorted(revs, key=revs.get, reverse=revision_policy != "oldest")
        if revision_policy == "error":
            raise InputError(f"model {model} has results for {len(revs)} revisions: {', '.join(order)} "
                             "(choose --revision-policy newest, oldest or separate).")  # fmt: skip
        chosen[model] = [order[0]]
        msg = (f"model {model} has {len(revs)} revisions ({', '.join(order)}); using {order[0]} "
               f"({revision_policy} results file)")  # fmt: skip
        folder.warnings.append(msg)
        warnings.warn(msg, stacklevel=2)
    rows: dict[str, dict[str, float]] = {}
    seen: set[str] = set()
    for r in folder.records:
        if r["revision"] not in chosen[r["model"]]:
            continue
        label = f"{r['model']}@{r['revision']}" if revision_policy == "separate" and len(chosen[r["model"]]) > 1 else r["model"]
        row = rows.setdefault(label, {})
        seen |= available_names(r["scores"], r["task"])
        for name in parsed:
            if name.task == r["task"]:
                value = read_score(r["scores"], name)
                if value is not None:
                    row[str(name)] = value
    for name in parsed:
        if not any(str(name) in row for row in rows.values()):
            close = difflib.get_close_matches(str(name), sorted(seen), n=4, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(f"no model in {len(rows)} has the score {str(name)!r}{hint}")
    frame = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[str(n) for n in parsed]).sort_index()
    return frame, folder


# --- the correlation table ------------------------------------------------------------------------------
def correlation_table(scores: pd.DataFrame, intrinsic: Sequence[str], downstream: Sequence[str], *,
                      n_resamples: int = 1000, seed: int = 0) -> pd.DataFrame:  # fmt: skip
    """One row per (intrinsic, downstream) cell from a models × scores matrix."""
    rows = []
    for i in intrinsic:
        for d in downstream:
            pair = scores[[i, d]].dropna()
            c = spearman_with_ci(pair[i].to_numpy(), pair[d].to_numpy(), n_resamples=n_resamples, seed=seed)
            rows.append({"intrinsic": i, "downstream": d, "rho": c.rho, "ci_low": c.ci_low, "ci_high": c.ci_high,
                         "kendall_tau": c.tau, "n_models": c.n_models, "n_dropped": int(len(scores) - len(pair)),
                         "n_resamples": c.n_resamples, "note": _name_constant(c.reason, pair, d, i)})  # fmt: skip
    return pd.DataFrame(rows)


def _name_constant(reason: str | None, pair: pd.DataFrame, downstream: str, intrinsic: str) -> str:
    """Say which score is constant (a constant downstream score makes its whole column undefined)."""
    if not reason or "constant" not in reason:
        return reason or ""
    for name in (downstream, intrinsic):
        if pair[name].nunique() == 1:
            return f"undefined: {name} is constant ({pair[name].iloc[0]:.4g}) across the {len(pair)} models"
    return reason


def correlate(
    results: str | Path | ResultsFolder,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    revision_policy: str = "newest",
) -> pd.DataFrame:
    """The study's table for a results folder: columns ``intrinsic, downstream, rho, ci_low, ci_high,
    kendall_tau, n_models, n_dropped, n_resamples, note`` (ρ and interval × 100; ``note`` says why a
    cell is undefined).  ``table.attrs["scores"]`` holds the models × scores matrix it was computed from."""
    if not intrinsic or not downstream:
        raise InputError("give at least one intrinsic and one downstream score.")
    scores, folder = score_matrix(results, list(dict.fromkeys([*intrinsic, *downstream])), revision_policy=revision_policy)
    table = correlation_table(scores, list(intrinsic), list(downstream), n_resamples=n_resamples, seed=seed)
    table.attrs["scores"] = scores
    table.attrs["skipped"] = folder.skipped
    table.attrs["warnings"] = folder.warnings
    return table


def comparisons(scores: pd.DataFrame, pairs: Iterable[tuple[str, str]], downstream: Sequence[str], *,
                n_resamples: int = 1000, seed: int = 0) -> pd.DataFrame:  # fmt: skip
    """Paired bootstrap of ρ(a, d) − ρ(b, d) for each (a, b) and downstream d, on the models having all three."""
    rows = []
    for a, b in pairs:
        for d in downstream:
            part = scores[[a, b, d]].dropna()
            c = compare_predictors(part[a].to_numpy(), part[b].to_numpy(), part[d].to_numpy(),
                                   n_resamples=n_resamples, seed=seed)  # fmt: skip
            rows.append({"a": a, "b": b, "downstream": d, "difference": c.difference, "ci_low": c.ci_low,
                         "ci_high": c.ci_high, "n_models": c.n_models, "note": c.reason or ""})  # fmt: skip
    return pd.DataFrame(rows)


# --- outputs --------------------------------------------------------------------------------------------
def _fmt(value: float, digits: int) -> str:
    """``value`` rounded for display, without a negative zero (−0.4 → ``0``, not ``-0``)."""
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def format_markdown(table: pd.DataFrame) -> str:
    """EvalRank Tables 3/6 layout: rows intrinsic, columns downstream, ρ × 100 [CI] (n); per column the best
    ρ is **bold** and the second <u>underlined</u> (ties share the mark: the best distinct value is bold,
    the next distinct value underlined); undefined cells say why."""
    intrinsic = list(dict.fromkeys(table["intrinsic"]))
    downstream = list(dict.fromkeys(table["downstream"]))
    cell = {(r.intrinsic, r.downstream): r for r in table.itertuples()}
    rank: dict[tuple[str, str], int] = {}
    for d in downstream:
        vals = sorted({round(cell[(i, d)].rho, 6) for i in intrinsic if cell[(i, d)].note == ""}, reverse=True)
        for i in intrinsic:
            r = cell[(i, d)]
            if r.note == "" and vals:
                pos = vals.index(round(r.rho, 6))
                if pos < 2:
                    rank[(i, d)] = pos
    lines = ["| intrinsic \\ downstream | " + " | ".join(downstream) + " |", "|---|" + "---|" * len(downstream)]
    for i in intrinsic:
        cells = []
        for d in downstream:
            r = cell[(i, d)]
            if r.note:
                cells.append(f"{r.note} (n={r.n_models})")
                continue
            value = _fmt(r.rho, 1)
            value = {0: f"**{value}**", 1: f"<u>{value}</u>"}.get(rank.get((i, d), -1), value)
            cells.append(f"{value} [{_fmt(r.ci_low, 0)}, {_fmt(r.ci_high, 0)}] (n={r.n_models})")
        lines.append(f"| {i} | " + " | ".join(cells) + " |")
    n = int(table["n_resamples"].iloc[0]) if "n_resamples" in table and len(table) else 0
    lines.append("")
    lines.append(f"Spearman's ρ × 100 across models; [95% percentile bootstrap interval over models, {n} resamples]; "
                 "n = models with both scores. Best per column **bold**, second <u>underlined</u>.")  # fmt: skip
    return "\n".join(lines)


def write_csv(table: pd.DataFrame, path: str | Path) -> Path:
    """One row per cell: ``intrinsic, downstream, rho, ci_low, ci_high, kendall_tau, n_models``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table[CSV_COLUMNS].to_csv(path, index=False, float_format="%.4f")
    return path


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
            ax.text(c, r, "–" if np.isnan(v) else _fmt(v, 0), ha="center", va="center", fontsize=8,
                    color="white" if not np.isnan(v) and abs(v) > 60 else "black")  # fmt: skip
    n = int(table["n_models"].max()) if len(table) else 0
    ax.set_title(title or f"Spearman ρ×100 across {n} models\n(rows: intrinsic scores; columns: downstream; – undefined)",
                 fontsize=10)  # fmt: skip
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
    x = np.arange(1, n + 1)
    fig, ax = plt.subplots(figsize=(min(max(7, 0.25 * n + 3), 30), 6))
    ax.plot(x, x, color="black", lw=1, label=f"{downstream} (reference)")
    markers = "osD^v<>ph*"
    for k, c in enumerate(cols):
        valid = part[c].notna().to_numpy()
        ranks = part[c].rank(ascending=False, method="average").to_numpy()
        ax.scatter(x[valid], ranks[valid], s=max(8, 40 - n // 5), marker=markers[k % len(markers)], alpha=0.75,
                   label=c)  # fmt: skip
    ax.set_xlabel(f"models ranked by {downstream} (1 = best)")
    ax.set_ylabel("rank of the model under the intrinsic score")
    ax.invert_yaxis()
    step = max(1, math.ceil(n / 40))  # at most ~40 model names on the axis, whatever the number of models
    shown = x[::step]
    ax.set_xticks(shown, [str(m).removeprefix("zoo/") for m in part.index[::step]], rotation=70, ha="right",
                  fontsize=7)  # fmt: skip
    if step > 1:
        ax.set_xlabel(f"models ranked by {downstream} (1 = best; every {step}th model named)")
    ax.set_title(f"Do intrinsic scores rank {n} models as {downstream} does? (dots on the line = yes)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save_figure(fig, path)


def format_comparisons(comp: pd.DataFrame) -> str:
    """Markdown table of paired comparisons: ρ(a) − ρ(b) × 100 [95% CI] (n) per downstream score, with the
    verdict the interval supports."""
    lines = ["| A | B | downstream | ρ(A) − ρ(B) | 95% CI | n | reading |", "|---|---|---|---|---|---|---|"]
    for r in comp.itertuples():
        if r.note:
            lines.append(f"| {r.a} | {r.b} | {r.downstream} | – | – | {r.n_models} | {r.note} |")
            continue
        if r.ci_low > 0:
            reading = "A predicts better (interval above 0)"
        elif r.ci_high < 0:
            reading = "B predicts better (interval below 0)"
        else:
            reading = "no clear difference (interval contains 0)"
        lines.append(f"| {r.a} | {r.b} | {r.downstream} | {r.difference:+.1f} | [{r.ci_low:+.1f}, {r.ci_high:+.1f}] "
                     f"| {r.n_models} | {reading} |")  # fmt: skip
    return "\n".join(lines)


@dataclass
class CorrelateReport:
    """What ``mteb-evalrank correlate`` produced: the Markdown page, the files written, the warnings."""

    table: pd.DataFrame
    markdown: str
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def correlate_report(
    results: str | Path,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    out: str | Path | None = None,
    csv: str | Path | None = None,
    plot: str | Path | None = None,
    rank_plot: str | Path | None = None,
    rank_by: str | None = None,
    compare: Sequence[tuple[str, str]] = (),
    revision_policy: str = "newest",
    n_resamples: int = 1000,
    seed: int = 0,
    progress: bool = False,
) -> CorrelateReport:
    """``mteb-evalrank correlate``: the correlation table of a results folder as Markdown (Tables 3/6
    layout), optionally written to ``out``, ``csv``, a heatmap ``plot`` and a Figure 4 ``rank_plot``
    (models ordered by ``rank_by``, default the first downstream score); ``compare`` adds the paired
    bootstrap ρ(A) − ρ(B) for each (A, B) against every downstream score."""
    if rank_by is not None and rank_by not in downstream:
        raise InputError(f"--rank-by {rank_by!r} is not one of the downstream scores ({', '.join(downstream)}).")
    if n_resamples < 100:
        raise InputError(f"use at least 100 bootstrap resamples for a 95% interval, got {n_resamples}.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        folder = read_results_folder(results, progress=progress)
        table = correlate(folder, intrinsic, downstream, n_resamples=n_resamples, seed=seed,
                          revision_policy=revision_policy)  # fmt: skip
        scores = table.attrs["scores"]
        extra = [n for pair in compare for n in pair if n not in scores.columns]
        if extra:
            more, _ = score_matrix(folder, list(dict.fromkeys(extra)), revision_policy=revision_policy)
            scores = scores.join(more, how="outer")
    notes = list(dict.fromkeys(str(w.message) for w in caught))
    parts = [f"# Intrinsic vs downstream: Spearman ρ × 100 across {len(scores)} models", "", format_markdown(table)]
    dropped = table[table["n_dropped"] > 0]
    if len(dropped):
        parts += ["", "Models without a score are dropped from that cell, never imputed: "
                  + "; ".join(f"{r.intrinsic} × {r.downstream}: {r.n_dropped} dropped" for r in dropped.itertuples())]  # fmt: skip
    if compare:
        comp = comparisons(scores, compare, downstream, n_resamples=n_resamples, seed=seed)
        parts += ["", f"## Paired comparisons (bootstrap over the same models, {n_resamples} resamples, seed {seed})",
                  "", format_comparisons(comp)]  # fmt: skip
    if notes:
        parts += ["", "## Warnings", "", *[f"- {n}" for n in notes]]
    report = CorrelateReport(table, "\n".join(parts) + "\n", warnings=notes)
    if out is not None:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report.markdown, encoding="utf-8")
        report.written.append(path)
    if csv is not None:
        report.written.append(write_csv(table, csv))
    if plot is not None:
        report.written.append(plot_heatmap(table, plot))
    if rank_plot is not None:
        report.written.append(plot_ranks(scores, rank_by or downstream[0], list(intrinsic), rank_plot))
    return report
