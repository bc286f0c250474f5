"""The Hugging Face Hub dataset layout: parquet tables per config plus a ``README.md`` dataset card.

A built dataset is a folder that ``datasets.load_dataset(folder, CONFIG, split="test")`` reads and that
``huggingface_hub.HfApi.upload_folder`` publishes as is::

    <folder>/README.md               YAML front matter (configs, licence, language, ...) + markdown body
    <folder>/<config>/test.parquet   one table per config, split ``test``

The card's ``configs:`` list maps each config name to its data files (the Hub's "manual configuration"
of data files), so no loading script is needed.  :func:`read_config` is the fast path the tasks use
(pyarrow straight from the files the card names, no ``datasets`` cache); :func:`validate_folder` is
the structural check the push routine runs before anything is uploaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from mteb_evalrank.errors import DataNotFoundError

CARD_FILE = "README.md"
SPLIT = "test"

#: Card metadata keys every dataset of the plugin must set (checked by :func:`validate_folder`).
REQUIRED_CARD_KEYS = ("configs", "license", "language", "pretty_name", "task_categories")
#: Card metadata key naming the plugin dataset (builder) a folder was built by, e.g. ``evalrank-sent``;
#: the push routine uses it to apply that dataset's pre-publication hook.
CARD_DATASET_KEY = "mteb_evalrank_dataset"


def config_path(config: str, split: str = SPLIT) -> str:
    """Path of a config's parquet file inside the dataset folder (POSIX, as written in the card)."""
    return f"{config}/{split}.parquet"


def configs_metadata(configs: list[str], *, default: str | None = None) -> list[dict[str, Any]]:
    """The card's ``configs:`` entries: one per config, split ``test``, ``default`` marks one config."""
    out = []
    for name in configs:
        entry: dict[str, Any] = {"config_name": name, "data_files": [{"split": SPLIT, "path": config_path(name)}]}
        if name == default:
            entry["default"] = True
        out.append(entry)
    return out


def write_config(folder: Path, config: str, table) -> Path:
    """Write one config's table (a ``pyarrow.Table``) to ``<folder>/<config>/test.parquet``."""
    import pyarrow.parquet as pq

    path = Path(folder) / config_path(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return path


def write_card(folder: Path, metadata: Mapping[str, Any], body: str) -> Path:
    """Write ``<folder>/README.md``: YAML front matter from ``metadata`` followed by the markdown ``body``."""
    from huggingface_hub import DatasetCard, DatasetCardData

    data = DatasetCardData(**dict(metadata))
    card = DatasetCard(f"---\n{data.to_yaml()}\n---\n\n{body.strip()}\n")
    path = Path(folder) / CARD_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    card.save(path)
    return path


def write_dataset(folder: Path, tables: Mapping[str, Any], metadata: Mapping[str, Any], body: str) -> Path:
    """Write a whole Hub-layout dataset: every config's table (``{config: pyarrow.Table}``), then the card."""
    from mteb_evalrank.data.files import output_dir

    output_dir(Path(folder), what="dataset folder")  # a file in the way: one-line error naming it
    for config, table in tables.items():
        write_config(folder, config, table)
    return write_card(folder, metadata, body)


def read_card(folder: Path) -> tuple[dict[str, Any], str]:
    """Return ``(metadata, body)`` of ``<folder>/README.md``; raise :class:`DataNotFoundError` if absent."""
    from huggingface_hub import DatasetCard

    path = Path(folder) / CARD_FILE
    if not path.is_file():
        raise DataNotFoundError(f"{folder} is not a dataset in Hub layout: no {CARD_FILE}.")
    card = DatasetCard.load(path)
    return card.data.to_dict(), card.text


def config_files(folder: Path, config: str, split: str = SPLIT, *, metadata: Mapping | None = None) -> list[Path]:
    """Files of ``config``/``split`` as named by the card's ``configs:`` (globs expanded, sorted)."""
    folder = Path(folder)
    if metadata is None:
        metadata, _ = read_card(folder)
    configs = metadata.get("configs") or []
    entry = next((c for c in configs if isinstance(c, Mapping) and c.get("config_name") == config), None)
    if entry is None:
        names = [c.get("config_name") for c in configs if isinstance(c, Mapping)]
        raise DataNotFoundError(f"{folder}: the dataset card has no config {config!r} (configs: {names}).")
    patterns = _split_patterns(entry.get("data_files"), split)
    if not patterns:
        raise DataNotFoundError(f"{folder}: config {config!r} has no data files for split {split!r}.")
    files: list[Path] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            matched = sorted(p for p in folder.glob(pattern) if p.is_file())
        else:
            matched = [folder / pattern] if (folder / pattern).is_file() else []
        if not matched:
            raise DataNotFoundError(f"{folder}: config {config!r} names {pattern!r}, which does not exist.")
        files.extend(matched)
    return files


def read_config(folder: Path, config: str, split: str = SPLIT):
    """Read one config of a dataset folder as a ``pyarrow.Table`` (fast path: parquet, no cache)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(path) for path in config_files(folder, config, split)]
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)


def validate_folder(folder: Path) -> list[str]:
    """Structural problems of a dataset folder (empty list: fine).

    Checks the card (front matter parses, required keys present, every config names existing parquet
    files inside the folder for split ``test``) and that every parquet file is readable and non-empty.
    Content rules of a particular dataset are checked by that dataset's own validator.
    """
    import pyarrow.parquet as pq

    folder = Path(folder)
    if not folder.is_dir():
        return [f"{folder} is not a directory."]
    try:
        metadata, body = read_card(folder)
    except Exception as exc:  # a broken card is a problem to report, whatever the parser raised
        return [f"{folder / CARD_FILE}: cannot read the dataset card ({type(exc).__name__}: {exc})."]
    problems = [f"{CARD_FILE}: front matter lacks {key!r}." for key in REQUIRED_CARD_KEYS if not metadata.get(key)]
    if not body.strip():
        problems.append(f"{CARD_FILE}: the card has no description (empty body).")
    for entry in metadata.get("configs") or []:
        name = entry.get("config_name") if isinstance(entry, Mapping) else None
        if not name:
            problems.append(f"{CARD_FILE}: a configs entry has no config_name.")
            continue
        for pattern in _split_patterns(entry.get("data_files"), SPLIT):
            pure = PurePosixPath(pattern)
            if pure.is_absolute() or ".." in pure.parts:
                problems.append(f"config {name!r}: data file {pattern!r} points outside the dataset folder.")
        try:
            files = config_files(folder, name, metadata=metadata)
        except DataNotFoundError as exc:
            problems.append(str(exc))
            continue
        for path in files:
            try:
                rows = pq.ParquetFile(path).metadata.num_rows
            except Exception as exc:
                problems.append(f"{path}: not a readable parquet file ({type(exc).__name__}: {exc}).")
                continue
            if rows == 0:
                problems.append(f"{path}: the table is empty.")
    return problems


def data_files(folder: Path) -> list[Path]:
    """Every file the card references (the card itself first): what a dataset consists of."""
    metadata, _ = read_card(folder)
    files = [Path(folder) / CARD_FILE]
    for entry in metadata.get("configs") or []:
        for split in _splits(entry.get("data_files")):
            files.extend(config_files(folder, entry["config_name"], split, metadata=metadata))
    return list(dict.fromkeys(files))


def _splits(data_files: Any) -> list[str]:
    if isinstance(data_files, list) and all(isinstance(d, Mapping) for d in data_files):
        return [str(d.get("split", "train")) for d in data_files]
    return ["train"]  # a bare path or list of paths is the train split (datasets' convention)


def _split_patterns(data_files: Any, split: str) -> list[str]:
    """Paths/globs of one split from a card ``data_files`` value (all forms the Hub accepts)."""
    if data_files is None:
        return []
    if isinstance(data_files, str):
        return [data_files] if split == "train" else []
    if isinstance(data_files, Mapping):  # {split: path(s)}
        value = data_files.get(split)
        return [value] if isinstance(value, str) else list(value or [])
    out: list[str] = []
    for item in data_files:
        if isinstance(item, str):
            if split == "train":
                out.append(item)
        elif isinstance(item, Mapping) and item.get("split", "train") == split:
            value = item.get("path")
            out.extend([value] if isinstance(value, str) else list(value or []))
    return out
