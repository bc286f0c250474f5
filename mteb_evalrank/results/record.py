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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RunSettings:
    """The settings of the run that wrote a result (the newest line of ``run_settings.jsonl`` naming its task).

    ``problem`` names a line that could not be read (one policy for every consumer: reports skip and list it,
    ``prepare-submission`` refuses)."""

    values: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None


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

    @property
    def main_score(self) -> float | None:
        """The entry's ``main_score`` (the number MTEB shows for a one-subset task)."""
        value = self.scores.get("main_score")
        return float(value) if isinstance(value, (int, float)) else None

    @property
    def label(self) -> str:
        """``model`` or ``model [experiment]``: a run with model options is its own model in every report."""
        return f"{self.model} [{self.experiment}]" if self.experiment else self.model
