"""``mteb-evalrank prepare-submission``: a results folder in the layout of MTEB's public results repository.

The repository ``embeddings-benchmark/results`` holds ``results/<org>__<model>/<revision>/<Task>.json`` with
``model_meta.json`` (and ``run_settings.jsonl``) beside them; MTEB's ``ResultCache.submit_results`` copies
exactly that.  :func:`prepare_submission` checks every model folder of a local results folder and copies
what the repository would accept to ``<out>/results/...``; it lists the rest with the reason:

rejected (not copied)
    - no ``model_meta.json``, or one that MTEB's :class:`ModelMeta` does not load, or that has no
      name/revision (``ResultCache.load_results``/``submit_results`` skip such results);
    - an unpinned revision (``main``, ``latest``, ``no_revision_available``, ...) or a folder whose
      name/revision differs from its model meta;
    - a result file that is not a valid :class:`mteb.TaskResult` (MTEB's schema), names another task than
      its file name, misses one of the task's evaluation splits or subsets, or has a missing (NaN) main score;
needs upstream (copied, flagged)
    - the task is not one of MTEB's own tasks (the plugin's tasks are registered at run time only): the
      public repository and leaderboard load results with plain ``mteb``, so these files are only
      useful there once the task is added to MTEB itself;
    - the model is not in MTEB's model registry (e.g. ``zoo/...`` or ``local/...`` models): reviewers ask
      for a reference implementation in ``mteb/models/model_implementations``.

The check list is printed and written to ``<out>/SUBMISSION_CHECK.md``.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

UNPINNED_REVISIONS = frozenset({"", "main", "master", "head", "latest", "none", "no_revision_available"})
CHECK_FILE = "SUBMISSION_CHECK.md"
REJECTED = "rejected"
UPSTREAM = "needs upstream"


@dataclass
class Finding:
    """One problem: what (a folder or file), why, and whether it blocks the submission."""

    path: Path
    reason: str
    severity: str  # REJECTED or UPSTREAM


@dataclass
class Submission:
    out: Path
    copied: list[Path] = field(default_factory=list)
    models: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def rejected(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == REJECTED]

    @property
    def needs_upstream(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == UPSTREAM]


def _model_folders(root: Path) -> list[Path]:
    """Folders holding result files (``<model>/<revision>`` or ``.../experiments/<name>``)."""
    from mteb_evalrank.data.files import regular_files

    paths = [p for p in sorted(root.rglob("*.json")) if p.name != "model_meta.json" and not p.name.startswith(".")]
    return sorted({p.parent for p in regular_files(paths, what="result file")})


def _mteb_own_tasks() -> set[str]:
    """Names of tasks MTEB defines itself (registered by ``mteb``, not by this plugin)."""
    import importlib

    from mteb_evalrank.integration.registry import plugin_tasks

    registry = importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY
    ours = {cls.metadata.name for cls in plugin_tasks()}
    return {name for name, cls in registry.items() if name not in ours and not cls.__module__.startswith("mteb_evalrank")}


def _in_mteb_model_registry(name: str) -> bool:
    from mteb.models.get_model_meta import MODEL_REGISTRY

    meta = MODEL_REGISTRY.get(name)
    if meta is None:
        return False
    loader = getattr(meta, "loader", None)
    # the plugin adds its zoo variants to the registry; MTEB's own entries keep their names
    return not (name.startswith("zoo/") or getattr(loader, "__module__", "").startswith("mteb_evalrank.integration.zoo"))


def _check_meta(folder: Path, findings: list[Finding]) -> Any | None:
    from mteb.models import ModelMeta

    meta_path = folder / "model_meta.json"
    if not meta_path.is_file():
        findings.append(Finding(folder, "no model_meta.json: the results repository needs the model meta", REJECTED))
        return None
    try:
        meta = ModelMeta.model_validate_json_resolved(meta_path.read_text(encoding="utf-8"))
    except Exception as exc:  # noqa: BLE001 — pydantic/JSON errors: report and skip
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        findings.append(Finding(meta_path, f"model meta does not load with MTEB's ModelMeta: {first}", REJECTED))
        return None
    if not meta.name or not meta.revision:
        findings.append(Finding(meta_path, "model meta has no name or no revision", REJECTED))
        return None
    return meta


def _expected_folder(folder: Path) -> tuple[str, str]:
    experiment = folder.name if folder.parent.name == "experiments" else None
    rev_dir = folder.parent.parent if experiment else folder
    return rev_dir.parent.name, rev_dir.name


def prepare_submission(results_dir: Path | str, out: Path | str, *, overwrite: bool = False) -> Submission:
    """Check ``results_dir`` and copy what the public results repository accepts to ``out`` (see module doc)."""
    import importlib

    import mteb

    from mteb_evalrank.data.files import atomic_target, atomic_write_text, output_dir, regular_files

    root = Path(results_dir)
    if not root.is_dir():
        raise InputError(f"{root}: no such results folder.")
    out = Path(out)
    if out.resolve() == root.resolve() or root.resolve() in out.resolve().parents:
        raise InputError(f"{out}: the submission folder must not be inside the results folder {root}.")
    target_root = out / "results"
    if target_root.exists() and any(target_root.iterdir()) and not overwrite:
        raise InputError(f"{target_root} is not empty; remove it or pass --overwrite.")
    folders = _model_folders(root)
    if not folders:
        raise InputError(f"no MTEB result files below {root} (expected results/<org>__<model>/<revision>/<Task>.json).")
    output_dir(out, what="submission folder")
    sub = Submission(out=out)
    own_tasks = _mteb_own_tasks()
    registry = importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY
    for folder in folders:
        meta = _check_meta(folder, sub.findings)
        if meta is None:
            continue
        model_dir, revision_dir = _expected_folder(folder)
        revision = str(meta.revision)
        if revision.strip().lower() in UNPINNED_REVISIONS:
            sub.findings.append(Finding(folder, f"revision {revision!r} is not pinned (give the commit or content hash)", REJECTED))
            continue
        if model_dir != meta.model_name_as_path() or revision_dir != revision:
            sub.findings.append(
                Finding(folder, f"folder {model_dir}/{revision_dir} does not match the model meta "
                        f"({meta.model_name_as_path()}/{revision})", REJECTED)  # fmt: skip
            )
            continue
        if not _in_mteb_model_registry(meta.name):
            sub.findings.append(
                Finding(folder, f"model {meta.name} is not in MTEB's model registry: reviewers ask for a reference "
                        "implementation in mteb/models/model_implementations", UPSTREAM)  # fmt: skip
            )
        target = target_root / meta.model_name_as_path() / revision
        if folder.parent.name == "experiments":
            target = target / "experiments" / folder.name
        accepted = []
        for path in regular_files(sorted(folder.glob("*.json")), what="result file"):
            if path.name == "model_meta.json" or path.name.startswith("."):
                continue
            problem = _check_result(path, registry)
            if problem is not None:
                sub.findings.append(Finding(path, problem, REJECTED))
                continue
            accepted.append(path)
            task = path.stem
            if task not in own_tasks:
                sub.findings.append(
                    Finding(path, f"task {task} is not part of MTEB {mteb.__version__} (a plugin task): the public "
                            "repository and leaderboard load results with plain mteb; the task must be added upstream first",
                            UPSTREAM)  # fmt: skip
                )
        if not accepted:
            continue
        target.mkdir(parents=True, exist_ok=True)
        for path in [*accepted, folder / "model_meta.json", folder / "run_settings.jsonl"]:
            if path.is_file():  # a regular file (a FIFO is not): copied whole, through a temporary file
                with atomic_target(target / path.name) as tmp:
                    shutil.copy2(path, tmp)
                sub.copied.append(target / path.name)
        sub.models.append((meta.name, revision))
    atomic_write_text(out / CHECK_FILE, format_check(sub, root))
    return sub


def _check_result(path: Path, registry: dict[str, Any]) -> str | None:
    """Why the results repository would reject this file, or ``None``."""
    import mteb

    try:
        tr = mteb.TaskResult.from_disk(path)
    except Exception as exc:  # noqa: BLE001
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"not a valid MTEB result file: {first}"
    if tr.task_name != path.stem:
        return f"file name {path.name} but task_name {tr.task_name!r}"
    if tr.task_name in registry:
        task = mteb.get_task(tr.task_name)
        missing = tr.get_missing_evaluations(task)
        if missing:
            return "missing splits/subsets: " + "; ".join(f"{split}: {', '.join(sorted(subs))}" for split, subs in missing.items())
    for split, entries in tr.scores.items():
        for entry in entries:
            value = entry.get("main_score")
            if value is None or (isinstance(value, float) and math.isnan(value)):
                return f"no main score for split {split}, subset {entry.get('hf_subset')}"
    return None


def format_check(sub: Submission, root: Path) -> str:
    """Markdown check list: what was copied, what would be rejected, what needs upstream work."""
    lines = [
        "# Submission check",
        "",
        f"Source: `{root}` → `{sub.out / 'results'}` (layout of github.com/embeddings-benchmark/results).",
        "",
        f"Copied: {len(sub.models)} model revision(s), {sum(1 for p in sub.copied if p.name not in ('model_meta.json', 'run_settings.jsonl'))} result file(s).",
    ]
    for name, rev in sub.models:
        lines.append(f"- {name} @ {rev}")
    lines += ["", f"## Would be rejected ({len(sub.rejected)}) — not copied", ""]
    lines += [f"- `{f.path}`: {f.reason}" for f in sub.rejected] or ["- nothing"]
    lines += ["", f"## Needs work upstream ({len(sub.needs_upstream)}) — copied, but not shown on the public leaderboard yet", ""]
    lines += [f"- `{f.path}`: {f.reason}" for f in sub.needs_upstream] or ["- nothing"]
    lines += [
        "",
        "Next step: `mteb submit-results --output-folder <this folder>` (MTEB's own command) or a pull request to "
        "embeddings-benchmark/results with the `results/` folder above.",
    ]
    return "\n".join(lines) + "\n"


def summary_lines(sub: Submission) -> list[str]:
    """Short console summary (the full list is in ``SUBMISSION_CHECK.md``)."""
    lines = [f"submission: {sub.out / 'results'}  ({len(sub.models)} model revision(s))"]
    lines += [f"REJECTED {f.path}: {f.reason}" for f in sub.rejected]
    upstream = sub.needs_upstream
    if upstream:
        tasks = sorted({f.path.stem for f in upstream if f.path.suffix == ".json"})
        models = [f for f in upstream if f.path.suffix != ".json"]
        if tasks:
            lines.append(f"needs upstream: {len(tasks)} task(s) not in MTEB itself: {', '.join(tasks)}")
        for f in models:
            lines.append(f"needs upstream {f.path}: {f.reason}")
    lines.append(f"check list: {sub.out / CHECK_FILE}")
    return lines
