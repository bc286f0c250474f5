"""Texts per second of every installed zoo base, and a copy check across them, in one run.

Texts: the first ``--n`` distinct sentences of STS-B's train file (``--n-slow`` for e5-small-4bit and
mpnet-base).  Each base runs its own forward through the zoo's ``PooledBaseEncoder`` (length-sorted
batches of 64, every block its variants need, no cache): ``speed_<base>=texts/s`` (wall clock) and
``texts_per_cpu_s_<base>`` (texts per CPU-second of this process, all its threads: less sensitive to
other jobs on a shared machine), with the 1-minute load average when the base started.  The bag-of-words
bases (GloVe, random-50d) have no forward pass and are measured through their encoder.

Copy check: for every pair of bases of *different* families, the Pearson correlation of the cosine
similarities their default pooling gives the same ``--copy-texts`` sentences
(``copy_structure_<a>__<b>``); a copy (even quantised or rotated) scores ~1.  The run fails (exit 1) if
any cross-family pair reaches 0.99.  ``--write`` stores the speeds in ``zoo/speeds.json`` with
today's date (the figures ``mteb-evalrank models --details`` shows).  The machine is shared: the
speeds are indicative.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from encode_throughput import sts_sentences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sources", type=Path, default=Path(os.environ.get("MTEB_EVALRANK_SOURCES", "../shared/data/sources"))
    )
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--n-slow", type=int, default=200)
    parser.add_argument("--copy-texts", type=int, default=200)
    parser.add_argument("--bases", nargs="*", default=None, help="only these bases")
    parser.add_argument("--write", action="store_true", help="store the speeds in zoo/speeds.json")
    args = parser.parse_args()

    from mteb_evalrank.integration.study import SLOW_BASES
    from mteb_evalrank.zoo import builds
    from mteb_evalrank.zoo.adapter import install_status
    from mteb_evalrank.zoo.catalogue import SPEEDS_FILE
    from mteb_evalrank.zoo.study_selection import base_sentence_vectors, copy_report
    from mteb_evalrank.zoo.variants import BASES

    texts = sts_sentences(args.sources, max(args.n, args.n_slow, args.copy_texts))
    speeds: dict[str, float] = {}
    vectors: dict[str, np.ndarray] = {}
    for name in sorted(BASES):
        if args.bases and name not in args.bases:
            continue
        status = install_status(BASES[name])
        if status != "installed":
            print(f"skipped_{name}={status}", flush=True)
            continue
        n = args.n_slow if name in SLOW_BASES else args.n
        base_sentence_vectors(name, texts[:8])  # load the network and warm up outside the timing
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), time.process_time()
        vecs = base_sentence_vectors(name, texts[:n])
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        speeds[name] = {"texts_per_s": n / wall, "texts_per_cpu_s": n / max(cpu, 1e-9), "load_average": load}
        vectors[name] = vecs[: args.copy_texts]
        print(
            f"speed_{name}={n / wall:.1f} texts_per_cpu_s_{name}={n / max(cpu, 1e-9):.1f} load_{name}={load:.1f}",
            flush=True,
        )
    worst = 0.0
    for (a, b), r in copy_report(vectors).items():
        print(f"copy_structure_{a}__{b}={r:.4f}", flush=True)
        worst = max(worst, r)
    print(f"copy_structure_max_cross_family={worst:.4f}")
    if args.write and speeds:
        builds.speeds_update(
            speeds,
            how=f"benchmarks/zoo_base_speed.py, {args.n} STS-B sentences "
            f"({args.n_slow} for slow bases), batch 64, 2 shared cores",
        )
        print(f"written={SPEEDS_FILE}")
    return 1 if worst >= 0.99 else 0


if __name__ == "__main__":
    raise SystemExit(main())
