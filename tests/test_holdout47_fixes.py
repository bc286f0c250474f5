"""Fixes for issue 47's held-out sweep (tests/sweeps/sweep_holdout47.py), each by a rule in one place."""

from __future__ import annotations

import pytest

from mteb_evalrank.errors import DataNotFoundError


def test_task_data_that_cannot_be_fetched_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    """``datasets`` raises ``ConnectionError`` for MTEB's own tasks offline (holdout47 run-tasks-mteb-task-offline)."""
    import mteb

    from mteb_evalrank.integration.run import run

    def offline(*args, **kwargs):
        raise ConnectionError("Couldn't reach 'mteb/sts12-sts' on the Hub (OfflineModeIsEnabled)")

    monkeypatch.setattr(mteb, "evaluate", offline)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = tmp_path / "vec.txt"
    vectors.write_text("cat 0.1 0.2\ndog 0.3 0.4\n")
    with pytest.raises(
        DataNotFoundError, match=r"the data of STS12 cannot be loaded \(Couldn't reach .*HF_HUB_OFFLINE"
    ):
        run(["STS12"], str(vectors), tmp_path / "out", verbose=False)


def test_names_that_differ_by_an_invisible_character_are_one_name():
    """``m\\u200b3`` prints as ``m3``: a score table with both rows was silently two models (holdout47
    table-zero_width_twin)."""
    from mteb_evalrank.names import name_key, twin_note

    assert name_key("m\u200b3") == name_key("m3") == name_key("m\u00ad3")
    assert name_key("m\u200c3") != name_key("m3")  # ZWNJ changes how a word is written: kept
    assert "invisible character U+200B" in twin_note("m\u200b3", "m3")


def test_a_score_table_with_an_invisible_twin_is_refused_naming_the_line(tmp_path):
    from mteb_evalrank.data.tables import read_strict_table
    from mteb_evalrank.errors import InputError

    table = tmp_path / "t.csv"
    table.write_text("model,EvalRankSent\nm3,0.1\nm\u200b3,0.2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 3: model 'm\\u200b3' \(as 'm3', .*U\+200B\) appears again"):
        read_strict_table(table, what="score table", key="model")


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        ("m1,0.1,0.2\nm2,0.3,0.4\n", "2 models"),
        ("".join(f"m{i},0.5,{i / 10}\n" for i in range(8)), "EvalRankSent is constant"),
    ],
)
def test_a_table_where_no_correlation_can_be_computed_is_refused(tmp_path, rows, reason):
    """Every cell undefined was exit 0 and a page of dashes (holdout47 table-two_models, table-constant_column)."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report

    table = tmp_path / "t.csv"
    table.write_text("model,EvalRankSent,SentEvalMR\n" + rows, encoding="utf-8")
    with pytest.raises(InputError, match=f"no correlation can be computed: EvalRankSent × SentEvalMR: {reason}"):
        correlate_report(table, ["EvalRankSent"], ["SentEvalMR"], CorrelateOptions(progress=False))


def _table(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text(
        "model,EvalRankSent,SentEvalMR\n" + "".join(f"m{i},{i / 10},{(i * 7 % 10) / 10}\n" for i in range(8)),
        encoding="utf-8",
    )
    return table


def test_family_options_that_do_nothing_are_refused_or_warned(tmp_path):
    """A regex matching no model was silent; a --families file without most models, or one family for all, gave
    no word (holdout47 fam-regex-matches-nothing, fam-missing-model, fam-one-family)."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report

    table = _table(tmp_path)
    with pytest.raises(InputError, match=r"--family-regex '\^\(zzz\)' matches none of the 8 models"):
        correlate_report(table, ["EvalRankSent"], ["SentEvalMR"], CorrelateOptions(family_regex="^(zzz)"))
    missing, one = tmp_path / "missing.csv", tmp_path / "one.csv"
    missing.write_text("model,family\nm1,f1\n", encoding="utf-8")
    one.write_text("model,family\n" + "".join(f"m{i},f\n" for i in range(8)), encoding="utf-8")
    report = correlate_report(table, ["EvalRankSent"], ["SentEvalMR"], CorrelateOptions(families=missing))
    assert any("gives no family for 7 of the 8 models" in w for w in report.warnings), report.warnings
    report = correlate_report(table, ["EvalRankSent"], ["SentEvalMR"], CorrelateOptions(families=one))
    assert any("all 8 models are in one family ('f')" in w for w in report.warnings), report.warnings


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda e: e["scores_per_edit"].update(synonyms=e["scores_per_edit"].pop("synonym")), "subset 'synonyms'"),
        (lambda e: e.update(hf_subset=""), "subset ''"),
        (lambda e: e.update(hf_subset=" default"), "subset ' default'"),
        (lambda e: e.update(main_score="0.48"), 'default.main_score is "0.48", not a number'),
    ],
)
def test_a_heros_result_with_an_unknown_subset_or_a_text_score_is_refused(tmp_path, edit, message):
    """Each was read silently, the unknown edit left out (holdout47 heros-edit_renamed, heros-subset_blank,
    heros-subset_padded, heros-main_score_string)."""
    import json

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.heros import read_result

    entry = {
        "main_score": 0.48,
        "hf_subset": "default",
        "languages": ["eng-Latn"],
        "scores_per_edit": {
            s: {"normalized_cosine": 0.5, "main_score": 0.5}
            for s in ("synonym", "antonym", "negation_main", "negation_antonym", "random_mlm", "typo")
        },
    }
    path = tmp_path / "results" / "o__m" / "r" / "HEROS.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [entry]}}))
    assert read_result(path).normalized["typo"] == 0.5
    edit(entry)
    path.write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [entry]}}))
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        read_result(path)


def test_a_score_option_no_task_takes_is_a_warning(monkeypatch):
    """``--no-center`` on an STS task and ``--ties`` on a word-similarity task were silently ignored (holdout47
    run-no-center-on-sts, stored-ties-optimistic)."""
    import mteb

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.integration.run import _set_tie_options

    sts, words, evalrank = mteb.get_tasks(tasks=["SentEvalSTSB", "WS-353-All", "EvalRankWord"])
    with pytest.warns(EvalRankWarning, match="--no-center has no effect on SentEvalSTSB"):
        _set_tie_options([sts], False, "pessimistic")
    with pytest.warns(EvalRankWarning, match="--ties optimistic has no effect on WS-353-All"):
        _set_tie_options([words], True, "optimistic")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", EvalRankWarning)
        _set_tie_options([words, evalrank], False, "optimistic")  # EvalRankWord takes both: no warning
    assert evalrank.ties == "optimistic" and words.center is False


def test_a_result_file_listing_a_subset_twice_is_refused_by_the_shape_check(tmp_path):
    """Two entries of one subset: which is the score? Read silently before (holdout47 report-results-subset-twice,
    cor-results-subset_twice, submission-subset-twice); every results walk now skips it with a warning."""
    import json

    from mteb_evalrank.data.result_files import check_result_json
    from mteb_evalrank.errors import InputError

    entry = {"main_score": 0.5, "hf_subset": "default", "languages": ["eng-Latn"]}
    path = tmp_path / "SentEvalMR.json"
    path.write_text(json.dumps({"task_name": "SentEvalMR", "scores": {"test": [entry]}}))
    check_result_json(path)
    path.write_text(json.dumps({"task_name": "SentEvalMR", "scores": {"test": [entry, dict(entry)]}}))
    with pytest.raises(InputError, match=r"scores.test\[1\]: subset 'default' is listed again"):
        check_result_json(path)
