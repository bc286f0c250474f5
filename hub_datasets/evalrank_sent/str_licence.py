"""STR's licence in practice: its text is never published, and is restored from the STR file at load time.

STR-2022 (Abdalla et al., EACL 2023; ``sem_text_rel_ranked.csv``) may be used for research but not
redistributed.  The published EvalRankSent dataset therefore keeps every row but blanks the text of
each sentence that occurs only in STR:

- :func:`prepare_for_push` copies a built dataset for publication: in ``background``, ``text`` is set to
  ``""`` for every ``str-`` id (the builder gives a sentence an ``str-`` id exactly when it does not
  occur in STS-B) and a ``text_sha1`` column (sha1 of the UTF-8 text, all rows) is added; in ``pairs``,
  ``query``/``positive`` are blanked where their id is an ``str-`` id.  The push routine uploads only
  this copy.
- :func:`restore_str_text` refills the blanks from an STR csv, read exactly as the builder reads it
  (same ids ``str-<PairID>-<1|2>``, same text), verifies every refilled text against ``text_sha1``
  and fails with a clear message if a sentence is missing or differs.  The tasks call it with the
  file from :data:`STR_SOURCE_URL` (or a local copy).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mteb_evalrank.errors import InputError
from mteb_evalrank.hub_datasets import evalrank_format as fmt
from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets.evalrank_sent.build import read_str
from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL, hashes_for_blanking, text_sha1, verified_texts

__all__ = ["STR_SOURCE_URL", "check_pushable", "is_str_only", "prepare_for_push", "restore_str_text", "text_sha1"]

STR_ID_PREFIX = "str-"


def is_str_only(item_id: str) -> bool:
    """True for ids of sentences that occur only in STR (their text must not be published)."""
    return str(item_id).startswith(STR_ID_PREFIX)


def prepare_for_push(folder: Path, staging_dir: Path) -> Path:
    """Copy the dataset in ``folder`` to ``staging_dir`` with all STR-only text blanked; return ``staging_dir``.

    Idempotent: a folder that is already blanked (has ``text_sha1``) is copied with its hashes kept.
    """
    import pyarrow as pa

    folder, staging_dir = Path(folder), Path(staging_dir)
    background = layout.read_config(folder, fmt.BACKGROUND)
    pairs = layout.read_config(folder, fmt.PAIRS)
    ids = background["id"].to_pylist()
    texts = background["text"].to_pylist()
    old = background[fmt.TEXT_SHA1].to_pylist() if fmt.TEXT_SHA1 in background.column_names else None
    hashes = hashes_for_blanking(
        ids, texts, old, f"{folder}: background row {{id!r}} has no text and no {fmt.TEXT_SHA1}."
    )
    blanked_background = pa.table(
        {
            "text": pa.array(["" if is_str_only(i) else t for i, t in zip(ids, texts)], pa.string()),
            "id": pa.array(ids, pa.string()),
            fmt.TEXT_SHA1: pa.array(hashes, pa.string()),
        }
    )
    columns = {name: pairs[name].to_pylist() for name in pairs.column_names}
    for text_col, id_col in (("query", "query_id"), ("positive", "positive_id")):
        columns[text_col] = ["" if is_str_only(i) else t for t, i in zip(columns[text_col], columns[id_col])]
    blanked_pairs = pa.table(
        {name: pa.array(values, pairs.schema.field(name).type) for name, values in columns.items()}
    )

    staging_dir.mkdir(parents=True, exist_ok=True)
    layout.write_config(staging_dir, fmt.PAIRS, blanked_pairs)
    layout.write_config(staging_dir, fmt.BACKGROUND, blanked_background)
    shutil.copyfile(folder / layout.CARD_FILE, staging_dir / layout.CARD_FILE)
    problems = check_pushable(staging_dir)
    if problems:
        raise InputError(f"{staging_dir}: STR text would be published: " + "; ".join(problems))
    return staging_dir


def check_pushable(folder: Path) -> list[str]:
    """Problems that forbid publishing ``folder``: any STR-only text left, or hashes missing."""
    background = layout.read_config(folder, fmt.BACKGROUND)
    pairs = layout.read_config(folder, fmt.PAIRS)
    problems = []
    if fmt.TEXT_SHA1 not in background.column_names:
        problems.append(f"background has no {fmt.TEXT_SHA1} column (run prepare_for_push first)")
    leaked = [i for i, t in zip(background["id"].to_pylist(), background["text"].to_pylist()) if is_str_only(i) and t]
    for text_col, id_col in (("query", "query_id"), ("positive", "positive_id")):
        leaked += [i for i, t in zip(pairs[id_col].to_pylist(), pairs[text_col].to_pylist()) if is_str_only(i) and t]
    if leaked:
        problems.append(f"{len(leaked)} STR-only texts are not blanked, e.g. ids {sorted(set(leaked))[:3]}")
    return problems


def restore_str_text(pairs_df, background_df, str_csv_path: Path):
    """Refill blanked STR text from ``str_csv_path``; return ``(pairs_df, background_df)`` (pandas copies).

    The returned background has the local-build columns (``text``, ``id``; ``text_sha1`` is dropped after
    verification).  Raises :class:`SourceFormatError` naming the file if an id is missing from it or a
    refilled text does not match its ``text_sha1``, and :class:`InputError` if a blank cannot be filled.
    """
    pairs = _to_pandas(pairs_df).copy()
    background = _to_pandas(background_df).copy()
    blank = background["text"].isna() | (background["text"] == "")
    if blank.any():
        if fmt.TEXT_SHA1 not in background.columns:
            raise InputError(
                f"background has {int(blank.sum())} blank texts but no {fmt.TEXT_SHA1} column to verify them."
            )
        source = {}
        for p in read_str(Path(str_csv_path)):
            source[p.id1], source[p.id2] = p.s1, p.s2
        wanted = background.loc[blank, "id"].tolist()
        expected = background.loc[blank, fmt.TEXT_SHA1].tolist()
        restored = verified_texts(wanted, source, expected, str_csv_path, "STR sentences")
        background.loc[blank, "text"] = restored
    background = background.drop(columns=[fmt.TEXT_SHA1], errors="ignore")
    text_of = dict(zip(background["id"], background["text"]))
    for text_col, id_col in (("query", "query_id"), ("positive", "positive_id")):
        empty = pairs[text_col].isna() | (pairs[text_col] == "")
        unknown = sorted(set(pairs.loc[empty, id_col]) - set(text_of))
        if unknown:
            raise InputError(
                f"pairs: {len(unknown)} blank {text_col} texts have ids not in the background, e.g. {unknown[:3]}."
            )
        pairs.loc[empty, text_col] = pairs.loc[empty, id_col].map(text_of)
    return pairs, background


def _to_pandas(table):
    return table.to_pandas() if hasattr(table, "to_pandas") else table
