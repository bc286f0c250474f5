"""The recipes of docs/contributing.md, each followed on a toy: if a recipe stops working, its test fails.

- add a task: a toy task class (four sentence pairs with gold scores, cosine vs gold Spearman), registered
  with the plugin's registry and run with ``mteb.evaluate`` on a tiny in-memory model;
- add a statistic: a toy statistic module that passes the layer rule, computed on scores read through
  the results reader;
- add a report: a toy Markdown report of one task, read through the results reader.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import mteb
from mteb_evalrank.reports.results_reader import open_score_source, result_identity, revision_labels, task_result_files
from results_fixture import model_meta, task_score, write_results

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


PAIRS = [("a cat sat", "a cat sat down", 4.5), ("a dog ran", "the dog ran fast", 3.0),
         ("red apple", "blue sky", 0.5), ("green tea", "green tea leaves", 4.0)]  # fmt: skip


def _toy_task_class():
    from mteb_evalrank.tasks._base import EncodeOnceTask, PluginTaskMetadata

    class ToyPairs(EncodeOnceTask):
        """Cosine of sentence pairs against gold scores (Spearman), four in-memory pairs."""

        __module__ = "mteb_evalrank.tasks.toy_pairs"  # as if in tasks/toy_pairs.py, where the recipe puts it
        input_level = "sentence"
        downstream = False
        metadata = PluginTaskMetadata(
            name="ToyPairs", description="A toy similarity task of the contributing guide.",
            reference="https://example.org/toy", dataset={"path": "toy/pairs", "revision": "1"},
            type="STS", category="t2t", modalities=["text"], eval_splits=["test"], eval_langs=["eng-Latn"],
            main_score="cosine_spearman", date=("2024-01-01", "2024-01-02"), domains=["Written"],
            task_subtypes=[], license="cc0-1.0", annotations_creators="human-annotated", dialect=[],
            sample_creation="created", bibtex_citation="",
        )  # fmt: skip

        def _load(self, num_proc=None):
            return {"default": {"test": PAIRS}}

        def _compute_state(self, model, *, hf_split, encode_kwargs, num_proc, timer):
            from mteb_evalrank.integration.encoding import encode_texts
            from mteb_evalrank.metrics.similarity import paired_cosine

            texts = list(dict.fromkeys(t for a, b, _ in PAIRS for t in (a, b)))  # each unique text once
            emb = encode_texts(model, texts, task_metadata=self.metadata, hf_split=hf_split, hf_subset="default",
                               encode_kwargs=encode_kwargs, num_proc=num_proc)  # fmt: skip
            row = {t: i for i, t in enumerate(texts)}
            cos, _ = paired_cosine(emb[[row[a] for a, _, _ in PAIRS]], emb[[row[b] for _, b, _ in PAIRS]])
            return {"cos": cos, "gold": np.array([g for _, _, g in PAIRS])}

        def _score_subset(self, state, data_split, hf_subset):
            rho = float(stats.spearmanr(state["cos"], state["gold"]).statistic)
            return {"main_score": rho, "cosine_spearman": rho, "num_pairs": len(PAIRS)}

        def _calculate_descriptive_statistics_from_split(self, split, *, hf_subset=None, compute_overall=False,
                                                         num_proc=None):  # fmt: skip
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
    bad.write_text(TOY_STATISTIC.replace("import numpy as np\n", "import numpy as np\nfrom mteb_evalrank.reports import results_reader\n"),
                   encoding="utf-8")  # fmt: skip
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
    files = task_result_files(folder, task)
    labels = revision_labels((w.label, w.revision) for w in map(result_identity, files))
    scores = open_score_source(folder).matrix([task], revision_policy="separate")
    lines = [f"| model | {task} |", "|---|---|"]
    lines += [f"| {label} | {scores.loc[label, task]:.4f} |" for label in sorted(labels)]
    return "\n".join(lines) + "\n"


def test_add_a_report(tmp_path):
    models = [("toy/a", "rev-a1"), ("toy/a", "rev-a2"), ("toy/b", "rev-b")]
    written = write_results(tmp_path, models=models, tasks=["SentEvalSTSB"], seed=9)
    page = toy_report(tmp_path, "SentEvalSTSB")
    expected = [f"| {label} | {task_score(written[m]['SentEvalSTSB']):.4f} |"
                for label, m in sorted(zip(["toy/a@rev-a1", "toy/a@rev-a2", "toy/b"], models))]  # fmt: skip
    assert page.splitlines() == ["| model | SentEvalSTSB |", "|---|---|", *expected]
