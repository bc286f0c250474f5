"""Where the HEROS task gets its data: local overrides first, then the authors' pinned Hub file.

Order:

1. ``MTEB_EVALRANK_HEROS=PATH`` — ``heros.tsv`` itself, a folder holding it, or a built Hub-layout
   folder (has ``README.md``); a path that does not exist is an error.
2. ``MTEB_EVALRANK_DATA=DIR`` with ``DIR/heros/README.md`` — the Hub-layout copy built by
   ``mteb-evalrank build-data heros``.
3. ``MTEB_EVALRANK_SOURCES=DIR`` with ``DIR/heros.tsv`` or ``DIR/heros/heros.tsv``.
4. ``hf_hub_download("dcml0714/Heros", "heros.tsv", repo_type="dataset", revision=SOURCE_REVISION)``.
   Failing that (offline, no cached copy): :class:`~mteb_evalrank.errors.DataNotFoundError` naming
   the variables above.
"""

from __future__ import annotations

import os
from pathlib import Path

from mteb_evalrank.errors import DataNotFoundError
from mteb_evalrank.hub_datasets.heros.build import CONFIG, SOURCE_REPO, SOURCE_REVISION, table_from_arrow
from mteb_evalrank.hub_datasets.heros.source import FILENAME, HerosTable, find_tsv, read_heros_tsv

HEROS_ENV = "MTEB_EVALRANK_HEROS"
DATA_ENV = "MTEB_EVALRANK_DATA"
SOURCES_ENV = "MTEB_EVALRANK_SOURCES"


def read_any(path: Path) -> HerosTable:
    """A HEROS table from ``heros.tsv``, a folder holding it, or a Hub-layout folder."""
    path = Path(path)
    if path.is_dir() and (path / "README.md").is_file():
        from mteb_evalrank.hub_datasets import layout

        return table_from_arrow(layout.read_config(path, CONFIG), where=str(path))
    return read_heros_tsv(find_tsv(path))


def load_heros() -> tuple[HerosTable, str]:
    """Return ``(table, origin)``; ``origin`` says where the data came from (stored with the scores)."""
    env = os.environ.get(HEROS_ENV)
    if env:
        path = Path(env).expanduser()
        if not path.exists():
            raise DataNotFoundError(f"{HEROS_ENV}={env} does not exist (expected heros.tsv or a built folder).")
        return read_any(path), f"local:{path}"
    data_root = os.environ.get(DATA_ENV)
    if data_root and (Path(data_root).expanduser() / "heros" / "README.md").is_file():
        folder = Path(data_root).expanduser() / "heros"
        return read_any(folder), f"local:{folder}"
    sources = os.environ.get(SOURCES_ENV)
    if sources:
        for candidate in (Path(sources).expanduser() / FILENAME, Path(sources).expanduser() / "heros" / FILENAME):
            if candidate.is_file():
                return read_heros_tsv(candidate), f"sources:{candidate}"
    return read_heros_tsv(_download()), f"hub:{SOURCE_REPO}@{SOURCE_REVISION}"


def _download() -> Path:
    from huggingface_hub import hf_hub_download

    from mteb_evalrank.models.resolve import hub_offline

    # HF_HUB_OFFLINE (checked at call time, also when set after huggingface_hub was imported): only the
    # local Hugging Face cache is looked at, so there is no wait for network retries
    offline = hub_offline()
    try:
        return Path(
            hf_hub_download(
                repo_id=SOURCE_REPO,
                filename=FILENAME,
                repo_type="dataset",
                revision=SOURCE_REVISION,
                local_files_only=offline,
            )
        )
    except Exception as exc:  # offline, unreachable, missing revision: the advice is the same
        reason = (
            "HF_HUB_OFFLINE is set and the file is not in the Hugging Face cache"
            if offline
            else f"{type(exc).__name__}: {' '.join(str(exc).split())}; "
            "with no network, set HF_HUB_OFFLINE=1 to fail at once"
        )
        raise DataNotFoundError(
            f"Cannot download {FILENAME} from the Hugging Face Hub dataset {SOURCE_REPO}@{SOURCE_REVISION[:7]} "
            f"({reason}). Offline, point the plugin at a local copy: set "
            f"{HEROS_ENV}=/path/to/heros.tsv (or a folder built with `mteb-evalrank build-data heros`), "
            f"or {DATA_ENV}=DIR with the built dataset in DIR/heros, or {SOURCES_ENV}=DIR with DIR/heros.tsv."
        ) from exc
