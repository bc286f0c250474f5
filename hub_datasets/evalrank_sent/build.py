"""Build EvalRank sentence level (Wang et al., ACL 2022, §4.3 "Sentence-Level", Table 2) from raw sources.

Rules (reproduce the paper's 6,989 directed pairs and 24,957 background sentences):

1. STS-Benchmark: ``<sources>/sts_senteval/STS/STSBenchmark/sts-{train,dev,test}.csv`` in that order,
   SentEval's preprocessed copy (Moses-tokenised, lowercased), read as SentEval does: each line is
   stripped and split on tabs into genre, file, year, id, score, s1, s2; fields after the seventh are
   ignored (the original STS-B release has extra source columns on some lines); fewer than seven
   fields, a non-numeric score or an empty sentence is an error.  8,628 pairs.  Blank lines are
   skipped.  Text is used as given.
2. STR-2022: ``<sources>/sts_senteval/STR/sem_text_rel_ranked.csv`` (columns Index, SourceID,
   SubsetID, PairID, Text, Score); ``Text`` holds the two sentences separated by a newline.  The text
   is used exactly as given — no tokenisation, no lowercasing: this is what the reference toolkit
   does (``row['Text'].split("\\n")``) and what reproduces the published counts (lowercasing STR would
   give 6,969 pairs and 24,856 sentences).  The only normalisation is universal newlines (``\\r\\n`` ->
   ``\\n``), so a copy with Windows line ends gives the same text.  5,500 pairs.
3. Positives: per source, stable sort by score, descending, keep the first ``int(0.25 * n)`` pairs
   (2,157 from STS-B, then 1,375 from STR); each pair is emitted as (s1, s2) then (s2, s1), skipping a
   directed pair already emitted (its first occurrence keeps the ``source``: ``stsb`` or ``str``).
   A pair with s1 = s2 (13 in STS-B's top quarter) therefore yields one directed pair; repeated pairs
   (62 directed duplicates on the real sources) are kept once: 2 · 3,532 − 13 − 62 = 6,989.
4. Background: the sentences of the pairs (pair order), then every STS-B sentence, then every STR
   sentence, each once (STS-B alone has 15,437 unique sentences, STR 9,522, two are shared: 24,957).
5. Ids: ``stsb-<split>-<line>-<1|2>`` (1-based line of the csv file, first or second sentence) or
   ``str-<PairID>-<1|2>``, of the first occurrence of the text in reading order (STS-B train, dev,
   test, then STR).  Hence an ``str-`` id marks a sentence that occurs only in STR, whose text may
   not be redistributed (see :mod:`..str_licence`).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from string import Template

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets import evalrank_format as fmt
from mteb_evalrank.hub_datasets import stsb_source
from mteb_evalrank.hub_datasets.source_files import numbered_lines, parse_score, read_text

NAME = "evalrank-sent"
STSB_DIR = "sts_senteval/STS/STSBenchmark"
STSB_SPLITS = ("train", "dev", "test")
STR_FILE = "sts_senteval/STR/sem_text_rel_ranked.csv"
STR_COLUMNS = ("PairID", "Text", "Score")
STSB, STR = "stsb", "str"
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources SOURCES_DIR --out OUT_DIR"


@dataclass(frozen=True)
class SentencePair:
    """One scored STS-B or STR sentence pair with the ids of its two sentences."""

    s1: str
    s2: str
    score: float
    id1: str
    id2: str


def read_stsb(path: Path, split: str) -> list[SentencePair]:
    """Pairs of one STS-B csv (:func:`~..stsb_source.read_stsb`; malformed lines raise :class:`SourceFormatError`)."""
    records = stsb_source.read_stsb(path, numbered_lines(path, what=f"STS-B {split} file"))
    return [SentencePair(r.s1, r.s2, r.score, f"stsb-{split}-{r.line}-1", f"stsb-{split}-{r.line}-2") for r in records]


def read_str(path: Path) -> list[SentencePair]:
    """Pairs of the STR csv, text as given; malformed records raise :class:`SourceFormatError`.

    Line numbers are those of the first physical line of a record (``Text`` spans two lines).
    """
    path = Path(path)
    reader = csv.reader(io.StringIO(read_text(path, what="STR csv")))
    try:
        header = next(reader, None)
        if not header:
            raise SourceFormatError(path, "the file is empty.")
        missing = [c for c in STR_COLUMNS if c not in header]
        if missing:
            raise SourceFormatError(path, f"the header lacks columns {missing} (has {header}).", line=1)
        col = {c: header.index(c) for c in STR_COLUMNS}
        pairs, seen, end = [], set(), reader.line_num
        for record in reader:
            start, end = end + 1, reader.line_num
            if not any(field.strip() for field in record):
                continue
            if len(record) != len(header):
                raise SourceFormatError(
                    path, f"expected {len(header)} comma-separated fields, found {len(record)}.", line=start
                )
            pair_id = record[col["PairID"]].strip()
            if not pair_id:
                raise SourceFormatError(path, "empty PairID.", line=start)
            if pair_id in seen:
                raise SourceFormatError(path, f"duplicated PairID {pair_id!r}.", line=start)
            seen.add(pair_id)
            sentences = record[col["Text"]].split("\n")
            if len(sentences) != 2:
                raise SourceFormatError(
                    path,
                    f"Text must hold two sentences separated by one newline, found {len(sentences)} lines.",
                    line=start,
                )
            if not sentences[0].strip() or not sentences[1].strip():
                raise SourceFormatError(path, "empty sentence in Text.", line=start)
            score = parse_score(record[col["Score"]], path, start)
            if not 0.0 <= score <= 1.0:  # STR's relatedness is a fraction: a file of other scores is not STR
                raise SourceFormatError(
                    path, f"score {record[col['Score']]!r} is outside [0, 1] (STR's range).", line=start
                )
            pairs.append(SentencePair(sentences[0], sentences[1], score, f"str-{pair_id}-1", f"str-{pair_id}-2"))
    except csv.Error as exc:
        raise SourceFormatError(path, f"not a valid csv file ({exc}).", line=reader.line_num) from exc
    if not pairs:
        raise SourceFormatError(path, "the file holds no sentence pairs.")
    return pairs


def read_sources(sources_dir: Path) -> tuple[list[SentencePair], list[SentencePair]]:
    """``(stsb_pairs, str_pairs)`` from a sources folder (layout of shared/data/sources)."""
    sources_dir = Path(sources_dir)
    stsb = [p for split in STSB_SPLITS for p in read_stsb(sources_dir / STSB_DIR / f"sts-{split}.csv", split)]
    return stsb, read_str(sources_dir / STR_FILE)


def first_occurrence_ids(*groups: list[SentencePair]) -> dict[str, str]:
    """Text -> id of its first occurrence, reading the groups in order (s1 before s2)."""
    ids: dict[str, str] = {}
    for group in groups:
        for p in group:
            ids.setdefault(p.s1, p.id1)
            ids.setdefault(p.s2, p.id2)
    return ids


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    """Build the dataset from ``sources_dir`` into ``out_dir`` (Hub layout); return the counts."""
    out_dir = Path(out_dir)
    stsb, str_pairs = read_sources(sources_dir)
    ids = first_occurrence_ids(stsb, str_pairs)

    pairs = fmt.DirectedPairs()
    stsb_top = fmt.top_fraction(stsb, score=lambda p: p.score)
    str_top = fmt.top_fraction(str_pairs, score=lambda p: p.score)
    for source, top in ((STSB, stsb_top), (STR, str_top)):
        for p in top:
            pairs.add(p.s1, p.s2, source)

    stsb_sentences = fmt.unique_in_order(s for p in stsb for s in (p.s1, p.s2))
    str_sentences = fmt.unique_in_order(s for p in str_pairs for s in (p.s1, p.s2))
    background = fmt.unique_in_order(pairs.items(), stsb_sentences, str_sentences)
    pairs_table, background_table = fmt.make_tables(pairs, background, ids)

    per_source = {source: pairs.per_source().get(source, 0) for source in (STSB, STR)}
    report = {
        "pairs": len(pairs),
        "background": len(background),
        "stsb_pairs_read": len(stsb),
        "str_pairs_read": len(str_pairs),
        "stsb_top_pairs": len(stsb_top),
        "str_top_pairs": len(str_top),
        "self_pairs": pairs.self_pairs,
        "duplicate_directed_pairs_skipped": pairs.duplicates,
        "stsb_sentences": len(stsb_sentences),
        "str_sentences": len(str_sentences),
        "shared_sentences": len(stsb_sentences) + len(str_sentences) - len(background),
        "str_only_sentences": sum(ids[t].startswith(f"{STR}-") for t in background),
        **{f"pairs_{source}": count for source, count in per_source.items()},
    }

    fmt.write_evalrank_dataset(
        out_dir,
        name=NAME,
        level="sentence",
        pairs_table=pairs_table,
        background_table=background_table,
        task_categories=["sentence-similarity", "text-retrieval"],
        tag="sts",
        body=card_body(report, per_source),
    )
    return report


def card_body(report: dict[str, int], per_source: dict[str, int]) -> str:
    """The dataset card's text: `card.md` filled with the counts, the per-source table and the citation."""
    from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL

    template = Template((Path(__file__).with_name("card.md")).read_text(encoding="utf-8"))
    return template.substitute(
        {k: f"{v:,}" for k, v in report.items()},
        source_table=fmt.source_counts_markdown(per_source),
        build_command=BUILD_COMMAND,
        citation=fmt.EVALRANK_CITATION,
        str_url=STR_SOURCE_URL,
    )
