"""``prepare-submission`` refuses what the results repository's CI (``tests/run_settings_check.py``) would fail:
a result whose ``run_settings.jsonl`` is missing or does not cover each (task, split, subset) it scores, or one
written by mteb < 2.0.  One line on stderr naming the results and what they lack, exit status 2, nothing written.

The folders are written with MTEB's own objects (``results_fixture.write_results``: ``ResultCache.save_to_cache``
writes ``run_settings.jsonl`` as ``mteb run`` does), then damaged the way an old or hand-assembled folder is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from results_fixture import MODELS, model_folder, write_results

from mteb_evalrank.cli import main
from mteb_evalrank.reports.submission import CHECK_FILE, RUN_SETTINGS, prepare_submission

TASKS = ("EvalRankSent", "HEROS")


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "res"
    write_results(root, models=MODELS[:2], tasks=TASKS)
    return root


def _refused(capsys, root: Path, out: Path) -> str:
    assert main(["prepare-submission", str(root), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert not (out / "results").exists() or not any((out / "results").rglob("*"))  # nothing copied
    return err[0]


def test_complete_run_settings_are_copied(folder, tmp_path):
    sub = prepare_submission(folder, tmp_path / "sub")
    assert sub.run_settings_gaps == [] and sorted(sub.models) == sorted(MODELS[:2])
    for name, revision in MODELS[:2]:
        target = model_folder(tmp_path / "sub", name, revision)
        assert (target / RUN_SETTINGS).read_bytes() == (
            model_folder(folder, name, revision) / RUN_SETTINGS
        ).read_bytes()
    assert "Refused" not in (tmp_path / "sub" / CHECK_FILE).read_text()


def test_a_missing_run_settings_file_is_refused(folder, tmp_path, capsys):
    (model_folder(folder, *MODELS[1]) / RUN_SETTINGS).unlink()
    line = _refused(capsys, folder, tmp_path / "sub")
    assert line.startswith(
        "mteb-evalrank: error: 2 result file(s) lack the run settings the results repository's CI requires"
    )
    for task in TASKS:
        assert f"{model_folder(folder, *MODELS[1]) / task}.json: no {RUN_SETTINGS}" in line
    assert str(model_folder(folder, *MODELS[0])) not in line  # the complete model is not named
    assert not (tmp_path / "sub").exists()  # a refused submission writes nothing (not even SUBMISSION_CHECK.md)


def test_a_subset_missing_from_run_settings_is_named(folder, tmp_path, capsys):
    settings = model_folder(folder, *MODELS[0]) / RUN_SETTINGS
    entries = [json.loads(line) for line in settings.read_text().splitlines() if line.strip()]
    heros = next(e for e in entries if e["task"] == "HEROS")
    dropped = heros["subsets"].pop()  # as an older run that evaluated one subset fewer would have written
    settings.write_text("".join(json.dumps(e) + "\n" for e in entries))
    line = _refused(capsys, folder, tmp_path / "sub")
    assert line.startswith("mteb-evalrank: error: 1 result file(s)")
    assert f"{model_folder(folder, *MODELS[0]) / 'HEROS'}.json: test/{dropped} not in {RUN_SETTINGS}" in line
    assert not (tmp_path / "sub" / CHECK_FILE).exists()


def test_a_result_of_mteb_1_is_refused(folder, tmp_path, capsys):
    path = model_folder(folder, *MODELS[0]) / "EvalRankSent.json"
    data = json.loads(path.read_text())
    data["mteb_version"] = "1.12.0"
    path.write_text(json.dumps(data))
    line = _refused(capsys, folder, tmp_path / "sub")
    assert f"{path}: written by mteb 1.12.0, the results repository needs mteb >= 2.0.0" in line


def test_a_run_settings_line_that_is_not_json(folder, tmp_path, capsys):
    settings = model_folder(folder, *MODELS[0]) / RUN_SETTINGS
    settings.write_text(settings.read_text() + "{not json\n")
    line = _refused(capsys, folder, tmp_path / "sub")
    assert f"{RUN_SETTINGS} line 3 is not JSON" in line
