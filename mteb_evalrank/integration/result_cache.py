"""MTEB's result cache, made safe for several runs writing into one results folder at once.

``mteb.ResultCache.save_to_cache`` (MTEB 2.26) writes ``<Task>.json`` in place (``open("w")`` +
``json.dump``), then ``model_meta.json``, then read-merges-writes ``run_settings.jsonl``.  Two runs
saving into one folder at the same moment can interleave those writes, and a run interrupted (Ctrl-C)
during ``json.dump`` leaves a truncated ``<Task>.json`` that the next run cannot load.

:class:`SafeResultCache` changes only how a save is written:

- the task result goes to a temporary file next to the target (``.<Task>.json.<pid>.tmp``), which is
  then renamed over it (``os.replace``): a ``<Task>.json`` is always complete, whether it is read by
  another run or left behind by an interrupted one;
- every save holds an exclusive lock (``<folder>/.mteb-evalrank.lock``, removed again), so ``model_meta.json`` and
  ``run_settings.jsonl`` are written by one run at a time.

``model_meta.json`` is merged, not replaced (:func:`merge_model_meta`): a field the new metadata leaves
empty (``null``, ``[]``, ``{}``, ``""``) keeps what the file holds, so importing SentEval scores (whose
metadata knows only the name and revision) into a model's folder never wipes its licence, dimensions or
loader arguments; a different model under the same name and revision (another embedding dimension or
parameter count) is an error, raised before anything is written.  The file is written like the results,
through a temporary file renamed over it.

What stays MTEB's behaviour: when two runs evaluate the *same* task for the same model, the later save
wins (each run merges with what was on disk when it started).  ``mteb run`` (MTEB's own CLI) uses the
plain ``ResultCache``; run such jobs into different folders.

A folder that cannot be written is refused when the cache is opened (:func:`open_result_cache` tries
to create a file in it).  A save that still fails later (the disk fills up, the mount turns read-only)
raises :class:`~mteb_evalrank.errors.ResultsNotSavedError` naming the file; with ``keep_unsaved=True``
(``mteb-evalrank run``, :func:`mteb_evalrank.run`) the result is kept in :attr:`SafeResultCache.unsaved`
instead and the evaluation goes on, so the caller can print the scores and say what was not written.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from mteb import ResultCache
from mteb.models import ModelMeta

from mteb_evalrank.atomic_files import move_file
from mteb_evalrank.data.files import atomic_write_text, file_lock, output_dir
from mteb_evalrank.data.result_files import MODEL_META as META_FILE
from mteb_evalrank.data.result_layout import RUN_SETTINGS
from mteb_evalrank.errors import InputError, ResultsNotSavedError
from mteb_evalrank.integration import item_values

LOCK_FILE = ".mteb-evalrank.lock"
#: Fields that identify the model itself: two known, different values mean two different models.
IDENTITY_FIELDS = ("embed_dim", "n_parameters", "n_embedding_parameters")


def _unknown(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _same(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b))
    except (TypeError, ValueError):
        return a == b


def merge_model_meta(existing: dict[str, Any] | None, new: dict[str, Any], *, path: Path | str) -> dict[str, Any]:
    """``new`` (a ``ModelMeta.to_dict()``) merged into what ``path`` holds (``existing``): a known field is
    never replaced by an empty one; other new values win.  :class:`InputError` when an identity field
    (:data:`IDENTITY_FIELDS`) is known in both and differs: another model under the same name and revision."""
    if not existing:
        return dict(new)
    conflicts = [
        f"{key} {existing[key]!r} there, {new[key]!r} now"
        for key in IDENTITY_FIELDS
        if not _unknown(existing.get(key)) and not _unknown(new.get(key)) and not _same(existing[key], new[key])
    ]
    if conflicts:
        raise InputError(
            f"{path} describes another model under the name {new.get('name')!r} and revision {new.get('revision')!r} "
            f"({'; '.join(conflicts)}); nothing was written. Use another revision or another output folder."
        )
    merged = dict(existing)
    for key, value in new.items():
        if not _unknown(value) or key not in merged:
            merged[key] = value
    return merged


def read_model_meta_file(path: Path) -> dict[str, Any] | None:
    """The JSON object of a ``model_meta.json``, ``None`` when there is none; unreadable or not an object:
    :class:`InputError` (it is the user's file: never silently replaced).  Read by the results reader
    (:func:`~mteb_evalrank.data.result_files.read_model_meta`)."""
    from mteb_evalrank.data.result_files import read_model_meta

    try:
        return read_model_meta(Path(path).parent, strict=True, mteb_shape=False)
    except InputError as exc:
        raise InputError(f"{str(exc).rstrip('.')}; nothing was written. Repair or move it first.") from None


def check_no_twin_folder(folder: Path) -> None:
    """:class:`InputError` when the results folder already holds ``folder``'s model folder (``<org>__<name>``) or
    revision folder under another spelling of the same name: another case (Hub names are case-insensitive) or
    another Unicode normalisation (``café`` as NFC and as NFD print alike), see :func:`mteb_evalrank.names.name_key`.
    Two such folders would file one model twice."""
    from mteb_evalrank.names import name_key, spelled, twin_note

    folder = Path(folder)
    for own, casefold in ((folder.parent, True), (folder, False)):
        try:
            siblings = [p.name for p in own.parent.iterdir() if p.is_dir()] if own.parent.is_dir() else []
        except OSError:
            continue
        key = name_key(own.name, casefold=casefold)
        twin = next((s for s in siblings if s != own.name and name_key(s, casefold=casefold) == key), None)
        if twin is not None:
            raise InputError(
                f"{own.parent} holds {spelled(twin)} already, and these results would go into {spelled(own.name)}: "
                f"{twin_note(own.name, twin)}; give the name as it is spelled there (nothing was written)."
            )


def check_model_meta(folder: Path, meta: ModelMeta) -> dict[str, Any]:
    """What ``folder/model_meta.json`` will hold after saving results of ``meta`` there (checked, not written); the
    model and revision folders may not be twins of existing ones (:func:`check_no_twin_folder`)."""
    check_no_twin_folder(folder)
    path = Path(folder) / META_FILE
    return merge_model_meta(read_model_meta_file(path), json.loads(json.dumps(meta.to_dict(), default=str)), path=path)


def _shown(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={json.dumps(value)}" for key, value in options.items())


def option_conflict(result: Any, options: dict[str, Any]) -> str | None:
    """How the stored ``result`` (a :class:`mteb.TaskResult`) was scored under other ``options`` than asked
    (``{score key: value}``, :meth:`EncodeOnceTask.score_options`), or ``None`` when every subset of it records
    the options asked.  MTEB's cache knows a result by model, revision and task only; the options that change a
    score (EvalRank's centring and tie rule) are recorded in each subset's scores and checked here.  A subset that
    does not record an option counts as scored under another one."""
    if not options:
        return None
    for split, entries in (getattr(result, "scores", None) or {}).items():
        for entry in entries or ():
            if not isinstance(entry, dict):
                continue
            stored = {key: entry.get(key, "unrecorded") for key in options}
            if stored != options:
                subset = entry.get("hf_subset", "default")
                return f"computed with {_shown(stored)} (split {split}, subset {subset}), not {_shown(options)}"
    return None


def _backup(path: Path, *, copy: bool) -> tuple[Path, Path | None]:
    """``(path, its backup)`` for :func:`_restore`: a hard link (``copy=False``: the file is replaced by a rename,
    never written in place) or a copy (a file written in place); ``None`` when ``path`` does not exist."""
    if not path.is_file():
        return path, None
    backup = path.with_name(f".{path.name}.{os.getpid()}.backup")
    backup.unlink(missing_ok=True)
    try:
        if copy:
            backup.write_bytes(path.read_bytes())
        else:
            os.link(path, backup)
    except BaseException:  # a full disk: no half backup is left behind
        backup.unlink(missing_ok=True)
        raise
    return path, backup


def _restore(path: Path, backup: Path | None) -> None:
    """Put ``path`` back as :func:`_backup` found it (removed when it did not exist)."""
    try:
        if backup is None:
            path.unlink(missing_ok=True)
        else:
            move_file(backup, path)
            backup.unlink(missing_ok=True)  # rename(2) of two links of one file does nothing
    except OSError:
        pass


class SafeResultCache(ResultCache):
    """A :class:`mteb.ResultCache` with atomic, inter-process-locked saves (see the module docstring), and results
    known by their scoring options too (:attr:`score_options`)."""

    _redirect: Path | None = None

    def __init__(self, cache_path: Path | str | None = None, *, keep_unsaved: bool = False) -> None:
        super().__init__(cache_path)
        self.keep_unsaved = keep_unsaved
        #: results whose save failed (``keep_unsaved=True``): target path -> (TaskResult, reason)
        self.unsaved: dict[Path, tuple[Any, str]] = {}
        #: task name -> the options that change its scores, as this run scores it (``{"centered": True, ...}``):
        #: a stored result recording other values is not loaded (MTEB then computes the task again and the new
        #: result replaces the file), and a one-line warning says so
        self.score_options: dict[str, dict[str, Any]] = {}

    def stored_conflict(self, task_name: str, meta: Any) -> tuple[Path, str] | None:
        """``(file, how it differs)`` when the stored result of ``task_name`` for ``meta`` was scored under other
        options than :attr:`score_options` asks; ``None`` when there is none or it matches."""
        options = self.score_options.get(task_name)
        if not options:
            return None
        stored = super().load_task_result(task_name, meta)
        conflict = option_conflict(stored, options) if stored is not None else None
        return (self.get_task_result_path(task_name, meta), conflict) if conflict else None

    def load_task_result(self, task_name: str, model_name: Any, *args: Any, **kwargs: Any):
        result = super().load_task_result(task_name, model_name, *args, **kwargs)
        options = self.score_options.get(task_name)
        conflict = option_conflict(result, options) if result is not None and options else None
        if conflict is None:
            return result
        import warnings

        from mteb_evalrank.errors import EvalRankWarning

        path = self.get_task_result_path(task_name, model_name, kwargs.get("model_revision", args[0] if args else None))
        warnings.warn(
            EvalRankWarning(
                f"{path}: the stored {task_name} result was {conflict}; computing it again, it replaces the file"
            ),
            stacklevel=2,
        )
        return None

    def get_task_result_path(self, *args: Any, **kwargs: Any) -> Path:
        if self._redirect is not None:
            return self._redirect
        return super().get_task_result_path(*args, **kwargs)

    def save_to_cache(self, task_result, model_name, model_revision=None, *, encode_kwargs=None) -> None:
        target = super().get_task_result_path(
            task_name=task_result.task_name, model_name=model_name, model_revision=model_revision
        )
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        meta = model_name if isinstance(model_name, ModelMeta) else None
        # a save that fails midway (a full disk) is undone: the result file and MTEB's run_settings.jsonl (which
        # MTEB rewrites in place) are put back as they were, so "NOT saved" is true and no half group is left
        backups: list[tuple[Path, Path | None]] = []
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with file_lock(self.cache_path / LOCK_FILE):
                merged = check_model_meta(target.parent, meta) if meta is not None else None  # may refuse
                self._redirect = tmp
                try:
                    backups.append(_backup(target.parent / RUN_SETTINGS, copy=True))
                    backups.append(_backup(target, copy=False))
                    # MTEB writes model_meta.json only for a ModelMeta, in place: a name keeps it from doing so,
                    # and the merged metadata is written here (the path comes from the redirect)
                    # (a ModelMeta without a name was refused above, by MTEB's model_name_as_path)
                    name = meta.name if meta is not None and meta.name is not None else model_name
                    revision = (meta.revision or "no_revision_available") if meta is not None else model_revision
                    super().save_to_cache(task_result, name, revision, encode_kwargs=encode_kwargs)
                    move_file(tmp, target)
                    item_values.flush(task_result.task_name, name, revision, target)  # <Task>.items.npz beside it
                    if merged is not None:
                        atomic_write_text(target.parent / META_FILE, json.dumps(merged, default=str, indent=4))
                except BaseException:
                    for path, backup in backups:
                        _restore(path, backup)
                    backups = []
                    raise
                finally:
                    self._redirect = None
                    for path in (tmp, *(backup for _, backup in backups if backup is not None)):
                        try:
                            path.unlink(missing_ok=True)
                        except OSError:
                            pass
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            if not self.keep_unsaved:
                raise ResultsNotSavedError(f"cannot write result file {target}: {reason}.", unsaved=[target]) from exc
            self.unsaved[target] = (task_result, reason)
            return
        self.unsaved.pop(target, None)

    def unsaved_message(self, lead: str = "the scores above are NOT saved") -> str | None:
        """One line naming the result files that could not be written and why; ``None`` if all were."""
        if not self.unsaved:
            return None
        paths = list(self.unsaved)
        reasons = sorted({reason for _, reason in self.unsaved.values()})
        more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
        return (
            f"{lead}: cannot write {len(paths)} result file(s) into {self.cache_path}: "
            f"{paths[0]}{more}: {'; '.join(reasons)}."
        )


def open_result_cache(folder: Path | str, *, keep_unsaved: bool = False) -> SafeResultCache:
    """A :class:`SafeResultCache` on ``folder`` (created); a file in the way, or a folder that cannot be
    written (read-only, no permission), raises ``InputError`` naming it before any work is done."""
    return SafeResultCache(output_dir(Path(folder), what="results folder"), keep_unsaved=keep_unsaved)
