"""Build the SentEval downstream (transfer) tasks used by EvalRank (§5.1, §6.1) in Hub layout.

Ten configs, one per task, read from ``<sources>/senteval_downstream/`` exactly as SentEval's loaders
read them (facebookresearch/SentEval ``senteval/{binary,sst,trec,mrpc,sick}.py``; SciCite: the EvalRank
toolkit's ``src/senteval/scicite.py``):

========  ======================================  =========  ===========================================
config    files                                   encoding   parsing (SentEval)
========  ======================================  =========  ===========================================
MR        MR/rt-polarity.{pos,neg}                latin-1    ``read().splitlines()``; pos = 1, neg = 0
CR        CR/custrev.{pos,neg}                    latin-1    same; blank lines are (empty) samples
SUBJ      SUBJ/subj.{objective,subjective}        latin-1    same; **objective = 1**, subjective = 0
MPQA      MPQA/mpqa.{pos,neg}                     latin-1    same
SST2      SST/binary/sentiment-{train,dev,test}   utf-8      ``sentence<TAB>label``
SST5      SST/fine/sentiment-{train,dev,test}     utf-8      ``label sentence`` (first space)
TREC      TREC/{train_5500,TREC_10}.label         latin-1    ``COARSE:fine question``; coarse label only
MRPC      MRPC/msr_paraphrase_{train,test}.txt    utf-8      tab-separated, first line (header) dropped,
                                                             no csv quoting (``"`` is a token)
SICKE     SICK/SICK_{train,trial,test_annotated}  utf-8      header dropped; sentence_A, sentence_B,
                                                             entailment_judgment (trial = ``dev``)
SciCite   SCICITE/{train,dev,test}.txt            utf-8      JSON lines; text lowercased, only a-z and
                                                             space kept
========  ======================================  =========  ===========================================

Every table keeps SentEval's load order (files in the order SentEval reads them, lines in file order)
and records the text SentEval hands the batcher: ``sentence.split()`` re-joined with single spaces
(:func:`..senteval_format.senteval_text`).  SentEval later sorts each split by token count (and label)
to reduce padding; that order is not stored (it follows from ``text`` and ``label``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.hub_datasets import layout
from mteb_evalrank.hub_datasets import senteval_format as sf
from mteb_evalrank.hub_datasets.senteval_format import LabelledText

NAME = "senteval-downstream"
SOURCE_FOLDER = "senteval_downstream"
BUILD_COMMAND = f"mteb-evalrank build-data {NAME} --sources ../shared/data/sources --out data/{NAME}"

SENTEVAL_REPO = "https://github.com/facebookresearch/SentEval"
EVALRANK_REPO = "https://github.com/BinWang28/EvalRank-Embedding-Evaluation"

SENTEVAL_CITATION = r"""@inproceedings{conneau-kiela-2018-senteval,
  author = {Conneau, Alexis and Kiela, Douwe},
  booktitle = {Proceedings of the Eleventh International Conference on Language Resources and Evaluation ({LREC} 2018)},
  title = {{S}ent{E}val: An Evaluation Toolkit for Universal Sentence Representations},
  url = {https://aclanthology.org/L18-1269},
  year = {2018},
}"""

TREC_LABELS = ("ABBR", "DESC", "ENTY", "HUM", "LOC", "NUM")  # SentEval's tgt2idx order
SICK_ENTAILMENT_LABELS = ("CONTRADICTION", "NEUTRAL", "ENTAILMENT")  # SentEval's label2id order
SCICITE_LABELS = ("background", "method", "result")  # the EvalRank toolkit's label2id order
SCICITE_ALPHABET = frozenset("abcdefghijklmnopqrstuvwxyz ")


@dataclass(frozen=True)
class TaskSpec:
    """One SentEval transfer task: config, SentEval name, source folder and files, label names, protocol."""

    config: str
    senteval_name: str  # the name SentEval's engine knows the task by
    folder: str  # under <sources>/senteval_downstream/
    label_names: tuple[str, ...]
    pairs: bool
    encoding: str
    protocol: str
    reader: Callable[[Path, TaskSpec], list[LabelledText]]
    files: tuple[str, ...]


# --- readers -------------------------------------------------------------------------------------
def read_binary(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``BinaryClassifierEval``: first file label 1, second file label 0; every ``splitlines`` item a sample."""
    rows = []
    for name, label in zip(spec.files, (1, 0)):
        path = folder / name
        lines = sf.splitlines_of(path, encoding=spec.encoding, what=f"{spec.config} file")
        if not lines:
            raise SourceFormatError(path, "the file holds no sentences.")
        rows += [LabelledText(f"{name}:{i}", "train", sf.senteval_text(line), label) for i, line in enumerate(lines, 1)]
    return rows


def _split_files(spec: TaskSpec) -> list[tuple[str, str]]:
    return list(zip(spec.files, sf.SPLITS if len(spec.files) == 3 else ("train", "test")))


def _require_all_classes(path: Path, labels: list[int], n: int) -> None:
    if labels and max(labels) != n - 1:  # SentEval: assert max(y) == nclasses - 1
        raise SourceFormatError(path, f"the highest label is {max(labels)}, SentEval expects {n - 1}.")


def read_sst(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``SSTEval.loadFile``: binary ``sentence<TAB>label``; fine-grained ``label sentence``."""
    n = len(spec.label_names)
    rows = []
    for name, split in _split_files(spec):
        path = folder / name
        labels = []
        for number, line in sf.iter_lines_of(path, encoding=spec.encoding, what=f"{spec.config} {split} file"):
            if n == 2:
                sample = line.strip().split("\t")
                if len(sample) < 2:
                    raise SourceFormatError(path, "expected 'sentence<TAB>label'.", line=number)
                text, label = sample[0], sf.parse_int(sample[1], path, number)
            else:
                sample = line.strip().split(" ", 1)
                if len(sample) < 2:
                    raise SourceFormatError(path, "expected 'label sentence'.", line=number)
                label, text = sf.parse_int(sample[0], path, number), sample[1]
            if not 0 <= label < n:
                raise SourceFormatError(path, f"label {label} is not in 0..{n - 1}.", line=number)
            labels.append(label)
            rows.append(LabelledText(f"{name}:{number}", split, sf.senteval_text(text), label))
        if not labels:
            raise SourceFormatError(path, "the file holds no sentences.")
        _require_all_classes(path, labels, n)
    return rows


def read_trec(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``TRECEval.loadFile``: ``COARSE:fine words...``; the text starts after the first space of the rest."""
    rows: list[LabelledText] = []
    for name, split in _split_files(spec):
        path = folder / name
        before = len(rows)
        for number, line in sf.iter_lines_of(path, encoding=spec.encoding, what=f"TREC {split} file"):
            target, colon, rest = line.strip().partition(":")
            if not colon:
                raise SourceFormatError(path, "expected 'COARSE:fine question', found no ':'.", line=number)
            if target not in TREC_LABELS:
                raise SourceFormatError(
                    path, f"unknown coarse label {target!r} (expected one of {', '.join(TREC_LABELS)}).", line=number
                )
            parts = rest.split(" ", 1)
            if len(parts) < 2:
                raise SourceFormatError(path, "expected 'COARSE:fine question', found no question.", line=number)
            rows.append(LabelledText(f"{name}:{number}", split, sf.senteval_text(parts[1]), TREC_LABELS.index(target)))
        if len(rows) == before:
            raise SourceFormatError(path, "the file holds no questions.")
    return rows


def _read_tsv_pairs(folder: Path, spec: TaskSpec, *, header: str, columns: tuple[int, int, int], labels) -> list:
    """Tab-separated pair files whose first line SentEval drops (MRPC, SICK)."""
    rows: list = []
    a, b, y = columns
    need = max(columns) + 1
    for name, split in _split_files(spec):
        path = folder / name
        sf.check_header(path, sf.first_line_of(path, encoding=spec.encoding, what=f"{spec.config} file"), header)
        before = len(rows)
        for number, line in sf.iter_lines_of(path, encoding=spec.encoding, what=f"{spec.config} {split} file"):
            if number == 1:
                continue
            fields = line.strip().split("\t")
            if len(fields) < need:
                raise SourceFormatError(
                    path, f"expected at least {need} tab-separated fields, found {len(fields)}.", line=number
                )
            label = labels(fields[y], path, number)
            rows.append(
                LabelledText(f"{name}:{number}", split, sf.senteval_text(fields[a]), label, sf.senteval_text(fields[b]))
            )
        if len(rows) == before:
            raise SourceFormatError(path, "the file holds no sentence pairs.")
    return rows


def _mrpc_label(value: str, path: Path, line: int) -> int:
    label = sf.parse_int(value, path, line, what="Quality")
    if label not in (0, 1):
        raise SourceFormatError(path, f"Quality {label} is not 0 or 1.", line=line)
    return label


def _sick_label(value: str, path: Path, line: int) -> int:
    if value not in SICK_ENTAILMENT_LABELS:
        raise SourceFormatError(
            path, f"entailment_judgment {value!r} is not one of {', '.join(SICK_ENTAILMENT_LABELS)}.", line=line
        )
    return SICK_ENTAILMENT_LABELS.index(value)


def read_mrpc(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``MRPCEval.loadFile``: Quality, #1 ID, #2 ID, #1 String, #2 String; header dropped."""
    return _read_tsv_pairs(folder, spec, header="Quality", columns=(3, 4, 0), labels=_mrpc_label)


def read_sick_entailment(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``SICKEntailmentEval.loadFile``: pair_ID, sentence_A, sentence_B, relatedness, entailment; header dropped."""
    return _read_tsv_pairs(folder, spec, header="pair_ID", columns=(1, 2, 4), labels=_sick_label)


def scicite_text(text: str) -> str:
    """The EvalRank toolkit's SciCite normalisation: lowercase, keep only a-z and spaces, then split."""
    return sf.senteval_text("".join(ch for ch in text.lower() if ch in SCICITE_ALPHABET))


def read_scicite(folder: Path, spec: TaskSpec) -> list[LabelledText]:
    """``SCICITEEval.loadFile`` (EvalRank toolkit): JSON lines with ``text`` and ``label``."""
    rows = []
    for name, split in _split_files(spec):
        path = folder / name
        labels = []
        for number, line in sf.iter_lines_of(path, encoding=spec.encoding, what=f"SciCite {split} file"):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SourceFormatError(path, f"not a JSON object ({exc.msg}).", line=number) from None
            if not isinstance(record, dict) or not isinstance(record.get("text"), str) or "label" not in record:
                raise SourceFormatError(path, "expected a JSON object with a string 'text' and a 'label'.", line=number)
            if record["label"] not in SCICITE_LABELS:
                raise SourceFormatError(
                    path, f"label {record['label']!r} is not one of {', '.join(SCICITE_LABELS)}.", line=number
                )
            label = SCICITE_LABELS.index(record["label"])
            labels.append(label)
            rows.append(LabelledText(f"{name}:{number}", split, scicite_text(record["text"]), label))
        if not labels:
            raise SourceFormatError(path, "the file holds no citations.")
        _require_all_classes(path, labels, len(SCICITE_LABELS))
    return rows


TASKS: dict[str, TaskSpec] = {
    spec.config: spec
    for spec in (
        TaskSpec(
            "MR",
            "MR",
            "MR",
            ("negative", "positive"),
            False,
            "latin-1",
            "kfold",
            read_binary,
            ("rt-polarity.pos", "rt-polarity.neg"),
        ),
        TaskSpec(
            "CR",
            "CR",
            "CR",
            ("negative", "positive"),
            False,
            "latin-1",
            "kfold",
            read_binary,
            ("custrev.pos", "custrev.neg"),
        ),
        TaskSpec(
            "SUBJ",
            "SUBJ",
            "SUBJ",
            ("subjective", "objective"),
            False,
            "latin-1",
            "kfold",
            read_binary,
            ("subj.objective", "subj.subjective"),
        ),
        TaskSpec(
            "MPQA",
            "MPQA",
            "MPQA",
            ("negative", "positive"),
            False,
            "latin-1",
            "kfold",
            read_binary,
            ("mpqa.pos", "mpqa.neg"),
        ),
        TaskSpec(
            "SST2",
            "SST2",
            "SST/binary",
            ("negative", "positive"),
            False,
            "utf-8",
            "split",
            read_sst,
            ("sentiment-train", "sentiment-dev", "sentiment-test"),
        ),
        TaskSpec(
            "SST5",
            "SST5",
            "SST/fine",
            ("very negative", "negative", "neutral", "positive", "very positive"),
            False,
            "utf-8",
            "split",
            read_sst,
            ("sentiment-train", "sentiment-dev", "sentiment-test"),
        ),
        TaskSpec(
            "TREC",
            "TREC",
            "TREC",
            TREC_LABELS,
            False,
            "latin-1",
            "kfold-test",
            read_trec,
            ("train_5500.label", "TREC_10.label"),
        ),
        TaskSpec(
            "MRPC",
            "MRPC",
            "MRPC",
            ("not_paraphrase", "paraphrase"),
            True,
            "utf-8",
            "kfold-test",
            read_mrpc,
            ("msr_paraphrase_train.txt", "msr_paraphrase_test.txt"),
        ),
        TaskSpec(
            "SICKE",
            "SICKEntailment",
            "SICK",
            tuple(s.lower() for s in SICK_ENTAILMENT_LABELS),
            True,
            "utf-8",
            "split",
            read_sick_entailment,
            ("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"),
        ),
        TaskSpec(
            "SciCite",
            "SCICITE",
            "SCICITE",
            SCICITE_LABELS,
            False,
            "utf-8",
            "split",
            read_scicite,
            ("train.txt", "dev.txt", "test.txt"),
        ),
    )
}
CONFIGS: tuple[str, ...] = tuple(TASKS)

PROTOCOLS = {
    "kfold": "outer stratified k-fold over all rows, inner k-fold picks the L2 penalty",
    "split": "train / dev (model selection) / test",
    "kfold-test": "k-fold on train picks the L2 penalty, then train → test",
}
SORT_KEYS = {False: "(number of tokens, label)", True: "(tokens of text1, tokens of text2, label)"}


def read_task(sources_dir: Path, config: str) -> list[LabelledText]:
    """The rows of one config, read from a sources folder (or a ``senteval_downstream`` folder)."""
    spec = TASKS[config]
    root = sf.find_root(Path(sources_dir), SOURCE_FOLDER, "MR")
    return spec.reader(root / spec.folder, spec)


def build(sources_dir: Path, out_dir: Path) -> dict[str, int]:
    """Build all ten configs from ``sources_dir`` into ``out_dir`` (Hub layout); return the counts."""
    tables, counts, report = {}, {}, {}
    for config, spec in TASKS.items():
        rows = read_task(sources_dir, config)
        tables[config] = sf.labelled_table(rows, spec.label_names, pairs=spec.pairs)
        counts[config] = sf.split_counts(rows)
        report.update({f"{config}_{split}": n for split, n in counts[config].items()})
        texts = [t for r in rows for t in ((r.text, r.text2) if spec.pairs else (r.text,))]
        report[f"{config}_empty_texts"] = sum(not t for t in texts)
        if spec.encoding == "latin-1":
            report[f"{config}_non_ascii_texts"] = sum(not sf.is_ascii(t) for t in texts)
    report["rows"] = sum(t.num_rows for t in tables.values())
    layout.write_dataset(Path(out_dir), tables, card_metadata(report), card_body(report, counts))
    return report


# --- validation ----------------------------------------------------------------------------------
def validate(folder: Path) -> list[str]:
    """Content problems of a built folder (empty list: fine); used by the push routine."""
    problems = []
    for config, spec in TASKS.items():
        try:
            table = layout.read_config(Path(folder), config)
        except Exception as exc:
            problems.append(f"{config}: cannot read the table ({type(exc).__name__}: {exc}).")
            continue
        problems += check_table(table, spec)
    return problems


def check_table(table, spec: TaskSpec) -> list[str]:
    """The problems of one downstream task's table (columns, ids, splits, labels, texts); empty when it is valid."""
    where = spec.config
    columns = sf.PAIR_COLUMNS if spec.pairs else sf.SENTENCE_COLUMNS
    problems = sf.check_columns(table, columns, where)
    if problems:
        return problems
    if table.num_rows == 0:
        return [f"{where}: the table is empty."]
    data = {c: table[c].to_pylist() for c in columns}
    if any(not isinstance(i, str) or not i for i in data["id"]):
        problems.append(f"{where}: ids must be non-empty strings.")
    dupes = sf.duplicated(data["id"])
    if dupes:
        problems.append(f"{where}: {len(dupes)} duplicated ids, e.g. {dupes[:3]}.")
    bad_splits = sorted({s for s in data["split"] if s not in sf.SPLITS}, key=str)
    if bad_splits:
        problems.append(f"{where}: unknown split(s) {bad_splits}; expected {list(sf.SPLITS)}.")
    n = len(spec.label_names)
    bad = [
        i
        for i, y, name in zip(data["id"], data["label"], data["label_name"])
        if not isinstance(y, int) or not 0 <= y < n or name != spec.label_names[y]
    ]
    if bad:
        problems.append(
            f"{where}: {len(bad)} rows with a label outside 0..{n - 1} or a wrong label_name, e.g. {bad[:3]}."
        )
    for column in ("text1", "text2") if spec.pairs else ("text",):
        if any(not isinstance(t, str) for t in data[column]):
            problems.append(f"{where}: {column} has missing values.")
        elif any(t != sf.senteval_text(t) for t in data[column]):
            problems.append(f"{where}: {column} is not whitespace-tokenised text (tokens joined by single spaces).")
    return problems


# --- card ----------------------------------------------------------------------------------------
def card_metadata(report: dict[str, int]) -> dict:
    """The YAML header of the SentEval downstream dataset card (licence, tags, configs)."""
    from mteb_evalrank.hub_datasets.evalrank_format import size_category

    return {
        "pretty_name": "SentEval downstream tasks (EvalRank's ten transfer tasks)",
        "language": ["en"],
        "license": "other",
        "license_name": f"{NAME}-sources",
        "task_categories": ["text-classification"],
        "size_categories": [size_category(report["rows"])],
        "tags": ["mteb", "senteval", "evalrank", "sentence-classification", "embedding-evaluation"],
        "configs": layout.configs_metadata(list(CONFIGS), default=CONFIGS[0]),
        layout.CARD_DATASET_KEY: NAME,
    }


def card_body(report: dict[str, int], counts: dict[str, dict[str, int]]) -> str:
    """The SentEval downstream dataset card's text: one table row per task, then the counts."""
    lines = [
        "| config | SentEval task | columns | labels (id: name) | SentEval protocol | SentEval's batching order |",
        "|---|---|---|---|---|---|",
    ]
    for config, spec in TASKS.items():
        labels = ", ".join(f"{i}: {name}" for i, name in enumerate(spec.label_names))
        cols = "`text1`, `text2`" if spec.pairs else "`text`"
        lines.append(
            f"| `{config}` | `{spec.senteval_name}` | {cols} | {labels} | {PROTOCOLS[spec.protocol]} | "
            f"{SORT_KEYS[spec.pairs]} |"
        )
    empty = [f"{c}: {report[f'{c}_empty_texts']}" for c in CONFIGS if report[f"{c}_empty_texts"]]
    non_ascii = [f"{c}: {report[f'{c}_non_ascii_texts']}" for c in CONFIGS if report.get(f"{c}_non_ascii_texts")]
    template = Template(Path(__file__).with_name("card.md").read_text(encoding="utf-8"))
    return template.substitute(
        counts_table=sf.counts_markdown(counts),
        configs_table="\n".join(lines),
        rows=f"{report['rows']:,}",
        empty_texts=", ".join(empty) or "none",
        non_ascii=", ".join(non_ascii) or "none",
        build_command=BUILD_COMMAND,
        senteval_repo=SENTEVAL_REPO,
        evalrank_repo=EVALRANK_REPO,
        senteval_citation=SENTEVAL_CITATION,
    )
