"""SentEval's downstream classification tasks (EvalRank §5.1, §6.1, Tables 3 and 6) as MTEB tasks.

Ten tasks on the dataset ``senteval-downstream`` (SentEval's transfer-task files; SciCite as the
EvalRank toolkit adds it).  A task is a thin adapter: it loads the rows, puts every split in SentEval's
row order (:func:`mteb_evalrank.metrics.classification.senteval_sort_order`, so the folds are SentEval's),
encodes every unique text once (one ``model.encode`` call; empty texts are given as ``"."``, as the
SentEval and EvalRank batchers do), and hands the arrays to :mod:`mteb_evalrank.metrics.classification`:

=================  ====================================  ===============================================
task               SentEval scheme                        features
=================  ====================================  ===============================================
``SentEvalMR``     inner k-fold (outer stratified         sentence embedding
``SentEvalCR``     5-fold, inner 5-fold picks the         sentence embedding
``SentEvalSUBJ``   regularisation)                         sentence embedding
``SentEvalMPQA``                                          sentence embedding
``SentEvalSST2``   train / dev / test                     sentence embedding
``SentEvalSST5``   train / dev / test                     sentence embedding
``SentEvalTREC``   5-fold on train, then test             sentence embedding
``SentEvalMRPC``   5-fold on train, then test (+ F1)      ``[|u - v|, u * v]``
``SentEvalSICKE``  train / dev / test                     ``[|u - v|, u * v]``
``SciCite``        train / dev / test                     sentence embedding
=================  ====================================  ===============================================

Main score ``accuracy`` (test accuracy as a fraction, MTEB's convention for classification), with
``devacc``, ``ndev``, ``ntest``, ``f1`` (MRPC), the protocol (``protocol``: ``"senteval-prototyping"``
by default, the EvalRank toolkit's settings, or ``"senteval-sklearn"``) and the chosen regularisation
recorded next to it, plus ``senteval``: the same result in SentEval's own format (percent).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mteb_evalrank.data.resolution import HUB_DATASETS
from mteb_evalrank.hub_datasets.evalrank_format import EVALRANK_CITATION
from mteb_evalrank.hub_datasets.senteval_downstream.build import SENTEVAL_CITATION
from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata
from mteb_evalrank.tasks.sts import _CITATIONS as STS_CITATIONS
from mteb_evalrank.tasks.sts import _cite

DATASET_NAME = "senteval-downstream"
EVAL_SPLIT = "test"
SUBSET = "default"
DEFAULT_PROTOCOL = "senteval-prototyping"

_CITATIONS = {
    "MR": r"""@inproceedings{pang-lee-2005-seeing,
  author = {Pang, Bo and Lee, Lillian},
  booktitle = {Proceedings of the 43rd Annual Meeting of the Association for Computational Linguistics ({ACL}'05)},
  doi = {10.3115/1219840.1219855},
  pages = {115--124},
  title = {Seeing Stars: Exploiting Class Relationships for Sentiment Categorization with Respect to Rating Scales},
  url = {https://aclanthology.org/P05-1015},
  year = {2005},
}""",
    "CR": r"""@inproceedings{hu-liu-2004-mining,
  author = {Hu, Minqing and Liu, Bing},
  booktitle = {Proceedings of the Tenth ACM SIGKDD International Conference on Knowledge Discovery and Data Mining},
  doi = {10.1145/1014052.1014073},
  pages = {168--177},
  title = {Mining and Summarizing Customer Reviews},
  year = {2004},
}""",
    "SUBJ": r"""@inproceedings{pang-lee-2004-sentimental,
  author = {Pang, Bo and Lee, Lillian},
  booktitle = {Proceedings of the 42nd Annual Meeting of the Association for Computational Linguistics ({ACL}-04)},
  doi = {10.3115/1218955.1218990},
  pages = {271--278},
  title = {A Sentimental Education: Sentiment Analysis Using Subjectivity Summarization Based on Minimum Cuts},
  url = {https://aclanthology.org/P04-1035},
  year = {2004},
}""",
    "MPQA": r"""@article{wiebe-etal-2005-annotating,
  author = {Wiebe, Janyce and Wilson, Theresa and Cardie, Claire},
  doi = {10.1007/s10579-005-7880-9},
  journal = {Language Resources and Evaluation},
  number = {2-3},
  pages = {165--210},
  title = {Annotating Expressions of Opinions and Emotions in Language},
  volume = {39},
  year = {2005},
}""",
    "SST": r"""@inproceedings{socher-etal-2013-recursive,
  author = {Socher, Richard and Perelygin, Alex and Wu, Jean and Chuang, Jason and Manning, Christopher D. and Ng, Andrew and Potts, Christopher},
  booktitle = {Proceedings of the 2013 Conference on Empirical Methods in Natural Language Processing},
  pages = {1631--1642},
  title = {Recursive Deep Models for Semantic Compositionality Over a Sentiment Treebank},
  url = {https://aclanthology.org/D13-1170},
  year = {2013},
}""",
    "TREC": r"""@inproceedings{li-roth-2002-learning,
  author = {Li, Xin and Roth, Dan},
  booktitle = {{COLING} 2002: The 19th International Conference on Computational Linguistics},
  title = {Learning Question Classifiers},
  url = {https://aclanthology.org/C02-1150},
  year = {2002},
}""",
    "MRPC": r"""@inproceedings{dolan-brockett-2005-automatically,
  author = {Dolan, William B. and Brockett, Chris},
  booktitle = {Proceedings of the Third International Workshop on Paraphrasing ({IWP}2005)},
  title = {Automatically Constructing a Corpus of Sentential Paraphrases},
  url = {https://aclanthology.org/I05-5002},
  year = {2005},
}""",
    "SICK": STS_CITATIONS["SICKR"],
    "SciCite": r"""@inproceedings{cohan-etal-2019-structural,
  author = {Cohan, Arman and Ammar, Waleed and van Zuylen, Madeleine and Cady, Field},
  booktitle = {Proceedings of the 2019 Conference of the North {A}merican Chapter of the Association for Computational Linguistics: Human Language Technologies, Volume 1 (Long and Short Papers)},
  doi = {10.18653/v1/N19-1361},
  pages = {3586--3596},
  title = {Structural Scaffolds for Citation Intent Classification in Scientific Publications},
  url = {https://aclanthology.org/N19-1361},
  year = {2019},
}""",
}

_SCHEME_TEXT = {
    "kfold": "SentEval's InnerKFoldClassifier: outer stratified 5-fold (shuffle, seed 1111), an inner 5-fold on "
    "each training part picks the L2 regularisation; the main score is the mean outer-fold test accuracy.",
    "split": "SentEval's SplitClassifier: trained on train, regularisation picked on dev, scored on test.",
    "kfold-test": "SentEval's KFoldClassifier: 5-fold on train picks the regularisation, then one model on all of "
    "train is scored on test.",
}


def _metadata(name: str, config: str, what: str, scheme: str, pairs: bool, citations: tuple[str, ...], **fields: Any):
    hub = HUB_DATASETS[DATASET_NAME]
    features = (
        "the pair features [|u - v|, u * v] of the two sentence embeddings" if pairs else "the sentence embedding"
    )
    description = (
        f"{what} as SentEval evaluates it (EvalRank §5.1, §6.1): a logistic regression on {features}. "
        f"{_SCHEME_TEXT[scheme]} Default protocol 'senteval-prototyping' (the EvalRank toolkit's SentEval "
        "settings: PyTorch classifier, nhid 0, rmsprop, batch 128, tenacity 3, epoch size 2, kfold 5); "
        "'senteval-sklearn' is SentEval's scikit-learn path. Text as SentEval reads its files, tokens joined by "
        "single spaces."
    )
    return PluginTaskMetadata(
        name=name,
        description=description,
        dataset={"path": hub.repo_id, "revision": hub.revision, "name": config},
        type="PairClassification" if pairs else "Classification",
        category="t2c",
        modalities=["text"],
        eval_splits=[EVAL_SPLIT],
        eval_langs=["eng-Latn"],
        main_score="accuracy",
        task_subtypes=[],
        dialect=[],
        annotations_creators="human-annotated",
        sample_creation="found",
        license="not specified",
        bibtex_citation=_cite(*citations, SENTEVAL_CITATION),
        **fields,
    )


class _SentEvalDownstreamTask(EncodeOnceTask):
    """Shared adapter: one config of ``senteval-downstream``; encode once, run SentEval's protocol.

    Subclasses set ``metadata``, ``config``, ``scheme`` (``"kfold"``, ``"split"`` or ``"kfold-test"``)
    and ``pairs``.  ``protocol`` (an instance attribute) selects the classifier protocol.
    """

    role = "downstream"
    config: str
    scheme: str
    pairs: bool = False
    records_batch_size = False  # scores as before, plus the *_se/_ci_* keys
    with_f1: bool = False

    def __init__(self, protocol: str = DEFAULT_PROTOCOL, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from mteb_evalrank.metrics.classification import get_protocol

        self.protocol = get_protocol(protocol).name
        self.rows: dict[str, Any] = {}
        self.data_fingerprint: str | None = None

    # --- data ----------------------------------------------------------------------------------
    def _load(self, num_proc: int | None = None) -> dict[str, dict[str, Any]]:
        from mteb_evalrank.data.resolution import resolve_dataset
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.hub_datasets.layout import read_config
        from mteb_evalrank.metrics.classification import senteval_sort_order

        resolved = resolve_dataset(DATASET_NAME)
        df = read_config(resolved.folder, self.config).to_pandas()
        text_cols = ["text1", "text2"] if self.pairs else ["text"]
        missing = [c for c in ("id", "split", "label", *text_cols) if c not in df.columns]
        if missing:
            raise InputError(f"{resolved.folder}: config {self.config!r} has no column(s) {missing}.")
        needed = {"kfold": ("train",), "split": ("train", "dev", "test"), "kfold-test": ("train", "test")}[self.scheme]
        self.rows = {}
        for split in needed:
            part = df[df["split"] == split].reset_index(drop=True)
            if part.empty:
                raise InputError(f"{resolved.folder}: config {self.config!r} has no {split!r} rows.")
            texts = [part[c].tolist() for c in text_cols]
            order = senteval_sort_order(texts[0], part["label"].tolist(), texts[1] if self.pairs else None)
            self.rows[split] = part.iloc[order].reset_index(drop=True)
        self.data_fingerprint = resolved.fingerprint
        return {SUBSET: {EVAL_SPLIT: None}}

    def unload_data(self) -> None:
        self.rows = {}
        super().unload_data()

    def _texts(self) -> list[str]:
        cols = ["text1", "text2"] if self.pairs else ["text"]
        out: list[str] = []
        for part in self.rows.values():
            for c in cols:
                out.extend(part[c].tolist())
        return list(dict.fromkeys(t if t.strip() else "." for t in out))

    # --- evaluation ----------------------------------------------------------------------------
    def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
        from mteb_evalrank.errors import InputError
        from mteb_evalrank.integration.encoding import encode_texts, model_label
        from mteb_evalrank.metrics import classification as clf

        texts = self._texts()
        index = {t: i for i, t in enumerate(texts)}
        with timer("Encoding", split=hf_split, subset=SUBSET):
            emb = encode_texts(
                model,
                texts,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset=SUBSET,
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
            )

        def features(part) -> np.ndarray:
            def rows(col: str) -> np.ndarray:
                return emb[[index[t if t.strip() else "."] for t in part[col].tolist()]]

            return clf.pair_features(rows("text1"), rows("text2")) if self.pairs else rows("text")

        data = {split: (features(part), part["label"].to_numpy()) for split, part in self.rows.items()}
        try:
            with timer("Classifier", split=hf_split, subset=SUBSET):
                if self.scheme == "kfold":
                    res = clf.evaluate_kfold_inner(*data["train"], protocol=self.protocol, per_item=True)
                elif self.scheme == "split":
                    res = clf.evaluate_split(
                        *data["train"], *data["dev"], *data["test"], protocol=self.protocol, per_item=True
                    )
                else:
                    res = clf.evaluate_kfold_then_test(
                        *data["train"], *data["test"], protocol=self.protocol, with_f1=self.with_f1, per_item=True
                    )
        except InputError as exc:
            raise InputError(f"{self.metadata.name} ({model_label(model)}): {exc}") from None
        outcome = res.pop(clf.PER_ITEM)
        return {"result": res, "num_unique_texts": len(texts), **self._uncertainty(outcome)}

    def _uncertainty(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """``accuracy_se/_ci_low/_ci_high`` (a bootstrap over test items, within the outer folds) and the
        per-item values for ``compare`` and ``ranks`` (:mod:`mteb_evalrank.metrics.correlation_uncertainty`)."""
        from mteb_evalrank.integration.item_values import SubsetItems, items_digest
        from mteb_evalrank.metrics.correlation_uncertainty import (
            accuracy_bootstrap,
            accuracy_item_values,
            uncertainty_keys,
        )

        correct, folds = outcome["correct"], outcome["fold"]
        test = self.rows["train" if self.scheme == "kfold" else "test"]  # the items the accuracy is over
        cols = ["text1", "text2", "label"] if self.pairs else ["text", "label"]
        identities = test[cols].astype(str).values.tolist()
        items = SubsetItems(
            values={"accuracy": accuracy_item_values(correct, folds)},
            digest=items_digest(identities),
            strata=folds,
            scores=dict.fromkeys(("accuracy",)),
        )
        return {"uncertainty": uncertainty_keys("accuracy", accuracy_bootstrap(correct, folds)), "items": items}

    def _score_subset(self, state, data_split, hf_subset: str) -> dict[str, Any]:
        res = dict(state["result"])
        res["accuracy"] = res["acc"]
        res.update(state["uncertainty"])
        res["num_unique_texts"] = state["num_unique_texts"]
        res["dataset_fingerprint"] = self.data_fingerprint
        return res

    def _item_values(self, state, data_split, hf_subset: str):
        return state["items"]

    def _calculate_descriptive_statistics_from_split(
        self, split: str, *, hf_subset: str | None = None, compute_overall: bool = False, num_proc=None
    ) -> dict[str, Any]:
        """Sizes, text lengths and label counts of every split the protocol uses."""
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        cols = ["text1", "text2"] if self.pairs else ["text"]
        out: dict[str, Any] = {"num_samples": int(sum(len(p) for p in self.rows.values()))}
        lengths = [len(t) for p in self.rows.values() for c in cols for t in p[c].tolist()]
        out["number_of_characters"] = int(sum(lengths))
        out["min_text_length"] = int(min(lengths))
        out["average_text_length"] = float(np.mean(lengths))
        out["max_text_length"] = int(max(lengths))
        for name, part in self.rows.items():
            counts = part["label"].value_counts().sort_index()
            out[f"{name}_samples"] = int(len(part))
            out[f"{name}_label_counts"] = {str(k): int(v) for k, v in counts.items()}
        return out


def _task(
    name: str,
    config: str,
    what: str,
    scheme: str,
    citation: str | tuple[str, ...],
    *,
    pairs: bool = False,
    with_f1: bool = False,
    **fields: Any,
) -> type:
    citations = citation if isinstance(citation, tuple) else (citation,)
    metadata = _metadata(name, config, what, scheme, pairs, citations, **fields)
    return type(
        name,
        (_SentEvalDownstreamTask,),
        {
            "metadata": metadata,
            "config": config,
            "scheme": scheme,
            "pairs": pairs,
            "with_f1": with_f1,
            "__doc__": f"{what} (SentEval; EvalRank Tables 3 and 6).",
            "__module__": __name__,
        },
    )


SentEvalMR = _task(
    "SentEvalMR",
    "MR",
    "MR movie-review sentiment (positive / negative)",
    "kfold",
    _CITATIONS["MR"],
    reference="https://www.cs.cornell.edu/people/pabo/movie-review-data/",
    date=("2002-01-01", "2005-12-31"),
    domains=["Reviews", "Written"],
)
SentEvalCR = _task(
    "SentEvalCR",
    "CR",
    "CR customer-review sentiment (positive / negative)",
    "kfold",
    _CITATIONS["CR"],
    reference="https://www.cs.uic.edu/~liub/FBS/sentiment-analysis.html",
    date=("2004-01-01", "2004-12-31"),
    domains=["Reviews", "Written"],
)
SentEvalSUBJ = _task(
    "SentEvalSUBJ",
    "SUBJ",
    "SUBJ subjectivity (subjective / objective)",
    "kfold",
    _CITATIONS["SUBJ"],
    reference="https://www.cs.cornell.edu/people/pabo/movie-review-data/",
    date=("2002-01-01", "2004-12-31"),
    domains=["Reviews", "Written"],
)
SentEvalMPQA = _task(
    "SentEvalMPQA",
    "MPQA",
    "MPQA opinion polarity (positive / negative)",
    "kfold",
    _CITATIONS["MPQA"],
    reference="https://mpqa.cs.pitt.edu/",
    date=("2002-01-01", "2005-12-31"),
    domains=["News", "Written"],
)
SentEvalSST2 = _task(
    "SentEvalSST2",
    "SST2",
    "SST-2 binary sentiment (Stanford Sentiment Treebank)",
    "split",
    _CITATIONS["SST"],
    reference="https://nlp.stanford.edu/sentiment/",
    date=("2002-01-01", "2013-12-31"),
    domains=["Reviews", "Written"],
)
SentEvalSST5 = _task(
    "SentEvalSST5",
    "SST5",
    "SST-5 fine-grained sentiment (five classes)",
    "split",
    _CITATIONS["SST"],
    reference="https://nlp.stanford.edu/sentiment/",
    date=("2002-01-01", "2013-12-31"),
    domains=["Reviews", "Written"],
)
SentEvalTREC = _task(
    "SentEvalTREC",
    "TREC",
    "TREC question type (six coarse classes)",
    "kfold-test",
    _CITATIONS["TREC"],
    reference="https://cogcomp.seas.upenn.edu/Data/QA/QC/",
    date=("1999-01-01", "2002-12-31"),
    domains=["Written"],
)
SentEvalMRPC = _task(
    "SentEvalMRPC",
    "MRPC",
    "MRPC paraphrase detection (Microsoft Research Paraphrase Corpus)",
    "kfold-test",
    _CITATIONS["MRPC"],
    pairs=True,
    with_f1=True,
    reference="https://www.microsoft.com/en-us/download/details.aspx?id=52398",
    date=("2004-01-01", "2005-12-31"),
    domains=["News", "Written"],
)
SentEvalSICKE = _task(
    "SentEvalSICKE",
    "SICKE",
    "SICK entailment (entailment / neutral / contradiction)",
    "split",
    _CITATIONS["SICK"],
    pairs=True,
    reference="https://marcobaroni.org/composes/sick.html",
    date=("2013-01-01", "2014-12-31"),
    domains=["Web", "Written"],
)
SciCite = _task(
    "SciCite",
    "SciCite",
    "SciCite citation intent (background / method / result), as the EvalRank toolkit adds it",
    "split",
    (_CITATIONS["SciCite"], EVALRANK_CITATION),
    reference="https://github.com/allenai/scicite",
    date=("2019-01-01", "2019-12-31"),
    domains=["Academic", "Written"],
)

#: the task classes of this module (all downstream), in the order of EvalRank's Table 6 + MRPC, SICK-E, SciCite
SENTEVAL_TASKS: list[type] = [
    SentEvalMR,
    SentEvalCR,
    SentEvalSUBJ,
    SentEvalMPQA,
    SentEvalSST2,
    SentEvalSST5,
    SentEvalTREC,
    SentEvalMRPC,
    SentEvalSICKE,
    SciCite,
]
