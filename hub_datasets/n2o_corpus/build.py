"""Build the default N2O corpus from STS-Benchmark (original cased release).

Why STS-B: of the sources available here it is the one whose redistribution terms are documented
and already exercised on the Hub (scores CC BY-SA 4.0; sentence text under the terms of each source
— news headlines from Europe Media Monitor, image/video captions, forum posts — see the STS-B
``LICENSE.txt``).  The SentEval transfer sets (MR, CR, SUBJ, MPQA, SST, TREC, ...) carry only "each
dataset: its authors' terms" and SICK is non-commercial, so they are not published here.

Rules:

1. Read ``<sources>/stsbenchmark_raw/sts-{train,dev,test}.csv`` (tab-separated: genre, file, year, id,
   score, s1, s2 and, on some lines, two source columns that are ignored).  Text is stripped, otherwise
   used as given (cased, untokenised).
2. Needles (paper §8): pairs from dev and test, genre ``main-news``, ``4 <= score <= 5`` and
   :func:`word_overlap` ``< 0.6``; ``query`` = s1, ``positive`` = s2; a repeated (query, positive) pair
   is kept once.  The paper does not define its "word-level overlap ratio"; we use the Jaccard index of
   the two sentences' sets of lowercased word tokens (``\\w+``): |A ∩ B| / |A ∪ B|.
3. Corpus: every unique STS-B sentence (train, dev, test order, s1 before s2) except the needles'
   queries and positives — the positive is added to the corpus only while its own query is ranked, as
   in the paper, and the query is not a corpus sentence.
"""

from __future__ import annotations

import re
from pathlib import Path

from mteb_evalrank.hub_datasets import layout, stsb_source
from mteb_evalrank.hub_datasets.source_files import numbered_lines

NAME = "n2o-corpus"
STSB_DIR = "stsbenchmark_raw"
SPLITS = ("train", "dev", "test")
NEEDLE_SPLITS = ("dev", "test")
NEEDLE_GENRE = "main-news"
NEEDLE_MIN_SCORE, NEEDLE_MAX_SCORE = 4.0, 5.0
MAX_OVERLAP = 0.6
CORPUS, NEEDLES = "corpus", "needles"
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources SOURCES_DIR --out OUT_DIR"

_WORD = re.compile(r"\w+")


def word_overlap(a: str, b: str) -> float:
    """Jaccard index of the lowercased word-token sets (``\\w+``) of two sentences (1.0 if both empty)."""
    wa, wb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    union = wa | wb
    return len(wa & wb) / len(union) if union else 1.0


def read_stsb(path: Path):
    """Rows ``(genre, score, s1, s2)`` of one STS-B csv (:func:`~..stsb_source.read_stsb`), sentences stripped."""
    records = stsb_source.read_stsb(path, numbered_lines(path, what="STS-B file"))
    return [(r.genre, r.score, r.s1.strip(), r.s2.strip()) for r in records]


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    import pyarrow as pa

    sources_dir, out_dir = Path(sources_dir), Path(out_dir)
    by_split = {split: read_stsb(sources_dir / STSB_DIR / f"sts-{split}.csv") for split in SPLITS}
    needles: dict[tuple[str, str], None] = {}
    for split in NEEDLE_SPLITS:
        for genre, score, s1, s2 in by_split[split]:
            if (
                genre == NEEDLE_GENRE
                and NEEDLE_MIN_SCORE <= score <= NEEDLE_MAX_SCORE
                and s1 != s2
                and word_overlap(s1, s2) < MAX_OVERLAP
            ):
                needles.setdefault((s1, s2), None)
    needle_texts = {t for pair in needles for t in pair}
    all_sentences = list(dict.fromkeys(s for split in SPLITS for _, _, s1, s2 in by_split[split] for s in (s1, s2)))
    corpus = [s for s in all_sentences if s not in needle_texts]
    report = {
        "corpus": len(corpus),
        "needles": len(needles),
        "stsb_pairs_read": sum(len(v) for v in by_split.values()),
        "stsb_unique_sentences": len(all_sentences),
        "needle_sentences_removed": len(all_sentences) - len(corpus),
    }
    needles_table = pa.table({"query": [q for q, _ in needles], "positive": [p for _, p in needles]})
    layout.write_dataset(
        out_dir,
        {CORPUS: pa.table({"text": corpus}), NEEDLES: needles_table},
        card_metadata(report),
        card_body(report),
    )
    return report


def validate(folder: Path) -> list[str]:
    """Content checks: unique non-empty corpus text; needles not in the corpus."""
    corpus = layout.read_config(folder, CORPUS).column("text").to_pylist()
    table = layout.read_config(folder, NEEDLES)
    problems = []
    if len(set(corpus)) != len(corpus):
        problems.append("corpus: duplicate sentences.")
    if any(not t.strip() for t in corpus):
        problems.append("corpus: empty sentences.")
    in_corpus = set(corpus) & (set(table.column("query").to_pylist()) | set(table.column("positive").to_pylist()))
    if in_corpus:
        problems.append(f"needles: {len(in_corpus)} needle sentences are also corpus sentences.")
    return problems


def card_metadata(report: dict[str, int]) -> dict:
    return {
        "pretty_name": "N2O corpus (STS-Benchmark sentences + paraphrase needles)",
        "language": ["en"],
        "license": "other",
        "license_name": "stsb-per-source",
        "task_categories": ["sentence-similarity", "text-retrieval"],
        "size_categories": ["10K<n<100K"],
        "tags": ["mteb", "n2o", "nearest-neighbor-overlap", "embedding-evaluation"],
        "configs": layout.configs_metadata([CORPUS, NEEDLES], default=CORPUS),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int]) -> str:
    return f"""# N2O corpus

Corpus and paraphrase needles for **N2O** (nearest-neighbour overlap; *Situating Sentence Embedders
with Nearest Neighbor Overlap*, Lin & Smith, arXiv:1909.10724), as used by the `N2O` task of
[mteb-evalrank](https://github.com/mteb-evalrank).

| config | columns | rows |
|---|---|---|
| `corpus` | `text` | {report["corpus"]:,} |
| `needles` | `query`, `positive` | {report["needles"]:,} |

- **corpus**: every unique sentence of STS-Benchmark (train, dev, test; original cased release),
  except the needle sentences. N2O samples its queries from this corpus and compares embedders by
  the overlap of the queries' nearest neighbours.
- **needles** (paper §8): STS-B dev + test pairs of the news genre (`main-news`) with gold score
  4–5 and word-overlap ratio < 0.6. The paper does not define the ratio; here it is the Jaccard index
  of the lowercased word-token sets (`\\w+`): |A ∩ B| / |A ∪ B|. For each pair the `positive` is added
  to the corpus (alone) and ranked for the `query`; the task reports MRR, #top-1 and #top-5.

The paper used ~8M Gigaword sentences (not redistributable); this corpus is much smaller
({report["corpus"]:,} sentences) but public. Any corpus can be used instead (`mteb-evalrank n2o
--corpus FILE`).

## Sources and licences

STS-Benchmark (Cer et al., 2017): scores under CC BY-SA 4.0 (no scores are included here); the
sentence text keeps the licence of each original source (news headlines from Europe Media Monitor,
image and video captions, forum posts, ...) as listed in STS-B's `LICENSE.txt`. STS-B was chosen
because it is already redistributed under these terms; the SentEval transfer datasets available
to the builder carry only "authors' terms" and SICK is non-commercial, so they are not included.

## Counts

{report["stsb_pairs_read"]:,} STS-B pairs read; {report["stsb_unique_sentences"]:,} unique sentences;
{report["needle_sentences_removed"]:,} needle sentences removed from the corpus.

## Build

```
{BUILD_COMMAND}
```

(`SOURCES_DIR/stsbenchmark_raw/sts-{{train,dev,test}}.csv`.)
"""
