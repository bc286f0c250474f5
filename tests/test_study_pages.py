"""Issue 46 req 4: the study pages say what they can decide.

- The second estimand's Holm family is fixed by the design (contrast types whose pairs span ≥ 5 lineages),
  never by outcomes: shuffling the scores leaves it unchanged.
- An adjusted p of 1 prints "p > 0.99".
- The figures the docs quote from the committed study are the data's (statistics.md, running-the-study.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _committed(level_prefix: str = ""):
    scores = pd.read_csv(DOCS / "study" / f"{level_prefix}scores.csv", index_col=0)
    pop = pd.read_csv(DOCS / "study" / f"{level_prefix}population.csv", index_col=0).fillna("")
    return scores, pop


def _analysis(scores, pop, level):
    from mteb_evalrank.reports.study_analysis import Analysis, confirmatory_models, holm_family, within_tests

    empty = pd.DataFrame()
    a = Analysis(level, scores, empty, pop, empty, empty, empty, empty, {}, [], [])
    confirm = confirmatory_models(pop)
    a.within_family = holm_family(pop, confirm)
    a.within_tests = within_tests(scores, pop, level, confirm, n_resamples=300, seed=0, family=a.within_family)
    return a


@pytest.mark.parametrize("prefix", ["", "word_"])
def test_the_holm_family_is_fixed_by_design_not_by_outcomes(prefix):
    from mteb_evalrank.metrics.confirmatory import CONTRAST_TYPES, MIN_CLUSTERS, within_pairs
    from mteb_evalrank.reports.study_analysis import DOWNSTREAM_MEAN, LEVELS, confirmatory_models

    level = LEVELS["word" if prefix else "sentence"]
    scores, pop = _committed(prefix)
    confirm = list(confirmatory_models(pop))
    from mteb_evalrank.reports.study_analysis import FACTOR_COLUMNS

    factors = [c for c in FACTOR_COLUMNS if c in pop.columns]
    pairs = within_pairs(
        pop.loc[confirm, "family"].tolist(), [{c: str(pop.at[m, c]) for c in factors} for m in confirm]
    )
    spans = {k: len({pop.at[confirm[i], "lineage"] for i, _, t in pairs if t == k}) for k in CONTRAST_TYPES}
    expected = tuple(k for k in CONTRAST_TYPES if spans[k] >= MIN_CLUSTERS)
    original = _analysis(scores, pop, level)
    assert original.within_family == expected and expected  # post-processing at both levels of the committed study
    assert set(original.within_tests) - set(expected)  # types outside the family are still tested and shown

    rng = np.random.default_rng(1)
    shuffled = scores.copy()
    shuffled[:] = scores.to_numpy()[rng.permutation(len(scores))]  # every score of a model moved to another
    flat = scores.copy()
    flat[DOWNSTREAM_MEAN] = pop["family"].map(scores.groupby(pop["family"])[DOWNSTREAM_MEAN].mean())  # no pair differs
    for other in (shuffled, flat):
        assert _analysis(other, pop, level).within_family == original.within_family

    lines = [f.line() for f in original.within_findings()]
    for kind, line in zip(original.within_tests, lines):
        n = len(expected)
        if kind in expected:
            holm = f"Holm across the {n} contrast types" if n > 1 else "Holm across 1 contrast type (no correction)"
            assert holm in line and "Not in the Holm family" not in line
        else:
            assert ": INCONCLUSIVE.**" in line  # shown, never deciding
            assert "Not in the Holm family" in line or "Not decidable: 1 lineage with such pairs" in line
    shuffled_lines = [f.line() for f in _analysis(shuffled, pop, level).within_findings()]
    assert [("Not in the Holm family" in x) for x in shuffled_lines] == [("Not in the Holm family" in x) for x in lines]


def test_p_after_adjustment_prints_above_0_99():
    from mteb_evalrank.reports.verdict import format_p

    assert format_p(1.0) == "p > 0.99"
    assert format_p(0.995) == "p > 0.99"
    assert format_p(0.99) == "p = 0.990"
    assert format_p(0.0004) == "p < 0.001"
    assert format_p(float("nan")) == "p = –"
    for page in ("study.md", "word_level.md"):
        text = (DOCS / "study" / page).read_text(encoding="utf-8")
        assert "p = 1.000" not in text


def test_the_within_checkpoint_line_that_ignored_lineages_is_gone():
    for page in ("study.md", "word_level.md"):
        text = (DOCS / "study" / page).read_text(encoding="utf-8")
        assert "stratified permutation" not in text and "per-model partial Spearman" not in text


# --- the docs' figures from the data ------------------------------------------------------------------
def _sentence():
    from mteb_evalrank.reports.study_plan import COMMITTED_TABLE

    table = pd.read_csv(COMMITTED_TABLE)
    return table[table["level"] == "sentence"]


def test_statistics_md_quotes_the_per_model_rho_and_the_tripled_lineage():
    from scipy.stats import spearmanr

    s = _sentence()
    rho = spearmanr(s["EvalRankSent"], s["downstream mean"])[0] * 100
    weakest = s.groupby("lineage")["downstream mean"].mean().idxmin()
    tripled = pd.concat([s, s[s["lineage"] == weakest], s[s["lineage"] == weakest]])
    rho3 = spearmanr(tripled["EvalRankSent"], tripled["downstream mean"])[0] * 100
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert f"per-model ρ(EvalRankSent) moves from {rho:.1f} to {rho3:.1f}" in text
    assert f"a lineage of {(s['lineage'] == weakest).sum()} variants" in text


def test_statistics_md_quotes_what_the_floors_beat_downstream():
    scores, pop = _committed()
    s = _sentence()
    real = scores.loc[s["model"], "downstream mean"]
    floors = pop.index[pop["floor"].astype(bool)]
    beats = [int((real < scores.at[m, "downstream mean"]).sum()) for m in floors]
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert f"each beats {min(beats)} to {max(beats)} of the {len(real)} real models on the downstream mean" in text


def test_statistics_md_quotes_the_within_checkpoint_line_without_its_one_lineage():
    """The per-model within-checkpoint line went because one lineage carried it: the doc quotes it with and
    without that lineage, as the data give them."""
    from mteb_evalrank.metrics.confirmatory import within_cluster_permutation
    from mteb_evalrank.reports.study_analysis import confirmatory_models

    scores, pop = _committed("word_")
    part = scores.loc[confirmatory_models(pop), ["EvalRankWord", "downstream mean"]].dropna()

    def rho(rows) -> float:
        q = part.loc[rows]
        return within_cluster_permutation(
            q["EvalRankWord"], q["downstream mean"], pop.loc[q.index, "family"]
        ).partial_rho

    without = [m for m in part.index if pop.at[m, "lineage"] != "sbert-minilm-mpnet"]
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert f"its word-level {rho(part.index):.1f}, p < 0.001" in text
    assert f"without the models of sbert-minilm-mpnet it is {rho(without):.1f}".replace(" -", " −") in text


def test_statistics_md_quotes_the_lineage_sizes():
    from tests.test_confirmatory import SIZES

    sizes = sorted(_sentence()["lineage"].value_counts().tolist(), reverse=True)
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert f"the population now has {len(sizes)}: {', '.join(map(str, sizes))}" in text
    assert f"{len(SIZES)} lineages of sizes ({', '.join(map(str, SIZES))})" in text


def test_statistics_md_quotes_the_square_root_extrapolation():
    """The growth simulation is the 1/√L extrapolation of the observed bootstrap error, computed by
    resampling, once the t reference's degrees of freedom grow with L'; the doc quotes both figures."""
    from mteb_evalrank.metrics import confirmatory as C
    from mteb_evalrank.metrics.lineage_weighting import expand_counts, lineage_codes, lineage_counts, unit_weights
    from mteb_evalrank.reports.study_plan import level_data

    data = level_data("sentence")
    claim, baselines, y, lineages = data.claim, data.baselines, data.y, data.clusters
    codes, labels = lineage_codes(lineages)
    n = len(labels)
    scores = [np.asarray(claim), *[np.asarray(v) for v in baselines.values()]]
    boot = C._rank_correlations(
        scores, np.asarray(y), expand_counts(lineage_counts(n, 2000, 0), codes, unit_weights(codes))
    )
    d = boot[:, :1] - boot[:, 1:]
    se, centred, alpha = d.std(axis=0, ddof=1), d - d.mean(axis=0), 0.05 / 3

    def power(total: int, df: int) -> float:
        shrink = np.sqrt(n / total)
        return float(np.mean(np.all((10 + centred * shrink) / (se * shrink) > C.t_critical(alpha, df), axis=1)))

    adjusted = next(k for k in range(n, 2000) if power(k, k) >= 0.8)
    fixed = next(k for k in range(n, 2000) if power(k, n) >= 0.8)
    simulated = int(re.search(r"\((\d+) in all\)", (DOCS / "study" / "study.md").read_text(encoding="utf-8")).group(1))
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert f"{simulated} lineages by the simulation, {adjusted} by se ∝ 1/√L with t(L' − 1)" in text
    assert f"{fixed} with t(L − 1) kept" in text


def test_running_the_study_quotes_the_population_sizes():
    scores, pop = _committed()
    word_scores, word_pop = _committed("word_")
    text = " ".join((DOCS / "running-the-study.md").read_text(encoding="utf-8").split())
    assert "60 variants in 12 families" not in text and "34 word models" not in text
    assert "outside simulation" not in text
    assert f"{len(scores)} variants in {pop['family'].nunique()} families" in text
    assert f"{len(word_scores)} word models" in text


def test_statistics_md_quotes_the_verdict_the_holm_family_changed():
    """The one verdict the design-fixed family changes, as the page prints it, and as Holm over the six types
    of the previous pages gave it (six times the smallest p, the others being 1)."""
    page = " ".join((DOCS / "study" / "study.md").read_text(encoding="utf-8").split())
    line = page.split("- **EvalRankSent picks the better post-processing variant", 1)[1].split("- **", 1)[0]
    assert line.startswith(" within a checkpoint more often than every baseline: NOT SUPPORTED.**")
    p = float(
        re.search(r"Holm across 1 contrast type \(no correction\): p > 0\.99 for, p = ([\d.]+) against", line).group(1)
    )
    kappa = re.search(r"κ\(EvalRankSent\) = ([\d.-]+);.*STR ([\d.-]+) \(", line).groups()
    text = " ".join((DOCS / "statistics.md").read_text(encoding="utf-8").split())
    assert (
        f"over six types (p = {min(1.0, 6 * p):.3f} against) and is NOT SUPPORTED with the family of one (p = {p:.3f} against)"
        in text
    )
    assert f"κ {kappa[1]} against {kappa[0]}" in text
