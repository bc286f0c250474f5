"""The one results reader (mteb_evalrank.reports.results_reader): model names and revisions from MTEB's
layouts, the revision policy, and one interface for a results folder and a plain score table."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest
from results_fixture import MODELS, task_score, write_results

from mteb_evalrank.errors import EvalRankWarning, InputError
from mteb_evalrank.reports.results_reader import (
    ResultsFolder,
    ScoreTable,
    choose_revisions,
    model_name_from_folder,
    open_score_source,
    result_identity,
    revision_labels,
    task_result_files,
)


def test_identity_from_folders_and_model_meta(tmp_path):
    plain = tmp_path / "results" / "org__name__with__sep" / "rev1" / "HEROS.json"
    exp = tmp_path / "results" / "org__m" / "rev2" / "experiments" / "pooling=mean" / "HEROS.json"
    meta = tmp_path / "results" / "Org__Real" / "rev3" / "HEROS.json"  # the meta's name, spelled in other case
    other = tmp_path / "results" / "org__folder" / "rev4" / "HEROS.json"  # a meta naming another model
    for p in (plain, exp, meta, other):
        p.parent.mkdir(parents=True)
        p.write_text("{}", encoding="utf-8")
    for p in (meta, other):
        (p.parent / "model_meta.json").write_text(json.dumps({"name": "org/real", "revision": "r-meta"}), "utf-8")
    assert model_name_from_folder("org__name__with__sep") == "org/name__with__sep"  # first separator only
    assert result_identity(plain) == ("org/name__with__sep", "rev1", None)
    who = result_identity(exp)
    assert who == ("org/m", "rev2", "pooling=mean") and who.label == "org/m [pooling=mean]"
    assert result_identity(meta) == ("org/real", "r-meta", None)
    # a model_meta.json naming another model than its folder is not used (sweep_holdout48 shape-cor-meta-other)
    with pytest.warns(EvalRankWarning, match="model_meta.json names 'org/real', another model than its folder"):
        assert result_identity(other) == ("org/folder", "rev4", None)
    assert task_result_files(tmp_path, "HEROS") == sorted([plain, exp, meta, other])
    assert task_result_files(tmp_path, "N2O") == []
    with pytest.raises(InputError, match="does not exist"):
        task_result_files(tmp_path / "nowhere", "HEROS")


def test_revision_policy_and_labels():
    records = [
        {"model": "a", "revision": "r1", "mtime": 10.0},
        {"model": "a", "revision": "r2", "mtime": 20.0},
        {"model": "a", "revision": "r1", "mtime": 30.0},
        {"model": "b", "revision": "r9", "mtime": 5.0},
    ]
    chosen, notes = choose_revisions(records, "newest")  # r1's newest file (30) is newer than r2's (20)
    assert chosen == {"a": ["r1"], "b": ["r9"]} and len(notes) == 1 and "using r1" in notes[0]
    assert choose_revisions(records, "oldest")[0]["a"] == ["r2"]
    assert choose_revisions(records, "separate") == ({"a": ["r1", "r2"], "b": ["r9"]}, [])
    with pytest.raises(InputError, match="2 revisions"):
        choose_revisions(records, "error")
    with pytest.raises(InputError, match="unknown revision policy"):
        choose_revisions(records, "latest")
    assert revision_labels([("a", "0123456789abcdef"), ("a", "fedcba9876543210"), ("b", "x")], length=12) == [
        "a@0123456789ab",
        "a@fedcba987654",
        "b",
    ]


def test_a_folder_and_a_table_are_read_through_one_interface(tmp_path):
    """The same scores, once as an MTEB results folder and once as a score table, give the same models ×
    scores matrix through :class:`ScoreSource`; the table adds its group columns, and has no standard errors."""
    tasks = ["EvalRankSent", "SentEvalMR", "SentEvalSTSB"]
    written = write_results(tmp_path / "run", tasks=tasks, seed=3)
    folder = open_score_source(tmp_path / "run")
    assert isinstance(folder, ResultsFolder) and open_score_source(folder) is folder
    from_folder = folder.matrix(tasks)
    expected = pd.DataFrame(
        {t: [task_score(written[m][t]) for m in MODELS] for t in tasks}, index=[name for name, _ in MODELS]
    ).sort_index()
    pd.testing.assert_frame_equal(from_folder, expected, check_exact=True)
    # standard errors: binomial over ``ntest`` where a result records it (the fixture's do not: give one)
    from mteb_evalrank.metrics.sampling_error import binomial_se

    first = next(r for r in folder.records if r["task"] == "SentEvalMR" and r["model"] == MODELS[0][0])
    first["scores"]["test"][0]["ntest"] = 400
    se = folder.standard_errors(["SentEvalMR"])["SentEvalMR"]
    assert se[MODELS[0][0]] == binomial_se(expected.loc[MODELS[0][0], "SentEvalMR"], 400)
    assert list(se.dropna().index) == [MODELS[0][0]]  # no formula for the others: no standard error

    csv = tmp_path / "scores.csv"
    table = expected.copy()
    table.insert(0, "family", ["f1", "f1", "f2"])
    table.rename_axis("model").to_csv(csv)
    source = open_score_source(csv)
    assert isinstance(source, ScoreTable)
    pd.testing.assert_frame_equal(source.matrix(tasks), expected, check_exact=True)
    assert source.groups == {m: {"family": f} for m, f in zip(expected.index, ["f1", "f1", "f2"])}
    assert source.standard_errors(["SentEvalMR"]).isna().all().all()
    assert list(source.matrix(["SentEvalMR", "Nope"], strict=False).columns) == ["SentEvalMR"]
    with pytest.raises(InputError, match="did you mean SentEvalMR"):
        source.matrix(["SentEvalMRR"])
    with pytest.raises(InputError, match="did you mean"):
        folder.matrix(["SentEvalMRR"])


def test_newest_revision_wins_in_a_folder(tmp_path):
    name, rev = MODELS[0]
    write_results(tmp_path, models=[(name, "old-rev"), (name, rev)], tasks=["SentEvalMR"], seed=1)
    old = next(tmp_path.rglob("old-rev/SentEvalMR.json"))
    os.utime(old, (1, 1))  # the older revision's file is older
    folder = open_score_source(tmp_path)
    with pytest.warns(UserWarning, match="using " + rev):
        m = folder.matrix(["SentEvalMR"])
    assert list(m.index) == [name] and np.isfinite(m.iloc[0, 0])
    sep = folder.matrix(["SentEvalMR"], revision_policy="separate")
    assert sorted(sep.index) == sorted([f"{name}@old-rev", f"{name}@{rev}"])
