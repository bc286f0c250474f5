"""Build the word-level zoo's sets of vectors into the plugin cache (``mteb-evalrank build-word-models``).

Each buildable word set of ``mteb_evalrank/zoo/catalogue.json`` (a kind of
:mod:`mteb_evalrank.zoo.word_kinds` marked ``built``) has a recipe there (its ``weights``); the result goes
to ``<plugin cache>/word_models/<name>/<revision>/`` (the revision is a digest of the recipe, see
:func:`mteb_evalrank.zoo.word_zoo.base_revision`) with a ``manifest.json`` recording the recipe,
the versions actually used, the input digests, the vocabulary size and the build time.  Nothing
here is committed to the repository.  :data:`BUILDS` gives each built kind its build:

- **model2vec**: Model2Vec distillation (``model2vec.distill.distill_from_model``) of a local
  transformers folder.  All dimensions of one teacher share one forward pass over its vocabulary (the
  token embeddings are computed once, then PCA'd to each size).
- **spacy-wheel**, **spacy-vectors**: spaCy's vectors read from a wheel or an archive
  (:mod:`mteb_evalrank.zoo.spacy_vectors`).
- **word2vec / fasttext** (gensim) and **ppmi-svd** (numpy/scipy) on a corpus assembled from Debian
  packages (:mod:`mteb_evalrank.zoo.word_corpora`).  One worker thread and fixed seeds: a build is
  deterministic.

The copy check is :mod:`mteb_evalrank.zoo.word_copies`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import make_scratch_folder, replace_folder, scratch_folder
from mteb_evalrank.errors import InputError
from mteb_evalrank.hashing import file_sha256
from mteb_evalrank.zoo import spacy_vectors as spacy
from mteb_evalrank.zoo import word_zoo
from mteb_evalrank.zoo.word_corpora import corpus_file


@dataclass
class BuildResult:
    """The outcome of building one word base: state ("built", "already built", "failed"), time, vocabulary, folder."""

    name: str
    state: str  # "built", "already built", "failed"
    seconds: float = 0.0
    vocab_size: int | None = None
    folder: Path | None = None
    message: str = ""


# --- entry point ----------------------------------------------------------------------------------
def buildable() -> list[str]:
    """Names of the catalogue's word bases that need a build (their source kind is one of `BUILT_KINDS`)."""
    return [b["name"] for b in word_zoo.catalogue()["bases"] if b["source"]["kind"] in word_zoo.BUILT_KINDS]


def build_word_models(
    names: Sequence[str] | None = None,
    *,
    force: bool = False,
    spacy_wheel_dir: str | None = None,
    log: Callable[[str], None] = print,
) -> list[BuildResult]:
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
        results.append(_guarded(n, functools.partial(_build_one, n, spacy_wheel_dir=spacy_wheel_dir), log))

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


def _spacy_build(reader: Callable[..., tuple]) -> Callable[..., tuple[dict[str, Any], dict[str, Any], int]]:
    def build(
        name: str, src: dict[str, Any], *, spacy_wheel_dir: str | None
    ) -> tuple[dict[str, Any], dict[str, Any], int]:
        table, words, rows, inputs = reader(src, wheel_dir=spacy_wheel_dir)
        return {"table.npy": table, "rows.npy": rows, "words.txt": words}, inputs, len(words)

    return build


def _trained_build(trainer: Callable[[Path, dict[str, Any]], tuple[np.ndarray, list[str]]]):
    def build(
        name: str, src: dict[str, Any], *, spacy_wheel_dir: str | None
    ) -> tuple[dict[str, Any], dict[str, Any], int]:
        corpus, corpus_info = corpus_file(src["corpus"])
        matrix, words = trainer(corpus, src)
        return {"vectors.npy": matrix, "vocab.txt": words}, {"corpus": corpus_info}, len(words)

    return build


def _build_one(name: str, *, spacy_wheel_dir: str | None) -> BuildResult:
    src = word_zoo.entry(name)["source"]
    start = time.perf_counter()
    _check_requirements(name, src.get("requires", []))
    if src["kind"] not in BUILDS:
        raise InputError(f"{name}: no build for word-set kind {src['kind']!r}; known: {', '.join(sorted(BUILDS))}.")
    files, inputs, vocab = BUILDS[src["kind"]](name, src, spacy_wheel_dir=spacy_wheel_dir)
    folder = _write(
        name, files, {"inputs": inputs, "vocab_size": vocab, "seconds": round(time.perf_counter() - start, 1)}
    )
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
        hint = (
            " (or pip install 'mteb-evalrank[word-models]'; not model2vec[distill], which pins transformers<5.4)"
            if any(r.startswith(("skeletoken", "model2vec")) for r, _ in wrong)
            else ""
        )
        raise InputError(
            f"{name}: the recipe pins {', '.join(r for r, _ in wrong)} ({have}): "
            f"pip install {' '.join(r for r, _ in wrong)}{hint}"
        )


def _write(name: str, files: dict[str, Any], info: dict[str, Any]) -> Path:
    """Write ``files`` and the manifest into the base's folder, atomically (temp folder + rename)."""
    folder = word_zoo.built_folder(name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = make_scratch_folder(dir=folder.parent, prefix=f".{folder.name}-")
    try:
        for fname, value in files.items():
            if fname.endswith(".npy"):
                np.save(tmp / fname, np.ascontiguousarray(value))
            elif fname.endswith(".txt"):
                (tmp / fname).write_text("\n".join(value), encoding="utf-8")
            else:
                (tmp / fname).write_bytes(value)
        manifest = {
            "name": name,
            "revision": word_zoo.base_revision(name),
            "recipe": word_zoo.recipe(name),
            "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            **info,
            "files": {f: file_sha256(tmp / f) for f in sorted(files)},
        }
        (tmp / word_zoo.MANIFEST).write_text(json.dumps(manifest, indent=1, default=str), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        replace_folder(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return folder


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


def ppmi_svd(
    corpus: Path,
    *,
    window: int,
    min_count: int,
    max_vocab: int,
    context_smoothing: float,
    dim: int,
    eigenvalue_weight: float,
    seed: int,
) -> tuple[np.ndarray, list[str]]:
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
        raise InputError(
            f"Model2Vec distillation needs model2vec, skeletoken, torch and transformers ({exc}): "
            "pip install 'mteb-evalrank[word-models]'"
        ) from None
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
                    model=model,
                    tokenizer=tokenizer,  # type: ignore[arg-type]  # use_fast=True: a TokenizersBackend
                    pca_dims=int(src["pca_dims"]),
                    sif_coefficient=float(src["sif_coefficient"]),
                    token_remove_pattern=src["token_remove_pattern"],
                    quantize_to=src["quantize_to"],
                    pooling=src["pooling"],
                )
                table = np.asarray(static.embedding, dtype=np.float32)
                with scratch_folder() as tmp:
                    static.tokenizer.save(str(Path(tmp) / "tokenizer.json"))
                    tokenizer_json = (Path(tmp) / "tokenizer.json").read_bytes()
                info = {
                    "inputs": {"teacher": str(folder), "teacher_version": word_zoo.recipe(n).get("teacher")},
                    "vocab_size": int(table.shape[0]),
                    "seconds": round(time.perf_counter() - t0, 1),
                    "teacher_forward_seconds_shared": None,
                }
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


#: built word-set kind → its build ``(name, src, spacy_wheel_dir=) -> (files, inputs, vocabulary size)``;
#: ``model2vec`` builds by teacher (:func:`build_model2vec`), every size of one teacher from one forward pass
BUILDS: dict[str, Callable[..., tuple[dict[str, Any], dict[str, Any], int]]] = {
    "spacy-wheel": _spacy_build(spacy.spacy_vectors),
    "spacy-vectors": _spacy_build(spacy.archived_spacy_vectors),
    "word2vec": _trained_build(lambda corpus, src: train_gensim(corpus, "word2vec", src["params"])),
    "fasttext": _trained_build(lambda corpus, src: train_gensim(corpus, "fasttext", src["params"])),
    "ppmi-svd": _trained_build(lambda corpus, src: ppmi_svd(corpus, **src["params"])),
}


def format_results(results: Sequence[BuildResult]) -> str:
    """One line per build result, as `build-word-models` prints them."""
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
    """The cache setting the builds used (`MTEB_EVALRANK_CACHE`), for the build report."""
    return f"MTEB_EVALRANK_CACHE={os.environ.get('MTEB_EVALRANK_CACHE', '(default)')}"
