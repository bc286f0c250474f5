"""One task result of one model, as every report, leaderboard, ``compare``, ``ranks`` and the study read it.

MTEB files a result as ``<folder>/results/<org>__<model>/<revision>/<Task>.json`` (a run with model options:
``.../<revision>/experiments/<experiment>/<Task>.json``) with ``model_meta.json`` and ``run_settings.jsonl``
beside it, and the plugin adds ``<Task>.items.npz`` (per-item values).  A :class:`ResultRecord` is one
(model, revision, experiment, task, split, subset) entry of such a file, with everything a consumer needs, so
that no consumer opens a result JSON, ``model_meta.json`` or ``run_settings.jsonl`` itself.

One headline per task (:mod:`mteb_evalrank.data.result_layout`): the plugin's tasks have one subset
``default`` whose ``main_score`` is the paper's figure; the parts (source datasets, sub-datasets, edit types)
are in ``parts``, never separate records.

The fields are fixed here first, so that the reader, the reports and the rank intervals agree on them.
"""

from __future__ import annotations

import functools
import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard, cast

from mteb_evalrank.data.result_layout import BREAKDOWN_KEYS, RUN_SETTINGS
from mteb_evalrank.errors import EvalRankWarning, InputError


@dataclass(frozen=True)
class RunSettings:
    """The settings of the run that wrote a result (the newest line of ``run_settings.jsonl`` naming its task).

    ``problem`` names a line that could not be read (one policy for every consumer: reports skip and list it,
    ``prepare-submission`` refuses)."""

    values: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    #: added with the reader: every line of the file, in file order (MTEB merges one line per settings), and the
    #: file itself (``None`` when the result has none beside it)
    lines: tuple[dict[str, Any], ...] = ()
    path: Path | None = None


@dataclass(frozen=True)
class Uncertainty:
    """The sampling uncertainty of a record's scores: ``se[metric]``, ``ci[metric] = (low, high)`` as stored by
    the task (``<metric>_se``, ``<metric>_ci_low``/``_ci_high``), else the formula of
    :mod:`mteb_evalrank.metrics.sampling_error`; ``items_path`` is the per-item values file, when there is one."""

    se: dict[str, float] = field(default_factory=dict)
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    items_path: Path | None = None


@dataclass(frozen=True)
class ResultRecord:
    """One scored entry of one result file.

    - ``model``, ``revision``: from ``model_meta.json``, else the folder names (``org__model`` → ``org/model``);
    - ``experiment``: the experiments-layout folder name, or ``None``; ``label`` names model and experiment;
    - ``task``: the file name (never what the file says inside), ``split``, ``subset`` (``hf_subset``);
    - ``scores``: the entry's scores without its breakdown; ``main_score`` = ``scores["main_score"]``;
    - ``main_metric``: the task's main metric name when the entry names it, else ``None``;
    - ``parts``: breakdown part name → that part's scores (EvalRank's sources, STS12-16's sub-datasets, HEROS's
      edit types); empty for a task without parts;
    - ``uncertainty``, ``run_settings``, ``model_meta`` (the checked dict or ``None``), ``path``, ``mtime``.
    """

    model: str
    revision: str
    experiment: str | None
    task: str
    split: str
    subset: str
    scores: dict[str, Any]
    main_metric: str | None
    parts: dict[str, dict[str, Any]]
    uncertainty: Uncertainty
    run_settings: RunSettings
    model_meta: dict[str, Any] | None
    path: Path
    mtime: float
    #: added with the reader: the nested key ``parts`` were read from (:data:`~mteb_evalrank.data.result_layout.
    #: BREAKDOWN_KEYS`), ``None`` for an entry without parts
    breakdown_key: str | None = None

    @property
    def main_score(self) -> float | None:
        """The entry's ``main_score`` (the number MTEB shows for a one-subset task)."""
        value = self.scores.get("main_score")
        return float(value) if isinstance(value, (int, float)) else None

    @property
    def label(self) -> str:
        """``model`` or ``model [experiment]``: a run with model options is its own model in every report."""
        return f"{self.model} [{self.experiment}]" if self.experiment else self.model

    @property
    def entry(self) -> dict[str, Any]:
        """The score entry as the result file holds it: ``scores`` with ``parts`` under their breakdown key."""
        return {**self.scores, self.breakdown_key: self.parts} if self.breakdown_key else dict(self.scores)


@dataclass
class RecordSet:
    """What :func:`read_records` read: ``records`` (file order, then split and subset order), ``skipped``
    (``(path, reason)`` of result files that could not be read), ``problems`` (``(path, reason)`` of a
    ``model_meta.json`` or ``run_settings.jsonl`` that was not used: the records carry ``None`` /
    :attr:`RunSettings.problem` instead) and ``warnings`` (every message the reader warned)."""

    records: list[ResultRecord] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def files(self) -> dict[Path, list[ResultRecord]]:
        """The records by result file, in reading order."""
        out: dict[Path, list[ResultRecord]] = {}
        for record in self.records:
            out.setdefault(record.path, []).append(record)
        return out

    def scores_by_file(self) -> dict[Path, dict[str, list[dict[str, Any]]]]:
        """Each file's ``scores`` as MTEB's ``TaskResult.scores`` holds them: split -> entries."""
        out: dict[Path, dict[str, list[dict[str, Any]]]] = {}
        for record in self.records:
            out.setdefault(record.path, {}).setdefault(record.split, []).append(record.entry)
        return out


@dataclass(frozen=True)
class FolderFiles:
    """What one folder holding results says about them (:func:`read_folder_files`): its ``model_meta.json``
    (``meta`` is ``None`` when it is absent or not used; ``meta_problem`` says why) and its
    ``run_settings.jsonl`` (:func:`read_run_settings`)."""

    folder: Path
    meta: dict[str, Any] | None
    meta_problem: str | None
    settings_lines: tuple[dict[str, Any], ...]
    settings_problem: str | None
    settings_path: Path | None

    @property
    def meta_path(self) -> Path:
        """The folder's ``model_meta.json`` (whether or not it exists)."""
        from mteb_evalrank.data.result_files import MODEL_META

        return self.folder / MODEL_META


def read_run_settings(folder: Path) -> tuple[tuple[dict[str, Any], ...], str | None, Path | None]:
    """``(lines, problem, path)`` of ``folder/run_settings.jsonl``: every non-blank line as a JSON object, in
    file order; ``problem`` names the first line that is not one (or why the file cannot be read), and then no
    line is used; ``path`` is ``None`` when there is no such file."""
    from mteb_evalrank.data.files import read_text

    path = Path(folder) / RUN_SETTINGS
    if not path.exists():
        return (), None, None
    try:
        text = read_text(path, what="run settings file")
    except InputError as exc:
        return (), str(exc).removeprefix(f"{path}: "), path
    lines: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            msg = getattr(exc, "msg", "nested too deeply")
            return (), f"{RUN_SETTINGS} line {number} is not JSON ({msg})", path
        if not isinstance(entry, dict):
            return (), f"{RUN_SETTINGS} line {number} is not a JSON object", path
        lines.append(entry)
    return tuple(lines), None, path


def read_folder_files(folder: Path) -> FolderFiles:
    """The ``model_meta.json`` and ``run_settings.jsonl`` of one folder holding results, each read once with the
    reader's one policy (see :func:`read_records`): a ``model_meta.json`` of the wrong shape, or naming another
    model than its folder (:func:`~mteb_evalrank.data.result_files.meta_folder_problem`), is not used
    (``meta_problem`` says why)."""
    from mteb_evalrank.data.result_files import MODEL_META, meta_folder_problem, read_model_meta

    try:
        meta = read_model_meta(folder, strict=True, mteb_shape=False)
        meta_problem = None
    except InputError as exc:
        meta, meta_problem = None, str(exc)
    other = meta_folder_problem(meta, folder)  # a meta naming another model than its folder: not used either
    if other is not None:
        meta, meta_problem = None, f"{Path(folder) / MODEL_META}: {other}"
    lines, problem, path = read_run_settings(folder)
    return FolderFiles(Path(folder), meta, meta_problem, lines, problem, path)


def record_identity(path: Path, meta: dict[str, Any] | None) -> tuple[str, str, str | None]:
    """Model, revision and experiment of the result file ``path``: ``model_meta.json`` wins, else the folders."""
    from mteb_evalrank.data.result_files import model_name_from_folder

    experiment = None
    rev_dir = path.parent
    if path.parent.parent.name == "experiments":
        experiment, rev_dir = path.parent.name, path.parent.parent.parent
    name, revision = model_name_from_folder(rev_dir.parent.name), rev_dir.name
    if meta is not None:
        name = str(meta.get("name") or name)
        revision = str(meta.get("revision") or revision)
    return name, revision, experiment


def _number(value: Any) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def entry_standard_error(entry: dict[str, Any], key: str) -> float | None:
    """The sampling standard error of one stored score: the ``<key>_se`` the entry holds (EvalRank, HEROS, N2O:
    :mod:`mteb_evalrank.metrics.score_uncertainty`; for ``main_score``, that of the metric it equals), else the
    formula of :mod:`mteb_evalrank.metrics.sampling_error` (accuracy: binomial over ``ntest``; STS Spearman:
    Fieller over ``num_pairs``; EvalRank MRR/Hits: the [0, 1] bound over ``num_pairs / 2``), else ``None``."""
    import math

    from mteb_evalrank.integration.score_table import standard_error
    from mteb_evalrank.metrics.sampling_error import binomial_se, bounded_mean_se, spearman_se

    value = entry.get(key)
    if not _number(value) or not math.isfinite(value):
        return None
    stored = standard_error(entry, key)  # computed from the per-item values when the task ran
    if stored is not None and math.isfinite(stored):
        return stored
    main = entry.get("main_score")
    if "ntest" in entry and key in ("main_score", "accuracy", "acc") and 0 <= value <= 1:
        return binomial_se(float(value), int(entry["ntest"]))
    n = entry.get("num_pairs")
    if not isinstance(n, (int, float)) or n <= 0:
        return None
    if "cosine_spearman" in entry and (
        key == "cosine_spearman" or (key == "main_score" and main == entry["cosine_spearman"])
    ):
        return spearman_se(float(value), int(n))
    if "mrr" in entry and (
        key.removeprefix("l2_") in ("mrr", "hits_at_1", "hits_at_3", "hits_at_10")
        or (key == "main_score" and main == entry["mrr"])
    ):
        return bounded_mean_se(float(value), max(int(n) // 2, 1))  # both directions of each pair: n / 2 items
    return None


def uncertainty_of(scores: dict[str, Any], items_path: Path | None = None) -> Uncertainty:
    """The uncertainty of an entry's ``scores``: ``se`` of every score :func:`entry_standard_error` answers
    (stored ``<metric>_se``, else the formula), ``ci`` as stored (``<metric>_ci_low``/``_ci_high``)."""
    se = {}
    for key in scores:
        if not key.endswith(("_se", "_ci_low", "_ci_high")):
            value = entry_standard_error(scores, key)
            if value is not None:
                se[key] = value
    ci = {}
    for key, low in scores.items():
        if key.endswith("_ci_low") and _number(low):
            metric = key.removesuffix("_ci_low")
            high = scores.get(f"{metric}_ci_high")
            if _number(high):
                ci[metric] = (float(low), float(high))
    return Uncertainty(se=se, ci=ci, items_path=items_path)


def _main_metric(scores: dict[str, Any]) -> str | None:
    """The metric an entry's ``main_score`` is: a ``main_metric`` the entry names, else the first other score
    equal to it (``mrr`` for EvalRank, ``cosine_spearman`` for STS), else ``None``."""
    named = scores.get("main_metric")
    if isinstance(named, str):
        return named
    main = scores.get("main_score")
    if not _number(main):
        return None
    skip = ("_se", "_ci_low", "_ci_high")
    return next(
        (k for k, v in scores.items() if k != "main_score" and not k.endswith(skip) and _number(v) and v == main),
        None,
    )


def _entry_records(
    path: Path, scores: dict[str, list[dict[str, Any]]], common: dict[str, Any]
) -> Iterator[ResultRecord]:
    from mteb_evalrank.data.result_layout import entry_parts

    for split, entries in scores.items():
        for entry in entries:
            key = next((k for k in BREAKDOWN_KEYS if isinstance(entry.get(k), dict)), None)
            parts = {name: dict(values) for k, name, values in entry_parts(entry) if k == key}
            own = {k: v for k, v in entry.items() if k not in BREAKDOWN_KEYS}
            yield ResultRecord(
                split=split,
                subset=str(entry.get("hf_subset", "default")),
                scores=own,
                main_metric=_main_metric(own),
                parts=parts,
                uncertainty=uncertainty_of(own, common["items"]),
                breakdown_key=key,
                **{k: v for k, v in common.items() if k != "items"},
            )


@functools.cache
def task_question(task: str) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """The evaluation splits and subsets of the registered task ``task`` (its metadata's ``eval_splits`` and
    ``hf_subsets``; an aggregate task's ``default`` too, as MTEB's ``validate_and_filter_scores`` reads it): what
    the task's score is a score of.  ``None`` for a task MTEB does not know (nothing to check against)."""
    from mteb_evalrank import mteb_internals

    try:
        import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

        cls = mteb_internals.task_registry().get(task)
        metadata = getattr(cls, "metadata", None)
        splits = tuple(str(s) for s in (getattr(metadata, "eval_splits", None) or ()))
        subsets = {str(s) for s in (getattr(metadata, "hf_subsets", None) or ())}
    except Exception:  # an MTEB whose task metadata reads otherwise: nothing to check against
        return None
    if not splits or not subsets:
        return None
    if any(c.__name__ == "AbsTaskAggregate" for c in getattr(cls, "__mro__", ())):
        subsets.add("default")
    return splits, frozenset(subsets)


def unanswered_problem(task: str, scores: dict[str, Any]) -> str | None:
    """Why the ``scores`` (split -> entries) of a ``task`` result file are not the task's score, or ``None``: no
    entry is of one of the task's evaluation splits and one of its subsets (:func:`task_question`; a validation
    split only, a subset the task does not have).  The one rule of every results reader (the records, ``report``):
    such a file answers another question, and is skipped with a warning naming it (``prepare-submission`` asks
    more, every evaluation split and subset, as the results repository does: MTEB's
    ``get_missing_evaluations``).  A plugin task's file in the layout before one-headline results (the headline
    subset ``all``, HEROS's edit subsets: ``migrate-results`` converts it) answers its evaluation split."""
    from mteb_evalrank.data.result_layout import LEGACY_HEADLINE_SUBSET

    question = task_question(task)
    if question is None or not isinstance(scores, dict):
        return None
    splits, subsets = question
    held = [
        (str(split), str(entry.get("hf_subset", "default")))
        for split, entries in scores.items()
        if isinstance(entries, list)
        for entry in entries
        if isinstance(entry, dict)
    ]
    if any(split in splits and subset in subsets for split, subset in held):
        return None
    asked = {split: entries for split, entries in scores.items() if split in splits}
    if asked and _legacy_layout(task, asked):
        return None
    if asked and any(s == LEGACY_HEADLINE_SUBSET for split, s in held if split in splits) and _is_plugin(task):
        return None
    wanted = ", ".join(f"{split}/{subset}" for split in splits for subset in sorted(subsets)[:4])
    if not held:
        return f"it holds no score entry, so none of {task}'s evaluation split and subset ({wanted}); re-run the task"
    shown = ", ".join(f"{split}/{subset}" for split, subset in held[:4]) + (" ..." if len(held) > 4 else "")
    return (
        f"it holds scores of {shown}, none of {task}'s evaluation split and subset ({wanted}): not the task's "
        "score; re-run the task"
    )


def _is_plugin(task: str) -> bool:
    from mteb_evalrank.integration.task_lookup import is_plugin_task

    return is_plugin_task(task)


def _legacy_layout(task: str, scores: dict[str, Any]) -> bool:
    """Whether ``scores`` are a plugin task's in the layout before one-headline results (a whole and its parts as
    subsets, HEROS's edit types): :func:`~mteb_evalrank.integration.result_migration.migrate_scores` converts
    them."""
    from mteb_evalrank.integration.result_migration import migrate_scores
    from mteb_evalrank.integration.task_lookup import breakdown_keys

    key = breakdown_keys().get(task)
    try:
        return key is not None and migrate_scores(task, scores, key) is not None
    except (TypeError, KeyError, ValueError):  # entries of another shape: not that layout
        return False


def _result_paths(folder: Path, task: str | None) -> list[Path]:
    """The result files below ``folder`` (the one walk), or ``folder`` itself when it is a result file."""
    from mteb_evalrank.data.files import check_regular_file, special_file_kind
    from mteb_evalrank.data.result_files import walk_result_files

    kind = special_file_kind(folder)
    if kind == "does not exist":
        raise InputError(f"results folder {folder} does not exist.")
    if kind != "a folder":
        return [check_regular_file(folder, what="result file")]
    return walk_result_files(folder, task=task)


def read_records(
    folder: str | Path, *, task: str | None = None, progress: bool = False, mteb_check: bool = True
) -> RecordSet:
    """Every scored entry of every result file below ``folder`` (``task``'s only, when given) as
    :class:`ResultRecord` s: the one reader of results folders.

    ``folder`` is a ResultCache folder (holding ``results/``), the ``results/`` folder itself, or one result
    file.  The walk is :func:`~mteb_evalrank.data.result_files.walk_result_files` (both of MTEB's layouts).  Each
    file is, with ``mteb_check`` (the default), checked by
    :func:`~mteb_evalrank.data.result_files.check_result_json` (the shape, duplicate keys, ``task_name`` = the
    file's name) and read by MTEB's ``TaskResult``: what MTEB and its leaderboard would read; a file holding no
    score of the task's evaluation split and subsets (:func:`unanswered_problem`) is not the task's score.
    Reports that read their own task's fields (HEROS, N2O, ``compare``) pass ``False``: depth-limited JSON whose
    ``scores`` is an object of splits, each a list of objects (what they hold is the consumer's to check).  A file
    that fails is not read: ``skipped`` names it with the reason, and a warning says so.

    Each folder's ``model_meta.json`` and ``run_settings.jsonl`` are read once, with one policy: a
    ``model_meta.json`` that cannot be used leaves ``model_meta`` ``None`` (the folder names stand for the model
    and revision), a ``run_settings.jsonl`` line that is not a JSON object is named in
    :attr:`RunSettings.problem`; both are listed in ``problems`` and warned about once.  The consumer decides:
    the reports skip them, ``prepare-submission`` refuses.  Raises :class:`InputError` only when ``folder`` does
    not exist, or when two folders hold results of one model revision (names differing in case count as one).
    """
    from tqdm.auto import tqdm

    from mteb_evalrank.data.result_files import ModelOwners
    from mteb_evalrank.integration.item_values import items_path as items_file

    folder = Path(folder)
    out = RecordSet()
    folders: dict[Path, FolderFiles] = {}
    owners = ModelOwners()
    paths = _result_paths(folder, task)
    for path in tqdm(paths, desc="reading results", unit="file", disable=not progress, leave=False):
        scores = _read_scores(path, out, mteb_check=mteb_check)
        if scores is None:
            continue
        files = folders.get(path.parent)
        if files is None:
            files = folders[path.parent] = read_folder_files(path.parent)
            _note_problems(out, path.parent, files)
        model, revision, experiment = record_identity(path, files.meta)
        label = f"{model} [{experiment}]" if experiment else model
        owners.claim(label, revision, path.parent)  # two folders of one model revision: refused
        items = items_file(path)
        values: dict[str, Any] = next(
            (line for line in reversed(files.settings_lines) if line.get("task") == path.stem), {}
        )
        common = {
            "model": model,
            "revision": revision,
            "experiment": experiment,
            "task": path.stem,
            "run_settings": RunSettings(
                values=dict(values),
                problem=files.settings_problem,
                lines=files.settings_lines,
                path=files.settings_path,
            ),
            "model_meta": files.meta,
            "path": path,
            "mtime": path.stat().st_mtime,
            "items": items if items.is_file() else None,
        }
        out.records.extend(_entry_records(path, scores, common))
    return out


def _skip(out: RecordSet, path: Path, reason: str, message: str) -> None:
    out.skipped.append((str(path), reason))
    out.warnings.append(message)
    warnings.warn(EvalRankWarning(message), stacklevel=3)


def _note_problems(out: RecordSet, folder: Path, files: FolderFiles) -> None:
    if files.meta_problem is not None:
        path = files.meta_path
        out.problems.append((str(path), files.meta_problem.removeprefix(f"{path}: ")))
        name, revision, _ = record_identity(folder / "x.json", None)
        message = f"{files.meta_problem}; using the folder names ({name}, {revision})"
        out.warnings.append(message)
        warnings.warn(EvalRankWarning(message), stacklevel=3)
    if files.settings_problem is not None:
        out.problems.append((str(files.settings_path), files.settings_problem))
        message = f"{files.settings_path}: run settings not used ({files.settings_problem})"
        out.warnings.append(message)
        warnings.warn(EvalRankWarning(message), stacklevel=3)


#: how a result file that is not JSON is named in ``skipped`` (``mteb_check=False``)
UNREADABLE = "not a readable MTEB result file ("


def _own_fields(path: Path, out: RecordSet) -> dict[str, list[dict[str, Any]]] | None:
    """The ``scores`` of a result file read for a task's own fields (``mteb_check=False``): depth-limited JSON
    (:func:`~mteb_evalrank.json_input.loads_json`), an object whose ``scores`` is an object of splits and whose
    ``task_name``, when it has one, is the file's name; each split's entries that are objects (the consumer checks
    what they hold)."""
    from mteb_evalrank.data.files import read_text
    from mteb_evalrank.data.result_files import task_name_problem
    from mteb_evalrank.json_input import loads_json

    try:
        data = loads_json(read_text(path, what="result file"), source=str(path))
        scores = data.get("scores") if isinstance(data, dict) else None
        problem = task_name_problem(data, path, required=False) if isinstance(data, dict) else None
        if isinstance(scores, dict) and problem is None:
            return {split: _entries(path, split, entries) for split, entries in scores.items()}
        reason = problem or "key scores is missing or not an object; not an MTEB result file"
    except InputError as exc:
        reason = str(exc).removeprefix(f"{path}: ")
    except ValueError as exc:
        reason = f"{UNREADABLE}{type(exc).__name__}: {exc})"
    _skip(out, path, reason, f"skipped {path}: {reason}")
    return None


def _entries(path: Path, split: str, entries: Any) -> list[dict[str, Any]]:
    """A split's entries, each an object: anything else is one :class:`InputError` naming the file and the key."""
    if not isinstance(entries, list):
        raise InputError(f"{path}: key scores.{split} is not a list of score entries.")
    for entry in entries:
        if not isinstance(entry, dict):
            raise InputError(f"{path}: a {split!r} score entry is not an object ({json.dumps(entry)[:60]}).")
        for key in BREAKDOWN_KEYS:  # a part (a HEROS edit) of null or a number was left out without a word
            parts = entry.get(key)
            if not isinstance(parts, dict):
                continue
            bad = next(((n, v) for n, v in parts.items() if not isinstance(v, dict)), None)
            if bad is not None:
                raise InputError(
                    f"{path}: key scores.{split}[].{key}.{bad[0]} is {json.dumps(bad[1])[:40]}, not an object of "
                    "scores; repair or re-run this result."
                )
    return entries


def _read_scores(path: Path, out: RecordSet, *, mteb_check: bool) -> dict[str, list[dict[str, Any]]] | None:
    """The ``scores`` of one result file (``None``, and the file named in ``out.skipped``, when it cannot be read)."""
    from mteb_evalrank.data.result_files import check_result_json

    if not mteb_check:
        return _own_fields(path, out)
    try:
        check_result_json(path)  # the shape, duplicate keys, task_name = file name: InputError naming the key
    except InputError as exc:
        reason = str(exc).removeprefix(f"{path}: ")
        _skip(out, path, reason, f"skipped {path}: {reason}")
        return None
    from mteb.results import TaskResult

    try:
        result = TaskResult.from_disk(path)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}" if str(exc) else type(exc).__name__
        _skip(out, path, reason, f"skipped {path}: not a readable MTEB result ({reason})")
        return None
    if result.task_name != path.stem:  # matched by its file name, never by what it says inside
        reason = f"it holds a result of task {result.task_name}, not {path.stem}"
        _skip(out, path, reason, f"skipped {path}: {reason} (rename or remove the file)")
        return None
    scores = cast("dict[str, list[dict[str, Any]]]", result.scores)
    unanswered = unanswered_problem(path.stem, scores)  # another split or subset than the task's: not its score
    if unanswered is not None:
        _skip(out, path, unanswered, f"skipped {path}: {unanswered}")
        return None
    return scores


__all__ = [
    "FolderFiles",
    "RecordSet",
    "ResultRecord",
    "RunSettings",
    "Uncertainty",
    "entry_standard_error",
    "read_folder_files",
    "read_records",
    "read_run_settings",
    "task_question",
    "unanswered_problem",
    "uncertainty_of",
]
