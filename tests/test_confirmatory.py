"""The confirmatory decision rule, tested by simulation under the study's observed lineage structure.

Each simulated table has the lineage sizes of the sentence study (23, 20, 10, 9, 6, 4, 3, 3, 3, 3, 3, 2, 2, 2,
2: 95 models in 15 lineages).  A model's true downstream quality is its lineage's effect plus its own; the
measured downstream score adds noise; an intrinsic score is the quality plus a *strong* lineage-shared error
(the models of one lineage err together) plus a small error of its own.  A smaller error is a better
predictor, so the truth of "A predicts better than every baseline" is set by the error scales.

Each test here fails when the rule breaks in one of the ways a reviewer would try: the bootstrap over models
instead of lineages (the null rate), the decision at 2α, p as the minimum over the baselines instead of the
maximum, the MDD at 50% power (its realised power), a normal instead of Student's t, and an estimand that
moves when a lineage's rows are entered twice.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd
import pytest

from mteb_evalrank.metrics.confirmatory import (
    INCONCLUSIVE,
    NOT_SUPPORTED,
    SUPPORTED,
    better_than_all,
    better_within,
    decide,
    mean_tests,
    within_cluster_permutation,
    within_pairs,
)

ALPHA = 0.05
SIZES = (23, 20, 10, 9, 6, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2)


def _mc_margin(p: float, n: int, z: float = 2.33) -> float:
    """``z`` Monte-Carlo standard errors of a rejection rate (one-sided 1%)."""
    return z * np.sqrt(p * (1 - p) / n)


def simulate(rng, claim_error: float, baseline_errors: list[float], sizes=SIZES, shared: float = 1.0):
    lineage = np.repeat(np.arange(len(sizes)), sizes)
    L, n = len(sizes), len(lineage)
    quality = rng.normal(0, 1, L)[lineage] + rng.normal(0, 0.3, n)
    downstream = quality + rng.normal(0, 0.2, n)

    def score(err: float) -> np.ndarray:
        return quality + rng.normal(0, err * shared, L)[lineage] + rng.normal(0, 0.3 * err, n)

    return score(claim_error), {f"b{k}": score(e) for k, e in enumerate(baseline_errors)}, downstream, lineage


@functools.lru_cache(maxsize=1)
def _null_runs(n_tables: int = 200) -> tuple[np.ndarray, ...]:
    """The least favourable null of the intersection-union test with one baseline: the claim and the baseline
    have the same error scale, so the true difference is 0.  Per table: verdict, difference, SE, printed MDD."""
    rng = np.random.default_rng(11)
    rows = []
    for k in range(n_tables):
        a, bs, y, lin = simulate(rng, 0.7, [0.7])
        t = better_than_all(a, bs, y, lin, n_resamples=400, seed=k, simulate_growth=False)
        c = t.contrasts[0]
        rows.append(
            (
                decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason) == SUPPORTED,
                c.difference,
                c.se,
                t.mdd,
                t.n_clusters,
            )
        )
    return tuple(np.array(v) for v in zip(*rows))


def test_null_rate_under_the_observed_lineage_sizes():
    """At the boundary of the null, SUPPORTED comes at most α of the time (plus Monte-Carlo error).  Ignoring
    the lineages (each model resampled alone) rejects about 25% of the time on these tables."""
    supported, *_ = _null_runs()
    assert supported.mean() <= ALPHA + _mc_margin(ALPHA, len(supported)), supported.mean()


def test_printed_mdd_has_its_power_against_the_true_sampling_distribution():
    """The MDD is the advantage the test detects 80% of the time: shift the *true* sampling distribution of the
    difference (over the simulated tables, not the bootstrap) by each table's printed MDD and count how often the
    test rejects.  An MDD computed for 50% power realises about 55% here."""
    from scipy.stats import t as student

    _, diff, se, mdd, n_clusters = _null_runs()
    crit = student.ppf(1 - ALPHA, n_clusters - 1)
    realised = float(np.mean((mdd + diff - diff.mean()) / se > crit))
    assert 0.68 <= realised <= 0.95, realised


def test_p_values_use_student_t_with_lineages_minus_one_df():
    from scipy.stats import t as student

    rng = np.random.default_rng(12)
    a, bs, y, lin = simulate(rng, 0.5, [0.7, 1.0])
    t = better_than_all(a, bs, y, lin, n_resamples=300, simulate_growth=False)
    for c in t.contrasts:
        assert c.p_better == pytest.approx(float(student.sf(c.difference / c.se, len(SIZES) - 1)), rel=1e-12)
        assert c.p_worse == pytest.approx(float(student.sf(-c.difference / c.se, len(SIZES) - 1)), rel=1e-12)


def test_support_is_the_largest_p_and_refutation_bonferroni():
    """Intersection-union: a claim far better than one baseline and equal to another is not supported; its p is
    the larger of the two (never the smaller); "some baseline better" is Bonferroni over the baselines."""
    rng = np.random.default_rng(13)
    a, bs, y, lin = simulate(rng, 0.5, [6.0])
    t = better_than_all(a, {"far": bs["b0"], "copy": a.copy()}, y, lin, n_resamples=300, simulate_growth=False)
    far, copy = t.contrasts
    assert far.p_better < ALPHA and copy.p_better == 1.0
    assert t.p_support == max(far.p_better, copy.p_better) == 1.0
    assert t.p_refute == pytest.approx(min(1.0, 2 * min(far.p_worse, copy.p_worse)))
    assert decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason) == INCONCLUSIVE


def test_decision_is_taken_at_alpha_after_holm():
    """p between α and 2α never supports; Holm across three claims multiplies the smallest p by 3."""
    from mteb_evalrank.reports.verdict import Finding, adjust_across_claims

    assert decide(0.049, 1.0, ALPHA, 15) == SUPPORTED
    assert decide(0.051, 1.0, ALPHA, 15) == decide(0.099, 1.0, ALPHA, 15) == INCONCLUSIVE
    assert decide(1.0, 0.06, ALPHA, 15) == INCONCLUSIVE and decide(1.0, 0.04, ALPHA, 15) == NOT_SUPPORTED

    def finding(p):
        return Finding("c", INCONCLUSIVE, "", "", p_support=p, p_refute=1.0, n_clusters=15)

    one = adjust_across_claims([finding(0.03)])
    assert one[0].verdict == SUPPORTED
    three = adjust_across_claims([finding(0.03), finding(0.5), finding(0.6)])
    assert three[0].verdict == INCONCLUSIVE  # 0.03 · 3 = 0.09 > α
    assert adjust_across_claims([finding(0.03), finding(0.5)], family_size=3)[0].verdict == INCONCLUSIVE


def test_large_advantage_is_supported_better_baseline_is_not_supported_few_lineages_never_decide():
    rng = np.random.default_rng(3)
    verdicts = []
    for k in range(20):
        a, bs, y, lin = simulate(rng, 0.05, [1.5, 1.5])
        t = better_than_all(a, bs, y, lin, n_resamples=300, seed=k, simulate_growth=False)
        verdicts.append(decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason))
    assert np.mean(np.array(verdicts) == SUPPORTED) >= 0.8, verdicts
    verdicts = []
    for k in range(20):
        a, bs, y, lin = simulate(rng, 3.0, [0.05, 3.0])
        t = better_than_all(a, bs, y, lin, n_resamples=300, seed=k, simulate_growth=False)
        verdicts.append(decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason))
    assert np.mean(np.array(verdicts) == NOT_SUPPORTED) >= 0.8, verdicts
    a, bs, y, lin = simulate(rng, 0.01, [3.0], sizes=(10, 10, 10, 10))
    t = better_than_all(a, bs, y, lin, n_resamples=300, simulate_growth=False)
    assert t.reason and decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason) == INCONCLUSIVE
    # a copy of a baseline has no MDD: no advantage over it can ever be shown
    t = better_than_all(a, {"copy": a.copy()}, y, lin, n_resamples=300, simulate_growth=False)
    assert t.p_support == 1.0 and not np.isfinite(t.mdd)


def _duplicate(rng, arrays, lin, target_lineage, k):
    """The same table with ``target_lineage``'s rows entered ``k`` times, rows shuffled."""
    extra = np.flatnonzero(lin == target_lineage)
    idx = np.concatenate([np.arange(len(lin)), *([extra] * (k - 1))])
    idx = idx[rng.permutation(len(idx))]
    return [np.asarray(v)[idx] for v in arrays], lin[idx]


@pytest.mark.parametrize("target_lineage,k", [(0, 2), (0, 3), (1, 3), (14, 4)])
def test_entering_a_lineage_k_times_changes_no_figure(target_lineage, k):
    """The estimand fixed in advance weighs lineages equally: the ρ, differences, SEs, p-values, MDD and the
    simulated "more lineages" are the same, with the same seed, whatever the multiplicity or order of rows."""
    rng = np.random.default_rng(14)
    a, bs, y, lin = simulate(rng, 0.6, [0.8, 1.2])
    base = better_than_all(a, bs, y, lin, n_resamples=500, seed=3, mdd_alpha=ALPHA / 3)
    (a2, b0, b1, y2), lin2 = _duplicate(rng, [a, bs["b0"], bs["b1"], y], lin, target_lineage, k)
    dup = better_than_all(a2, {"b0": b0, "b1": b1}, y2, lin2, n_resamples=500, seed=3, mdd_alpha=ALPHA / 3)
    assert dup.n_models == base.n_models + (k - 1) * int((lin == target_lineage).sum())
    for field in ("rho_claim", "p_support", "p_refute", "mdd", "room", "power_at_room", "more_lineages"):
        assert getattr(dup, field) == pytest.approx(getattr(base, field), rel=1e-9, abs=1e-9), field
    for c, d in zip(base.contrasts, dup.contrasts):
        for field in ("rho_baseline", "difference", "se", "ci_low", "ci_high", "p_better", "p_worse"):
            assert getattr(d, field) == pytest.approx(getattr(c, field), rel=1e-9, abs=1e-9), field
    # the per-model estimand, a sensitivity line, does move: the reason it is not the primary one
    pm = better_than_all(a, bs, y, lin, n_resamples=500, seed=3, weighting="model", simulate_growth=False)
    pm2 = better_than_all(
        a2, {"b0": b0, "b1": b1}, y2, lin2, n_resamples=500, seed=3, weighting="model", simulate_growth=False
    )
    assert pm2.rho_claim != pytest.approx(pm.rho_claim, abs=1e-6)


@pytest.mark.parametrize("k", [2, 3])
def test_within_and_mean_tests_do_not_move_with_duplicated_lineages(k):
    rng = np.random.default_rng(15)
    a, bs, y, lin = simulate(rng, 0.6, [0.8])
    strata = np.array([f"{lineage}-{i % 3}" for i, lineage in enumerate(lin)])
    pairs = [(i, j) for i, j, _ in within_pairs(strata)]
    base = better_within(a, bs, y, strata, lin, pairs, n_resamples=400, seed=2, simulate_growth=False)
    (a2, b2, y2, s2), lin2 = _duplicate(rng, [a, bs["b0"], y, strata], lin, 1, k)
    pairs2 = [(i, j) for i, j, _ in within_pairs(s2)]
    dup = better_within(a2, {"b0": b2}, y2, s2, lin2, pairs2, n_resamples=400, seed=2, simulate_growth=False)
    assert dup.rho_claim == pytest.approx(base.rho_claim) and dup.mdd == pytest.approx(base.mdd)
    assert dup.contrasts[0].p_better == pytest.approx(base.contrasts[0].p_better)
    m1 = mean_tests(a - y, lin, margin=1.0, n_resamples=400, seed=2)
    (d2,), lin3 = _duplicate(rng, [a - y], lin, 1, k)
    m2 = mean_tests(d2, lin3, margin=1.0, n_resamples=400, seed=2)
    for field in ("mean", "se", "p_positive", "p_equivalent", "mdd_positive", "min_margin"):
        assert getattr(m2, field) == pytest.approx(getattr(m1, field), rel=1e-9), field


def test_the_score_table_finding_does_not_move_when_a_lineage_is_entered_twice(tmp_path):
    """``correlate TABLE --claim``: the printed Finding is the same but for its count of models."""
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report

    rng = np.random.default_rng(16)
    a, bs, y, lin = simulate(rng, 0.5, [0.8, 1.0])
    table = pd.DataFrame(
        {"model": [f"m{i}" for i in range(len(y))], "lineage": [f"L{v}" for v in lin], "A": a, **bs, "down": y}
    )
    twice = pd.concat([table, table[table["lineage"] == "L0"].assign(model=lambda t: t["model"] + "-copy")])
    lines = []
    for name, t in (("once.csv", table), ("twice.csv", twice)):
        t.to_csv(tmp_path / name, index=False)
        report = correlate_report(
            tmp_path / name, ["A", "b0", "b1"], ["down"], CorrelateOptions(claim="A", n_resamples=300)
        )
        lines.append(re.sub(r"\b\d+ models in", "N models in", report.finding.line()))
    assert lines[0] == lines[1]


def test_honest_power_wording_when_no_advantage_is_attainable():
    """When the MDD exceeds 100 − the best baseline's ρ, the Finding says no attainable advantage had 80% power,
    never that an advantage of MDD points would probably have been seen; "more lineages" counts the extra ones."""
    from mteb_evalrank.reports.verdict import better_than_all_finding

    rng = np.random.default_rng(17)
    a, bs, y, lin = simulate(rng, 0.6, [0.4], sizes=(8, 7, 6, 5, 3, 2))
    t = better_than_all(a, bs, y, lin, n_resamples=400, mdd_alpha=ALPHA / 3)
    assert t.mdd > t.room  # a strong baseline and 6 lineages: the MDD is beyond the room
    line = better_than_all_finding("c", t, "A", "down", list(bs), n_claims=3).line()
    assert "No attainable advantage had 80% power" in line and "would probably have been seen" not in line
    assert f"α = {ALPHA / 3:.4g}" in line
    if np.isfinite(t.more_lineages):
        assert f"About {t.more_lineages:.0f} more lineages" in line
        assert t.more_lineages > 0
    else:
        assert "would not give 80% power" in line


def test_equivalence_type_one_error_and_power():
    """TOST at the margin (true change = +margin) rejects at most α; at a true change of 0 with enough
    lineages it shows equivalence, and the printed narrowest margin is about what it can show."""
    rng = np.random.default_rng(5)
    L, n = 12, 300
    lin = np.repeat(np.arange(L), 2)

    def draw(true: float) -> np.ndarray:
        return true + rng.normal(0, 0.8, L)[lin] + rng.normal(0, 0.5, 2 * L)

    rej = [mean_tests(draw(1.0), lin, margin=1.0, n_resamples=300, seed=k).p_equivalent < ALPHA for k in range(n)]
    assert np.mean(rej) <= ALPHA + _mc_margin(ALPHA, n)
    tests = [mean_tests(draw(0.0), lin, margin=1.0, n_resamples=300, seed=k) for k in range(100)]
    shown = np.mean([t.p_equivalent < ALPHA for t in tests])
    narrowest = np.mean([t.min_margin for t in tests])
    # the margin 1.0 is wider than the narrowest demonstrable one, so power exceeds 80%
    assert narrowest < 1.0 and shown >= 0.75, (narrowest, shown)


def test_within_checkpoint_permutation_is_valid_and_detects_within_order():
    rng = np.random.default_rng(6)
    strata = np.repeat(np.arange(8), 4)
    # null: x carries the checkpoint effect only; within a checkpoint it is unrelated to y
    ps = []
    for k in range(200):
        effect = rng.normal(0, 3, 8)[strata]
        y = effect + rng.normal(0, 1, 32)
        x = effect + rng.normal(0, 1, 32)
        ps.append(within_cluster_permutation(x, y, strata, n_permutations=400, seed=k).p_value)
    assert np.mean(np.array(ps) < ALPHA) <= ALPHA + _mc_margin(ALPHA, 200)
    # alternative: x orders the variants within each checkpoint as y does
    effect = rng.normal(0, 3, 8)[strata]
    within = rng.normal(0, 1, 32)
    w = within_cluster_permutation(effect + within + rng.normal(0, 0.3, 32), effect + within, strata, seed=0)
    assert w.partial_rho > 70 and w.p_value < 0.001 and w.p_reverse > 0.99


def test_score_table_gives_the_same_rho_as_the_results_folder(tmp_path):
    """A plain CSV/TSV of the scores is analysed exactly like the results folder it came from."""
    from mteb_evalrank.reports.correlation_study import correlate

    folder = _small_folder(tmp_path)
    names = (["EvalRankSent", "SentEvalSTSB"], ["SentEvalMR", "SentEvalCR"])
    from_folder = correlate(folder, *names, n_resamples=300, family_regex=r"^org/(f\d+)-")
    scores = from_folder.attrs["scores"].copy()
    scores.insert(0, "family", [from_folder.attrs["families"][m] for m in scores.index])
    for suffix, sep in ((".csv", ","), (".tsv", "\t")):
        path = tmp_path / f"table{suffix}"
        scores.rename_axis("model").to_csv(path, sep=sep, float_format="%.17g")
        from_table = correlate(path, *names, n_resamples=300)
        cols = [
            "intrinsic",
            "downstream",
            "rho",
            "ci_low",
            "ci_high",
            "rho_partial_family",
            "cluster_ci_low",
            "cluster_ci_high",
            "n_models",
            "n_families",
        ]
        pd.testing.assert_frame_equal(from_table[cols], from_folder[cols])


def _small_folder(root):
    import mteb
    from mteb.models import ModelMeta

    cache = mteb.ResultCache(root / "res")
    rng = np.random.default_rng(7)  # scores clipped to their ranges (a result outside them is refused)

    def save(task_name, meta, subsets):
        task = mteb.get_task(task_name)
        scores = {"test": {s: {"main_score": v[task.metadata.main_score], **v} for s, v in subsets.items()}}
        cache.save_to_cache(mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0), meta)

    for k in range(12):
        meta = ModelMeta.create_empty({"name": f"org/f{k // 2}-v{k % 2}", "revision": "r1"})
        q = rng.uniform()
        save(
            "EvalRankSent",
            meta,
            {"all": {"mrr": round(float(np.clip(q + rng.normal(0, 0.1), 0, 1)), 6), "num_pairs": 6989}},
        )
        save(
            "SentEvalSTSB",
            meta,
            {
                "default": {
                    "cosine_spearman": round(float(np.clip(q + rng.normal(0, 0.3), -1, 1)), 6),
                    "num_pairs": 1379,
                }
            },
        )
        for task in ("SentEvalMR", "SentEvalCR"):
            save(task, meta, {"default": {"accuracy": round(0.6 + 0.3 * q + rng.normal(0, 0.02), 6), "ntest": 10000}})
    return root / "res"


def test_cli_claim_prints_its_finding_first(tmp_path, capsys):
    from mteb_evalrank.cli import main

    rng = np.random.default_rng(8)
    a, bs, y, lin = simulate(rng, 0.05, [1.5, 1.5], sizes=(3,) * 14)
    table = pd.DataFrame(
        {
            "model": [f"m{k}" for k in range(len(y))],
            "lineage": [f"L{v}" for v in lin],
            "family": [f"F{k}" for k in range(len(y))],
            "A": a,
            **bs,
            "down": y,
        }
    )
    table.loc[len(table)] = ["floor", "Lf", "Ff", -9.0, -9.0, -9.0, -9.0]
    table["floor"] = [False] * (len(table) - 1) + [True]
    path = tmp_path / "t.csv"
    table.to_csv(path, index=False)
    code = main(
        [
            "correlate",
            str(path),
            "--intrinsic",
            "A",
            "b0",
            "b1",
            "--downstream",
            "down",
            "--claim",
            "A",
            "--n-resamples",
            "200",
            "--no-progress",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    verdict_lines = [ln for ln in out.splitlines() if any(v in ln for v in ("SUPPORTED", "INCONCLUSIVE"))]
    assert verdict_lines[0].startswith(
        "- **A predicts down better than every other primary intrinsic score given: SUPPORTED.**"
    )
    assert "14 lineages" in verdict_lines[0] and "1 random floors left out" in verdict_lines[0]
    assert "Minimum detectable difference" in verdict_lines[0]
    assert "Sensitivity (exploratory, never deciding): the per-model ρ" in out  # printed apart, not bold
    for bad, message in (
        (["--claim", "nope"], "--claim 'nope' is not one of the intrinsic scores"),
        (["--claim", "A", "--target", "x"], "--target 'x' is not one of the downstream scores"),
    ):
        code = main(["correlate", str(path), "--intrinsic", "A", "b0", "--downstream", "down", *bad, "--no-progress"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0], err


@pytest.mark.integration
def test_population_files_carry_lineages():
    """Every family of the committed populations has a lineage and a reason; floors are their own lineages."""
    from pathlib import Path

    from mteb_evalrank.models.lineage import UNLISTED_REASON, lineage_table

    table = lineage_table()
    docs = Path(__file__).resolve().parents[1] / "docs" / "study"
    for name in ("population.csv", "word_population.csv"):
        pop = pd.read_csv(docs / name)
        assert {"lineage", "lineage_reason"} <= set(pop.columns), name
        assert set(pop["family"]) <= set(table), set(pop["family"]) - set(table)
        assert not (pop["lineage_reason"] == UNLISTED_REASON).any()
        for floor_lineage in pop.loc[pop["floor"], "lineage"].unique():
            assert set(pop.loc[pop["lineage"] == floor_lineage, "floor"]) == {True}, floor_lineage
