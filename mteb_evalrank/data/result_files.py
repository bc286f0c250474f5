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

from mteb_evalrank.data.result_layout import BREAKDOWN_KEYS, MODEL_META, NOT_RESULTS, RUN_SETTINGS
from mteb_evalrank.errors import InputError
from mteb_evalrank.names import name_key, spelled


def model_name_from_folder(folder_name: str) -> str:
    """The model name MTEB filed under ``folder_name``: ``org__model`` → ``org/model`` (first ``__`` only).  A
    folder name's bytes that are not UTF-8 are written ``\\xNN`` (:func:`~mteb_evalrank.file_names.shown_name`):
    a model name is text every page, chart and line can show."""
    from mteb_evalrank.file_names import shown_name

    return shown_name(folder_name).replace("__", "/", 1)


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
    A ``model_meta.json`` that cannot be read, is not a JSON object, has a key of the wrong shape (a ``name``
    or ``revision`` that is a number, a list, ``../x`` or holds a line break: :func:`model_meta_problem`) or names
    another model than its folder (:func:`meta_folder_problem`) is not used: one warning names the file and the
    key, and the folder names stand for the model and revision.
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
        other = meta_folder_problem(data, path.parent)  # a meta naming another model than its folder: not used
        if other is not None:
            raise InputError(f"{path.parent / MODEL_META}: {other}")
    except InputError as exc:
        warnings.warn(EvalRankWarning(f"{exc}; using the folder names ({name}, {revision})"), stacklevel=2)
        data = None
    if data is not None:
        name = str(data.get("name") or name)
        revision = str(data.get("revision") or revision)
    return ResultIdentity(name, revision, experiment)


#: ``model_meta.json`` keys whose value is a positive whole number or null
POSITIVE_INT_KEYS = ("embed_dim", "n_parameters")
#: ``model_meta.json`` keys whose value is a JSON object or null
OBJECT_KEYS = ("loader_kwargs",)


class ModelOwners:
    """Which folder holds the results of each (model, revision): two folders holding one model revision (also
    under two spellings that :func:`~mteb_evalrank.names.name_key` takes for one name: NFC and NFD, or names
    differing in case) are refused in one line.  The one rule for every reader of a results folder (the records,
    the HTML report, the leaderboards): a report would otherwise show one model twice under names that print
    alike."""

    def __init__(self) -> None:
        self._owners: dict[tuple[str, str | None], tuple[Path, str]] = {}

    def claim(self, label: str, revision: str | None, folder: str | Path) -> None:
        """Record that ``folder`` holds results of ``label`` at ``revision``; :class:`InputError` when another
        folder already does."""
        from mteb_evalrank.names import twin_note

        folder = Path(folder)
        owner, owner_label = self._owners.setdefault((name_key(label), revision), (folder, label))
        if owner != folder:
            note = twin_note(label, owner_label).replace("differing only in case", "names differing in case")
            named = label if owner_label == label else f"{spelled(owner_label)} / {spelled(label)} ({note})"
            raise InputError(
                f"{_printable(owner)} and {_printable(folder)} both hold results of {named} revision {revision} (their "
                "model_meta.json or folder names name the same model and revision); move or remove one of them."
            )


def _printable(path: Path) -> str:
    """``path`` as text, its code points escaped when it is not in NFC (two twin folders then print apart)."""
    import unicodedata

    return str(path) if unicodedata.is_normalized("NFC", str(path)) else spelled(str(path))


def _folder_name_problem(value: str, *, slashes: bool) -> str | None:
    """Why ``value`` (a model name, ``slashes`` allowed, or a revision) cannot name the results folders it
    is filed under, or ``None``: empty, whitespace or a control character, a path character, an empty, ``.`` or
    ``..`` part."""
    if not value:
        return "is empty"
    bad = next((c for c in value if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        return f"holds {bad!r} (whitespace or a control character)"
    if "\\" in value or (not slashes and "/" in value):
        return f"holds {'/' if '/' in value and not slashes else chr(92)!r} (a path character)"
    if any(part in ("", ".", "..") for part in value.split("/")):
        return "has an empty, '.' or '..' part (a path, not a name)"
    return None


def model_meta_problem(meta: object, *, mteb_shape: bool = True) -> str | None:
    """What is wrong with the parsed ``model_meta.json`` ``meta`` (naming the key), or ``None``.

    A JSON object; ``name`` a string that can name a folder (``org/name`` when ``mteb_shape``: what MTEB's
    ``ResultCache`` reads), ``revision`` a string without ``/`` or null (present when ``mteb_shape``);
    ``embed_dim`` and ``n_parameters`` positive whole numbers or null; ``loader_kwargs`` an object or null."""
    if not isinstance(meta, dict):
        return f"a JSON {_json_kind(meta)}, not an object"
    name = meta.get("name")
    if mteb_shape and (not isinstance(name, str) or "/" not in name):
        return f"'name' must be an 'org/name' string, not {_shown(name)}"
    if name is not None:
        if not isinstance(name, str):
            return f"'name' must be a string, not {_shown(name)}"
        problem = _folder_name_problem(name, slashes=True)
        if problem:
            return f"'name' {name!r} {problem}"
    if mteb_shape and "revision" not in meta:
        return "no 'revision'"
    revision = meta.get("revision")
    if revision is not None:
        if not isinstance(revision, str):
            return f"'revision' must be a string, not {_shown(revision)}"
        problem = _folder_name_problem(revision, slashes=False)
        if problem:
            return f"'revision' {revision!r} {problem}"
    for key in POSITIVE_INT_KEYS:
        value = meta.get(key)
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        if value is not None and (isinstance(value, bool) or not whole or value <= 0):
            return f"{key!r} must be a positive whole number or null, not {_shown(value)}"
    for key in OBJECT_KEYS:
        if meta.get(key) is not None and not isinstance(meta[key], dict):
            return f"{key!r} must be an object or null, not {_shown(meta[key])}"
    return None


def _json_kind(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _shown(value: object) -> str:
    """A JSON value as it appears in the file, cut to 40 characters, with its kind."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return f"{_json_kind(value)} {text[:40] + ('…' if len(text) > 40 else '')}"


def read_model_meta(revision_folder: str | Path, *, strict: bool = False, mteb_shape: bool = True) -> dict | None:
    """The JSON object of ``revision_folder/model_meta.json`` (``None`` when there is none).

    Its shape is checked (:func:`model_meta_problem`: ``name`` and ``revision`` strings that can name folders,
    ``embed_dim``/``n_parameters`` positive whole numbers or null, ``loader_kwargs`` an object or null).
    ``strict``: checked as MTEB reads it (``ResultCache._get_model_name_and_revision_from_path``): also a
    ``name`` of the form ``org/name`` and a ``revision`` key; anything wrong is a one-line :class:`InputError`
    naming the file and the key (MTEB's own loader stops with a traceback on such a file); ``mteb_shape=False``
    drops the two MTEB-only requirements (the writer merging into the file).  Lenient: ``None`` when it cannot
    be read or is not JSON; a JSON file of the wrong shape is not used either, with one warning naming the file
    and the key (the folder names stand for the model and revision)."""
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
    except RecursionError:
        if not strict:
            return None
        raise InputError(f"{path}: malformed {MODEL_META} (JSON nested too deeply); {fix}") from None
    problem = model_meta_problem(meta, mteb_shape=mteb_shape and strict)
    if problem and not strict:
        import warnings

        from mteb_evalrank.errors import EvalRankWarning

        warnings.warn(
            f"{path}: {MODEL_META} not used ({problem}); the folder names stand for the model and revision.",
            EvalRankWarning,
            stacklevel=2,
        )
        return None
    if problem:
        raise InputError(f"{path}: malformed {MODEL_META} ({problem}); {fix}")
    return meta if isinstance(meta, dict) else None


def meta_folder_problem(meta: dict | None, folder: str | Path) -> str | None:
    """Why the ``model_meta.json`` ``meta`` of ``folder`` (a revision folder ``<model>/<revision>``, or an
    experiment folder below one) names another model than the folder it sits in, or ``None``.

    MTEB files the results of the model ``name`` under ``name`` with ``/`` as ``__``
    (:func:`~mteb_evalrank.results.folders.model_folder_name`), so a meta naming another model was copied or
    edited in, and which of the two is right cannot be told (names are compared by
    :func:`~mteb_evalrank.names.name_key`: NFC and case, the one name rule).  The one rule of every reader: such a
    meta is not used (:func:`mteb_evalrank.results.record.read_folder_files`), the folder names stand for the
    model and revision, and one warning names the file."""
    from mteb_evalrank.results.folders import model_folder_name

    name = (meta or {}).get("name")
    if not isinstance(name, str) or not name:
        return None
    folder = Path(folder)
    rev_dir = folder.parent.parent if folder.parent.name == "experiments" else folder
    model_dir = rev_dir.parent.name
    expected = model_folder_name(name)
    if name_key(expected) == name_key(model_dir):
        return None
    return (
        f"{MODEL_META} names {name!r}, another model than its folder {model_dir} (MTEB files {name} under {expected})"
    )


#: Largest predictions file read (per-pair ids, gold scores and cosines of one task): 512 MiB.
MAX_PREDICTIONS_BYTES = 512 * 2**20


def read_predictions(path: str | Path) -> tuple[str, dict]:
    """``(model name, data)`` of an MTEB ``<Task>_predictions.json`` (``--prediction-folder``), checked: a JSON
    object whose ``mteb_model_meta`` (if any) is an object with a ``model_name`` string (default: the folder's
    name), and whose every other key (a subset) is an object of splits.  Anything else is one
    :class:`InputError` line naming the file and the key.  The pairs of one subset: :func:`prediction_pairs`."""
    from mteb_evalrank.data.files import read_text

    path = Path(path)
    text = read_text(path, what="predictions file", limit=MAX_PREDICTIONS_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a predictions file (not JSON: {exc.msg}, line {exc.lineno}).") from None
    except RecursionError:
        raise InputError(f"{path}: not a predictions file (JSON nested too deeply).") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a predictions file (a JSON {_json_kind(data)}, expected an object of subsets).")
    meta = data.get("mteb_model_meta")
    if meta is not None and not isinstance(meta, dict):
        raise InputError(f"{path}: key 'mteb_model_meta' must be an object, not {_shown(meta)}.")
    name = (meta or {}).get("model_name")
    if name is None:
        name = path.parent.name
    elif not isinstance(name, str) or not name or any(not c.isprintable() for c in name):
        raise InputError(f"{path}: key 'mteb_model_meta.model_name' must be a printable name, not {_shown(name)}.")
    for subset, splits in data.items():
        if subset == "mteb_model_meta":
            continue
        if not isinstance(splits, dict):
            raise InputError(f"{path}: key {subset!r} must be an object of splits, not {_shown(splits)}.")
    return name, data


def prediction_pairs(data: dict, subset: str, split: str, path: str | Path) -> tuple[list[float], list[float]]:
    """The ``cosine`` and ``gold`` lists of ``subset``/``split`` of predictions read by :func:`read_predictions`:
    two non-empty lists of finite numbers of one length, else one :class:`InputError` line naming the file and
    the key."""
    import math

    entry = (data.get(subset) or {}).get(split) if subset != "mteb_model_meta" else None
    if entry is not None and not isinstance(entry, dict):
        raise InputError(
            f"{path}: key '{subset}.{split}' must be an object with 'cosine' and 'gold', not {_shown(entry)}."
        )
    if not entry or "gold" not in entry or "cosine" not in entry:
        subsets = [k for k in data if k != "mteb_model_meta"]
        raise InputError(
            f"{path}: no {subset}/{split} predictions with gold and cosine (subsets: {', '.join(subsets) or 'none'})."
        )
    cosine, gold = entry["cosine"], entry["gold"]
    ok = all(
        isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
        for v in (cosine, gold)
    )
    if not ok or len(cosine) != len(gold) or not cosine:
        raise InputError(
            f"{path}: {subset}/{split}: 'cosine' and 'gold' must be two lists of numbers of one length, "
            f"got {_json_kind(cosine)} and {_json_kind(gold)}"
            + (
                f" of lengths {len(cosine)} and {len(gold)}"
                if isinstance(cosine, list) and isinstance(gold, list)
                else ""
            )
            + "."
        )
    for key, values in (("cosine", cosine), ("gold", gold)):
        bad = next((i for i, x in enumerate(values) if not math.isfinite(x)), None)
        if bad is not None:
            raise InputError(f"{path}: key '{subset}.{split}.{key}[{bad}]' is {values[bad]}, not a finite number.")
    return [float(x) for x in cosine], [float(x) for x in gold]


def task_name_problem(obj: dict, path: Path, *, required: bool = True) -> str | None:
    """Why the result object ``obj`` of the file ``path`` is not a result of the task its file is named after
    (``N2O.json`` holding ``"task_name": "HEROS"``), or ``None``: a result is matched by its file name, so its
    ``task_name`` must be that name.  Without ``required`` a file without ``task_name`` passes."""
    if not required and "task_name" not in obj:
        return None
    if obj.get("task_name") == path.stem:
        return None
    return f"task_name is {json.dumps(obj.get('task_name'))[:60]}, not {path.stem!r} (the file's name)."


def check_result_json(path: str | Path) -> dict:
    """The JSON object of the result file ``path``, checked for the shape every reader needs, before MTEB's
    ``TaskResult`` reads it: UTF-8 JSON (no byte-order mark, no key twice in one object: ``json`` would keep
    the last silently), an object whose ``scores`` map each split to a list of objects with a string
    ``hf_subset``, an ``evaluation_time`` that is a number of seconds ≥ 0 (or null), and whose ``task_name`` is
    the file's name (a result is matched by its file name).  MTEB
    1.x files (``mteb_dataset_name``, no ``scores``) are left to ``TaskResult``'s own conversion.  Anything
    else raises :class:`InputError` naming the file and the key (a results walk skips the file with it)."""
    from mteb_evalrank.data.files import read_bytes
    from mteb_evalrank.json_input import no_duplicate_keys

    path = Path(path)
    data = read_bytes(path, what="result file")
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError(f"{path}: a byte-order mark before the JSON (MTEB writes none); remove it.")
    try:
        obj = json.loads(data.decode("utf-8"), object_pairs_hook=no_duplicate_keys)
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
    problem = task_name_problem(obj, path)
    if problem is not None:
        raise InputError(f"{path}: {problem}")
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
        first_of: dict[str, int] = {}  # a subset listed twice in one split: which entry is the score?
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise InputError(f"{path}: scores.{split}[{i}] is a JSON {type(entry).__name__}, not an object.")
            if "hf_subset" in entry and not isinstance(entry["hf_subset"], str):
                raise InputError(f"{path}: scores.{split}[{i}].hf_subset is not a string.")
            subset = name_key(entry.get("hf_subset", "default"), casefold=False)
            if subset in first_of:
                raise InputError(
                    f"{path}: scores.{split}[{i}]: subset {spelled(entry.get('hf_subset', 'default'))} is listed "
                    f"again (first as scores.{split}[{first_of[subset]}]); keep one entry."
                )
            first_of[subset] = i
            for key in BREAKDOWN_KEYS:
                parts = entry.get(key)
                if key in entry and (
                    not isinstance(parts, dict) or not all(isinstance(v, dict) for v in parts.values())
                ):
                    raise InputError(f"{path}: scores.{split}[{i}].{key} is not an object of parts, each an object.")
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
    "check_result_json",
    "has_result",
    "meta_folder_problem",
    "model_meta_problem",
    "model_name_from_folder",
    "prediction_pairs",
    "read_model_meta",
    "read_predictions",
    "result_identity",
    "results_root",
    "revision_folders",
    "task_result_files",
    "walk_result_files",
]
