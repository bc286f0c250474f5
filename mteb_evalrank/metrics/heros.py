"""HEROS minimal-pair diagnostics (Chiang et al., 2023, §2-3 and appendix D) — pure numpy.

HEROS pairs each *original* sentence with edited versions that differ in at most one content word
(synonym, antonym, random masked-LM word, typo) or in a negation.  For a model, per subset:

1. ``cos`` = cosine similarity of every (original, edited) pair;
2. baseline ``cos_avg`` = mean cosine over all pairs between the first half and the second half of
   the original sentences, in dataset row order.  Exact rule: with ``n`` originals and
   ``h = n // 2``, ``cos_avg`` is the mean of the ``h × h`` cosines between rows ``0 .. h-1`` and
   rows ``n-h .. n-1``.  For the released data (``n = 1000``) this is the paper's first 500 vs last
   500 (250,000 pairs).  With an odd ``n`` the middle row is in neither half.  Fewer than two
   originals → :class:`~mteb_evalrank.errors.InputError`.  Duplicate originals are kept as rows
   (the baseline is over rows, as in the paper);
3. ``cos_norm = (cos − cos_avg) / (1 − cos_avg)`` (appendix D, eq. 1), undefined when
   ``cos_avg = 1`` (every original embedding points the same way) → ``InputError``.

Scores per subset: ``cosine`` (mean raw cosine), ``normalized_cosine`` (mean of ``cos_norm``, the
paper's number and the ``main_score``), ``baseline`` (``cos_avg``), ``num_pairs``.  Summary readings
(differences of subset means of the normalised cosine; the paper's "orderings"):

- ``negation_minus_synonym`` = negation_main − synonym (> 0: the model finds a negated sentence
  closer to the original than a paraphrase — insensitive to negation);
- ``antonym_minus_synonym`` = antonym − synonym (should be < 0 for a model that separates
  antonyms from synonyms);
- ``typo_minus_synonym`` = typo − synonym (< 0: typos hurt more than a synonym swap).

The task's one number (its ``main_score``, what MTEB's tables show): :data:`HEADLINE` =
``synonym_minus_negation`` = synonym − negation_main, the paper's central reading turned so that higher means
the model keeps a meaning-preserving edit (a synonym swap) closer to the original than a meaning-reversing one
(a negation); 0 means negation-blind, as the paper finds most encoders (§4).  The per-edit normalised cosines
are not averaged: they move in opposite directions for a good model.

A zero embedding makes cosine undefined: the functions raise ``InputError`` naming the rows instead
of returning NaN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.unit_rows import unit_rows

#: The six subsets, in the order of the paper's Figure 1 / results table.
SUBSETS: tuple[str, ...] = ("synonym", "antonym", "negation_main", "negation_antonym", "random_mlm", "typo")
#: Human labels (paper's names) of the subsets, for tables and plots.
SUBSET_LABELS: dict[str, str] = {
    "synonym": "Synonym",
    "antonym": "Antonym",
    "negation_main": "Negation (Main)",
    "negation_antonym": "Negation (Antonym)",
    "random_mlm": "Random (MLM)",
    "typo": "Typo",
}
#: Summary readings: name -> (subset, reference subset); value = mean_norm[subset] - mean_norm[reference].
SUMMARY_READINGS: dict[str, tuple[str, str]] = {
    "negation_minus_synonym": ("negation_main", "synonym"),
    "antonym_minus_synonym": ("antonym", "synonym"),
    "typo_minus_synonym": ("typo", "synonym"),
}


#: the task's headline reading: name -> (edit type, reference), value = reference − edit type (higher is better)
HEADLINE: tuple[str, tuple[str, str]] = ("synonym_minus_negation", ("negation_main", "synonym"))


def headline_reading(normalized_means: Mapping[str, float]) -> float | None:
    """``synonym_minus_negation`` = mean normalised cosine of the synonym edits − that of the negations
    (:data:`HEADLINE`); ``None`` when either edit type is missing."""
    _, (edit, reference) = HEADLINE
    if edit not in normalized_means or reference not in normalized_means:
        return None
    return float(normalized_means[reference]) - float(normalized_means[edit])


def _as_matrix(x: Any, what: str) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] == 0:
        raise InputError(f"{what}: expected a 2-D (rows × dim) embedding matrix, got shape {arr.shape}.")
    if not np.isfinite(arr).all():
        bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))[:5].tolist()
        raise InputError(f"{what}: embeddings contain NaN or inf (rows {bad}).")
    return arr


def pair_cosines(a: Any, b: Any, *, what: str = "pairs", labels: Sequence[str] | None = None) -> np.ndarray:
    """Row-wise cosine of two ``(n, d)`` matrices (float64); zero rows raise :class:`InputError`."""
    a, b = _as_matrix(a, f"{what} (left)"), _as_matrix(b, f"{what} (right)")
    if a.shape != b.shape:
        raise InputError(f"{what}: shapes differ ({a.shape} vs {b.shape}).")
    ua = unit_rows(a, f"{what} (left)", labels=labels)
    ub = unit_rows(b, f"{what} (right; paired with the originals named)", labels=labels)
    return np.clip(np.einsum("ij,ij->i", ua, ub), -1.0, 1.0)


def baseline_cosine(originals: Any, *, labels: Sequence[str] | None = None) -> float:
    """``cos_avg``: mean cosine between rows ``0..h-1`` and rows ``n-h..n-1`` (``h = n // 2``).

    All ``h × h`` pairs count; computed as ``mean(unit(first)) · mean(unit(last))``, which equals
    the mean of the pairwise cosine matrix.
    """
    x = _as_matrix(originals, "original sentences")
    n = x.shape[0]
    if n < 2:
        raise InputError(f"HEROS baseline needs at least two original sentences (first half vs second half), got {n}.")
    h = n // 2
    units = unit_rows(x, "original sentences", labels=labels)
    return float(np.clip(units[:h].mean(axis=0) @ units[n - h :].mean(axis=0), -1.0, 1.0))


def normalize_cosine(cos: Any, baseline: float) -> np.ndarray:
    """``(cos − baseline) / (1 − baseline)``; ``baseline == 1`` raises :class:`InputError`."""
    baseline = float(baseline)
    if not np.isfinite(baseline):
        raise InputError(f"HEROS baseline cosine is not finite ({baseline}).")
    if baseline >= 1.0 - 1e-12:
        raise InputError(
            f"HEROS baseline cosine is {baseline:.6f} (≈ 1): all original sentences have the same embedding "
            "direction, so the normalisation (cos − cos_avg) / (1 − cos_avg) is undefined."
        )
    return (np.asarray(cos, dtype=np.float64) - baseline) / (1.0 - baseline)


def summary_readings(normalized_means: Mapping[str, float]) -> dict[str, float]:
    """The three orderings from subset means of the normalised cosine (missing subsets are skipped)."""
    out = {}
    for name, (subset, reference) in SUMMARY_READINGS.items():
        if subset in normalized_means and reference in normalized_means:
            out[name] = float(normalized_means[subset]) - float(normalized_means[reference])
    return out


def heros_pairs(
    originals: Any,
    edited: Mapping[str, Any],
    *,
    original_labels: Sequence[str] | None = None,
) -> tuple[float, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """The baseline and, per subset, the raw and the normalised cosine of every (original, edited) pair.

    Args:
        originals: ``(n, d)`` embeddings of the original sentences, in dataset row order (the
            baseline depends on the order).
        edited: subset name -> ``(n, d)`` embeddings of the edited sentences, row ``i`` paired with
            original row ``i``.
        original_labels: optional texts of the originals (named in error messages).
    """
    base = baseline_cosine(originals, labels=original_labels)
    orig = _as_matrix(originals, "original sentences")
    pairs: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for subset, emb in edited.items():
        cos = pair_cosines(orig, emb, what=f"HEROS subset {subset!r}", labels=original_labels)
        pairs[subset] = (cos, normalize_cosine(cos, base))
    return base, pairs


def scores_from_pairs(baseline: float, pairs: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, dict[str, Any]]:
    """Subset scores from :func:`heros_pairs`: subset -> ``{"cosine", "normalized_cosine", "baseline",
    "num_pairs", "main_score", <summary readings>}``; the summary readings (from all given subsets)
    are repeated in every subset so that any subset of a result file carries them.
    """
    per_subset: dict[str, dict[str, Any]] = {
        subset: {
            "cosine": float(cos.mean()),
            "normalized_cosine": float(norm.mean()),
            "baseline": baseline,
            "num_pairs": int(len(cos)),
        }
        for subset, (cos, norm) in pairs.items()
    }
    readings = summary_readings({s: v["normalized_cosine"] for s, v in per_subset.items()})
    for scores in per_subset.values():
        scores["main_score"] = scores["normalized_cosine"]
        scores.update(readings)
    return per_subset


def heros_scores(
    originals: Any,
    edited: Mapping[str, Any],
    *,
    original_labels: Sequence[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Scores of every subset from embeddings (:func:`heros_pairs` then :func:`scores_from_pairs`)."""
    return scores_from_pairs(*heros_pairs(originals, edited, original_labels=original_labels))
