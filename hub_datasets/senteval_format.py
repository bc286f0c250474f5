"""Reading SentEval-format source files exactly as SentEval does, and the tables built from them.

Shared by the ``senteval-downstream`` and ``sts-senteval`` builders.  SentEval (facebookresearch/SentEval,
``senteval/*.py``; the EvalRank toolkit ships the same loaders) reads its files in two ways, and the
difference matters:

- ``io.open(path, encoding=...).read().splitlines()`` (MR, CR, SUBJ, MPQA; STS12-16): Python's
  ``str.splitlines`` — a blank line is a sample (an empty token list), a trailing newline is not;
  besides ``\\n`` it also breaks at ``\\x0b``, ``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and
  ``\\u2029`` (:func:`splitlines_of`);
- ``for line in io.open(path, encoding=...)`` (SST, TREC, MRPC, SICK, STS-B, SciCite): lines end at
  ``\\n`` only (universal newlines: ``\\r\\n`` and ``\\r`` count as ``\\n``) and every line is a record
  (:func:`iter_lines_of`; blank lines, which SentEval cannot parse, are skipped).

Both apply SentEval's encoding (``latin-1`` or ``utf-8``, never ``utf-8-sig``: a byte-order mark stays
in the text, as in SentEval).  SentEval hands the batcher token lists, ``sentence.split()``; the tables
record :func:`senteval_text` — those tokens re-joined with single spaces, which splits back into the
same tokens (an empty token list gives ``""``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.errors import SourceFormatError

#: Split names as SentEval uses them (MR/CR/SUBJ/MPQA: everything is ``train``, k-folded).
SPLITS = ("train", "dev", "test")
SENTENCE_COLUMNS = ("id", "split", "text", "label", "label_name")
PAIR_COLUMNS = ("id", "split", "text1", "text2", "label", "label_name")
SCORED_PAIR_COLUMNS = ("id", "subset", "split", "text1", "text2", "score")


def senteval_text(sentence: str) -> str:
    """What SentEval passes to the batcher (``sentence.split()``), re-joined with single spaces."""
    return " ".join(sentence.split())


def _decode(path: Path, encoding: str, what: str) -> str:
    path = Path(path)
    if not path.is_file():
        raise SourceFormatError(path, f"missing {what} (expected the layout of shared/data/sources).")
    data = path.read_bytes()
    try:
        # io.open's text mode, as SentEval opens its files: universal newlines, no BOM handling
        return io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline=None).read()
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceFormatError(path, f"not {encoding} text ({exc.reason} at byte {exc.start}).", line=line) from exc


def splitlines_of(path: Path, *, encoding: str, what: str = "source file") -> list[str]:
    """``io.open(path, encoding=encoding).read().splitlines()`` with SentEval-style errors."""
    return _decode(path, encoding, what).splitlines()


def iter_lines_of(path: Path, *, encoding: str, what: str = "source file") -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` of ``for line in io.open(path, encoding=encoding)``, newline removed.

    Lines that are empty or whitespace only are skipped (SentEval's parsers fail on them).
    """
    text = _decode(path, encoding, what)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def is_ascii(text: str) -> bool:
    """True when every character of `text` is ASCII."""
    return all(ord(ch) < 128 for ch in text)


def parse_int(value: str, path: Path, line: int, *, what: str = "label") -> int:
    """`int(value)`; a value that is not an integer is a `SourceFormatError` naming the file and line."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SourceFormatError(path, f"{what} {value!r} is not an integer.", line=line) from None


def check_header(path: Path, first_line: str, expected_first_field: str) -> None:
    """SentEval drops the first line of MRPC/SICK files unread; make sure it is the header."""
    field = first_line.lstrip("\ufeff").strip().split("\t")[0]
    if field != expected_first_field:
        raise SourceFormatError(
            path,
            f"expected the header line (first field {expected_first_field!r}), found {field!r}; SentEval "
            "skips the first line, so a file without its header would lose a row.",
            line=1,
        )


def first_line_of(path: Path, *, encoding: str, what: str) -> str:
    """The first line of a source file, decoded with `encoding` (a decoding error names the file)."""
    text = _decode(path, encoding, what)
    return text.split("\n", 1)[0]


@dataclass(frozen=True)
class LabelledText:
    """One SentEval sample: ``text2`` is ``None`` for a single-sentence task."""

    id: str
    split: str
    text: str
    label: int
    text2: str | None = None


@dataclass(frozen=True)
class ScoredPair:
    """One scored sentence pair of a similarity source: id, subset, split, both texts and the gold score."""

    id: str
    subset: str
    split: str
    text1: str
    text2: str
    score: float


def labelled_table(rows: Sequence[LabelledText], label_names: Sequence[str], *, pairs: bool):
    """``pyarrow.Table`` with :data:`SENTENCE_COLUMNS` (or :data:`PAIR_COLUMNS` if ``pairs``)."""
    import pyarrow as pa

    columns = {
        "id": pa.array([r.id for r in rows], pa.string()),
        "split": pa.array([r.split for r in rows], pa.string()),
    }
    if pairs:
        columns["text1"] = pa.array([r.text for r in rows], pa.string())
        columns["text2"] = pa.array([r.text2 for r in rows], pa.string())
    else:
        columns["text"] = pa.array([r.text for r in rows], pa.string())
    columns["label"] = pa.array([r.label for r in rows], pa.int64())
    columns["label_name"] = pa.array([label_names[r.label] for r in rows], pa.string())
    return pa.table(columns)


def scored_table(rows: Sequence[ScoredPair]):
    """``pyarrow.Table`` with :data:`SCORED_PAIR_COLUMNS`."""
    import pyarrow as pa

    return pa.table(
        {
            "id": pa.array([r.id for r in rows], pa.string()),
            "subset": pa.array([r.subset for r in rows], pa.string()),
            "split": pa.array([r.split for r in rows], pa.string()),
            "text1": pa.array([r.text1 for r in rows], pa.string()),
            "text2": pa.array([r.text2 for r in rows], pa.string()),
            "score": pa.array([r.score for r in rows], pa.float64()),
        }
    )


def split_counts(rows: Iterable, *, key=lambda r: r.split) -> dict[str, int]:
    """Rows per split, in :data:`SPLITS` order."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[key(r)] = counts.get(key(r), 0) + 1
    return {s: counts[s] for s in SPLITS if s in counts} | {s: n for s, n in counts.items() if s not in SPLITS}


def find_root(sources_dir: Path, folder: str, marker: str) -> Path:
    """``<sources>/<folder>`` (layout of shared/data/sources), or ``sources_dir`` itself if it holds ``marker``."""
    sources_dir = Path(sources_dir)
    if (sources_dir / folder).is_dir():
        return sources_dir / folder
    if (sources_dir / marker).exists():
        return sources_dir
    raise SourceFormatError(
        sources_dir / folder, f"missing source folder (expected {folder}/ inside the sources folder {sources_dir})."
    )


def check_columns(table, expected: Sequence[str], where: str) -> list[str]:
    """A problem line when `table` lacks some of the `expected` columns; empty otherwise."""
    missing = [c for c in expected if c not in table.column_names]
    return [f"{where}: missing column(s) {missing}; expected {list(expected)}."] if missing else []


def duplicated(values: Sequence) -> list:
    """The values that occur more than once, each listed once, in order of their second occurrence."""
    seen, dupes = set(), []
    for v in values:
        if v in seen and v not in dupes:
            dupes.append(v)
        seen.add(v)
    return dupes


def counts_markdown(counts: Mapping[str, Mapping[str, int]], header: str = "config") -> str:
    """``| config | train | dev | test | total |`` table for the cards (``—`` where a split is absent)."""
    lines = [f"| {header} | train | dev | test | total |", "|---|---:|---:|---:|---:|"]
    for name, per_split in counts.items():
        cells = [f"{per_split[s]:,}" if s in per_split else "—" for s in SPLITS]
        lines.append(f"| `{name}` | " + " | ".join(cells) + f" | {sum(per_split.values()):,} |")
    return "\n".join(lines)
