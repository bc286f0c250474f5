"""Descriptive statistics of the plugin's tasks: shipped with the package, regenerated on demand.

MTEB ships one JSON of descriptive statistics per task inside its package and reads it through
``TaskMetadata.descriptive_stat_path``; its own test suite requires ``metadata.descriptive_stats`` for
every registered task (``tests/test_tasks/test_metadata.py``).  The plugin does the same: each task's
statistics, computed from the real built dataset, are package data at
``mteb_evalrank/tasks/descriptive_stats/<TaskName>.json`` (the path is defined by
``mteb_evalrank.tasks._base.PluginTaskMetadata``).

MTEB's ``AbsTask.calculate_descriptive_statistics`` *writes* to that same path.  So that statistics a
user computes are never written silently into the installed package, the path can be redirected for
a block of code (:func:`stats_written_to`): the plugin's tasks write user-computed statistics into
the plugin cache (:func:`user_stats_dir`), and :func:`regenerate_descriptive_stats` (the command
``mteb-evalrank descriptive-stats``) is the only thing that writes the shipped files, on purpose.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteb_evalrank.atomic_files import replace_file, scratch_folder
from mteb_evalrank.data.paths import cache_dir
from mteb_evalrank.errors import EvalRankError, InputError

#: Key of a shipped statistics file (inside its split entry) that says it was *not* computed from the
#: data, and why.  Files written by :func:`regenerate_descriptive_stats` never contain it.
PROVISIONAL_KEY = "provisional"

_STATS_DIR: ContextVar[Path | None] = ContextVar("mteb_evalrank_stats_dir", default=None)


def stats_dir_override() -> Path | None:
    """The folder that ``descriptive_stat_path`` points into right now, if redirected."""
    return _STATS_DIR.get()


@contextlib.contextmanager
def stats_written_to(folder: Path) -> Iterator[Path]:
    """Within the block, the plugin tasks' ``descriptive_stat_path`` is ``folder/<TaskName>.json``."""
    token = _STATS_DIR.set(Path(folder))
    try:
        yield Path(folder)
    finally:
        _STATS_DIR.reset(token)


def user_stats_dir() -> Path:
    """Where statistics computed by users go (never the installed package)."""
    return cache_dir() / "descriptive_stats"


@dataclass(frozen=True)
class StatsOutcome:
    """What :func:`regenerate_descriptive_stats` did for one task."""

    task: str
    path: Path
    error: str | None = None  # None: written; else why not (the existing file is left unchanged)

    @property
    def ok(self) -> bool:
        return self.error is None


def _select(names: Sequence[str] | None) -> list[Any]:
    import mteb  # noqa: F401  (importing mteb registers the plugin's tasks: the start-up hook)

    from mteb_evalrank.integration.registry import plugin_tasks

    tasks = list(plugin_tasks())
    if not tasks:
        raise InputError(
            "no plugin task is registered with MTEB (is MTEB_EVALRANK_NO_AUTOLOAD set? "
            "`import mteb_evalrank.tasks` registers them)."
        )
    by_name = {cls.metadata.name: cls for cls in tasks}
    if not names:
        return tasks
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise InputError(f"not a plugin task: {', '.join(unknown)}. Plugin tasks: {', '.join(by_name)}.")
    return [by_name[n] for n in dict.fromkeys(names)]


def _write_json(stats: Any, path: Path) -> None:
    """Atomic write, formatted as MTEB formats its own statistics files (indent 4)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, json.dumps(stats, indent=4) + "\n")  # readable by all: the umask's mode, as package data


def compute_descriptive_stats(task: Any, *, num_proc: int | None = None) -> dict[str, Any]:
    """Statistics of the data ``task`` resolves now, computed by MTEB's own
    ``calculate_descriptive_statistics`` (so the format is MTEB's), written nowhere."""
    with scratch_folder(prefix="mteb-evalrank-stats-") as tmp, stats_written_to(Path(tmp)):
        if task.metadata.descriptive_stat_path.parent != Path(tmp):
            raise InputError(
                f"{task.metadata.name}: its metadata is not a PluginTaskMetadata, so MTEB would write its "
                "statistics into the installed mteb package; use mteb_evalrank.tasks._base.PluginTaskMetadata."
            )
        return task.calculate_descriptive_statistics(overwrite_results=True, num_proc=num_proc)


def regenerate_descriptive_stats(
    names: Sequence[str] | None = None, *, out: Path | None = None, num_proc: int | None = None
) -> list[StatsOutcome]:
    """Compute the statistics of the plugin tasks ``names`` (default: all) and write them.

    ``out=None`` writes the shipped files (``metadata.descriptive_stat_path``, inside the source
    tree for an editable install); otherwise ``out/<TaskName>.json``.  A task whose data cannot be
    resolved (:class:`~mteb_evalrank.errors.EvalRankError`, e.g. HEROS offline) is reported in its
    outcome and its existing file is left unchanged; the other tasks are still written.
    """
    outcomes = []
    selected = _select(names)
    if out is not None:  # every target checked before any statistic is computed (never a result file)
        from mteb_evalrank.data.files import output_dir, output_file

        output_dir(Path(out), what="statistics folder")
        for cls in selected:
            output_file(Path(out) / f"{cls.metadata.name}.json", what="statistics file")
    for cls in selected:
        name = cls.metadata.name
        path = (Path(out) / f"{name}.json") if out is not None else cls.metadata.descriptive_stat_path
        task = cls()
        try:
            stats = compute_descriptive_stats(task, num_proc=num_proc)
        except EvalRankError as exc:
            outcomes.append(StatsOutcome(name, path, error=str(exc)))
            continue
        finally:
            if task.data_loaded:
                task.unload_data()
        _write_json(stats, path)
        outcomes.append(StatsOutcome(name, path))
    return outcomes
