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
    """
    path = Path(path)
    experiment = None
    rev_dir = path.parent
    if path.parent.parent.name == "experiments":
        experiment, rev_dir = path.parent.name, path.parent.parent.parent
    name, revision = model_name_from_folder(rev_dir.parent.name), rev_dir.name
    data = read_model_meta(path.parent, strict=False)
    if data is not None:
        name = str(data.get("name") or name)
        revision = str(data.get("revision") or revision)
    return ResultIdentity(name, revision, experiment)


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


def walk_result_files(folder: str | Path, *, task: str | None = None, exact_root: bool = False) -> list[Path]:
    """Every result file below ``folder`` (its ``results/`` sub-folder when it has one, unless ``exact_root``),
    in both of MTEB's layouts, sorted; only ``task``'s when given.  Only regular files are returned (anything
    else is skipped with a warning naming it); ``model_meta.json`` and hidden files are left out.  A missing
    ``folder`` gives an empty list (the caller says what to run)."""
    from mteb_evalrank.data.files import regular_files

    root = Path(folder) if exact_root else results_root(folder)
    if not root.is_dir():
        return []
    pattern = f"{task}.json" if task else "*.json"
    candidates = [p for p in sorted(root.rglob(pattern)) if _is_result_path(p, root)]
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
    "has_result",
    "model_name_from_folder",
    "read_model_meta",
    "result_identity",
    "results_root",
    "revision_folders",
    "task_result_files",
    "walk_result_files",
]
