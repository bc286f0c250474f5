"""Rank vectors stay chunked: results do not depend on the chunk, and memory stays O(chunk × corpus)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics import rank_vectors as rv


def _data(n=60, m=300, d=8, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(m, d))


def test_chunk_cap_does_not_change_results(monkeypatch):
    a, b, corpus = _data()
    full_u = rv.rank_vectors(a, corpus)
    full_pairs = rv.rank_similarity_pairs(a, b, corpus)
    monkeypatch.setattr(rv, "MAX_CHUNK_ELEMENTS", 700)  # 2 rows of 300 per chunk
    assert np.array_equal(rv.rank_vectors(a, corpus), full_u)
    assert np.allclose(rv.rank_similarity_pairs(a, b, corpus), full_pairs, atol=1e-12)


def test_wrapper_vectors_are_written_in_place_and_equal_the_concatenation():
    a, _, corpus = _data()
    for lam in (0.0, 0.1, 0.9, 1.0):
        got = rv.rank_encoder_embeddings(a, corpus, lam)
        u = rv.rank_vectors(a, corpus)
        e = a / np.linalg.norm(a, axis=1, keepdims=True)
        assert got.dtype == np.float32 and got.shape == (len(a), len(corpus) + a.shape[1])
        assert np.allclose(got, np.hstack([np.sqrt(lam) * u, np.sqrt(1 - lam) * e]), atol=1e-6)
        assert np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)
    with pytest.raises(InputError, match="out has shape"):
        rv.rank_vectors(a, corpus, out=np.empty((2, 2), dtype=np.float32))


def test_pair_scoring_never_holds_the_full_rank_matrix(monkeypatch):
    a, b, corpus = _data(n=400, m=3000)
    monkeypatch.setattr(rv, "MAX_CHUNK_ELEMENTS", 16 * 3000)  # 16 rows per chunk
    full_matrix_bytes = 2 * 400 * 3000 * 8  # both sides' rank vectors in float64
    tracemalloc.start()
    rv.rank_similarity_pairs(a, b, corpus)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < full_matrix_bytes / 4
