"""Where MTEB filed a result: model name, revision and experiment of a ``<Task>.json`` (standard library only).

MTEB writes ``<folder>/results/<org>__<model>/<revision>/<Task>.json`` (runs with model options:
``.../<revision>/experiments/<experiment>/<Task>.json``) with ``model_meta.json`` next to it.  The one
place that parses those folder names; :mod:`mteb_evalrank.reports.results_reader` (the reports' reader)
builds on it, and the integration layer (the leaderboard app) may use it too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

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
    meta = path.parent / "model_meta.json"
    if meta.is_file():
        try:
            data = json.loads(meta.read_text(encoding="utf-8"))
            name = str(data.get("name") or name)
            revision = str(data.get("revision") or revision)
        except (OSError, ValueError, AttributeError):
            pass
    return ResultIdentity(name, revision, experiment)


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


__all__ = ["ResultIdentity", "model_name_from_folder", "result_identity", "task_result_files"]
