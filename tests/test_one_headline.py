"""Issue 44: what MTEB shows is the score the task defines.

MTEB's ``TaskResult.get_score()`` — and with it ``to_dataframe()``, benchmark summaries, the Gradio app and
``mteb.api`` — averages ``main_score`` over a task's subsets.  Every plugin task therefore has one subset, and
a task made of parts (EvalRank's sources, STS12-16's sub-datasets, HEROS's edit types) keeps them inside it
(``scores_per_source`` / ``scores_per_edit``).  These tests check that MTEB's number is the plugin's number for
every plugin task, and that ``migrate-results`` turns a folder of the old layout (``all`` plus its parts as
subsets; the real files of the study's GloVe model, kept in ``tests/fixtures/legacy_results``) into the new one
without losing a figure.  The servers (Gradio app, ``mteb.api``) are checked on the same fixture scores in
``test_leaderboard_app.py`` and ``test_leaderboard_api.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import mteb
import numpy as np
import pytest
from results_fixture import model_meta, task_score, task_scores

from mteb_evalrank.data.result_layout import HEADLINE_SUBSET
from mteb_evalrank.errors import InputError
from mteb_evalrank.integration import item_values
from mteb_evalrank.integration.registry import plugin_tasks
from mteb_evalrank.integration.result_migration import migrate_results
from mteb_evalrank.metrics.heros import SUBSETS as EDITS
from mteb_evalrank.reports.results_reader import ScoreName, read_score

LEGACY = Path(__file__).parent / "fixtures" / "legacy_results"
GLOVE = ("zoo__glove-50d__mean", "e0020c1332ae")
#: EvalRankWord of zoo:glove-50d/mean: the MRR over all 5,514 pairs, and what MTEB showed for the old layout
#: (the mean of that MRR with the MRRs of its 13 sources), both read off the fixture's 'all' entry and subsets
HEADLINE_MRR = 0.087606


def _legacy_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "res"
    shutil.copytree(LEGACY, folder / "results")
    return folder


def _result(folder: Path, task: str) -> Path:
    return folder / "results" / GLOVE[0] / GLOVE[1] / f"{task}.json"


@pytest.mark.parametrize("task_cls", plugin_tasks(), ids=[c.metadata.name for c in plugin_tasks()])
def test_every_plugin_task_has_one_subset_and_mteb_shows_its_headline(task_cls, tmp_path):
    task = task_cls()
    assert task.hf_subsets == [HEADLINE_SUBSET] or len(task.hf_subsets) == 1, task.hf_subsets
    scores = task_scores(task, np.random.default_rng(7))
    tr = mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0)
    cache = mteb.ResultCache(tmp_path)
    cache.save_to_cache(tr, model_meta("org/model", "rev1"))
    name = task.metadata.name
    plugin = read_score(tr.scores, ScoreName(name))
    assert plugin == pytest.approx(task_score(scores))
    loaded = cache.load_results(tasks=[name], include_remote=False)
    frame = loaded.to_dataframe()
    (stored,) = loaded.model_results[0].task_results
    assert stored.get_score() == pytest.approx(plugin) == tr.get_score()
    assert float(frame.iloc[0, -1]) == pytest.approx(plugin)
    from mteb_evalrank.reports.leaderboard import _score

    assert _score(stored) == pytest.approx(plugin)  # the plugin's HTML report
    from mteb_evalrank.integration.score_table import task_scores_rows

    rows = task_scores_rows([stored])
    assert rows[0]["main_score"] == pytest.approx(plugin)
    parts = [r for r in rows[1:] if r["subset"].startswith("  ")]  # the breakdown, printed under the headline
    assert len(parts) == len(rows) - 1


def test_the_old_layout_made_mteb_show_another_number(tmp_path):
    """Today's files fail what the issue asks: MTEB averaged the whole with its parts."""
    folder = _legacy_folder(tmp_path)
    data = json.loads(_result(folder, "EvalRankWord").read_text())
    assert read_score(data["scores"], ScoreName("EvalRankWord")) == HEADLINE_MRR
    mteb_mean = float(np.mean([e["main_score"] for e in data["scores"]["test"]]))
    assert len(data["scores"]["test"]) == 14 and abs(mteb_mean - HEADLINE_MRR) > 0.01  # 0.1029 vs 0.0876


def test_migrate_results_converts_a_folder_once_and_loses_nothing(tmp_path, capsys):
    from mteb_evalrank.cli import main

    folder = _legacy_folder(tmp_path)
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    old = {t: json.loads(_result(folder, t).read_text()) for t in ("EvalRankWord", "SentEvalSTS13")}

    assert main(["migrate-results", str(folder), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would convert" in out and "2 result file(s) and 1 run-settings file(s) would convert" in out
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before  # a dry run writes nothing

    assert main(["migrate-results", str(folder)]) == 0
    assert "2 result file(s) and 1 run-settings file(s) converted" in capsys.readouterr().out
    for task, legacy in old.items():
        new = json.loads(_result(folder, task).read_text())
        (entry,) = new["scores"]["test"]
        whole = next(e for e in legacy["scores"]["test"] if e["hf_subset"] == "all")
        assert entry["hf_subset"] == HEADLINE_SUBSET
        assert {k: v for k, v in entry.items() if k not in ("hf_subset", "scores_per_source")} == {
            k: v for k, v in whole.items() if k != "hf_subset"
        }  # the headline entry is the old 'all' entry, unchanged
        parts = entry["scores_per_source"]
        olds = {e["hf_subset"]: e for e in legacy["scores"]["test"] if e["hf_subset"] != "all"}
        assert set(parts) == set(olds)
        for name, part in parts.items():  # every figure of every part is kept
            assert all(olds[name][k] == v for k, v in part.items())
            assert part["main_score"] == olds[name]["main_score"]
        tr = mteb.TaskResult.from_disk(_result(folder, task))
        assert tr.get_score() == whole["main_score"]  # what every MTEB view shows now
    assert mteb.TaskResult.from_disk(_result(folder, "EvalRankWord")).get_score() == HEADLINE_MRR
    settings = folder / "results" / GLOVE[0] / GLOVE[1] / "run_settings.jsonl"
    assert {json.dumps(json.loads(line)["subsets"]) for line in settings.read_text().splitlines()} == {'["default"]'}
    loaded = mteb.ResultCache(folder).load_results(tasks=["EvalRankWord", "SentEvalSTS13"], include_remote=False)
    frame = loaded.to_dataframe()
    assert float(frame.loc[frame["task_name"] == "EvalRankWord"].iloc[0, -1]) == HEADLINE_MRR

    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert main(["migrate-results", str(folder)]) == 0  # idempotent
    assert "0 result file(s) and 0 run-settings file(s) converted" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == after


def test_migrating_heros_computes_its_headline_and_items(tmp_path):
    """An old HEROS file (six edit subsets) becomes one entry whose main score is synonym − negation, and its
    items file gives the per-sentence differences under the digest a new run would write."""
    rng = np.random.default_rng(0)
    folder = tmp_path / "res"
    rev = folder / "results" / "org__m" / "r1"
    rev.mkdir(parents=True)
    means = {e: round(float(rng.uniform(0.1, 0.9)), 6) for e in EDITS}
    readings = {"negation_minus_synonym": round(means["negation_main"] - means["synonym"], 6)}
    entries = [
        {"hf_subset": e, "languages": ["eng-Latn"], "normalized_cosine": v, "cosine": v, "main_score": v, "num_pairs": 4,
         "baseline": 0.1, "normalized_cosine_se": 0.01, "subset_mean_se": 0.005, "dataset_fingerprint": "abc", **readings}
        for e, v in means.items()
    ]  # fmt: skip
    path = rev / "HEROS.json"
    meta = {"task_name": "HEROS", "dataset_revision": "0929565", "mteb_version": "2.26.24", "evaluation_time": 1.0}
    path.write_text(json.dumps({**meta, "scores": {"test": entries}}))
    per_item = {e: rng.uniform(0, 1, 4) for e in EDITS}
    digests = {e: item_values.items_digest([f"{e}-{i}" for i in range(4)]) for e in EDITS}
    item_values.write_items(
        item_values.items_path(path),
        "HEROS",
        {
            ("test", e): item_values.SubsetItems(
                values={"cosine": per_item[e], "normalized_cosine": per_item[e]},
                digest=digests[e],
                scores={"normalized_cosine": means[e]},
            )
            for e in EDITS
        },
    )
    plans, _ = migrate_results(folder)
    assert [p.task for p in plans] == ["HEROS"]
    (entry,) = json.loads(path.read_text())["scores"]["test"]
    gap = means["synonym"] - means["negation_main"]
    assert entry["main_score"] == entry["synonym_minus_negation"] == pytest.approx(gap)
    assert entry["negation_minus_synonym"] == readings["negation_minus_synonym"] and entry["baseline"] == 0.1
    assert "synonym_minus_negation_se" not in entry  # not in an old file: never made up
    assert entry["scores_per_edit"]["typo"] == {
        "normalized_cosine": means["typo"], "cosine": means["typo"], "main_score": means["typo"], "num_pairs": 4,
        "normalized_cosine_se": 0.01,
    }  # fmt: skip
    assert mteb.TaskResult.from_disk(path).get_score() == pytest.approx(gap)
    items = item_values.read_items(item_values.items_path(path))
    (item,) = items.values()
    assert list(items) == [("test", HEADLINE_SUBSET)]
    assert item.values["synonym_minus_negation"] == pytest.approx(per_item["synonym"] - per_item["negation_main"])
    assert item.digest == item_values.items_digest([digests[e] for e in EDITS])  # as tasks/heros.py computes it


def test_a_submission_of_the_old_layout_is_refused_with_the_command_that_fixes_it(tmp_path):
    from mteb_evalrank.reports.submission import prepare_submission

    folder = _legacy_folder(tmp_path)
    with pytest.raises(InputError, match="nothing to submit") as info:  # both files rejected: nothing written
        prepare_submission(folder, tmp_path / "sub")
    assert f"mteb-evalrank migrate-results {folder / 'results'}" in str(info.value)
    assert not any((tmp_path / "sub").rglob("*.json"))  # no result copied
    migrate_results(folder)
    assert prepare_submission(folder, tmp_path / "sub2").rejected == []


def test_migrate_results_of_a_missing_folder_is_one_line(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        migrate_results(tmp_path / "nope")
