"""Results that answer another question, read alike by every reader (issue 47; tests/sweeps/sweep_holdout48.py
``shape-*``): a result holding only another split or a subset the task does not have, a ``model_meta.json``
naming another model than its folder, and main scores out of range or not finite (``ranks`` and
``prepare-submission`` as ``correlate`` and ``report``)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from results_fixture import MODELS, model_folder, write_results

from mteb_evalrank.errors import EvalRankWarning, InputError

GLOVE = ("local/glove.6B.50d", "8def0747613c")
TASKS = ["EvalRankWord", "SentEvalMR"]
#: edits of glove's SentEvalMR.json: a validation split only (SentEvalMR is evaluated on test), a subset it lacks
OTHER_QUESTION = {
    "validation_only": lambda d: d.update(scores={"validation": d["scores"]["test"]}),
    "subset_fr": lambda d: d["scores"]["test"][0].update(hf_subset="fr"),
}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("seeded48")
    write_results(root, models=(*MODELS, GLOVE), tasks=TASKS)
    return root


def _copy_with(seeded: Path, tmp_path: Path, edit, file: str = "SentEvalMR.json") -> tuple[Path, Path]:
    root = tmp_path / "R"
    shutil.copytree(seeded, root)
    path = model_folder(root, *GLOVE) / file
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return root, path


def test_the_task_question_rule():
    from mteb_evalrank.results.record import task_question, unanswered_problem

    assert task_question("SentEvalMR") == (("test",), frozenset({"default"}))
    assert task_question("NoSuchTask") is None
    assert unanswered_problem("SentEvalMR", {"test": [{"hf_subset": "default"}]}) is None
    assert unanswered_problem("SentEvalMR", {"test": [{"hf_subset": "fr"}, {"hf_subset": "default"}]}) is None
    assert unanswered_problem("NoSuchTask", {"validation": [{"hf_subset": "x"}]}) is None  # nothing to check
    problem = unanswered_problem("SentEvalMR", {"validation": [{"hf_subset": "default"}]})
    assert problem is not None and "validation/default, none of SentEvalMR's evaluation split and subset" in problem
    assert "(test/default)" in problem
    assert "test/fr" in (unanswered_problem("SentEvalMR", {"test": [{"hf_subset": "fr"}]}) or "")
    # the layout before one-headline results (migrate-results converts it) still answers the evaluation split
    assert unanswered_problem("EvalRankWord", {"test": [{"hf_subset": "all"}, {"hf_subset": "MEN"}]}) is None
    edits = [{"hf_subset": s, "normalized_cosine": 0.5} for s in ("synonym", "negation_main")]
    assert unanswered_problem("HEROS", {"test": edits}) is None
    assert unanswered_problem("HEROS", {"validation": edits}) is not None


@pytest.mark.parametrize("shape", sorted(OTHER_QUESTION))
def test_a_result_of_another_split_or_subset_is_skipped_by_every_reader(seeded, tmp_path, shape):
    """Before: read as SentEvalMR's score by correlate, report and ranks (sweep_holdout48 shape-*-validation_split_only,
    shape-*-subset_other).  Now the reader's one rule skips it with a warning naming the file; the submission
    rejects it (it asks for every evaluation split and subset)."""
    from mteb_evalrank.reports.leaderboard import collect
    from mteb_evalrank.reports.ranks import rank_models
    from mteb_evalrank.reports.results_reader import read_results_folder
    from mteb_evalrank.reports.submission import prepare_submission

    root, path = _copy_with(seeded, tmp_path, OTHER_QUESTION[shape])
    fragment = "none of SentEvalMR's evaluation split and subset (test/default): not the task's score"
    with pytest.warns(
        EvalRankWarning, match=f"skipped {re.escape(str(path))}: it holds scores of .*{re.escape(fragment)}"
    ):
        folder = read_results_folder(root)
    assert {r["model"] for r in folder.records if r["task"] == "SentEvalMR"} == {m for m, _ in MODELS}
    data = collect(root)
    assert any(s.path == path and fragment in s.reason for s in data.skipped), data.skipped
    assert all("SentEvalMR" not in m.results for m in data.models if m.name == GLOVE[0])
    with pytest.warns(EvalRankWarning, match=f"skipped {re.escape(str(path))}"):
        report = rank_models(root, tasks=["SentEvalMR"], n_resamples=100)
    assert GLOVE[0] not in report.result.models and len(report.result.models) == len(MODELS)
    sub = prepare_submission(root, tmp_path / "sub")
    # the submission asks more (every evaluation split and subset, as the results repository): rejected
    assert any(f.path == path and "missing splits/subsets: test: default" in f.reason for f in sub.rejected)


def test_a_model_meta_naming_another_model_than_its_folder_is_not_used(seeded, tmp_path):
    """Before: glove's scores were read as a second revision of all-MiniLM-L6-v2 (sweep_holdout48
    shape-cor-meta-other, shape-report-meta-other).  Now every reader warns once naming the file and reads the
    folder names."""
    from mteb_evalrank.reports.leaderboard import collect
    from mteb_evalrank.reports.results_reader import read_results_folder

    root, meta = _copy_with(seeded, tmp_path, lambda d: d.update(name=MODELS[0][0]), file="model_meta.json")
    fragment = f"model_meta.json names {MODELS[0][0]!r}, another model than its folder local__glove.6B.50d"
    with pytest.warns(EvalRankWarning, match=f"{re.escape(f'{meta}: {fragment}')}.*using the folder names") as caught:
        folder = read_results_folder(root)
    assert {r["model"] for r in folder.records} == {GLOVE[0], *(m for m, _ in MODELS)}
    assert not any("2 revisions" in str(w.message) for w in caught)
    data = collect(root)
    assert {m.name for m in data.models} == {GLOVE[0], *(m for m, _ in MODELS)}
    assert any(s.path == meta and fragment in s.reason for s in data.skipped), data.skipped


def test_ranks_reads_main_scores_by_the_rule_of_every_reader(seeded, tmp_path):
    """Before: ``ranks`` ranked an accuracy of 53.9 (percent) or -0.2 without a word (sweep_holdout48
    shape-ranks-main_percent, -main_negative); now refused as ``correlate`` refuses it.  An infinite main score is
    missing with the warning of every reader, and the model is left out."""
    from mteb_evalrank.reports.ranks import rank_models

    for value in (53.9, -0.2):
        root, _ = _copy_with(
            seeded, tmp_path / str(value), lambda d, v=value: d["scores"]["test"][0].update(main_score=v, accuracy=v)
        )
        with pytest.raises(InputError, match=rf"score default.accuracy is {value}, outside \[0, 1\]"):
            rank_models(root, tasks=["SentEvalMR"], n_resamples=100)
    root, path = _copy_with(seeded, tmp_path / "inf", lambda d: d["scores"]["test"][0].update(main_score=float("inf")))
    with pytest.warns(EvalRankWarning, match=re.escape(f"{path}: score default.main_score is inf; counted as missing")):
        report = rank_models(root, tasks=["SentEvalMR"], n_resamples=100)
    assert GLOVE[0] not in report.result.models and len(report.result.models) == len(MODELS)


def test_prepare_submission_rejects_an_infinite_main_score(seeded, tmp_path):
    """Before: copied, not listed as rejected (sweep_holdout48 shape-submission-main_infinity)."""
    from mteb_evalrank.reports.submission import prepare_submission

    root, path = _copy_with(seeded, tmp_path, lambda d: d["scores"]["test"][0].update(main_score=float("inf")))
    sub = prepare_submission(root, tmp_path / "sub")
    assert [f.reason for f in sub.rejected if f.path == path] == [
        "no main score for split test, subset default (it is inf)"
    ]
    assert not any(p.name == "SentEvalMR.json" and "glove" in str(p) for p in sub.copied)
