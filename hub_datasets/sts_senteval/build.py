"""Build the similarity baselines of EvalRank (§5.1, §6.1) in Hub layout: STS12-16, STS-B, SICK-R, STR.

Eight configs, read from ``<sources>/sts_senteval/`` as SentEval's loaders read them (facebookresearch/
SentEval ``senteval/sts.py`` and ``senteval/sick.py``; STR: the EvalRank toolkit's
``src/senteval/str.py``):

- ``STS12`` … ``STS16``: ``STS/STS1x-en-test/STS.input.<subset>.txt`` (``s1<TAB>s2``) and
  ``STS.gs.<subset>.txt`` (one score per line), both ``read().splitlines()`` as UTF-8, for the
  sub-datasets SentEval enumerates, in its order (STS13 without ``SMT``, whose text may not be
  redistributed).  SentEval drops the pairs whose gold line is empty (most of STS15 and STS16: only
  the scored pairs of each release are evaluated); so does this builder, and it counts them.
  ``subset`` is the sub-dataset, ``split`` is ``test``.
- ``STSB``: ``STS/STSBenchmark/sts-{train,dev,test}.csv`` (genre, file, year, id, score, s1, s2,
  tab-separated; further fields ignored), SentEval's ``STSBenchmarkEval``.
- ``SICKR``: ``SICK/SICK_{train,trial,test_annotated}.txt``, header dropped, ``relatedness_score``
  (trial = ``dev``), SentEval's ``SICKRelatednessEval``.
- ``STR``: ``STR/sem_text_rel_ranked.csv`` read as the EvalRank toolkit reads it (``Text`` split at its
  newline, text exactly as given: not tokenised, not lowercased; the reader of ``evalrank-sent``).
  Its text may not be redistributed: see :mod:`..str_licence`.

Text of STS12-16, STS-B and SICK-R is what SentEval hands the batcher, ``sentence.split()`` re-joined
with single spaces.  Rows keep file order (SentEval sorts each sub-dataset by length before batching;
this does not change a correlation).
"""

from __future__ import annotations

import math
from pathlib import Path
from string import Template

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets import layout, stsb_source
from mteb_evalrank.hub_datasets import senteval_format as sf
from mteb_evalrank.hub_datasets.senteval_format import ScoredPair
from mteb_evalrank.hub_datasets.source_files import parse_score
from mteb_evalrank.hub_datasets.str_licence import STS_SENTEVAL

NAME = "sts-senteval"
SOURCE_FOLDER = "sts_senteval"
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources ../shared/data/sources --out data/{NAME}"
#: Text column -> hash column of the published (STR-blanked) ``STR`` config (see :mod:`..str_licence`).
SHA1_COLUMNS = {c.text: c.sha1 for c in STS_SENTEVAL.columns}

#: Sub-datasets of STS12-16 in SentEval's order (``senteval/sts.py``).
STS_SUBSETS: dict[str, tuple[str, ...]] = {
    "STS12": ("MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews"),
    "STS13": ("FNWN", "headlines", "OnWN"),
    "STS14": ("deft-forum", "deft-news", "headlines", "images", "OnWN", "tweet-news"),
    "STS15": ("answers-forums", "answers-students", "belief", "headlines", "images"),
    "STS16": ("answer-answer", "headlines", "plagiarism", "postediting", "question-question"),
}
STSB, SICKR, STR = "STSB", "SICKR", "STR"
CONFIGS: tuple[str, ...] = (*STS_SUBSETS, STSB, SICKR, STR)
STSB_FILES = (("sts-train.csv", "train"), ("sts-dev.csv", "dev"), ("sts-test.csv", "test"))
SICK_FILES = (("SICK_train.txt", "train"), ("SICK_trial.txt", "dev"), ("SICK_test_annotated.txt", "test"))
STR_FILE = "STR/sem_text_rel_ranked.csv"
STR_ID_PREFIX = "str-"


def read_sts_year(root: Path, year: str) -> tuple[list[ScoredPair], dict[str, int]]:
    """Scored pairs of STS12-16 (``STSEval.loadFile``) and, per sub-dataset, the unscored pairs dropped."""
    folder = root / "STS" / f"{year}-en-test"
    rows, dropped = [], {}
    for subset in STS_SUBSETS[year]:
        input_path, gold_path = folder / f"STS.input.{subset}.txt", folder / f"STS.gs.{subset}.txt"
        inputs = sf.splitlines_of(input_path, encoding="utf-8", what=f"{year} input file")
        gold = sf.splitlines_of(gold_path, encoding="utf-8", what=f"{year} gold-score file")
        if len(inputs) != len(gold):
            raise SourceFormatError(
                gold_path, f"{len(gold)} score lines for the {len(inputs)} sentence pairs of {input_path.name}."
            )
        if not inputs:
            raise SourceFormatError(input_path, "the file holds no sentence pairs.")
        dropped[subset] = 0
        for number, (line, score) in enumerate(zip(inputs, gold), start=1):
            fields = line.split("\t")
            if len(fields) != 2:
                raise SourceFormatError(
                    input_path, f"expected two tab-separated sentences, found {len(fields)} fields.", line=number
                )
            if score == "":  # SentEval: not_empty_idx = raw_scores != ''
                dropped[subset] += 1
                continue
            rows.append(
                ScoredPair(
                    f"{subset}:{number}",
                    subset,
                    "test",
                    sf.senteval_text(fields[0]),
                    sf.senteval_text(fields[1]),
                    parse_score(score, gold_path, number),
                )
            )
        if dropped[subset] == len(inputs):
            raise SourceFormatError(gold_path, "no pair has a gold score.")
    return rows, dropped


def read_stsb(root: Path) -> list[ScoredPair]:
    """``STSBenchmarkEval.loadFile``: fields 5 and 6 are the sentences, field 4 the score
    (:func:`~..stsb_source.read_stsb` over SentEval's line iteration)."""
    rows = []
    for name, split in STSB_FILES:
        path = root / "STS" / "STSBenchmark" / name
        lines = sf.iter_lines_of(path, encoding="utf-8", what=f"STS-B {split} file")
        rows += [
            ScoredPair(f"{name}:{r.line}", STSB, split, sf.senteval_text(r.s1), sf.senteval_text(r.s2), r.score)
            for r in stsb_source.read_stsb(path, lines, allow_empty=True)
        ]
    return rows


def read_sick_relatedness(root: Path) -> list[ScoredPair]:
    """``SICKRelatednessEval.loadFile``: header dropped; sentence_A, sentence_B, relatedness_score."""
    rows: list[ScoredPair] = []
    for name, split in SICK_FILES:
        path = root / "SICK" / name
        sf.check_header(path, sf.first_line_of(path, encoding="utf-8", what="SICK file"), "pair_ID")
        before = len(rows)
        for number, line in sf.iter_lines_of(path, encoding="utf-8", what=f"SICK {split} file"):
            if number == 1:
                continue
            fields = line.strip().split("\t")
            if len(fields) < 4:
                raise SourceFormatError(
                    path, f"expected at least 4 tab-separated fields, found {len(fields)}.", line=number
                )
            rows.append(
                ScoredPair(
                    f"{name}:{number}",
                    SICKR,
                    split,
                    sf.senteval_text(fields[1]),
                    sf.senteval_text(fields[2]),
                    parse_score(fields[3], path, number),
                )
            )
        if len(rows) == before:
            raise SourceFormatError(path, "the file holds no sentence pairs.")
    return rows


def read_str_csv(path: Path) -> list[ScoredPair]:
    """STR pairs of ``sem_text_rel_ranked.csv``, text exactly as given; ``id`` is ``str-<PairID>``."""
    from mteb_evalrank.hub_datasets.evalrank_sent.build import read_str

    return [ScoredPair(p.id1.removesuffix("-1"), STR, "test", p.s1, p.s2, p.score) for p in read_str(Path(path))]


def read_str_pairs(root: Path) -> list[ScoredPair]:
    """The STR-2022 pairs read from its CSV file under `root`."""
    return read_str_csv(root / STR_FILE)


def read_config(sources_dir: Path, config: str) -> list[ScoredPair]:
    """The rows of one config, read from a sources folder (or an ``sts_senteval`` folder)."""
    root = sf.find_root(Path(sources_dir), SOURCE_FOLDER, "STS")
    if config in STS_SUBSETS:
        return read_sts_year(root, config)[0]
    readers = {STSB: read_stsb, SICKR: read_sick_relatedness, STR: read_str_pairs}
    if config not in readers:
        raise KeyError(f"unknown config {config!r}; known: {', '.join(CONFIGS)}")
    return readers[config](root)


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    """Build all eight configs from ``sources_dir`` into ``out_dir`` (Hub layout); return the counts."""
    root = sf.find_root(Path(sources_dir), SOURCE_FOLDER, "STS")
    tables, counts, subsets, report = {}, {}, {}, {}
    for config in CONFIGS:
        if config in STS_SUBSETS:
            rows, dropped = read_sts_year(root, config)
        else:
            rows, dropped = read_config(root, config), {}
        tables[config] = sf.scored_table(rows)
        counts[config] = sf.split_counts(rows)
        report.update({f"{config}_{split}": n for split, n in counts[config].items()})
        if config in STS_SUBSETS:
            per_subset = sf.split_counts(rows, key=lambda r: r.subset)
            subsets[config] = {s: (per_subset.get(s, 0), dropped[s]) for s in STS_SUBSETS[config]}
            report.update({f"{config}_{s}": per_subset.get(s, 0) for s in STS_SUBSETS[config]})
            report[f"{config}_unscored_pairs_dropped"] = sum(dropped.values())
        texts = [t for r in rows for t in (r.text1, r.text2)]
        report[f"{config}_empty_texts"] = sum(not t for t in texts)
    report["rows"] = sum(t.num_rows for t in tables.values())
    layout.write_dataset(Path(out_dir), tables, card_metadata(report), card_body(report, counts, subsets))
    return report


# --- validation ----------------------------------------------------------------------------------
def validate(folder: Path) -> list[str]:
    """Content problems of a built (or staged, STR-blanked) folder; empty list: fine."""
    problems = []
    for config in CONFIGS:
        try:
            table = layout.read_config(Path(folder), config)
        except Exception as exc:
            problems.append(f"{config}: cannot read the table ({type(exc).__name__}: {exc}).")
            continue
        blanked = config == STR and all(c in table.column_names for c in SHA1_COLUMNS.values())
        problems += check_table(table, config, allow_blank_text=blanked)
    return problems


def check_table(table, config: str, *, allow_blank_text: bool = False) -> list[str]:
    """The problems of one similarity config's table (columns, empty, ids, splits, scores, texts); empty when valid."""
    problems = sf.check_columns(table, sf.SCORED_PAIR_COLUMNS, config)
    if problems:
        return problems
    if table.num_rows == 0:
        return [f"{config}: the table is empty."]
    data = {c: table[c].to_pylist() for c in sf.SCORED_PAIR_COLUMNS}
    if any(not isinstance(i, str) or not i for i in data["id"]):
        problems.append(f"{config}: ids must be non-empty strings.")
    dupes = sf.duplicated(data["id"])
    if dupes:
        problems.append(f"{config}: {len(dupes)} duplicated ids, e.g. {dupes[:3]}.")
    bad_splits = sorted({s for s in data["split"] if s not in sf.SPLITS}, key=str)
    if bad_splits:
        problems.append(f"{config}: unknown split(s) {bad_splits}; expected {list(sf.SPLITS)}.")
    allowed = set(STS_SUBSETS.get(config, (config,)))
    bad_subsets = sorted({s for s in data["subset"] if s not in allowed}, key=str)
    if bad_subsets:
        problems.append(f"{config}: unknown subset(s) {bad_subsets}; expected {sorted(allowed)}.")
    if any(not isinstance(s, float) or not math.isfinite(s) for s in data["score"]):
        problems.append(f"{config}: scores must be finite numbers.")
    for column in ("text1", "text2"):
        values = data[column]
        if any(not isinstance(t, str) for t in values):
            problems.append(f"{config}: {column} has missing values.")
        elif config != STR and any(t != sf.senteval_text(t) for t in values):
            problems.append(f"{config}: {column} is not whitespace-tokenised text (tokens joined by single spaces).")
        elif config == STR and not allow_blank_text and any(not t.strip() for t in values):
            problems.append(f"{config}: {column} has empty texts (allowed only in the published copy).")
    return problems


# --- card ----------------------------------------------------------------------------------------
def card_metadata(report: dict[str, int]) -> dict:
    """The YAML header of the SentEval similarity dataset card (licence, tags, configs)."""
    from mteb_evalrank.hub_datasets.evalrank_format import size_category

    return {
        "pretty_name": "SentEval similarity tasks (STS12-16, STS-B, SICK-R) and STR",
        "language": ["en"],
        "license": "other",
        "license_name": f"{NAME}-sources",
        "task_categories": ["sentence-similarity"],
        "size_categories": [size_category(report["rows"])],
        "tags": ["mteb", "senteval", "evalrank", "sts", "embedding-evaluation"],
        "configs": layout.configs_metadata(list(CONFIGS), default=CONFIGS[0]),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int], counts: dict, subsets: dict) -> str:
    """The SentEval similarity dataset card's text: counts and per-sub-dataset tables filled into `card.md`."""
    from mteb_evalrank.hub_datasets.senteval_downstream.build import EVALRANK_REPO, SENTEVAL_CITATION, SENTEVAL_REPO
    from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL

    lines = ["| config | sub-dataset | scored pairs | unscored pairs dropped |", "|---|---|---:|---:|"]
    for config, per_subset in subsets.items():
        lines += [f"| `{config}` | `{s}` | {n:,} | {d:,} |" for s, (n, d) in per_subset.items()]
    empty = [f"{c}: {report[f'{c}_empty_texts']}" for c in CONFIGS if report[f"{c}_empty_texts"]]
    template = Template(Path(__file__).with_name("card.md").read_text(encoding="utf-8"))
    return template.substitute(
        counts_table=sf.counts_markdown(counts),
        subsets_table="\n".join(lines),
        rows=f"{report['rows']:,}",
        str_rows=f"{report.get('STR_test', 0):,}",
        empty_texts=", ".join(empty) or "none",
        build_command=BUILD_COMMAND,
        senteval_repo=SENTEVAL_REPO,
        evalrank_repo=EVALRANK_REPO,
        senteval_citation=SENTEVAL_CITATION,
        str_url=STR_SOURCE_URL,
    )
