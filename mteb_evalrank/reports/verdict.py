"""The study's Findings: each claim of the EvalRank paper, decided by one test named in advance.

Exactly three claims are confirmatory (:data:`CLAIMS`); each has one test fixed before any result is read,
printed with its line, and Holm's correction runs across those three only (Holm 1979).  Everything else
a report shows (per-column comparisons, sub-scores, other baselines, the sensitivity lines) is
exploratory: unadjusted p with Benjamini-Hochberg q, never bold, never deciding.  The tests themselves
are in :mod:`mteb_evalrank.metrics.confirmatory`; this module only words them.

1. **EvalRank (sentence) predicts downstream better than STS** (EvalRank §6, Table 6), and
2. **EvalRank (word) predicts downstream better than word similarity** (§5, Table 3).  Target fixed in
   advance: the downstream mean.  Competitors fixed in advance: *every* primary similarity baseline of the
   level.  Test: one-sided paired lineage-bootstrap test of ρ(EvalRank) − ρ(b) against each baseline b;
   intersection-union (Berger 1982): *supported* iff all reject (p = max).  *Not supported* iff some
   baseline is shown better (one-sided, Bonferroni over the baselines).  Random floors excluded.
3. **Post-processing helps similarity scores but not downstream** (§6.2, Table 10).  Over every
   (post-processed, unprocessed) pair of one checkpoint: the mean similarity change is > 0 (one-sided) *and*
   the mean downstream change lies within ± :data:`EQUIVALENCE_MARGIN` points (TOST, Schuirmann 1987);
   intersection-union of the two.  *Not supported* iff the similarity change is shown ≤ 0 or the downstream
   change is shown outside the margin.

Every line carries its minimum detectable difference (80% power) and, when inconclusive, what could and
could not have been detected.  Fewer than 5 lineages never decide (Cameron, Gelbach & Miller 2008).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mteb_evalrank.metrics.confirmatory import (
    INCONCLUSIVE,
    MIN_CLUSTERS,
    NOT_SUPPORTED,
    SUPPORTED,
    BetterThanAll,
    MeanTest,
    decide,
    holm_across_claims,
)

__all__ = [
    "EQUIVALENCE_MARGIN",
    "INCONCLUSIVE",
    "NOT_SUPPORTED",
    "SUPPORTED",
    "Finding",
    "adjust_across_claims",
    "better_than_all_finding",
    "format_p",
    "postprocessing_finding",
    "power_sentence",
    "within_contrast_finding",
]

#: the equivalence margin of "post-processing does not change downstream", in points (× 100), fixed in advance
EQUIVALENCE_MARGIN = 1.0


@dataclass(frozen=True)
class Finding:
    """One claim, its verdict, the figures that decided it, its power and the test fixed in advance."""

    claim: str
    verdict: str
    figures: str
    rule: str
    power: str = ""
    p_support: float = float("nan")  # before the correction across claims
    p_refute: float = float("nan")
    n_clusters: int = 0
    reason: str | None = None
    sensitivity: str = field(default="", compare=False)  # an exploratory line printed apart (e.g. the per-model ρ)

    def line(self) -> str:
        power = f" {self.power}" if self.power else ""
        return (
            f"- **{self.claim}: {self.verdict.upper()}.** {self.figures}{power} *Test (fixed in advance):* {self.rule}"
        )


def format_p(p: float) -> str:
    """``p = 0.123``, ``p < 0.001``, ``p > 0.99`` or ``p = –`` (not computed).  Above 0.99 (as a p-value
    adjusted by Holm or Bonferroni often is, capped at 1) three decimals would claim a precision the bootstrap
    does not have, and "1.000" reads as certainty."""
    if not np.isfinite(p):
        return "p = –"
    if p > 0.99:
        return "p > 0.99"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _signed(v: float, digits: int = 1) -> str:
    return "–" if not np.isfinite(v) else f"{v:+.{digits}f}"


def adjust_across_claims(
    findings: Sequence[Finding], alpha: float = 0.05, what: str = "claims", family_size: int | None = None
) -> list[Finding]:
    """Holm across the confirmatory claims only (or across one level's contrast types, ``what``): re-decide each
    Finding from its Holm-adjusted p-values (support and refutation are adjusted separately).  The family is the
    Findings that were tested, or ``family_size`` of them when fixed in advance (a member without a p-value, e.g.
    one lineage, counts as p = 1: it can never be rejected, but it was in the family)."""
    k = sum(np.isfinite(f.p_support) for f in findings) if family_size is None else family_size
    pad = [1.0] * max(k - sum(np.isfinite(f.p_support) for f in findings), 0)
    n = len(findings)
    sup = holm_across_claims([f.p_support for f in findings] + pad)[:n]
    ref = holm_across_claims([f.p_refute for f in findings] + pad)[:n]
    out = []
    for f, ps, pr in zip(findings, sup, ref):
        if not np.isfinite(f.p_support):
            out.append(f)
            continue
        verdict = decide(ps, pr, alpha, f.n_clusters, f.reason)
        across = f"the {k} {what}" if k > 1 else f"1 {what.removesuffix('s')} (no correction)"
        figures = f"{f.figures} Holm across {across}: {format_p(ps)} for, {format_p(pr)} against."
        out.append(Finding(f.claim, verdict, figures, f.rule, f.power, f.p_support, f.p_refute, f.n_clusters, f.reason))
    return out


def _inconclusive_because(reason: str | None, n_clusters: int) -> str:
    if reason:
        return f" Not decidable: {reason}."
    if n_clusters < MIN_CLUSTERS:
        return f" Not decidable: {n_clusters} lineages (fewer than {MIN_CLUSTERS} never decide)."
    return ""


def power_sentence(test: BetterThanAll, *, claim_score: str, unit: str, n_claims: int, level_name: str) -> str:
    """The power of a better-than-every-baseline test, honestly: its MDD at the level the verdict uses, whether
    any attainable advantage had 80% power, what margin could be shown instead, and how many *more* lineages a
    population with the observed structure would need (simulated)."""
    if not np.isfinite(test.mdd):
        if test.contrasts and not all(c.se > 0 for c in test.contrasts):
            return (
                "Minimum detectable difference: none (a baseline ranks the models exactly as the claim's score does)."
            )
        return (
            f"Minimum detectable difference: none: with {test.n_clusters} lineages no advantage, however large, had 80% "
            "power."
        )
    at = f"α = {test.mdd_alpha:.4g}, {level_name}"
    text = f"Minimum detectable difference (80% power, {at}): {test.mdd:.1f} {unit} over every baseline."
    best = max(test.contrasts, key=lambda c: c.rho_baseline)
    if not test.attainable:
        text += (
            f" No attainable advantage had 80% power: the best baseline ({best.baseline}) is at {best.rho_baseline:.1f}, "
            f"so an advantage can be at most {test.room:.1f} points, and even that would be SUPPORTED with "
            f"probability {test.power_at_room:.0%}. What these data could show instead: that {claim_score} is not "
            f"worse than every baseline by more than {test.mdd:.1f} points (non-inferiority, 80% power if the true "
            "difference is 0)."
        )
    if np.isfinite(test.more_lineages) or test.more_lineages == float("inf"):
        target = test.growth_target
        goal = f"+{target:.0f}" if target >= 10 else f"+{target:.1f} (the largest attainable advantage)"
        if test.more_lineages == float("inf"):
            text += (
                f" Even {test.growth_cap - test.n_clusters} more lineages like these would not give 80% power at "
                f"{goal} (simulated by drawing lineages from the observed ones)."
            )
        elif test.more_lineages > 0:
            text += (
                f" About {test.more_lineages:.0f} more lineages like these ({test.n_clusters + test.more_lineages:.0f} "
                f"in all) would give 80% power at {goal} (simulated by drawing lineages from the observed ones)."
            )
    return text


def better_than_all_finding(
    claim: str,
    test: BetterThanAll | None,
    claim_score: str,
    target: str,
    baselines: Sequence[str],
    *,
    alpha: float = 0.05,
    n_claims: int = 3,
    population: str = "",
) -> Finding:
    """Word :func:`~mteb_evalrank.metrics.confirmatory.better_than_all` as a Finding (p-values unadjusted
    across claims: :func:`adjust_across_claims` adjusts them)."""
    names = ", ".join(baselines) if baselines else "none present"
    holm = f"after Holm across the {n_claims} claims" if n_claims > 1 else "one claim, no correction across claims"
    estimand = test.estimand if test is not None else "lineage-weighted"
    rho = "ρ_w" if estimand == "lineage-weighted" else "ρ"
    rule = (
        f"{claim_score} against every primary baseline named in advance ({names}) on {target}; the estimand is "
        f"the {estimand} Spearman {rho} (every lineage one unit of weight, its models sharing it; weighted ranks, "
        f"then weighted Pearson: Bailey et al., wCorr Formulas); for each baseline b a one-sided paired "
        f"lineage-bootstrap test of {rho}({claim_score}) − {rho}(b) (bootstrap SE, Student t with lineages − 1 df); "
        f"intersection-union (Berger 1982): supported iff every test rejects at α = {alpha:g} (p = the largest), "
        f"{holm}; not supported iff some baseline is shown better (one-sided, Bonferroni over the "
        f"baselines{', Holm across the claims' if n_claims > 1 else ''}); random floors and lineages of unknown "
        f"provenance left out; fewer than {MIN_CLUSTERS} lineages never decide."
    )
    if test is None or not baselines:
        return Finding(
            claim, INCONCLUSIVE, f"Not tested: no {claim_score} results or no baseline for this population.", rule
        )
    if not test.contrasts:
        return Finding(
            claim,
            INCONCLUSIVE,
            f"{population}Not decidable: {test.reason}.",
            rule,
            reason=test.reason,
            n_clusters=test.n_clusters,
        )
    worst = min(test.contrasts, key=lambda c: c.difference)
    each = "; ".join(
        f"{c.baseline} {c.rho_baseline:.1f} ({_signed(c.difference)} [{_signed(c.ci_low)}, "
        f"{_signed(c.ci_high)}], {format_p(c.p_better)})"
        for c in test.contrasts
    )
    figures = (
        f"{population}{target}: {rho}({claim_score}) = {test.rho_claim:.1f}; each baseline's {rho} (difference "
        f"[{100 - 2 * 100 * alpha:g}% interval], one-sided p): {each}. Smallest advantage "
        f"{_signed(worst.difference)} over {worst.baseline}; intersection-union {format_p(test.p_support)}; "
        f"some baseline better: {format_p(test.p_refute)} ({test.n_clusters} lineages)."
    )
    verdict = decide(test.p_support, test.p_refute, alpha, test.n_clusters, test.reason)
    figures += _inconclusive_because(test.reason, test.n_clusters)
    level = f"Holm's first step across the {n_claims} claims" if n_claims > 1 else "one claim"
    power = power_sentence(test, claim_score=claim_score, unit="ρ points", n_claims=n_claims, level_name=level)
    if verdict == INCONCLUSIVE and test.attainable:
        power += (
            f" So an advantage of {test.mdd:.0f} points or more would probably have been seen; a smaller one "
            "could not be told from none."
        )
    return Finding(claim, verdict, figures, rule, power, test.p_support, test.p_refute, test.n_clusters, test.reason)


def within_contrast_finding(
    score: str,
    target: str,
    contrast: str,
    test: BetterThanAll | None,
    baselines: Sequence[str],
    *,
    alpha: float = 0.05,
    family: Sequence[str] = (),
) -> Finding:
    """The second estimand against its baselines, for one contrast type (p-values unadjusted across the types:
    :func:`adjust_across_claims` adjusts them).  ``family``: the contrast types Holm runs across, fixed by the
    design (those whose pairs span ≥ 5 lineages); a type outside it is shown but never decides."""
    n_types = len(family)
    member = contrast in family
    types = ", ".join(family) if family else "none"
    claim = f"{score} picks the better {contrast} variant within a checkpoint more often than every baseline"
    names = ", ".join(baselines) if baselines else "none present"
    rule = (
        f"over every pair of variants of one checkpoint that differ only in {contrast} (and in {target}), the "
        f"lineage-weighted concordance κ = Σ w·sign(Δscore)·sign(Δ{target}) / Σ w × 100 (each lineage one unit of "
        f"weight over its pairs); {score} against every primary baseline named in advance ({names}); one-sided "
        f"paired lineage-bootstrap tests of κ({score}) − κ(b) (Student t, lineages − 1 df), intersection-union "
        f"(Berger 1982) at α = {alpha:g}, Holm across the contrast types of this level whose pairs span ≥ "
        f"{MIN_CLUSTERS} lineages (fixed by the design, never by outcomes: {types}); not supported iff "
        f"some baseline is shown better; random floors and lineages of unknown provenance left out; fewer than "
        f"{MIN_CLUSTERS} lineages never decide."
    )
    if test is None or not test.contrasts:
        why = test.reason if test is not None else f"no {contrast} pairs"
        return Finding(
            claim,
            INCONCLUSIVE,
            f"Not decidable: {why}.",
            rule,
            reason=why,
            n_clusters=test.n_clusters if test is not None else 0,
        )
    worst = min(test.contrasts, key=lambda c: c.difference)
    each = "; ".join(
        f"{c.baseline} {c.rho_baseline:.1f} ({_signed(c.difference)}, {format_p(c.p_better)})" for c in test.contrasts
    )
    figures = (
        f"{test.n_models} models in {test.n_clusters} lineages: κ({score}) = {test.rho_claim:.1f}; each "
        f"baseline's κ (difference, one-sided p): {each}. Smallest advantage {_signed(worst.difference)} over "
        f"{worst.baseline}; intersection-union {format_p(test.p_support)}; some baseline better: "
        f"{format_p(test.p_refute)}."
    )
    verdict = decide(test.p_support, test.p_refute, alpha, test.n_clusters, test.reason) if member else INCONCLUSIVE
    figures += _inconclusive_because(test.reason, test.n_clusters)
    if member:
        level = f"Holm's first step across the {n_types} contrast types" if n_types > 1 else "one contrast type"
    else:
        figures += f" Not in the Holm family (its pairs span fewer than {MIN_CLUSTERS} lineages): it cannot decide."
        level = "unadjusted, outside the Holm family"
    power = power_sentence(test, claim_score=score, unit="κ points", n_claims=max(n_types, 1), level_name=level)
    return Finding(claim, verdict, figures, rule, power, test.p_support, test.p_refute, test.n_clusters, test.reason)


def postprocessing_finding(
    similarity: MeanTest | None,
    downstream: MeanTest | None,
    *,
    n_pairs: int,
    alpha: float = 0.05,
    n_claims: int = 3,
    margin: float = EQUIVALENCE_MARGIN,
    similarity_label: str = "similarity",
) -> Finding:
    """EvalRank Table 10's reading as a confirmatory test (see the module docstring)."""
    claim = "Post-processing helps similarity scores but not downstream (EvalRank Table 10)"
    rule = (
        f"over every (post-processed, unprocessed) pair of one checkpoint, the lineage-weighted mean change in "
        f"points (every lineage one unit of weight), lineages resampled whole; supported iff the {similarity_label} change is > 0 (one-sided) and the downstream change "
        f"lies within the equivalence margin ±{margin:g} point (TOST, Schuirmann 1987), both at α = {alpha:g} "
        f"(intersection-union, p = the larger), after Holm across the {n_claims} claims; not supported iff the "
        f"similarity change is shown ≤ 0 or the downstream change is shown outside the margin (Bonferroni over "
        f"the two); fewer than {MIN_CLUSTERS} lineages never decide."
    )
    if similarity is None or downstream is None or n_pairs == 0:
        return Finding(claim, INCONCLUSIVE, "Not tested: no (post-processed, unprocessed) pair has results.", rule)
    reason = similarity.reason or downstream.reason
    if not np.isfinite(similarity.mean) or not np.isfinite(downstream.mean):
        return Finding(
            claim, INCONCLUSIVE, f"Not decidable: {reason}.", rule, reason=reason, n_clusters=similarity.n_clusters
        )
    p_support = max(similarity.p_positive, downstream.p_equivalent)
    p_refute = min(1.0, 2 * min(similarity.p_not_positive, downstream.p_outside))
    L = similarity.n_clusters
    label = similarity_label[:1].upper() + similarity_label[1:]
    figures = (
        f"{n_pairs} pairs in {L} lineages. {label} Δ (lineage-weighted) {_signed(similarity.mean, 2)} "
        f"[{_signed(similarity.ci_low, 2)}, {_signed(similarity.ci_high, 2)}], Δ > 0: "
        f"{format_p(similarity.p_positive)}; downstream Δ {_signed(downstream.mean, 2)} [{_signed(downstream.ci_low, 2)}, "
        f"{_signed(downstream.ci_high, 2)}], equivalence (±{margin:g}) {format_p(downstream.p_equivalent)}, outside "
        f"the margin {format_p(downstream.p_outside)}. Intersection-union {format_p(p_support)}; against: "
        f"{format_p(p_refute)}."
    )
    verdict = decide(p_support, p_refute, alpha, L, reason)
    figures += _inconclusive_because(reason, L)
    power = (
        f"Minimum detectable difference (80% power, α = {similarity.mdd_alpha:.4g}, Holm's first step across the "
        f"{n_claims} claims): a similarity gain of {similarity.mdd_positive:.2f} points; "
        f"the narrowest equivalence margin these pairs could show when the true downstream change is 0 is "
        f"±{downstream.min_margin:.2f} points (fixed margin ±{margin:g})."
    )
    return Finding(claim, verdict, figures, rule, power, p_support, p_refute, L, reason)
