"""The one reader of results for the reports: MTEB results folders and plain score tables.

MTEB files a result as ``<folder>/results/<org>__<model>/<revision>/<Task>.json`` (runs with model
options: ``.../<revision>/experiments/<experiment>/<Task>.json``), with ``model_meta.json`` next to it.
Everything that turns such a folder into names and numbers lives here, so that every report reads a
model's name, its revision and its scores the same way:

- **model names** — :func:`model_name_from_folder` (``org__model`` → ``org/model``) and
  :func:`result_identity` (name and revision from ``model_meta.json``, else from the folder names; the
  experiment of an experiments layout), used by every report (``correlate``, the study, HEROS, N2O);
- **files of one task** — :func:`task_result_files` (HEROS and N2O read their own JSON fields);

  these three live in :mod:`mteb_evalrank.data.result_files` (layer 3, standard library only) so that the
  integration layer (the leaderboard app) can name models the same way; they are re-exported here;
- **all results** — :func:`read_results_folder` → :class:`ResultsFolder` (records through MTEB's
  ``ResultCache`` path discovery and ``TaskResult``);
- **revision policy** — :data:`REVISION_POLICIES` and :func:`choose_revisions` (one model, several
  revisions: ``newest``, ``oldest``, ``error`` or ``separate``); :func:`revision_labels` names
  ``model@revision`` when several revisions are kept apart;
- **scores** — :class:`ScoreName` (``Task[/subset][:metric]``), :func:`read_score`,
  :func:`read_standard_error`, :func:`score_matrix` (models × scores);
- **one interface for both inputs** — :class:`ScoreSource`, implemented by :class:`ResultsFolder` and
  :class:`ScoreTable` (``correlate TABLE.csv``: one row per model, :func:`read_score_table`);
  :func:`open_score_source` opens either.

No statistics, no Markdown, no plots: those stay in the reports that use this module.
"""

from __future__ import annotations

import difflib
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mteb_evalrank.data.result_files import (
    ResultIdentity,
    model_name_from_folder,
    result_identity,
    task_result_files,
)
from mteb_evalrank.data.result_layout import LEGACY_HEADLINE_SUBSET, entry_parts, headline_entry
from mteb_evalrank.errors import EvalRankWarning, InputError

if TYPE_CHECKING:  # pandas is imported where a table is built: reading file names and scores stays light
    import pandas as pd

    from mteb_evalrank.results.record import ResultRecord

SPLIT_PREFERENCE = ("test", "validation", "dev", "train")
REVISION_POLICIES = ("newest", "oldest", "error", "separate")


# --- model names and revisions ---------------------------------------------------------------------------
def revision_labels(identities: Iterable[tuple[str, str]], *, length: int | None = None) -> list[str]:
    """One label per ``(model, revision)``: the model, or ``model@revision`` (the revision cut to
    ``length`` characters) when the same model occurs with several entries — revisions kept apart."""
    pairs = list(identities)
    counts: dict[str, int] = {}
    for model, _ in pairs:
        counts[model] = counts.get(model, 0) + 1
    return [f"{m}@{r[:length] if length else r}" if counts[m] > 1 else m for m, r in pairs]


def choose_revisions(
    records: Iterable[dict[str, Any]], policy: str = "newest"
) -> tuple[dict[str, list[str]], list[str]]:
    """Which revisions of each model count, and the warnings about the ones left out.

    ``records`` carry ``model``, ``revision`` and ``mtime`` (of the result file).  ``newest`` / ``oldest``:
    the revision whose newest result file is newest / oldest (with a warning naming the others);
    ``error``: several revisions raise :class:`InputError`; ``separate``: every revision counts."""
    if policy not in REVISION_POLICIES:
        raise InputError(f"unknown revision policy {policy!r}; choose from {', '.join(REVISION_POLICIES)}.")
    revisions: dict[str, dict[str, float]] = {}
    for r in records:
        revs = revisions.setdefault(r["model"], {})
        revs[r["revision"]] = max(revs.get(r["revision"], 0.0), r["mtime"])
    chosen: dict[str, list[str]] = {}
    notes: list[str] = []
    for model, revs in revisions.items():
        if len(revs) == 1 or policy == "separate":
            chosen[model] = list(revs)
            continue
        order = sorted(revs, key=lambda rev: revs[rev], reverse=policy != "oldest")
        if policy == "error":
            raise InputError(
                f"model {model} has results for {len(revs)} revisions: {', '.join(order)} "
                "(choose --revision-policy newest, oldest or separate)."
            )
        chosen[model] = [order[0]]
        notes.append(
            f"model {model} has {len(revs)} revisions ({', '.join(order)}); using {order[0]} ({policy} results file)"
        )
    return chosen, notes


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
        head, sep, metric = text.partition(":")
        task, _, subset = head.partition("/")
        if not task:
            raise InputError(f"empty task in score name {text!r} (expected Task, Task:metric or Task/subset:metric).")
        if (sep and not metric) or ("/" in head and not subset):  # 'EvalRankSent:' or 'EvalRankSent/'
            raise InputError(
                f"score name {text!r} ends in {'an empty metric' if sep and not metric else 'an empty part'} "
                f"(expected Task, Task:metric or Task/part:metric; e.g. {task})."
            )
        return cls(task, subset or None, metric or None)

    def __str__(self) -> str:
        return self.task + (f"/{self.subset}" if self.subset else "") + (f":{self.metric}" if self.metric else "")


def is_primary(name: str) -> bool:
    """A task's main score (``Task``) is primary; ``Task:metric`` and ``Task/subset`` are exploratory."""
    return ":" not in str(name) and "/" not in str(name)


def _split_entries(scores: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    for split in SPLIT_PREFERENCE:
        if split in scores:
            return scores[split]
    return next(iter(scores.values()), [])


def _part_entry(headline: dict[str, Any] | None, part: str) -> dict[str, Any] | None:
    """One part of the headline entry's breakdown (``scores_per_source``, ``scores_per_edit``), named as a
    subset (``hf_subset``: the part's name, for messages)."""
    return next(({**s, "hf_subset": part} for _, name, s in entry_parts(headline or {}) if name == part), None)


def _entries_for(scores: dict[str, list[dict[str, Any]]], name: ScoreName) -> list[dict[str, Any]] | None:
    """The result entries a score name reads: its subset (or its part in the headline entry's breakdown), else
    the headline entry (``default``, ``all`` in older files), else every subset (MTEB's mean)."""
    entries = _split_entries(scores)
    if not entries:
        return None
    by_subset = {e.get("hf_subset", "default"): e for e in entries}
    headline = headline_entry(by_subset)
    if name.subset is not None:
        if name.subset in by_subset:
            return [by_subset[name.subset]]
        part = _part_entry(headline, name.subset)
        return [part] if part is not None else None
    if headline is not None and (len(by_subset) == 1 or headline.get("hf_subset") == LEGACY_HEADLINE_SUBSET):
        return [headline]
    return entries


def read_score(scores: dict[str, list[dict[str, Any]]], name: ScoreName) -> float | None:
    """One score from a TaskResult's ``scores`` dict (``None`` when absent); a mean over subsets when the
    task has neither the named subset nor ``all``."""
    entries = _entries_for(scores, name)
    if entries is None:
        return None
    key = name.metric or "main_score"

    def value(entry: dict[str, Any]) -> float | None:
        v = entry.get(key)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None

    found = [value(e) for e in entries]
    values = [v for v in found if v is not None]
    if len(values) != len(found):
        return None
    return values[0] if len(values) == 1 else float(np.mean(values))


#: The range of a stored score, by key: fractions (accuracies, F1, MRR, hits) in [0, 1], correlations in
#: [-1, 1]: a value outside is an error (no such score exists).  A cosine or main score outside [-1, 1] is a
#: warning (a normalised cosine can in principle fall below -1; a main score's range is its metric's).
_FRACTION_KEY = r"(acc|accuracy|devacc|f1.*|precision.*|recall.*|ap|map.*|mrr|.*_mrr|.*hits_at_\d+|ndcg.*)"
_CORRELATION_KEY = r"(.*spearman.*|.*pearson.*)"
_SIGNED_KEY = r"(main_score|cosine|normalized_cosine)"


def check_score_range(path: str | Path, subset: str, key: str, value: float) -> None:
    """A finite stored score against its range (see :data:`_FRACTION_KEY`): an accuracy of -5 or a Spearman
    correlation of 1.5 raises :class:`InputError` naming the file and the key; a normalised cosine of 5.0
    warns."""
    import re

    if key.endswith("_se"):  # a standard error, not a score
        return
    if re.fullmatch(_FRACTION_KEY, key) and not 0.0 <= value <= 1.0:
        raise InputError(
            f"{path}: score {subset}.{key} is {value!r}, outside [0, 1] (a fraction); repair or re-run this result."
        )
    if re.fullmatch(_CORRELATION_KEY, key) and not -1.0 <= value <= 1.0:
        raise InputError(
            f"{path}: score {subset}.{key} is {value!r}, outside [-1, 1] (a correlation); repair or re-run this result."
        )
    if re.fullmatch(_SIGNED_KEY, key) and not -1.0 <= value <= 1.0:
        warnings.warn(
            EvalRankWarning(f"{path}: score {subset}.{key} is {value!r}, outside [-1, 1]; check this result."),
            stacklevel=3,
        )


def check_entry_scores(path: str | Path, scores: dict[str, list[dict[str, Any]]]) -> None:
    """Every stored score of a result file's ``scores`` (checked for its shape by
    :func:`~mteb_evalrank.data.result_files.check_result_json`): a ``main_score`` that is neither a number nor
    ``null`` raises :class:`InputError` naming the file and the key, and so does a score outside its range
    (:func:`check_score_range`)."""
    import json

    for entries in scores.values():
        for entry in entries:
            subset = entry.get("hf_subset", "default")
            main = entry.get("main_score")
            if isinstance(main, bool) or (main is not None and not isinstance(main, (int, float))):
                raise InputError(
                    f"{path}: score {subset}.main_score is {json.dumps(main)[:40]}, not a number; repair or re-run "
                    "this result."
                )
            for where, values in _entry_and_parts(entry, subset):
                for k, value in values.items():
                    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                        check_score_range(path, where, k, float(value))


def _entry_and_parts(entry: dict[str, Any], subset: str) -> list[tuple[str, dict[str, Any]]]:
    """``(subset, entry)`` and ``(subset.<breakdown>.<part>, part)`` for every part of its breakdown."""
    return [(subset, entry), *((f"{subset}.{key}.{p}", v) for key, p, v in entry_parts(entry))]


def missing_value(value: Any) -> bool:
    """Whether a stored score that is a number or ``null`` counts as missing: ``null``, NaN or ±Infinity (JSON's
    ``Infinity``).  The one rule of every reader: ``correlate``, ``report`` and ``ranks`` leave the model out of
    that score with a warning (:func:`check_stored_score`), ``prepare-submission`` rejects the file."""
    return value is None or (isinstance(value, (int, float)) and not math.isfinite(value))


def check_stored_score(record: dict[str, Any], name: ScoreName) -> None:
    """The score ``name`` as stored in one result file: a value that is not a number is an error naming the
    file and the key; NaN or ``null`` is missing (the model is dropped from that cell), with a warning.  Every other score of the entries read is checked against its range too (an MRR of 1.5 is not
    let through because the main score was asked for)."""
    import json

    key = name.metric or "main_score"
    for entry in _entries_for(record["scores"], name) or ():
        v = entry.get(key)
        subset = entry.get("hf_subset", "default")
        if isinstance(v, bool) or (v is not None and not isinstance(v, (int, float))):
            raise InputError(
                f"{record['path']}: score {subset}.{key} is {json.dumps(v)[:40]}, not a number; repair or re-run this "
                "result."
            )
        if key in entry and missing_value(v):  # (a metric a file lacks: the report's "dropped")
            warnings.warn(
                EvalRankWarning(
                    f"{record['path']}: score {subset}.{key} is {v!r}; counted as missing ({name} of "
                    f"{record['model']} is left out)"
                ),
                stacklevel=3,
            )
        for k, value in entry.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                check_score_range(record["path"], subset, k, float(value))


def available_names(scores: dict[str, list[dict[str, Any]]], task: str) -> set[str]:
    """Every score name (``Task``, ``Task:metric``, ``Task/subset[:metric]``, ``Task/part[:metric]``) a result's
    ``scores`` can answer."""
    names = {task}
    for e in _split_entries(scores):
        subset = e.get("hf_subset", "default")
        names.add(f"{task}/{subset}")
        for k, v in e.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                names.add(f"{task}:{k}")
                names.add(f"{task}/{subset}:{k}")
        for _, part, values in entry_parts(e):
            names.add(f"{task}/{part}")
            for k, v in values.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    names.add(f"{task}/{part}:{k}")
    return names


def _entry_standard_error(entry: dict[str, Any], key: str) -> float | None:
    """The sampling standard error of one stored score (the record's rule:
    :func:`mteb_evalrank.results.record.entry_standard_error`)."""
    from mteb_evalrank.results.record import entry_standard_error

    return entry_standard_error(entry, key)


def read_standard_error(scores: dict[str, list[dict[str, Any]]], name: ScoreName) -> float | None:
    """The sampling standard error of the score :func:`read_score` returns (``None`` when no formula applies).

    Accuracy: binomial over ``ntest``; STS Spearman: Fieller's approximation over ``num_pairs``; EvalRank
    MRR/Hits: the [0, 1] bound over ``num_pairs / 2``; a mean of subsets: ``sqrt(Σ se²) / k``."""
    from mteb_evalrank.metrics.sampling_error import mean_se

    entries = _entries_for(scores, name)
    if entries is None:
        return None
    found = [_entry_standard_error(e, name.metric or "main_score") for e in entries]
    ses = [v for v in found if v is not None]
    if len(ses) != len(found):
        return None
    return ses[0] if len(ses) == 1 else mean_se(ses)


# --- one interface for a results folder and a score table ------------------------------------------------
class ScoreSource:
    """Where per-model scores come from: a results folder (:class:`ResultsFolder`) or a plain score table
    (:class:`ScoreTable`).  ``correlate`` and its report read both through these methods only."""

    skipped: list[tuple[str, str]]  # (path, reason) of files that could not be read
    warnings: list[str]

    @property
    def groups(self) -> dict[str, dict[str, str]]:
        """Per model, the ``family`` / ``lineage`` / ``floor`` the source itself declares (may be empty)."""
        return {}

    def matrix(self, names: Sequence[str], *, revision_policy: str = "newest", strict: bool = True) -> pd.DataFrame:
        """Models × ``names`` (NaN where a model has no such score); an unknown name raises (``strict``)."""
        raise NotImplementedError

    def standard_errors(self, names: Sequence[str], *, revision_policy: str = "newest") -> pd.DataFrame:
        """The sampling standard error of each score of :meth:`matrix` (NaN where none is known)."""
        raise NotImplementedError


# --- reading a results folder ---------------------------------------------------------------------------
@dataclass
class ResultsFolder(ScoreSource):
    """What was read: ``records`` (model, revision, task, scores, mtime, path), and what was skipped."""

    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    warnings: list[str] = field(default_factory=list)
    #: the typed records these were made from (:func:`mteb_evalrank.results.record.read_records`)
    result_records: list[ResultRecord] = field(default_factory=list)

    def matrix(self, names: Sequence[str], *, revision_policy: str = "newest", strict: bool = True) -> pd.DataFrame:
        return score_matrix(self, names, revision_policy=revision_policy, strict=strict)[0]

    def standard_errors(self, names: Sequence[str], *, revision_policy: str = "newest") -> pd.DataFrame:
        return score_matrix(self, names, revision_policy=revision_policy, reader=read_standard_error, strict=False)[0]


def read_results_folder(folder: str | Path, *, progress: bool = False) -> ResultsFolder:
    """Every task result under ``folder``: the one results-folder walk
    (:func:`~mteb_evalrank.data.result_files.walk_result_files`, both of MTEB's layouts; a run with model
    options is its own model, ``name [experiment]``) read by MTEB's ``TaskResult``.

    ``folder`` is a ResultCache folder (holding ``results/``) or the ``results/`` folder itself.  A file
    that is not a valid TaskResult is skipped, named in ``skipped`` and warned about.
    """
    from mteb_evalrank.data.files import special_file_kind
    from mteb_evalrank.results.record import read_records

    folder = Path(folder)
    kind = special_file_kind(folder)
    if kind == "does not exist":
        raise InputError(f"results folder {folder} does not exist.")
    if kind != "a folder":
        raise InputError(
            f"results {folder} is {kind or 'a file'}, not a folder; give a results folder (holding "
            f"results/<org>__<model>/<revision>/) or a score table ({', '.join(TABLE_SUFFIXES)})."
        )
    read = read_records(folder, progress=progress)  # the one reader: walk, shape check, TaskResult, identity
    out = ResultsFolder(skipped=read.skipped, result_records=read.records)
    by_file = read.files()
    for path, scores in read.scores_by_file().items():
        first = by_file[path][0]
        out.records.append(
            {
                "model": first.label,
                "revision": first.revision,
                "task": first.task,
                "scores": scores,
                "mtime": first.mtime,
                "path": str(path),
            }
        )
    if not out.records:
        raise InputError(
            f"no MTEB results found in {folder}"
            + (f" ({len(out.skipped)} unreadable file(s) skipped)" if out.skipped else "")
            + "; expected results/<org>__<model>/<revision>/<Task>.json (mteb run --output-folder)."
        )
    return out


def score_matrix(
    results: str | Path | ResultsFolder,
    names: Sequence[str],
    *,
    revision_policy: str = "newest",
    reader: Callable[[dict[str, list[dict[str, Any]]], ScoreName], float | None] | None = None,
    strict: bool = True,
) -> tuple[pd.DataFrame, ResultsFolder]:
    """Models × ``names`` (NaN where a model has no such score); unknown names raise with close matches
    (``strict``).  ``reader`` reads a value other than the score itself (e.g. :func:`read_standard_error`)."""
    reader = reader or read_score
    if revision_policy not in REVISION_POLICIES:
        raise InputError(f"unknown revision policy {revision_policy!r}; choose from {', '.join(REVISION_POLICIES)}.")
    folder = results if isinstance(results, ResultsFolder) else read_results_folder(results)
    parsed = [ScoreName.parse(n) for n in names]
    chosen, notes = choose_revisions(folder.records, revision_policy)  # which revision of each model counts
    for msg in notes:
        folder.warnings.append(msg)
        warnings.warn(msg, stacklevel=2)
    rows: dict[str, dict[str, float]] = {}
    seen: set[str] = set()
    for r in folder.records:
        if r["revision"] not in chosen[r["model"]]:
            continue
        label = (
            f"{r['model']}@{r['revision']}"
            if revision_policy == "separate" and len(chosen[r["model"]]) > 1
            else r["model"]
        )
        row = rows.setdefault(label, {})
        seen |= available_names(r["scores"], r["task"])
        for name in parsed:
            if name.task == r["task"]:
                if reader is read_score:
                    check_stored_score(r, name)  # a non-numeric score: error; NaN/null: a warning
                value = reader(r["scores"], name)
                if value is not None:
                    row[str(name)] = value
    for name in parsed if strict else ():
        if not any(str(name) in row for row in rows.values()):
            close = difflib.get_close_matches(str(name), sorted(seen), n=4, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(f"no model in {len(rows)} has the score {str(name)!r}{hint}")
    import pandas as pd

    frame = pd.DataFrame.from_dict(rows, orient="index").reindex(columns=[str(n) for n in parsed]).sort_index()
    return frame, folder


# --- plain score tables -------------------------------------------------------------------------------------
TABLE_SUFFIXES = (".csv", ".tsv")
GROUP_COLUMNS = ("family", "lineage", "floor")


@dataclass
class ScoreTable(ScoreSource):
    """A plain table of per-model scores (``correlate TABLE.csv``), read by :func:`read_score_table`:
    ``frame`` (models × scores), ``group_frame`` (models × ``family``/``lineage``/``floor``)."""

    path: str | Path
    frame: pd.DataFrame
    group_frame: pd.DataFrame
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: str | Path) -> ScoreTable:
        """The table at ``path`` (``.csv`` or ``.tsv``)."""
        frame, group_frame = read_score_table(path)
        return cls(path, frame, group_frame)

    @property
    def groups(self) -> dict[str, dict[str, str]]:
        return {m: {k: str(v) for k, v in row.items() if str(v).strip()} for m, row in self.group_frame.iterrows()}

    def matrix(self, names: Sequence[str], *, revision_policy: str = "newest", strict: bool = True) -> pd.DataFrame:
        """The named columns (one model per row, so there is no revision to choose); an unknown name raises
        with close matches, and (``strict=False``) is left out instead."""
        if not strict:
            names = [n for n in names if n in self.frame.columns]
        frame = table_scores(self.frame, names, self.path)
        empty = [str(n) for n in frame.columns if frame[n].isna().all()] if strict else []
        if empty:  # as for a results folder: a score no model has is an error, not an empty column
            raise InputError(
                f"score table {self.path}: no model in {len(frame)} has a value in the column {empty[0]!r}."
            )
        return frame

    def standard_errors(self, names: Sequence[str], *, revision_policy: str = "newest") -> pd.DataFrame:
        """A table carries no standard errors: all NaN."""
        import pandas as pd

        return pd.DataFrame(np.nan, index=self.frame.index, columns=list(dict.fromkeys(names))).sort_index()


def open_score_source(source: str | Path | ScoreSource, *, progress: bool = False) -> ScoreSource:
    """A :class:`ScoreSource` as is, a score table (``.csv``/``.tsv`` file) as :class:`ScoreTable`, anything
    else as a results folder (:func:`read_results_folder`)."""
    if isinstance(source, ScoreSource):
        return source
    if is_score_table(source):
        return ScoreTable.read(source)
    return read_results_folder(source, progress=progress)


def is_score_table(path: str | Path) -> bool:
    """A CSV/TSV file of scores (``correlate TABLE.csv``) rather than an MTEB results folder."""
    return Path(path).suffix.lower() in TABLE_SUFFIXES and Path(path).is_file()


def read_score_table(path: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A plain table of per-model scores → (models × scores, models × group columns).

    One row per model; a ``model`` column (unique names); optional ``family``, ``lineage`` and ``floor``
    (true/false) columns; every other column is a score (numbers; empty cells are missing scores).  ``.tsv``
    is tab-separated, ``.csv`` comma-separated.  The same statistics apply as to a results folder, so
    published per-model tables can be re-analysed."""
    import pandas as pd

    from mteb_evalrank.data.tables import number_columns, parse_bool_cell, read_strict_table

    path = Path(path)
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    what = "score table"
    # strict: repeated columns or models, short or long rows, no rows: errors with the line; the unnamed first
    # column pandas writes (the study's scores.csv) is the model column
    table = read_strict_table(path, what=what, sep=sep, key="model", index_name="model")
    lower = [h.lower() for h in table.header]
    header = [h.lower() if h.lower() in GROUP_COLUMNS else h for h in table.header]
    models = table.column("model")
    group_cols = [c for c in GROUP_COLUMNS if c in lower]
    groups = pd.DataFrame(
        {c: [cells[lower.index(c)] for _, cells in table.rows] for c in group_cols},
        index=pd.Index(models, name="model"),
        dtype=object,
    )
    if "floor" in groups:
        groups["floor"] = [
            bool(parse_bool_cell(cells[lower.index("floor")], path=path, what=what, line=line, column="floor"))
            for line, cells in table.rows
        ]
    named = [table.header[i] for i, col in enumerate(header) if col != "model" and col not in GROUP_COLUMNS]
    # one reading of every cell (data.tables.number_columns): 1_000 or Arabic-Indic digits are refused, a
    # column of text (notes) is left out with one warning, and refused when a command names it as a score
    scores, text = number_columns(table, named, what=what)
    if text:
        import warnings

        from mteb_evalrank.errors import EvalRankWarning

        shown = ", ".join(f"{c!r} (line {line}: {cell[:30]!r})" for c, (line, cell) in text.items())
        warnings.warn(
            EvalRankWarning(f"{what} {path}: column(s) {shown} hold text, not numbers; left out of the scores."),
            stacklevel=2,
        )
    if not scores:
        raise InputError(f"{what} {path} has no score column besides {', '.join(['model', *group_cols])}.")
    frame = pd.DataFrame(scores, index=np.asarray(models, dtype=object))
    frame.attrs["text_columns"] = text
    return frame, groups


def table_scores(frame: pd.DataFrame, names: Sequence[str], path: str | Path) -> pd.DataFrame:
    """The named columns of a score table; an unknown name raises with close matches, and so does a column of
    text (:func:`read_score_table` left it out)."""
    text = frame.attrs.get("text_columns", {})
    named_text = next((n for n in names if n in text), None)
    if named_text is not None:
        line, cell = text[named_text]
        raise InputError(
            f"score table {path}: column {named_text!r} holds text, not scores (line {line}: {cell[:30]!r}); "
            "name a column of numbers."
        )
    missing = [n for n in names if n not in frame.columns]
    if missing:
        close = difflib.get_close_matches(missing[0], list(frame.columns), n=4, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f" (columns: {', '.join(frame.columns)})"
        raise InputError(f"score table {path} has no column {missing[0]!r}{hint}")
    return frame[list(dict.fromkeys(names))].sort_index()


__all__ = [
    "GROUP_COLUMNS",
    "REVISION_POLICIES",
    "SPLIT_PREFERENCE",
    "TABLE_SUFFIXES",
    "ResultIdentity",
    "ResultsFolder",
    "ScoreName",
    "ScoreSource",
    "ScoreTable",
    "available_names",
    "check_entry_scores",
    "check_score_range",
    "check_stored_score",
    "choose_revisions",
    "is_primary",
    "is_score_table",
    "missing_value",
    "model_name_from_folder",
    "open_score_source",
    "read_results_folder",
    "read_score",
    "read_score_table",
    "read_standard_error",
    "result_identity",
    "revision_labels",
    "score_matrix",
    "table_scores",
    "task_result_files",
]
