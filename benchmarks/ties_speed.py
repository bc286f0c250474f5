"""Exact EvalRank ranking on vectors with many exact ties against dense vectors of the same shape.

Prints ``name=value`` lines, all measured in this one run (runs interleaved, medians of ``--repeats``):

- ``dense_s``: :func:`mteb_evalrank.metrics.ranking.evalrank_ranks` on standard-normal float32 vectors
- ``ties_s``: the same call on tie-heavy vectors of the same shape (``--kind``, below)
- ``ratio``: ``ties_s / dense_s`` (issue 31 asks for at most 2)
- ``dense_runs_s`` / ``ties_runs_s``: the individual runs (to judge noise on a shared machine)
- ``ties_path``: ``tie`` if the call took the tie path, ``float32`` otherwise; ``ties_decided_exactly``:
  comparisons the tie path decided by exact float64 sums; ``ties_refined_stage2`` /
  ``ties_refined_stage3``: comparisons still refined per item (float64, then integers)
- ``n_queries``, ``n_background``, ``dim``, ``ties_n_distinct``, ``blas_threads``

Tie-heavy data (``--kind``):

- ``rp`` (default): what ``zoo:tfidf-wordnet/rp`` gives a single word: its one-hot TF-IDF vector
  through a sparse random projection (scikit-learn's default density ``1/sqrt(33,554)`` over the
  projection's rows, scaled to ``--rp-nonzeros`` non-zeros per row on average), entries
  ``±0.4228``; ``--oov`` of the rows are out-of-vocabulary words (a zero vector plus ``1e-9``, as the
  zoo pads them), and ``--oov-pairs`` of the queries and positives.  The defaults are what
  ``zoo:tfidf-wordnet/rp`` gives EvalRankWord: 5.6 non-zeros per in-vocabulary word, 33.8% of the
  background and 10.6% of the queries out of vocabulary (at 1,024 dimensions).  Most pairs of distinct words are orthogonal; after centring, l2 scores tie exactly
  up to the centring's rounding.
- ``quantised``: every coordinate in ``{-1, 0, 1}`` (a 1.6-bit quantisation), no duplicate rows.

- ``--model zoo:tfidf-wordnet/rp`` (or any model spec): the real thing, EvalRankWord's background
  encoded by that model (``mteb-evalrank fetch-weights tfidf-wordnet`` first; the encoding is not
  timed), against standard-normal vectors of its shape.

``ties_cos_mrr``, ``ties_l2_mrr`` and ``ties_ranks_digest`` (SHA-256 of all tie-heavy ranks) identify the
ranks, so runs of two implementations can be compared (``--every k``: every k-th pair only).

Usage: ``python benchmarks/ties_speed.py [--kind rp|quantised] [--repeats 2] [--dim 256] [--model SPEC] [--every k]``
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

import numpy as np


def dense(n: int, dim: int, m: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((n, dim), dtype=np.float32)
    return emb, rng.integers(0, n, m), rng.integers(0, n, m)


def random_projection_words(n: int, dim: int, m: int, nonzeros: float, oov: float, oov_pairs: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    k = rng.binomial(dim, nonzeros / dim, n)
    emb = np.zeros((n, dim), dtype=np.float32)
    rows = np.repeat(np.arange(n), k)
    cols = np.concatenate([rng.choice(dim, kk, replace=False) for kk in k])
    emb[rows, cols] = np.float32(0.4228) * rng.choice(np.array([-1, 1], dtype=np.float32), rows.size)
    emb[rng.random(n) < oov] = 0.0
    emb[~emb.any(axis=1)] += np.float32(1e-9)  # the zoo's padding of an empty vector
    empty = np.flatnonzero(np.abs(emb).max(axis=1) < 1e-8)
    known = np.setdiff1d(np.arange(n), empty)

    def draw():  # a share oov_pairs of queries and positives are out-of-vocabulary words
        return np.where(rng.random(m) < oov_pairs, rng.choice(empty, m), rng.choice(known, m))

    return emb, draw(), draw()


def quantised(n: int, dim: int, m: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    emb = rng.integers(-1, 2, (n, dim)).astype(np.float32)
    emb[~emb.any(axis=1), 0] = 1.0
    return emb, rng.integers(0, n, m), rng.integers(0, n, m)


def evalrank_word(model_spec: str):
    """EvalRankWord's background encoded by ``model_spec``, and its (query, positive) rows."""
    import mteb

    from mteb_evalrank.integration.encoding import encode_texts
    from mteb_evalrank.integration.run import resolve_model

    model, _ = resolve_model(model_spec)
    task = mteb.get_task("EvalRankWord")
    task.load_data()
    data = task.data
    emb = encode_texts(
        model,
        data.texts,
        task_metadata=task.metadata,
        hf_split="test",
        hf_subset="all",
        encode_kwargs={},
        num_proc=None,
        allow_zero_rows=False,
    )
    return np.asarray(emb), np.asarray(data.query_idx), np.asarray(data.positive_idx)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=("rp", "quantised"), default="rp")
    parser.add_argument("--model", default=None, help="rank EvalRankWord as encoded by this model instead")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, help="rank only every k-th pair")
    parser.add_argument("--n-background", type=int, default=22_207)  # EvalRankWord's background
    parser.add_argument("--n-queries", type=int, default=5_514)  # EvalRankWord's directed pairs
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--rp-nonzeros", type=float, default=5.6)
    parser.add_argument("--oov", type=float, default=0.338)
    parser.add_argument("--oov-pairs", type=float, default=0.106)
    args = parser.parse_args()

    from mteb_evalrank.metrics.ranking import evalrank_ranks

    n, dim, m = args.n_background, args.dim, args.n_queries
    if args.model:
        real = evalrank_word(args.model)
        (n, dim), m = real[0].shape, real[1].size
        emb = np.random.default_rng(1).standard_normal((n, dim), dtype=np.float32)
        data = {"dense": (emb, real[1], real[2]), "ties": real}
        args.kind = args.model
    elif args.kind == "rp":
        data = {
            "dense": dense(n, dim, m, seed=1),
            "ties": random_projection_words(n, dim, m, args.rp_nonzeros, args.oov, args.oov_pairs),
        }
    else:
        data = {"dense": dense(n, dim, m, seed=1), "ties": quantised(n, dim, m)}
    if args.every > 1:  # every k-th pair only (to time a slow implementation on part of the pairs)
        data = {k: (e, q[:: args.every], p[:: args.every]) for k, (e, q, p) in data.items()}
        m = data["ties"][1].size
    runs: dict[str, list[float]] = {"dense": [], "ties": []}
    results = {}
    for _ in range(args.repeats):
        for name, (emb, q, p) in data.items():
            t0 = time.perf_counter()
            results[name] = evalrank_ranks(emb, q, p)
            runs[name].append(time.perf_counter() - t0)

    try:
        from threadpoolctl import threadpool_info

        threads = max((p.get("num_threads") or 0 for p in threadpool_info() if p.get("user_api") == "blas"), default=0)
    except ImportError:  # optional
        threads = "unknown"

    dense_s, ties_s = statistics.median(runs["dense"]), statistics.median(runs["ties"])
    tie = results["ties"]
    print(f"kind={args.kind}")
    print(f"dense_s={dense_s:.3f}")
    print(f"ties_s={ties_s:.3f}")
    print(f"ratio={ties_s / dense_s:.2f}")
    print(f"dense_runs_s={','.join(f'{r:.3f}' for r in runs['dense'])}")
    print(f"ties_runs_s={','.join(f'{r:.3f}' for r in runs['ties'])}")
    print(f"ties_path={'tie' if tie.refined.get('tie_path') else 'float32'}")
    print(f"ties_decided_exactly={tie.refined.get('tie_decided', 0)}")
    print(f"ties_refined_stage2={tie.refined['stage2']}")
    print(f"ties_refined_stage3={tie.refined['stage3']}")
    print(f"ties_cos_mrr={float(np.mean(1.0 / tie.cos)):.6f}")
    print(f"ties_l2_mrr={float(np.mean(1.0 / tie.l2)):.6f}")
    print(f"ties_ranks_digest={hashlib.sha256(np.stack([tie.cos, tie.l2]).astype('<i8').tobytes()).hexdigest()[:16]}")
    print(f"dense_refined_stage2={results['dense'].refined['stage2']}")
    print(f"n_queries={m}")
    print(f"n_background={n}")
    print(f"dim={dim}")
    print(f"ties_n_distinct={tie.n_distinct}")
    print(f"blas_threads={threads}")


if __name__ == "__main__":
    main()
