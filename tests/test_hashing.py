"""One SHA-256 file-hashing function for the package (mteb_evalrank.hashing, layer 0).

The digests it gives are the ones the package recorded before it existed (revisions of word vectors
and model folders, dataset fingerprints and checksums are written into results and caches), so each
user is checked against a direct ``hashlib`` computation of the old formula.
"""

from __future__ import annotations

import hashlib
import os

import pytest

from mteb_evalrank.hashing import file_sha256, files_sha256, update_with_file


def _files(tmp_path):
    a = tmp_path / "a.bin"
    a.write_bytes(os.urandom(3 * (1 << 20) + 17))  # more than one 1 MiB block
    b = tmp_path / "sub" / "b.txt"
    b.parent.mkdir()
    b.write_text("hello\n", encoding="utf-8")
    return a, b


def test_file_sha256_is_hashlib_of_the_bytes(tmp_path):
    a, b = _files(tmp_path)
    full = hashlib.sha256(a.read_bytes()).hexdigest()
    assert file_sha256(a) == full and file_sha256(a, cached=True) == full
    assert file_sha256(a, length=12) == full[:12]
    h = hashlib.sha256(b"prefix")
    update_with_file(h, b)
    assert h.hexdigest() == hashlib.sha256(b"prefix" + b.read_bytes()).hexdigest()


def test_cache_sees_a_rewritten_file(tmp_path):
    a, _ = _files(tmp_path)
    first = file_sha256(a, cached=True)
    a.write_bytes(b"other content")
    os.utime(a, ns=(1, 1))  # a different size and mtime: a new cache key
    assert file_sha256(a, cached=True) == hashlib.sha256(b"other content").hexdigest() != first


@pytest.mark.integration
def test_files_sha256_keeps_the_revision_formula(tmp_path):
    """Word-vector revisions: one file -> its digest's first 12 hex digits; several -> SHA-256 over the
    files' full hex digests, concatenated in order."""
    a, b = _files(tmp_path)
    da, db = (hashlib.sha256(p.read_bytes()).hexdigest() for p in (a, b))
    assert files_sha256([a]) == da[:12]
    assert files_sha256([a, b]) == hashlib.sha256((da + db).encode()).hexdigest()[:12]
    assert files_sha256([b, a]) != files_sha256([a, b])


@pytest.mark.integration
def test_users_give_the_old_digests(tmp_path):
    """``models.resolve.folder_digest`` (model folder revisions), ``data.resolution.dataset_fingerprint``
    (recorded in every downstream score) and ``data.files.file_sha256`` (download and cache checksums)
    are computed with this module and give what the old hand-written loops gave."""
    from mteb_evalrank.data.files import file_sha256 as data_file_sha256
    from mteb_evalrank.data.resolution import dataset_fingerprint
    from mteb_evalrank.models.resolve import folder_digest

    a, b = _files(tmp_path)
    (tmp_path / "README.md").write_text("ignored", encoding="utf-8")
    old = hashlib.sha256()
    for rel, p in (("a.bin", a), ("sub/b.txt", b)):
        old.update(rel.encode() + b"\0" + hashlib.sha256(p.read_bytes()).hexdigest().encode() + b"\n")
    assert folder_digest(tmp_path) == old.hexdigest()[:12]

    pq = tmp_path / "data"
    (pq / "x").mkdir(parents=True)
    (pq / "x" / "train.parquet").write_bytes(b"PAR1 train")
    (pq / "test.parquet").write_bytes(b"PAR1 test")
    old = hashlib.sha256()
    for rel in ("test.parquet", "x/train.parquet"):
        old.update(rel.encode())
        old.update((pq / rel).read_bytes())
    assert dataset_fingerprint(pq) == old.hexdigest()[:16]
    assert data_file_sha256(a) == hashlib.sha256(a.read_bytes()).hexdigest()
