"""HEROS as an MTEB task (Chiang et al., 2023): minimal-pair diagnostics of sentence encoders.

Edit types (each pairs the 1,000 original sentences with their edited versions): ``synonym``, ``antonym``,
``negation_main``, ``negation_antonym``, ``random_mlm``, ``typo``.  One subset, ``default``: its ``main_score``
is ``synonym_minus_negation`` (synonym − negation_main normalised cosine; higher: the model keeps a synonym swap
closer to the original than a negation; :data:`mteb_evalrank.metrics.heros.HEADLINE`), with the summary readings
``negation_minus_synonym``, ``antonym_minus_synonym``, ``typo_minus_synonym`` and the random-pair ``baseline``.
Each edit type's ``normalized_cosine`` (the paper's number), ``cosine`` and ``num_pairs`` are in
``scores_per_edit`` (:func:`mteb_evalrank.metrics.heros.heros_scores`): MTEB averages a task's subsets, and the
edit types must not be averaged (a good model is high on synonyms and low on negations).  HEROS is a diagnostic:
it is in no benchmark's mean.  ``mteb-evalrank heros-report`` turns result folders into the paper's table and
Figure-1-style chart.

Task type ``STS``: HEROS scores sentence pairs by the cosine similarity of their embeddings, the
same symmetric operation as STS (models that pick prompts by task type get their semantic-similarity
prompt, which is what the paper measures).  ``PairClassification`` would imply labels and a
threshold-based metric; HEROS has neither.  Unlike stock STS tasks there is no gold score and the
main score is not a correlation.

Data: ``heros.tsv`` of ``dcml0714/Heros`` (Apache-2.0) at a pinned commit, or local overrides
(``MTEB_EVALRANK_HEROS``, ``MTEB_EVALRANK_DATA/heros``, ``MTEB_EVALRANK_SOURCES``; see
:mod:`mteb_evalrank.hub_datasets.heros.load`).  The two ``Negation`` columns of the file are mapped by
position (first → Negation (Main), second → Negation (Antonym)); the reasoning is in
:mod:`mteb_evalrank.hub_datasets.heros.source`.

Every unique sentence is encoded once per model (one ``model.encode`` call over the deduplicated
texts of all columns; originals are shared by all subsets).  Bag-of-words models: the paper's GloVe
row (negation ≈ 0.99) matches a tokenizer that drops "not" as a stop word; the plugin's word-vector
encoder documents which tokenisation it uses.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mteb_evalrank.data.result_layout import EDIT_BREAKDOWN, HEADLINE_SUBSET
from mteb_evalrank.hub_datasets.heros.build import HEROS_CITATION, SOURCE_REPO, SOURCE_REVISION
from mteb_evalrank.metrics.heros import HEADLINE, headline_reading
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

HEROS_SUBSETS = ("synonym", "antonym", "negation_main", "negation_antonym", "random_mlm", "typo")


class HEROS(EncodeOnceTask):
    """HEROS minimal pairs: per edit type the normalised cosine (cos - cos_avg) / (1 - cos_avg); main score synonym minus negation."""

    role = "diagnostic"
    breakdown_key = EDIT_BREAKDOWN
    metadata = PluginTaskMetadata(
        name="HEROS",
        description=(
            "HEROS minimal-pair diagnostics: 1,000 GoEmotions sentences each paired with a synonym, antonym, "
            "random-MLM-word and typo substitution and two negations. Per edit type (scores_per_edit): mean cosine "
            "of the pairs normalised by a random-pair baseline, (cos - cos_avg) / (1 - cos_avg). Main score: "
            "synonym_minus_negation, the synonym minus the negation normalised cosine (higher: a negation moves a "
            "sentence further than a synonym swap; 0: negation-blind). A diagnostic without gold scores."
        ),
        reference="https://huggingface.co/datasets/dcml0714/Heros",
        dataset={"path": SOURCE_REPO, "revision": SOURCE_REVISION},
        type="STS",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs=["eng-Latn"],
        main_score=HEADLINE[0],
        date=("2005-01-01", "2023-06-08"),
        domains=["Social", "Written"],
        task_subtypes=[],
        license="apache-2.0",
        annotations_creators="expert-annotated",
        dialect=[],
        sample_creation="created",
        bibtex_citation=HEROS_CITATION,
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data: Any = None  # HerosTable
        self.data_origin: str | None = None
        self.data_fingerprint: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.hub_datasets.heros.load import load_heros

        self.data, self.data_origin = load_heros()
        self.data_fingerprint = self.data.fingerprint()
        self.parts = {s: dict.fromkeys(self.metadata.eval_splits, s) for s in HEROS_SUBSETS}
        return {HEADLINE_SUBSET: dict.fromkeys(self.metadata.eval_splits, HEADLINE_SUBSET)}

    def unload_data(self) -> None:
        self.data = None
        super().unload_data()

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.integration.encoding import encode_texts
        from mteb_evalrank.metrics.heros import heros_pairs, scores_from_pairs
        from mteb_evalrank.metrics.score_uncertainty import heros_bootstrap

        columns = self.data.columns
        texts = list(dict.fromkeys(t for c in ("original", *HEROS_SUBSETS) for t in columns[c]))
        index = {t: i for i, t in enumerate(texts)}
        with timer("Encoding", split=hf_split, subset="all"):
            emb = encode_texts(
                model,
                texts,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset="all",
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
                allow_zero_rows=False,
            )

        def rows(column: str) -> np.ndarray:
            return emb[np.fromiter((index[t] for t in columns[column]), dtype=np.int64, count=len(self.data))]

        originals = rows("original")
        edited = {s: rows(s) for s in HEROS_SUBSETS}
        baseline, per_pair = heros_pairs(originals, edited, original_labels=self.data.originals)
        scores = scores_from_pairs(baseline, per_pair)
        units = originals / np.linalg.norm(originals, axis=1, keepdims=True)  # non-zero: heros_pairs checked
        uncertainty = heros_bootstrap(units, {s: cos for s, (cos, _) in per_pair.items()}, contrasts=dict([HEADLINE]))
        return {"scores": scores, "per_pair": per_pair, "num_unique_texts": len(texts), "uncertainty": uncertainty}

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        if hf_subset == HEADLINE_SUBSET:
            return self._headline(state)
        u = state["uncertainty"][hf_subset]
        return {
            **state["scores"][hf_subset],
            "normalized_cosine_se": u["se"],
            "normalized_cosine_ci_low": u["ci_low"],
            "normalized_cosine_ci_high": u["ci_high"],
        }

    def _headline(self, state) -> dict[str, Any]:
        """``synonym_minus_negation`` (the main score) with its bootstrap se and interval, the summary readings,
        the baseline and the size of the data."""
        from mteb_evalrank.data.result_layout import RUN_KEYS

        name = HEADLINE[0]
        edits = state["scores"]
        first = edits[HEROS_SUBSETS[0]]
        value = headline_reading({s: e["normalized_cosine"] for s, e in edits.items()})
        u = state["uncertainty"][name]
        readings = {k: v for k, v in first.items() if k in RUN_KEYS and k != "main_score"}
        return {
            name: value,
            f"{name}_se": u["se"],
            f"{name}_ci_low": u["ci_low"],
            f"{name}_ci_high": u["ci_high"],
            "main_score": value,
            **readings,
            "num_pairs": int(first["num_pairs"]),
            "num_unique_texts": state["num_unique_texts"],
            "dataset_fingerprint": self.data_fingerprint,
        }

    def _item_values(self, state, data_split, hf_subset: str):
        """Per original sentence: the synonym minus the negation normalised cosine (the main score's items),
        and each edit type's raw and normalised cosine (``<edit>/cosine``, ``<edit>/normalized_cosine``)."""
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest

        _, (edit, reference) = HEADLINE
        values = {HEADLINE[0]: state["per_pair"][reference][1] - state["per_pair"][edit][1]}
        for s in HEROS_SUBSETS:
            cos, norm = state["per_pair"][s]
            values[f"{s}/cosine"], values[f"{s}/normalized_cosine"] = cos, norm
        digests = [items_digest(zip(self.data.originals, self.data.columns[s])) for s in HEROS_SUBSETS]
        return SubsetItems(
            values=values,
            digest=items_digest(digests),  # the item sets of every edit type, in order
            scores=dict.fromkeys((HEADLINE[0],)),
        )

    def _predictions(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        out: dict[str, Any] = {"original": list(self.data.originals)}
        for s in HEROS_SUBSETS:
            cos, norm = state["per_pair"][s]
            out[s] = {"edited": list(self.data.columns[s]), "cosine": cos.tolist(), "normalized_cosine": norm.tolist()}
        return out

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        subsets = [hf_subset] if hf_subset in HEROS_SUBSETS else list(HEROS_SUBSETS)
        texts = list(self.data.originals) + [t for s in subsets for t in self.data.columns[s]]
        lengths = np.fromiter((len(t) for t in texts), dtype=np.int64)
        n = len(self.data) * len(subsets)
        return {
            "num_samples": int(n),
            "number_of_pairs": int(n),
            "unique_texts": len(set(texts)),
            "min_text_length": int(lengths.min()),
            "average_text_length": float(lengths.mean()),
            "max_text_length": int(lengths.max()),
        }
