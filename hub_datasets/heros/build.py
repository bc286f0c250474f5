"""Build the HEROS dataset in Hub layout from ``heros.tsv`` (``dcml0714/Heros``, Apache-2.0).

One config, ``default``, split ``test``: one row per original sentence, columns ``id`` (0-based row
number in ``heros.tsv``; the HEROS baseline depends on row order) and the clean column names of
:data:`.source.COLUMNS` — ``original, synonym, antonym, negation_main, random_mlm, typo,
negation_antonym`` (file order; the two ``Negation`` columns are mapped by position, see
:mod:`.source`).  Text is kept as given (only surrounding whitespace is stripped).

``build(source, out_dir)`` accepts the TSV file itself or a folder holding ``heros.tsv`` (or
``heros/heros.tsv``, the layout of a sources folder) and returns the counts it writes into the card.
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from mteb_evalrank.errors import InputError
from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets.heros.source import (
    COLUMNS,
    EDIT_COLUMNS,
    HerosTable,
    find_tsv,
    negation_position_agreement,
    read_heros_tsv,
)

NAME = "heros"
CONFIG = "default"
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources PATH/TO/heros.tsv --out OUT_DIR"
SOURCE_REPO = "dcml0714/Heros"
#: Commit of dcml0714/Heros whose heros.tsv the plugin loads (main as of 2023-06-08: "Update
#: README.md"; heros.tsv itself was uploaded in b40d9febd283bb358651f26726c80d5bf6526c09 and is
#: unchanged since).
SOURCE_REVISION = "0929565636acc37c329ad0fe0d44c5a715351427"

HEROS_CITATION = r"""@inproceedings{chiang-etal-2023-revealing,
  author = {Chiang, Cheng-Han and Chuang, Yung-Sung and Glass, James and Lee, Hung-yi},
  booktitle = {Proceedings of the 8th Workshop on Representation Learning for NLP (RepL4NLP 2023)},
  publisher = {Association for Computational Linguistics},
  title = {Revealing the Blind Spot of Sentence Encoder Evaluation by {HEROS}},
  year = {2023},
}"""


def table_to_arrow(table: HerosTable):
    """The HEROS table as an Arrow table: an int32 id plus one string column per sentence column."""
    import pyarrow as pa

    return pa.table(
        {
            "id": pa.array(range(len(table)), type=pa.int32()),
            **{c: pa.array(table.columns[c], type=pa.string()) for c in COLUMNS},
        }
    )


def table_from_arrow(arrow, *, where: str = "HEROS dataset") -> HerosTable:
    """Inverse of :func:`table_to_arrow` (rows sorted by ``id``); missing columns raise :class:`InputError`."""
    names = set(arrow.column_names)
    missing = [c for c in ("id", *COLUMNS) if c not in names]
    if missing:
        raise InputError(f"{where}: missing column(s) {missing}; expected {['id', *COLUMNS]}.")
    ids = arrow.column("id").to_pylist()
    order = sorted(range(len(ids)), key=ids.__getitem__)
    columns = {}
    for c in COLUMNS:
        values = arrow.column(c).to_pylist()
        empty = [ids[i] for i in order if not (values[i] or "").strip()]
        if empty:
            raise InputError(f"{where}: empty text in column {c!r} (ids {empty[:5]}).")
        columns[c] = [values[i] for i in order]
    return HerosTable(columns)


def counts(table: HerosTable) -> dict[str, int]:
    """The counts the card reports: rows, pairs, unique sentences, unchanged edits, and the two negations' agreement."""
    n = len(table)
    report = {"rows": n, "pairs": n * len(EDIT_COLUMNS)}
    report["unique_sentences"] = len({t for c in COLUMNS for t in table.columns[c]})
    report["unique_originals"] = len(set(table.originals))
    for c in EDIT_COLUMNS:
        report[f"identical_to_original_{c}"] = sum(a == b for a, b in zip(table.originals, table.columns[c]))
    report["negation_main_equals_negation_antonym"] = sum(
        a == b for a, b in zip(table.columns["negation_main"], table.columns["negation_antonym"])
    )
    agreement = negation_position_agreement(table)
    report["negation_main_near_antonym_edit"] = agreement["negation_main_near_antonym_edit"]
    report["negation_antonym_near_antonym_edit"] = agreement["negation_antonym_near_antonym_edit"]
    return report


def build(source: Path, out_dir: Path) -> dict[str, int | str]:
    """Convert ``heros.tsv`` (``source`` = the file or a folder holding it) into ``out_dir``; return counts."""
    import hashlib

    tsv = find_tsv(Path(source))
    table = read_heros_tsv(tsv)
    digest = hashlib.sha256(tsv.read_bytes()).hexdigest()
    report = write_dataset(table, Path(out_dir), source_sha256=digest)
    return {**report, "source_sha256": digest}


def write_dataset(table: HerosTable, out_dir: Path, *, source_sha256: str = "unknown") -> dict[str, int]:
    """Write the HEROS dataset (parquet and card) to `out_dir`; returns the card's counts."""
    report = counts(table)
    layout.write_dataset(
        out_dir,
        {CONFIG: table_to_arrow(table)},
        card_metadata(report),
        card_body(report, source_sha256=source_sha256),
    )
    return report


def validate(folder: Path) -> list[str]:
    """Content problems of a built HEROS folder (empty list: fine); used by the push routine."""
    try:
        table = table_from_arrow(layout.read_config(Path(folder), CONFIG), where=str(folder))
    except Exception as exc:
        return [f"{folder}: {exc}"]
    return [] if len(table) >= 2 else [f"{folder}: HEROS needs at least two rows, found {len(table)}."]


def card_metadata(report: dict[str, int]) -> dict:
    """The YAML header of the HEROS dataset card (licence, tags, configs)."""
    from mteb_evalrank.hub_datasets.evalrank_format import size_category

    return {
        "pretty_name": "HEROS (high-lexical-overlap diagnostic set for sentence encoders)",
        "language": ["en"],
        "license": "apache-2.0",
        "task_categories": ["sentence-similarity"],
        "size_categories": [size_category(report["rows"])],
        "source_datasets": [SOURCE_REPO],
        "tags": ["mteb", "heros", "minimal-pairs", "negation", "embedding-evaluation"],
        "configs": layout.configs_metadata([CONFIG], default=CONFIG),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int], *, source_sha256: str = "unknown") -> str:
    """The HEROS dataset card's text: `card.md` filled with the counts, the source and the citation."""
    template = Template(Path(__file__).with_name("card.md").read_text(encoding="utf-8"))
    values = {k: f"{v:,}" for k, v in report.items()}
    return template.substitute(
        values,
        build_command=BUILD_COMMAND,
        citation=HEROS_CITATION,
        source_repo=SOURCE_REPO,
        source_revision=SOURCE_REVISION,
        source_sha256=source_sha256,
    )
