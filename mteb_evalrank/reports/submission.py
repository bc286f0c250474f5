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
      its file name, misses one of the task's evaluation splits or subsets (stricter than the readers' rule,
      :func:`~mteb_evalrank.results.record.unanswered_problem`, which asks for one), or has a missing main score
      (null, NaN or Infinity: :func:`~mteb_evalrank.reports.results_reader.missing_value`);
needs upstream (copied, flagged)
    - the task is not one of MTEB's own tasks (the plugin's tasks are registered at run time only): the
      public repository and leaderboard load results with plain ``mteb``, so these files are only
      useful there once the task is added to MTEB itself;
    - the model is not in MTEB's model registry (e.g. ``zoo/...`` or ``local/...`` models): reviewers ask
      for a reference implementation in ``mteb/models/model_implementations``.

refused (nothing copied, exit status 2)
    - a result to copy whose ``run_settings.jsonl`` (beside it) is missing or does not cover every (task,
      split, subset) it scores, or whose ``mteb_version`` is unusable or older than 2.0.0: the results
      repository's CI (``tests/run_settings_check.py``) fails such a pull request.  The check is the CI's:
      MTEB's own ``_expand_run_settings_entry`` reads each line, the file's (task, split, ``hf_subset``)
      triples must all be among them.  :func:`run_settings_gaps`.

The check list is printed and written to ``<out>/SUBMISSION_CHECK.md`` (when refused, only that file).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank import mteb_internals
from mteb_evalrank.data.result_files import MODEL_META, RUN_SETTINGS
from mteb_evalrank.errors import InputError

UNPINNED_REVISIONS = frozenset({"", "main", "master", "head", "latest", "none", "no_revision_available"})
CHECK_FILE = "SUBMISSION_CHECK.md"
#: the oldest MTEB whose results the results repository's CI (``tests/run_settings_check.py``) accepts
MIN_MTEB_VERSION = "2.0.0"
REJECTED = "rejected"
UPSTREAM = "needs upstream"


@dataclass
class Finding:
    """One problem: what (a folder or file), why, and whether it blocks the submission."""

    path: Path
    reason: str
    severity: str  # REJECTED or UPSTREAM


@dataclass
class RunSettingsGap:
    """A result to copy that the results repository's CI would fail: what is wrong with its run settings."""

    path: Path
    problems: list[str]  # e.g. "no run_settings.jsonl", "test/all not in run_settings.jsonl"


@dataclass
class Submission:
    """What `prepare-submission` did: the folder, files copied, models, findings and run-settings gaps."""

    out: Path
    copied: list[Path] = field(default_factory=list)
    models: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    run_settings_gaps: list[RunSettingsGap] = field(default_factory=list)

    @property
    def rejected(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == REJECTED]

    @property
    def needs_upstream(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == UPSTREAM]


def _model_folders(root: Path) -> dict[Path, list[Path]]:
    """Folders holding result files (``<model>/<revision>`` or ``.../experiments/<name>``), each with its result
    files (the results reader's walk, :func:`~mteb_evalrank.data.result_files.walk_result_files`)."""
    from mteb_evalrank.data.result_files import walk_result_files

    out: dict[Path, list[Path]] = {}
    for path in walk_result_files(root):
        out.setdefault(path.parent, []).append(path)
    return dict(sorted(out.items()))


def _mteb_own_tasks() -> set[str]:
    """Names of tasks MTEB defines itself (registered by ``mteb``, not by this plugin)."""

    from mteb_evalrank.integration.task_lookup import is_plugin_task

    registry = mteb_internals.task_registry()
    return {name for name, cls in registry.items() if not is_plugin_task(cls)}


def _in_mteb_model_registry(name: str) -> bool:
    from mteb.models.get_model_meta import MODEL_REGISTRY

    meta = MODEL_REGISTRY.get(name)
    if meta is None:
        return False
    loader = getattr(meta, "loader", None)
    # the plugin adds its zoo variants to the registry; MTEB's own entries keep their names
    from mteb_evalrank.zoo.adapter import is_mteb_form

    return not (is_mteb_form(name) or getattr(loader, "__module__", "").startswith("mteb_evalrank.zoo.adapter"))


def _check_meta(folder: Path, findings: list[Finding]) -> Any | None:
    from mteb.models import ModelMeta

    meta_path = folder / MODEL_META
    if not meta_path.is_file():
        findings.append(Finding(folder, f"no {MODEL_META}: the results repository needs the model meta", REJECTED))
        return None
    from mteb_evalrank.data.result_files import read_model_meta

    try:  # the plugin's shape checks first (name/revision that can name folders, positive dimensions, ...)
        checked = read_model_meta(folder, strict=True)
    except InputError as exc:
        findings.append(Finding(meta_path, f"model meta rejected: {str(exc).split(': ', 1)[-1]}", REJECTED))
        return None
    try:  # what the reader parsed, handed to MTEB's own loader as the JSON it reads
        meta = ModelMeta.model_validate_json_resolved(json.dumps(checked))
    except Exception as exc:
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

    import mteb

    from mteb_evalrank.data.files import atomic_target, atomic_write_text, output_dir
    from mteb_evalrank.file_kinds import special_file_kind

    root = Path(results_dir)
    kind = special_file_kind(root)
    if kind == "does not exist":
        raise InputError(f"{root}: no such results folder.")
    if kind != "a folder":  # a score table or another file: the folder given to run --output-folder is wanted
        raise InputError(
            f"{root} is {kind or 'a file'}, not a results folder; give the folder of results/<org>__<model>/"
            "<revision>/ (what run --output-folder wrote)."
        )
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
    plan: list[tuple[Path, Path, list[Path], tuple[str, str]]] = []  # folder, target, results to copy, model
    own_tasks = _mteb_own_tasks()
    registry = mteb_internals.task_registry()
    for folder, files in folders.items():
        meta = _check_meta(folder, sub.findings)
        if meta is None:
            continue
        model_dir, revision_dir = _expected_folder(folder)
        revision = str(meta.revision)
        if revision.strip().lower() in UNPINNED_REVISIONS:
            sub.findings.append(
                Finding(folder, f"revision {revision!r} is not pinned (give the commit or content hash)", REJECTED)
            )
            continue
        if model_dir != meta.model_name_as_path() or revision_dir != revision:
            sub.findings.append(
                Finding(
                    folder,
                    f"folder {model_dir}/{revision_dir} does not match the model meta "
                    f"({meta.model_name_as_path()}/{revision})",
                    REJECTED,
                )
            )
            continue
        if not _in_mteb_model_registry(meta.name):
            sub.findings.append(
                Finding(
                    folder,
                    f"model {meta.name} is not in MTEB's model registry: reviewers ask for a reference "
                    "implementation in mteb/models/model_implementations",
                    UPSTREAM,
                )
            )
        target = target_root / meta.model_name_as_path() / revision
        if folder.parent.name == "experiments":
            target = target / "experiments" / folder.name
        accepted = []
        for path in files:
            problem = _check_result(path, registry)
            if problem is not None:
                sub.findings.append(Finding(path, problem, REJECTED))
                continue
            accepted.append(path)
            task = path.stem
            if task not in own_tasks:
                sub.findings.append(
                    Finding(
                        path,
                        f"task {task} is not part of MTEB {mteb.__version__} (a plugin task): the public "
                        "repository and leaderboard load results with plain mteb; the task must be added upstream first",
                        UPSTREAM,
                    )
                )
        if accepted:
            plan.append((folder, target, accepted, (meta.name, revision)))
    if not plan:  # every folder would be rejected: an empty submission is no submission (nothing written)
        first = next((f for f in sub.findings if f.severity == REJECTED), None)
        raise InputError(
            f"nothing to submit: every result of {root} would be rejected"
            + (f" ({first.path}: {first.reason})" if first else "")
            + "; fix them, or give another results folder."
        )
    sub.run_settings_gaps = run_settings_gaps([p for _, _, accepted, _ in plan for p in accepted])
    if sub.run_settings_gaps:  # the CI would fail the whole pull request: write nothing (issue 38: no output on error)
        raise InputError(refusal_line(sub))
    for folder, target, accepted, model in plan:
        target.mkdir(parents=True, exist_ok=True)
        for path in [*accepted, folder / MODEL_META, folder / RUN_SETTINGS]:
            if path.is_file():  # a regular file (a FIFO is not): copied whole, through a temporary file
                with atomic_target(target / path.name) as tmp:
                    shutil.copy2(path, tmp)
                sub.copied.append(target / path.name)
        sub.models.append(model)
    atomic_write_text(out / CHECK_FILE, format_check(sub, root))
    return sub


def _covered(folder: Path) -> set[tuple[str, str, str]] | str:
    """The (task, split, subset) triples the ``run_settings.jsonl`` of ``folder`` covers, read by the one reader
    (:func:`~mteb_evalrank.results.record.read_run_settings`) and expanded as the results repository's CI expands
    them (MTEB's ``_expand_run_settings_entry`` on each line); a string says why there are none (no such file, a
    line that is not a JSON object: the submission refuses)."""
    from mteb.results.task_result import _expand_run_settings_entry

    from mteb_evalrank.results.record import read_run_settings

    lines, problem, path = read_run_settings(folder)
    if path is None:
        return f"no {RUN_SETTINGS}"
    if problem is not None:
        return problem
    return {key for entry in lines for key, _, _ in _expand_run_settings_entry(entry)}


def run_settings_gaps(paths: list[Path]) -> list[RunSettingsGap]:
    """The results among ``paths`` that the results repository's CI (``tests/run_settings_check.py``) fails, with
    why: a ``mteb_version`` that does not parse or is older than :data:`MIN_MTEB_VERSION` (the lower end of a
    range counts), no :data:`RUN_SETTINGS` beside the file, a line of it that is not JSON, or a (task, split,
    ``hf_subset``) the file scores that no line of it covers."""
    import mteb
    from packaging.version import Version

    gaps = []
    settings_cache: dict[Path, set[tuple[str, str, str]] | str] = {}
    for path in paths:
        problems: list[str] = []
        tr = mteb.TaskResult.from_disk(path)
        version = mteb.TaskResult._parse_mteb_version_min(tr.mteb_version) if tr.mteb_version else None
        if version is None:
            problems.append(f"no usable mteb_version (got {tr.mteb_version!r})")
        elif version < Version(MIN_MTEB_VERSION):
            problems.append(
                f"written by mteb {tr.mteb_version}, the results repository needs mteb >= {MIN_MTEB_VERSION}"
            )
        if path.parent not in settings_cache:
            settings_cache[path.parent] = _covered(path.parent)
        covered = settings_cache[path.parent]
        if isinstance(covered, str):
            problems.append(covered)
        else:
            scored = {
                (tr.task_name, split, block["hf_subset"]) for split, blocks in tr.scores.items() for block in blocks
            }
            missing = sorted(f"{split}/{subset}" for _, split, subset in scored - covered)
            if missing:
                problems.append(f"{', '.join(missing)} not in {RUN_SETTINGS}")
        if problems:
            gaps.append(RunSettingsGap(path, problems))
    return gaps


def refusal_line(sub: Submission) -> str:
    """One line: which results' run settings the results repository's CI would fail, and what to do."""
    gaps = sub.run_settings_gaps
    shown = "; ".join(f"{g.path}: {', '.join(g.problems)}" for g in gaps[:3])
    more = f"; and {len(gaps) - 3} more" if len(gaps) > 3 else ""
    return (
        f"{len(gaps)} result file(s) lack the run settings the results repository's CI requires "
        f"(tests/run_settings_check.py): {shown}{more}; nothing was written. "
        f"Run those tasks again with mteb >= {MIN_MTEB_VERSION}, e.g. `mteb-evalrank run -m MODEL -t TASK "
        "--overwrite-strategy always --output-folder FOLDER`, which writes run_settings.jsonl"
    )


def _check_result(path: Path, registry: dict[str, Any]) -> str | None:
    """Why the results repository would reject this file, or ``None``."""
    import mteb

    from mteb_evalrank.data.result_files import check_result_json
    from mteb_evalrank.reports.results_reader import check_entry_scores, missing_value

    try:  # the shape, duplicate keys, task_name = file name, scores that are numbers in their range
        data = check_result_json(path)
        check_entry_scores(path, data.get("scores", {}))
    except InputError as exc:
        return str(exc).removeprefix(f"{path}: ")
    from mteb_evalrank.integration.result_migration import legacy_layout_problem

    legacy = legacy_layout_problem(path, data)
    if legacy is not None:  # the public leaderboard would show a mean of the whole and its parts
        return legacy.removeprefix(f"{path}: ")
    try:
        tr = mteb.TaskResult.from_disk(path)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"not a valid MTEB result file: {first}"
    if tr.task_name != path.stem:
        return f"file name {path.name} but task_name {tr.task_name!r}"
    if tr.task_name in registry:
        task = mteb.get_task(tr.task_name)
        missing = tr.get_missing_evaluations(task)
        if missing:
            return "missing splits/subsets: " + "; ".join(
                f"{split}: {', '.join(sorted(subs))}" for split, subs in missing.items()
            )
    for split, entries in tr.scores.items():
        for entry in entries:
            value = entry.get("main_score")
            if missing_value(value):  # null, NaN or Infinity: the readers' one rule (counted as missing there)
                return f"no main score for split {split}, subset {entry.get('hf_subset')} (it is {value!r})"
    return None


def format_check(sub: Submission, root: Path) -> str:
    """Markdown check list: what was copied, what would be rejected, what needs upstream work."""
    lines = [
        "# Submission check",
        "",
        f"Source: `{root}` → `{sub.out / 'results'}` (layout of github.com/embeddings-benchmark/results).",
        "",
        f"Copied: {len(sub.models)} model revision(s), {sum(1 for p in sub.copied if p.name not in (MODEL_META, RUN_SETTINGS))} result file(s).",
    ]
    for name, rev in sub.models:
        lines.append(f"- {name} @ {rev}")
    if sub.run_settings_gaps:
        lines += [
            "",
            f"## Refused: run settings ({len(sub.run_settings_gaps)}) — nothing was copied",
            "",
            f"The results repository's CI (`tests/run_settings_check.py`) fails a pull request with a result whose "
            f"`{RUN_SETTINGS}` does not cover each of its (task, split, subset), or written by mteb < "
            f"{MIN_MTEB_VERSION}. Run these tasks again with a current mteb, then prepare the submission again.",
            "",
        ]
        lines += [f"- `{g.path}`: {'; '.join(g.problems)}" for g in sub.run_settings_gaps]
    lines += ["", f"## Would be rejected ({len(sub.rejected)}) — not copied", ""]
    lines += [f"- `{f.path}`: {f.reason}" for f in sub.rejected] or ["- nothing"]
    lines += [
        "",
        f"## Needs work upstream ({len(sub.needs_upstream)}) — copied, but not shown on the public leaderboard yet",
        "",
    ]
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
