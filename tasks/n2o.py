"""N2O as an MTEB task: store each model's nearest neighbours so that embedders can be compared later.

N2O compares *pairs* of embedders, while MTEB evaluates one model at a time.  The task therefore
stores, in the model's ``N2O.json``, the ranked neighbour ids (corpus row indices) of every sampled
query up to ``k_max`` together with the corpus fingerprint, seed, number of queries and samples;
``mteb-evalrank n2o-compare RESULTS_DIR`` computes N2O between all stored models at any k ≤ k_max
without re-encoding.  The task's own main score is the paper's §8 paraphrase needle test (MRR).

Corpus resolution: the ``corpus`` constructor argument, else ``$MTEB_EVALRANK_N2O_CORPUS`` (a text file,
one sentence per line, or a folder in Hub layout with configs ``corpus`` and optionally ``needles``),
else the ``n2o-corpus`` dataset (:mod:`mteb_evalrank.data.resolution`).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.hub_datasets.n2o_corpus.build import N2O_CITATION
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

logger = logging.getLogger(__name__)

CORPUS_ENV = "MTEB_EVALRANK_N2O_CORPUS"
DATASET_NAME = "n2o-corpus"


def read_corpus_file(path: Path) -> list[str]:
    """Non-blank lines of a UTF-8 text file, stripped (a bad file raises ``InputError`` naming it and the line)."""
    from mteb_evalrank.data.files import read_lines

    return read_lines(Path(path), what="corpus file")


def load_corpus_source(source: Any) -> tuple[list[str], list[tuple[str, str]], str]:
    """(corpus texts (may contain duplicates), needle pairs, origin) from a list, text file or Hub folder."""
    from mteb_evalrank.hub_datasets import layout

    if isinstance(source, (list, tuple)):
        return [str(t).strip() for t in source if str(t).strip()], [], "inline"
    path = Path(source)
    if path.is_dir():
        corpus = [str(t) for t in layout.read_config(path, "corpus").column("text").to_pylist()]
        meta, _ = layout.read_card(path)
        names = [c.get("config_name") for c in meta.get("configs") or []]
        needles: list[tuple[str, str]] = []
        if "needles" in names:
            table = layout.read_config(path, "needles")
            needles = list(zip(table.column("query").to_pylist(), table.column("positive").to_pylist()))
        return corpus, needles, f"local:{path}"
    return read_corpus_file(path), [], f"file:{path}"


class N2O(EncodeOnceTask):
    """Nearest neighbours of sampled corpus queries (for N2O comparisons) + the §8 needle test.

    Args:
        corpus: list of sentences, a text file or a Hub-layout folder (default: see module docstring).
        needles: ``(query, positive)`` pairs for the needle test (default: the dataset's ``needles``).
        k_max: neighbours stored per query (comparisons can use any k ≤ k_max).
        n_queries, samples: queries per sample and number of samples (paper: 100 × 5).
        seed: query-sampling seed (the same for every model, so that results are comparable).
        use_faiss: approximate search (HNSW) instead of exact; recall is not measured here.
        use_cache: keep corpus embeddings in the on-disk cache (:mod:`mteb_evalrank.data.embedding_cache`).
    """

    role = "comparison"

    metadata = PluginTaskMetadata(
        name="N2O",
        description=(
            "Nearest-neighbour overlap (N2O): stores the 50 cosine nearest neighbours of 5 × 100 sampled "
            "corpus sentences (query excluded) so that embedders can be compared by the overlap of their "
            "neighbour sets (mteb-evalrank n2o-compare); main score: MRR of STS-B near-paraphrase needles "
            "ranked against the corpus (paper §8)."
        ),
        reference="https://arxiv.org/abs/1909.10724",
        dataset={"path": "mteb-evalrank/n2o-corpus", "revision": "v1.0.0"},
        type="Retrieval",
        category="t2t",
        modalities=["text"],
        eval_splits=["test"],
        eval_langs=["eng-Latn"],
        main_score="needle_mrr",
        date=("2012-01-01", "2017-12-31"),
        domains=["News", "Web", "Written"],
        task_subtypes=[],
        license="cc-by-sa-4.0",
        annotations_creators="human-annotated",
        dialect=[],
        sample_creation="found",
        bibtex_citation=N2O_CITATION,
    )

    def __init__(
        self,
        *,
        corpus: Any = None,
        needles: list[tuple[str, str]] | None = None,
        k_max: int = 50,
        n_queries: int = 100,
        samples: int = 5,
        use_faiss: bool = False,
        use_cache: bool = True,
        cache_root: Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.corpus_source = corpus
        self.needle_override = needles
        self.k_max, self.n_queries, self.samples = int(k_max), int(n_queries), int(samples)
        self.use_faiss, self.use_cache, self.cache_root = use_faiss, use_cache, cache_root
        self.corpus: list[str] = []
        self.needles: list[tuple[str, str]] = []
        self.corpus_origin: str | None = None
        self.corpus_fp: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.data.embedding_cache import corpus_fingerprint
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.metrics.neighbors import _check_k, deduplicate

        source = self.corpus_source if self.corpus_source is not None else os.environ.get(CORPUS_ENV)
        if source is None:
            from mteb_evalrank.data.resolution import resolve_dataset

            source = resolve_dataset(DATASET_NAME).folder
        texts, needles, origin = load_corpus_source(source)
        self.corpus = deduplicate(texts, what=f"{self.metadata.name} corpus ({origin})")
        if not self.corpus:
            raise InputError(f"{self.metadata.name}: the corpus ({origin}) is empty.")
        for name, value in (("n_queries", self.n_queries), ("samples", self.samples)):
            if value < 1:
                raise InputError(f"{self.metadata.name}: {name} must be ≥ 1, got {value}.")
        self.needles = list(self.needle_override) if self.needle_override is not None else needles
        self.corpus_origin = origin
        self.corpus_fp = corpus_fingerprint(self.corpus)
        if self.n_queries > len(self.corpus):
            raise InputError(
                f"{self.metadata.name}: asked for {self.n_queries} queries but the corpus has only "
                f"{len(self.corpus)} unique sentences."
            )
        _check_k(self.k_max, len(self.corpus))
        return {"default": dict.fromkeys(self.metadata.eval_splits)}

    def unload_data(self) -> None:
        self.corpus, self.needles = [], []
        super().unload_data()

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.data.embedding_cache import encode_corpus
        from mteb_evalrank.integration.encoding import encode_texts
        from mteb_evalrank.metrics.neighbors import exact_knn, faiss_knn, needle_ranks, needle_scores, sample_query_sets

        with timer("Encoding corpus", split=hf_split, subset="default"):
            emb = encode_corpus(
                model,
                self.corpus,
                task_metadata=self.metadata,
                fingerprint=self.corpus_fp,
                use_cache=self.use_cache,
                root=self.cache_root,
                encode_kwargs=encode_kwargs,
                hf_split=hf_split,
            )
        query_sets = sample_query_sets(len(self.corpus), self.n_queries, self.samples, seed=self.seed)
        unique_q, inverse = np.unique(query_sets, return_inverse=True)
        with timer("Nearest neighbours", split=hf_split, subset="default"):
            if self.use_faiss:
                ids = faiss_knn(emb, unique_q, self.k_max).ids
            else:
                ids, _ = exact_knn(emb, unique_q, self.k_max)
        neighbors = ids[inverse.reshape(query_sets.shape)]
        state: dict[str, Any] = {"query_ids": query_sets, "neighbors": neighbors, "needles": None}
        if self.needles:
            position = {t: i for i, t in enumerate(self.corpus)}
            extra = list(dict.fromkeys(t for pair in self.needles for t in pair))
            with timer("Encoding needles", split=hf_split, subset="default"):
                extra_emb = encode_texts(
                    model, extra, task_metadata=self.metadata, hf_split=hf_split, encode_kwargs=encode_kwargs
                )
            row = {t: i for i, t in enumerate(extra)}
            queries = extra_emb[[row[q] for q, _ in self.needles]]
            positives = extra_emb[[row[p] for _, p in self.needles]]
            exclude = [[position[t] for t in (q, p) if t in position] for q, p in self.needles]
            ranks = needle_ranks(emb, queries, positives, exclude=exclude)
            state["needles"] = {**needle_scores(ranks), "ranks": ranks}
        return state

    def _needle_groups(self) -> np.ndarray:
        """Cluster of each needle: its unordered pair of texts (a pair given in both directions is one cluster)."""
        ids: dict[tuple[str, ...], int] = {}
        return np.array([ids.setdefault(tuple(sorted(pair)), len(ids)) for pair in self.needles], dtype=np.int64)

    def _item_values(self, state, data_split, hf_subset: str):
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest

        if state["needles"] is None:
            return None
        return SubsetItems(
            values={"needle_rank": np.asarray(state["needles"]["ranks"], dtype=np.int64)},
            digest=items_digest([self.corpus_fp, *self.needles]),
            groups=self._needle_groups(),
            scores=dict.fromkeys(("needle_mrr",)),
        )

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        from mteb_evalrank.metrics.score_uncertainty import rank_uncertainty

        scores: dict[str, Any] = {}
        if state["needles"] is not None:
            needle = dict(state["needles"])
            ranks = needle.pop("ranks")
            scores.update(needle)
            scores["needle_ranks"] = ranks.tolist()
            scores.update(
                rank_uncertainty(np.asarray(ranks, dtype=np.int64), self._needle_groups(), ks=(), prefix="needle_")
            )
        else:
            scores.update({"needle_mrr": None, "needle_top1": None, "needle_top5": None, "needle_count": 0})
        scores.update(
            {
                "main_score": scores["needle_mrr"],
                "neighbors": state["neighbors"].tolist(),
                "query_ids": state["query_ids"].tolist(),
                "k_max": self.k_max,
                "n_queries": self.n_queries,
                "samples": self.samples,
                "seed": int(self.seed),
                "corpus_size": len(self.corpus),
                "corpus_fingerprint": self.corpus_fp,
                "corpus_origin": self.corpus_origin,
                "search": "faiss-hnsw" if self.use_faiss else "exact",
                "similarity": "cosine",
            }
        )
        return scores

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        lengths = np.fromiter((len(t) for t in self.corpus), dtype=np.int64)
        return {
            "num_samples": len(self.corpus),
            "number_of_corpus_sentences": len(self.corpus),
            "number_of_needles": len(self.needles),
            "min_text_length": int(lengths.min()),
            "average_text_length": float(lengths.mean()),
            "max_text_length": int(lengths.max()),
        }
