"""HEROS as an MTEB task (Chiang et al., 2023): minimal-pair diagnostics of sentence encoders.

Subsets (one per edit rule; each pairs the 1,000 original sentences with their edited versions):
``synonym``, ``antonym``, ``negation_main``, ``negation_antonym``, ``random_mlm``, ``typo``.
Scores per subset (:func:`mteb_evalrank.metrics.heros.heros_scores`): ``normalized_cosine`` (main score; the
paper's number), ``cosine``, ``baseline``, ``num_pairs``, and the three summary readings
``negation_minus_synonym``, ``antonym_minus_synonym``, ``typo_minus_synonym`` (repeated in every
subset, computed from all six subsets whatever subsets are run).  ``mteb-evalrank heros-report``
turns result folders into the paper's table and Figure-1-style chart.

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

from mteb_evalrank.hub_datasets.heros.build import HEROS_CITATION, SOURCE_REPO, SOURCE_REVISION
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

HEROS_SUBSETS = ("synonym", "antonym", "negation_main", "negation_antonym", "random_mlm", "typo")


class HEROS(EncodeOnceTask):
    role = "diagnostic"
    metadata = PluginTaskMetadata(
        name="HEROS",
        description=(
            "HEROS minimal-pair diagnostics: 1,000 GoEmotions sentences each paired with a synonym, antonym, "
            "random-MLM-word and typo substitution and two negations. Per subset: mean cosine of the pairs "
            "normalised by a random-pair baseline, (cos - cos_avg) / (1 - cos_avg). A diagnostic without gold "
            "scores: compare subsets (e.g. negation vs synonym), not models' absolute numbers."
        ),
        reference="https://huggingface.co/datasets/dcml0714/Heros",
        dataset={"path": SOURCE_REPO, "revision": SOURCE_REVISION},
        type="STS",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs={s: ["eng-Latn"] for s in HEROS_SUBSETS},
        main_score="normalized_cosine",
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
        return {s: dict.fromkeys(self.metadata.eval_splits, s) for s in self.hf_subsets}

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
        uncertainty = heros_bootstrap(units, {s: cos for s, (cos, _) in per_pair.items()})
        return {"scores": scores, "per_pair": per_pair, "num_unique_texts": len(texts), "uncertainty": uncertainty}

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        u, mean = state["uncertainty"][hf_subset], state["uncertainty"]["mean"]
        return {
            **state["scores"][hf_subset],
            "normalized_cosine_se": u["se"],
            "normalized_cosine_ci_low": u["ci_low"],
            "normalized_cosine_ci_high": u["ci_high"],
            "subset_mean_se": mean["se"],  # se of the mean over the subsets run (the task's MTEB score), joint
            "num_unique_texts": state["num_unique_texts"],
            "dataset_fingerprint": self.data_fingerprint,
        }

    def _item_values(self, state, data_split, hf_subset: str):
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest

        cos, norm = state["per_pair"][hf_subset]
        return SubsetItems(
            values={"cosine": cos, "normalized_cosine": norm},
            digest=items_digest(zip(self.data.originals, self.data.columns[hf_subset])),
            scores=dict.fromkeys(("cosine", "normalized_cosine")),
        )

    def _predictions(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        cos, norm = state["per_pair"][hf_subset]
        return {
            "original": list(self.data.originals),
            "edited": list(self.data.columns[hf_subset]),
            "cosine": cos.tolist(),
            "normalized_cosine": norm.tolist(),
        }

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        subsets = [hf_subset] if hf_subset else list(HEROS_SUBSETS)
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
