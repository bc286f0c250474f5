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
from string import Template

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

#: the N2O paper: the N2O task's metadata (tasks/n2o.py) and the corpus card.
N2O_CITATION = r"""@misc{lin2019situating,
  author = {Lin, Lucy H. and Smith, Noah A.},
  note = {arXiv:1909.10724},
  title = {Situating Sentence Embedders with Nearest Neighbor Overlap},
  url = {https://arxiv.org/abs/1909.10724},
  year = {2019},
}"""

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
    """Build the N2O corpus (STS-B sentences) and its paraphrase needles from the raw STS-B files; returns the counts."""
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
    """The YAML header of the N2O corpus's dataset card (licence, tags, configs)."""
    from mteb_evalrank.hub_datasets.evalrank_format import size_category

    return {
        "pretty_name": "N2O corpus (STS-Benchmark sentences + paraphrase needles)",
        "language": ["en"],
        "license": "other",
        "license_name": "stsb-per-source",
        "task_categories": ["sentence-similarity", "text-retrieval"],
        "size_categories": [size_category(report["corpus"])],
        "tags": ["mteb", "n2o", "nearest-neighbor-overlap", "embedding-evaluation"],
        "configs": layout.configs_metadata([CORPUS, NEEDLES], default=CORPUS),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int]) -> str:
    """The dataset card's text: ``card.md`` (the form of the other datasets' cards) filled with this build's counts."""
    template = Template(Path(__file__).with_name("card.md").read_text(encoding="utf-8"))
    values = {k: f"{v:,}" for k, v in report.items()}
    return template.substitute(
        values, build_command=BUILD_COMMAND, citation=N2O_CITATION, stsb_citation=stsb_source.STSB_CITATION
    )
