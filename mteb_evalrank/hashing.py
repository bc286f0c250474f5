"""SHA-256 of files — the one place the package hashes a file's bytes (layer 0: standard library only).

Every layer may import it (like :mod:`mteb_evalrank.errors`): download and cache checksums
(``data/files``), dataset fingerprints (``data/resolution``), model folder and word-vector revisions
(``models/resolve``).

- :func:`update_with_file` — feed a file's bytes into a running ``hashlib`` object (block-wise), for
  digests over several files;
- :func:`file_sha256` — the hex SHA-256 of one file, optionally shortened and optionally cached per
  (path, size, mtime) in this process;
- :func:`files_sha256` — a short hash over the contents of several files (order matters);
- :func:`corpus_fingerprint` — a short hash of a list of texts (the embedding cache's key, RankEncoder's corpus).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_BLOCK = 1 << 20
_CACHE: dict[tuple[str, int, int], str] = {}


def update_with_file(h: Any, path: str | os.PathLike) -> None:
    """Feed the bytes of ``path`` into the hash object ``h`` (``hashlib.sha256()`` etc.), 1 MiB at a time."""
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_BLOCK), b""):
            h.update(block)


def file_sha256(path: str | os.PathLike, *, length: int = 64, cached: bool = False) -> str:
    """Hex SHA-256 of a file's bytes, the first ``length`` hex digits (64: all of it).

    ``cached=True`` remembers the digest per resolved path, size and modification time in this process
    (model files hashed for a revision over and over); checksums that must see a file changed on disk
    behind its metadata (downloads, cache shards) leave it off.
    """
    if not cached:
        h = hashlib.sha256()
        update_with_file(h, path)
        return h.hexdigest()[:length]
    p = Path(path).resolve()
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        _CACHE[key] = file_sha256(p)
    return _CACHE[key][:length]


def files_sha256(paths: Sequence[str | os.PathLike], *, length: int = 12) -> str:
    """Short hash over the contents of several files (order matters); one file: its own (cached) digest."""
    if len(paths) == 1:
        return file_sha256(paths[0], length=length, cached=True)
    h = hashlib.sha256()
    for p in paths:
        h.update(file_sha256(p, cached=True).encode())
    return h.hexdigest()[:length]


def corpus_fingerprint(texts: Sequence[str], *, length: int = 16) -> str:
    """The first ``length`` hex digits of SHA-256 over the texts in order, each UTF-8 encoded and followed by
    ``"\\n"`` (16 digits: the embedding cache's key; RankEncoder's revision keeps 12)."""
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:length]


__all__ = ["corpus_fingerprint", "file_sha256", "files_sha256", "update_with_file"]
