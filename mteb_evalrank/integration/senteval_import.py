"""SentEval results -> MTEB ``TaskResult`` files of the plugin's tasks (``mteb-evalrank import-senteval``).

SentEval's ``se.eval([...])`` returns one dict per task name (facebookresearch/SentEval, commit 5d6dc11;
the EvalRank toolkit's copy adds ``SCICITE`` and ``STR`` and a ``kendall`` entry).  Saved as JSON,
its values are:

================================  ==============================================================  =========
SentEval task                     keys (as ``senteval/*.py`` return them)                         unit
================================  ==============================================================  =========
MR CR SUBJ MPQA (``binary.py``),  ``devacc``, ``acc``, ``ndev``, ``ntest``                        percent,
SST2 SST5 (``sst.py``), TREC,                                                                     rounded
SICKEntailment, SCICITE                                                                           to 0.01
MRPC (``mrpc.py``)                the same plus ``f1``                                            percent
STS12 … STS16 (``sts.py``)        one dict per sub-dataset: ``pearson``, ``spearman`` (scipy      fraction
                                  result tuples ``[r, p-value]`` once saved as JSON),
                                  ``nsamples``; and ``all``: ``{"pearson": {"mean", "wmean"},
                                  "spearman": {"mean", "wmean"}}``
STSBenchmark, SICKRelatedness     SentEval: a trained regressor (``devpearson``, ``pearson``,     fraction
                                  ``spearman``, ``mse``, ``yhat``, ``ndev``, ``ntest``); the
                                  EvalRank toolkit: cosine on the test split (no ``devpearson``)
STR (EvalRank toolkit)            ``pearson``, ``spearman``, ``nsamples``                         fraction
================================  ==============================================================  =========

Conversion to MTEB's convention (scores are fractions): accuracies and F1 are divided by 100;
correlations are kept (they are fractions already) unless a task's file holds a correlation with
|value| > 1, which means someone stored them ×100, and then that task's correlations are divided by
100 (recorded as ``senteval_correlation_unit``).  Score names are those of the plugin's own tasks:
``acc``, ``devacc``, ``f1``, ``ndev``, ``ntest`` (downstream; the main score is the test accuracy);
``cosine_spearman``, ``cosine_pearson``, ``num_pairs`` (similarity; SentEval's default similarity is
cosine), and for STS12-16 the single subset ``default`` holding SentEval's ``all``, with ``cosine_spearman`` =
the size-weighted mean (``wmean``, the EvalRank paper's figure) plus ``cosine_spearman_mean``/``_wmean`` and the
same for Pearson, and each sub-dataset in ``scores_per_source`` (as the plugin's own tasks write them).  Every score dict also holds ``imported_from: "SentEval"``, the SentEval task name, where the
numbers came from and SentEval's own values (``senteval``: the dict as given, minus ``yhat``).

Not imported, with a recorded warning: SentEval's *supervised* STSBenchmark / SICKRelatedness (a
trained regressor is not the cosine similarity the plugin's tasks measure; recognised by
``devpearson``, or named ``STSB_Supervised`` / ``SICKRelatedness_Supervised``), and SentEval tasks the
plugin has no task for (SNLI, image-caption retrieval, the probing tasks).  Any other name, a missing
key or a value of the wrong kind raises :class:`~mteb_evalrank.errors.InputError` naming the key.

The mapping SentEval name -> plugin task is :data:`SENTEVAL_TASKS` (the one place).  Tasks are looked
up in MTEB's registry when importing (``mteb.get_task``), so a task this installation lacks is an
error naming it.  Files are written with MTEB's ``TaskResult`` and (safe) ``ResultCache``:
``<folder>/results/<org>__<model>/<revision>/<Task>.json`` plus ``model_meta.json``.  A result file
that the plugin computed itself (no ``imported_from``) is never overwritten by an import.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

IMPORTED_FROM = "SentEval"
SPLIT = "test"


@dataclass(frozen=True)
class SentEvalTask:
    """How one SentEval task name maps onto a plugin task."""

    senteval_name: str
    task_name: str
    kind: str  # "classification", "sts-year", "relatedness", "str"
    has_f1: bool = False


def _specs() -> dict[str, SentEvalTask]:
    specs = [
        SentEvalTask("MR", "SentEvalMR", "classification"),
        SentEvalTask("CR", "SentEvalCR", "classification"),
        SentEvalTask("SUBJ", "SentEvalSUBJ", "classification"),
        SentEvalTask("MPQA", "SentEvalMPQA", "classification"),
        SentEvalTask("SST2", "SentEvalSST2", "classification"),
        SentEvalTask("SST5", "SentEvalSST5", "classification"),
        SentEvalTask("TREC", "SentEvalTREC", "classification"),
        SentEvalTask("MRPC", "SentEvalMRPC", "classification", has_f1=True),
        SentEvalTask("SICKEntailment", "SentEvalSICKE", "classification"),
        SentEvalTask("SCICITE", "SciCite", "classification"),  # the EvalRank toolkit's name
        *(SentEvalTask(f"STS1{i}", f"SentEvalSTS1{i}", "sts-year") for i in range(2, 7)),
        SentEvalTask("STSBenchmark", "SentEvalSTSB", "relatedness"),
        SentEvalTask("SICKRelatedness", "SentEvalSICKR", "relatedness"),
        SentEvalTask("STR", "STR", "str"),  # the EvalRank toolkit's name
    ]
    return {s.senteval_name: s for s in specs}


#: SentEval task name -> plugin task (the single place where the names are mapped).
SENTEVAL_TASKS: dict[str, SentEvalTask] = _specs()

_SUPERVISED = (
    "SentEval's supervised variant (a regressor trained on the train split), not the cosine similarity the "
    "plugin's {task} measures; not imported"
)
_NO_TASK = "the plugin has no task for it; not imported"
#: SentEval task names that are known but not imported, with the reason recorded as a warning.
NOT_IMPORTED: dict[str, str] = {
    "STSB_Supervised": _SUPERVISED.format(task="SentEvalSTSB"),
    "SICKRelatedness_Supervised": _SUPERVISED.format(task="SentEvalSICKR"),
    **dict.fromkeys(
        (
            "SNLI",
            "ImageCaptionRetrieval",
            "Length",
            "WordContent",
            "Depth",
            "TopConstituents",
            "BigramShift",
            "Tense",
            "SubjNumber",
            "ObjNumber",
            "OddManOut",
            "CoordinationInversion",
        ),
        _NO_TASK,
    ),
}

#: The EvalRank toolkit's STR scores: its STR loader hands strings, not token lists, to the batcher.
STR_TOOLKIT_NOTE = (
    "the EvalRank toolkit passes STR sentences as strings to a batcher that joins tokens with spaces, so its "
    "STR scores were computed on character-spaced text; the plugin's STR task encodes the real sentences"
)


def senteval_task(name: str) -> SentEvalTask:
    """The mapping entry of a SentEval task name (a plugin task name is accepted too)."""
    if name in SENTEVAL_TASKS:
        return SENTEVAL_TASKS[name]
    for spec in SENTEVAL_TASKS.values():
        if spec.task_name == name:
            return spec
    if name in NOT_IMPORTED:
        raise InputError(f"SentEval task {name!r}: {NOT_IMPORTED[name]}.")
    raise InputError(f"unknown SentEval task {name!r}; known: {', '.join(SENTEVAL_TASKS)}.")


def plugin_task(spec: SentEvalTask):
    """The plugin task a SentEval task maps to, from MTEB's registry (:class:`InputError` if absent)."""
    import mteb

    try:
        return mteb.get_task(spec.task_name)
    except KeyError:
        raise InputError(
            f"{spec.senteval_name}: its plugin task {spec.task_name} is not registered with MTEB in this installation."
        ) from None


# --- outcome ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportedTask:
    """One SentEval task written as an MTEB result file: its SentEval and MTEB names, the file and its main score."""

    senteval_name: str
    task_name: str
    path: Path
    main_score: float


@dataclass
class ImportReport:
    """What an import wrote (``imported``), left out (``skipped``: name -> reason) and noticed."""

    imported: list[ImportedTask] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


# --- reading values -------------------------------------------------------------------------------
def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: expected a number, got {json.dumps(value)[:60]}.")
    try:
        v = float(value)
    except OverflowError:  # a whole number of hundreds of digits
        raise InputError(f"{where}: expected a finite number, got a number of {len(str(value))} digits.") from None
    if not math.isfinite(v):
        raise InputError(f"{where}: expected a finite number, got {value!r}.")
    return v


def _count(value: Any, where: str) -> int:
    v = _number(value, where)
    if v != int(v) or v < 1:
        raise InputError(f"{where}: expected a positive whole number, got {value!r}.")
    return int(v)


def _percent(value: Any, where: str) -> float:
    """An accuracy or F1 in percent.  A value in [0, 1] is refused: no SentEval classifier scores 1 % or less
    (chance is 50 % on the binary tasks, ≥ 16 % on the others), so it is a fraction, and dividing it by 100
    again would file 0.5 as 0.005."""
    v = _number(value, where)
    if not 0.0 <= v <= 100.0:
        raise InputError(f"{where}: SentEval reports this in percent (0-100), got {value!r}.")
    if v <= 1.0:
        raise InputError(
            f"{where} is {value!r}: a fraction, but SentEval reports accuracies and F1 in percent "
            "(0-100); give every one in percent, as se.eval returns them."
        )
    return v


def _correlation(value: Any, where: str) -> float:
    """A correlation as SentEval stores it: a number, or scipy's ``(statistic, pvalue)`` result, which
    JSON turns into a list (or a dict, if saved field by field).  The p-value is checked, not kept."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise InputError(f"{where}: expected a number or [correlation, p-value], got {len(value)} values.")
        if value[1] is not None:
            _number(value[1], f"{where} p-value")
        return _number(value[0], where)
    if isinstance(value, Mapping):
        for key in ("statistic", "correlation"):
            if key in value:
                return _number(value[key], f"{where}.{key}")
        raise InputError(f"{where}: expected a number or [correlation, p-value], got keys {sorted(value)}.")
    return _number(value, where)


def _require(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, Mapping):
        raise InputError(f"{where}: expected an object with SentEval's keys, got {type(d).__name__}.")
    if key not in d:
        raise InputError(f"{where}: missing key {key!r}.")
    return d[key]


class _Correlations:
    """Collects a task's correlations, then converts them all at once (fractions, or ×100 -> /100)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.values: list[tuple[str, float]] = []

    def add(self, value: float, where: str) -> int:
        self.values.append((where, value))
        return len(self.values) - 1

    def finish(self) -> tuple[list[float], str]:
        worst = max(self.values, key=lambda wv: abs(wv[1]))
        if abs(worst[1]) > 100.0:
            raise InputError(
                f"{worst[0]}: a correlation must be in [-1, 1] (or [-100, 100] in percent), got {worst[1]}."
            )
        if abs(worst[1]) > 1.0:
            mixed = next(((w, v) for w, v in self.values if 0.0 < abs(v) <= 1.0), None)
            if mixed is not None:  # 85.2 and 0.81 in one task: percent and fractions mixed, no safe reading
                raise InputError(
                    f"{self.where}: correlations mix percent ({worst[0]} = {worst[1]}) and fractions "
                    f"({mixed[0]} = {mixed[1]}); give them all in one unit."
                )
            return [v / 100.0 for _, v in self.values], "percent"
        return [v for _, v in self.values], "fraction"


def _raw(d: Mapping[str, Any]) -> dict[str, Any]:
    """SentEval's own values, without the per-pair predictions (``yhat``) and with each scipy result
    ``[correlation, p-value]`` reduced to the correlation (MTEB rounds stored scores to 6 decimals, which
    would turn most p-values into a misleading 0.0)."""
    out = {}
    for k, v in d.items():
        if k == "yhat":
            continue
        if k in _CORRELATION_KEYS and isinstance(v, (list, tuple)) and len(v) == 2:
            v = v[0]
        elif k in _CORRELATION_KEYS and isinstance(v, Mapping) and ("statistic" in v or "correlation" in v):
            v = v.get("statistic", v.get("correlation"))
        out[k] = v
    return out


_CORRELATION_KEYS = ("pearson", "spearman", "kendall")


# --- one task -------------------------------------------------------------------------------------
def _classification(spec: SentEvalTask, d: Any, where: str) -> dict[str, dict[str, Any]]:
    keys = ["devacc", "acc", "ndev", "ntest"] + (["f1"] if spec.has_f1 else [])
    values = {k: _require(d, k, where) for k in keys}
    scores: dict[str, Any] = {
        "acc": _percent(values["acc"], f"{where}.acc") / 100.0,
        "devacc": _percent(values["devacc"], f"{where}.devacc") / 100.0,
        "ndev": _count(values["ndev"], f"{where}.ndev"),
        "ntest": _count(values["ntest"], f"{where}.ntest"),
    }
    if spec.has_f1:
        scores["f1"] = _percent(values["f1"], f"{where}.f1") / 100.0
    scores["senteval"] = _raw(d)
    return {"default": scores}


def _pairs_scores(d: Any, where: str, count_keys: Sequence[str]) -> tuple[dict[str, Any], list]:
    """pearson / spearman (/ kendall) and the pair count of one correlation entry (not yet converted)."""
    pending = [(name, _correlation(_require(d, name, where), f"{where}.{name}")) for name in ("spearman", "pearson")]
    if isinstance(d, Mapping) and "kendall" in d:
        pending.append(("kendall", _correlation(d["kendall"], f"{where}.kendall")))
    count_key = next((k for k in count_keys if isinstance(d, Mapping) and k in d), None)
    if count_key is None:
        raise InputError(f"{where}: missing key {count_keys[0]!r}.")
    return {"num_pairs": _count(d[count_key], f"{where}.{count_key}")}, pending


def _sts_year(spec: SentEvalTask, d: Any, where: str, subsets: Sequence[str]) -> dict[str, dict[str, Any]]:
    if not isinstance(d, Mapping):
        raise InputError(f"{where}: expected an object with one entry per sub-dataset and 'all'.")
    unknown = sorted(set(d) - set(subsets) - {"all"})
    if unknown:
        raise InputError(f"{where}: unknown sub-dataset key(s) {unknown}; {spec.senteval_name} has {list(subsets)}.")
    corr = _Correlations(where)
    entries: dict[str, dict[str, Any]] = {}
    slots: list[tuple[str, str, int]] = []
    for subset in subsets:
        entry, pending = _pairs_scores(_require(d, subset, where), f"{where}.{subset}", ("nsamples",))
        for name, stat in pending:
            slots.append((subset, name, corr.add(stat, f"{where}.{subset}.{name}")))
        entries[subset] = {**entry, "senteval": _raw(d[subset])}
    all_d = _require(d, "all", where)
    for name in ("spearman", "pearson"):
        agg = _require(all_d, name, f"{where}.all")
        for how in ("mean", "wmean"):
            value = _number(_require(agg, how, f"{where}.all.{name}"), f"{where}.all.{name}.{how}")
            slots.append(("all", f"{name}_{how}", corr.add(value, f"{where}.all.{name}.{how}")))
    converted, unit = corr.finish()
    for subset, name, i in slots:
        entries.setdefault(subset, {})[f"cosine_{name}"] = converted[i]
    total = sum(entries[s]["num_pairs"] for s in subsets)
    entries["all"].update(
        cosine_spearman=entries["all"]["cosine_spearman_wmean"],
        cosine_pearson=entries["all"]["cosine_pearson_wmean"],
        num_pairs=total,
        num_subsets=len(subsets),
        aggregation="wmean",
        senteval=_raw(all_d),
    )
    for e in entries.values():
        e["senteval_correlation_unit"] = unit
    return entries


def _check_all(entries: Mapping[str, Mapping[str, Any]], subsets: Sequence[str], where: str) -> list[str]:
    """SentEval's ``all`` recomputed from its per-subset values (a warning if they disagree)."""
    from mteb_evalrank.metrics.similarity import aggregate_all

    problems = []
    sizes = [entries[s]["num_pairs"] for s in subsets]
    for metric in ("cosine_spearman", "cosine_pearson"):
        agg = aggregate_all([entries[s][metric] for s in subsets], sizes)
        for how in ("mean", "wmean"):
            stored = entries["all"][f"{metric}_{how}"]
            if abs(stored - agg[how]) > 1e-6:
                problems.append(
                    f"{where}.all: {metric.removeprefix('cosine_')} {how} is {stored:.6f}, but the per-subset "
                    f"values give {agg[how]:.6f}"
                )
    return problems


def _single(spec: SentEvalTask, d: Any, where: str) -> dict[str, dict[str, Any]]:
    count_keys = ("nsamples", "ntest") if spec.kind == "str" else ("ntest", "nsamples")
    entry, pending = _pairs_scores(d, where, count_keys)
    corr = _Correlations(where)
    idx = [(name, corr.add(stat, f"{where}.{name}")) for name, stat in pending]
    converted, unit = corr.finish()
    for name, i in idx:
        entry[f"cosine_{name}"] = converted[i]
    entry.update(senteval=_raw(d), senteval_correlation_unit=unit)
    return {"default": entry}


# --- the import -----------------------------------------------------------------------------------
#: Largest SentEval results file read (with per-pair predictions, a few MB): 512 MiB.
_MAX_SENTEVAL_BYTES = 512 * 2**20


def _check_name(option: str, value: str) -> None:
    """No whitespace or control character in a name that becomes a folder (``--model``, ``--revision``)."""
    bad = next((c for c in value if c.isspace() or not c.isprintable()), None)
    if bad is not None:
        raise InputError(
            f"{option} {value!r} holds {bad!r} (whitespace or a control character); a folder name of "
            "results/<org>__<name>/<revision>/ cannot: give the exact name."
        )


def read_senteval_json(path: Path) -> dict[str, Any]:
    """The JSON file of a SentEval run: an object with one entry per task name."""
    from mteb_evalrank.data.files import read_text

    # utf-8-sig: a byte-order mark (Windows editors write one) is dropped, not a JSON error
    text = read_text(Path(path), what="SentEval results file", encoding="utf-8-sig", limit=_MAX_SENTEVAL_BYTES)

    from mteb_evalrank.json_input import DuplicateKeyError, no_duplicate_keys

    try:
        data = json.loads(text, object_pairs_hook=no_duplicate_keys)
    except DuplicateKeyError as exc:  # json.loads would keep the last silently
        raise InputError(f"{path}: {exc}; keep one.") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply; SentEval's results are a few levels deep.") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object keyed by SentEval task name, got a {type(data).__name__}.")
    if not data:
        raise InputError(f"{path}: the file holds no SentEval task.")
    return data


def model_meta_for(model: str, revision: str):
    """The ``ModelMeta`` under which imported results are filed: MTEB's own for a registry model (with
    the given revision), otherwise an empty one with the name and revision."""
    import mteb
    from mteb.models import ModelMeta

    _check_name("--model", model or "")
    _check_name("--revision", revision or "")
    name = (model or "").strip()
    if name.count("/") != 1 or not all(name.split("/")) or any(part in (".", "..") for part in name.split("/")):
        raise InputError(f"--model must be ORG/NAME (as on the Hugging Face Hub; no '.' or '..' parts), got {model!r}.")
    if any(c in name for c in '\\<>:"|?*\0'):
        raise InputError(f"--model {model!r} has a character a folder name cannot hold; give ORG/NAME.")
    import unicodedata

    composed = unicodedata.normalize("NFC", name)
    if unicodedata.normalize("NFKC", composed) != composed:  # fullwidth 'ｍodel': a name that reads as another
        raise InputError(
            f"--model {model!r} holds compatibility letters (fullwidth or similar) that read as "
            f"{unicodedata.normalize('NFKC', composed)!r}; type the name in plain letters."
        )
    rev = (revision or "").strip()
    if not rev or rev in (".", "..") or any(c in rev for c in '/\\<>:"|?*\0'):
        raise InputError(
            f"--revision must be a non-empty name without path characters (not '.' or '..'), got {revision!r}."
        )
    from mteb_evalrank.results.folders import model_folder_name

    for option, folder in (("--model", model_folder_name(name)), ("--revision", rev)):
        if len(folder.encode("utf-8")) > 255:  # one folder of results/<org>__<name>/<revision>/
            raise InputError(
                f"{option} is too long for a folder name ({len(folder.encode('utf-8'))} bytes as "
                f"{'ORG__NAME' if option == '--model' else 'a folder'}; file systems allow 255); give a shorter one."
            )
    try:
        meta = mteb.get_model_meta(name)
    except (ValueError, KeyError):
        return ModelMeta.create_empty({"name": name, "revision": rev})
    return meta.model_copy(update={"revision": rev})


def _scores_for(
    spec: SentEvalTask, d: Any, task, report: ImportReport, *, toolkit_str: bool
) -> dict[str, dict[str, Any]] | None:
    where = spec.senteval_name
    if spec.kind == "classification":
        entries = _classification(spec, d, where)
    elif spec.kind == "sts-year":
        from mteb_evalrank.hub_datasets.sts_senteval.build import STS_SUBSETS

        subsets = list(STS_SUBSETS[task.config])
        entries = _sts_year(spec, d, where, subsets)
        report.warnings += _check_all(entries, subsets, where)
    elif spec.kind == "relatedness":
        if isinstance(d, Mapping) and "devpearson" in d:
            report.skipped[where] = _SUPERVISED.format(task=spec.task_name) + " (it has 'devpearson')"
            return None
        entries = _single(spec, d, where)
        for e in entries.values():
            e["senteval_evaluation"] = "cosine similarity on the test split (EvalRank toolkit)"
    else:  # str
        entries = _single(spec, d, where)
        if toolkit_str:
            for e in entries.values():
                e["senteval_note"] = STR_TOOLKIT_NOTE
            report.warnings.append(f"{where}: {STR_TOOLKIT_NOTE}")
    task_subsets = list(task.metadata.hf_subsets)
    if spec.kind != "sts-year":
        if len(task_subsets) != 1:
            raise InputError(f"{where}: plugin task {spec.task_name} has subsets {task_subsets}; expected one.")
        entries = {task_subsets[0]: entries["default"]}
    main = task.metadata.main_score
    for e in entries.values():
        if main not in e:
            if spec.kind != "classification":
                raise InputError(f"{where}: plugin task {spec.task_name} has main score {main!r}, not in the import.")
            e[main] = e["acc"]  # the downstream tasks' main score is the test accuracy, whatever its name
        e["main_score"] = e[main]
    if spec.kind == "sts-year":  # one headline (SentEval's 'all'), the sub-datasets inside it
        from mteb_evalrank.data.result_layout import HEADLINE_SUBSET, part_scores

        whole = entries.pop("all")
        whole[task.breakdown_key] = {s: part_scores(e) for s, e in entries.items()}
        entries = {HEADLINE_SUBSET: whole}
    return entries


def import_senteval_results(
    results: Mapping[str, Any],
    *,
    model_meta: Any,
    output_folder: Path | str,
    source: str,
    source_sha256: str | None = None,
    toolkit_str: bool = True,
) -> ImportReport:
    """Write one MTEB ``TaskResult`` per SentEval task in ``results`` (see the module docstring).

    Everything is checked before anything is written: a bad entry leaves the results folder unchanged.
    ``model_meta`` decides the folder (``ModelMeta``: name, revision and experiment); ``source`` (and
    ``source_sha256``) are recorded in every score dict.  ``toolkit_str``: an ``STR`` entry comes from
    the EvalRank toolkit's own batcher (character-spaced text; noted in the scores and warned about).
    """
    from mteb.results import TaskResult

    from mteb_evalrank.integration.result_cache import open_result_cache

    report = ImportReport()
    unknown = [k for k in results if k not in SENTEVAL_TASKS and k not in NOT_IMPORTED]
    if unknown:
        raise InputError(
            f"unknown SentEval task name(s) {unknown}; known: {', '.join(SENTEVAL_TASKS)} "
            f"(and, not imported: {', '.join(NOT_IMPORTED)})."
        )
    pending = []
    for name, d in results.items():
        if name in NOT_IMPORTED:
            report.skipped[name] = NOT_IMPORTED[name]
            continue
        spec = SENTEVAL_TASKS[name]
        task = plugin_task(spec)
        entries = _scores_for(spec, d, task, report, toolkit_str=toolkit_str)
        if entries is None:
            continue
        provenance = {"imported_from": IMPORTED_FROM, "senteval_task": name, "senteval_source": source}
        if source_sha256:
            provenance["senteval_source_sha256"] = source_sha256
        scores = {
            SPLIT if SPLIT in task.metadata.eval_splits else task.metadata.eval_splits[0]: {
                subset: {**e, **provenance} for subset, e in entries.items()
            }
        }
        # SentEval's run time is not known: MTEB files None
        result = TaskResult.from_task_results(task, scores, evaluation_time=None)  # type: ignore[arg-type]
        pending.append((name, task, result))
    if not pending and not report.skipped:
        raise InputError(f"{source}: nothing to import.")

    from mteb_evalrank.integration.result_cache import check_model_meta

    cache = open_result_cache(output_folder, keep_unsaved=True)
    for _, task, _ in pending:
        path = cache.get_task_result_path(task.metadata.name, model_meta)
        if path.is_file() and not _is_imported(path):
            raise InputError(
                f"{path} holds results the plugin computed itself; an import does not overwrite them "
                "(use another --output-folder, or another --revision)."
            )
    if pending:  # the model folder's metadata is merged, never wiped; another model there is refused now
        check_model_meta(cache.get_task_result_path(pending[0][1].metadata.name, model_meta).parent, model_meta)
    for name, task, result in pending:
        cache.save_to_cache(result, model_meta)
        path = cache.get_task_result_path(task.metadata.name, model_meta)
        rows = next(iter(result.scores.values()))
        headline = next((e for e in rows if e["hf_subset"] == "all"), rows[0])  # STS12-16: the paper's figure
        report.imported.append(ImportedTask(name, task.metadata.name, path, float(headline["main_score"])))
    if cache.unsaved:  # the folder was writable when opened; say what is lost, with the scores
        from mteb_evalrank.errors import ResultsNotSavedError

        shown = ", ".join(f"{item.task_name} {item.main_score:.4f}" for item in report.imported)
        raise ResultsNotSavedError(
            f"{cache.unsaved_message('these SentEval scores are NOT saved')} Scores: {shown}.",
            unsaved=cache.unsaved,
            result=report,
        )
    return report


def _is_imported(path: Path) -> bool:
    """Whether every entry of the result file ``path`` (read by the one reader) was imported from SentEval."""
    import warnings

    from mteb_evalrank.results.record import read_records

    try:
        with warnings.catch_warnings():  # unreadable or not a result file: not an import, so never overwritten
            warnings.simplefilter("ignore")
            records = read_records(path, mteb_check=False).records
    except InputError:
        return False
    return bool(records) and all(r.scores.get("imported_from") == IMPORTED_FROM for r in records)


def import_senteval_file(path: Path | str, *, model: str, revision: str, output_folder: Path | str) -> ImportReport:
    """``mteb-evalrank import-senteval``: read ``path`` and import it for ``model`` at ``revision``."""
    path = Path(path)
    meta = model_meta_for(model, revision)  # bad names fail before the file is read
    results = read_senteval_json(path)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    return import_senteval_results(
        results, model_meta=meta, output_folder=output_folder, source=path.name, source_sha256=sha
    )
