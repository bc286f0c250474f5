"""Where a task's data comes from: a local folder, raw sources built on demand, or the pinned Hub copy.

Resolution order for a dataset ``name`` (e.g. ``"evalrank-sent"``):

1. ``MTEB_EVALRANK_DATA=/dir`` — a folder of datasets already built with
   ``mteb-evalrank build-data NAME --out /dir/NAME``; ``/dir/NAME`` is used as is.
2. ``MTEB_EVALRANK_SOURCES=/dir`` — raw source files (the layout of ``shared/data/sources``); the
   dataset is built on first use into the plugin cache (``mteb_evalrank.data.paths.cache_dir()``) and
   reused afterwards.  Builds are written to a temporary folder and renamed, so an interrupted build
   never leaves a half-written dataset behind.
3. The Hub repository at the revision pinned in :data:`HUB_DATASETS`
   (``huggingface_hub.snapshot_download``; with ``HF_HUB_OFFLINE`` set, only the local HF cache).
4. Otherwise the raw sources are downloaded from their original public locations (URLs pinned to
   commits in a pooch registry, sha256 checked, retried; :mod:`mteb_evalrank.data.original_sources`) into the
   plugin cache, and the dataset is built from them on first use (origin ``original:<folder>``).
   Offline, this fails at once with a message naming both variables and the build command.

Every resolved dataset carries a content fingerprint (sha256 over its parquet files) that the tasks
store with their scores, so results computed from local builds and from the Hub can be compared.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.atomic_files import make_scratch_folder, replace_folder
from mteb_evalrank.data.paths import cache_dir
from mteb_evalrank.errors import DataNotFoundError
from mteb_evalrank.hashing import update_with_file

DATA_ENV = "MTEB_EVALRANK_DATA"
SOURCES_ENV = "MTEB_EVALRANK_SOURCES"
STR_ENV = "MTEB_EVALRANK_STR"

#: Version of the published datasets; ``push-data`` tags the Hub repository with it, and the tasks
#: load exactly that tag.
DATASET_VERSION = "v1.0.0"


@dataclass(frozen=True)
class HubDataset:
    """A dataset the plugin publishes (or loads) on the Hugging Face Hub."""

    name: str
    repo_id: str
    revision: str = DATASET_VERSION


HUB_DATASETS: dict[str, HubDataset] = {
    "evalrank-word": HubDataset("evalrank-word", "mteb-evalrank/evalrank-word"),
    "evalrank-sent": HubDataset("evalrank-sent", "mteb-evalrank/evalrank-sent"),
    "n2o-corpus": HubDataset("n2o-corpus", "mteb-evalrank/n2o-corpus"),
    "senteval-downstream": HubDataset("senteval-downstream", "mteb-evalrank/senteval-downstream"),
    "sts-senteval": HubDataset("sts-senteval", "mteb-evalrank/sts-senteval"),
    "word-similarity": HubDataset("word-similarity", "mteb-evalrank/word-similarity"),
}


@dataclass(frozen=True)
class ResolvedDataset:
    """A dataset folder in Hub layout plus where it came from."""

    name: str
    folder: Path
    origin: str  # "local:<path>", "sources:<path>" or "hub:<repo>@<revision>"

    @property
    def fingerprint(self) -> str:
        """sha256 (first 16 hex digits) over the dataset's parquet files, in path order."""
        return dataset_fingerprint(self.folder)


def dataset_fingerprint(folder: Path) -> str:
    """A 16-hex-digit SHA-256 over the relative paths and contents of a dataset folder's parquet files."""
    h = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*.parquet")):
        h.update(path.relative_to(folder).as_posix().encode())
        update_with_file(h, path)
    return h.hexdigest()[:16]


def build_command(name: str) -> str:
    """The `build-data` command line that builds dataset `name` from raw sources."""
    return f"mteb-evalrank build-data {name} --sources SOURCES_DIR --out DATA_DIR/{name}"


def resolve_dataset(name: str) -> ResolvedDataset:
    """Return a local folder in Hub layout for dataset ``name`` (see module docstring for the order)."""
    if name not in HUB_DATASETS:
        raise DataNotFoundError(f"Unknown dataset {name!r}; known: {', '.join(sorted(HUB_DATASETS))}.")
    data_root = os.environ.get(DATA_ENV)
    if data_root:
        folder = Path(data_root).expanduser() / name
        if not (folder / "README.md").is_file():
            raise DataNotFoundError(
                f"{DATA_ENV}={data_root} is set but {folder} is not a built dataset (no README.md). "
                f"Build it with: {build_command(name).replace('DATA_DIR', data_root)}"
            )
        return ResolvedDataset(name, folder, f"local:{folder}")
    sources = os.environ.get(SOURCES_ENV)
    if sources:
        return ResolvedDataset(name, build_on_demand(name, Path(sources).expanduser()), f"sources:{sources}")
    try:
        return _download_from_hub(HUB_DATASETS[name])
    except DataNotFoundError as hub_error:
        return _from_original_sources(name, hub_error)


def _from_original_sources(name: str, hub_error: DataNotFoundError) -> ResolvedDataset:
    """Step 4: download the raw sources from their original locations (pinned, checked), build on first use."""
    from mteb_evalrank.data import original_sources

    try:
        root = original_sources.ensure_sources([name])
    except DataNotFoundError as exc:
        raise DataNotFoundError(f"{hub_error} The original sources could not be used either: {exc}") from exc
    return ResolvedDataset(name, build_on_demand(name, root), f"original:{root}")


def build_on_demand(name: str, sources: Path) -> Path:
    """Build dataset ``name`` from raw ``sources`` into the cache once; return the folder."""
    from mteb_evalrank.hub_datasets import BUILDERS

    if not sources.is_dir():
        raise DataNotFoundError(f"{SOURCES_ENV}={sources} is not a directory.")
    key = hashlib.sha256(str(sources.resolve()).encode()).hexdigest()[:12]
    target = cache_dir() / "built" / f"{name}-{key}"
    if (target / "README.md").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = make_scratch_folder(prefix=f".{name}-", dir=target.parent)
    try:
        BUILDERS[name].build(sources, tmp)
        replace_folder(tmp, target)
    except OSError:
        if not (target / "README.md").is_file():  # a concurrent build may have won the race
            raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _offline_message(name: str, reason: str) -> str:
    return (
        f"Cannot load dataset {name!r} from the Hugging Face Hub ({reason}). Offline, point the plugin "
        f"at a local copy instead: set {DATA_ENV}=DATA_DIR (a folder of built datasets, made with "
        f"`{build_command(name)}`), or {SOURCES_ENV}=SOURCES_DIR (raw source files; the dataset is built "
        "on first use)."
    )


def _download_from_hub(ds: HubDataset) -> ResolvedDataset:
    from huggingface_hub import snapshot_download

    from mteb_evalrank.models.resolve import hub_offline

    offline = hub_offline()  # checked at call time: HF_HUB_OFFLINE means the local HF cache only, no retries
    try:
        folder = snapshot_download(ds.repo_id, repo_type="dataset", revision=ds.revision, local_files_only=offline)
    except Exception as exc:  # offline, unreachable, unknown repo or revision: all need the same advice
        reason = (
            "HF_HUB_OFFLINE is set and no copy is in the Hugging Face cache"
            if offline
            else f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        )
        raise DataNotFoundError(_offline_message(ds.name, reason)) from exc
    return ResolvedDataset(ds.name, Path(folder), f"hub:{ds.repo_id}@{ds.revision}")


def str_source_file() -> Path:
    """Path of the STR csv (``sem_text_rel_ranked.csv``), needed to restore STR text in Hub copies.

    Order: ``MTEB_EVALRANK_STR`` (a file), ``MTEB_EVALRANK_SOURCES/sts_senteval/STR/...``, then the
    original-sources cache, downloading it from the dataset authors' public repository (pinned
    commit, sha256 checked) if needed.  STR may not be redistributed, so the plugin never hosts it.
    """
    from mteb_evalrank.hub_datasets.evalrank_sent import STR_SOURCE_URL

    env = os.environ.get(STR_ENV)
    if env:
        path = Path(env).expanduser()
        if not path.is_file():
            raise DataNotFoundError(f"{STR_ENV}={env} does not point to a file.")
        return path
    sources = os.environ.get(SOURCES_ENV)
    if sources:
        path = Path(sources).expanduser() / "sts_senteval" / "STR" / "sem_text_rel_ranked.csv"
        if path.is_file():
            return path
    from mteb_evalrank.data import original_sources

    try:
        (path,) = original_sources.download_sources(
            original_sources.default_sources_dir(), files=[original_sources.STR_DEST]
        )
    except DataNotFoundError as exc:
        raise DataNotFoundError(
            "The published EvalRankSent dataset holds STR pairs by id only (STR's licence forbids "
            f"redistribution); their text is fetched from {STR_SOURCE_URL}, which failed ({exc}). "
            f"Download sem_text_rel_ranked.csv yourself and set {STR_ENV}=/path/to/it, or set "
            f"{DATA_ENV} / {SOURCES_ENV} to a local copy."
        ) from exc
    return Path(path)
