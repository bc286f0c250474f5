"""Family-aware statistics (issue 18): partial Spearman for family, the family bootstrap, paired comparisons,
Holm, sampling errors, and the Markdown rules for primary and exploratory rows.

Expected values are computed here directly (numpy, scipy, statsmodels, expanded samples); nothing is hard-coded.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from mteb_evalrank.metrics.family_statistics import (
    cluster_bootstrap_spearman,
    cluster_bootstrap_weights,
    compare_clustered,
    family_codes,
    holm,
    partial_spearman_family,
    weighted_spearman,
)
from mteb_evalrank.metrics.sampling_error import binomial_se, bounded_mean_se, mean_se, noise_ratio, spearman_se


def _direct_partial(x, y, fam):
    """The definition, written out: ranks with average ties, minus family mean rank, Pearson × 100."""
    rx, ry = stats.rankdata(x), stats.rankdata(y)
    fam = np.asarray(fam)
    ex, ey = rx.copy(), ry.copy()
    for f in np.unique(fam):
        ex[fam == f] -= rx[fam == f].mean()
        ey[fam == f] -= ry[fam == f].mean()
    return float(np.corrcoef(ex, ey)[0, 1] * 100)


def test_partial_spearman_matches_a_direct_numpy_computation_with_ties():
    rng = np.random.default_rng(4)
    fam = np.repeat(["a", "b", "c", "d"], [5, 3, 4, 1])
    x = rng.integers(0, 5, size=13).astype(float)  # many ties
    y = x + rng.integers(0, 3, size=13)
    got = partial_spearman_family(x, y, fam)
    assert got.reason is None and (got.n_families, got.n_informative_families) == (4, 3)
    assert got.value == pytest.approx(_direct_partial(x, y, fam))


def test_partial_spearman_removes_between_family_structure():
    # within each family y falls as x rises; between families both rise: plain ρ > 0, partial ρ = −100
    x = np.array([1, 2, 3, 11, 12, 13, 21, 22, 23], dtype=float)
    y = np.array([3, 2, 1, 13, 12, 11, 23, 22, 21], dtype=float)
    fam = ["a"] * 3 + ["b"] * 3 + ["c"] * 3
    assert stats.spearmanr(x, y).statistic > 0.7
    assert partial_spearman_family(x, y, fam).value == pytest.approx(-100)


def test_partial_spearman_is_undefined_without_two_families_of_two():
    got = partial_spearman_family([1, 2, 3, 4], [1, 3, 2, 4], ["a", "a", "b", "c"])
    assert np.isnan(got.value) and "1 family with ≥ 2 models" in got.reason


def test_family_bootstrap_draws_families_whole():
    fam = ["a", "a", "a", "b", "c", "c"]
    w = cluster_bootstrap_weights(fam, 500, seed=1)
    codes = family_codes(fam)
    assert w.shape == (500, 6)
    for f in range(3):
        members = w[:, codes == f]
        assert (members == members[:, :1]).all()  # every model of a family gets its family's count
    family_counts = np.stack([w[:, codes == f][:, 0] for f in range(3)], axis=1)
    assert (family_counts.sum(axis=1) == 3).all()  # 3 families drawn per resample


def test_weighted_spearman_equals_scipy_on_the_expanded_sample():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 6, size=9).astype(float)
    y = x + rng.normal(size=9)
    w = rng.integers(0, 4, size=(20, 9))
    w[:, 0] += 1  # at least one model per row
    rho, degenerate = weighted_spearman(x, y, w)
    for row, r, bad in zip(w, rho, degenerate):
        xx, yy = np.repeat(x, row), np.repeat(y, row)
        if np.ptp(xx) == 0 or np.ptp(yy) == 0:
            assert bad and r == 0
        else:
            assert r == pytest.approx(stats.spearmanr(xx, yy).statistic)


def test_a_family_of_identical_models_behaves_as_one_model():
    rng = np.random.default_rng(3)
    x = rng.normal(size=8)
    y = x + rng.normal(scale=1.5, size=8)
    one = cluster_bootstrap_spearman(x, y, list(range(8)), n_resamples=400, seed=9)
    # each model copied 4 times, the copies one family: the same interval, not a 4× narrower one
    xx, yy = np.repeat(x, 4), np.repeat(y, 4)
    fam = np.repeat(np.arange(8), 4)
    copies = cluster_bootstrap_spearman(xx, yy, fam, n_resamples=400, seed=9)
    assert (copies.ci_low, copies.ci_high) == pytest.approx((one.ci_low, one.ci_high))
    naive = cluster_bootstrap_spearman(xx, yy, np.arange(32), n_resamples=400, seed=9)
    assert naive.ci_high - naive.ci_low < 0.8 * (copies.ci_high - copies.ci_low)


def test_clustered_comparison_difference_interval_and_p():
    rng = np.random.default_rng(5)
    q = rng.normal(size=40)
    a, b, y = q + rng.normal(scale=0.3, size=40), rng.normal(size=40), q
    c = compare_clustered(a, b, y, None, n_resamples=1000, seed=0)
    assert c.difference == pytest.approx((stats.spearmanr(a, y).statistic - stats.spearmanr(b, y).statistic) * 100)
    assert c.ci_low > 0 and c.p_value < 1e-3 and c.n_families == 40
    same = compare_clustered(a, a, y, None, n_resamples=200, seed=0)
    assert same.difference == 0 and same.p_value == 1.0


def test_holm_matches_statsmodels_and_a_direct_step_down():
    from statsmodels.stats.multitest import multipletests

    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan, 0.2])
    got = holm(p)
    finite = p[np.isfinite(p)]
    assert np.isnan(got[4])
    assert got[np.isfinite(p)] == pytest.approx(multipletests(finite, method="holm")[1])
    order = np.argsort(finite)
    m = len(finite)
    direct = np.maximum.accumulate(np.minimum(1, (m - np.arange(m)) * finite[order]))
    back = np.empty(m)
    back[order] = direct
    assert got[np.isfinite(p)] == pytest.approx(back)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 1.0, float("nan")])), min_size=1, max_size=30)
)
def test_holm_equals_statsmodels_on_any_p_values(values):
    """statsmodels is the reference (its Holm path is not called by the package: it runs ``gc.collect()``)."""
    from statsmodels.stats.multitest import multipletests

    p = np.array(values)
    got = holm(p)
    ok = np.isfinite(p)
    assert np.isnan(got[~ok]).all()
    if ok.any():
        np.testing.assert_allclose(got[ok], multipletests(p[ok], method="holm")[1], rtol=1e-12, atol=0)


def test_sampling_error_formulas():
    assert binomial_se(0.8, 1725) == pytest.approx(np.sqrt(0.8 * 0.2 / 1725))
    assert spearman_se(0.5, 103) == pytest.approx(0.75 * np.sqrt(1.06 / 100))
    assert bounded_mean_se(0.3, 100) == pytest.approx(np.sqrt(0.21 / 100))
    assert mean_se([0.03, 0.04]) == pytest.approx(0.025)
    assert noise_ratio([0.7, 0.72, 0.74], [0.01, 0.02, 0.03]) == pytest.approx(np.std([0.7, 0.72, 0.74], ddof=1) / 0.02)


def test_exploratory_rows_are_never_marked_and_come_after_the_primary_block():
    from mteb_evalrank.reports.correlation_rendering import format_markdown
    from mteb_evalrank.reports.correlation_study import correlation_table

    rng = np.random.default_rng(0)
    q = np.arange(15, dtype=float)
    scores = pd.DataFrame(
        {
            "Task": q + rng.normal(scale=3, size=15),
            "Other": q + rng.normal(scale=6, size=15),
            "Task:l2_mrr": q,
            "Task/stsb": q + 0.1,
            "down": q,
        },
        index=[f"m{i}" for i in range(15)],
    )
    fam = {m: f"f{i // 3}" for i, m in enumerate(scores.index)}
    table = correlation_table(
        scores, ["Task", "Other", "Task:l2_mrr", "Task/stsb"], ["down"], families=fam, n_resamples=200
    )
    md = format_markdown(table)
    lines = {
        line.split("|")[1].strip(): line for line in md.splitlines() if line.startswith("| ") and "---" not in line
    }
    assert "**" not in lines["Task:l2_mrr"] and "<u>" not in lines["Task:l2_mrr"]  # the highest ρ, yet unmarked
    assert "**" not in lines["Task/stsb"] and "<u>" not in lines["Task/stsb"]
    best = (
        "Task"
        if table.set_index("intrinsic").loc["Task", "rho"] > table.set_index("intrinsic").loc["Other", "rho"]
        else "Other"
    )
    assert "**" in lines[best]
    assert md.index("| Task:l2_mrr") > md.index("Exploratory") > md.index("| Other")
    assert "family bootstrap" in md and "f=5" in md
    row = table.set_index("intrinsic").loc["Task"]
    assert row["rho_partial_family"] == pytest.approx(
        _direct_partial(scores["Task"], q, [fam[m] for m in scores.index])
    )
    assert (
        row["n_families"] == 5
        and bool(row["primary"])
        and not bool(table.set_index("intrinsic").loc["Task:l2_mrr", "primary"])
    )


# --- the verdict on a synthetic results folder whose answer is known -----------------------------------------
@pytest.fixture(scope="module")
def known_folder(tmp_path_factory):
    """24 models in 8 families of 3 (MTEB result files): EvalRankSent = the downstream quality + small noise,
    SentEvalSTSB = pure noise, STR = the quality + large noise; SentEvalMR and SentEvalCR = the quality."""
    import mteb
    from mteb.models import ModelMeta

    root = tmp_path_factory.mktemp("verdict")
    cache = mteb.ResultCache(root)
    rng = np.random.default_rng(12)
    quality = rng.permutation(24) / 24

    def save(task_name, meta, subsets):
        task = mteb.get_task(task_name)
        scores = {"test": {s: {"main_score": v[task.metadata.main_score], **v} for s, v in subsets.items()}}
        cache.save_to_cache(mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0), meta)

    for k in range(24):
        meta = ModelMeta.create_empty({"name": f"org/fam{k // 3}-v{k % 3}", "revision": "r1"})
        q = float(quality[k])
        save(
            "EvalRankSent", meta, {"all": {"mrr": round(0.3 + 0.5 * q + rng.normal(scale=0.005), 6), "num_pairs": 6989}}
        )
        save(
            "SentEvalSTSB",
            meta,
            {"default": {"cosine_spearman": round(float(rng.uniform(0.4, 0.8)), 6), "num_pairs": 1379}},
        )
        save(
            "STR",
            meta,
            {"default": {"cosine_spearman": round(0.4 + 0.4 * q + rng.normal(scale=0.15), 6), "num_pairs": 5500}},
        )
        for task in ("SentEvalMR", "SentEvalCR"):
            save(task, meta, {"default": {"accuracy": round(0.6 + 0.3 * q, 6), "ntest": 10000}})
    return root


def test_claim_on_a_folder_where_the_answer_is_known(known_folder):
    from mteb_evalrank.reports.correlation_study import correlate, decide_claim

    table = correlate(
        known_folder,
        ["EvalRankSent", "SentEvalSTSB", "STR"],
        ["SentEvalMR", "SentEvalCR"],
        family_regex=r"^org/(fam\d+)-",
        n_resamples=500,
    )
    scores, fam = table.attrs["scores"], table.attrs["families"]
    assert len(set(fam.values())) == 8 and set(table["n_families"]) == {8}
    lineages = table.attrs["lineages"]
    assert lineages == fam  # no lineage given: each family is its own lineage
    good = decide_claim(
        scores, "EvalRankSent", ["SentEvalSTSB", "STR"], ["SentEvalMR", "SentEvalCR"], lineages=lineages
    )
    assert good.verdict == "supported", good.line()
    line = good.line()
    assert line.startswith("- **EvalRankSent predicts") and ": SUPPORTED.**" in line
    assert (
        "Minimum detectable difference" in line and "Test (fixed in advance)" in line and "intersection-union" in line
    )
    # the other way round: STS-B (noise) against EvalRankSent: a baseline is shown better
    bad = decide_claim(scores, "SentEvalSTSB", ["EvalRankSent", "STR"], "SentEvalMR", lineages=lineages)
    assert bad.verdict == "not supported", bad.line()
    # the same data as two lineages: too few to decide anything
    two = {m: ("a" if i % 2 else "b") for i, m in enumerate(scores.index)}
    assert (
        decide_claim(scores, "EvalRankSent", ["SentEvalSTSB", "STR"], "SentEvalMR", lineages=two).verdict
        == "inconclusive"
    )


def test_postprocessing_finding_rules():
    from mteb_evalrank.metrics.confirmatory import mean_tests
    from mteb_evalrank.reports.verdict import postprocessing_finding

    rng = np.random.default_rng(0)
    fam = [f"L{k // 2}" for k in range(24)]  # 12 lineages of 2 pairs

    def finding(sim, down):
        s = mean_tests(np.asarray(sim), fam, n_resamples=1000)
        d = mean_tests(np.asarray(down), fam, margin=1.0, n_resamples=1000)
        return postprocessing_finding(s, d, n_pairs=len(fam))

    sim_up = 3 + rng.normal(0, 0.5, 24)
    flat = rng.normal(0, 0.2, 24)
    assert finding(sim_up, flat).verdict == "supported"
    assert finding(sim_up, flat + 2.5).verdict == "not supported"  # downstream shown outside the ±1 margin
    assert finding(-sim_up, flat).verdict == "not supported"  # similarity shown lower
    assert finding(sim_up, rng.normal(0, 3.0, 24)).verdict == "inconclusive"  # too noisy to show equivalence
    few = mean_tests(np.asarray(sim_up[:8]), fam[:8])
    assert postprocessing_finding(few, mean_tests(flat[:8], fam[:8], margin=1.0), n_pairs=8).verdict == "inconclusive"


def test_cli_families_csv_regex_and_compare_all(known_folder, tmp_path, capsys):
    from mteb_evalrank.cli import main

    fam_csv = tmp_path / "fam.csv"
    fam_csv.write_text("model,family\n" + "".join(f"org/fam{k // 3}-v{k % 3},F{k // 6}\n" for k in range(24)))
    csv = tmp_path / "c.csv"
    code = main(
        [
            "correlate",
            str(known_folder),
            "--intrinsic",
            "EvalRankSent",
            "SentEvalSTSB",
            "STR",
            "--downstream",
            "SentEvalMR",
            "SentEvalCR",
            "--families",
            str(fam_csv),
            "--csv",
            str(csv),
            "--compare-all",
            "--n-resamples",
            "200",
            "--no-progress",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    table = pd.read_csv(csv)
    assert {"rho_partial_family", "cluster_ci_low", "cluster_ci_high", "n_families"} <= set(table.columns)
    assert set(table["n_families"]) == {4}  # the CSV's 4 families, not the 8 of the names
    comp = printed.split("## Exploratory paired comparisons")[1]
    rows = [line for line in comp.splitlines() if line.startswith("| EvalRankSent")]
    assert len(rows) == 4  # EvalRankSent × {STS-B, STR} × {MR, CR}, each once
    assert "Benjamini-Hochberg over the 4 comparisons" in comp and "never decide" in comp
    code = main(
        [
            "correlate",
            str(known_folder),
            "--intrinsic",
            "EvalRankSent",
            "--downstream",
            "SentEvalMR",
            "--family-regex",
            r"^org/(fam\d+)-",
            "--csv",
            str(csv),
            "--n-resamples",
            "200",
            "--no-progress",
        ]
    )
    assert code == 0 and set(pd.read_csv(csv)["n_families"]) == {8}
    capsys.readouterr()
    for bad, message in (
        (["--family-regex", "org/fam"], "needs a group"),
        (["--family-regex", "("], "not a valid"),
        (["--families", str(tmp_path / "none.csv")], "no such file"),
    ):
        code = main(
            [
                "correlate",
                str(known_folder),
                "--intrinsic",
                "EvalRankSent",
                "--downstream",
                "SentEvalMR",
                *bad,
                "--no-progress",
            ]
        )
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0], err
