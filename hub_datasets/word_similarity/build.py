"""Build the 13 word-similarity sets of the EvalRank toolkit in Hub layout (one config per set).

The sets are the files of ``<sources>/word_similarity/`` (``w1 w2 score`` per line, as collected by
``mfaruqui/eval-word-vectors`` and shipped with the EvalRank toolkit), read exactly as the toolkit's
``src/w_data_loader.py`` reads them: each line lowercased and split on whitespace
(``line.strip().lower().split()``, the reader of :mod:`..evalrank_word.build`), three fields, a numeric
score.  Nothing is dropped or merged: the toolkit scores every line, including the pair
``tiger tiger`` (WS-353-All, WS-353-Sim) and repeated pairs.

Configs (split ``test``):

- one per set, named like its MTEB task (``WS-353-All``, ..., ``VERB-143``): ``id``
  (``<file>:<line>``), ``word1``, ``word2``, ``score`` (float64), rows in file order;
- ``vocabulary``: ``word``, every word of the 13 sets once, in the order of :data:`SETS` and then of
  the files.  The word-similarity tasks centre the embeddings of a model without a vocabulary of its
  own (a transformer) over these words; word-vector models are centred over their own vocabulary, as
  the toolkit does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets.evalrank_word.build import WORD_SIMILARITY_DIR, read_word_similarity

NAME = "word-similarity"
VOCABULARY = "vocabulary"
PAIR_COLUMNS = ("id", "word1", "word2", "score")
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources ../shared/data/sources --out data/{NAME}"
COLLECTION_URL = (
    "https://github.com/mfaruqui/eval-word-vectors/tree/10a573aa202aa474ce61be391d4872275967633c/data/word-sim"
)

_FINKELSTEIN = r"""@article{finkelstein-etal-2002-placing,
  author = {Finkelstein, Lev and Gabrilovich, Evgeniy and Matias, Yossi and Rivlin, Ehud and Solan, Zach and Wolfman, Gadi and Ruppin, Eytan},
  doi = {10.1145/503104.503110},
  journal = {ACM Transactions on Information Systems},
  number = {1},
  pages = {116--131},
  title = {Placing Search in Context: The Concept Revisited},
  volume = {20},
  year = {2002},
}"""
_AGIRRE = r"""@inproceedings{agirre-etal-2009-study,
  address = {Boulder, Colorado},
  author = {Agirre, Eneko and Alfonseca, Enrique and Hall, Keith and Kravalova, Jana and Pa{\c{s}}ca, Marius and Soroa, Aitor},
  booktitle = {Proceedings of Human Language Technologies: The 2009 Annual Conference of the North American Chapter of the Association for Computational Linguistics},
  pages = {19--27},
  publisher = {Association for Computational Linguistics},
  title = {A Study on Similarity and Relatedness Using Distributional and {W}ord{N}et-based Approaches},
  url = {https://aclanthology.org/N09-1003},
  year = {2009},
}"""
_LUONG = r"""@inproceedings{luong-etal-2013-better,
  address = {Sofia, Bulgaria},
  author = {Luong, Thang and Socher, Richard and Manning, Christopher},
  booktitle = {Proceedings of the Seventeenth Conference on Computational Natural Language Learning},
  pages = {104--113},
  publisher = {Association for Computational Linguistics},
  title = {Better Word Representations with Recursive Neural Networks for Morphology},
  url = {https://aclanthology.org/W13-3512},
  year = {2013},
}"""
_BRUNI = r"""@article{bruni-etal-2014-multimodal,
  author = {Bruni, Elia and Tran, Nam Khanh and Baroni, Marco},
  doi = {10.1613/jair.4135},
  journal = {Journal of Artificial Intelligence Research},
  pages = {1--47},
  title = {Multimodal Distributional Semantics},
  volume = {49},
  year = {2014},
}"""
_RADINSKY = r"""@inproceedings{radinsky-etal-2011-word,
  author = {Radinsky, Kira and Agichtein, Eugene and Gabrilovich, Evgeniy and Markovitch, Shaul},
  booktitle = {Proceedings of the 20th International Conference on World Wide Web},
  doi = {10.1145/1963405.1963455},
  pages = {337--346},
  title = {A Word at a Time: Computing Word Relatedness Using Temporal Semantic Analysis},
  year = {2011},
}"""
_HALAWI = r"""@inproceedings{halawi-etal-2012-large,
  author = {Halawi, Guy and Dror, Gideon and Gabrilovich, Evgeniy and Koren, Yehuda},
  booktitle = {Proceedings of the 18th ACM SIGKDD International Conference on Knowledge Discovery and Data Mining},
  doi = {10.1145/2339530.2339751},
  pages = {1406--1414},
  title = {Large-Scale Learning of Word Relatedness with Constraints},
  year = {2012},
}"""
_HILL = r"""@article{hill-etal-2015-simlex,
  author = {Hill, Felix and Reichart, Roi and Korhonen, Anna},
  doi = {10.1162/COLI_a_00237},
  journal = {Computational Linguistics},
  number = {4},
  pages = {665--695},
  title = {{S}im{L}ex-999: Evaluating Semantic Models With (Genuine) Similarity Estimation},
  url = {https://aclanthology.org/J15-4004},
  volume = {41},
  year = {2015},
}"""
_GERZ = r"""@inproceedings{gerz-etal-2016-simverb,
  address = {Austin, Texas},
  author = {Gerz, Daniela and Vuli{\'c}, Ivan and Hill, Felix and Reichart, Roi and Korhonen, Anna},
  booktitle = {Proceedings of the 2016 Conference on Empirical Methods in Natural Language Processing},
  doi = {10.18653/v1/D16-1235},
  pages = {2173--2182},
  publisher = {Association for Computational Linguistics},
  title = {{S}im{V}erb-3500: A Large-Scale Evaluation Set of Verb Similarity},
  url = {https://aclanthology.org/D16-1235},
  year = {2016},
}"""
_MILLER = r"""@article{miller-charles-1991-contextual,
  author = {Miller, George A. and Charles, Walter G.},
  doi = {10.1080/01690969108406936},
  journal = {Language and Cognitive Processes},
  number = {1},
  pages = {1--28},
  title = {Contextual Correlates of Semantic Similarity},
  volume = {6},
  year = {1991},
}"""
_RUBENSTEIN = r"""@article{rubenstein-goodenough-1965-contextual,
  author = {Rubenstein, Herbert and Goodenough, John B.},
  doi = {10.1145/365628.365657},
  journal = {Communications of the ACM},
  number = {10},
  pages = {627--633},
  title = {Contextual Correlates of Synonymy},
  volume = {8},
  year = {1965},
}"""
_YANG = r"""@inproceedings{yang-powers-2006-verb,
  address = {Jeju Island, Korea},
  author = {Yang, Dongqiang and Powers, David M. W.},
  booktitle = {Proceedings of the Third International WordNet Conference (GWC-06)},
  pages = {121--128},
  title = {Verb Similarity on the Taxonomy of {W}ord{N}et},
  year = {2006},
}"""
_BAKER = r"""@inproceedings{baker-etal-2014-unsupervised,
  address = {Doha, Qatar},
  author = {Baker, Simon and Reichart, Roi and Korhonen, Anna},
  booktitle = {Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing ({EMNLP})},
  doi = {10.3115/v1/D14-1034},
  pages = {278--289},
  publisher = {Association for Computational Linguistics},
  title = {An Unsupervised Model for Instance Level Subcategorization Acquisition},
  url = {https://aclanthology.org/D14-1034},
  year = {2014},
}"""
#: The collection the files come from (Faruqui & Dyer's wordvectors.org).
FARUQUI_CITATION = r"""@inproceedings{faruqui-dyer-2014-community,
  address = {Baltimore, Maryland},
  author = {Faruqui, Manaal and Dyer, Chris},
  booktitle = {Proceedings of 52nd Annual Meeting of the Association for Computational Linguistics: System Demonstrations},
  doi = {10.3115/v1/P14-5004},
  pages = {19--24},
  publisher = {Association for Computational Linguistics},
  title = {Community Evaluation and Exchange of Word Vectors at wordvectors.org},
  url = {https://aclanthology.org/P14-5004},
  year = {2014},
}"""


@dataclass(frozen=True)
class WordSimilaritySet:
    """One word-similarity set: its MTEB task name, source file and what the task metadata says."""

    task: str
    file: str
    what: str  # one phrase: what the pairs are and what the scores measure
    reference: str
    date: tuple[str, str]
    citations: tuple[str, ...]


#: The 13 sets: the EvalRank paper's 9 baselines (Table 3), then the 4 its toolkit also ships.
SETS: tuple[WordSimilaritySet, ...] = (
    WordSimilaritySet(
        "WS-353-All",
        "EN-WS-353-ALL.txt",
        "WordSim-353: 353 English noun pairs rated for relatedness",
        "https://doi.org/10.1145/503104.503110",
        ("2001-01-01", "2002-12-31"),
        (_FINKELSTEIN,),
    ),
    WordSimilaritySet(
        "WS-353-Rel",
        "EN-WS-353-REL.txt",
        "the relatedness subset of WordSim-353 (Agirre et al., 2009): 252 pairs",
        "https://aclanthology.org/N09-1003",
        ("2001-01-01", "2009-12-31"),
        (_FINKELSTEIN, _AGIRRE),
    ),
    WordSimilaritySet(
        "WS-353-Sim",
        "EN-WS-353-SIM.txt",
        "the similarity subset of WordSim-353 (Agirre et al., 2009): 203 pairs",
        "https://aclanthology.org/N09-1003",
        ("2001-01-01", "2009-12-31"),
        (_FINKELSTEIN, _AGIRRE),
    ),
    WordSimilaritySet(
        "RW-STANFORD",
        "EN-RW-STANFORD.txt",
        "Stanford Rare Words: 2,034 pairs of rare, often morphologically complex words rated for similarity",
        "https://aclanthology.org/W13-3512",
        ("2013-01-01", "2013-12-31"),
        (_LUONG,),
    ),
    WordSimilaritySet(
        "MEN-TR-3K",
        "EN-MEN-TR-3k.txt",
        "MEN: 3,000 pairs of frequent words rated for relatedness by comparative judgements (0-50)",
        "https://doi.org/10.1613/jair.4135",
        ("2012-01-01", "2014-12-31"),
        (_BRUNI,),
    ),
    WordSimilaritySet(
        "MTurk-287",
        "EN-MTurk-287.txt",
        "MTurk-287: 287 word pairs rated for relatedness by Mechanical Turk workers",
        "https://doi.org/10.1145/1963405.1963455",
        ("2011-01-01", "2011-12-31"),
        (_RADINSKY,),
    ),
    WordSimilaritySet(
        "MTurk-771",
        "EN-MTurk-771.txt",
        "MTurk-771: 771 word pairs rated for relatedness by Mechanical Turk workers",
        "https://doi.org/10.1145/2339530.2339751",
        ("2012-01-01", "2012-12-31"),
        (_HALAWI,),
    ),
    WordSimilaritySet(
        "SimLex-999",
        "EN-SIMLEX-999.txt",
        "SimLex-999: 999 noun, verb and adjective pairs rated for genuine similarity (not relatedness)",
        "https://aclanthology.org/J15-4004",
        ("2014-01-01", "2015-12-31"),
        (_HILL,),
    ),
    WordSimilaritySet(
        "SimVerb-3500",
        "EN-SimVerb-3500.txt",
        "SimVerb-3500: 3,500 verb pairs rated for similarity",
        "https://aclanthology.org/D16-1235",
        ("2016-01-01", "2016-12-31"),
        (_GERZ,),
    ),
    WordSimilaritySet(
        "MC-30",
        "EN-MC-30.txt",
        "Miller & Charles: 30 noun pairs (a subset of RG-65) rated for similarity",
        "https://doi.org/10.1080/01690969108406936",
        ("1991-01-01", "1991-12-31"),
        (_MILLER,),
    ),
    WordSimilaritySet(
        "RG-65",
        "EN-RG-65.txt",
        "Rubenstein & Goodenough: 65 noun pairs rated for synonymy",
        "https://doi.org/10.1145/365628.365657",
        ("1965-01-01", "1965-12-31"),
        (_RUBENSTEIN,),
    ),
    WordSimilaritySet(
        "YP-130",
        "EN-YP-130.txt",
        "Yang & Powers: 130 verb pairs rated for similarity",
        "https://www.fi.muni.cz/gwc2006/proc/GWC2006.pdf",
        ("2006-01-01", "2006-12-31"),
        (_YANG,),
    ),
    WordSimilaritySet(
        "VERB-143",
        "EN-VERB-143.txt",
        "Baker et al.'s verb set: 144 verb pairs rated for similarity",
        "https://aclanthology.org/D14-1034",
        ("2014-01-01", "2014-12-31"),
        (_BAKER,),
    ),
)
TASK_NAMES: tuple[str, ...] = tuple(s.task for s in SETS)
BY_TASK: dict[str, WordSimilaritySet] = {s.task: s for s in SETS}
LICENSE_FILE = "LICENSE_eval-word-vectors_MIT.txt"


def read_set(sources_dir: Path, entry: WordSimilaritySet):
    """The pairs of one set as the toolkit reads them (lowercased; malformed lines raise)."""
    return read_word_similarity(Path(sources_dir) / WORD_SIMILARITY_DIR / entry.file)


def pairs_table(entry: WordSimilaritySet, rows):
    """One word-similarity set as an Arrow table: id (`file:line number`), word1, word2, score."""
    import pyarrow as pa

    return pa.table(
        {
            "id": pa.array([f"{entry.file}:{i}" for i in range(1, len(rows) + 1)], pa.string()),
            "word1": pa.array([r.w1 for r in rows], pa.string()),
            "word2": pa.array([r.w2 for r in rows], pa.string()),
            "score": pa.array([float(r.score) for r in rows], pa.float64()),
        }
    )


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    """Build the 13 configs and ``vocabulary`` from ``sources_dir`` into ``out_dir``; return the counts."""
    import pyarrow as pa

    sources_dir = Path(sources_dir)
    rows = {entry.task: read_set(sources_dir, entry) for entry in SETS}
    # ids name file and line; blank lines are skipped by the reader, so number the non-blank lines
    tables = {entry.task: pairs_table(entry, rows[entry.task]) for entry in SETS}
    vocabulary = list(dict.fromkeys(w for entry in SETS for r in rows[entry.task] for w in (r.w1, r.w2)))
    tables[VOCABULARY] = pa.table({"word": pa.array(vocabulary, pa.string())})
    report: dict[str, int] = {}
    for entry in SETS:
        pairs = rows[entry.task]
        report[f"{entry.task}_pairs"] = len(pairs)
        report[f"{entry.task}_words"] = len({w for r in pairs for w in (r.w1, r.w2)})
        report[f"{entry.task}_self_pairs"] = sum(r.w1 == r.w2 for r in pairs)
        report[f"{entry.task}_repeated_pairs"] = len(pairs) - len({frozenset((r.w1, r.w2)) for r in pairs})
    report["pairs"] = sum(len(p) for p in rows.values())
    report["vocabulary"] = len(vocabulary)
    layout.write_dataset(Path(out_dir), tables, card_metadata(report), card_body(report))
    return report


# --- validation ----------------------------------------------------------------------------------
def validate(folder: Path) -> list[str]:
    """Content problems of a built folder (empty list: fine)."""
    problems: list[str] = []
    words: list[str] = []
    for entry in SETS:
        try:
            table = layout.read_config(Path(folder), entry.task)
        except Exception as exc:
            problems.append(f"{entry.task}: cannot read the table ({type(exc).__name__}: {exc}).")
            continue
        missing = [c for c in PAIR_COLUMNS if c not in table.column_names]
        if missing:
            problems.append(f"{entry.task}: missing column(s) {missing}.")
            continue
        if table.num_rows < 2:
            problems.append(f"{entry.task}: {table.num_rows} pairs; a correlation needs at least two.")
        ids = table["id"].to_pylist()
        if len(set(ids)) != len(ids):
            problems.append(f"{entry.task}: duplicated ids.")
        columns = {column: table[column].to_pylist() for column in ("word1", "word2")}
        for column, values in columns.items():
            bad = [w for w in values if not isinstance(w, str) or not w or w != w.lower() or len(w.split()) != 1]
            if bad:
                problems.append(f"{entry.task}: {column} must hold single lowercased words, e.g. not {bad[0]!r}.")
        words += [w for pair in zip(columns["word1"], columns["word2"]) for w in pair if isinstance(w, str)]
        if any(not isinstance(s, float) or not math.isfinite(s) for s in table["score"].to_pylist()):
            problems.append(f"{entry.task}: scores must be finite numbers.")
    try:
        vocabulary = layout.read_config(Path(folder), VOCABULARY)["word"].to_pylist()
    except Exception as exc:
        return problems + [f"{VOCABULARY}: cannot read the table ({type(exc).__name__}: {exc})."]
    if vocabulary != list(dict.fromkeys(words)):
        problems.append(f"{VOCABULARY}: must list every word of the 13 sets once, in set and file order.")
    return problems


# --- card ----------------------------------------------------------------------------------------
def card_metadata(report: dict[str, int]) -> dict:
    """The YAML header of the word-similarity dataset card (licence, tags, configs)."""
    from mteb_evalrank.hub_datasets.evalrank_format import size_category

    return {
        "pretty_name": "Word similarity (the 13 English sets of the EvalRank toolkit)",
        "language": ["en"],
        "license": "other",
        "license_name": f"{NAME}-sources",
        "task_categories": ["sentence-similarity", "feature-extraction"],
        "size_categories": [size_category(report["pairs"])],
        "tags": ["mteb", "evalrank", "word-similarity", "embedding-evaluation"],
        "configs": layout.configs_metadata([*TASK_NAMES, VOCABULARY], default=TASK_NAMES[0]),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int]) -> str:
    """The word-similarity dataset card's text: one table row per set with its counts and reference."""
    from string import Template

    lines = [
        "| config | source file | pairs | words | w1 = w2 | repeated pairs | reference |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for entry in SETS:
        t = entry.task
        lines.append(
            f"| `{t}` | `{entry.file}` | {report[f'{t}_pairs']:,} | {report[f'{t}_words']:,} | "
            f"{report[f'{t}_self_pairs']} | {report[f'{t}_repeated_pairs']} | {entry.reference} |"
        )
    citations = list(dict.fromkeys(c for entry in SETS for c in entry.citations))
    template = Template(Path(__file__).with_name("card.md").read_text(encoding="utf-8"))
    return template.substitute(
        counts_table="\n".join(lines),
        pairs=f"{report['pairs']:,}",
        vocabulary=f"{report['vocabulary']:,}",
        build_command=BUILD_COMMAND,
        collection_url=COLLECTION_URL,
        license_file=LICENSE_FILE,
        citations="\n\n".join([*citations, FARUQUI_CITATION]),
    )
