"""The confirmatory decision rule, tested by simulation under a lineage structure with a known truth.

Each simulated table has ``L`` lineages of ``m`` models.  A model's true downstream quality is its lineage's
effect plus its own; the measured downstream score adds noise; an intrinsic score is the quality plus a
lineage-shared error (so models of one lineage err together) plus its own error.  A smaller error is a
better predictor, so the truth of "A predicts better than every baseline" is set by the error scales.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mteb_evalrank.metrics.confirmatory import (
    INCONCLUSIVE,
    NOT_SUPPORTED,
    SUPPORTED,
    better_than_all,
    decide,
    mean_tests,
    within_cluster_permutation,
)

ALPHA = 0.05


def _mc_margin(p: float, n: int) -> float:
    """Three Monte-Carlo standard errors of a rejection rate."""
    return 3 * np.sqrt(p * (1 - p) / n)


def simulate(rng, L: int, m: int, claim_error: float, baseline_errors: list[float], shared: float = 0.6):
    lineage = np.repeat(np.arange(L), m)
    quality = rng.normal(0, 1, L)[lineage] + rng.normal(0, 0.5, L * m)
    downstream = quality + rng.normal(0, 0.3, L * m)

    def score(err: float) -> np.ndarray:
        return quality + rng.normal(0, shared, L)[lineage] * err + rng.normal(0, err, L * m)

    return score(claim_error), {f"b{k}": score(e) for k, e in enumerate(baseline_errors)}, downstream, lineage


def run(rng, n_tables: int, L: int, m: int, claim_error: float, baseline_errors: list[float], n_resamples: int = 300):
    verdicts, diffs, mdds = [], [], []
    for _ in range(n_tables):
        a, bs, y, lin = simulate(rng, L, m, claim_error, baseline_errors)
        t = better_than_all(a, bs, y, lin, n_resamples=n_resamples, seed=int(rng.integers(2**31)))
        verdicts.append(decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason))
        diffs.append(np.mean([c.difference for c in t.contrasts]))
        mdds.append(t.mdd)
    return np.array(verdicts), float(np.mean(diffs)), float(np.nanmean(mdds))


def test_type_one_error_at_the_boundary_of_the_null():
    """The least favourable null of the intersection-union test: the claim equals one baseline in
    distribution and is far better than the others.  SUPPORTED must come at most α of the time."""
    rng = np.random.default_rng(1)
    for L in (8, 20):
        n = 250
        verdicts, _, _ = run(rng, n, L, 3, 0.6, [0.6, 3.0, 3.0])
        rate = float(np.mean(verdicts == SUPPORTED))
        assert rate <= ALPHA + _mc_margin(ALPHA, n), (L, rate)


def test_power_matches_the_printed_minimum_detectable_difference():
    """The true advantage at which SUPPORTED comes 80% of the time (interpolated over a grid of true
    advantages) is about the printed minimum detectable difference.  The printed figure errs on the
    conservative side (measured: about 15-20% above the simulated 80%-power advantage; the cluster bootstrap's
    left tail with Student t critical values overstates it), never below it by more than Monte-Carlo noise."""
    rng = np.random.default_rng(2)
    L, m, n = 20, 3, 150
    points = []
    for claim_error in (0.9, 0.5, 0.3, 0.15):
        verdicts, true_adv, mdd = run(rng, n, L, m, claim_error, [1.0, 1.0])
        points.append((true_adv, float(np.mean(verdicts == SUPPORTED)), mdd))
    adv, power, mdd = (np.array(v) for v in zip(*points))
    assert np.all(np.diff(adv) > 0) and np.all(np.diff(power) >= -0.05), points  # monotone
    at_80 = float(np.interp(0.8, power, adv))
    assert 0.9 <= np.mean(mdd) / at_80 <= 1.35, (at_80, points)
    # the MDD hardly depends on the true advantage (it measures the design, not the effect)
    assert np.ptp(mdd) < 0.25 * np.mean(mdd), points


def test_large_advantage_is_supported_copy_is_inconclusive_better_baseline_is_not_supported():
    rng = np.random.default_rng(3)
    verdicts, _, _ = run(rng, 40, 15, 3, 0.05, [1.5, 1.5, 1.5])
    assert np.mean(verdicts == SUPPORTED) >= 0.9
    # the claim's score *is* a baseline (a copy): never supported, never refuted
    for _ in range(20):
        a, bs, y, lin = simulate(rng, 15, 3, 0.5, [1.0])
        t = better_than_all(a, {**bs, "copy": a.copy()}, y, lin, n_resamples=300, seed=1)
        assert decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason) == INCONCLUSIVE
        assert t.p_support == 1.0 and not np.isfinite(t.mdd)
    verdicts, _, _ = run(rng, 40, 15, 3, 1.5, [0.05, 1.5])
    assert np.mean(verdicts == NOT_SUPPORTED) >= 0.9
    # fewer than 5 lineages never decide, whatever the data say
    a, bs, y, lin = simulate(rng, 4, 10, 0.01, [3.0])
    t = better_than_all(a, bs, y, lin, n_resamples=300)
    assert t.reason and decide(t.p_support, t.p_refute, ALPHA, t.n_clusters, t.reason) == INCONCLUSIVE


def test_lineages_needed_scales_with_the_square_of_the_mdd():
    rng = np.random.default_rng(4)
    a, bs, y, lin = simulate(rng, 10, 3, 0.5, [1.0])
    t = better_than_all(a, bs, y, lin, n_resamples=500)
    assert t.lineages_needed(10) == pytest.approx(10 * (t.mdd / 10) ** 2)
    assert t.lineages_needed(t.mdd) == pytest.approx(10)


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
        cols = ["intrinsic", "downstream", "rho", "ci_low", "ci_high", "rho_partial_family", "cluster_ci_low",
                "cluster_ci_high", "n_models", "n_families"]  # fmt: skip
        pd.testing.assert_frame_equal(from_table[cols], from_folder[cols])


def _small_folder(root):
    import mteb
    from mteb.models import ModelMeta

    cache = mteb.ResultCache(root / "res")
    rng = np.random.default_rng(7)

    def save(task_name, meta, subsets):
        task = mteb.get_task(task_name)
        scores = {"test": {s: {"main_score": v[task.metadata.main_score], **v} for s, v in subsets.items()}}
        cache.save_to_cache(mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0), meta)

    for k in range(12):
        meta = ModelMeta.create_empty({"name": f"org/f{k // 2}-v{k % 2}", "revision": "r1"})
        q = rng.uniform()
        save("EvalRankSent", meta, {"all": {"mrr": round(q + rng.normal(0, 0.1), 6), "num_pairs": 6989}})
        save("SentEvalSTSB", meta, {"default": {"cosine_spearman": round(q + rng.normal(0, 0.3), 6), "num_pairs": 1379}})
        for task in ("SentEvalMR", "SentEvalCR"):
            save(task, meta, {"default": {"accuracy": round(0.6 + 0.3 * q + rng.normal(0, 0.02), 6), "ntest": 10000}})
    return root / "res"


def test_cli_claim_prints_its_finding_first(tmp_path, capsys):
    from mteb_evalrank.cli import main

    rng = np.random.default_rng(8)
    a, bs, y, lin = simulate(rng, 14, 3, 0.05, [1.5, 1.5])
    table = pd.DataFrame({"model": [f"m{k}" for k in range(len(y))], "lineage": [f"L{v}" for v in lin],
                          "family": [f"F{k}" for k in range(len(y))], "A": a, **bs, "down": y})  # fmt: skip
    table.loc[len(table)] = ["floor", "Lf", "Ff", -9.0, -9.0, -9.0, -9.0]
    table["floor"] = [False] * (len(table) - 1) + [True]
    path = tmp_path / "t.csv"
    table.to_csv(path, index=False)
    code = main(["correlate", str(path), "--intrinsic", "A", "b0", "b1", "--downstream", "down", "--claim", "A",
                 "--n-resamples", "200", "--no-progress"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    verdict_lines = [ln for ln in out.splitlines() if any(v in ln for v in ("SUPPORTED", "INCONCLUSIVE"))]
    assert verdict_lines[0].startswith("- **A predicts down better than every other primary intrinsic score given: SUPPORTED.**")
    assert "14 lineages" in verdict_lines[0] and "1 random floors left out" in verdict_lines[0]
    assert "Minimum detectable difference" in verdict_lines[0]
    for bad, message in ((["--claim", "nope"], "--claim 'nope' is not one of the intrinsic scores"),
                         (["--claim", "A", "--target", "x"], "--target 'x' is not one of the downstream scores")):  # fmt: skip
        code = main(["correlate", str(path), "--intrinsic", "A", "b0", "--downstream", "down", *bad, "--no-progress"])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1 and message in err[0], err


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
