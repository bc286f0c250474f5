"""N2O at corpus scale: encoding, exact kNN, FAISS HNSW build/search and recall on a 100k corpus.

Prints ``name=value`` lines, all measured in this one run:

- ``corpus_sentences``: unique sentences gathered from the real data in ``shared/data/sources``
  (every SentEval transfer set incl. SST phrase-level train lines, SICK, MRPC, SciCite, STS12–16,
  STS-B: ~189k; local benchmark only, nothing is published), a seeded sample of ``--corpus-size``
  (default 100,000)
- ``minilm_encode_s_extrapolated_from_<N>``: all-MiniLM-L6-v2 encode time of ``--encode-limit``
  sentences (through the on-disk embedding cache), scaled linearly to the whole corpus; with
  ``--encode-limit 0`` the whole corpus is encoded and the line is ``minilm_encode_s``
- ``glove_encode_s``: GloVe 6B 50d bag-of-words encoding of the whole corpus (real)
- ``exact_search_s_<emb>`` / ``faiss_build_s_<emb>`` / ``faiss_search_s_<emb>`` /
  ``faiss_recall_at_50_<emb>``: n queries × k = 50 on a read-only memmap; ``<emb>`` is
  ``glove50_real`` (real GloVe embeddings), and ``minilm384_real`` when the whole corpus was encoded,
  otherwise ``synthetic384`` (clustered synthetic vectors, 100k × 384 — labelled as such)
- ``peak_rss_mb``: peak resident memory of the process

Usage: ``python benchmarks/n2o_scale.py [--encode-limit 2000] [--queries 500] [--corpus-size 100000]``
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

SOURCES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sources"


def gather_sentences(sources: Path, limit: int) -> list[str]:
    """Unique sentences from every text source (first-seen order), at most ``limit``."""
    out: dict[str, None] = {}

    def add(text: str) -> None:
        text = " ".join(text.split())
        if text:
            out.setdefault(text, None)

    dd = sources / "senteval_downstream"
    for rel in (
        "MR/rt-polarity.pos",
        "MR/rt-polarity.neg",
        "CR/custrev.pos",
        "CR/custrev.neg",
        "SUBJ/subj.objective",
        "SUBJ/subj.subjective",
        "MPQA/mpqa.pos",
        "MPQA/mpqa.neg",
    ):
        for line in (dd / rel).read_text(encoding="latin-1").splitlines():
            add(line)
    for line in (dd / "TREC/train_5500.label").read_text(encoding="latin-1").splitlines():
        add(line.split(" ", 1)[1] if " " in line else line)
    for path in sorted((dd / "SST").rglob("sentiment-*")):
        for line in path.read_text(encoding="utf-8").splitlines():
            add(line.rsplit("\t", 1)[0])
    for path in sorted((dd / "MRPC").glob("*.txt")):
        for line in path.read_text(encoding="utf-8-sig").splitlines()[1:]:
            fields = line.split("\t")
            if len(fields) >= 5:
                add(fields[3]), add(fields[4])
    for path in sorted((dd / "SICK").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            fields = line.split("\t")
            if len(fields) >= 3:
                add(fields[1]), add(fields[2])
    for path in sorted((dd / "SCICITE").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            add(line.split("\t")[0] if "\t" in line else line)
    for path in sorted((sources / "sts_senteval" / "STS").rglob("STS.input.*.txt")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            for s in line.split("\t")[:2]:
                add(s)
    for path in sorted((sources / "stsbenchmark_raw").glob("sts-*.csv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            fields = line.split("\t")
            if len(fields) >= 7:
                add(fields[5]), add(fields[6])
    texts = list(out)
    if len(texts) <= limit:
        return texts
    keep = np.sort(np.random.default_rng(0).choice(len(texts), size=limit, replace=False))
    return [texts[i] for i in keep]  # a seeded, order-preserving sample across all sources


def search_bench(name: str, emb: np.ndarray, queries: np.ndarray, k: int, ef_construction: int) -> None:
    from mteb_evalrank.metrics.neighbors import exact_knn, faiss_knn, recall_at_k

    t = time.perf_counter()
    exact, _ = exact_knn(emb, queries, k)
    print(f"exact_search_s_{name}={time.perf_counter() - t:.2f}", flush=True)
    approx = faiss_knn(emb, queries, k, ef_construction=ef_construction)
    print(f"faiss_build_s_{name}={approx.build_seconds:.2f}")
    print(f"faiss_search_s_{name}={approx.search_seconds:.3f}")
    print(f"faiss_recall_at_{k}_{name}={recall_at_k(approx.ids, exact):.4f}", flush=True)


def synthetic(n: int, d: int, seed: int = 0) -> np.ndarray:
    """Clustered synthetic vectors (2,000 gaussian clusters), closer to real embeddings than iid noise."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(2000, d)).astype(np.float32)
    out = np.empty((n, d), dtype=np.float32)
    for start in range(0, n, 20_000):
        m = min(20_000, n - start)
        out[start : start + m] = centres[rng.integers(0, 2000, m)] + 0.6 * rng.normal(size=(m, d)).astype(np.float32)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus-size", type=int, default=100_000)
    ap.add_argument("--encode-limit", type=int, default=2000, help="MiniLM sentences to encode (0 = all)")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--ef-construction", type=int, default=100)
    ap.add_argument("--sources", type=Path, default=SOURCES)
    args = ap.parse_args()

    os.environ.setdefault("MTEB_EVALRANK_CACHE", tempfile.mkdtemp(prefix="n2o-bench-"))
    import mteb  # noqa: F401  (registers the plugin, incl. the offline MiniLM)

    from mteb_evalrank.data.embedding_cache import corpus_fingerprint, encode_corpus
    from mteb_evalrank.metrics.neighbors import sample_queries
    from mteb_evalrank.models import load_model
    from mteb_evalrank.tasks.n2o import N2O

    corpus = gather_sentences(args.sources, args.corpus_size)
    print(f"corpus_sentences={len(corpus)}")
    queries = sample_queries(len(corpus), args.queries, seed=42)
    print(f"queries={len(queries)}")

    glove = load_model("glove-6b-50d")
    t = time.perf_counter()
    g = encode_corpus(
        glove, corpus, task_metadata=N2O.metadata, fingerprint=corpus_fingerprint(corpus), block_size=32768
    )
    print(f"glove_encode_s={time.perf_counter() - t:.2f}", flush=True)
    del glove
    search_bench("glove50_real", g, queries, args.k, args.ef_construction)

    minilm = load_model("sentence-transformers/all-MiniLM-L6-v2")
    subset = corpus if args.encode_limit <= 0 else corpus[: args.encode_limit]
    t = time.perf_counter()
    m = encode_corpus(minilm, subset, task_metadata=N2O.metadata, encode_kwargs={"batch_size": 64}, block_size=8192)
    sec = time.perf_counter() - t
    if args.encode_limit <= 0:
        print(f"minilm_encode_s={sec:.1f}")
        search_bench("minilm384_real", m, queries, args.k, args.ef_construction)
    else:
        print(f"minilm_encode_s_measured_{len(subset)}={sec:.1f}")
        print(f"minilm_encode_s_extrapolated_from_{len(subset)}={sec * len(corpus) / len(subset):.0f}", flush=True)
        del m
        path = Path(os.environ["MTEB_EVALRANK_CACHE"]) / "synthetic.npy"
        np.save(path, synthetic(len(corpus), 384))
        search_bench("synthetic384", np.load(path, mmap_mode="r"), queries, args.k, args.ef_construction)
    print(f"peak_rss_mb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")


if __name__ == "__main__":
    main()
