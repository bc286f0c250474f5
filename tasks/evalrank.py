"""EvalRank as MTEB tasks: ``EvalRankWord`` and ``EvalRankSent`` (Wang et al., ACL 2022, §4).

Thin adapters: resolve the dataset (:mod:`mteb_evalrank.data.resolution`), encode every unique
background item once (:func:`mteb_evalrank.integration.encoding.encode_texts`), compute the exact ranks of all
positives once (:func:`mteb_evalrank.metrics.ranking.evalrank_ranks`), then summarise them: the single
subset ``default`` holds the paper's figures over all pairs (its ``main_score`` is the MRR that MTEB's tables
show), and its ``scores_per_source`` the same figures per source dataset, each ranked against the full
background (kept out of MTEB's mean over subsets: :mod:`mteb_evalrank.data.result_layout`).
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from mteb_evalrank.data.resolution import HUB_DATASETS
from mteb_evalrank.data.result_layout import HEADLINE_SUBSET, SOURCE_BREAKDOWN
from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
from mteb_evalrank.hub_datasets.evalrank_word.build import WORD_SIMILARITY_FILES
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

#: the 13 source sets of EvalRankWord (its parts), named as the dataset's ``source`` column names them: the
#: source file names without ``EN-`` and ``.txt``, in the build's order
WORD_SOURCES = tuple(f.removeprefix("EN-").removesuffix(".txt") for f in WORD_SIMILARITY_FILES)
SENT_SOURCES = ("stsb", "str")

_TIES = ("pessimistic", "optimistic")

logger = logging.getLogger(__name__)


def _metadata(name: str, dataset_name: str, description: str, **fields: Any):
    """TaskMetadata shared by both levels: Retrieval-type, one subset (``default``, all pairs); the sources
    are parts of it (``scores_per_source``), not subsets MTEB would average with the whole."""
    hub = HUB_DATASETS[dataset_name]
    return PluginTaskMetadata(
        name=name,
        description=description,
        reference="https://aclanthology.org/2022.acl-long.419",
        dataset={"path": hub.repo_id, "revision": hub.revision},
        type="Retrieval",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs=["eng-Latn"],
        main_score="mrr",
        task_subtypes=[],
        license="multiple",
        annotations_creators="human-annotated",
        dialect=[],
        sample_creation="found",
        bibtex_citation=EVALRANK_CITATION,
        **fields,
    )


class _EvalRankTask(EncodeOnceTask):
    """Shared EvalRank adapter; subclasses set ``metadata`` and ``dataset_name``.

    Args:
        center: subtract the background mean from every embedding before scoring (the reference
            toolkit does; default on). Recorded in the scores as ``centered``.
        ties: ``"pessimistic"`` (default; items scoring equal to the positive rank above it, so a
            constant model scores ~0) or ``"optimistic"`` (ties favour the positive, as the
            reference toolkit intends). Recorded in the scores as ``ties``.
        chunk_size: queries per score block (memory bound); ``None`` picks a default.
    """

    role = "intrinsic"
    breakdown_key = SOURCE_BREAKDOWN
    score_option_attributes = {"centered": "center", "ties": "ties"}

    dataset_name: str
    #: the source datasets of the pairs, in the order of the breakdown
    sources: tuple[str, ...] = ()

    def __init__(
        self, *, center: bool = True, ties: str = "pessimistic", chunk_size: int | None = None, **kwargs: Any
    ) -> None:
        from mteb_evalrank.errors import InputError

        if ties not in _TIES:
            raise InputError(f"ties must be one of {_TIES}, got {ties!r}.")
        super().__init__(**kwargs)
        self.center = bool(center)
        self.ties = ties
        self.chunk_size = chunk_size
        self.data: Any = None
        self.data_origin: str | None = None
        self.data_fingerprint: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.data.evalrank import EvalRankData
        from mteb_evalrank.data.resolution import resolve_dataset
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.hub_datasets.layout import read_config

        resolved = resolve_dataset(self.dataset_name)
        pairs = _as_pandas(read_config(resolved.folder, "pairs"))
        background = _as_pandas(read_config(resolved.folder, "background"))
        pairs, background = self._restore_redacted(pairs, background)
        for column, table, config in (
            ("query", pairs, "pairs"),
            ("positive", pairs, "pairs"),
            ("source", pairs, "pairs"),
            ("text", background, "background"),
        ):
            if column not in table.columns:
                raise InputError(f"{resolved.folder}: config {config!r} has no column {column!r}.")
        self.data = EvalRankData.from_texts(
            background["text"].tolist(),
            pairs["query"].tolist(),
            pairs["positive"].tolist(),
            pairs["source"].tolist(),
            name=f"{self.metadata.name} ({resolved.origin})",
        )
        unknown = sorted(set(self.data.sources) - set(self.sources))
        if unknown:
            raise InputError(f"{resolved.folder}: pairs with unknown sources {unknown}.")
        self.data_origin, self.data_fingerprint = resolved.origin, resolved.fingerprint
        empty = [s for s in self.sources if len(self.data.subset_rows(s)) == 0]
        if empty:  # e.g. a dataset built from a subset of the sources: no breakdown entry, and say so
            logger.warning(
                "%s: no pairs for sources %s in %s; they are not in the breakdown.",
                self.metadata.name,
                empty,
                resolved.origin,
            )
        splits = self.metadata.eval_splits
        self.parts = {s: dict.fromkeys(splits, self.data.subset_rows(s)) for s in self.sources if s not in empty}
        return {HEADLINE_SUBSET: dict.fromkeys(splits, self.data.subset_rows(None))}

    def _restore_redacted(self, pairs, background):
        return pairs, background

    def unload_data(self) -> None:
        self.data = None
        super().unload_data()

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.integration.encoding import encode_texts
        from mteb_evalrank.metrics.ranking import evalrank_ranks

        with timer("Encoding background", split=hf_split, subset="all"):
            embeddings = encode_texts(
                model,
                self.data.texts,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset="all",
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
                allow_zero_rows=False,
            )
        with timer("Ranking", split=hf_split, subset="all"):
            return evalrank_ranks(
                embeddings,
                self.data.query_idx,
                self.data.positive_idx,
                center=self.center,
                ties=self.ties,
                chunk_size=self.chunk_size,
            )

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        from mteb_evalrank.metrics.ranking import summarize_ranks
        from mteb_evalrank.metrics.score_uncertainty import rank_uncertainty

        rows = np.asarray(data_split)
        if len(rows) == 0:
            from mteb_evalrank.errors import InputError

            raise InputError(f"{self.metadata.name}: subset {hf_subset!r} has no pairs in this dataset.")
        groups = self._pair_groups(rows)
        return {
            **summarize_ranks(state.cos[rows]),
            **summarize_ranks(state.l2[rows], prefix="l2_"),
            **rank_uncertainty(state.cos[rows], groups),
            **rank_uncertainty(state.l2[rows], groups, prefix="l2_"),
            "num_pairs": int(len(rows)),
            "num_background": int(len(self.data.texts)),
            "centered": self.center,
            "ties": self.ties,
            "dataset_fingerprint": self.data_fingerprint,
        }

    def _pair_groups(self, rows: np.ndarray) -> np.ndarray:
        """Cluster of each directed pair: its unordered pair (both directions of a pair are one cluster)."""
        from mteb_evalrank.metrics.score_uncertainty import pair_groups

        return pair_groups(self.data.query_idx[rows], self.data.positive_idx[rows])

    def _item_values(self, state, data_split, hf_subset: str):
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest

        rows = np.asarray(data_split)
        texts = self.data.texts
        pairs = ((texts[q], texts[p]) for q, p in zip(self.data.query_idx[rows], self.data.positive_idx[rows]))
        return SubsetItems(
            values={"cos_rank": state.cos[rows].astype(np.int64), "l2_rank": state.l2[rows].astype(np.int64)},
            digest=items_digest(pairs),
            groups=self._pair_groups(rows),
            scores=dict.fromkeys(("mrr", "l2_mrr", "hits_at_1", "hits_at_10", "l2_hits_at_1", "l2_hits_at_10")),
        )

    def _predictions(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        rows = np.asarray(data_split)
        texts = self.data.texts
        return {
            "query": [texts[i] for i in self.data.query_idx[rows]],
            "positive": [texts[i] for i in self.data.positive_idx[rows]],
            "cos_rank": state.cos[rows].tolist(),
            "l2_rank": state.l2[rows].tolist(),
        }

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        rows = self.data.subset_rows(None if hf_subset in (None, HEADLINE_SUBSET) else hf_subset)
        lengths = np.fromiter((len(t) for t in self.data.texts), dtype=np.int64)
        used = np.unique(np.concatenate([self.data.query_idx[rows], self.data.positive_idx[rows]]))
        return {
            "num_samples": int(len(rows)),
            "number_of_pairs": int(len(rows)),
            "number_of_background_items": int(len(self.data.texts)),
            "unique_pair_items": int(len(used)),
            "min_text_length": int(lengths.min()),
            "average_text_length": float(lengths.mean()),
            "max_text_length": int(lengths.max()),
        }


def _as_pandas(table: Any):
    return table.to_pandas() if hasattr(table, "to_pandas") else table


class EvalRankWord(_EvalRankTask):
    """EvalRank at word level: MRR = mean(1/rank) of each positive word among 22,207 background words."""

    input_level = "word"
    dataset_name = "evalrank-word"
    sources = WORD_SOURCES
    metadata = _metadata(
        "EvalRankWord",
        "evalrank-word",
        "EvalRank word level: for each of 5,514 directed near-synonym pairs (the top 25% of 13 "
        "word-similarity datasets), rank the positive among 22,207 background words by cosine and "
        "l2 similarity; MRR and Hits@k. Exact ranks, ties count against the positive. Main score: the MRR over "
        "all pairs; the figures of each source dataset are in 'scores_per_source'.",
        date=("1965-01-01", "2016-12-31"),
        domains=["Written"],
    )


class EvalRankSent(_EvalRankTask):
    """EvalRank at sentence level: MRR = mean(1/rank) of each positive sentence among 24,957 background sentences."""

    dataset_name = "evalrank-sent"
    sources = SENT_SOURCES
    metadata = _metadata(
        "EvalRankSent",
        "evalrank-sent",
        "EvalRank sentence level: for each of 6,989 directed near-paraphrase pairs (the top 25% of "
        "STS-Benchmark and STR-2022), rank the positive among 24,957 background sentences by cosine "
        "and l2 similarity; MRR and Hits@k. Exact ranks, ties count against the positive. Main score: the MRR "
        "over all pairs; the figures of each source dataset are in 'scores_per_source'.",
        date=("2012-01-01", "2022-12-31"),
        domains=["News", "Web", "Written"],
    )

    def _restore_redacted(self, pairs, background):
        """The published copy blanks STR text (no redistribution); refill it from the STR csv."""
        if not (background["text"] == "").any():
            return pairs, background
        from mteb_evalrank.data.resolution import str_source_file
        from mteb_evalrank.hub_datasets.evalrank_sent import restore_str_text

        return restore_str_text(pairs, background, str_source_file())
