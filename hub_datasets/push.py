"""Publish a built dataset folder to the Hugging Face Hub — the one push routine for every dataset.

:func:`push_folder` always uploads a *staged copy*, never the build folder itself:

1. validate the folder (:func:`..layout.validate_folder` plus the dataset's own ``validate``); the card
   names the dataset it was built as (front matter key ``mteb_evalrank_dataset``);
2. stage: the dataset's ``prepare_for_push(folder, staging_dir)`` hook writes the publishable copy
   (EvalRankSent blanks STR text there, whose licence forbids redistribution); datasets without a hook
   are staged as the card plus the parquet files it names, nothing else;
3. validate the staged copy again, including the dataset's ``check_pushable`` (e.g. no STR text left);
4. dry run: print and return the files with their sizes.  Real push: ``HfApi.create_repo`` (dataset,
   ``exist_ok``), ``HfApi.upload_folder`` of the staged copy (stale parquet files in the repository are
   deleted), optionally a tag on the new commit; print the commit sha so it can be pinned.

The token comes from the ``token`` argument or the ``HF_TOKEN`` environment variable.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.errors import InputError
from mteb_evalrank.hub_datasets import layout

TOKEN_ENV = "HF_TOKEN"


@dataclass
class PushReport:
    """What was (dry run: would be) uploaded, and where."""

    repo_id: str
    dataset: str
    dry_run: bool
    files: list[tuple[str, int]] = field(default_factory=list)  # (path in repo, bytes)
    commit_sha: str | None = None
    commit_url: str | None = None
    tag: str | None = None

    @property
    def total_bytes(self) -> int:
        return sum(size for _, size in self.files)

    def format(self) -> str:
        head = "dry run: would upload" if self.dry_run else "uploaded"
        lines = [f"{head} {self.dataset} to https://huggingface.co/datasets/{self.repo_id} ({len(self.files)} files):"]
        lines += [f"  {size:>12,d}  {path}" for path, size in self.files]
        lines.append(f"  {self.total_bytes:>12,d}  total bytes")
        if self.tag:
            lines.append(f"tag: {self.tag}" + (" (would be created)" if self.dry_run else ""))
        if self.commit_sha:
            lines.append(f"commit: {self.commit_sha}  (pin with revision={self.commit_sha!r})")
        if self.commit_url:
            lines.append(f"url: {self.commit_url}")
        return "\n".join(lines)


def push_folder(
    folder: Path,
    repo_id: str,
    *,
    dry_run: bool,
    token: str | None = None,
    private: bool = False,
    dataset: str | None = None,
    tag: str | None = None,
    staging_dir: Path | None = None,
    commit_message: str | None = None,
) -> PushReport:
    """Validate, stage and upload (or, with ``dry_run``, list) the dataset in ``folder``.

    Args:
        dataset: expected dataset name; must match the card's ``mteb_evalrank_dataset`` if given.
        tag: create this tag on the new commit (refused before uploading if it exists already).
        staging_dir: stage into this folder and keep it (default: a temporary folder).
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    from mteb_evalrank.hub_datasets import BUILDERS

    try:
        validate_repo_id(repo_id)
    except HFValidationError as exc:
        raise InputError(f"{repo_id!r} is not a Hub repository id (ORG/NAME): {exc}") from exc
    if "/" not in repo_id:  # the Hub's validator takes a bare name; a dataset is published under a namespace
        raise InputError(
            f"{repo_id!r} is not a Hub repository id of the form ORG/NAME: name the user or organisation it is "
            f"published under (e.g. mteb-evalrank/{repo_id})."
        )
    folder = Path(folder)
    problems = layout.validate_folder(folder)
    if problems:
        raise InputError(f"{folder} cannot be published:\n  " + "\n  ".join(problems))
    name = layout.read_card(folder)[0].get(layout.CARD_DATASET_KEY)
    if name not in BUILDERS:
        raise InputError(
            f"{folder}: the dataset card does not name a known dataset ({layout.CARD_DATASET_KEY}: {name!r}); "
            "rebuild it with `mteb-evalrank build-data`."
        )
    if dataset is not None and dataset != name:
        raise InputError(f"{folder} holds dataset {name!r}, not {dataset!r}.")
    module = BUILDERS[name]
    if not dry_run:
        token = token or os.environ.get(TOKEN_ENV)
        if not token:
            raise InputError(
                f"No Hugging Face token: set {TOKEN_ENV} to a token with write access to {repo_id} "
                "(https://huggingface.co/settings/tokens), or use --dry-run to only validate."
            )

    with scratch_folder(prefix=f"push-{name}-") as tmp:
        stage = Path(staging_dir) if staging_dir is not None else Path(tmp) / name
        if stage.exists() and any(stage.iterdir()):
            raise InputError(f"staging folder {stage} is not empty.")
        _stage(module, folder, stage)
        problems = layout.validate_folder(stage)
        for hook in ("validate", "check_pushable"):
            if hasattr(module, hook):
                problems += getattr(module, hook)(stage)
        if problems:
            raise InputError(f"the staged copy of {folder} cannot be published:\n  " + "\n  ".join(problems))
        files = sorted(p for p in stage.rglob("*") if p.is_file())
        report = PushReport(
            repo_id=repo_id,
            dataset=name,
            dry_run=dry_run,
            files=[(p.relative_to(stage).as_posix(), p.stat().st_size) for p in files],
            tag=tag,
        )
        if not dry_run:
            _upload(report, stage, token=token, private=private, commit_message=commit_message)
    print(report.format())
    return report


def push_dataset(
    name: str, folder: Path, repo_id: str, *, dry_run: bool, private: bool = False, token: str | None = None
) -> PushReport:
    """CLI entry: push dataset ``name`` from ``folder``, tagging the commit with the plugin's dataset version."""
    from mteb_evalrank.data.resolution import DATASET_VERSION

    return push_folder(
        folder, repo_id, dry_run=dry_run, token=token, private=private, dataset=name, tag=DATASET_VERSION
    )


def _stage(module, folder: Path, stage: Path) -> None:
    if hasattr(module, "prepare_for_push"):
        module.prepare_for_push(folder, stage)
        return
    for path in layout.data_files(folder):
        target = stage / path.relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def _upload(report: PushReport, stage: Path, *, token: str | None, private: bool, commit_message: str | None) -> None:
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    api.create_repo(report.repo_id, repo_type="dataset", private=private, exist_ok=True)
    if report.tag:
        existing = {ref.name for ref in api.list_repo_refs(report.repo_id, repo_type="dataset").tags}
        if report.tag in existing:
            raise InputError(
                f"{report.repo_id} already has tag {report.tag!r}; tasks load exactly that tag, so a new "
                "build needs a new version (DATASET_VERSION in mteb_evalrank/data/resolution.py)."
            )
    commit = api.upload_folder(
        repo_id=report.repo_id,
        folder_path=stage,
        repo_type="dataset",
        commit_message=commit_message or f"Upload {report.dataset} (mteb-evalrank)",
        delete_patterns=["*.parquet"],
    )
    report.commit_sha, report.commit_url = commit.oid, commit.commit_url
    if report.tag:
        api.create_tag(report.repo_id, tag=report.tag, revision=commit.oid, repo_type="dataset")
