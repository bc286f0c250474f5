"""Read ``heros.tsv`` (``dcml0714/Heros``) and map its columns — by position — to HEROS subsets.

Header of the released file (its dataset card lists the same names)::

    Original  Synonym  Antonym  Negation  Random  Typo  Negation

Two columns share the name ``Negation``.  The paper (Chiang et al., 2023, §2.2.6, Table 2) defines
two negation subsets:

- **Negation (Main)** negates the *original* sentence at its main verb (add auxiliary + "not", or
  remove an existing "not"): "And that is why it is illegal" → "And that is **not** why it is illegal".
- **Negation (Antonym)** negates, in the original sentence, *the word that the Antonym subset replaced*
  ("illegal" → "**not** illegal").  It therefore says roughly what the Antonym sentence says ("legal")
  and contradicts the original; it is not a paraphrase of the original.

Mapping used here (by column position, 0-based): column 3 (the first ``Negation``) →
``negation_main``, column 6 (the second ``Negation``, last column) → ``negation_antonym``.
Reasoning: everywhere the paper lists both subsets, Main comes first and Antonym second (§2.2.6
introduces Main as "the first one" and Antonym as "the other type ... another subset"; Table 2 and
the results table/Figure 1 order them Main, Antonym), and the Antonym-negation is defined relative to
the Antonym subset, i.e. it is the derived, later-constructed column — the one appended at the end
after Random and Typo.  This could not be checked against the file's content here (the Hub was not
reachable when this was written).  A content check that would confirm it: the second ``Negation``
column should place "not" at the position of the word the ``Antonym`` column replaced (so it differs
from ``Original`` at the same token position as ``Antonym`` does), while the first one negates the
main verb; per the paper's footnote 5 the two coincide when the antonym replaced the main verb.
:func:`negation_position_agreement` computes that check; the builder records it in the card.

Note for users of ``datasets.load_dataset("dcml0714/Heros")``: pandas renames the duplicated header,
so the columns arrive as ``Negation`` (= Negation (Main)) and ``Negation.1`` (= Negation (Antonym)).

Parsing: UTF-8 (a BOM is ignored), tab-separated, with the csv module's default quote handling —
the dialect pandas' ``read_csv(sep="\\t")`` (and hence ``datasets``) uses for this file.  Blank lines
are skipped.  The header must have exactly the seven names above (case and surrounding spaces are
ignored); every data row must have seven non-empty fields, otherwise
:class:`~mteb_evalrank.errors.SourceFormatError` names the file and line.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets.source_files import read_text

FILENAME = "heros.tsv"
#: (header name in heros.tsv, clean column name), in file order.  Position decides, not the name.
TSV_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Original", "original"),
    ("Synonym", "synonym"),
    ("Antonym", "antonym"),
    ("Negation", "negation_main"),
    ("Random", "random_mlm"),
    ("Typo", "typo"),
    ("Negation", "negation_antonym"),
)
EXPECTED_HEADER: tuple[str, ...] = tuple(name for name, _ in TSV_COLUMNS)
#: Clean column names, in file order (``original`` first).
COLUMNS: tuple[str, ...] = tuple(clean for _, clean in TSV_COLUMNS)
#: The edited columns, i.e. the subsets.
EDIT_COLUMNS: tuple[str, ...] = COLUMNS[1:]


@dataclass(frozen=True)
class HerosTable:
    """HEROS rows as columns: clean column name -> list of sentences (row ``i`` across all columns)."""

    columns: dict[str, list[str]]

    def __post_init__(self) -> None:
        lengths = {len(v) for v in self.columns.values()}
        if set(self.columns) != set(COLUMNS) or len(lengths) != 1:
            raise ValueError(f"HerosTable needs columns {COLUMNS} of equal length.")

    def __len__(self) -> int:
        return len(self.columns["original"])

    @property
    def originals(self) -> list[str]:
        return self.columns["original"]

    def fingerprint(self) -> str:
        """sha256 (16 hex digits) of the content, independent of the file format it was read from."""
        h = hashlib.sha256()
        for name in COLUMNS:
            h.update(name.encode())
            for text in self.columns[name]:
                h.update(b"\x1f" + text.encode("utf-8"))
        return h.hexdigest()[:16]


def read_heros_tsv(path: Path) -> HerosTable:
    """Parse ``heros.tsv`` (see module docstring); malformed input raises :class:`SourceFormatError`."""
    path = Path(path)
    text = read_text(path, what="HEROS file (heros.tsv)")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    header: list[str] | None = None
    columns: dict[str, list[str]] = {name: [] for name in COLUMNS}
    start = 1
    for fields in reader:
        line, start = start, reader.line_num + 1  # first physical line of this record
        if not fields or all(not f.strip() for f in fields):
            continue
        if header is None:
            header = [f.strip() for f in fields]
            if [h.lower() for h in header] != [h.lower() for h in EXPECTED_HEADER]:
                raise SourceFormatError(
                    path,
                    f"unexpected header {header}; expected the {len(EXPECTED_HEADER)} columns "
                    f"{list(EXPECTED_HEADER)} of dcml0714/Heros (columns are mapped by position).",
                    line=line,
                )
            continue
        if len(fields) != len(COLUMNS):
            raise SourceFormatError(
                path, f"expected {len(COLUMNS)} tab-separated fields, found {len(fields)}.", line=line
            )
        empty = [COLUMNS[i] for i, f in enumerate(fields) if not f.strip()]
        if empty:
            raise SourceFormatError(path, f"empty cell(s) in column(s) {empty}.", line=line)
        for name, value in zip(COLUMNS, fields):
            columns[name].append(value.strip())
    if header is None:
        raise SourceFormatError(path, "the file is empty (no header).")
    if not columns["original"]:
        raise SourceFormatError(path, "the file has a header but no data rows.")
    return HerosTable(columns)


def find_tsv(source: Path) -> Path:
    """``source`` itself if it is a file, else ``source/heros.tsv`` or ``source/heros/heros.tsv``."""
    source = Path(source)
    if source.is_file():
        return source
    for candidate in (source / FILENAME, source / "heros" / FILENAME):
        if candidate.is_file():
            return candidate
    raise SourceFormatError(source, f"no {FILENAME} here (looked for {FILENAME} and heros/{FILENAME}).")


def _tokens(text: str) -> list[str]:
    return text.lower().split()


def _first_diff(a: list[str], b: list[str]) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def negation_position_agreement(table: HerosTable) -> dict[str, int]:
    """Evidence for the column mapping: where each negation column first departs from the original.

    Counts rows where the first differing token of ``negation_main`` / ``negation_antonym`` (vs the
    original) is within one token of the first differing token of ``antonym`` (whitespace tokens,
    lowercased).  With the documented mapping ``negation_antonym`` should agree far more often.
    """
    counts = {"rows": len(table), "negation_main_near_antonym_edit": 0, "negation_antonym_near_antonym_edit": 0}
    for i in range(len(table)):
        orig = _tokens(table.columns["original"][i])
        ant = _first_diff(orig, _tokens(table.columns["antonym"][i]))
        for col in ("negation_main", "negation_antonym"):
            if abs(_first_diff(orig, _tokens(table.columns[col][i])) - ant) <= 1:
                counts[f"{col}_near_antonym_edit"] += 1
    return counts
