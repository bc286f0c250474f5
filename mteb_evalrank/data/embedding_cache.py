"""Corpus embeddings on disk: encode once, memory-map afterwards.

A corpus is encoded block by block straight into ``<key>.npy.partial`` (``np.lib.format.open_memmap``),
so a 1M × 768 float32 corpus is never held in RAM twice.  A sidecar ``<key>.progress.json`` records
how many rows are final; an interrupted encode resumes from there (or restarts if the sidecar is
missing or does not match).  Only when every row is written is the file flushed and renamed to
``<key>.npy`` — a file with the final name is always complete.  Two processes that need the same
entry at once take turns (``<key>.lock``): the second one finds the finished file.

The key is ``model name + revision + corpus fingerprint`` (see :func:`cache_key`), under
``mteb_evalrank.data.paths.cache_dir() / "embeddings"``; a second query sample, a larger k or another
comparison reuses the file without calling the model.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import move_file, replace_file
from mteb_evalrank.data.files import file_lock
from mteb_evalrank.data.paths import cache_dir
from mteb_evalrank.errors import InputError
from mteb_evalrank.hashing import corpus_fingerprint

logger = logging.getLogger(__name__)

DEFAULT_BLOCK = 8192


def cache_key(model_name: str, revision: str | None, fingerprint: str) -> str:
    """File stem: readable model slug + hash of (name, revision, fingerprint)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_name)[-60:]
    digest = hashlib.sha256(f"{model_name}\0{revision}\0{fingerprint}".encode()).hexdigest()[:16]
    return f"{slug}-{digest}"


def embeddings_dir(root: Path | None = None) -> Path:
    """The embedding cache's folder: `root` when given, else `<plugin cache>/embeddings`."""
    return Path(root) if root is not None else cache_dir() / "embeddings"


def cached_embeddings(
    encode_block: Callable[[list[str]], np.ndarray],
    texts: Sequence[str],
    *,
    key: str,
    root: Path | None = None,
    block_size: int = DEFAULT_BLOCK,
    progress: bool = False,
    verify: int = 4,
) -> np.ndarray:
    """Return a read-only memmap of the embeddings of ``texts``, encoding missing rows with ``encode_block``.

    ``encode_block(list_of_texts) -> (len, d) float32`` is called once per block of ``block_size``
    texts that is not on disk yet.  The dimension is taken from the first block.  On a cache hit the
    first ``verify`` texts are re-encoded (one tiny call) and compared with the stored rows, so that two
    model variants that share a name and revision (e.g. word vectors with different stop words) never
    silently share embeddings; ``verify=0`` skips the check.
    """
    texts = list(texts)
    if not texts:
        raise InputError("nothing to encode (empty corpus).")
    folder = embeddings_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"{key}.npy"
    if final.is_file():
        arr = np.load(final, mmap_mode="r")
        if arr.shape[0] == len(texts) and _probe_matches(encode_block, texts, arr, verify):
            return arr
        if arr.shape[0] != len(texts):
            logger.warning("%s has %d rows, expected %d; re-encoding.", final, arr.shape[0], len(texts))
            final.unlink()
        else:  # same name/revision/corpus but different vectors: a model variant sharing a name
            probe = np.asarray(encode_block(texts[:verify]), dtype=np.float32)
            variant = hashlib.sha256(np.round(probe, 2).tobytes()).hexdigest()[:8]
            logger.warning(
                "cached embeddings %s do not match this model's output (a variant with the same name and "
                "revision?); using a separate cache entry (%s).",
                final,
                variant,
            )
            return cached_embeddings(
                encode_block,
                texts,
                key=f"{key}-v{variant}",
                root=root,
                block_size=block_size,
                progress=progress,
                verify=verify,
            )
    # one writer per cache entry: a second process (two runs of one model at once) waits here, then
    # finds the finished file instead of writing into the same .partial
    with file_lock(folder / f"{key}.lock"):
        finished_meanwhile = final.is_file()
        if not finished_meanwhile:
            _encode_into(encode_block, texts, folder=folder, key=key, block_size=block_size, progress=progress)
    if finished_meanwhile:  # written by another run while this one waited: the usual cache-hit checks
        return cached_embeddings(
            encode_block, texts, key=key, root=root, block_size=block_size, progress=progress, verify=verify
        )
    return np.load(final, mmap_mode="r")


def _encode_into(encode_block, texts: list[str], *, folder: Path, key: str, block_size: int, progress: bool) -> None:
    """Encode ``texts`` block by block into ``<key>.npy.partial`` (resuming), then rename it to ``<key>.npy``."""
    final = folder / f"{key}.npy"
    partial = folder / f"{key}.npy.partial"
    sidecar = folder / f"{key}.progress.json"
    done, out = _resume(partial, sidecar, len(texts))
    blocks = range(done, len(texts), block_size)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(texts), initial=done, desc="encoding corpus", unit="sent")
    try:
        for start in blocks:
            chunk = texts[start : start + block_size]
            emb = np.asarray(encode_block(chunk), dtype=np.float32)
            if emb.ndim != 2 or emb.shape[0] != len(chunk):
                raise InputError(f"encoder returned shape {emb.shape} for {len(chunk)} texts.")
            if out is None:
                out = np.lib.format.open_memmap(partial, mode="w+", dtype=np.float32, shape=(len(texts), emb.shape[1]))
            elif out.shape[1] != emb.shape[1]:
                raise InputError(f"encoder dimension changed from {out.shape[1]} to {emb.shape[1]}.")
            out[start : start + len(chunk)] = emb
            out.flush()
            _write_json(sidecar, {"rows_done": start + len(chunk), "rows": len(texts), "dim": int(out.shape[1])})
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
    out.flush()
    del out
    move_file(partial, final)  # the finished memmap, written in place chunk by chunk, becomes the cache file
    sidecar.unlink(missing_ok=True)


def _probe_matches(encode_block, texts: list[str], arr: np.ndarray, verify: int) -> bool:
    if verify <= 0:
        return True
    probe = np.asarray(encode_block(texts[:verify]), dtype=np.float32)
    stored = np.asarray(arr[: len(probe)], dtype=np.float32)
    return probe.shape == stored.shape and bool(np.allclose(probe, stored, rtol=1e-3, atol=1e-4))


def _resume(partial: Path, sidecar: Path, rows: int) -> tuple[int, Any]:
    """(rows already written, open memmap or None) from an interrupted run; stale files are removed."""
    if partial.is_file() and sidecar.is_file():
        try:
            info = json.loads(sidecar.read_text())
            arr = np.load(partial, mmap_mode="r+")
            if info.get("rows") == rows and arr.shape == (rows, info.get("dim")) and 0 < info["rows_done"] <= rows:
                logger.info("resuming %s at row %d of %d", partial, info["rows_done"], rows)
                return int(info["rows_done"]), arr
        except (OSError, ValueError, KeyError):
            pass
    partial.unlink(missing_ok=True)
    sidecar.unlink(missing_ok=True)
    return 0, None


def _write_json(path: Path, data: dict) -> None:
    replace_file(path, json.dumps(data))


def model_identity(model: Any) -> tuple[str | None, str | None]:
    """(name, revision) of an MTEB encoder from its ``mteb_model_meta`` (None when unknown)."""
    meta = getattr(model, "mteb_model_meta", None)
    return getattr(meta, "name", None), getattr(meta, "revision", None)


def encode_corpus(
    model: Any,
    texts: Sequence[str],
    *,
    task_metadata: Any,
    fingerprint: str | None = None,
    use_cache: bool = True,
    root: Path | None = None,
    encode_kwargs: dict | None = None,
    block_size: int = DEFAULT_BLOCK,
    progress: bool = False,
    hf_split: str = "test",
    hf_subset: str = "default",
) -> np.ndarray:
    """Embeddings of unique ``texts`` with an MTEB encoder, through the disk cache when possible.

    Each block is one :func:`mteb_evalrank.integration.encoding.encode_texts` call (checked output).  Models
    without a name in their ``mteb_model_meta`` are encoded without the cache (no safe key).
    """
    from mteb_evalrank.integration.encoding import encode_texts

    def encode_block(chunk: list[str]) -> np.ndarray:
        return encode_texts(
            model,
            chunk,
            task_metadata=task_metadata,
            hf_split=hf_split,
            hf_subset=hf_subset,
            encode_kwargs=encode_kwargs,
        )

    name, revision = model_identity(model)
    if not use_cache or not name:
        if use_cache:
            logger.warning("model has no name in its mteb_model_meta: embeddings are not cached.")
        return encode_block(list(texts))
    fingerprint = fingerprint or corpus_fingerprint(texts)
    return cached_embeddings(
        encode_block,
        texts,
        key=cache_key(name, revision, fingerprint),
        root=root,
        block_size=block_size,
        progress=progress,
    )
