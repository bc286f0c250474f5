"""``mteb_evalrank.RankEncoder``: the RankEncoder wrapper whose corpus goes through the disk embedding cache.

:class:`mteb_evalrank.models.rank_encoder.RankEncoder` (layer 2) may not touch files; it takes the
corpus encoding as an injected ``corpus_encoder``.  This subclass injects
:func:`mteb_evalrank.data.embedding_cache.encode_corpus`, so a corpus is encoded once per base model
name, revision and corpus fingerprint and memory-mapped by every later RankEncoder (any λ) and every
later run.  Bases without a name in their ``mteb_model_meta`` are encoded without the cache.  This is
the only seam to change when the corpus cache moves into the zoo's embedding store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mteb_evalrank.models.rank_encoder import RankEncoder as _RankEncoder


def cached_corpus_encoder(base: Any, *, progress: bool = True) -> Callable[[list[str]], np.ndarray]:
    """``texts -> (m, d)`` embeddings of ``base`` through the plugin's disk cache."""
    from mteb_evalrank.data.embedding_cache import encode_corpus
    from mteb_evalrank.integration.rankencoder_spec import _CorpusMetadata

    def encode(texts: list[str]) -> np.ndarray:
        return encode_corpus(base, texts, task_metadata=_CorpusMetadata(), progress=progress)

    return encode


class RankEncoder(_RankEncoder):
    """:class:`mteb_evalrank.models.rank_encoder.RankEncoder` with the corpus cached on disk (``use_cache=False``: in memory only)."""

    def __init__(
        self, base: Any, corpus: Sequence[str], *, weight: float = 0.1, use_cache: bool = True, **kwargs: Any
    ) -> None:
        if use_cache and kwargs.get("corpus_encoder") is None:
            kwargs["corpus_encoder"] = cached_corpus_encoder(base)
        super().__init__(base, corpus, weight=weight, **kwargs)
