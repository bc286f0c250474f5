"""The correlation study engine (issue 12): statistics against scipy, score names, model dropping, the
revision policy, the Markdown/CSV/plots, bad input, and a 30-model results folder in MTEB's real format.

Expected figures are computed here with scipy from the scores written to disk; nothing is hard-coded.
"""

from __future__ import annotations

import json
import os
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.rank_correlation import compare_predictors, spearman_with_ci
from mteb_evalrank.reports.correlation_rendering import format_markdown
from mteb_evalrank.reports.correlation_study import (
    CSV_COLUMNS,
    CorrelateOptions,
    correlate,
    correlate_report,
    correlation_table,
    score_matrix,
)

N_MODELS = 30
N_IMPORTED = 10  # the last models' downstream and STS-B scores come from SentEval via import-senteval


# --- statistics against scipy -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def paired():
    rng = np.random.default_rng(7)
    x = rng.normal(size=25)
    return x, x + rng.normal(scale=0.8, size=25), rng.normal(size=25)


def test_rho_and_tau_match_scipy(paired):
    x, y, _ = paired
    c = spearman_with_ci(x, y, n_resamples=200, seed=1)
    assert c.rho == pytest.approx(stats.spearmanr(x, y).statistic * 100)
    assert c.tau == pytest.approx(stats.kendalltau(x, y).statistic)
    assert (c.n_models, c.n_resamples, c.reason) == (25, 200, None)


def test_bootstrap_interval_matches_scipy_bootstrap(paired):
    x, y, _ = paired
    c = spearman_with_ci(x, y, n_resamples=500, seed=3)
    ref = stats.bootstrap(
        (x, y),
        lambda a, b: stats.spearmanr(a, b).statistic * 100,
        paired=True,
        vectorized=False,
        n_resamples=500,
        method="percentile",
        random_state=np.random.default_rng(3),
    ).confidence_interval
    assert (c.ci_low, c.ci_high) == pytest.approx((ref.low, ref.high))
    assert c.ci_low < c.rho < c.ci_high
    again = spearman_with_ci(x, y, n_resamples=500, seed=3)
    assert (again.ci_low, again.ci_high) == (c.ci_low, c.ci_high)  # seeded


def test_paired_difference_matches_scipy_bootstrap(paired):
    x, y, z = paired
    comp = compare_predictors(x, z, y, n_resamples=400, seed=5)
    expected = (stats.spearmanr(x, y).statistic - stats.spearmanr(z, y).statistic) * 100
    assert comp.difference == pytest.approx(expected)

    def diff(a, b, d):
        return (stats.spearmanr(a, d).statistic - stats.spearmanr(b, d).statistic) * 100

    ref = stats.bootstrap(
        (x, z, y),
        diff,
        paired=True,
        vectorized=False,
        n_resamples=400,
        method="percentile",
        random_state=np.random.default_rng(5),
    ).confidence_interval
    assert (comp.ci_low, comp.ci_high) == pytest.approx((ref.low, ref.high))
    assert comp.ci_low > 0  # x predicts y, z is noise


@pytest.mark.parametrize(
    ("x", "y", "why"),
    [([1.0, 2.0], [2.0, 1.0], "2 models"), ([1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0], "constant")],
)
def test_undefined_cells_say_why(x, y, why):
    c = spearman_with_ci(x, y)
    assert not c.defined and why in c.reason and np.isnan(c.rho)


def test_unequal_or_non_finite_vectors_are_input_errors():
    with pytest.raises(InputError, match="equal length"):
        spearman_with_ci([1, 2, 3], [1, 2])
    with pytest.raises(InputError, match="finite"):
        spearman_with_ci([1, 2, np.nan], [1, 2, 3])


# --- table, dropping, Markdown ------------------------------------------------------------------------
def _matrix() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    q = np.arange(12, dtype=float)
    frame = pd.DataFrame(
        {
            "good": q + rng.normal(scale=1.0, size=12),
            "best": q + rng.normal(scale=0.1, size=12),
            "noise": rng.normal(size=12),
            "down": q,
            "down2": q[::-1].copy(),
            "flat": np.full(12, 0.5),
        },
        index=[f"m{i:02d}" for i in range(12)],
    )
    frame.loc[["m00", "m01", "m02"], "good"] = np.nan  # three models lack "good"
    return frame


def test_models_missing_a_score_are_dropped_and_counted_never_imputed():
    scores = _matrix()
    table = correlation_table(scores, ["good", "best"], ["down"], n_resamples=100).set_index("intrinsic")
    assert table.loc["good", "n_models"] == 9 and table.loc["good", "n_dropped"] == 3
    assert table.loc["best", "n_models"] == 12 and table.loc["best", "n_dropped"] == 0
    kept = scores[["good", "down"]].dropna()
    assert table.loc["good", "rho"] == pytest.approx(stats.spearmanr(kept["good"], kept["down"]).statistic * 100)


def test_constant_downstream_column_is_named_in_every_cell():
    table = correlation_table(_matrix(), ["good", "best"], ["flat"], n_resamples=100)
    assert table["rho"].isna().all()
    assert all("flat is constant" in note for note in table["note"])
    assert "flat is constant" in format_markdown(table)


def test_markdown_bold_best_and_underline_second_per_column():
    table = correlation_table(_matrix(), ["good", "best", "noise"], ["down", "down2"], n_resamples=100)
    md = format_markdown(table)
    rows = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in md.splitlines()
        if line.startswith("| ") and not line.startswith("| intrinsic")
    }
    for col, name in enumerate(["down", "down2"]):
        rho = table[table["downstream"] == name].set_index("intrinsic")["rho"].sort_values(ascending=False)
        first, second, third = rho.index
        assert rows[first][col].startswith(f"**{rho[first]:.1f}**")
        assert rows[second][col].startswith(f"<u>{rho[second]:.1f}</u>")
        assert "**" not in rows[third][col] and "<u>" not in rows[third][col]
    assert all("(n=" in cell for cells in rows.values() for cell in cells)
    assert md.splitlines()[0] == "| intrinsic \\ downstream | down | down2 |"


def test_tied_best_share_the_bold_and_the_next_value_is_underlined():
    scores = _matrix()
    scores["best_copy"] = scores["best"]
    table = correlation_table(scores, ["best", "best_copy", "noise"], ["down"], n_resamples=100)
    md = format_markdown(table)
    body = "\n".join(line for line in md.splitlines() if line.startswith("| "))
    assert body.count("**") == 4 and body.count("<u>") == 1
    assert next(line for line in md.splitlines() if line.startswith("| noise |")).count("<u>") == 1


def test_fewer_than_three_models_in_a_cell_is_undefined_in_the_markdown():
    scores = _matrix()
    scores.loc[scores.index[:-2], "good"] = np.nan  # only the last two models keep "good"
    table = correlation_table(scores, ["good", "best"], ["down"], n_resamples=100)
    md = format_markdown(table)
    assert "undefined: 2 models" in md and "(n=2)" in md


# --- a 30-model results folder in MTEB's real format --------------------------------------------------
def _meta(name: str, revision: str):
    from mteb.models import ModelMeta

    return ModelMeta.create_empty({"name": name, "revision": revision})


def _save(cache, task_name: str, meta, subsets: dict[str, dict[str, float]]) -> None:
    import mteb

    task = mteb.get_task(task_name)
    scores = {"test": {s: {"main_score": v[task.metadata.main_score], **v} for s, v in subsets.items()}}
    cache.save_to_cache(mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0), meta)


@pytest.fixture(scope="module")
def results_folder(tmp_path_factory):
    """30 models: EvalRankSent (this plugin, with subsets), STSBenchmark and Banking77Classification (MTEB's
    own tasks), SentEvalMR/CR/STSB written by the plugin for 20 models and imported from SentEval for 10."""
    import mteb

    from mteb_evalrank.integration.senteval_import import import_senteval_results

    root = tmp_path_factory.mktemp("correlate")
    cache = mteb.ResultCache(root)
    rng = np.random.default_rng(0)
    quality = rng.permutation(N_MODELS) / N_MODELS
    written: dict[str, dict[str, float]] = {}
    for k in range(N_MODELS):
        name, q = f"org/model-{k:02d}", float(quality[k])
        meta = _meta(name, "r1")
        mrr = round(0.3 + 0.5 * q + rng.normal(scale=0.03), 6)
        _save(
            cache,
            "EvalRankSent",
            meta,
            {
                "all": {"mrr": mrr, "hits_at_1": round(mrr * 0.8, 6)},
                "stsb": {"mrr": round(mrr + 0.01, 6), "hits_at_1": 0.1},
                "str": {"mrr": round(mrr - 0.01, 6), "hits_at_1": 0.1},
            },
        )
        sts = round(float(rng.uniform(0.4, 0.8)), 6)  # unrelated to quality
        _save(cache, "STSBenchmark", meta, {"default": {"cosine_spearman": sts}})
        if k != 3:  # one model lacks Banking77
            _save(cache, "Banking77Classification", meta, {"default": {"accuracy": round(0.5 + 0.4 * q, 6)}})
        mr, cr, stsb = (
            round(60 + 25 * q + rng.normal(scale=1.0), 2),
            round(65 + 20 * q + rng.normal(scale=1.5), 2),
            round(float(rng.uniform(0.5, 0.8)), 4),
        )
        if k < N_MODELS - N_IMPORTED:
            _save(cache, "SentEvalMR", meta, {"default": {"accuracy": mr / 100}})
            _save(cache, "SentEvalCR", meta, {"default": {"accuracy": cr / 100}})
            _save(cache, "SentEvalSTSB", meta, {"default": {"cosine_spearman": stsb}})
        else:
            senteval = {
                "MR": {"devacc": mr, "acc": mr, "ndev": 100, "ntest": 100},
                "CR": {"devacc": cr, "acc": cr, "ndev": 100, "ntest": 100},
                "STSBenchmark": {"pearson": [stsb, 0.0], "spearman": [stsb, 0.0], "ntest": 1379},
            }
            import_senteval_results(senteval, model_meta=meta, output_folder=root, source="senteval.json")
        written[name] = {
            "EvalRankSent": mrr,
            "EvalRankSent:hits_at_1": round(mrr * 0.8, 6),
            "STSBenchmark": sts,
            "Banking77Classification": np.nan if k == 3 else round(0.5 + 0.4 * q, 6),
            "SentEvalMR": mr / 100,
            "SentEvalCR": cr / 100,
            "SentEvalSTSB": stsb,
        }
    return root, pd.DataFrame.from_dict(written, orient="index").sort_index()


INTRINSIC = ["EvalRankSent", "EvalRankSent:hits_at_1", "STSBenchmark", "SentEvalSTSB"]
DOWNSTREAM = ["SentEvalMR", "SentEvalCR", "Banking77Classification"]


def test_reads_thirty_models_native_plugin_and_imported_results(results_folder):
    root, written = results_folder
    scores, folder = score_matrix(root, INTRINSIC + DOWNSTREAM)
    assert len(scores) == N_MODELS and not folder.skipped
    imported = [r for r in folder.records if all(e.get("imported_from") == "SentEval" for e in r["scores"]["test"])]
    assert len(imported) == 3 * N_IMPORTED  # SentEvalMR, SentEvalCR, SentEvalSTSB of the imported models
    pd.testing.assert_frame_equal(
        scores, written[INTRINSIC + DOWNSTREAM], check_exact=False, atol=1e-9, check_names=False
    )
    sub, _ = score_matrix(root, ["EvalRankSent/stsb", "EvalRankSent/str:mrr"])
    assert sub["EvalRankSent/stsb"].to_numpy() == pytest.approx(written["EvalRankSent"].to_numpy() + 0.01)


def test_correlate_table_matches_scipy_on_the_folder(results_folder):
    root, written = results_folder
    table = correlate(root, INTRINSIC, DOWNSTREAM, n_resamples=200)
    assert {"intrinsic", "downstream", "rho", "ci_low", "ci_high", "kendall_tau", "n_models", "n_dropped"} <= set(table)
    assert len(table) == len(INTRINSIC) * len(DOWNSTREAM)
    for r in table.itertuples():
        pair = written[[r.intrinsic, r.downstream]].dropna()
        assert r.rho == pytest.approx(stats.spearmanr(pair.iloc[:, 0], pair.iloc[:, 1]).statistic * 100)
        assert r.kendall_tau == pytest.approx(stats.kendalltau(pair.iloc[:, 0], pair.iloc[:, 1]).statistic)
        assert (r.n_models, r.n_dropped) == ((29, 1) if r.downstream == "Banking77Classification" else (30, 0))
        assert r.ci_low <= r.rho <= r.ci_high


@pytest.mark.integration
def test_public_api_is_lazy_and_exported():
    import subprocess
    import sys

    code = (
        "import sys, mteb_evalrank; assert 'mteb' not in sys.modules and 'pandas' not in sys.modules; "
        "from mteb_evalrank import correlate; print(correlate.__module__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "mteb_evalrank.reports.correlation_study"


def test_cli_writes_markdown_csv_and_plots(results_folder, tmp_path, capsys):
    from mteb_evalrank.cli import main

    root, _ = results_folder
    out = {k: tmp_path / f"c.{k}" for k in ("md", "csv")} | {"png": tmp_path / "heat.png", "rank": tmp_path / "r.png"}
    code = main(
        [
            "correlate",
            str(root),
            "--intrinsic",
            *INTRINSIC,
            "--downstream",
            *DOWNSTREAM,
            "--out",
            str(out["md"]),
            "--csv",
            str(out["csv"]),
            "--plot",
            str(out["png"]),
            "--rank-plot",
            str(out["rank"]),
            "--n-resamples",
            "100",
            "--compare",
            "EvalRankSent",
            "STSBenchmark",
            "--no-progress",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    header = next(line for line in printed.splitlines() if line.startswith("| intrinsic"))
    assert [c.strip().removesuffix(" ⚠") for c in header.split("|")[2:-1]] == DOWNSTREAM
    assert "paired comparisons" in printed and "100 resamples" in printed
    assert out["md"].read_text(encoding="utf-8") == printed.rstrip("\n") + "\n"
    csv = pd.read_csv(out["csv"])
    assert list(csv.columns) == CSV_COLUMNS and len(csv) == len(INTRINSIC) * len(DOWNSTREAM)
    for image in (out["png"], out["rank"]):
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rank_plot_stays_readable_for_many_models(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from mteb_evalrank.reports import correlation_figures

    rng = np.random.default_rng(2)
    scores = pd.DataFrame(rng.normal(size=(150, 3)), columns=["d", "a", "b"], index=[f"m{i}" for i in range(150)])
    seen = {}
    original = matplotlib.figure.Figure.savefig

    def spy(fig, *args, **kwargs):
        seen["labels"] = [t.get_text() for t in fig.axes[0].get_xticklabels()]
        seen["width"] = fig.get_figwidth()
        return original(fig, *args, **kwargs)

    matplotlib.figure.Figure.savefig = spy
    try:
        correlation_figures.plot_ranks(scores, "d", ["a", "b"], tmp_path / "ranks.png")
    finally:
        matplotlib.figure.Figure.savefig = original
    assert 0 < len(seen["labels"]) <= 40 and seen["width"] <= 30


# --- revision policy ----------------------------------------------------------------------------------
@pytest.fixture()
def two_revisions(tmp_path):
    import mteb

    cache = mteb.ResultCache(tmp_path)
    for k in range(4):
        meta = _meta(f"org/m{k}", "v1")
        _save(cache, "SentEvalMR", meta, {"default": {"accuracy": 0.5 + 0.1 * k}})
        _save(cache, "STSBenchmark", meta, {"default": {"cosine_spearman": 0.5 + 0.1 * k}})
    new = _meta("org/m0", "v2")
    _save(cache, "SentEvalMR", new, {"default": {"accuracy": 0.99}})
    _save(cache, "STSBenchmark", new, {"default": {"cosine_spearman": 0.99}})
    old_files = list((tmp_path / "results" / "org__m0" / "v1").glob("*.json"))
    past = time.time() - 3600
    for f in old_files:
        os.utime(f, (past, past))
    return tmp_path


def test_revision_newest_by_default_with_a_warning_listing_them(two_revisions):
    with pytest.warns(UserWarning, match=r"org/m0 has 2 revisions \(v2, v1\); using v2"):
        scores, folder = score_matrix(two_revisions, ["SentEvalMR"])
    assert len(scores) == 4 and scores.loc["org/m0", "SentEvalMR"] == pytest.approx(0.99)
    assert folder.warnings


def test_revision_policies_oldest_separate_error(two_revisions):
    with pytest.warns(UserWarning):
        oldest, _ = score_matrix(two_revisions, ["SentEvalMR"], revision_policy="oldest")
    assert oldest.loc["org/m0", "SentEvalMR"] == pytest.approx(0.5)
    separate, _ = score_matrix(two_revisions, ["SentEvalMR"], revision_policy="separate")
    assert {"org/m0@v1", "org/m0@v2"} <= set(separate.index) and len(separate) == 5
    with pytest.raises(InputError, match="2 revisions: v2, v1"):
        score_matrix(two_revisions, ["SentEvalMR"], revision_policy="error")
    with pytest.raises(InputError, match="unknown revision policy"):
        score_matrix(two_revisions, ["SentEvalMR"], revision_policy="latest")


# --- bad input (requirement 6) ------------------------------------------------------------------------
def test_unknown_score_name_suggests_close_matches(two_revisions):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InputError, match=r"'SentEvalMRR'.*did you mean SentEvalMR"):
            score_matrix(two_revisions, ["SentEvalMRR"])
        with pytest.raises(InputError, match=r"STSBenchmark:cosine_spearman"):
            score_matrix(two_revisions, ["STSBenchmark:cosine_spearmann"])


def test_empty_folder_and_missing_folder_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="no MTEB results found"):
        correlate(tmp_path, ["A"], ["B"])
    with pytest.raises(InputError, match="does not exist"):
        correlate(tmp_path / "nowhere", ["A"], ["B"])


def test_malformed_json_is_named_skipped_and_warned(two_revisions, capsys):
    from mteb_evalrank.cli import main

    bad = two_revisions / "results" / "org__m1" / "v1" / "Broken.json"
    bad.write_text("{not json", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores, folder = score_matrix(two_revisions, ["SentEvalMR"])
    assert any("Broken.json" in str(w.message) and "skipped" in str(w.message) for w in caught)
    assert [p for p, _ in folder.skipped] == [str(bad)] and len(scores) == 4
    code = main(
        [
            "correlate",
            str(two_revisions),
            "--intrinsic",
            "STSBenchmark",
            "--downstream",
            "SentEvalMR",
            "--n-resamples",
            "100",
            "--no-progress",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0 and "Broken.json" in captured.err and "warning:" in captured.err
    assert "Broken.json" in captured.out  # listed under "Warnings" in the Markdown too


def test_cli_bad_input_is_one_line_exit_2(two_revisions, capsys):
    from mteb_evalrank.cli import main

    code = main(
        ["correlate", str(two_revisions), "--intrinsic", "STSBenchmrk", "--downstream", "SentEvalMR", "--no-progress"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "did you mean STSBenchmark" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["correlate", str(two_revisions), "--intrinsic", "A", "--downstream", "B", "--n-resamples", "10"])


def test_rank_by_must_be_a_downstream_score(two_revisions):
    with pytest.raises(InputError, match="--rank-by"):
        correlate_report(
            two_revisions, ["STSBenchmark"], ["SentEvalMR"], CorrelateOptions(rank_by="STSBenchmark", rank_plot="r.png")
        )


def test_rank_by_without_a_rank_plot_and_a_padded_score_name_are_refused(two_revisions):
    """Both were silent or a KeyError traceback (holdout47 cor-rank-by-without-plot, cor-score-whitespace)."""
    with pytest.raises(InputError, match="no --rank-plot is given"):
        correlate_report(two_revisions, ["STSBenchmark"], ["SentEvalMR"], CorrelateOptions(rank_by="SentEvalMR"))
    with pytest.raises(InputError, match="a score name has spaces around it"):
        correlate_report(two_revisions, [" STSBenchmark"], ["SentEvalMR"], CorrelateOptions())


def test_written_files_are_mteb_task_results(results_folder):
    root, _ = results_folder
    some = next((root / "results").rglob("SentEvalMR.json"))
    data = json.loads(some.read_text(encoding="utf-8"))
    assert data["task_name"] == "SentEvalMR" and "test" in data["scores"]
