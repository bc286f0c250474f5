"""Speed of :func:`mteb_evalrank.metrics.rank_intervals.rank_intervals` at leaderboard scale, in one run.

Data are generated in memory (nothing is read or written): ``--models`` models × ``--tasks`` tasks ×
``--items`` items per task, per-item values = a model effect + an item effect + noise (so models are
correlated item by item, as real models are), every task with 10 strata (like SentEval's folds); then
rank intervals and tie groups over ``--resamples`` replicates, tasks resampled too (a benchmark), MTEB's
mean aggregation.  Prints ``name=value`` lines:

- ``seconds``: wall time of ``rank_intervals``; ``cpu_seconds``: its process CPU time;
- ``ratio_to_60s``: ``seconds / 60`` (the requirement: under 60 s on 2 cores, so below 1);
- ``generate_seconds``: making the simulated data (not part of ``seconds``);
- ``groups``: tie groups found; ``median_interval_width``: the median of ``rank_high − rank_low``;
- ``seconds_borda``, ``ratio_borda_to_mean``: the same with the Borda aggregation (``--borda``).

Run: ``OMP_NUM_THREADS=2 python benchmarks/rank_intervals.py`` (defaults: 100 × 20 × 25,000 × 1,000).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mteb_evalrank.metrics.rank_intervals import TaskValues, rank_intervals


def simulated_tasks(n_models: int, n_tasks: int, n_items: int, seed: int = 0) -> list[TaskValues]:
    """Tasks of per-item values in [0, 1] (float32), model effects spread over 0.1, ten strata per task."""
    rng = np.random.default_rng(seed)
    effect = np.sort(rng.normal(0.0, 0.03, n_models)).astype(np.float32)
    strata = np.arange(n_items) % 10
    tasks = []
    for t in range(n_tasks):
        item = rng.normal(0.5, 0.2, (n_items, 1)).astype(np.float32)
        values = np.clip(item + effect + rng.normal(0.0, 0.1, (n_items, n_models)).astype(np.float32), 0, 1)
        tasks.append(TaskValues(f"task{t}", values.mean(axis=0, dtype=np.float64), values, strata=strata))
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--items", type=int, default=25_000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--borda", action="store_true", help="also time the Borda aggregation")
    args = parser.parse_args()
    start = time.perf_counter()
    tasks = simulated_tasks(args.models, args.tasks, args.items)
    generate = time.perf_counter() - start
    names = [f"m{i}" for i in range(args.models)]
    wall, cpu = time.perf_counter(), time.process_time()
    result = rank_intervals(names, tasks, n_resamples=args.resamples, resample_tasks=True)
    seconds, cpu_seconds = time.perf_counter() - wall, time.process_time() - cpu
    print(f"models={args.models} tasks={args.tasks} items={args.items} resamples={args.resamples}")
    print(f"seconds={seconds:.1f}")
    print(f"cpu_seconds={cpu_seconds:.1f}")
    print(f"ratio_to_60s={seconds / 60:.2f}")
    print(f"generate_seconds={generate:.1f}")
    print(f"groups={int(result.group.max())}")
    print(f"median_interval_width={float(np.median(result.rank_high - result.rank_low)):.1f}")
    if args.borda:
        wall = time.perf_counter()
        rank_intervals(names, tasks, n_resamples=args.resamples, resample_tasks=True, aggregation="borda")
        borda = time.perf_counter() - wall
        print(f"seconds_borda={borda:.1f}")
        print(f"ratio_borda_to_mean={borda / seconds:.2f}")


if __name__ == "__main__":
    main()
