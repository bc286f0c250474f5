"""``mteb-evalrank report``: one self-contained HTML page for the results of 1 to hundreds of models.

Input: an MTEB results folder — ``<folder>/results/<org>__<model>/<revision>/<Task>.json`` with
``model_meta.json`` and ``run_settings.jsonl`` (what ``mteb run``/``mteb.evaluate``/``mteb.run`` write;
any depth works, and ``<revision>/experiments/<name>/`` folders become separate rows).  Every result file
is read with MTEB's own :meth:`mteb.TaskResult.from_disk` (so it is checked against MTEB's schema) and,
when the task is registered, :meth:`~mteb.TaskResult.validate_and_filter_scores` keeps the task's
evaluation splits and subsets, so missing subsets show as missing, not as a silently different mean.

Page (Jinja2 template ``templates/leaderboard.html.j2``; inline CSS/JS, images as data URIs, no network):

- leaderboard: models × tasks, cell = the task's headline score: the ``all`` subset when the task has one
  (EvalRank, STS12-16), else MTEB's :meth:`~mteb.TaskResult.get_score` (mean of the main score over the
  task's subsets, as on MTEB's leaderboard); ``Mean (Task)`` = mean over the
  task columns, only for models with every task (as MTEB's ``Mean(Task)``); ``Rank`` compares every pair
  of models on the tasks both have (:func:`rank_on_shared_tasks`), so a folder where some models lack
  some tasks still ranks them all (with every task present it is the order of ``Mean (Task)``); every
  column sorts on click;
- per task: EvalRank subsets with MRR for cosine and l2 and Hits@k; HEROS normalised cosine per edit
  type + the paper's Figure-1-style chart (:func:`mteb_evalrank.reports.heros.plot_heros`); N2O needle
  scores + the N2O heatmap (:mod:`mteb_evalrank.reports.n2o`); similarity baselines and downstream tasks
  per subset;
- the correlation study's ``correlation.csv`` (columns :data:`CORRELATION_COLUMNS`) and its figures, given
  as arguments or found next to the results (a ``correlation.csv`` in the folder or its parent, with the
  ``.png``/``.svg`` files beside it);
- model metadata (``model_meta.json``) and run settings (``run_settings.jsonl``: package versions, encode
  arguments), result dates and evaluation times;
- files that could not be read are listed with the reason and skipped.  A folder without result files
  raises :class:`~mteb_evalrank.errors.InputError`.  A model name present with several revisions is shown
  as ``name @ revision``.

Charts are capped (:data:`MAX_CHART_MODELS`) so a 300-model page stays light; the tables list every model.
"""

from __future__ import annotations

import base64
import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank import mteb_internals
from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.data.result_files import ModelOwners, check_result_json, walk_result_files
from mteb_evalrank.data.result_layout import HEADLINE_SUBSET, LEGACY_HEADLINE_SUBSET, entry_parts
from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.shared_task_ranks import rank_on_shared_tasks
from mteb_evalrank.reports.results_reader import ScoreName, check_entry_scores, check_stored_score
from mteb_evalrank.results.record import FolderFiles, read_folder_files, record_identity, unanswered_problem

TEMPLATE = "leaderboard.html.j2"
#: charts (HEROS bars, N2O heatmap) show at most this many models, in leaderboard order
MAX_CHART_MODELS = 40
MAX_HEATMAP_MODELS = 25
CORRELATION_COLUMNS = ("intrinsic", "downstream", "rho", "ci_low", "ci_high", "kendall_tau", "n_models")
#: the range of each correlation column: ρ and its interval × 100 (correlate's CSV), Kendall's τ as a fraction
CORRELATION_BOUNDS = {"rho": 100.0, "ci_low": 100.0, "ci_high": 100.0, "kendall_tau": 1.0}
FIGURE_SUFFIXES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
#: keys shown next to the main score in the generic per-task tables, when present
EXTRA_KEYS = ("devacc", "f1", "cosine_pearson", "cosine_spearman_mean")
META_FIELDS = (
    "n_parameters",
    "embed_dim",
    "max_tokens",
    "similarity_fn_name",
    "framework",
    "license",
    "release_date",
    "open_weights",
    "reference",
)


@dataclass
class Skipped:
    """A file that was not used, and why."""

    path: Path
    reason: str


@dataclass
class ModelRun:
    """The results of one model revision (one results folder)."""

    name: str
    revision: str
    folder: Path
    experiment: str | None = None
    meta: dict[str, Any] | None = None
    run_settings: list[dict[str, Any]] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)  # task name -> mteb.TaskResult (validated, filtered)
    files: dict[str, Path] = field(default_factory=dict)
    scores: dict[str, float | None] = field(default_factory=dict)  # task name -> MTEB task score
    label: str = ""

    @property
    def key(self) -> tuple[str, str, str | None]:
        return (self.name, self.revision, self.experiment)


@dataclass
class ReportData:
    """Everything the page shows (built by :func:`collect`)."""

    root: Path
    models: list[ModelRun]
    tasks: list[str]
    skipped: list[Skipped] = field(default_factory=list)

    def mean(self, model: ModelRun) -> float | None:
        """Mean over :attr:`tasks` of the model's task scores; ``None`` unless all are present."""
        found = [model.scores.get(t) for t in self.tasks]
        values = [v for v in found if v is not None]
        if not values or len(values) != len(found):
            return None
        return float(sum(values) / len(values))


# --- reading -------------------------------------------------------------------------------------
def _short_error(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    if len(text) > 1 and "validation error" in first:
        first = f"{first}: {' '.join(line.strip() for line in text[1:3])}"
    return f"{type(exc).__name__}: {first}"[:300]


def _task_registry() -> dict[str, Any]:
    """MTEB's task registry (name → class), the plugin's tasks included."""

    return mteb_internals.task_registry()


def _score(task_result: Any) -> float | None:
    """The task's headline figure: its ``all`` subset when it has one (EvalRank, STS12-16 store their
    overall score there), else MTEB's ``get_score`` (the mean of the subsets' main scores)."""
    from mteb_evalrank.reports.correlation_study import ScoreName, read_score

    try:
        value = read_score(task_result.scores, ScoreName(task_result.task_name))
        if value is None:
            value = float(task_result.get_score())
    except (ValueError, KeyError, TypeError):
        return None
    return None if math.isnan(value) else value


def _score_se(task_result: Any) -> float | None:
    """The standard error the result file stores for :func:`_score`'s figure (``None`` when it has none): its
    headline entry's (``default``, ``all`` in older files, or a single subset's), else ``subset_mean_se`` (older
    HEROS files: the mean over their subsets)."""
    from mteb_evalrank.reports.results_table import standard_error

    entries = [e for entries in (getattr(task_result, "scores", None) or {}).values() for e in entries][:50]
    entry = next(
        (e for name in (HEADLINE_SUBSET, LEGACY_HEADLINE_SUBSET) for e in entries if e.get("hf_subset") == name),
        entries[0] if len(entries) == 1 else None,  # (every split's entries: one entry in all, not one name)
    )
    if entry is not None:
        return standard_error(entry, "main_score")
    se = entries[0].get("subset_mean_se") if entries else None
    return float(se) if isinstance(se, (int, float)) else None


def _order_tasks(names: set[str]) -> list[str]:
    from mteb_evalrank.integration.benchmarks import EVALRANK_TASKS

    known = [t for t in EVALRANK_TASKS if t in names]
    return known + sorted(names - set(known))


def collect(results_dir: Path | str) -> ReportData:
    """Read every result file below ``results_dir`` (see the module docstring)."""
    import mteb
    from tqdm import tqdm

    root = Path(results_dir)
    if not root.exists():
        raise InputError(f"{root} does not exist (give the --output-folder of mteb run / mteb-evalrank run).")
    if not root.is_dir():
        raise InputError(f"{root} is not a folder (give the --output-folder of mteb run / mteb-evalrank run).")
    # <model>/<revision>/<Task>.json: files nearer the root (a study's timing.json, ...) are not results
    files = walk_result_files(root, exact_root=True)
    if not files:
        raise InputError(
            f"no MTEB result files below {root}: expected results/<org>__<model>/<revision>/<Task>.json "
            "(run e.g. `mteb.run(tasks=['EvalRankSent'], output_folder=...)` or `mteb run -b EvalRank` first)."
        )
    registry = _task_registry()
    task_cache: dict[str, Any] = {}
    runs: dict[Path, ModelRun] = {}
    owners = ModelOwners()
    skipped: list[Skipped] = []
    for path in tqdm(files, desc="reading results", unit="file", disable=len(files) < 200):
        try:  # the shape, duplicate keys, task_name = file name, scores that are numbers in their range
            stored = check_result_json(path).get("scores", {})
            check_entry_scores(path, stored)
        except InputError as exc:
            skipped.append(Skipped(path, str(exc).removeprefix(f"{path}: ")))
            continue
        unanswered = unanswered_problem(path.stem, stored)  # the reader's one rule: another split or subset
        if unanswered is not None:
            skipped.append(Skipped(path, unanswered))
            continue
        try:
            tr = mteb.TaskResult.from_disk(path)
        except Exception as exc:
            skipped.append(Skipped(path, _short_error(exc)))
            continue
        folder = path.parent
        run = runs.get(folder)
        if run is None:  # who ran it: the results reader's one parse of MTEB's folders (model_meta.json wins)
            folder_files = read_folder_files(folder)
            name, revision, experiment = record_identity(path, folder_files.meta)
            run = runs[folder] = ModelRun(name=name, revision=revision, folder=folder, experiment=experiment)
            _read_model_files(run, folder_files, skipped)
            # two folders of one model revision (also NFC/NFD or case twins): refused, not shown twice
            owners.claim(f"{run.name} [{experiment}]" if experiment else run.name, run.revision, folder)
        if tr.task_name in run.results:
            skipped.append(
                Skipped(path, f"a second result for {tr.task_name} in {folder} (kept {run.files[tr.task_name].name})")
            )
            continue
        if tr.task_name in registry:
            task = task_cache.get(tr.task_name)
            if task is None:
                task = task_cache[tr.task_name] = mteb.get_task(tr.task_name)
            try:
                tr = tr.validate_and_filter_scores(task=task)
            except Exception as exc:
                skipped.append(Skipped(path, f"does not match task {tr.task_name}: {_short_error(exc)}"))
                continue
        # a main score that is NaN or null: one warning naming the file, and the cell stays empty (the rule of
        # every score read, results_reader.check_stored_score)
        check_stored_score({"path": str(path), "scores": stored, "model": run.name}, ScoreName(path.stem))
        run.results[tr.task_name] = tr
        run.files[tr.task_name] = path
        run.scores[tr.task_name] = _score(tr)
    models = [r for r in runs.values() if r.results]
    if not models:
        raise InputError(
            f"no readable MTEB result file below {root}: " + "; ".join(f"{s.path}: {s.reason}" for s in skipped[:3])
        )
    _label(models)
    tasks = _order_tasks({t for m in models for t in m.results})
    data = ReportData(root=root, models=models, tasks=tasks, skipped=skipped)
    models.sort(key=lambda m: (data.mean(m) is None, -(data.mean(m) or 0.0), m.label.lower()))
    return data


def _read_model_files(run: ModelRun, files: FolderFiles, skipped: list[Skipped]) -> None:
    """The run's ``model_meta.json`` and run settings, as the one reader read them (once per folder): what it
    could not use is listed as skipped."""
    meta = files.meta
    if files.meta_problem is not None:
        problem = files.meta_problem.removeprefix(f"{files.meta_path}: ")
        skipped.append(
            Skipped(files.meta_path, f"model meta not used ({problem}); the folder names stand for the model")
        )
    if meta is not None:
        run.meta = meta
        run.name = str(meta.get("name") or run.name)
        run.revision = str(meta.get("revision") or run.revision)
    if files.settings_problem is not None and files.settings_path is not None:
        skipped.append(Skipped(files.settings_path, f"run settings not used: {files.settings_problem}"))
    run.run_settings.extend(files.settings_lines)


def _label(models: list[ModelRun]) -> None:
    """Unique row labels: the model name; ``name @ revision`` when a name has several revisions."""
    by_name: dict[str, list[ModelRun]] = {}
    for m in models:
        by_name.setdefault(m.name, []).append(m)
    for name, group in by_name.items():
        revisions = {m.revision for m in group}
        for m in group:
            label = name if len(group) == 1 else (f"{name} @ {m.revision}" if len(revisions) > 1 else name)
            if m.experiment:
                label += f" [{m.experiment}]"
            m.label = label
    seen: dict[str, int] = {}
    for m in models:  # same name and revision in two folders: tell them apart by folder
        seen[m.label] = seen.get(m.label, 0) + 1
    for m in models:
        if seen[m.label] > 1:
            m.label = f"{m.label} ({m.folder})"


# --- correlation outputs ---------------------------------------------------------------------------
@dataclass
class Correlation:
    """The correlation section of the HTML report: table rows, the file they came from, figures and problems found."""

    rows: list[dict[str, Any]]
    source: Path | None
    figures: list[dict[str, str]]
    problems: list[str]


def read_correlation_csv(path: Path) -> list[dict[str, Any]]:
    """Rows of a correlation CSV (:data:`CORRELATION_COLUMNS`: ``intrinsic``, ``downstream`` and ``rho`` required,
    the others optional), read by the one table reader (:func:`~mteb_evalrank.data.tables.read_strict_table`: a
    byte-order mark is dropped); numbers parsed, blanks and absent columns → ``None``.  An empty file,
    UTF-16 or UTF-32 text and an HTML page (a download that saved the web page) are named as such."""
    from mteb_evalrank.data.tables import read_strict_table
    from mteb_evalrank.file_magic import compressed_kind, describe, image_kind, is_html, wide_text_kind

    path = Path(path)
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the correlation CSV ({exc.strerror or exc}).") from exc
    if not head.strip():
        raise InputError(f"{path}: the correlation CSV is empty; give the correlation.csv that `correlate` writes.")
    wide = wide_text_kind(head)
    if wide is not None:
        raise InputError(
            f"{path}: the correlation CSV is {wide} text, not UTF-8; convert it (iconv -f {wide.lower()} -t utf-8)."
        )
    if is_html(head):
        raise InputError(f"{path}: the correlation CSV is an HTML page, not a CSV; give the correlation.csv file.")
    if compressed_kind(head) or image_kind(head):
        raise InputError(f"{path}: not a correlation CSV, it is {describe(head)}.")
    # the one reader of user tables: a byte-order mark (Excel's "CSV UTF-8") is dropped, a short or long row and
    # a text that is not UTF-8 are named with the line
    table = read_strict_table(path, what="correlation CSV", allow_no_rows=True)
    missing = [c for c in CORRELATION_COLUMNS[:3] if c not in table.header]
    if missing:
        raise InputError(f"{path}: not a correlation CSV, missing column(s) {', '.join(missing)}.")
    rows = []
    for line_no, cells in table.rows:
        row = dict(zip(table.header, cells))
        out: dict[str, Any] = {"intrinsic": row["intrinsic"], "downstream": row["downstream"]}
        for col in CORRELATION_COLUMNS[2:]:  # the interval, τ and n are optional: a blank cell when absent
            text = row.get(col, "")
            try:
                out[col] = None if text in ("", "nan", "NaN") else float(text)
            except ValueError:
                raise InputError(f"{path}, line {line_no}: {col} is not a number: {text!r}.") from None
            bound = CORRELATION_BOUNDS.get(col)
            if bound is not None and out[col] is not None and not -bound <= out[col] <= bound:
                raise InputError(
                    f"{path}, line {line_no}: {col} is {text}, outside [-{bound:g}, {bound:g}] "
                    f"({'ρ × 100, as correlate writes it' if bound == 100 else 'Kendall τ'}); is it the right file?"
                )
        rows.append(out)
    return rows


def _data_uri(path: Path) -> str:
    """The figure as a ``data:`` URI; its first bytes must be the image its suffix names (PNG, JPEG or SVG
    magic): a text, gzip or empty file named ``.png`` is refused, never embedded as a broken image."""
    from mteb_evalrank.file_magic import describe, image_kind

    mime = FIGURE_SUFFIXES.get(path.suffix.lower())
    if mime is None:
        raise InputError(f"{path}: not a figure file (expected {', '.join(FIGURE_SUFFIXES)}).")
    try:
        payload = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the figure ({exc.strerror or exc}).") from exc
    wanted = {".png": "png", ".svg": "svg"}.get(path.suffix.lower(), "jpeg")
    if image_kind(payload[:4096]) != wanted:
        raise InputError(
            f"{path}: not {'an' if wanted == 'svg' else 'a'} {wanted.upper()} image, it is {describe(payload[:4096])}; give the figure file "
            "that `correlate --plot` or the study wrote."
        )
    return f"data:{mime};base64,{base64.b64encode(payload).decode('ascii')}"


def find_correlation(root: Path) -> tuple[Path | None, list[Path]]:
    """``correlation.csv`` in ``root`` or its parent (first found) and the figures in the same folder."""
    for folder in (root, root.parent):
        csv_path = folder / "correlation.csv"
        if csv_path.is_file():
            figures = sorted(p for p in folder.iterdir() if p.suffix.lower() in FIGURE_SUFFIXES and p.is_file())
            return csv_path, figures
    return None, []


def correlation_section(root: Path, csv_path: Path | None, figures: Sequence[Path | str]) -> Correlation | None:
    """The correlation block: given files win; otherwise files found by :func:`find_correlation`.  A given file
    that cannot be read as what it should be (a figure that is not an image, a CSV that is empty, UTF-16 or
    HTML) is an :class:`InputError`; a found one is listed in the page's problems and left out."""
    problems: list[str] = []
    given = csv_path is not None or bool(figures)
    if not given:
        csv_path, figures = find_correlation(root)
    if csv_path is None and not figures:
        return None
    rows: list[dict[str, Any]] = []
    if csv_path is not None:
        try:
            rows = read_correlation_csv(csv_path)
        except InputError as exc:
            if given:
                raise
            problems.append(str(exc))
    images = []
    for fig in figures:
        try:
            images.append({"name": Path(fig).name, "uri": _data_uri(Path(fig))})
        except InputError as exc:
            if given:
                raise
            problems.append(str(exc))
    return Correlation(rows=rows, source=csv_path, figures=images, problems=problems)


# --- charts ----------------------------------------------------------------------------------------
def _figure_uri(draw) -> str:
    """Run ``draw(path)`` (a plotting function writing a PNG) in a temporary folder; return a data URI."""
    with scratch_folder() as tmp:
        path = draw(Path(tmp) / "figure.png")
        return _data_uri(Path(path))


def _ranks_block(data: ReportData) -> dict[str, Any] | None:
    """Rank intervals and tie groups of the models with every ranked task (not HEROS: a profile, not a quality),
    as lines and a figure (:mod:`mteb_evalrank.reports.ranks`); ``None`` for fewer than two such models."""
    from mteb_evalrank.reports.ranks import format_lines, plot_rank_intervals, rank_models

    tasks = [t for t in data.tasks if t != "HEROS"]
    complete = [m for m in data.models if all(m.scores.get(t) is not None for t in tasks)]
    if len(tasks) == 0 or len(complete) < 2:
        return None
    import warnings as warnings_module

    from mteb_evalrank.errors import EvalRankWarning

    try:
        with warnings_module.catch_warnings():  # the files it skips are listed on the page already
            warnings_module.simplefilter("ignore", EvalRankWarning)
            report = rank_models(data.root, tasks=tasks)
    except InputError as exc:
        return {"lines": [], "figure": None, "problem": str(exc)}
    return {
        "lines": format_lines(report),
        "figure": _figure_uri(lambda p: plot_rank_intervals(report, p)),
        "problem": None,
    }


def _heros_block(data: ReportData) -> dict[str, Any] | None:
    from mteb_evalrank.metrics.heros import SUBSET_LABELS, SUBSETS, SUMMARY_READINGS
    from mteb_evalrank.reports.heros import plot_heros, read_result

    results = []
    problems = []
    for m in data.models:
        path = m.files.get("HEROS")
        if path is None:
            continue
        try:
            r = read_result(path)
        except InputError as exc:
            problems.append(str(exc))
            continue
        r.model = m.label
        results.append(r)
    if not results:
        return None
    rows = [
        {
            "label": r.model,
            "values": [r.normalized.get(s) for s in SUBSETS] + [r.readings.get(k) for k in SUMMARY_READINGS],
        }
        for r in results
    ]
    shown = results[:MAX_CHART_MODELS]
    chart = _figure_uri(lambda p: plot_heros(shown, p))
    note = (
        None
        if len(results) <= MAX_CHART_MODELS
        else f"chart: the first {MAX_CHART_MODELS} of {len(results)} models in leaderboard order; the table lists all"
    )
    return {
        "columns": [SUBSET_LABELS[s] for s in SUBSETS] + list(SUMMARY_READINGS),
        "rows": rows,
        "chart": chart,
        "note": note,
        "problems": problems,
    }


def _n2o_block(data: ReportData) -> dict[str, Any] | None:
    present = [m for m in data.models if "N2O" in m.results]
    if not present:
        return None
    rows = []
    for m in present:
        entry = _first_entry(m.results["N2O"])
        rows.append(
            {
                "label": m.label,
                "values": [_num(entry.get("needle_mrr"))]
                + [_count(entry.get(k)) for k in ("needle_top1", "needle_top5", "needle_count")],
            }
        )
    block: dict[str, Any] = {
        "columns": ["needle MRR", "needle top-1 (pairs)", "needle top-5 (pairs)", "needle pairs"],
        "rows": rows,
        "heatmap": None,
        "note": None,
    }
    if len(present) < 2:
        block["note"] = "the N2O heatmap needs at least two models"
        return block
    try:
        from mteb_evalrank.metrics.neighbors import n2o_matrix
        from mteb_evalrank.reports.n2o import _neighbor_set, plot_heatmap

        chosen = present[:MAX_HEATMAP_MODELS]
        sets = [_neighbor_set(m.label, m.files["N2O"], "test") for m in chosen]
        matrix = n2o_matrix(sets, None)
        block["heatmap"] = _figure_uri(lambda p: plot_heatmap(p, matrix))
        if len(present) > MAX_HEATMAP_MODELS:
            block["note"] = f"heatmap: the first {MAX_HEATMAP_MODELS} of {len(present)} models in leaderboard order"
    except InputError as exc:
        block["note"] = f"no heatmap: {exc}"
    return block


# --- tables ----------------------------------------------------------------------------------------
def _first_entry(task_result: Any, subset: str | None = None) -> dict[str, Any]:
    """The first entry of ``subset`` (any subset: ``None``), else the part ``subset`` of an entry's breakdown."""
    for entries in task_result.scores.values():
        for e in entries:
            if subset is None or e.get("hf_subset") == subset:
                return e
    for entries in task_result.scores.values():
        for e in entries:
            for _, name, scores in entry_parts(e):
                if name == subset:
                    return scores
    return {}


def _num(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _count(value: Any) -> int | None:
    """A count (stored as an integer; ``94.0`` from an older file) as an ``int``, shown without decimals."""
    v = _num(value)
    return None if v is None else int(round(v))


def _subsets(data: ReportData, task: str) -> list[str]:
    found: list[str] = []
    for m in data.models:
        tr = m.results.get(task)
        if tr is None:
            continue
        for entries in tr.scores.values():
            for e in entries:
                for name in [e.get("hf_subset")] + [p for _, p, _ in entry_parts(e)]:
                    if name not in found:
                        found.append(name)
    return found


def _column(subset: str, subsets: list[str]) -> str:
    """A subset's column label: the headline entry of a task with parts is its ``all``."""
    return "all" if subset == HEADLINE_SUBSET and len(subsets) > 1 else subset


def _evalrank_block(data: ReportData, task: str) -> dict[str, Any]:
    subsets = _subsets(data, task)
    columns = [f"{_column(s, subsets)} MRR cos" for s in subsets] + [f"{_column(s, subsets)} MRR l2" for s in subsets]
    columns += ["Hits@1 cos", "Hits@10 cos", "Hits@1 l2", "Hits@10 l2"]
    headline = next(
        (s for s in (HEADLINE_SUBSET, LEGACY_HEADLINE_SUBSET) if s in subsets), subsets[0] if subsets else None
    )
    rows = []
    for m in data.models:
        tr = m.results.get(task)
        if tr is None:
            continue
        values = [_num(_first_entry(tr, s).get("mrr")) for s in subsets]
        values += [_num(_first_entry(tr, s).get("l2_mrr")) for s in subsets]
        top = _first_entry(tr, headline) if headline else {}
        values += [_num(top.get(k)) for k in ("hits_at_1", "hits_at_10", "l2_hits_at_1", "l2_hits_at_10")]
        rows.append({"label": m.label, "values": values})
    return {"task": task, "columns": columns, "rows": rows, "headline": headline}


def _generic_block(data: ReportData, task: str) -> dict[str, Any]:
    subsets = _subsets(data, task)
    extras = [
        k for k in EXTRA_KEYS if any(k in _first_entry(m.results[task]) for m in data.models if task in m.results)
    ]
    single = len(subsets) == 1
    columns = (["main score"] if single else [_column(s, subsets) for s in subsets]) + extras
    rows = []
    for m in data.models:
        tr = m.results.get(task)
        if tr is None:
            continue
        values = [_num(_first_entry(tr, s).get("main_score")) for s in subsets]
        first = _first_entry(tr)
        values += [_num(first.get(k)) for k in extras]
        rows.append({"label": m.label, "values": values})
    main = _main_score_name(task)
    return {"task": task, "columns": columns, "rows": rows, "metric": main}


def _main_score_name(task: str) -> str:
    from mteb_evalrank.integration.task_lookup import main_score_name

    return main_score_name(task) or "main_score"


def _task_kind(task: str) -> str:
    """The report section of a task: a plugin task's declared role decides (``baseline`` and ``similarity`` →
    similarity, ``downstream`` → downstream); another task (MTEB's own) goes by its MTEB type."""
    import mteb

    from mteb_evalrank.integration.task_lookup import plugin_task_names

    if task in plugin_task_names(role=("baseline", "similarity")):
        return "similarity"
    if task in plugin_task_names(role="downstream"):
        return "downstream"
    try:
        kind = str(mteb.get_task(task).metadata.type)
    except (KeyError, ValueError):
        return "other"
    return {"STS": "similarity", "Classification": "downstream", "PairClassification": "downstream"}.get(kind, "other")


def _meta_rows(data: ReportData) -> list[dict[str, Any]]:
    rows = []
    for m in data.models:
        meta = m.meta or {}
        versions: dict[str, str] = {}
        encode: dict[str, Any] = {}
        for s in m.run_settings:
            versions.update({k: v for k, v in (s.get("version") or {}).items() if v})
            encode.update(s.get("encode_kwargs") or {})
        dates = [tr.date for tr in m.results.values() if getattr(tr, "date", None)]
        seconds = [tr.evaluation_time for tr in m.results.values() if tr.evaluation_time]
        rows.append(
            {
                "label": m.label,
                "name": m.name,
                "revision": m.revision,
                "has_meta": m.meta is not None,
                "fields": [_meta_text(meta.get(k)) for k in META_FIELDS],
                "versions": ", ".join(f"{k} {v}" for k, v in sorted(versions.items())),
                "encode": ", ".join(f"{k}={v}" for k, v in sorted(encode.items())),
                "date": max(dates).strftime("%Y-%m-%d %H:%M") if dates else "",
                "seconds": sum(seconds) if seconds else None,
                "folder": str(m.folder.relative_to(data.root)) if m.folder.is_relative_to(data.root) else str(m.folder),
            }
        )
    return rows


def _meta_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


# --- page ------------------------------------------------------------------------------------------
def build_context(
    data: ReportData,
    *,
    title: str | None = None,
    correlation_csv: Path | None = None,
    figures: Sequence[Path] = (),
    correlation: Correlation | None = None,
) -> dict[str, Any]:
    """Everything the template needs (plain lists, dicts and numbers); ``correlation``: the correlation block when
    it was read already (:func:`correlation_section`), else it is read from ``correlation_csv`` and ``figures``."""
    import mteb

    leaderboard = []
    means = {id(m): data.mean(m) for m in data.models}
    ranks = rank_on_shared_tasks([[m.scores.get(t) for t in data.tasks] for m in data.models])
    for m, rank in zip(data.models, ranks):
        leaderboard.append(
            {
                "rank": rank,
                "label": m.label,
                "revision": m.revision,
                "mean": means[id(m)],
                "done": sum(1 for t in data.tasks if m.scores.get(t) is not None),
                "scores": [m.scores.get(t) for t in data.tasks],
                "ses": [_score_se(m.results.get(t)) if m.scores.get(t) is not None else None for t in data.tasks],
            }
        )
    from mteb_evalrank.integration.task_lookup import plugin_task_names

    # EvalRank (role "intrinsic") has its own block; HEROS and N2O ("diagnostic", "comparison") their sections
    intrinsic = plugin_task_names(role="intrinsic")
    evalrank = [_evalrank_block(data, t) for t in data.tasks if t in intrinsic]
    handled = set(plugin_task_names(role=("intrinsic", "diagnostic", "comparison")))
    rest = [t for t in data.tasks if t not in handled]
    groups: dict[str, list[Any]] = {"similarity": [], "downstream": [], "other": []}
    for t in rest:
        groups[_task_kind(t)].append(_generic_block(data, t))
    return {
        "title": title
        or f"Embedding evaluation report: {len(data.models)} model{'s' if len(data.models) != 1 else ''}",
        "generated": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "root": str(data.root),
        "mteb_version": mteb.__version__,
        "tasks": data.tasks,
        "leaderboard": leaderboard,
        "rank_intervals": _ranks_block(data),
        "evalrank": evalrank,
        "heros": _heros_block(data),
        "n2o": _n2o_block(data),
        "similarity": groups["similarity"],
        "downstream": groups["downstream"],
        "other": groups["other"],
        "correlation": correlation
        if correlation is not None
        else correlation_section(data.root, correlation_csv, figures),
        "meta_fields": META_FIELDS,
        "models": _meta_rows(data),
        "skipped": [{"path": str(s.path), "reason": s.reason} for s in data.skipped],
    }


def _format_score(value: Any, digits: int = 4) -> str:
    """A table cell: fractions with ``digits`` decimals, counts (``int``) as integers, missing as blank."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{value:.{digits}f}"


def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("mteb_evalrank.reports", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["score"] = _format_score
    env.filters["sortkey"] = lambda v: "" if v is None else repr(float(v))
    return env


def render(context: dict[str, Any]) -> str:
    """The HTML page for :func:`build_context`'s context."""
    return _environment().get_template(TEMPLATE).render(**context)


def write_report(
    results_dir: Path | str,
    out: Path | str,
    *,
    correlation_csv: Path | str | None = None,
    figures: Sequence[Path | str] = (),
    title: str | None = None,
) -> tuple[Path, ReportData]:
    """Read ``results_dir``, write the page to ``out``; return its path and the data shown."""
    from mteb_evalrank.data.files import atomic_write_text, check_regular_file, output_file

    out = output_file(Path(out), what="report file", suffixes=("html", "htm"))
    if correlation_csv is not None:
        check_regular_file(Path(correlation_csv), what="correlation CSV")
    for fig in figures:
        check_regular_file(Path(fig), what="figure file")
    given = None  # given files are read (and refused when they are not what they should be) before the results
    if correlation_csv is not None or figures:
        given = correlation_section(Path(results_dir), Path(correlation_csv) if correlation_csv else None, figures)
    data = collect(results_dir)
    context = build_context(
        data,
        title=title,
        correlation_csv=Path(correlation_csv) if correlation_csv else None,
        figures=[Path(f) for f in figures],
        correlation=given,
    )
    page = render(context)
    try:
        atomic_write_text(out, page)  # a symlink at OUT is replaced, never written through
    except OSError as exc:  # writable when checked above; the disk filled up or the mount changed since
        raise InputError(
            f"cannot write report file {out}: {exc.strerror or type(exc).__name__}; nothing was lost (the page is "
            f"built from {results_dir}): run `mteb-evalrank report` again with another --out."
        ) from exc
    return out, data


def summary_lines(data: ReportData, out: Path) -> list[str]:
    """What the CLI prints after writing the page."""
    lines = [f"report: {out}  ({len(data.models)} model(s), {len(data.tasks)} task(s))"]
    for s in data.skipped:
        lines.append(f"skipped {s.path}: {s.reason}")
    return lines
