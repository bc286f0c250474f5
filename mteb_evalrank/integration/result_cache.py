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
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mteb import ResultCache

from mteb_evalrank.data.files import file_lock, output_dir

LOCK_FILE = ".mteb-evalrank.lock"


class SafeResultCache(ResultCache):
    """A :class:`mteb.ResultCache` with atomic, inter-process-locked saves (see the module docstring)."""

    _redirect: Path | None = None

    def get_task_result_path(self, *args: Any, **kwargs: Any) -> Path:  # noqa: D102
        if self._redirect is not None:
            return self._redirect
        return super().get_task_result_path(*args, **kwargs)

    def save_to_cache(self, task_result, model_name, model_revision=None, *, encode_kwargs=None) -> None:  # noqa: D102
        target = super().get_task_result_path(
            task_name=task_result.task_name, model_name=model_name, model_revision=model_revision
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        with file_lock(self.cache_path / LOCK_FILE):
            self._redirect = tmp
            try:
                super().save_to_cache(task_result, model_name, model_revision, encode_kwargs=encode_kwargs)
                os.replace(tmp, target)
            finally:
                self._redirect = None
                tmp.unlink(missing_ok=True)


def open_result_cache(folder: Path | str) -> SafeResultCache:
    """A :class:`SafeResultCache` on ``folder`` (created); a file in the way raises ``InputError`` naming it."""
    return SafeResultCache(output_dir(Path(folder), what="results folder"))
