"""Standard errors and 95% intervals of one model's score, from its per-item values.

A task score is a mean over items (EvalRank: directed pairs; HEROS: sentence pairs; N2O: needle
pairs).  Items are not always independent: EvalRank scores every pair in both directions, so the two
directed pairs of one unordered pair form a *cluster*.  With per-item values ``x_i`` in clusters
``c = 1..C`` (cluster sums ``S_c``, sizes ``n_c``, ``N = Σ n_c``, mean ``m = Σ S_c / N``):

- **standard error of a mean** (analytic; the cluster-robust "sandwich" estimator)::

      se(m) = sqrt( C / (C − 1) · Σ_c (S_c − n_c m)² ) / N

  With every item its own cluster this is the familiar ``sd(x, ddof=1) / sqrt(N)``.
- **MRR** (a mean of ``1 / rank``, values in (0, 1]): ``m ± z se`` with ``z = Φ⁻¹(0.975) ≈ 1.96``,
  clipped to [0, 1] (the mean of thousands of bounded values is close to normal).
- **Hits@k** (a proportion): the Wilson score interval with the *effective* number of items
  ``n_eff = m (1 − m) / se²`` (Korn & Graubard 1998: the design effect of the clusters shrinks ``N``;
  ``n_eff = N`` for independent items), i.e. with ``p = m``::

      centre = (p + z² / (2 n_eff)) / (1 + z² / n_eff)
      half   = z / (1 + z² / n_eff) · sqrt( p (1 − p) / n_eff + z² / (4 n_eff²) )

  It stays inside [0, 1] and is not degenerate when ``p`` is 0 or 1 (then ``n_eff = N``).
- **HEROS normalised cosine** ``T = (mean(cos) − b) / (1 − b)``: the baseline ``b`` is estimated from the
  same original sentences (first half × last half), so ``T`` is not a plain mean of fixed values:
  :func:`heros_bootstrap` resamples the original sentences (each half with replacement, separately:
  stratified), recomputes ``b`` and every subset's ``T``; ``se`` = the standard deviation of the
  replicates, the interval = their 2.5% and 97.5% percentiles (``B = 2000``, seed 0: deterministic).

Nothing here depends on the model: the functions take arrays and return plain floats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy.stats import norm

from mteb_evalrank.errors import InputError

#: two-sided 95% normal quantile, Φ⁻¹(0.975)
Z95 = float(norm.ppf(0.975))
#: bootstrap replicates of :func:`heros_bootstrap`
HEROS_RESAMPLES = 2000


def _values(values: Any, what: str = "values") -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise InputError(f"{what} must be a non-empty 1-D array; got shape {x.shape}.")
    if not np.isfinite(x).all():
        raise InputError(f"{what} contain NaN or inf.")
    return x


def cluster_ids(groups: Any, n: int) -> np.ndarray:
    """Dense cluster ids ``0..C-1`` for ``groups`` (any hashable labels, one per item); ``None``: every
    item is its own cluster."""
    if groups is None:
        return np.arange(n)
    g = np.asarray(groups)
    if g.ndim != 1 or g.size != n:
        raise InputError(f"groups must have one entry per item ({n}); got shape {g.shape}.")
    return np.unique(g, return_inverse=True)[1].reshape(-1)


def clustered_mean_se(values: Any, groups: Any = None) -> tuple[float, float, int]:
    """``(m, se, C)``: the mean, its cluster-robust standard error (module docstring) and the number of
    clusters.  ``se`` is NaN with a single cluster."""
    x = _values(values)
    ids = cluster_ids(groups, x.size)
    sums = np.bincount(ids, weights=x)
    sizes = np.bincount(ids).astype(np.float64)
    c = sums.size
    m = float(x.mean())
    if c < 2:
        return m, float("nan"), c
    resid = sums - sizes * m
    se = float(np.sqrt(c / (c - 1) * np.sum(resid * resid)) / x.size)
    return m, se, c


def wilson_interval(p: float, n_eff: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``p`` over ``n_eff`` (effective) items (module docstring)."""
    if not n_eff > 0:
        return float("nan"), float("nan")
    z2n = z * z / n_eff
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * np.sqrt(max(p * (1 - p), 0.0) / n_eff + z * z / (4 * n_eff * n_eff))
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


def mean_uncertainty(
    values: Any, groups: Any = None, *, bounds: tuple[float, float] | None = (0.0, 1.0)
) -> dict[str, float]:
    """``{"se", "ci_low", "ci_high"}`` of the mean of ``values``: cluster-robust se, normal interval
    ``m ± z se`` (clipped to ``bounds``)."""
    m, se, _ = clustered_mean_se(values, groups)
    low, high = m - Z95 * se, m + Z95 * se
    if bounds is not None and np.isfinite(se):
        low, high = max(bounds[0], low), min(bounds[1], high)
    return {"se": se, "ci_low": float(low), "ci_high": float(high)}


def proportion_uncertainty(hits: Any, groups: Any = None) -> dict[str, float]:
    """``{"se", "ci_low", "ci_high"}`` of a proportion (0/1 values): cluster-robust se, Wilson interval
    over the effective number of items ``m (1 − m) / se²`` (``N`` when that is undefined)."""
    x = _values(np.asarray(hits, dtype=np.float64), "hits")
    m, se, _ = clustered_mean_se(x, groups)
    n_eff = m * (1 - m) / (se * se) if np.isfinite(se) and se > 0 else float(x.size)
    low, high = wilson_interval(m, n_eff)
    return {"se": se, "ci_low": low, "ci_high": high}


def _keys(name: str, u: Mapping[str, float]) -> dict[str, float]:
    return {f"{name}_se": u["se"], f"{name}_ci_low": u["ci_low"], f"{name}_ci_high": u["ci_high"]}


def rank_uncertainty(
    ranks: Any, groups: Any = None, *, ks: Sequence[int] = (1, 3, 10), prefix: str = ""
) -> dict[str, float]:
    """Uncertainty keys of EvalRank-style scores from per-item ranks: ``<prefix>mrr_se``,
    ``<prefix>mrr_ci_low``, ``<prefix>mrr_ci_high`` (from ``1 / rank``) and the same three for every
    ``<prefix>hits_at_<k>`` (from ``rank <= k``, Wilson)."""
    r = np.asarray(ranks)
    if r.ndim != 1 or r.size == 0 or r.dtype.kind not in "iu" or int(r.min()) < 1:
        raise InputError("ranks must be a non-empty 1-D array of integers ≥ 1.")
    out = _keys(f"{prefix}mrr", mean_uncertainty(1.0 / r, groups))
    for k in ks:
        out.update(_keys(f"{prefix}hits_at_{k}", proportion_uncertainty(r <= k, groups)))
    return out


def pair_groups(a: Any, b: Any) -> np.ndarray:
    """Cluster label of each (a, b) pair: the unordered pair ``{a, b}`` (so (x, y) and (y, x) are one
    cluster), as one integer per pair (``a``, ``b`` non-negative integer ids)."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return lo * (int(max(hi.max(initial=0), lo.max(initial=0))) + 1) + hi


def heros_bootstrap(
    unit_originals: Any,
    cosines: Mapping[str, Any],
    *,
    n_resamples: int = HEROS_RESAMPLES,
    seed: int = 0,
    contrasts: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, dict[str, float]]:
    """Bootstrap se and 95% percentile interval of HEROS's normalised cosine (module docstring).

    Args:
        unit_originals: ``(n, d)`` unit-length embeddings of the original sentences, in dataset order.
        cosines: subset -> ``(n,)`` raw cosine of each (original, edited) pair, row ``i`` with original ``i``.
        contrasts: name -> ``(a, b)``: also the difference ``b − a`` of two subsets' normalised cosines,
            resampled jointly (e.g. HEROS's headline ``synonym_minus_negation``).

    Returns:
        subset -> ``{"se", "ci_low", "ci_high"}``, plus ``"mean"`` (the mean over the subsets, resampled
        jointly) and one entry per contrast.
    """
    u = np.asarray(unit_originals, dtype=np.float64)
    n = u.shape[0]
    if u.ndim != 2 or n < 2:
        raise InputError(f"unit_originals must be (n ≥ 2, d); got shape {u.shape}.")
    cos = {s: _values(c, f"cosines of {s!r}") for s, c in cosines.items()}
    if not cos or any(c.size != n for c in cos.values()):
        raise InputError("every subset needs one cosine per original sentence.")
    h = n // 2
    rng = np.random.default_rng(seed)
    counts = np.ones((n_resamples, n))  # the middle row of an odd n is in neither half: kept once
    counts[:, :h] = rng.multinomial(h, np.full(h, 1.0 / h), size=n_resamples)
    counts[:, n - h :] = rng.multinomial(h, np.full(h, 1.0 / h), size=n_resamples)
    first = counts[:, :h] @ u[:h] / h
    last = counts[:, n - h :] @ u[n - h :] / h
    base = np.clip(np.einsum("bd,bd->b", first, last), -1.0, 1.0)
    denom = 1.0 - base
    ok = denom > 1e-12
    reps = {s: ((counts @ c) / n - base)[ok] / denom[ok] for s, c in cos.items()}
    reps["mean"] = np.mean([reps[s] for s in cos], axis=0)
    for name, (minus, plus) in (contrasts or {}).items():
        if minus in reps and plus in reps:
            reps[name] = reps[plus] - reps[minus]
    return {
        s: {
            "se": float(np.std(v, ddof=1)),
            "ci_low": float(np.percentile(v, 2.5)),
            "ci_high": float(np.percentile(v, 97.5)),
        }
        for s, v in reps.items()
    }


__all__ = [
    "HEROS_RESAMPLES",
    "Z95",
    "cluster_ids",
    "clustered_mean_se",
    "heros_bootstrap",
    "mean_uncertainty",
    "pair_groups",
    "proportion_uncertainty",
    "rank_uncertainty",
    "wilson_interval",
]
