"""STS-Benchmark csv files: the one reader of their records, for every builder that reads them.

A record is one line of ``sts-{train,dev,test}.csv``: ``genre, file, year, id, score, s1, s2``
tab-separated (the original release has one or two further source columns on some lines; they are
ignored).  Three builders read these files — ``evalrank-sent`` (the EvalRank toolkit's reading),
``sts-senteval`` (SentEval's ``STSBenchmarkEval``) and ``n2o-corpus`` (the original cased release) —
and differ only in how the file is split into lines (the caller passes them: :func:`.source_files.
numbered_lines` or :func:`.senteval_format.iter_lines_of`) and in what they make of the two sentences.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets.source_files import parse_score

#: STS-B's citation: the STS-B tasks' metadata (tasks/sts.py) and the N2O corpus card.
STSB_CITATION = r"""@inproceedings{cer-etal-2017-semeval,
  author = {Cer, Daniel and Diab, Mona and Agirre, Eneko and Lopez-Gazpio, I{\~n}igo and Specia, Lucia},
  booktitle = {Proceedings of the 11th International Workshop on Semantic Evaluation ({S}em{E}val-2017)},
  doi = {10.18653/v1/S17-2001},
  pages = {1--14},
  title = {{S}em{E}val-2017 Task 1: Semantic Textual Similarity Multilingual and Crosslingual Focused Evaluation},
  url = {https://aclanthology.org/S17-2001},
  year = {2017},
}"""

#: Fields of a record: genre, file, year, id, score, s1, s2.
STSB_FIELDS = 7


@dataclass(frozen=True)
class StsbRecord:
    """One record: its 1-based line number, genre, score and the two sentences as the file gives them."""

    line: int
    genre: str
    score: float
    s1: str
    s2: str


def read_stsb(path: Path, lines: Iterable[tuple[int, str]], *, allow_empty: bool = False) -> list[StsbRecord]:
    """The records of the STS-B csv ``path`` from its ``(line number, line)`` pairs.

    Each line is stripped of surrounding white space and split at tabs; field 4 is the score (a finite
    number), fields 5 and 6 the sentences, kept as they are.  Raises :class:`SourceFormatError` naming
    the file and line for fewer than seven fields, a bad score, an empty (white-space only) sentence
    unless ``allow_empty`` (SentEval reads one as an empty token list), and a file without records.
    """
    records = []
    for number, line in lines:
        fields = line.strip().split("\t")
        if len(fields) < STSB_FIELDS:
            raise SourceFormatError(
                path,
                f"expected {STSB_FIELDS} tab-separated fields (genre, file, year, id, score, s1, s2), "
                f"found {len(fields)}.",
                line=number,
            )
        score = parse_score(fields[4], path, number)
        s1, s2 = fields[5], fields[6]
        if not allow_empty and (not s1.strip() or not s2.strip()):
            raise SourceFormatError(path, "empty sentence.", line=number)
        records.append(StsbRecord(number, fields[0], score, s1, s2))
    if not records:
        raise SourceFormatError(path, "the file holds no sentence pairs.")
    return records
