"""Build EvalRank word level (Wang et al., ACL 2022, §4.3 "Word-Level", Table 2) from raw sources.

Rules (reproduce the paper's 5,514 directed pairs and 22,207 background words):

1. Read the 13 word-similarity sets in ``<sources>/word_similarity/`` (``w1 w2 score`` per line,
   tab- or space-separated).  Each line is lowercased and split on whitespace, exactly as the
   reference toolkit does (``line.strip().lower().split()``); it must give three fields and a numeric
   score.  Blank lines are skipped.
2. Per set: stable sort by score, descending, keep the first ``int(0.25 * n)`` rows (ties keep file
   order), then drop pairs with ``w1 == w2``.
3. Emit every pair in both directions; a pair already emitted (the same two words, in either order,
   from an earlier set) is skipped.  Sets are processed in the alphabetical order of their file names
   (:data:`WORD_SIMILARITY_FILES`), and a pair shared by several sets keeps the ``source`` of the first
   one in that order.  The counts do not depend on the order (checked on the real sources: the
   reference toolkit's order, alphabetical and reversed all give 5,514 / 22,207); only the ``source``
   labels do.  Alphabetical order is used because with the toolkit's order (WS-353-ALL first) every
   MC-30 positive is claimed by an earlier set and the MC-30 subset would be empty.
4. Background: the words of the pairs (in pair order), then every word of the 13 sets (in file
   order), then the first 20,000 entries of ``<sources>/wiki_vocab/wiki_vocab_20k.txt`` (first
   whitespace-separated field of each non-blank line, kept as given), each word once.
5. ``source`` is the file name without ``EN-`` and ``.txt`` (e.g. ``MEN-TR-3k``); ids are the words.

Output: ``pairs`` and ``background`` configs (see :mod:`..evalrank_format`) plus the dataset card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from string import Template

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets import evalrank_format as fmt
from mteb_evalrank.hub_datasets.source_files import numbered_lines, parse_score

NAME = "evalrank-word"
WORD_SIMILARITY_DIR = "word_similarity"
#: The 13 sets, in processing order (alphabetical file names; decides which ``source`` a shared pair gets).
WORD_SIMILARITY_FILES = (
    "EN-MC-30.txt",
    "EN-MEN-TR-3k.txt",
    "EN-MTurk-287.txt",
    "EN-MTurk-771.txt",
    "EN-RG-65.txt",
    "EN-RW-STANFORD.txt",
    "EN-SIMLEX-999.txt",
    "EN-SimVerb-3500.txt",
    "EN-VERB-143.txt",
    "EN-WS-353-ALL.txt",
    "EN-WS-353-REL.txt",
    "EN-WS-353-SIM.txt",
    "EN-YP-130.txt",
)
WIKI_VOCAB_FILE = "wiki_vocab/wiki_vocab_20k.txt"
WIKI_VOCAB_SIZE = 20_000
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources SOURCES_DIR --out OUT_DIR"


@dataclass(frozen=True)
class WordPair:
    """One scored word pair of a word-similarity set."""

    w1: str
    w2: str
    score: float


def source_name(filename: str) -> str:
    """``EN-MEN-TR-3k.txt`` -> ``MEN-TR-3k``."""
    name = filename.removesuffix(".txt")
    return name.removeprefix("EN-")


def read_word_similarity(path: Path) -> list[WordPair]:
    """Pairs of one word-similarity file (lowercased); malformed lines raise :class:`SourceFormatError`."""
    rows = []
    for number, line in numbered_lines(path, what="word-similarity file"):
        fields = line.strip().lower().split()
        if len(fields) != 3:
            raise SourceFormatError(
                path, f"expected 3 whitespace-separated fields (w1 w2 score), found {len(fields)}.", line=number
            )
        rows.append(WordPair(fields[0], fields[1], parse_score(fields[2], path, number)))
    if not rows:
        raise SourceFormatError(path, "the file holds no word pairs.")
    return rows


def read_wiki_vocab(path: Path, limit: int = WIKI_VOCAB_SIZE) -> list[str]:
    """The first ``limit`` words of the frequency list (first field of each non-blank line)."""
    words = [line.split()[0] for _, line in numbered_lines(path, what="frequent-word list")]
    if not words:
        raise SourceFormatError(path, "the word list is empty.")
    return words[:limit]


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    """Build the dataset from ``sources_dir`` into ``out_dir`` (Hub layout); return the counts."""
    sources_dir, out_dir = Path(sources_dir), Path(out_dir)
    datasets = {
        source_name(f): read_word_similarity(sources_dir / WORD_SIMILARITY_DIR / f) for f in WORD_SIMILARITY_FILES
    }
    wiki = read_wiki_vocab(sources_dir / WIKI_VOCAB_FILE)

    pairs = fmt.DirectedPairs()
    top_rows = self_pairs = 0
    for name, rows in datasets.items():
        for row in fmt.top_fraction(rows, score=lambda r: r.score):
            top_rows += 1
            if row.w1 == row.w2:
                self_pairs += 1
                continue
            pairs.add(row.w1, row.w2, name)

    pair_words = fmt.unique_in_order(pairs.items())
    dataset_words = fmt.unique_in_order(w for rows in datasets.values() for r in rows for w in (r.w1, r.w2))
    with_datasets = fmt.unique_in_order(pair_words, dataset_words)
    background = fmt.unique_in_order(with_datasets, wiki)
    pairs_table, background_table = fmt.make_tables(pairs, background, {w: w for w in background})

    per_source = {name: pairs.per_source().get(name, 0) for name in datasets}
    report = {
        "pairs": len(pairs),
        "background": len(background),
        "top_rows": top_rows,
        "self_pairs_dropped": self_pairs,
        "duplicate_directed_pairs_skipped": pairs.duplicates,
        "background_pair_words": len(pair_words),
        "background_added_from_datasets": len(with_datasets) - len(pair_words),
        "background_added_from_wiki": len(background) - len(with_datasets),
        **{f"pairs_{name}": count for name, count in per_source.items()},
    }

    fmt.write_evalrank_dataset(
        out_dir,
        name=NAME,
        level="word",
        pairs_table=pairs_table,
        background_table=background_table,
        task_categories=["sentence-similarity", "feature-extraction"],
        tag="word-similarity",
        body=card_body(report, per_source),
    )
    return report


def card_body(report: dict[str, int], per_source: dict[str, int]) -> str:
    """The dataset card's text: `card.md` filled with the counts, the per-source table and the citation."""
    template = Template((Path(__file__).with_name("card.md")).read_text(encoding="utf-8"))
    values = {k: f"{v:,}" for k, v in report.items()}
    return template.substitute(
        values,
        source_table=fmt.source_counts_markdown(per_source),
        dataset_order=", ".join(f"`{name}`" for name in per_source),
        build_command=BUILD_COMMAND,
        citation=fmt.EVALRANK_CITATION,
    )
