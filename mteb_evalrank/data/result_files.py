"""The one reader of MTEB results folders (standard library only): walking them, whose result a file is, and
``model_meta.json``.

MTEB writes ``<folder>/results/<org>__<model>/<revision>/<Task>.json`` (runs with model options:
``.../<revision>/experiments/<experiment>/<Task>.json``) with ``model_meta.json`` (and ``run_settings.jsonl``)
next to it.  This module is the one place that knows that layout:

- :func:`walk_result_files` — every result file below a folder, both layouts, regular files only (a FIFO or a
  socket is skipped with a warning), ``model_meta.json``, run settings and hidden files left out;
  :func:`revision_folders` — the revision folders that hold a result; :func:`has_result`;
- :func:`read_model_meta` — a revision folder's ``model_meta.json``, *strict* (one-line :class:`InputError`
  naming the file and what is wrong, as the leaderboards and the submission need) or *lenient* (``None`` when
  absent or unreadable, as the reports need);
- :func:`result_identity` — model, revision (and experiment) of a result file: ``model_meta.json`` wins, else
  the folder names.

Every report, the leaderboards, the submission, ``compare`` and the study use these; ``tests/test_layers.py``
fails on a ``model_meta.json`` literal or a result-folder glob anywhere else.  Which tasks are the plugin's is
:func:`mteb_evalrank.integration.task_lookup.is_plugin_task` (the task registry is above this layer).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from mteb_evalrank.data.result_layout import MODEL_META, NOT_RESULTS, RUN_SETTINGS
from mteb_evalrank.errors import InputError


def model_name_from_folder(folder_name: str) -> str:
    """The model name MTEB filed under ``folder_name``: ``org__model`` → ``org/model`` (first ``__`` only)."""
    return str(folder_name).replace("__", "/", 1)


class ResultIdentity(NamedTuple):
    """Whose result a file is: ``model`` (``org/model``), ``revision`` and, for MTEB's experiments layout,
    the ``experiment`` folder name."""

    model: str
    revision: str
    experiment: str | None = None

    @property
    def label(self) -> str:
        """``model``, or ``model [experiment]`` for a run with model options."""
        return f"{self.model} [{self.experiment}]" if self.experiment else self.model


def result_identity(path: str | Path) -> ResultIdentity:
    """Model, revision (and experiment) of the result file ``path``.

    ``name`` and ``revision`` of ``model_meta.json`` next to the file win; otherwise the folder names:
    ``<org>__<model>/<revision>/<Task>.json`` or ``<org>__<model>/<revision>/experiments/<experiment>/<Task>.json``.
    A ``model_meta.json`` that cannot be read or is not a JSON object is warned about (the folder names are
    used); one whose ``name`` or ``revision`` is not a name (a number, a list, ``../x``, a line break) raises
    :class:`InputError` naming the file and the key: whose results these are is unknown.
    """
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    path = Path(path)
    experiment = None
    rev_dir = path.parent
    if path.parent.parent.name == "experiments":
        experiment, rev_dir = path.parent.name, path.parent.parent.parent
    name, revision = model_name_from_folder(rev_dir.parent.name), rev_dir.name
    try:
        data = read_model_meta(path.parent, strict=True, mteb_shape=False)
    except InputError as exc:
        warnings.warn(EvalRankWarning(f"{exc}; using the folder names ({name}, {revision})"), stacklevel=2)
        data = None
    if data is not None:
        meta = Path(path.parent) / MODEL_META
        check_meta_name(meta, "name", data.get("name"))
        check_meta_name(meta, "revision", data.get("revision"))
        name = str(data.get("name") or name)
        revision = str(data.get("revision") or revision)
    return ResultIdentity(name, revision, experiment)


def check_meta_name(meta: Path, key: str, value: object) -> None:
    """``name`` / ``revision`` of a ``model_meta.json``: ``None`` or a name that can be a model folder
    (``org/name``: no ``.`` or ``..`` part, no leading ``/``, no backslash, line break or control character);
    anything else raises :class:`InputError` naming the file and the key."""
    if value is None:
        return
    problem = None
    if not isinstance(value, str):
        problem = f"a JSON {type(value).__name__}, not a string"
    elif any(ord(ch) < 32 or ord(ch) == 127 for ch in value) or "\\" in value:
        problem = "a line break, control character or backslash"
    elif key == "name" and (
        value.startswith("/") or any(part in (".", "..") for part in value.split("/")) or not value.strip()
    ):
        problem = "a path, not an 'org/name'"
    elif key == "revision" and ("/" in value or value in (".", "..")):
        problem = "a path, not a revision"
    if problem:
        raise InputError(
            f"{meta}: malformed {MODEL_META} ('{key}' is {json.dumps(value)[:60]}: {problem}); fix it, or move "
            "its model folder out of the results folder."
        )


def read_model_meta(revision_folder: str | Path, *, strict: bool = False, mteb_shape: bool = True) -> dict | None:
    """The JSON object of ``revision_folder/model_meta.json`` (``None`` when there is none).

    ``strict``: checked as MTEB reads it (``ResultCache._get_model_name_and_revision_from_path``): a JSON object
    with a ``name`` (``org/name``) and a ``revision`` (string or null); anything else is a one-line
    :class:`InputError` naming the file and the problem (MTEB's own loader stops with a traceback on such a
    file); ``mteb_shape=False`` only asks for a readable JSON object (the writer merging into the file).
    Lenient: ``None`` when it cannot be read or is not a JSON object."""
    path = Path(revision_folder) / MODEL_META
    if not path.exists():
        return None
    from mteb_evalrank.data.files import read_bytes

    fix = "fix it, or move its model folder out of the results folder"
    try:
        meta = json.loads(read_bytes(path, what="model metadata file").decode("utf-8"))
    except UnicodeDecodeError as exc:
        if not strict:
            return None
        raise InputError(f"{path}: malformed {MODEL_META} (not UTF-8 text: {exc.reason}); {fix}") from None
    except json.JSONDecodeError as exc:
        if not strict:
            return None
        raise InputError(
            f"{path}: malformed {MODEL_META} (not JSON: {exc.msg}, line {exc.lineno} column {exc.colno}); {fix}"
        ) from None
    except (OSError, InputError) as exc:
        if not strict:
            return None
        if isinstance(exc, InputError):
            raise
        raise InputError(f"{path}: cannot read {MODEL_META} ({exc.strerror or exc})") from None
    if not strict:
        return meta if isinstance(meta, dict) else None
    problem = None
    if not isinstance(meta, dict):
        problem = f"a JSON {type(meta).__name__}, not an object"
    elif not mteb_shape:
        pass
    elif not isinstance(meta.get("name"), str) or "/" not in meta["name"]:
        problem = f"'name' must be an 'org/name' string, not {meta.get('name')!r}"
    elif "revision" not in meta or not (meta["revision"] is None or isinstance(meta["revision"], str)):
        problem = (
            "no 'revision'" if "revision" not in meta else f"'revision' must be a string, not {meta['revision']!r}"
        )
    if problem:
        raise InputError(f"{path}: malformed {MODEL_META} ({problem}); {fix}")
    return meta


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def check_result_json(path: str | Path) -> dict:
    """The JSON object of the result file ``path``, checked for the shape every reader needs, before MTEB's
    ``TaskResult`` reads it: UTF-8 JSON (no byte-order mark, no key twice in one object: ``json`` would keep
    the last silently), an object whose ``scores`` map each split to a list of objects with a string
    ``hf_subset``, an ``evaluation_time`` that is a number of seconds ≥ 0 (or null), and whose ``task_name`` is
    the file's name (a result is matched by its file name).  MTEB
    1.x files (``mteb_dataset_name``, no ``scores``) are left to ``TaskResult``'s own conversion.  Anything
    else raises :class:`InputError` naming the file and the key (a results walk skips the file with it)."""
    from mteb_evalrank.data.files import read_bytes

    path = Path(path)
    data = read_bytes(path, what="result file")
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError(f"{path}: a byte-order mark before the JSON (MTEB writes none); remove it.")
    try:
        obj = json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicate_keys)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}).") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply.") from None
    except ValueError as exc:  # JSONDecodeError, and the duplicate keys above
        raise InputError(f"{path}: not valid JSON ({exc}).") from None
    if not isinstance(obj, dict):
        raise InputError(f"{path}: a JSON {type(obj).__name__}, not a result object.")
    if "scores" not in obj and "mteb_dataset_name" in obj:
        return obj  # MTEB 1.x
    if obj.get("task_name") != path.stem:
        raise InputError(
            f"{path}: task_name is {json.dumps(obj.get('task_name'))[:60]}, not {path.stem!r} (the file's name)."
        )
    seconds = obj.get("evaluation_time")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < float("inf")
    ):
        raise InputError(f"{path}: evaluation_time is {json.dumps(seconds)[:40]}, not a number of seconds ≥ 0.")
    scores = obj.get("scores")
    if not isinstance(scores, dict):
        raise InputError(f"{path}: 'scores' is a JSON {type(scores).__name__}, not an object of splits.")
    for split, entries in scores.items():
        if not isinstance(entries, list):
            raise InputError(f"{path}: scores.{split} is a JSON {type(entries).__name__}, not a list of subsets.")
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise InputError(f"{path}: scores.{split}[{i}] is a JSON {type(entry).__name__}, not an object.")
            if "hf_subset" in entry and not isinstance(entry["hf_subset"], str):
                raise InputError(f"{path}: scores.{split}[{i}].hf_subset is not a string.")
    return obj


def results_root(folder: str | Path) -> Path:
    """``folder/results`` when it is a folder (an ``--output-folder`` of ``mteb run``), else ``folder``."""
    folder = Path(folder)
    return folder / "results" if (folder / "results").is_dir() else folder


def _is_result_path(path: Path, root: Path) -> bool:
    """Whether ``path`` sits where MTEB files a result: ``<model>/<revision>/<Task>.json`` or
    ``<model>/<revision>/experiments/<experiment>/<Task>.json`` below ``root``, and is not metadata."""
    if path.name in NOT_RESULTS or path.name.startswith(".") or path.suffix != ".json":
        return False
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    return len(parts) >= 3


def walk_result_files(
    folder: str | Path, *, task: str | None = None, exact_root: bool = False, special: str = "warn"
) -> list[Path]:
    """Every result file below ``folder`` (its ``results/`` sub-folder when it has one, unless ``exact_root``),
    in both of MTEB's layouts, sorted; only ``task``'s when given.  Only regular files are returned (anything
    else is skipped with a warning naming it, or with ``special="error"`` refused with an :class:`InputError`
    naming it: for callers that hand the folder to MTEB's own loader, which would open it); ``model_meta.json``
    and hidden files are left out.  A missing ``folder`` gives an empty list (the caller says what to run)."""
    from mteb_evalrank.data.files import regular_files, special_file_kind

    root = Path(folder) if exact_root else results_root(folder)
    if not root.is_dir():
        return []
    pattern = f"{task}.json" if task else "*.json"
    candidates = [p for p in sorted(root.rglob(pattern)) if _is_result_path(p, root)]
    if special == "error":
        for path in candidates:
            kind = special_file_kind(path)
            if kind is not None:
                raise InputError(
                    f"{path} is {kind}, not a result file; MTEB's own loader reads every result file of the folder: "
                    "move it out of the results folder."
                )
    return regular_files(candidates, what="result file")


def revision_folders(folder: str | Path, *, exact_root: bool = False) -> list[Path]:
    """The revision folders (``<model>/<revision>``, experiments folded into their revision) that hold at least
    one result file, sorted."""
    out: dict[Path, None] = {}
    for path in walk_result_files(folder, exact_root=exact_root):
        rev = path.parent.parent.parent if path.parent.parent.name == "experiments" else path.parent
        out.setdefault(rev, None)
    return sorted(out)


def has_result(model_folder: str | Path, task: str, *, revision: str | None = None) -> bool:
    """Whether ``model_folder`` (``<org>__<model>``) holds a ``task`` result of ``revision`` (default: any
    revision), directly or in an experiment."""
    root = Path(model_folder)
    rev = revision if revision is not None else "*"
    patterns = (f"{rev}/{task}.json", f"{rev}/experiments/*/{task}.json")
    return any(p.is_file() for pattern in patterns for p in root.glob(pattern))


def task_result_files(folder: str | Path, task: str) -> list[Path]:
    """Every ``<task>.json`` below ``folder`` (or ``folder`` itself when it is a file), sorted; a missing
    ``folder`` raises :class:`InputError` (no file found: an empty list, the caller says what to run)."""
    root = Path(folder)
    if not root.exists():
        raise InputError(f"{root} does not exist.")
    from mteb_evalrank.data.files import check_regular_file, regular_files

    if not root.is_dir():
        return [check_regular_file(root, what="result file")]
    return regular_files(sorted(root.rglob(f"{task}.json")), what="result file")


__all__ = [
    "MODEL_META",
    "RUN_SETTINGS",
    "ResultIdentity",
    "check_meta_name",
    "check_result_json",
    "has_result",
    "model_name_from_folder",
    "read_model_meta",
    "result_identity",
    "results_root",
    "revision_folders",
    "task_result_files",
    "walk_result_files",
]
