"""Speed and memory of the exact EvalRank ranking core at EvalRankSent scale (synthetic data).

Prints ``name=value`` lines, all measured in this one run:

- ``ranking_s``: wall time of :func:`mteb_evalrank.metrics.ranking.evalrank_ranks` (validation, centring,
  deduplication, cos and l2 ranks together), median of ``--repeats`` runs (target <= 2 s here)
- ``ranking_runs_s``: the individual runs (to judge noise on a shared machine)
- ``peak_rss_mb``: peak resident memory of this process (``resource.getrusage``), data included;
  ``peak_rss_before_ranking_mb``: the same just before the first ranking call (data generation)
- ``data_mb``: size of the float32 embedding matrix itself
- ``n_queries``, ``n_background``, ``dim``, ``n_distinct`` (background rows left after exact
  deduplication), ``blas_threads``
- ``gemm_s``: the bare float32 product of the same query rows with the background (the filter's
  floor), median of as many runs, interleaved with the ranking runs; ``ranking_over_gemm`` the ratio
  (a machine-independent measure of what the exact ranking adds on top of BLAS)
- ``refined_stage2`` / ``refined_stage3``: (pair, item) comparisons the float32 filter could not
  decide within its rounding bound, re-scored in float64 / then in exact integers (both metrics)

Data: 24,957 background rows × 384 dims (standard normal, float32), 6,989 directed pairs whose
positive is a noisy copy of the query, ~3% of the other rows replaced by exact copies of random
rows (real models produce identical embeddings; the core deduplicates them).
Usage: ``python benchmarks/ranking_speed.py [--repeats 3] [--chunk-size N]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np


def synthetic(n_background: int, n_pairs: int, dim: int, dup_share: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((n_background, dim), dtype=np.float32)
    half = (n_pairs + 1) // 2  # undirected pairs (a, a + half); both directions are queries
    emb[half : 2 * half] = emb[:half] + np.float32(0.8) * rng.standard_normal((half, dim), dtype=np.float32)
    n_dup = int(dup_share * n_background)
    src = rng.integers(0, n_background, n_dup)
    dst = rng.integers(2 * half, n_background, n_dup)  # copies never overwrite a pair's rows
    emb[dst] = emb[src]
    a = np.arange(half)
    query = np.concatenate([a, a + half])[:n_pairs]
    positive = np.concatenate([a + half, a])[:n_pairs]
    return emb, query, positive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chunk-size", type=int, default=None)
    parser.add_argument("--n-background", type=int, default=24_957)
    parser.add_argument("--n-queries", type=int, default=6_989)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--dup-share", type=float, default=0.03)
    args = parser.parse_args()

    from mteb_evalrank.metrics.ranking import evalrank_ranks

    emb, query, positive = synthetic(args.n_background, args.n_queries, args.dim, args.dup_share)
    before_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    runs, gemm_runs = [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        res = evalrank_ranks(emb, query, positive, chunk_size=args.chunk_size)
        runs.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for s in range(0, len(query), 512):
            emb[query[s : s + 512]] @ emb.T
        gemm_runs.append(time.perf_counter() - t0)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

    try:
        from threadpoolctl import threadpool_info

        threads = max((p.get("num_threads") or 0 for p in threadpool_info() if p.get("user_api") == "blas"), default=0)
    except ImportError:  # optional
        threads = "unknown"

    print(f"ranking_s={statistics.median(runs):.3f}")
    print(f"ranking_runs_s={','.join(f'{r:.3f}' for r in runs)}")
    print(f"gemm_s={statistics.median(gemm_runs):.3f}")
    print(f"ranking_over_gemm={statistics.median(runs) / statistics.median(gemm_runs):.2f}")
    print(f"peak_rss_mb={peak_mb:.0f}")
    print(f"peak_rss_before_ranking_mb={before_mb:.0f}")
    print(f"data_mb={emb.nbytes / 2**20:.0f}")
    print(f"n_queries={len(query)}")
    print(f"n_background={emb.shape[0]}")
    print(f"dim={emb.shape[1]}")
    print(f"n_distinct={res.n_distinct}")
    print(f"blas_threads={threads}")
    print(f"refined_stage2={res.refined['stage2']}")
    print(f"refined_stage3={res.refined['stage3']}")
    print(f"cos_mrr={float(np.mean(1.0 / res.cos)):.4f}")


if __name__ == "__main__":
    main()
