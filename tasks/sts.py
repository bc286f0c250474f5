"""The similarity baselines of EvalRank (§5.1, §6.1, Table 6) as MTEB STS tasks, scored as SentEval scores them.

Eight tasks on the dataset ``sts-senteval`` (SentEval's preprocessed STS12-16, STS-B and SICK files; STR
as the EvalRank toolkit reads it):

===================  ========================================  ==============================================
task                 data (config of ``sts-senteval``)          subsets (``hf_subset``) and main score
===================  ========================================  ==============================================
``SentEvalSTS12``    STS12, 5 sub-datasets                     ``default``: SentEval's ``all`` (the size-weighted
``SentEvalSTS13``    STS13 without SMT, 3 sub-datasets         mean of the per-sub-dataset Spearman correlations,
``SentEvalSTS14``    STS14, 6 sub-datasets                     ``wmean``: the EvalRank paper's figure; the plain
``SentEvalSTS15``    STS15, 5 sub-datasets                     mean is stored too); each sub-dataset's cosine
``SentEvalSTS16``    STS16, 5 sub-datasets                     Spearman in ``scores_per_source``
``SentEvalSTSB``     STS Benchmark, ``test`` split             ``default``: cosine Spearman
``SentEvalSICKR``    SICK relatedness, ``test`` split          ``default``: cosine Spearman
``STR``              STR-2022, all 5,500 pairs                 ``default``: cosine Spearman
===================  ========================================  ==============================================

The metric is :mod:`mteb_evalrank.metrics.similarity`: cosine of the two embeddings of each pair,
Spearman's and Pearson's correlation with the gold scores per sub-dataset, fractions in [-1, 1] (MTEB's
convention; ``main_score`` = ``cosine_spearman`` as in MTEB's own STS tasks).  Every unique sentence
of the task is encoded once (one ``model.encode`` call, no prompt type: the task is symmetric).

STS-B and SICK-R: SentEval trains a regressor on their train split; the EvalRank paper (and its
toolkit's ``STSBenchmark`` / ``SICKRelatedness``) scores them like the other similarity sets, by cosine
Spearman on the ``test`` split without training, and so do these tasks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mteb_evalrank.data.resolution import HUB_DATASETS
from mteb_evalrank.data.result_layout import HEADLINE_SUBSET, SOURCE_BREAKDOWN
from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
from mteb_evalrank.hub_datasets.senteval_downstream.build import SENTEVAL_CITATION
from mteb_evalrank.hub_datasets.sts_senteval.build import STS_SUBSETS
from mteb_evalrank.hub_datasets.stsb_source import STSB_CITATION
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

DATASET_NAME = "sts-senteval"
EVAL_SPLIT = "test"
ALL_SUBSET = "all"
#: SentEval's ``all`` figure that is the main score of ``all`` (see :mod:`mteb_evalrank.metrics.similarity`).
MAIN_AGGREGATION = "wmean"
STR_LICENSE_URL = (
    "https://github.com/Priya22/semantic-textual-relatedness/blob/961f9a9be535f3299e4c0a7b0f656d583ba911ff/License.md"
)

_CITATIONS = {
    "STS12": r"""@inproceedings{agirre-etal-2012-semeval,
  author = {Agirre, Eneko and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor},
  booktitle = {*{SEM} 2012: The First Joint Conference on Lexical and Computational Semantics -- Volume 1: Proceedings of the main conference and the shared task, and Volume 2: Proceedings of the Sixth International Workshop on Semantic Evaluation ({S}em{E}val 2012)},
  pages = {385--393},
  title = {{S}em{E}val-2012 Task 6: A Pilot on Semantic Textual Similarity},
  url = {https://aclanthology.org/S12-1051},
  year = {2012},
}""",
    "STS13": r"""@inproceedings{agirre-etal-2013-sem,
  author = {Agirre, Eneko and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei},
  booktitle = {Second Joint Conference on Lexical and Computational Semantics (*{SEM}), Volume 1: Proceedings of the Main Conference and the Shared Task: Semantic Textual Similarity},
  pages = {32--43},
  title = {*{SEM} 2013 shared task: Semantic Textual Similarity},
  url = {https://aclanthology.org/S13-1004},
  year = {2013},
}""",
    "STS14": r"""@inproceedings{agirre-etal-2014-semeval,
  author = {Agirre, Eneko and Banea, Carmen and Cardie, Claire and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei and Mihalcea, Rada and Rigau, German and Wiebe, Janyce},
  booktitle = {Proceedings of the 8th International Workshop on Semantic Evaluation ({S}em{E}val 2014)},
  doi = {10.3115/v1/S14-2010},
  pages = {81--91},
  title = {{S}em{E}val-2014 Task 10: Multilingual Semantic Textual Similarity},
  url = {https://aclanthology.org/S14-2010},
  year = {2014},
}""",
    "STS15": r"""@inproceedings{agirre-etal-2015-semeval,
  author = {Agirre, Eneko and Banea, Carmen and Cardie, Claire and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei and Lopez-Gazpio, I{\~n}igo and Maritxalar, Montse and Mihalcea, Rada and Rigau, German and Uria, Larraitz and Wiebe, Janyce},
  booktitle = {Proceedings of the 9th International Workshop on Semantic Evaluation ({S}em{E}val 2015)},
  doi = {10.18653/v1/S15-2045},
  pages = {252--263},
  title = {{S}em{E}val-2015 Task 2: Semantic Textual Similarity, {E}nglish, {S}panish and Pilot on Interpretability},
  url = {https://aclanthology.org/S15-2045},
  year = {2015},
}""",
    "STS16": r"""@inproceedings{agirre-etal-2016-semeval,
  author = {Agirre, Eneko and Banea, Carmen and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Mihalcea, Rada and Rigau, German and Wiebe, Janyce},
  booktitle = {Proceedings of the 10th International Workshop on Semantic Evaluation ({S}em{E}val-2016)},
  doi = {10.18653/v1/S16-1081},
  pages = {497--511},
  title = {{S}em{E}val-2016 Task 1: Semantic Textual Similarity, Monolingual and Cross-Lingual Evaluation},
  url = {https://aclanthology.org/S16-1081},
  year = {2016},
}""",
    "STSB": STSB_CITATION,
    "SICKR": r"""@inproceedings{marelli-etal-2014-sick,
  author = {Marelli, Marco and Menini, Stefano and Baroni, Marco and Bentivogli, Luisa and Bernardi, Raffaella and Zamparelli, Roberto},
  booktitle = {Proceedings of the Ninth International Conference on Language Resources and Evaluation ({LREC}'14)},
  pages = {216--223},
  title = {A {SICK} cure for the evaluation of compositional distributional semantic models},
  url = {http://www.lrec-conf.org/proceedings/lrec2014/pdf/363_Paper.pdf},
  year = {2014},
}""",
    "STR": r"""@inproceedings{abdalla-etal-2023-makes,
  author = {Abdalla, Mohamed and Vishnubhotla, Krishnapriya and Mohammad, Saif},
  booktitle = {Proceedings of the 17th Conference of the European Chapter of the Association for Computational Linguistics},
  doi = {10.18653/v1/2023.eacl-main.55},
  pages = {782--796},
  title = {What Makes Sentences Semantically Related? A Textual Relatedness Dataset and Empirical Study},
  url = {https://aclanthology.org/2023.eacl-main.55},
  year = {2023},
}""",
}


def _cite(*entries: str) -> str:
    """Several BibTeX entries as bibtexparser writes them: sorted by key, one blank line apart."""
    return "\n\n".join(sorted(entries, key=lambda e: e.split("{", 1)[1].split(",", 1)[0]))


_SENTEVAL_TEXT = (
    "Text as SentEval gives it to a model: its preprocessed files, Moses-tokenised{lower}, tokens joined "
    "by single spaces."
)


def _metadata(
    name: str,
    config: str,
    description: str,
    *,
    subsets: tuple[str, ...] = (),
    cited_with: str = SENTEVAL_CITATION,
    **fields: Any,
):
    """The metadata every similarity task shares (STS type, cosine Spearman, human-annotated, created
    pairs, English; cited as its dataset's paper and ``cited_with``, SentEval's by default); ``fields``
    adds what is the task's own (reference, dates, domains, licence, ...)."""
    hub = HUB_DATASETS[DATASET_NAME]
    fields.setdefault("bibtex_citation", _cite(_CITATIONS[config], cited_with))
    fields.setdefault("annotations_creators", "human-annotated")
    fields.setdefault("sample_creation", "created")
    return PluginTaskMetadata(
        name=name,
        description=description,
        dataset={"path": hub.repo_id, "revision": hub.revision, "name": config},
        type="STS",
        category="t2t",
        modalities=["text"],
        eval_splits=[EVAL_SPLIT],
        eval_langs=["eng-Latn"],
        main_score="cosine_spearman",
        task_subtypes=[],
        dialect=[],
        **fields,
    )


def _sts_year(year: str, date: tuple[str, str], domains: list[str], reference: str):
    subsets = STS_SUBSETS[year]
    description = (
        f"{year} (SemEval STS, English test sets) as SentEval evaluates it: cosine similarity of the two "
        f"sentence embeddings, Spearman correlation with the gold scores for each of its {len(subsets)} "
        "sub-datasets (only the pairs with a gold score, in 'scores_per_source'); the main score is SentEval's "
        "'all' figure, the size-weighted mean of the per-sub-dataset correlations ('wmean', the figure the EvalRank "
        "paper reports; the plain mean is stored too), not a correlation over the pooled pairs. "
        + _SENTEVAL_TEXT.format(lower=" and lowercased")
        + f" MTEB's {year} scores the same pairs on the original cased text, with one correlation over the "
        "pooled pairs."
    )
    return _metadata(
        f"SentEval{year}",
        year,
        description,
        subsets=subsets,
        reference=reference,
        date=date,
        domains=domains,
        license="not specified",
        adapted_from=[year],
    )


def pair_descriptive_statistics(text1: list[str], text2: list[str], scores, *, num_proc=None) -> dict[str, Any]:
    """MTEB's descriptive statistics of a scored pair set (text lengths, unique pairs, score range), as its
    own STS tasks report them."""
    from mteb.abstasks._statistics_calculation import calculate_pair_modality_statistics, calculate_score_statistics

    columns = {"text1": text1, "text2": text2}
    pair_stats = calculate_pair_modality_statistics(
        {"text1": "text"}, {"text2": "text"}, columns.__getitem__, len(text1), max_workers=num_proc, symmetric=True
    )
    return {
        "num_samples": int(len(text1)),
        "number_of_characters": int(
            pair_stats["text1_statistics"]["total_text_length"]  # type: ignore[index]  # text pairs: never None
            + pair_stats["text2_statistics"]["total_text_length"]  # type: ignore[index]
        ),
        "unique_pairs": pair_stats["unique_pairs"],
        "text1_statistics": pair_stats["text1_statistics"],
        "text2_statistics": pair_stats["text2_statistics"],
        "label_statistics": calculate_score_statistics([float(v) for v in scores]),
    }


class _SentEvalSimilarityTask(EncodeOnceTask):
    """Shared adapter: one config of ``sts-senteval``, encode once, score per sub-dataset.

    Subclasses set ``metadata`` and ``config``.  Every task has the single subset ``default``; for STS12-16
    (``aggregate = True``) it holds SentEval's ``all`` figure and, in ``scores_per_source``, the score of each
    sub-dataset (:attr:`parts`).
    """

    role = "baseline"

    config: str
    aggregate: bool = False
    records_batch_size = False  # scores as before, plus the *_se/_ci_* keys

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pairs: Any = None  # pandas DataFrame of the test pairs
        self.data_origin: str | None = None
        self.data_fingerprint: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.data.resolution import resolve_dataset
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.hub_datasets.layout import read_config

        resolved = resolve_dataset(DATASET_NAME)
        table = read_config(resolved.folder, self.config)
        df = table.to_pandas() if hasattr(table, "to_pandas") else table
        missing = [c for c in ("id", "subset", "split", "text1", "text2", "score") if c not in df.columns]
        if missing:
            raise InputError(f"{resolved.folder}: config {self.config!r} has no column(s) {missing}.")
        df = self._restore_redacted(df)
        df = df[df["split"] == EVAL_SPLIT].reset_index(drop=True)
        if df.empty:
            raise InputError(f"{resolved.folder}: config {self.config!r} has no {EVAL_SPLIT!r} pairs.")
        self.pairs, self.data_origin, self.data_fingerprint = df, resolved.origin, resolved.fingerprint
        subset_of = df["subset"].to_numpy()
        whole = {HEADLINE_SUBSET: {EVAL_SPLIT: np.arange(len(df))}}
        if not self.aggregate:
            return whole
        unknown = sorted(set(subset_of) - set(STS_SUBSETS[self.config]))
        if unknown:
            raise InputError(f"{resolved.folder}: {self.config} has pairs of unknown sub-datasets {unknown}.")
        data = {s: {EVAL_SPLIT: np.flatnonzero(subset_of == s)} for s in STS_SUBSETS[self.config]}
        empty = [s for s, d in data.items() if len(d[EVAL_SPLIT]) == 0]
        if empty:
            raise InputError(f"{resolved.folder}: {self.config} has no pairs for sub-dataset(s) {empty}.")
        self.parts = data
        return whole

    def _restore_redacted(self, df):
        return df

    def unload_data(self) -> None:
        self.pairs = None
        super().unload_data()

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.integration.encoding import encode_texts, model_label
        from mteb_evalrank.metrics.similarity import paired_cosine, sts_scores

        text1, text2 = self.pairs["text1"].tolist(), self.pairs["text2"].tolist()
        texts = list(dict.fromkeys(text1 + text2))
        index = {t: i for i, t in enumerate(texts)}
        with timer("Encoding", split=hf_split, subset=ALL_SUBSET):
            emb = encode_texts(
                model,
                texts,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset=ALL_SUBSET if self.aggregate else "default",
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
            )
        rows1 = np.fromiter((index[t] for t in text1), dtype=np.int64, count=len(text1))
        rows2 = np.fromiter((index[t] for t in text2), dtype=np.int64, count=len(text2))
        a, b = emb[rows1], emb[rows2]
        cos, _ = paired_cosine(a, b)
        zero = ~(a.any(axis=1) & b.any(axis=1))
        labels = self.pairs["subset"].tolist() if self.aggregate else ["default"] * len(cos)
        try:
            scores = sts_scores(
                cos,
                self.pairs["score"].to_numpy(dtype=np.float64),
                labels,
                aggregate=self.aggregate,
                main=MAIN_AGGREGATION,
            )
        except InputError as exc:
            raise InputError(f"{self.metadata.name} ({model_label(model)}): {exc}") from None
        state = {"scores": scores, "cos": cos, "zero": zero, "num_unique_texts": len(texts)}
        return {**state, **_spearman_uncertainty(cos, self.pairs, labels if self.aggregate else None)}

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        rows = np.asarray(data_split)
        key = ALL_SUBSET if self.aggregate and hf_subset == HEADLINE_SUBSET else hf_subset  # SentEval's name
        headline = hf_subset == HEADLINE_SUBSET  # the parts (sub-datasets) carry no interval
        return {
            **state["scores"][key],
            **(state["uncertainty"] if headline else {}),
            "zero_vector_pairs": int(state["zero"][rows].sum()),
            "num_unique_texts": state["num_unique_texts"],
            "dataset_fingerprint": self.data_fingerprint,
        }

    def _item_values(self, state, data_split, hf_subset: str):
        return state["items"] if hf_subset == HEADLINE_SUBSET else None

    def _predictions(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        rows = np.asarray(data_split)
        return {
            "id": self.pairs["id"].iloc[rows].tolist(),
            "gold": self.pairs["score"].iloc[rows].tolist(),
            "cosine": state["cos"][rows].tolist(),
        }

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        """MTEB's STS statistics (text lengths, unique pairs, score range); ``default`` and the overall
        entry both cover every pair once."""
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        if hf_subset in (None, ALL_SUBSET, "default"):
            df = self.pairs
        else:
            df = self.pairs[self.pairs["subset"] == hf_subset]
        return pair_descriptive_statistics(df["text1"].tolist(), df["text2"].tolist(), df["score"], num_proc=num_proc)


#: STS12-16: each year's date range, domains and paper; :func:`_sts_year_task` makes one task class of each.
_STS_YEARS: dict[str, tuple[tuple[str, str], list[str], str]] = {
    "STS12": (("2005-01-01", "2012-12-31"), ["Encyclopaedic", "News", "Written"], "https://aclanthology.org/S12-1051"),
    "STS13": (("2004-01-01", "2013-12-31"), ["Encyclopaedic", "News", "Written"], "https://aclanthology.org/S13-1004"),
    "STS14": (
        ("2004-01-01", "2014-12-31"),
        ["Encyclopaedic", "News", "Social", "Web", "Written"],
        "https://aclanthology.org/S14-2010",
    ),
    "STS15": (
        ("2004-01-01", "2015-12-31"),
        ["Academic", "News", "Web", "Written"],
        "https://aclanthology.org/S15-2045",
    ),
    "STS16": (("2004-01-01", "2016-12-31"), ["News", "Web", "Written"], "https://aclanthology.org/S16-1081"),
}


def _spearman_uncertainty(cos: np.ndarray, pairs: Any, labels: list[str] | None) -> dict[str, Any]:
    """The headline's ``cosine_spearman_se/_ci_low/_ci_high`` (a bootstrap over pairs, within the sub-datasets of
    STS12-16) and its per-pair values for ``compare`` and ``ranks``
    (:mod:`mteb_evalrank.metrics.correlation_uncertainty`)."""
    from mteb_evalrank.integration.item_values import SubsetItems, items_digest
    from mteb_evalrank.metrics.correlation_uncertainty import spearman_bootstrap, spearman_item_values, uncertainty_keys

    gold = pairs["score"].to_numpy(dtype=np.float64)
    strata = None if labels is None else np.unique(np.asarray(labels, dtype=object), return_inverse=True)[1]
    summary = spearman_bootstrap(cos, gold, strata)
    items = SubsetItems(
        values={"cosine_spearman": spearman_item_values(cos, gold, strata)},
        digest=items_digest(pairs["id"].tolist()),
        strata=strata,
        scores=dict.fromkeys(("cosine_spearman",)),
    )
    return {"uncertainty": uncertainty_keys("cosine_spearman", summary), "items": items}


def _sts_year_task(year: str) -> type[_SentEvalSimilarityTask]:
    """The task class ``SentEval<year>``: SentEval's ``all`` (its weighted mean), each sub-dataset in the breakdown.

    The five years differ only in their data and metadata, so their classes are made here from
    :data:`_STS_YEARS` rather than written out five times.
    """
    name = f"SentEval{year}"
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"{year} as SentEval evaluates it: per sub-dataset cosine Spearman and SentEval's 'all'.",
        "config": year,
        "aggregate": True,
        "breakdown_key": SOURCE_BREAKDOWN,
        "metadata": _sts_year(year, *_STS_YEARS[year]),
    }
    return type(name, (_SentEvalSimilarityTask,), namespace)


SentEvalSTS12, SentEvalSTS13, SentEvalSTS14, SentEvalSTS15, SentEvalSTS16 = (_sts_year_task(y) for y in _STS_YEARS)


class SentEvalSTSB(_SentEvalSimilarityTask):
    """STS Benchmark test pairs on SentEval's tokenised lowercased text: Spearman of the cosine with the gold scores."""

    config = "STSB"
    metadata = _metadata(
        "SentEvalSTSB",
        "STSB",
        "STS Benchmark as the EvalRank paper scores it: cosine similarity of the two sentence embeddings, "
        "Spearman correlation with the gold scores (0-5) on the 1,379 test pairs, no training (SentEval's own "
        "STSBenchmark trains a regressor on the train split instead). "
        + _SENTEVAL_TEXT.format(lower=" and lowercased")
        + " MTEB's STSBenchmark scores the same test pairs on the original cased, untokenised text "
        "(mteb/stsbenchmark-sts), so the two numbers differ.",
        reference="https://aclanthology.org/S17-2001",
        date=("2005-01-01", "2017-12-31"),
        domains=["News", "Web", "Written"],
        license="not specified",
        adapted_from=["STSBenchmark"],
    )


class SentEvalSICKR(_SentEvalSimilarityTask):
    """SICK relatedness test pairs on SentEval's text: Spearman of the cosine with the gold scores."""

    config = "SICKR"
    metadata = _metadata(
        "SentEvalSICKR",
        "SICKR",
        "SICK relatedness as the EvalRank paper scores it: cosine similarity of the two sentence embeddings, "
        "Spearman correlation with the relatedness scores (1-5) on the 4,927 test pairs, no training "
        "(SentEval's own SICKRelatedness trains a regressor on the train split instead). "
        + _SENTEVAL_TEXT.format(lower=" (not lowercased)")
        + " MTEB's SICK-R scores all 9,927 pairs of SICK on the original untokenised text.",
        reference="https://aclanthology.org/L14-1314",
        date=("2013-01-01", "2014-12-31"),
        domains=["Web", "Written"],
        license="cc-by-nc-sa-3.0",
        adapted_from=["SICK-R"],
    )


class STR(_SentEvalSimilarityTask):
    """STR-2022 relatedness, all 5,500 pairs: Spearman of the cosine with the gold scores (text read at load time)."""

    config = "STR"
    metadata = _metadata(
        "STR",
        "STR",
        "STR-2022 semantic textual relatedness (Abdalla et al., EACL 2023), the EvalRank paper's eighth similarity "
        "baseline: cosine similarity of the two sentence embeddings, Spearman correlation with the relatedness "
        "scores (0-1, comparative annotation) over all 5,500 pairs. Text exactly as released (not tokenised or "
        "lowercased). STR may not be redistributed: the published dataset holds ids and hashes, and the text is "
        "read from the authors' file at load time. The EvalRank toolkit passed each STR string to a batcher that "
        "expects token lists, which spaced out its characters; this task encodes the real sentences.",
        reference="https://aclanthology.org/2023.eacl-main.55",
        date=("2019-01-01", "2022-12-31"),
        domains=["News", "Social", "Web", "Written"],
        license=STR_LICENSE_URL,
        cited_with=EVALRANK_CITATION,
    )

    def _restore_redacted(self, df):
        """The published copy blanks STR text (no redistribution); refill it from the authors' csv."""
        from mteb_evalrank.hub_datasets.sts_senteval import SHA1_COLUMNS

        if not any(c in df.columns for c in SHA1_COLUMNS.values()):
            return df
        from mteb_evalrank.data.resolution import str_source_file
        from mteb_evalrank.hub_datasets.sts_senteval import restore_str_text

        return restore_str_text(df, str_source_file())


SIMILARITY_TASKS: list[type] = [
    SentEvalSTS12,
    SentEvalSTS13,
    SentEvalSTS14,
    SentEvalSTS15,
    SentEvalSTS16,
    SentEvalSTSB,
    SentEvalSICKR,
    STR,
]
