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


def test_a_task_named_twice_runs_once_with_one_warning():
    """``run -t WS-353-All WS-353-All`` ran it once without a word (holdout47 run-tasks-twice): the option's names
    count once, compared under the one name normaliser, and one warning line names the repeated task."""
    import unicodedata

    from mteb_evalrank.cli import build_parser
    from mteb_evalrank.errors import EvalRankWarning

    parser = build_parser()
    with pytest.warns(EvalRankWarning, match=r"-t/--tasks names 'WS-353-All' more than once; each is used once"):
        args = parser.parse_args(["run", "-m", "vec.txt", "-t", "WS-353-All", "HEROS", "WS-353-All"])
    assert args.tasks == ["WS-353-All", "HEROS"]
    nfc, nfd = (unicodedata.normalize(form, "Tâche") for form in ("NFC", "NFD"))
    with pytest.warns(EvalRankWarning, match=r"'Tâche' \(also as 'Ta\\u0302che'\)"):
        args = parser.parse_args(["descriptive-stats", nfc, nfd])
    assert args.tasks == [nfc]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", EvalRankWarning)
        assert parser.parse_args(["run", "-t", "HEROS", "N2O"]).tasks == ["HEROS", "N2O"]  # no warning


def test_stored_n2o_results_with_more_samples_are_compared_over_the_shared_ones(tmp_path):
    """``--samples 2`` and ``--samples 1`` of one seed share their first sample: refused before with "seed 1 vs 1,
    shape (2, 3) vs (1, 3)" (holdout47 n2o-compare-more_samples); compared over the shared sample with a warning
    naming each result's number of samples.  Samples that differ are named in words."""
    import json

    from mteb_evalrank.errors import EvalRankWarning, InputError
    from mteb_evalrank.reports.n2o import load_results

    entry = {"neighbors": [[[1, 2], [0, 2]]], "query_ids": [[0, 1]], "corpus_fingerprint": "f", "corpus_size": 5}
    more = {**entry, "neighbors": entry["neighbors"] * 2, "query_ids": [[0, 1], [3, 4]]}
    for i, e in enumerate((entry, more)):
        folder = tmp_path / "r" / "results" / f"o__m{i}" / "r"
        folder.mkdir(parents=True)
        (folder / "N2O.json").write_text(json.dumps({"task_name": "N2O", "scores": {"test": [{**e, "seed": 1}]}}))
    with pytest.warns(EvalRankWarning, match=r"\(o/m0 has 1, o/m1 has 2\); N2O is compared over the 1 sample"):
        sets = load_results(tmp_path / "r")
    assert [s.samples for s in sets] == [1, 1]
    other = tmp_path / "r" / "results" / "o__m1" / "r" / "N2O.json"
    other.write_text(json.dumps({"task_name": "N2O", "scores": {"test": [{**more, "query_ids": [[0, 3], [3, 4]]}]}}))
    from mteb_evalrank.metrics.neighbors import n2o_matrix

    with pytest.raises(InputError, match=r"used different query samples: 2 query sample\(s\) vs 1"):
        n2o_matrix(load_results(tmp_path / "r"))


def test_sts_predictions_without_a_defined_bin_warn():
    """One pair: every bin undefined, and nothing said (holdout47 sts-one-pair)."""
    import json
    import tempfile
    from pathlib import Path

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.reports.similarity_levels import levels_table

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "SentEvalSTSB_predictions.json"
        data = {"mteb_model_meta": {"model_name": "o/m"}, "default": {"test": {"gold": [1.0], "cosine": [0.3]}}}
        path.write_text(json.dumps(data))
        with pytest.warns(EvalRankWarning, match=r"no bin has a Spearman ρ for o/m: 1 pair in all"):
            levels = levels_table([tmp])
    assert [b.note for b in levels["o/m"]] == ["undefined: 1 pair", "undefined: 0 pairs", "undefined: 0 pairs"]


def test_a_headline_normalised_cosine_out_of_range_warns_and_null_is_missing(tmp_path):
    """The headline entry's normalised cosine of 5.0 was never checked (sweep_holdout heros-normalised-cosine-5);
    a null score is missing, as NaN is (holdout47 heros-cosine_null), and named as JSON names it."""
    import json

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.reports.heros import read_result

    edits = {s: {"normalized_cosine": 0.5} for s in ("synonym", "antonym", "negation_main", "negation_antonym")}
    entry = {"main_score": 0.1, "hf_subset": "default", "normalized_cosine": 5.0, "scores_per_edit": edits}
    path = tmp_path / "HEROS.json"
    path.write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [entry]}}))
    with pytest.warns(EvalRankWarning, match=r"score default.normalized_cosine is 5.0, outside \[-1, 1\]"):
        read_result(path)
    entry.update(normalized_cosine=0.2, scores_per_edit={**edits, "typo": {"normalized_cosine": None}})
    path.write_text(json.dumps({"task_name": "HEROS", "scores": {"test": [entry]}}))
    with pytest.warns(EvalRankWarning, match=r"score typo.normalized_cosine is null; shown as missing"):
        assert "typo" not in read_result(path).normalized


def test_a_new_output_folder_named_like_a_file_is_refused():
    """``descriptive-stats --out stats.docx`` made a folder ``stats.docx`` (holdout47 descriptive-out-txt); an existing
    folder of that name is still a folder to write into."""
    import argparse
    import tempfile
    from pathlib import Path

    from mteb_evalrank.cli_options import output_folder_arg

    with tempfile.TemporaryDirectory() as tmp:
        with pytest.raises(argparse.ArgumentTypeError, match=r"named like a .docx file, .* e.g. .*stats$"):
            output_folder_arg(f"{tmp}/stats.docx")
        (Path(tmp) / "made.json").mkdir()
        assert output_folder_arg(f"{tmp}/made.json") == f"{tmp}/made.json"
        assert output_folder_arg(f"{tmp}/glove.6B.50d") == f"{tmp}/glove.6B.50d"
