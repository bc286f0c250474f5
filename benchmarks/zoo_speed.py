"""Every installed zoo variant on EvalRankSent, cold then warm: forward passes, times, cache size.

Prints ``name=value`` lines, all measured in this one run (a fresh embedding cache and results
folder in a temporary directory, unless ``--cache`` is given):

- ``variants``: the installed zoo variants run; ``unique_texts``: distinct sentences of EvalRankSent
- ``forward_texts_<base>``: texts the base's network processed during the cold run, and
  ``forward_per_text_<base>`` = that / unique texts (must be 1.0: one pass per text for all the
  variants of a base, plus the texts of a fitting corpus for whitened variants, counted separately
  as ``fit_texts``)
- ``cold_s``: all variants, empty caches; ``warm_s``: the same again in a new results folder with
  the embedding cache kept (nothing is encoded: ``warm_forward_texts`` must be 0)
- ``warm_over_cold``: warm_s / cold_s
- ``cache_bytes`` / ``cache_mb``: the embedding cache on disk after the run

Usage: ``python benchmarks/zoo_speed.py [--variants study|all|minilm-l6 ...] [--batch-size 64]``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def _ensure_data_env() -> None:
    if os.environ.get("MTEB_EVALRANK_DATA") or os.environ.get("MTEB_EVALRANK_SOURCES"):
        return
    shared = Path(__file__).resolve().parents[2] / "shared" / "data" / "sources"
    if shared.is_dir():
        os.environ["MTEB_EVALRANK_SOURCES"] = str(shared)


def _run_all(variants, task, results: Path, batch_size: int) -> float:
    import mteb

    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.zoo.adapter import load_zoo_variant
    from mteb_evalrank.zoo.variants import VARIANTS

    cache = open_result_cache(results)
    start = time.perf_counter()
    for name in variants:
        model = load_zoo_variant(VARIANTS[name].mteb_name)
        result = mteb.evaluate(
            model,
            [task],
            cache=cache,
            overwrite_strategy="always",
            encode_kwargs={"batch_size": batch_size, "show_progress_bar": False},
            show_progress_bar=False,
        )
        if result.exceptions:
            raise SystemExit(f"{name}: {result.exceptions[0].exception}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", default=["study"])
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--cache", default=None, help="embedding cache folder (default: a fresh temporary one)")
    args = parser.parse_args()
    _ensure_data_env()
    tmp = tempfile.TemporaryDirectory(prefix="zoo-speed-")
    cache_root = Path(args.cache) if args.cache else Path(tmp.name) / "cache"
    os.environ["MTEB_EVALRANK_CACHE"] = str(cache_root)

    import mteb

    from mteb_evalrank.integration.study import select_variants
    from mteb_evalrank.zoo import adapter as wiring
    from mteb_evalrank.zoo.variants import FORWARD_COUNTER, VARIANTS

    variants = select_variants(args.variants)
    task = mteb.get_task("EvalRankSent")
    task.load_data()
    unique = len(set(task.data.texts))
    fit_texts = len(wiring.fit_corpus_texts("mrpc-train"))
    print(f"variants={len(variants)}")
    print(f"unique_texts={unique}")

    before = dict(FORWARD_COUNTER.by_base)
    cold = _run_all(variants, task, Path(tmp.name) / "cold", args.batch_size)
    bases = sorted({VARIANTS[v].base for v in variants} & set(FORWARD_COUNTER.by_base))
    for base in bases:
        n = FORWARD_COUNTER.by_base[base] - before.get(base, 0)
        whitened = any(VARIANTS[v].whiten is not None and VARIANTS[v].base == base for v in variants)
        fit = fit_texts if whitened else 0
        print(f"forward_texts_{base}={n}")
        print(f"fit_texts_{base}={fit}")
        if unique:
            print(f"forward_per_text_{base}={(n - fit) / unique:.3f}")
    print(f"cold_s={cold:.1f}")

    wiring.clear_process_state()  # a new process: nothing in memory, everything on disk
    from mteb_evalrank.zoo import embedding_store

    embedding_store._OPEN.clear()
    before_warm = sum(FORWARD_COUNTER.by_base.values())
    warm = _run_all(variants, task, Path(tmp.name) / "warm", args.batch_size)
    print(f"warm_s={warm:.1f}")
    print(f"warm_forward_texts={sum(FORWARD_COUNTER.by_base.values()) - before_warm}")
    print(f"warm_over_cold={warm / cold:.3f}")
    size = wiring.cache_size_bytes(cache_root / "embeddings")
    print(f"cache_bytes={size}")
    print(f"cache_mb={size / 2**20:.1f}")


if __name__ == "__main__":
    main()
