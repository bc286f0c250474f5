"""A cross-task, checksummed text → vector store: a cache backend for MTEB's ``CachedEmbeddingWrapper``.

MTEB's :class:`~mteb.models.cache_wrappers.CachedEmbeddingWrapper` looks every input up in a cache
backend (``mteb.models.cache_wrappers.cache_backend_protocol.CacheBackendProtocol``: ``add``,
``get_vector``, ``save``, ``load``, ``close``, ``__contains__``) and encodes only the misses.  Its
own ``NumpyCache`` keeps one cache *per task*; a sentence that occurs in EvalRankSent and in STS-B
is then encoded twice, and an interrupted encode loses everything since the last ``save``.  This
backend keeps one store per (model, revision, layout) that every task shares:

- keys are MTEB's own item hashes (:func:`mteb._content_hashes.hash_item`, SHA-256 of the text);
- vectors are appended in immutable shards ``<id>.npy`` with a sidecar ``<id>.json`` (keys, shape,
  SHA-256 of the ``.npy``) written after the shard, each by an atomic rename: a shard without a
  sidecar is an interrupted write and is discarded; a shard whose checksum or shape disagrees with
  its sidecar is reported, deleted and its texts encoded again — never used;
- ``store.json`` records model, revision, layout and dimension: a store written by another
  revision is refused with an error naming both;
- ``load`` picks up shards written since, also by other processes (shards of a study shared by
  several machines or SLURM array jobs), so a text is encoded once wherever it was first needed.

:func:`store_backend` turns one store into the ``cache_backend`` argument of
``CachedEmbeddingWrapper`` (which asks for one backend per task directory; all of them are this
store).
"""

from __future__ import annotations

import json
import os
import re
import uuid
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import discard, move_file, replace_file, temporary_sibling
from mteb_evalrank.data.files import file_sha256
from mteb_evalrank.errors import InputError

_SAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def safe_name(text: str) -> str:
    """A folder name for a model or variant name (``org/name`` → ``org__name``)."""
    return _SAFE.sub("_", text.replace("/", "__"))


def text_key(text: str) -> str:
    """The key of a text: MTEB's item hash, so this store and MTEB's caches agree."""
    from mteb._content_hashes import hash_item

    return hash_item({"text": text})


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    replace_file(path, data, durable=True)


class EmbeddingStore:
    """Text → float32 vector store of one model revision and layout, shared by every task.

    Args:
        directory: the store's folder (created).
        model: model name (recorded; checked on reopening).
        revision: model revision; a folder written by another revision raises :class:`InputError`.
        layout: what a vector holds (e.g. the zoo's pooled blocks ``("cls", "mean:6")``); recorded.
        dim: vector length.
    """

    def __init__(self, directory: str | Path, *, model: str, revision: str, layout: Sequence[str], dim: int) -> None:
        self.directory = Path(directory)
        self.identity = {"model": model, "revision": revision, "layout": list(layout), "dim": int(dim)}
        self.dim = int(dim)
        self._index: dict[str, tuple[int, int]] = {}  # key -> (shard number, row)
        self._shards: list[np.ndarray] = []
        self._known: set[str] = set()  # shard ids already read
        self._pending_keys: list[str] = []
        self._pending_rows: list[np.ndarray] = []
        self._pending_set: set[str] = set()
        self.rebuilt: list[str] = []  # corrupt shards found and removed (for reports and tests)
        self._open()

    # -- identity --------------------------------------------------------------------------------
    def _open(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        meta_path = self.directory / "store.json"
        if meta_path.exists():
            try:
                found = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise InputError(f"embedding cache {meta_path} is unreadable ({exc}); delete the folder.") from None
            for field in ("model", "revision", "layout", "dim"):
                if found.get(field) != self.identity[field]:
                    raise InputError(
                        f"embedding cache {self.directory} was written by {found.get('model')} revision "
                        f"{found.get('revision')} (layout {found.get('layout')}, dim {found.get('dim')}), "
                        f"not by {self.identity['model']} revision {self.identity['revision']} "
                        f"(layout {self.identity['layout']}, dim {self.dim}); delete it or use another cache folder."
                    )
        else:
            _atomic_write_bytes(meta_path, json.dumps(self.identity, indent=1).encode())
        self.load()

    # -- CacheBackendProtocol --------------------------------------------------------------------
    def load(self) -> None:
        """Read shards not read yet; discard interrupted writes and corrupt shards (with a warning)."""
        sidecars = {p.stem: p for p in self.directory.glob("shard-*.json")}
        for npy in self.directory.glob("shard-*.npy"):
            if npy.stem not in sidecars and npy.stem not in self._known:
                npy.unlink(missing_ok=True)  # written, but its sidecar never was: an interrupted save
        for tmp in self.directory.glob(".shard-*.tmp*"):
            tmp.unlink(missing_ok=True)
        for stem in sorted(sidecars):
            if stem in self._known:
                continue
            self._read_shard(stem, sidecars[stem])

    def _read_shard(self, stem: str, sidecar: Path) -> None:
        npy = sidecar.with_suffix(".npy")
        problem = None
        try:
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
            keys = meta["keys"]
            if not npy.exists():
                problem = "its vectors file is missing"
            elif file_sha256(npy) != meta["sha256"]:
                problem = "checksum mismatch"
            else:
                arr = np.load(npy, mmap_mode="r", allow_pickle=False)
                if arr.shape != (len(keys), self.dim) or arr.dtype != np.float32:
                    problem = f"shape {arr.shape} {arr.dtype}, expected ({len(keys)}, {self.dim}) float32"
        except (OSError, ValueError, KeyError) as exc:
            problem = f"unreadable ({type(exc).__name__}: {exc})"
        if problem is not None:
            warnings.warn(
                f"corrupt embedding cache file {npy} ({problem}): deleted, its texts will be encoded again.",
                stacklevel=3,
            )
            npy.unlink(missing_ok=True)
            sidecar.unlink(missing_ok=True)
            self.rebuilt.append(str(npy))
            return
        self._known.add(stem)
        number = len(self._shards)
        self._shards.append(arr)
        for row, key in enumerate(keys):
            self._index.setdefault(key, (number, row))

    def add(self, items: list[dict[str, Any]], vectors: Any) -> None:
        """Queue vectors for items not stored yet (already stored items are skipped)."""
        from mteb._content_hashes import hash_item

        self.add_keys([hash_item(item) for item in items], vectors)

    def add_keys(self, keys: Sequence[str], vectors: Any) -> None:
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim == 1:
            vectors = vectors[None, :]
        if vectors.shape != (len(keys), self.dim):
            raise InputError(
                f"embedding cache: got vectors of shape {vectors.shape} for {len(keys)} texts of dim {self.dim}."
            )
        for key, row in zip(keys, vectors):
            if key in self._index or key in self._pending_set:
                continue
            self._pending_keys.append(key)
            self._pending_rows.append(row)
            self._pending_set.add(key)

    def get_vector(self, item: dict[str, Any]) -> np.ndarray | None:
        from mteb._content_hashes import hash_item

        return self.get_key(hash_item(item))

    def get_key(self, key: str) -> np.ndarray | None:
        where = self._index.get(key)
        if where is not None:
            return self._shards[where[0]][where[1]]
        if key in self._pending_set:
            return self._pending_rows[self._pending_keys.index(key)]
        return None

    def __contains__(self, item: dict[str, Any]) -> bool:
        from mteb._content_hashes import hash_item

        key = hash_item(item)
        return key in self._index or key in self._pending_set

    def save(self) -> None:
        """Write queued vectors as one new shard (vectors first, then the sidecar; both atomic)."""
        if not self._pending_keys:
            return
        arr = np.ascontiguousarray(np.stack(self._pending_rows), dtype=np.float32)
        stem = f"shard-{uuid.uuid4().hex[:16]}"
        npy = self.directory / f"{stem}.npy"
        tmp = temporary_sibling(npy)  # .shard-<id>.<random>.tmp.npy: removed by load() when a save was interrupted
        try:
            with open(tmp, "wb") as fh:
                np.save(fh, arr, allow_pickle=False)
                fh.flush()
                os.fsync(fh.fileno())
            move_file(tmp, npy)
        finally:
            discard([tmp])
        meta = {"keys": self._pending_keys, "rows": int(arr.shape[0]), "dim": self.dim, "sha256": file_sha256(npy)}
        _atomic_write_bytes(npy.with_suffix(".json"), json.dumps(meta).encode())
        self._known.add(stem)
        number = len(self._shards)
        self._shards.append(np.load(npy, mmap_mode="r", allow_pickle=False))
        for row, key in enumerate(self._pending_keys):
            self._index.setdefault(key, (number, row))
        self._pending_keys, self._pending_rows, self._pending_set = [], [], set()

    def close(self) -> None:
        self.save()

    # -- conveniences ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._index) + len(self._pending_set)

    def size_bytes(self) -> int:
        """Bytes on disk (vectors, sidecars and store.json)."""
        return sum(p.stat().st_size for p in self.directory.iterdir() if p.is_file())


_OPEN: dict[Path, EmbeddingStore] = {}


def open_store(directory: str | Path, *, model: str, revision: str, layout: Sequence[str], dim: int) -> EmbeddingStore:
    """The process-wide store of a folder (one instance per folder, so all tasks share its index)."""
    path = Path(directory).resolve()
    store = _OPEN.get(path)
    if store is None or store.identity != {
        "model": model,
        "revision": revision,
        "layout": list(layout),
        "dim": int(dim),
    }:
        store = EmbeddingStore(path, model=model, revision=revision, layout=layout, dim=dim)
        _OPEN[path] = store
    else:
        store.load()
    return store


def store_backend(store: EmbeddingStore) -> Callable[..., EmbeddingStore]:
    """``cache_backend`` for ``CachedEmbeddingWrapper``: every per-task directory maps to ``store``."""

    def backend(directory: Path | None = None, **kwargs: Any) -> EmbeddingStore:
        return store

    return backend
