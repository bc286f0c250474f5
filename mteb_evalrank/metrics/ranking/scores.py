"""Exact EvalRank ranks and their summaries: the public functions, with input validation.

:func:`evalrank_ranks` checks its input, prepares it (:mod:`.exact`), takes the tie path for the pairs
it fits when a sample shows many exact ties (:mod:`.ties`) and the float32 path for the rest.  The rule
the ranks follow is stated in :mod:`mteb_evalrank.metrics.ranking`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.ranking.exact import _float32_path, _Pairs, _prepare, _RankEngine
from mteb_evalrank.metrics.ranking.ties import _tie_path_ranks

TIES = ("pessimistic", "optimistic")
DEFAULT_KS = (1, 3, 10)
_MAX_LISTED = 10  # row numbers quoted in error messages


@dataclass(frozen=True, eq=False)
class RankResult:
    """Exact EvalRank ranks of every (query, positive) pair, one per pair, in input order.

    Attributes:
        cos: ranks under cosine similarity (int64, >= 1, read-only).
        l2: ranks under l2 similarity ``1 / (1 + ||e_x - e_y||)`` (int64, >= 1, read-only).
        n_background: number of background rows ``n`` (the rank of a pair is at most ``n - 1``,
            or ``n`` when query == positive).
        center: whether the background mean was subtracted before scoring.
        ties: ``"pessimistic"`` or ``"optimistic"``.
        n_distinct: number of distinct embedding rows after centring (``n`` minus exact duplicates).
        refined: how many (pair, background item) comparisons the float32 filter left undecided and
            were re-scored in float64 (``"stage2"``), and how many of those were decided in exact
            integer arithmetic (``"stage3"``), over both metrics; on the tie path also ``"tie_path"``
            (1) and ``"tie_decided"`` (comparisons it decided by exact sums).  Bookkeeping only: the
            ranks are exact either way.
    """

    cos: np.ndarray
    l2: np.ndarray
    n_background: int
    center: bool
    ties: str
    n_distinct: int
    refined: dict = field(default_factory=dict)

    @property
    def n_pairs(self) -> int:
        return int(self.cos.shape[0])


# --------------------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------------------
def _rows_text(rows: np.ndarray) -> str:
    shown = ", ".join(str(int(r)) for r in rows[:_MAX_LISTED])
    return f"rows {shown}" + (", ..." if len(rows) > _MAX_LISTED else "")


def _check_embeddings(embeddings: Any) -> np.ndarray:
    try:
        x = np.asarray(embeddings)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise InputError(f"embeddings cannot be read as a numeric array: {exc}") from None
    if x.ndim != 2:
        raise InputError(f"embeddings must be a 2-D array (n_background × dim); got shape {x.shape}.")
    n, d = x.shape
    if n == 0 or d == 0:
        raise InputError(f"embeddings are empty (shape {x.shape}); need at least one row and one column.")
    if x.dtype.kind not in "fiu":
        raise InputError(f"embeddings must be real numbers; got dtype {x.dtype}.")
    if x.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(x).all(axis=1))
        if bad.size:
            n_nan = int(np.isnan(x[bad]).any(axis=1).sum())
            raise InputError(
                f"{bad.size} of {n} embedding rows contain NaN or inf values "
                f"({n_nan} with NaN, {bad.size - n_nan} with inf only; {_rows_text(bad)})."
            )
    zero = np.flatnonzero(~x.any(axis=1))
    if zero.size:
        raise InputError(
            f"{zero.size} of {n} embedding rows are all zero ({_rows_text(zero)}); cosine similarity is "
            "undefined for a zero vector — the model returned no information for these items."
        )
    return x


def _check_indices(values: Any, what: str, n: int) -> np.ndarray:
    idx = np.asarray(values)
    if idx.ndim != 1:
        raise InputError(f"{what} must be a 1-D array of row indices; got shape {idx.shape}.")
    if idx.size == 0:
        raise InputError(f"{what} is empty: there are no (query, positive) pairs to rank.")
    if idx.dtype.kind not in "iu":
        raise InputError(f"{what} must hold integer row indices; got dtype {idx.dtype}.")
    bad = np.flatnonzero((idx < 0) | (idx >= n))
    if bad.size:
        shown = ", ".join(str(int(v)) for v in idx[bad[:_MAX_LISTED]])
        raise InputError(
            f"{bad.size} of {idx.size} {what} values are outside [0, {n}) for a background of {n} rows "
            f"(pairs {', '.join(str(int(b)) for b in bad[:_MAX_LISTED])}: values {shown})."
        )
    return idx.astype(np.int64, copy=False)


def _check_options(center: Any, ties: Any, chunk_size: Any, dtype: Any) -> np.dtype:
    if not isinstance(center, (bool, np.bool_)):
        raise InputError(f"center must be True or False; got {center!r}.")
    if ties not in TIES:
        raise InputError(f"ties must be one of {TIES}; got {ties!r}.")
    if chunk_size is not None and (
        isinstance(chunk_size, (bool, np.bool_)) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1
    ):
        raise InputError(f"chunk_size must be a positive integer or None; got {chunk_size!r}.")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise InputError(f"dtype must be float32 or float64; got {dtype!r}.")
    return dt


# --------------------------------------------------------------------------------------------------
# ranks
# --------------------------------------------------------------------------------------------------
def evalrank_ranks(
    embeddings: Any,
    query_idx: Any,
    positive_idx: Any,
    *,
    center: bool = True,
    ties: str = "pessimistic",
    chunk_size: int | None = None,
    dtype: Any = np.float32,
) -> RankResult:
    """Exact EvalRank ranks (cos and l2) of every positive among the background (EvalRank §4.2).

    ``rank = 1 + #{j not in {x, y} : S(x, j) >= S(x, y)}`` for ``ties="pessimistic"`` (``>`` for
    ``"optimistic"``), with ``S_cos = e_x.e_j / (||e_x|| ||e_j||)`` and ``S_l2 = 1 / (1 + ||e_x - e_j||)``
    on background-centred embeddings (``center=True``).  See the module docstring for the exact
    conventions (zero vectors after centring have cosine 0 with everything; identical vectors tie
    exactly; the query and positive rows are excluded by index; ``x == y`` uses the self-score) and
    for why these numbers differ from those published with the reference toolkit.

    Args:
        embeddings: ``n × d`` real array, one row per background item.  Rows must be finite and
            non-zero.
        query_idx, positive_idx: integer arrays of equal length ``m >= 1``, rows of ``embeddings``.
        center: subtract the background mean before scoring (default on; recorded in the result).
        ties: ``"pessimistic"`` (default) or ``"optimistic"``.
        chunk_size: query rows whose scores are held in memory at once.  It only bounds memory — the
            ranks never depend on it.  Default ``None``: as many rows as fit in 64 MiB of scores
            (~690 rows for EvalRankSent's ~24.2k distinct rows).
        dtype: precision of the prepared input and of the filter product, ``np.float32`` (default)
            or ``np.float64`` (about twice as slow; the ranks are then exact for the float64-centred
            vectors).  Without centring, float32 input gives the same ranks in both.

    Returns:
        :class:`RankResult` with one cos rank and one l2 rank per pair, in input order.

    Raises:
        InputError: embeddings not 2-D / empty / non-numeric, a row all zero or with NaN or inf,
            indices not integers, out of range, empty, or of different lengths; bad options.
    """
    dt = _check_options(center, ties, chunk_size, dtype)
    x = _check_embeddings(embeddings)
    n = x.shape[0]
    q_idx = _check_indices(query_idx, "query_idx", n)
    p_idx = _check_indices(positive_idx, "positive_idx", n)
    if q_idx.shape != p_idx.shape:
        raise InputError(f"query_idx and positive_idx must have the same length; got {q_idx.size} and {p_idx.size}.")

    prep = _prepare(x, bool(center), dt)
    u = prep.u
    n_distinct = u.shape[0]
    uq = prep.inverse[q_idx]
    up = prep.inverse[p_idx]
    m = q_idx.size
    pessimistic = ties == "pessimistic"

    engine = _RankEngine(prep)
    rank_cos = np.empty(m, dtype=np.int64)
    rank_l2 = np.empty(m, dtype=np.int64)
    pairs = _Pairs(uq, up, q_idx, p_idx, pessimistic, rank_cos, rank_l2)
    todo = _tie_path_ranks(prep, engine, pairs, chunk_size)
    if todo.size:
        _float32_path(engine, u, pairs, todo, chunk_size, dt)

    rank_cos.setflags(write=False)
    rank_l2.setflags(write=False)
    return RankResult(
        cos=rank_cos,
        l2=rank_l2,
        n_background=int(n),
        center=bool(center),
        ties=str(ties),
        n_distinct=int(n_distinct),
        refined=engine.refined,
    )


# --------------------------------------------------------------------------------------------------
# summaries
# --------------------------------------------------------------------------------------------------
def _check_ks(ks: Iterable[int]) -> tuple[int, ...]:
    try:
        out = tuple(ks)
    except TypeError:
        raise InputError(f"ks must be a sequence of positive integers; got {ks!r}.") from None
    for k in out:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
            raise InputError(f"ks must be positive integers; got {k!r}.")
    return tuple(int(k) for k in out)


def summarize_ranks(ranks: Any, *, ks: Sequence[int] = DEFAULT_KS, prefix: str = "") -> dict[str, float]:
    """MRR, Hits@k and mean rank of EvalRank ranks (EvalRank §4.2), as plain Python floats.

    ``MRR = mean(1 / rank)``; ``Hits@k = mean(rank <= k)`` (both in [0, 1]); ``mean_rank = mean(rank)``.

    Returns ``{prefix+"mrr", prefix+"hits_at_<k>" for k in ks, prefix+"mean_rank"}``.
    """
    r = np.asarray(ranks)
    if r.ndim != 1 or r.size == 0:
        raise InputError(f"ranks must be a non-empty 1-D array; got shape {r.shape}.")
    if r.dtype.kind not in "iu":
        raise InputError(f"ranks must be integers; got dtype {r.dtype}.")
    if int(r.min()) < 1:
        raise InputError(f"ranks start at 1; got a minimum of {int(r.min())}.")
    out = {f"{prefix}mrr": float(np.mean(1.0 / r))}
    for k in _check_ks(ks):
        out[f"{prefix}hits_at_{k}"] = float(np.mean(r <= k))
    out[f"{prefix}mean_rank"] = float(np.mean(r, dtype=np.float64))
    return out


def evalrank_scores(
    embeddings: Any,
    query_idx: Any,
    positive_idx: Any,
    *,
    center: bool = True,
    ties: str = "pessimistic",
    ks: Sequence[int] = DEFAULT_KS,
    chunk_size: int | None = None,
    subset_mask: Any = None,
    dtype: Any = np.float32,
) -> dict[str, Any]:
    """EvalRank scores as one JSON-serialisable dict (what MTEB stores for a subset).

    Cosine metrics unprefixed (``mrr``, ``hits_at_1``, ``hits_at_3``, ``hits_at_10``, ``mean_rank``),
    l2 metrics prefixed ``l2_``, ``main_score`` = cosine ``mrr`` (the paper's headline metric), and
    bookkeeping: ``num_pairs``, ``num_background``, ``centered`` (bool), ``ties`` (str).

    ``subset_mask`` (optional, boolean, one entry per pair) restricts the *pairs* that are scored; the
    background is always the whole of ``embeddings``.  Ranks are computed as in :func:`evalrank_ranks`.
    """
    _check_ks(ks)
    if subset_mask is not None:
        sel = np.asarray(subset_mask)
        q, p = np.asarray(query_idx), np.asarray(positive_idx)
        if q.ndim != 1 or p.ndim != 1 or q.shape != p.shape:
            raise InputError(
                f"query_idx and positive_idx must be 1-D and of the same length; got shapes {q.shape} and {p.shape}."
            )
        if sel.dtype != np.bool_ or sel.shape != q.shape:
            raise InputError(
                f"subset_mask must be a boolean array with one entry per pair ({q.shape[0]}); "
                f"got dtype {sel.dtype}, shape {sel.shape}."
            )
        if not sel.any():
            raise InputError("subset_mask selects no pairs.")
        query_idx, positive_idx = q[sel], p[sel]
    res = evalrank_ranks(
        embeddings, query_idx, positive_idx, center=center, ties=ties, chunk_size=chunk_size, dtype=dtype
    )
    out: dict[str, Any] = {**summarize_ranks(res.cos, ks=ks), **summarize_ranks(res.l2, ks=ks, prefix="l2_")}
    out["main_score"] = out["mrr"]
    out["num_pairs"] = res.n_pairs
    out["num_background"] = res.n_background
    out["centered"] = res.center
    out["ties"] = res.ties
    return out
