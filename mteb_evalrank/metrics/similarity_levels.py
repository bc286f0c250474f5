"""STS quality by similarity level (EvalRank Figure 2; RankEncoder §5.3, Figures 6-7, appendix A.5).

A model's overall STS Spearman hides *where* it ranks pairs well.  EvalRank (Figure 2) argues that
what matters downstream is how a model orders highly similar pairs; RankEncoder (Figure 7) shows its
gain concentrates on them.  Two views:

- :func:`spearman_by_bin` — Spearman's ρ between predicted similarity and gold score *within* gold-score
  bins (e.g. 0-2, 2-4, 4-5 on STS-B's 0-5 scale), with the number of pairs per bin and a seeded
  percentile bootstrap interval over pairs (:func:`scipy.stats.bootstrap`).  A bin includes its lower
  edge and excludes its upper edge, except the last bin, which includes both.
- :func:`topk_overlap` — for each pair, the share of the two sentences' top-k corpus neighbours
  (by cosine) that they have in common (RankEncoder's "closely located" pairs have high overlap);
  :func:`gain_by_overlap` then compares two systems' Spearman within overlap quantile bins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.rank_correlation import check_bootstrap_size, paired_scores, spearman_along


@dataclass(frozen=True)
class BinScore:
    """Spearman ρ (fraction) of one bin, its interval, and the pairs in it; ``note`` when undefined."""

    low: float
    high: float
    n_pairs: int
    rho: float
    ci_low: float
    ci_high: float
    note: str = ""


def parse_bins(text: str) -> list[tuple[float, float]]:
    """``"0-2,2-4,4-5"`` → ``[(0, 2), (2, 4), (4, 5)]`` (increasing, non-overlapping)."""
    bins = []
    for part in str(text).split(","):
        try:
            lo, hi = (float(x) for x in part.strip().split("-"))
        except ValueError:
            raise InputError(f"bins must look like 0-2,2-4,4-5, got {text!r}.") from None
        if not hi > lo:
            raise InputError(f"bin {part.strip()!r}: the upper edge must be above the lower edge.")
        bins.append((lo, hi))
    for (_, a_hi), (b_lo, _) in zip(bins, bins[1:]):
        if b_lo < a_hi:
            raise InputError(f"bins {text!r} overlap or are not in increasing order.")
    return bins


def spearman_with_interval(
    pred: np.ndarray, gold: np.ndarray, *, n_resamples: int = 1000, seed: int = 0
) -> tuple[float, float, float]:
    """ρ (scipy's ``spearmanr``) and a paired percentile bootstrap interval over pairs."""
    from scipy.stats import bootstrap, spearmanr

    check_bootstrap_size(len(pred), n_resamples, units="pairs")
    rho = float(spearmanr(pred, gold).statistic)
    res = bootstrap(
        (pred, gold),
        spearman_along,
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return rho, float(res.confidence_interval.low), float(res.confidence_interval.high)


def spearman_by_bin(
    pred: Sequence[float] | np.ndarray,
    gold: Sequence[float] | np.ndarray,
    bins: Sequence[tuple[float, float]],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
) -> list[BinScore]:
    """ρ(pred, gold) inside each gold-score bin (see the module docstring)."""
    p, g = paired_scores(pred, gold, what="predictions and gold scores", hint="")
    out = []
    for k, (lo, hi) in enumerate(bins):
        last = k == len(bins) - 1
        mask = (g >= lo) & ((g <= hi) if last else (g < hi))
        n = int(mask.sum())
        nan = float("nan")
        if n < 3:
            out.append(BinScore(lo, hi, n, nan, nan, nan, f"undefined: {n} pair{'' if n == 1 else 's'}"))
        elif np.ptp(g[mask]) == 0 or np.ptp(p[mask]) == 0:
            out.append(BinScore(lo, hi, n, nan, nan, nan, "undefined: constant scores in the bin"))
        else:
            rho, c_lo, c_hi = spearman_with_interval(p[mask], g[mask], n_resamples=n_resamples, seed=seed)
            out.append(BinScore(lo, hi, n, rho, c_lo, c_hi))
    return out


def topk_overlap(
    a: np.ndarray, b: np.ndarray, corpus: np.ndarray, *, k: int = 100, chunk_size: int = 1024
) -> np.ndarray:
    """|N_k(a_i) ∩ N_k(b_i)| / k: shared share of the two sentences' top-k corpus neighbours by cosine."""
    c = np.asarray(corpus, dtype=np.float64)
    c = c / np.linalg.norm(c, axis=1, keepdims=True)
    if not 1 <= k <= c.shape[0]:
        raise InputError(f"k must be in 1..{c.shape[0]} (the corpus size), got {k}.")

    def top(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        x = x / np.linalg.norm(x, axis=1, keepdims=True)
        return np.argpartition(-(x @ c.T), k - 1, axis=1)[:, :k]

    out = np.empty(len(a))
    for lo in range(0, len(a), chunk_size):
        ta, tb = top(a[lo : lo + chunk_size]), top(b[lo : lo + chunk_size])
        out[lo : lo + chunk_size] = [len(np.intersect1d(x, y, assume_unique=True)) / k for x, y in zip(ta, tb)]
    return out


def gain_by_overlap(gold, base_sim, new_sim, overlap, *, n_bins: int = 4) -> list[dict[str, float]]:
    """Spearman of ``base_sim`` and of ``new_sim`` with ``gold`` inside overlap-quantile bins, and the gain."""
    gold, base_sim, new_sim, overlap = (np.asarray(v, dtype=np.float64) for v in (gold, base_sim, new_sim, overlap))
    edges = np.unique(np.quantile(overlap, np.linspace(0, 1, n_bins + 1)))
    rows = []
    for k in range(len(edges) - 1):
        lo, hi = edges[k], edges[k + 1]
        mask = (overlap >= lo) & ((overlap <= hi) if k == len(edges) - 2 else (overlap < hi))
        if mask.sum() < 3:
            continue
        b = float(spearman_along(base_sim[mask], gold[mask]))
        n = float(spearman_along(new_sim[mask], gold[mask]))
        rows.append(
            {
                "overlap_low": float(lo),
                "overlap_high": float(hi),
                "n_pairs": int(mask.sum()),
                "base": b,
                "new": n,
                "gain": n - b,
            }
        )
    return rows
