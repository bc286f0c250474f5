"""The study's Findings: each claim of the EvalRank paper, decided from the numbers by a rule fixed in advance.

One line per claim, with the verdict (*supported*, *not supported* or *inconclusive*), the figures that
decided it and the rule.  The rules (written before any result was read, and printed with every line):

**"EvalRank (sentence / word) predicts downstream better than STS / word similarity"** (EvalRank §5-6,
Tables 3 and 6).  The deciding column is fixed: the *downstream mean* (the mean of the downstream tasks'
main scores).  The competitor is the *strongest* baseline of that column (highest ρ), not the weakest.
The test is the paired family bootstrap of ρ(EvalRank) − ρ(baseline) with Holm's correction over every
comparison of the report (:func:`~mteb_evalrank.reports.correlation_study.fair_comparisons`).

- *supported*: the difference is positive and its Holm-corrected p < α;
- *not supported*: the difference is negative and its Holm-corrected p < α (the baseline predicts better);
- *inconclusive*: otherwise, and always with fewer than :data:`MIN_FAMILIES` (5) families: a cluster
  bootstrap over 2-4 clusters has only a handful of distinct resamples (Cameron, Gelbach & Miller 2008 on
  inference with few clusters).  The per-column tally (in how many downstream columns each side wins after
  correction) is printed as supporting detail, not as the decision.

**"Post-processing helps similarity scores but not downstream"** (EvalRank §6.2, Table 10).  For every
(post-processed, unprocessed) pair of the same checkpoint and pooling: Δ = mean change of the similarity
scores and of the downstream scores (points).  Mean Δ per group with a 95% interval resampling whole
families (:func:`~mteb_evalrank.metrics.family_statistics.cluster_bootstrap_mean`).

- *supported*: the similarity interval lies above 0 and the downstream interval does not;
- *not supported*: the similarity interval lies at or below 0, or the downstream interval lies above 0;
- *inconclusive*: otherwise (the similarity interval contains 0), and with fewer than 5 families.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE = "supported", "not supported", "inconclusive"
#: a family bootstrap over fewer clusters than this has too few distinct resamples to decide anything
#: (with 2 families there are 3); such claims are inconclusive whatever the p-value
MIN_FAMILIES = 5


@dataclass(frozen=True)
class Finding:
    """One claim, its verdict, the figures that decided it and the rule."""

    claim: str
    verdict: str
    figures: str
    rule: str

    def line(self) -> str:
        return f"- **{self.claim}: {self.verdict.upper()}.** {self.figures} *Rule:* {self.rule}"


def _fmt_p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def predicts_better_finding(claim: str, comp: pd.DataFrame, evalrank: str, target: str, *,
                            rho: Mapping[tuple[str, str], float] | None = None, alpha: float = 0.05) -> Finding:  # fmt: skip
    """Decide "``evalrank`` predicts downstream better than its baselines" from ``fair_comparisons`` rows."""
    rule = (f"deciding column fixed in advance: {target}; competitor: the strongest baseline of that column (highest ρ); "
            f"paired family bootstrap of ρ(EvalRank) − ρ(baseline), Holm-corrected over all "
            f"{comp.attrs.get('n_comparisons', len(comp))} comparisons of the report; supported if positive with "
            f"p_Holm < {alpha:g}, not supported if negative with p_Holm < {alpha:g}, else inconclusive; "
            f"always inconclusive with fewer than {MIN_FAMILIES} families.")  # fmt: skip
    rows = comp[(comp["a"] == evalrank)] if len(comp) else comp
    if not len(rows):
        return Finding(claim, INCONCLUSIVE, f"Not tested: no {evalrank} results or no baseline in this folder.", rule)
    best = rows[(rows["downstream"] == target) & rows["best_baseline"]]
    if not len(best) or best.iloc[0]["note"]:
        why = best.iloc[0]["note"] if len(best) else f"no baseline has a defined ρ with {target}"
        return Finding(claim, INCONCLUSIVE, f"Not decidable: {why}.", rule)
    r = best.iloc[0]
    if int(r["n_families"]) < MIN_FAMILIES:
        verdict = INCONCLUSIVE
    elif r["p_holm"] < alpha:
        verdict = SUPPORTED if r["difference"] > 0 else NOT_SUPPORTED
    else:
        verdict = INCONCLUSIVE
    rho_a = rho.get((evalrank, target), np.nan) if rho else np.nan
    rho_b = rho.get((r["b"], target), np.nan) if rho else np.nan
    per_column = rows[(rows["downstream"] != target) & rows["best_baseline"] & (rows["note"] == "")]
    wins = int(((per_column["p_holm"] < alpha) & (per_column["difference"] > 0)).sum())
    losses = int(((per_column["p_holm"] < alpha) & (per_column["difference"] < 0)).sum())
    figures = (f"{target}: ρ({evalrank}) = {rho_a:.1f}, ρ({r['b']}, strongest baseline) = {rho_b:.1f}; difference "
               f"{r['difference']:+.1f} [{r['ci_low']:+.1f}, {r['ci_high']:+.1f}], p = {_fmt_p(r['p_value'])}, "
               f"p_Holm = {_fmt_p(r['p_holm'])} (n = {int(r['n_models'])} models, f = {int(r['n_families'])} families). "
               f"Per downstream column against its strongest baseline: {evalrank} better in {wins}, worse in {losses}, "
               f"inconclusive in {len(per_column) - wins - losses} of {len(per_column)}.")  # fmt: skip
    return Finding(claim, verdict, figures, rule)


def postprocessing_finding(effects: pd.DataFrame, families: Sequence[str], similarity: str, downstream: str, *,
                           n_resamples: int = 1000, seed: int = 0) -> Finding:  # fmt: skip
    """Decide EvalRank Table 10's reading from ``postprocessing_effects`` rows (one per pair)."""
    from mteb_evalrank.metrics.family_statistics import cluster_bootstrap_mean

    claim = "Post-processing helps similarity scores but not downstream (EvalRank Table 10)"
    rule = ("mean Δ (post-processed − unprocessed, points) over all pairs, 95% interval resampling whole families; "
            "supported if the similarity interval is above 0 and the downstream interval is not; not supported if "
            "the similarity interval is at or below 0 or the downstream interval is above 0; else inconclusive; "
            f"always inconclusive with fewer than {MIN_FAMILIES} families.")
    if effects.empty or similarity not in effects or downstream not in effects:
        return Finding(claim, INCONCLUSIVE, "Not tested: no (post-processed, unprocessed) pair has results.", rule)
    ok = effects[[similarity, downstream]].notna().all(axis=1).to_numpy()
    fam = [f for f, keep in zip(families, ok) if keep]
    if ok.sum() < 2:
        return Finding(claim, INCONCLUSIVE, f"Not decidable: {int(ok.sum())} pair(s) with both scores.", rule)
    if len(set(fam)) < 2:
        return Finding(claim, INCONCLUSIVE, f"Not decidable: the {int(ok.sum())} pairs come from 1 family (a family "
                       "interval needs ≥ 2).", rule)  # fmt: skip
    few = len(set(fam)) < MIN_FAMILIES
    sim = cluster_bootstrap_mean(effects.loc[ok, similarity].to_numpy(), fam, n_resamples=n_resamples, seed=seed)
    down = cluster_bootstrap_mean(effects.loc[ok, downstream].to_numpy(), fam, n_resamples=n_resamples, seed=seed)
    if few:
        verdict = INCONCLUSIVE
    elif sim[2] <= 0 or down[1] > 0:
        verdict = NOT_SUPPORTED
    elif sim[1] > 0:
        verdict = SUPPORTED
    else:
        verdict = INCONCLUSIVE
    n_sim_up = int((effects.loc[ok, similarity] > 0).sum())
    n_down_up = int((effects.loc[ok, downstream] > 0).sum())
    figures = (f"{int(ok.sum())} pairs in {len(set(fam))} families. Similarity Δ {sim[0]:+.2f} [{sim[1]:+.2f}, "
               f"{sim[2]:+.2f}] (raised in {n_sim_up} pairs); downstream Δ {down[0]:+.2f} [{down[1]:+.2f}, "
               f"{down[2]:+.2f}] (raised in {n_down_up} pairs).")  # fmt: skip
    return Finding(claim, verdict, figures, rule)
