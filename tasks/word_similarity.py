"""The 13 word-similarity sets of the EvalRank toolkit as MTEB tasks, scored as the toolkit scores them.

One task per set (:data:`mteb_evalrank.hub_datasets.word_similarity.SETS`): WS-353-All, WS-353-Rel,
WS-353-Sim, RW-STANFORD, MEN-TR-3K, MTurk-287, MTurk-771, SimLex-999, SimVerb-3500 (the EvalRank
paper's nine baselines, Table 3), MC-30, RG-65, YP-130 and VERB-143.  Data: the dataset
``word-similarity`` (one config per set, words lowercased as the toolkit reads them).

Scoring (:mod:`mteb_evalrank.metrics.word_similarity`, the toolkit's ``src/w_model.py`` and
``src/w_evaluation.py`` with its defaults): each unique word is encoded once, the embeddings are
mean-centred, then

- ``cosine_*``: prediction = dot product of the unit centred vectors (the cosine); an out-of-vocabulary
  word gets the mean of the unit centred vocabulary vectors, as in the toolkit;
- ``l2_*``: prediction = ``1 / (1 + ‖a − b‖)`` of the centred vectors; an OOV word gets 0, the mean of
  the centred vocabulary vectors;
- Spearman (main score: ``cosine_spearman``), Pearson and Kendall's τ-b against the human scores.

**Who has a vocabulary.**  A word-vector model (:class:`~mteb_evalrank.models.StaticWordVectorEncoder`,
the zoo's static variants) has one: it is centred over its whole vocabulary (the toolkit's rule) and its
out-of-vocabulary words are counted and replaced as above.  Any other model (a transformer, an API)
embeds every string, so no word is OOV (``num_oov_pairs`` = 0, ``vocabulary_size`` = None); the toolkit
defines no centring for it, and the plugin centres over the 5,846 words of the 13 sets (config
``vocabulary``), the same set for every task (``centered_over`` says which); those words are encoded
once per model and run, whichever of the 13 tasks comes first.  ``center=False``
(``mteb-evalrank run --no-center``) switches centring off for both.

Stored per task (subset ``default``): the six correlations, ``num_pairs``, ``num_oov_pairs`` (pairs with
at least one OOV word: with many, the score says little), ``num_words``, ``num_oov_words``,
``vocabulary_size``, ``centered``, ``centered_over`` and ``dataset_fingerprint``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mteb_evalrank.data.resolution import HUB_DATASETS
from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
from mteb_evalrank.hub_datasets.word_similarity import NAME as DATASET_NAME
from mteb_evalrank.hub_datasets.word_similarity import VOCABULARY, WordSimilaritySet
from mteb_evalrank.hub_datasets.word_similarity.build import BY_TASK
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

EVAL_SPLIT = "test"
SUBSET = "default"
CENTERED_OVER_MODEL = "model vocabulary"
CENTERED_OVER_SETS = "word-similarity vocabulary"


def _cite(*entries: str) -> str:
    """BibTeX entries as bibtexparser writes them: each once, sorted by key, one blank line apart."""
    unique = dict.fromkeys(e.strip() for e in entries)
    return "\n\n".join(sorted(unique, key=lambda e: e.split("{", 1)[1].split(",", 1)[0]))


def _metadata(entry: WordSimilaritySet) -> PluginTaskMetadata:
    hub = HUB_DATASETS[DATASET_NAME]
    return PluginTaskMetadata(
        name=entry.task,
        description=(
            f"{entry.what}. Word similarity as the EvalRank toolkit scores it: Spearman correlation between "
            "the human scores and the cosine of the two word embeddings (main score), also Pearson and "
            "Kendall, and the same for 1 / (1 + l2 distance). Words lowercased; embeddings mean-centred (over a "
            "word-vector model's vocabulary, otherwise over the 5,846 words of the 13 word-similarity sets); an "
            "out-of-vocabulary word of a word-vector model gets the mean of the normalised vocabulary vectors, "
            "and the pairs with one are counted (num_oov_pairs)."
        ),
        reference=entry.reference,
        dataset={"path": hub.repo_id, "revision": hub.revision, "name": entry.task},
        type="STS",
        category="t2t",
        modalities=["text"],
        eval_splits=[EVAL_SPLIT],
        eval_langs=["eng-Latn"],
        main_score="cosine_spearman",
        date=entry.date,
        domains=["Constructed"],
        task_subtypes=[],
        license="not specified",
        annotations_creators="human-annotated",
        dialect=[],
        sample_creation="created",
        bibtex_citation=_cite(*entry.citations, EVALRANK_CITATION),
    )


#: The embeddings of the 13 sets' words for the last model without a vocabulary: ``(weakref to the model,
#: key, embeddings)``.  Every task centres such a model over the same words, so a run of all 13 tasks (the
#: ``WordSim`` benchmark) encodes them once instead of 13 times.  One entry (~9 MB at d = 384).
_LAST_SHARED: list[Any] = []


def _shared_embeddings(model: Any, key: Any, encode: Any) -> np.ndarray:
    """``encode()``, or its result for the same model object and key from the previous task.

    Not shared for a model that may prompt each task differently (a non-empty MTEB ``model_prompts`` entry
    for one of the 13 task names, or ``use_instructions``): its embeddings can depend on the task.
    """
    import weakref

    from mteb_evalrank.hub_datasets.word_similarity import TASK_NAMES

    meta = getattr(model, "mteb_model_meta", None)
    prompts = getattr(model, "model_prompts", None) or {}
    per_task = isinstance(prompts, dict) and any(prompts.get(name) for name in TASK_NAMES)
    if per_task or getattr(meta, "use_instructions", False):
        return encode()
    if _LAST_SHARED:
        ref, last_key, emb = _LAST_SHARED[0]
        if ref() is model and last_key == key:
            return emb
    emb = encode()
    _LAST_SHARED.clear()
    try:
        _LAST_SHARED.append((weakref.ref(model), key, emb))
    except TypeError:  # a model that cannot be weakly referenced is simply encoded again by the next task
        pass
    return emb


class _WordSimilarityTask(EncodeOnceTask):
    """Shared adapter; subclasses set ``metadata`` and ``entry``.

    Args:
        center: mean-centre the embeddings before scoring (the toolkit always does; default on).
            Recorded in the scores as ``centered``.
    """

    role = "baseline"  # the 9 sets of EvalRank Table 3; the 4 small sets the toolkit adds are "similarity"

    input_level = "word"
    score_option_attributes = {"centered": "center"}
    records_batch_size = False  # scores as before, plus the *_se/_ci_* keys
    entry: WordSimilaritySet

    def __init__(self, *, center: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.center = bool(center)
        self.pairs: Any = None  # pandas DataFrame: id, word1, word2, score
        self.vocabulary: list[str] | None = None  # the words of all 13 sets (centring set without a vocabulary)
        self.data_fingerprint: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.data.resolution import resolve_dataset
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.hub_datasets.layout import read_config

        resolved = resolve_dataset(DATASET_NAME)
        table = read_config(resolved.folder, self.entry.task)
        df = table.to_pandas() if hasattr(table, "to_pandas") else table
        missing = [c for c in ("id", "word1", "word2", "score") if c not in df.columns]
        if missing:
            raise InputError(f"{resolved.folder}: config {self.entry.task!r} has no column(s) {missing}.")
        if len(df) < 2:
            raise InputError(f"{resolved.folder}: config {self.entry.task!r} has {len(df)} pairs; need at least 2.")
        vocabulary = read_config(resolved.folder, VOCABULARY).column("word").to_pylist()
        unknown = sorted(set(df["word1"]).union(df["word2"]) - set(vocabulary))
        if unknown:
            raise InputError(
                f"{resolved.folder}: config {VOCABULARY!r} lacks words of {self.entry.task}, e.g. {unknown[:3]}."
            )
        self.pairs, self.vocabulary, self.data_fingerprint = df, vocabulary, resolved.fingerprint
        return {SUBSET: {EVAL_SPLIT: np.arange(len(df))}}

    def unload_data(self) -> None:
        self.pairs, self.vocabulary = None, None
        super().unload_data()

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.integration.encoding import encode_texts, model_label
        from mteb_evalrank.metrics.word_similarity import prepare_word_vectors, word_similarity_scores
        from mteb_evalrank.models.static_vectors import word_vocabulary_of

        word1, word2 = self.pairs["word1"].tolist(), self.pairs["word2"].tolist()
        vocabulary = word_vocabulary_of(model)
        # a model with a vocabulary: the task's words, centred over that vocabulary (the toolkit);
        # without one: the words of all 13 sets, centred over themselves (the same centre for every task)
        words = (
            list(dict.fromkeys(word1 + word2)) if vocabulary is not None else list(self.vocabulary)  # type: ignore[arg-type]  # set by load_data, as self.pairs
        )

        def encode() -> np.ndarray:
            return encode_texts(
                model,
                words,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset=SUBSET,
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
            )

        try:
            with timer("Encoding", split=hf_split, subset=SUBSET):
                if vocabulary is not None:
                    emb = encode()
                else:  # the same 5,846 words for all 13 tasks: encoded once per model and run
                    emb = _shared_embeddings(
                        model, (self.data_fingerprint, repr(sorted(encode_kwargs.items()))), encode
                    )
            if vocabulary is not None:
                stats = vocabulary.similarity_statistics(center=self.center)
                oov = vocabulary.oov_mask(words)
                cos, l2 = prepare_word_vectors(
                    emb,
                    shift=stats.shift if self.center else None,
                    oov=oov,
                    oov_cosine=stats.oov_cosine,
                    oov_l2=stats.oov_l2,
                    words=words,
                )
            else:
                oov = np.zeros(len(words), dtype=bool)
                shift = np.asarray(emb, dtype=np.float64).mean(axis=0) if self.center else None
                cos, l2 = prepare_word_vectors(emb, shift=shift, words=words)
            index = {w: i for i, w in enumerate(words)}
            rows1 = np.fromiter((index[w] for w in word1), dtype=np.int64, count=len(word1))
            rows2 = np.fromiter((index[w] for w in word2), dtype=np.int64, count=len(word2))
            gold = self.pairs["score"].to_numpy(dtype=np.float64)
            scores = word_similarity_scores(cos[rows1], cos[rows2], l2[rows1], l2[rows2], gold)
        except InputError as exc:
            raise InputError(f"{self.metadata.name} ({model_label(model)}): {exc}") from None
        pair_oov = oov[rows1] | oov[rows2]
        task_words = np.unique(np.concatenate([rows1, rows2]))
        return {
            "scores": {
                **scores,
                "num_pairs": int(len(gold)),
                "num_oov_pairs": int(pair_oov.sum()),
                "num_words": int(len(task_words)),
                "num_oov_words": int(oov[task_words].sum()),
                "vocabulary_size": None if vocabulary is None else int(stats.size),
                "centered": self.center,
                "centered_over": (CENTERED_OVER_MODEL if vocabulary is not None else CENTERED_OVER_SETS)
                if self.center
                else None,
            },
            "vectors": (cos[rows1], cos[rows2], l2[rows1], l2[rows2]),
            "oov": pair_oov,
            **self._uncertainty(cos[rows1], cos[rows2], gold),
        }

    def _uncertainty(self, cos_a: np.ndarray, cos_b: np.ndarray, gold: np.ndarray) -> dict[str, Any]:
        """``cosine_spearman_se/_ci_low/_ci_high`` (a bootstrap over pairs) and the per-pair values for
        ``compare`` and ``ranks`` (:mod:`mteb_evalrank.metrics.correlation_uncertainty`)."""
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest
        from mteb_evalrank.metrics.correlation_uncertainty import (
            spearman_bootstrap,
            spearman_item_values,
            uncertainty_keys,
        )
        from mteb_evalrank.metrics.word_similarity import pair_predictions

        predicted = pair_predictions(cos_a, cos_b, "cos")
        items = SubsetItems(
            values={"cosine_spearman": spearman_item_values(predicted, gold)},
            digest=items_digest(self.pairs["id"].tolist()),
            scores=dict.fromkeys(("cosine_spearman",)),
        )
        return {"uncertainty": uncertainty_keys("cosine_spearman", spearman_bootstrap(predicted, gold)), "items": items}

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        return {**state["scores"], **state["uncertainty"], "dataset_fingerprint": self.data_fingerprint}

    def _item_values(self, state, data_split, hf_subset: str):
        return state["items"]

    def _predictions(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        from mteb_evalrank.metrics.word_similarity import pair_predictions

        cos_a, cos_b, l2_a, l2_b = state["vectors"]
        return {
            "id": self.pairs["id"].tolist(),
            "gold": self.pairs["score"].tolist(),
            "cosine": pair_predictions(cos_a, cos_b, "cos").tolist(),
            "l2": pair_predictions(l2_a, l2_b, "l2").tolist(),
            "oov": state["oov"].tolist(),
        }

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        """MTEB's STS statistics (word lengths, unique pairs, score range) plus the number of unique words."""
        from mteb_evalrank.tasks.sts import pair_descriptive_statistics

        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        df = self.pairs
        words1, words2 = df["word1"].tolist(), df["word2"].tolist()
        stats = pair_descriptive_statistics(words1, words2, df["score"], num_proc=num_proc)
        stats["unique_words"] = len(set(words1) | set(words2))
        return stats


class WS353All(_WordSimilarityTask):
    """WS-353-All: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["WS-353-All"]
    metadata = _metadata(entry)


class WS353Rel(_WordSimilarityTask):
    """WS-353-Rel: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["WS-353-Rel"]
    metadata = _metadata(entry)


class WS353Sim(_WordSimilarityTask):
    """WS-353-Sim: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["WS-353-Sim"]
    metadata = _metadata(entry)


class RWStanford(_WordSimilarityTask):
    """RW-STANFORD: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["RW-STANFORD"]
    metadata = _metadata(entry)


class MENTR3K(_WordSimilarityTask):
    """MEN-TR-3K: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["MEN-TR-3K"]
    metadata = _metadata(entry)


class MTurk287(_WordSimilarityTask):
    """MTurk-287: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["MTurk-287"]
    metadata = _metadata(entry)


class MTurk771(_WordSimilarityTask):
    """MTurk-771: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["MTurk-771"]
    metadata = _metadata(entry)


class SimLex999(_WordSimilarityTask):
    """SimLex-999: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["SimLex-999"]
    metadata = _metadata(entry)


class SimVerb3500(_WordSimilarityTask):
    """SimVerb-3500: Spearman of the cosine of centred word embeddings with the gold scores (EvalRank Table 3 baseline)."""

    entry = BY_TASK["SimVerb-3500"]
    metadata = _metadata(entry)


class MC30(_WordSimilarityTask):
    """MC-30: Spearman of the cosine of centred word embeddings with the gold scores (a set the toolkit adds)."""

    role = "similarity"
    entry = BY_TASK["MC-30"]
    metadata = _metadata(entry)


class RG65(_WordSimilarityTask):
    """RG-65: Spearman of the cosine of centred word embeddings with the gold scores (a set the toolkit adds)."""

    role = "similarity"
    entry = BY_TASK["RG-65"]
    metadata = _metadata(entry)


class YP130(_WordSimilarityTask):
    """YP-130: Spearman of the cosine of centred word embeddings with the gold scores (a set the toolkit adds)."""

    role = "similarity"
    entry = BY_TASK["YP-130"]
    metadata = _metadata(entry)


class VERB143(_WordSimilarityTask):
    """VERB-143: Spearman of the cosine of centred word embeddings with the gold scores (a set the toolkit adds)."""

    role = "similarity"
    entry = BY_TASK["VERB-143"]
    metadata = _metadata(entry)


#: One task per set, in the order of :data:`~mteb_evalrank.hub_datasets.word_similarity.SETS`.
WORD_SIMILARITY_TASKS: list[type] = [
    WS353All,
    WS353Rel,
    WS353Sim,
    RWStanford,
    MENTR3K,
    MTurk287,
    MTurk771,
    SimLex999,
    SimVerb3500,
    MC30,
    RG65,
    YP130,
    VERB143,
]
