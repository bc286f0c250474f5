"""The one reader of results folders as typed records (issue 45, requirement 2): ``read_records`` yields one
:class:`ResultRecord` per scored entry, reads each folder's ``model_meta.json`` and ``run_settings.jsonl`` once,
with one policy (a bad run-settings line is named in ``RunSettings.problem``: the reports skip and list it, the
submission refuses), and result folder names are made in one place (``results/folders.py``).

The folders are written with MTEB's own objects (``results_fixture.write_results``), then damaged."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from results_fixture import MODELS, model_folder, write_results

from mteb_evalrank.errors import EvalRankWarning
from mteb_evalrank.results import record as record_module
from mteb_evalrank.results.folders import model_folder_name, revision_folder
from mteb_evalrank.results.record import RunSettings, read_records

TASKS = ("EvalRankSent", "HEROS")


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("records") / "res"
    return root, write_results(root, models=MODELS[:2], tasks=TASKS)


def test_one_record_per_entry_with_every_field(written):
    root, scores = written
    read = read_records(root)
    assert read.skipped == [] and read.problems == []
    assert len(read.records) == sum(
        len(subsets) for tasks in scores.values() for splits in tasks.values() for subsets in splits.values()
    )
    ((name, revision),) = [k for k in scores if k[0] == MODELS[0][0]]
    rec = next(r for r in read.records if r.model == name and r.task == "EvalRankSent")
    written_entry = scores[(name, revision)]["EvalRankSent"][rec.split][rec.subset]
    assert rec.revision == revision and rec.experiment is None and rec.label == name
    assert rec.main_score == pytest.approx(written_entry["main_score"])
    assert rec.main_metric == "mrr"  # the first score equal to main_score
    assert rec.breakdown_key == "scores_per_source" and set(rec.parts) == set(written_entry["scores_per_source"])
    assert "scores_per_source" not in rec.scores and rec.entry["scores_per_source"] == rec.parts
    assert rec.model_meta is not None and rec.model_meta["name"] == name
    assert rec.path == model_folder(root, name, revision) / "EvalRankSent.json"
    assert rec.run_settings.problem is None and rec.run_settings.values["task"] == "EvalRankSent"
    assert rec.run_settings.values["encode_kwargs"] == {"batch_size": 32}
    heros = next(r for r in read.records if r.model == name and r.task == "HEROS")
    assert heros.breakdown_key == "scores_per_edit" and "synonym" in heros.parts


def test_task_filter_and_one_file(written):
    root, _ = written
    only = read_records(root, task="HEROS")
    assert {r.task for r in only.records} == {"HEROS"} and len(only.files()) == 2
    one = next(iter(only.files()))
    assert [r.path for r in read_records(one).records] == [one]


def test_metadata_and_run_settings_are_read_once_per_folder(written, monkeypatch):
    root, _ = written
    calls: dict[str, int] = {}
    real_meta = record_module.read_folder_files

    def counting(folder):
        calls[str(folder)] = calls.get(str(folder), 0) + 1
        return real_meta(folder)

    monkeypatch.setattr(record_module, "read_folder_files", counting)
    read = read_records(root)
    assert len(read.files()) == 2 * len(TASKS) and sorted(calls.values()) == [1, 1]


def test_uncertainty_from_stored_se_and_ci():
    u = record_module.uncertainty_of({"mrr": 0.5, "mrr_se": 0.01, "mrr_ci_low": 0.48, "mrr_ci_high": 0.52})
    assert u.se == {"mrr": 0.01} and u.ci == {"mrr": (0.48, 0.52)} and u.items_path is None
    from mteb_evalrank.metrics.sampling_error import binomial_se

    formula = record_module.uncertainty_of({"main_score": 0.8, "accuracy": 0.8, "ntest": 100})
    assert formula.se == {"main_score": binomial_se(0.8, 100), "accuracy": binomial_se(0.8, 100)} and not formula.ci


def _damaged(tmp_path) -> tuple[Path, Path]:
    root = tmp_path / "res"
    write_results(root, models=MODELS[:1], tasks=TASKS)
    folder = model_folder(root, *MODELS[0])
    settings = folder / "run_settings.jsonl"
    settings.write_text(settings.read_text() + "{not json\n")
    return root, settings


def test_a_bad_run_settings_line_is_named_once(tmp_path):
    root, settings = _damaged(tmp_path)
    with pytest.warns(EvalRankWarning, match="run settings not used"):
        read = read_records(root)
    assert len(read.records) == 2  # the results are still read
    problems = {r.run_settings.problem for r in read.records}
    assert len(problems) == 1 and "line 3 is not JSON" in problems.pop()
    assert read.problems == [(str(settings), read.records[0].run_settings.problem)]
    assert all(r.run_settings.values == {} and r.run_settings.lines == () for r in read.records)


def test_the_leaderboard_skips_and_lists_it_the_submission_refuses(tmp_path):
    from mteb_evalrank.reports import leaderboard
    from mteb_evalrank.reports.submission import run_settings_gaps

    root, settings = _damaged(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = leaderboard.collect(root)
    skipped = [s for s in data.skipped if s.path == settings]
    assert len(skipped) == 1 and skipped[0].reason.startswith("run settings not used: run_settings.jsonl line 3")
    assert data.models[0].run_settings == []  # skipped: no line of it is used
    gaps = run_settings_gaps(sorted(model_folder(root, *MODELS[0]).glob("*.json"))[:1])
    assert len(gaps) == 1 and gaps[0].problems == [
        "run_settings.jsonl line 3 is not JSON (Expecting property name enclosed in double quotes)"
    ]


def test_a_bad_model_meta_is_listed_and_the_folder_names_stand(tmp_path):
    root = tmp_path / "res"
    write_results(root, models=MODELS[:1], tasks=("EvalRankSent",))
    folder = model_folder(root, *MODELS[0])
    (folder / "model_meta.json").write_text(json.dumps({"name": 5, "revision": "x"}))
    with pytest.warns(EvalRankWarning, match="using the folder names"):
        read = read_records(root)
    rec = read.records[0]
    assert rec.model_meta is None and rec.model == MODELS[0][0] and rec.revision == MODELS[0][1]
    assert read.problems[0][0] == str(folder / "model_meta.json") and "'name'" in read.problems[0][1]


def test_experiments_layout(tmp_path):
    folder = tmp_path / "results" / "org__m" / "r1" / "experiments" / "opt"
    folder.mkdir(parents=True)
    (folder / "HEROS.json").write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [{"main_score": 0.5}]}}))
    rec = read_records(tmp_path, mteb_check=False).records[0]
    assert (rec.model, rec.revision, rec.experiment, rec.label) == ("org/m", "r1", "opt", "org/m [opt]")
    assert rec.subset == "default" and rec.run_settings == RunSettings()


@pytest.mark.parametrize("name", ["org/model", "org/my model", "plain", "a/b/c"])
def test_result_folder_names_follow_mteb(name, tmp_path):
    from mteb.models import ModelMeta

    meta = ModelMeta.model_construct(name=name)
    assert model_folder_name(name) == meta.model_name_as_path()
    assert revision_folder(tmp_path, name, "r") == tmp_path / "results" / meta.model_name_as_path() / "r"


def test_model_list_finds_results_under_mteb_folder_name(tmp_path):
    """A model name with a space: MTEB files it under ``org__my_model`` (the hand-made name missed it)."""
    from mteb_evalrank.integration.model_list import has_result

    class Model:
        name, revision = "org/my model", "r1"

    folder = revision_folder(tmp_path, Model.name, "r1")
    folder.mkdir(parents=True)
    (folder / "EvalRankSent.json").write_text("{}")
    assert folder.parent.name == "org__my_model" and has_result(tmp_path, Model(), "EvalRankSent")
