"""STR's licence in practice for ``sts-senteval``: its text is never published, it is restored at load time.

STR-2022 (Abdalla et al., EACL 2023; ``sem_text_rel_ranked.csv``) may be used for research but not
redistributed (same rule as for ``evalrank-sent``, see :mod:`..evalrank_sent.str_licence`):

- :func:`prepare_for_push` copies a built dataset for publication: every config as built, except
  ``STR``, whose ``text1``/``text2`` are set to ``""`` on every row, with two added columns
  ``text1_sha1``/``text2_sha1`` (sha1 of the UTF-8 text).  Ids (``str-<PairID>``), scores and row
  order are kept.  The push routine uploads only this copy.
- :func:`check_pushable` refuses a folder whose ``STR`` config still holds text or lacks the hashes.
- :func:`restore_str_text` refills the blanks from an STR csv (read exactly as the builder reads it),
  verifies every text against its hash and fails with a clear message otherwise.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mteb_evalrank.errors import InputError
from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL, hashes_for_blanking, verified_texts
from mteb_evalrank.hub_datasets.sts_senteval.build import SHA1_COLUMNS, read_str_csv

STR_CONFIG = "STR"
TEXT_COLUMNS = ("text1", "text2")

__all__ = ["SHA1_COLUMNS", "STR_CONFIG", "STR_SOURCE_URL", "check_pushable", "prepare_for_push", "restore_str_text"]


def blank_str_table(table):
    """The publishable ``STR`` table: text blanked, ``text1_sha1``/``text2_sha1`` added (idempotent)."""
    import pyarrow as pa

    columns = {name: table[name].to_pylist() for name in table.column_names}
    ids = columns["id"]
    for text_col, sha_col in SHA1_COLUMNS.items():
        what = f"STR row {{id!r}} has no {text_col} and no {sha_col}."
        hashes = hashes_for_blanking(ids, columns[text_col], columns.get(sha_col), what)
        columns[sha_col] = hashes
        columns[text_col] = [""] * len(ids)
    types = {name: table.schema.field(name).type for name in table.column_names}
    return pa.table({name: pa.array(values, types.get(name, pa.string())) for name, values in columns.items()})


def prepare_for_push(folder: Path, staging_dir: Path) -> Path:
    """Copy the dataset in ``folder`` to ``staging_dir`` with all STR text blanked; return ``staging_dir``."""
    folder, staging_dir = Path(folder), Path(staging_dir)
    staging_dir.mkdir(parents=True, exist_ok=True)
    for path in layout.data_files(folder):  # the card and every parquet file it names
        target = staging_dir / path.relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    str_files = layout.config_files(staging_dir, STR_CONFIG)
    if [p.relative_to(staging_dir).as_posix() for p in str_files] != [layout.config_path(STR_CONFIG)]:
        raise InputError(f"{folder}: config {STR_CONFIG!r} must be the single file {layout.config_path(STR_CONFIG)}.")
    layout.write_config(staging_dir, STR_CONFIG, blank_str_table(layout.read_config(staging_dir, STR_CONFIG)))
    problems = check_pushable(staging_dir)
    if problems:
        raise InputError(f"{staging_dir}: STR text would be published: " + "; ".join(problems))
    return staging_dir


def check_pushable(folder: Path) -> list[str]:
    """Problems that forbid publishing ``folder``: STR text left, or the hash columns missing."""
    try:
        table = layout.read_config(Path(folder), STR_CONFIG)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return [f"cannot read config {STR_CONFIG!r} ({type(exc).__name__}: {exc})"]
    problems = [
        f"{STR_CONFIG} has no {sha} column (run prepare_for_push first)"
        for sha in SHA1_COLUMNS.values()
        if sha not in table.column_names
    ]
    for column in TEXT_COLUMNS:
        if column in table.column_names:
            leaked = [i for i, t in zip(table["id"].to_pylist(), table[column].to_pylist()) if t]
            if leaked:
                problems.append(f"{len(leaked)} STR {column} texts are not blanked, e.g. ids {leaked[:3]}")
    return problems


def restore_str_text(table, str_csv_path: Path):
    """Refill the blanked STR config from ``str_csv_path``; return a pandas DataFrame without hash columns.

    ``table``: the ``STR`` config as a ``pyarrow.Table`` or pandas DataFrame.  A table that holds its
    text already is returned unchanged (minus hash columns).  Raises :class:`SourceFormatError` naming
    the file if an id is missing from it or a text does not match its hash.
    """
    df = (table.to_pandas() if hasattr(table, "to_pandas") else table).copy()
    blank = (df["text1"].fillna("") == "") | (df["text2"].fillna("") == "")
    if blank.any():
        missing_sha = [c for c in SHA1_COLUMNS.values() if c not in df.columns]
        if missing_sha:
            raise InputError(
                f"{STR_CONFIG}: {int(blank.sum())} rows have blank text but no {missing_sha} to verify them."
            )
        source = {p.id: p for p in read_str_csv(Path(str_csv_path))}
        wanted = df.loc[blank, "id"].tolist()
        for text_col, sha_col in SHA1_COLUMNS.items():
            texts = {i: getattr(p, text_col) for i, p in source.items()}
            expected = df.loc[blank, sha_col].tolist()
            df.loc[blank, text_col] = verified_texts(wanted, texts, expected, str_csv_path, f"STR {text_col} texts")
    return df.drop(columns=list(SHA1_COLUMNS.values()), errors="ignore").reset_index(drop=True)

