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

import os
from pathlib import Path
from typing import Any

from mteb import ResultCache

from mteb_evalrank.data.files import file_lock, output_dir
from mteb_evalrank.errors import ResultsNotSavedError

LOCK_FILE = ".mteb-evalrank.lock"


class SafeResultCache(ResultCache):
    """A :class:`mteb.ResultCache` with atomic, inter-process-locked saves (see the module docstring)."""

    _redirect: Path | None = None

    def __init__(self, cache_path: Path | str | None = None, *, keep_unsaved: bool = False) -> None:
        super().__init__(cache_path)
        self.keep_unsaved = keep_unsaved
        #: results whose save failed (``keep_unsaved=True``): target path -> (TaskResult, reason)
        self.unsaved: dict[Path, tuple[Any, str]] = {}

    def get_task_result_path(self, *args: Any, **kwargs: Any) -> Path:  # noqa: D102
        if self._redirect is not None:
            return self._redirect
        return super().get_task_result_path(*args, **kwargs)

    def save_to_cache(self, task_result, model_name, model_revision=None, *, encode_kwargs=None) -> None:  # noqa: D102
        target = super().get_task_result_path(
            task_name=task_result.task_name, model_name=model_name, model_revision=model_revision
        )
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with file_lock(self.cache_path / LOCK_FILE):
                self._redirect = tmp
                try:
                    super().save_to_cache(task_result, model_name, model_revision, encode_kwargs=encode_kwargs)
                    os.replace(tmp, target)
                finally:
                    self._redirect = None
                    try:
                        tmp.unlink(missing_ok=True)
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
