"""EvalRank: exact ranks of positives among a background set, MRR and Hits@k (Wang et al., 2022, §4).

Definition (EvalRank, "Just Rank: Rethinking Evaluation with Word and Sentence Similarities", ACL 2022,
§4.2).  The background ``C = {c_1, ..., c_n}`` holds one embedding row per unique item; each positive
pair ``(x, y)`` names two rows of ``C`` and only ``x`` is the query.  With embeddings ``e``::

    S_cos(x, j) = e_x . e_j / (||e_x|| ||e_j||)
    S_l2(x, j)  = 1 / (1 + ||e_x - e_j||)

    rank(x, y)  = 1 + #{ j in C, j not in {x, y} : S(x, j) >= S(x, y) }     (ties="pessimistic")
    rank(x, y)  = 1 + #{ j in C, j not in {x, y} : S(x, j) >  S(x, y) }     (ties="optimistic")

    MRR = mean(1 / rank),   Hits@k = share of pairs with rank <= k,   mean rank = mean(rank)

The query's own row and the positive's own row are excluded *by index*.  When ``x == y`` (the
sentence-level set has 13 pairs with s1 = s2, which are one background row) the positive's score is
the self-score ``S(x, x)`` and only that one row is excluded.

Conventions of this implementation
----------------------------------
* **Exact, and a function of the input only.**  The ranks are what exact arithmetic gives on the
  prepared (centred) vectors: items whose scores are equal in exact arithmetic are ties, whatever the
  CPU, the BLAS library or kernel, the thread count, ``chunk_size``, the order of the pairs or of the
  background rows, or which pairs are evaluated together.  This is *filter and refine*
  (:mod:`mteb_evalrank.metrics.exact_scores`): one float32 matrix product gives every key with a
  rigorously bounded rounding error (``gamma(d) ||q|| ||u||`` plus a few units of roundoff, for any
  summation order); items whose key is farther than the bound from the positive's key are decided
  there, the others are re-scored in float64 without BLAS and, if still within that (much smaller)
  bound, compared in exact integer arithmetic.  :attr:`RankResult.refined` counts both stages.
* **The prepared input.**  ``center=True`` (default) subtracts the background mean, as the reference
  toolkit does.  The mean of each column is a correctly rounded sum (``math.fsum``, so the same for
  any row order) divided by ``n``; each value is centred in float64 and rounded once to ``dtype``
  (float32 by default: the precision of the models' own output).  The ranks are exact for these
  vectors.  The embeddings are first multiplied by a power of two so that the largest value is below
  1 in absolute value (exact, invisible in the ranks; float64 inputs beyond the float32 range work).
  A row that becomes exactly zero after centring (e.g. every row of a model that returns one constant
  vector) has cosine ``0`` with everything, by definition.
* **Ties** (``ties="pessimistic"``, default): background items scoring *equal* to the positive rank
  above it, so a degenerate model that maps everything to one vector gets rank ``n - 1`` for every
  pair (MRR ~ 1/(n-1)) instead of a perfect score.  ``ties="optimistic"`` uses ``>`` — the rule the
  paper and the reference toolkit intend (ties favour the positive).
* **Identical vectors.**  Real models produce identical embeddings for different items (the count
  for all-MiniLM-L6-v2 on EvalRankSent is in the README).  The prepared rows are deduplicated
  (bytewise): every distinct vector is one column of the score matrix, counted with its
  multiplicity, and the query's and the positive's own rows are subtracted from the counts of their
  columns.  Exactness does not need this; it saves work, since identical vectors would otherwise
  reach the exact stage for every query.
* **Vectors with many exact ties** (sparse TF-IDF and its sparse random projections, quantised
  vectors) leave thousands of items per query within the float32 filter's bound: after centring, l2
  scores of such vectors tie exactly up to the centring's rounding.  When a sample of queries shows
  this, the call takes the *tie path* (:class:`_TiePath`): exact products on the input's own grid
  (float32 where every product fits 24 bits, e.g. quantised vectors; else float64; sparse products for
  sparse input) plus rigorously bounded small terms, computed only for the entries near the positive,
  decide ties and near-ties by exact float64 sums, without refining each one; the decisions, hence the
  ranks, are the same.  It costs at most about twice the float32 path on dense vectors of the same
  shape (``benchmarks/ties_speed.py``).
* **One matrix product for both metrics.**  With ``G = Q . U^T`` over prepared vectors, the cosine
  ordering in a query row is that of ``G[:, j] / ||u_j||`` and the l2 ordering (smaller distance =
  larger score) is that of ``G[:, j] - ||u_j||^2 / 2`` (because ``||q - u||^2 = ||q||^2 - 2 q.u + ||u||^2``
  and ``||q||`` is constant within a row; ``1 / (1 + d)`` is strictly decreasing in ``d``).

Difference from published numbers (the reference toolkit's artifact)
--------------------------------------------------------------------
The EvalRank reference toolkit computes ``S(x, y)`` separately from the score row of ``x`` and then
counts the entries of that row that are larger, *including the positive's own entry*; whenever
rounding makes the row's copy of ``S(x, y)`` larger than the separately computed value, the positive
is counted against itself.  This adds 1 to roughly a quarter of all ranks, and which ones depends on
the BLAS library.  Measured for all-MiniLM-L6-v2 on EvalRankSent: exact MRR 0.829 / Hits@1 0.754
become 0.745 / 0.587 (1,560 of 6,989 ranks gain 1).  This module does not reproduce that artifact,
so its numbers are higher than those published with the toolkit for the same model.

Memory and speed
----------------
Beyond the input array, peak memory is two float32 copies of the background while deduplicating
(one afterwards), one score chunk of ``chunk_size × n_distinct`` float32 values (default: 64 MiB),
float64 temporaries of column or row blocks (~32 MiB) and ~3 MiB of per-block scratch for keys and
masks (counts are taken row by row from a boolean mask, never through a wide integer temporary).
The engine is numpy: on the 2-core CPU this was developed on, OpenBLAS's SGEMM was faster than torch
for this shape; ``benchmarks/ranking_speed.py`` measures 6,989 queries × 24,957 background rows × 384
dimensions (both metrics) and prints how many comparisons were refined.  The tie path holds, besides,
the input rows in float64 and float32 and the centring's residuals in float32 (about four float32
copies of the background) and works in 16 MiB score chunks (float32 or float64, plus float32 halves
of ``H`` for sparse input); ``benchmarks/ties_speed.py`` compares it with dense vectors of the same
shape.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics import exact_scores as xs

__all__ = [
    "DEFAULT_KS",
    "TIES",
    "RankResult",
    "evalrank_ranks",
    "evalrank_scores",
    "summarize_ranks",
]

TIES = ("pessimistic", "optimistic")
DEFAULT_KS = (1, 3, 10)

#: Default size (bytes) of the one score chunk held at a time (``chunk_size=None``).
_DEFAULT_CHUNK_BYTES = 64 * 2**20
#: Candidates re-scored in float64 at a time (bounds the float64 temporaries: 3 x this x d x 8 bytes).
_REFINE_BATCH = 4096
#: Target size (bytes) of the per-block scratch used for keys and masks (fits in a core's L2 cache).
_BLOCK_BYTES = 2**20
_CENTER_ROWS = 4096  # rows per float64 block while centring (bounds the float64 temporary)
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
# preparation: centre, rescale, deduplicate
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Prepared:
    """The prepared input: distinct centred vectors, exactly ``c = fl64(x * scale - mean)``.

    ``u`` holds them rounded to the filter precision (duplicated vectors first); the float64 values
    themselves are recomputed on demand from the input rows ``src`` (:meth:`rows64`), so only one
    float32 copy of the background is held.  ``inverse[i]`` is the distinct row of input row ``i``,
    ``counts`` the multiplicities, ``nsq`` the float64 squared norms of the distinct vectors.
    """

    x: np.ndarray
    scale: float
    mean: np.ndarray | None
    u: np.ndarray
    src: np.ndarray
    inverse: np.ndarray
    counts: np.ndarray
    nsq: np.ndarray

    def rows64(self, cols: np.ndarray) -> np.ndarray:
        """The exact prepared (float64) vectors of distinct rows ``cols``."""
        return _centred(self.x, self.src[np.asarray(cols)], self.scale, self.mean)


def _centred(x: np.ndarray, rows: Any, scale: float, mean: np.ndarray | None) -> np.ndarray:
    """``fl64(x[rows] * scale - mean)`` with ``-0.0`` turned into ``+0.0`` (elementwise, so the same
    bits on every machine; equal vectors are then equal bytewise)."""
    c = x[rows].astype(np.float64)
    c *= scale
    if mean is not None:
        c -= mean
    c += 0.0
    return c


def _prepare(x: np.ndarray, center: bool, dtype: np.dtype) -> _Prepared:
    """Centre (float64), rescale, deduplicate (bytewise on the float64 vectors) and round the filter copy."""
    n, d = x.shape
    # exact power-of-two rescaling so that |values| < 1 (centred values < 2): no effect on any
    # ordering (both similarities are scale invariant in their ordering), keeps products far from
    # overflow, and lets float64 inputs beyond the float32 range be used
    big = float(np.abs(x).max())
    scale = 2.0 ** -int(np.frexp(big)[1])
    mean = _exact_column_means(x, scale) if center else None
    u_all = np.empty((n, d), dtype=dtype)
    hashes = np.empty(n, dtype=np.uint64)
    nsq_all = np.empty(n, dtype=np.float64)
    mult = _hash_multipliers(d)
    for s in range(0, n, _CENTER_ROWS):  # row blocks bound the float64 temporaries
        c = _centred(x, slice(s, s + _CENTER_ROWS), scale, mean)
        u_all[s : s + _CENTER_ROWS] = c
        hashes[s : s + _CENTER_ROWS] = (c.view(np.uint64) * mult).sum(axis=1)  # wraps modulo 2**64
        nsq_all[s : s + _CENTER_ROWS] = np.einsum("ij,ij->i", c, c)
        del c
    first, inverse, counts = _group_rows(hashes, lambda rows: _centred(x, rows, scale, mean))
    # duplicated vectors first (their multiplicities need a correction term), stable otherwise
    order = np.argsort(counts == 1, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    src = first[order]
    u = u_all[src]
    del u_all
    return _Prepared(
        x=x,
        scale=scale,
        mean=mean,
        u=u,
        src=src,
        inverse=position[inverse].astype(np.int64, copy=False),
        counts=counts[order].astype(np.int64, copy=False),
        nsq=nsq_all[src],
    )


def _exact_column_means(x: np.ndarray, scale: float) -> np.ndarray:
    """Column means of ``x * scale``: each column summed with ``math.fsum`` (correctly rounded, so the
    same whatever the order of the rows), then divided by ``n``.  Column blocks bound the temporaries."""
    n, d = x.shape
    out = np.empty(d, dtype=np.float64)
    step = max(1, 2**22 // max(n, 1))  # ~32 MiB of float64 per block
    for c in range(0, d, step):
        cols = np.ascontiguousarray(x[:, c : c + step].T, dtype=np.float64)
        cols *= scale
        out[c : c + step] = [math.fsum(memoryview(col)) for col in cols]
    return out / n


def _hash_multipliers(width: int) -> np.ndarray:
    """Fixed odd 64-bit multipliers of the row hash (a function, so tests can force collisions)."""
    return np.random.default_rng(0x5EED).integers(1, 2**62, size=width, dtype=np.uint64) | np.uint64(1)


def _group_rows(hashes: np.ndarray, rows_of) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bytewise-distinct rows as ``(first, inverse, counts)``, like ``np.unique(axis=0)``.

    Rows are grouped by their 64-bit multiplicative hash, and every row of a group is then checked
    bytewise against the group's first row (``rows_of(indices)`` gives the rows); only if that check
    ever fails (a hash collision) are all rows sorted bytewise (``np.unique`` on a void view).
    """
    _, first, inverse, counts = np.unique(hashes, return_index=True, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    in_group = np.flatnonzero(counts[inverse] > 1)
    if in_group.size and not np.array_equal(
        rows_of(in_group).view(np.uint64), rows_of(first[inverse[in_group]]).view(np.uint64)
    ):
        everything = rows_of(np.arange(hashes.size))
        rows = everything.view(np.dtype((np.void, everything.shape[1] * everything.itemsize))).ravel()
        _, first, inverse, counts = np.unique(rows, return_index=True, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
    return first, inverse, counts


def _gemm(a: np.ndarray, bt: np.ndarray, out: np.ndarray) -> None:
    """``out[:] = a @ bt`` — the one BLAS call, the filter (a function, so tests can substitute a BLAS
    that rounds every position differently, within the bound of :mod:`.exact_scores`)."""
    np.matmul(a, bt, out=out)


class _RankEngine:
    """Filter-and-refine counting of background items scoring above a positive (see :mod:`.exact_scores`).

    Built once per call from the distinct prepared rows ``u``; :meth:`ranks` takes a block of filter
    scores ``g = u[cq] @ u.T`` (any rounding within the bound) and returns exact ranks.
    """

    def __init__(self, prep: _Prepared) -> None:
        u, counts, dt = prep.u, prep.counts, prep.u.dtype
        n, d = u.shape
        self.prep, self.u, self.counts, self.dt = prep, u, counts, dt
        extra = counts - 1  # additional rows behind each distinct column (duplicated columns come first)
        self.n_dup = int(np.count_nonzero(extra))
        self.extra = extra[: self.n_dup]
        # float64 squared norms of the prepared vectors; upper bounds for the error terms
        self.nsq64 = prep.nsq
        inflate = 1.0 + 2.0 * xs.gamma(d, np.float64)
        self.nsq_up = xs.sqnorm_upper_bound(self.nsq64, d)
        self.norm_up = np.sqrt(self.nsq_up)
        self.norm64 = np.sqrt(self.nsq64)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            inv64 = np.where(self.nsq64 > 0.0, 1.0 / self.norm64, 0.0)
            inv = inv64.astype(dt)
        # a non-zero vector whose inverse norm overflows the working precision is always refined
        self.always = np.flatnonzero(~np.isfinite(inv) | ((inv == 0) & (self.nsq64 > 0)))
        inv[self.always] = np.nan
        self.inv_norm = inv
        self.inv64 = inv64  # float64 inverse norms (0 for a zero vector), used by the tie path
        self.half_nsq = (self.nsq64 / 2.0).astype(dt)
        finite = np.isfinite(inv64) & (self.nsq64 > 0)
        self.w_max = float(inv64[finite].max()) * inflate if finite.any() else 0.0
        self.n_max = float(self.norm_up.max())
        self.nsq_max = float(self.nsq_up.max())
        rounded = dt != np.float64  # the filter copy is the float64 vectors rounded to float32
        self.cos_c = xs.cos_error_factor(d, dt, rounded_inputs=rounded)
        self.l2_a, self.l2_b = xs.l2_error_factors(d, dt, rounded_inputs=rounded)
        self.eta = xs.underflow_slack(d, dt)
        self.c2_cos, self.c2_l2 = xs.refine_error_factors(d)
        self.eta2 = xs.underflow_slack(d, np.float64)
        self.exact = xs.ExactRows(prep.rows64)
        self.refined = {"stage2": 0, "stage3": 0}
        self._block_rows = 0
        self.grid: tuple | None = None  # :func:`_all_grid_spans`, once the tie path's probe computed it

    def _buffers(self, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if rows > self._block_rows:
            n = self.u.shape[0]
            self._key = np.empty((rows, n), dtype=self.dt)
            self._gt = np.empty((rows, n), dtype=bool)
            self._ge = np.empty((rows, n), dtype=bool)
            self._block_rows = rows
        return self._key[:rows], self._gt[:rows], self._ge[:rows]

    def _filter(
        self, g: np.ndarray, cq: np.ndarray, cp: np.ndarray, metric: str, key: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Filter keys of a block into ``key``; the positive's key and the band ``[lo, hi]`` around it
        outside which the float32 keys decide."""
        rows = np.arange(g.shape[0])
        qn = self.norm_up[cq]
        if metric == "cos":
            np.multiply(g, self.inv_norm, out=key)
            delta = 2.0 * (self.cos_c * qn + self.eta * self.w_max)
        else:
            np.subtract(g, self.half_nsq, out=key)
            eps_max = self.l2_a * qn * self.n_max + self.l2_b * self.nsq_max + self.eta
            eps_p = self.l2_a * qn * self.norm_up[cp] + self.l2_b * self.nsq_up[cp] + self.eta
            delta = eps_max + eps_p
        kp = key[rows, cp].astype(np.float64)
        hi = xs.round_outward(kp + delta, self.dt, up=True)
        lo = xs.round_outward(kp - delta, self.dt, up=False)
        return kp, hi, lo

    def band(self, g: np.ndarray, cq: np.ndarray, cp: np.ndarray, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """The (row, item) comparisons of the block the float32 filter leaves undecided (the positive's
        own column excluded)."""
        key = np.empty_like(g)
        _, hi, lo = self._filter(g, cq, cp, metric, key)
        inside = (key >= lo[:, None]) & (key <= hi[:, None])
        inside[np.arange(g.shape[0]), cp] = False
        return np.nonzero(inside)

    def ranks(
        self, g: np.ndarray, cq: np.ndarray, cp: np.ndarray, other: np.ndarray, metric: str, pessimistic: bool
    ) -> np.ndarray:
        bsz = g.shape[0]
        rows = np.arange(bsz)
        key, gt, ge = self._buffers(bsz)
        kp, hi, lo = self._filter(g, cq, cp, metric, key)
        np.greater(key, hi[:, None], out=gt)  # decided: above the positive
        c_gt = np.fromiter((np.count_nonzero(r) for r in gt), dtype=np.int64, count=bsz)
        c = c_gt.copy()
        if self.n_dup:
            c += gt[:, : self.n_dup].astype(np.int64) @ self.extra
        np.greater_equal(key, lo[:, None], out=ge)
        # the band lo <= key <= hi is refined; it always holds the positive's own column (handled below)
        band = np.fromiter((np.count_nonzero(r) for r in ge), dtype=np.int64, count=bsz) - c_gt - 1
        band[np.isnan(kp)] = 1  # the positive itself needs refining: so does its whole row
        if self.always.size:
            band[:] = 1
        qcount = gt[rows, cq]
        todo = np.flatnonzero(band > 0)
        if todo.size:
            sub_ge, sub_gt = ge[todo], gt[todo]
            np.logical_xor(sub_ge, sub_gt, out=sub_ge)
            if self.always.size:
                sub_ge[:, self.always] = True
            unknown = np.isnan(kp[todo])
            if unknown.any():
                c[todo[unknown]] = 0
                qcount[todo[unknown]] = False
                sub_ge[unknown] = True
            sub_ge[np.arange(todo.size), cp[todo]] = False  # the positive's own column
            r_sub, jj = np.nonzero(sub_ge)
            rr = todo[r_sub]
            dec = self._refine(rr, jj, cq, cp, metric)
            counted = dec >= 0 if pessimistic else dec > 0
            np.add.at(c, rr[counted], self.counts[jj[counted]])
            is_q = jj == cq[rr]
            qcount[rr[is_q]] |= counted[is_q]
        same = cq == cp
        if pessimistic:  # every other copy of the positive's vector ties with it
            c += self.counts[cp] - 1
        qcount[same] = pessimistic
        c -= qcount & other  # the query's own row
        return 1 + c

    def _refine(
        self, rr: np.ndarray, jj: np.ndarray, cq: np.ndarray, cp: np.ndarray, metric: str, exact: bool = True
    ) -> np.ndarray:
        """Exact sign of ``t_j - t_p`` for each candidate ``(row rr, column jj)``: float64, then integers
        (``exact=False``: float64 only, 2 where it does not decide; not counted in :attr:`refined`)."""
        if exact:
            self.refined["stage2"] += int(rr.size)
        rows64 = self.prep.rows64
        qrow, prow = cq[rr], cp[rr]
        qn = self.norm_up[qrow]
        dec = np.zeros(rr.size, dtype=np.int8)
        for s in range(0, rr.size, _REFINE_BATCH):
            sl = slice(s, s + _REFINE_BATCH)
            q64 = rows64(qrow[sl])
            a_j = (rows64(jj[sl]) * q64).sum(axis=1)
            a_p = (rows64(prow[sl]) * q64).sum(axis=1)
            if metric == "cos":
                with np.errstate(divide="ignore", invalid="ignore"):
                    t_j = np.where(self.nsq64[jj[sl]] > 0, a_j / self.norm64[jj[sl]], 0.0)
                    t_p = np.where(self.nsq64[prow[sl]] > 0, a_p / self.norm64[prow[sl]], 0.0)
                window = 2.0 * (self.c2_cos * qn[sl] + self.eta2 * self.w_max)
            else:
                t_j = a_j - self.nsq64[jj[sl]] / 2.0
                t_p = a_p - self.nsq64[prow[sl]] / 2.0
                window = (
                    self.c2_l2 * (qn[sl] * (self.norm_up[jj[sl]] + self.norm_up[prow[sl]]))
                    + self.c2_l2 * (self.nsq_up[jj[sl]] + self.nsq_up[prow[sl]]) / 2.0
                    + 2.0 * self.eta2
                )
            diff = t_j - t_p
            part = np.where(diff > window, 1, np.where(diff < -window, -1, 0)).astype(np.int8)
            undecided = np.flatnonzero(np.abs(diff) <= window) + s
            part_view = dec[sl]
            part_view[:] = part
            if undecided.size and not exact:
                dec[undecided] = 2
            elif undecided.size:
                self.refined["stage3"] += int(undecided.size)
                compare = xs.cmp_cos_exact if metric == "cos" else xs.cmp_l2_exact
                ex = self.exact
                for i in undecided.tolist():
                    q, j, p = int(qrow[i]), int(jj[i]), int(prow[i])
                    dec[i] = compare(ex.dot(q, j), ex.sqnorm(j), ex.dot(q, p), ex.sqnorm(p))
        return dec


# --------------------------------------------------------------------------------------------------
# the tie path: exact float64 arithmetic on the input's own grid (vectors with many exact ties)
# --------------------------------------------------------------------------------------------------
#: ``None``: choose the path per call (:func:`_use_tie_path`); ``True`` / ``False`` force it (tests).
_TIE_MODE: bool | None = None
_TIE_MIN_DISTINCT = 2048  # below this the float32 path is always cheap enough
_TIE_SAMPLE_ROWS = 32  # query rows of the float32 filter inspected to choose the path
_TIE_PROBE_ITEMS = 512  # undecided comparisons of the sample re-scored in float64 to choose the path
_TIE_EXACT_SHARE = 5e-4  # share of comparisons left to exact integers above which the tie path is used
_TIE_MAX_UNCERTIFIED = 0.01  # at most this share of distinct rows may fall outside the exact grid
_TIE_MIN_EXPONENT = -150  # smallest bit of a certified row (keeps every product and its error normal)
#: Score bytes per chunk of the tie path: below glibc's largest mmap threshold (32 MiB), so that the
#: products' arrays reuse freed memory instead of mapping (and page-faulting) fresh pages every chunk.
_TIE_CHUNK_BYTES = 16 * 2**20
_TIE_SPARSE_SHARE = 0.05  # inputs with fewer non-zeros than this share are multiplied as sparse matrices
_F64_U = 2.0**-53
_R_SCALE = 2.0**53  # the centring residuals (|r| <= 2^-53 |c| < 2^-52) times this fit float32 unscathed


def _grid_spans(xt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``xt`` (float64 holding the rescaled input): whether it is on the float32 grid, the
    bit spans ``(L2, L1, Linf) - e`` of its 2-, 1- and inf-norm over its smallest bit ``2^e`` (10,000 when
    off the grid), its float64 squared norm, and ``e`` itself (10,000 for a zero row)."""
    d = xt.shape[1]
    f32 = (xt.astype(np.float32) == xt).all(axis=1)
    frac, ex = np.frexp(xt)
    mant = np.abs(frac * 2.0**24).astype(np.int64)  # the float32 significand as an integer
    low = np.frexp((mant & -mant).astype(np.float64))[1] - 1  # its lowest set bit
    e_min = np.where(xt != 0.0, ex - 24 + low, 10_000).min(axis=1)
    nsq = np.einsum("ij,ij->i", xt, xt)
    up2 = np.sqrt(xs.sqnorm_upper_bound(nsq, d)) * (1.0 + 4.0 * _F64_U)
    up1 = np.abs(xt).sum(axis=1) * (1.0 + 2.0 * xs.gamma(d, np.float64))
    upi = np.abs(xt).max(axis=1)
    ok = f32 & (e_min >= _TIE_MIN_EXPONENT)
    spans = np.empty((xt.shape[0], 3), dtype=np.int64)
    for k, bound in enumerate((up2, up1, upi)):  # each norm < 2^L; all values are multiples of 2^e_min
        spans[:, k] = np.where(ok, np.frexp(bound)[1] - e_min, 10_000)
    return ok, spans, nsq, e_min


def _pair_spans(sq: np.ndarray, sp: np.ndarray) -> np.ndarray:
    """The tightest bit span of the products of rows with spans ``sq`` and ``sp`` (exact when <= 53)."""
    return np.minimum(np.minimum(sq[..., 0] + sp[..., 0], sq[..., 2] + sp[..., 1]), sq[..., 1] + sp[..., 2])


def _all_grid_spans(prep: _Prepared) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_grid_spans` of every distinct row (row blocks bound the float64 temporaries)."""
    n = prep.u.shape[0]
    out = (np.empty(n, dtype=bool), np.empty((n, 3), dtype=np.int64), np.empty(n), np.empty(n, dtype=np.int64))
    for s in range(0, n, _CENTER_ROWS):
        xt = prep.x[prep.src[s : s + _CENTER_ROWS]].astype(np.float64)
        xt *= prep.scale
        for arr, part in zip(out, _grid_spans(xt)):
            arr[s : s + xt.shape[0]] = part
    return out


def _on_grid_share(prep: _Prepared, sample: np.ndarray, grid: tuple | None = None) -> float:
    """Share of (sampled query, distinct row) products that the tie path can take exactly
    (``grid``: :func:`_all_grid_spans`, if already computed)."""
    ok, spans, _, _ = _all_grid_spans(prep) if grid is None else grid
    good = (_pair_spans(spans[sample][:, None, :], spans[None, :, :]) <= 53) & ok[None, :] & ok[sample][:, None]
    return float(good.mean())


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum: ``s = fl(a + b)`` and ``e`` with ``s + e == a + b`` exactly (binary64)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's TwoProduct: ``p = fl(a * b)`` and ``e`` with ``p + e == a * b`` exactly (no under/overflow)."""
    p = a * b
    ca, cb = a * 134217729.0, b * 134217729.0  # 2^27 + 1
    ah, bh = ca - (ca - a), cb - (cb - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _sign_of_sum(terms: list[np.ndarray], err: np.ndarray | float, passes: int = 4) -> np.ndarray:
    """Sign of ``sum(terms) + x`` for every element, where the terms are exact binary64 values and ``x``
    is unknown with ``|x| <= err``: 1, -1, 0, or 2 where the bound leaves it undecided.

    Repeated error-free distillation (TwoSum, Ogita-Rump-Oishi's VecSum) keeps the exact sum while the
    last term converges to it; an element is decided once that term outweighs all the others plus
    ``err`` (the sum of absolute values, a few roundings, is inflated by ``1 + 16u``).  With ``err == 0``
    an exact sum of zero is a tie (0).
    """
    p = [np.asarray(t, dtype=np.float64).copy() for t in terms]
    err = np.broadcast_to(np.asarray(err, dtype=np.float64), p[0].shape)
    dec = np.full(p[0].shape, 2, dtype=np.int8)
    for _ in range(passes):
        for i in range(1, len(p)):
            p[i], p[i - 1] = _two_sum(p[i], p[i - 1])
        rest = np.zeros_like(p[0])
        for t in p[:-1]:
            rest += np.abs(t)
        bound = (rest + err) * (1.0 + 16.0 * _F64_U)
        top = p[-1]
        open_ = dec == 2
        decided = open_ & (np.abs(top) > bound)
        dec[decided] = np.sign(top[decided]).astype(np.int8)
        dec[open_ & (bound == 0.0) & (top == 0.0)] = 0
        if not (dec == 2).any():
            break
    return dec


class _TiePath:
    """Exact scores through the input's own grid, for vectors whose scores tie or nearly tie en masse.

    With ``x~`` the rescaled input rows, ``m`` the mean and ``c = fl(x~ - m)`` the prepared vectors,
    ``r = c - (x~ - m)`` is exactly representable (TwoSum), and in exact arithmetic

        c_q . c_j = x~_q . x~_j + H_qj + r_q . r_j - m.c_j - m.c_q - ||m||^2,   H_qj = x~_q . r_j + r_q . x~_j
        l2 key    = c_q . c_j - ||c_j||^2 / 2 = (x~_q . x~_j - ||x~_j||^2 / 2) + H_qj - rho_j + r_q . r_j + const_q

    with ``rho_j = x~_j . r_j + ||r_j||^2 / 2`` (the mean cancels: distances are translation invariant).
    A pair of rows is *certified* when both hold float32 numbers (24-bit significands) with smallest
    bits ``2^e_q``, ``2^e_j`` and ``sum_i |x~_qi x~_ji| < 2^53 * 2^(e_q + e_j)`` (bounded through the
    2-norms, or the inf- and 1-norms, of the two rows): then every product and every partial sum of
    ``x~_q . x~_j`` is an integer multiple of ``2^(e_q + e_j)`` below ``2^53`` of them, so the float64
    BLAS product (any order, any kernel) is *exact*; ``||x~_j||^2 / 2`` is held exactly as a sum of two
    float64 numbers.  Uncertified pairs are refined per item, as on the float32 path.
    The small terms (``H``, ``rho``, ``r.r``, ~2^-52 of the rest) are computed in float32 / float64
    with rigorous bounds.  Ties and near-ties of the float32 filter — for l2 these are exact ties of
    ``x~`` broken only by the centring's rounding — are then decided by the sign of an exact sum of
    float64 numbers (:func:`_sign_of_sum`); anything still undecided goes through
    :meth:`_RankEngine._refine`, as on the float32 path.  The decisions are the exact ones, so the
    ranks are those of the float32 path, bit for bit.

    Cost (issue 31: at most twice the float32 path on dense vectors of the same shape):

    * ``G``: one product per *distinct* query row (pairs sorted by query row; a row asked many times,
      e.g. every out-of-vocabulary word, is multiplied once).  In float32 when every certified product
      fits 24 bits above a normal smallest bit (:attr:`g32`: quantised vectors; as exact as float64,
      at the float32 path's own cost), else in float64; sparse input as sparse x sparse products.
    * ``H`` is left out of the keys (its bound widens the band by ~2^-52) and computed only for the
      band's entries: per entry for dense input (:class:`_LazyH`, one gather and one small product per
      query row), from two sparse products for sparse input (:class:`_SplitH`).  Where its float32
      bound leaves an l2 decision open, ``H`` is recomputed in float64 from the exact residuals
      (:meth:`h64`, a bound ~2^-29 times smaller), so almost only exact ties of the prepared vectors
      reach the exact integers.
    * l2 ties of ``x~`` (most of the band) are decided against one bound per query row; cosine norms
      for the near-ties are computed accurately only for the columns that need them.
    """

    def __init__(self, prep: _Prepared, engine: _RankEngine) -> None:
        n, d = prep.u.shape
        self.engine, self.n, self.d = engine, n, d
        self.x64 = np.empty((n, d), dtype=np.float64)
        # x~ and 2^53 r side by side: a row's H entries are one dot product of length 2d (:class:`_LazyH`)
        self.w32 = np.empty((n, 2 * d if prep.mean is not None else d), dtype=np.float32)
        self.x32 = self.w32[:, :d]
        self.r32 = self.w32[:, d:] if prep.mean is not None else None
        cert = np.empty(n, dtype=bool)
        nsqx = np.empty(n, dtype=np.float64)
        spans = np.empty((n, 3), dtype=np.int64)  # (2-norm, 1-norm, inf-norm) over the smallest bit
        e_low = np.empty(n, dtype=np.int64)  # exponent of the smallest bit
        normr = np.zeros(n, dtype=np.float64)
        rho = np.zeros(n, dtype=np.float64)
        rho_abs = np.zeros(n, dtype=np.float64)
        mu = np.zeros(n, dtype=np.float64)
        mu_abs = np.zeros(n, dtype=np.float64)
        grid = engine.grid if engine.grid is not None else _all_grid_spans(prep)
        any_r = False
        for s in range(0, n, _CENTER_ROWS):
            rows = prep.src[s : s + _CENTER_ROWS]
            xt = prep.x[rows].astype(np.float64)
            xt *= prep.scale
            blk = slice(s, s + rows.size)
            self.x64[blk] = xt
            self.x32[blk] = xt
            cert[blk], spans[blk], nsqx[blk], e_low[blk] = (a[blk] for a in grid)
            if prep.mean is not None:
                neg = -prep.mean
                c, err = _two_sum(xt, neg)  # c == fl(x~ - m), the prepared vector
                r = -err  # c = x~ - m + r exactly
                any_r = any_r or bool(r.any())
                self.r32[blk] = r * _R_SCALE  # |r| * 2^53 < 2: exact but for float32 rounding
                rr = np.einsum("ij,ij->i", r, r)
                normr[blk] = np.sqrt(rr) * (1.0 + 4.0 * _F64_U) * (1.0 + 2.0 * xs.gamma(d, np.float64))
                rho[blk] = np.einsum("ij,ij->i", xt, r) + rr / 2.0
                rho_abs[blk] = np.einsum("ij,ij->i", np.abs(xt), np.abs(r)) + rr / 2.0
                c += 0.0
                mu[blk] = c @ prep.mean
                mu_abs[blk] = np.abs(c) @ np.abs(prep.mean)
        self.cert = cert
        self.spans = spans
        # sparse input (e.g. TF-IDF and its sparse random projections): sparse products, same values
        self.any_r = any_r
        if not any_r:
            self.r32 = None
        self.sparse = None
        if np.count_nonzero(self.x64) < _TIE_SPARSE_SHARE * self.x64.size:
            import scipy.sparse

            s32 = scipy.sparse.csr_matrix(self.x32)
            r32t = None if self.r32 is None else np.ascontiguousarray(self.r32.T)
            s64t = scipy.sparse.csr_matrix(self.x64.T)
            self.sparse = (scipy.sparse.csr_matrix(self.x64), s64t, s32, r32t)
            self.dense_rows = np.diff(s32.indptr) > max(1, d // 8)  # queried through BLAS
        self._inv_acc = np.full(n, np.nan)  # 1 / ||c_j|| to within about one rounding, as needed
        self.c_rel = 1.02 * 4.0 * _F64_U  # relative error of fl(nu * inv_acc) against nu / ||c_j||
        g64 = xs.gamma(d + 2, np.float64)
        self.nh = nsqx / 2.0
        self.nh_lo = np.zeros(n, dtype=np.float64)
        self_exact = _pair_spans(spans, spans) <= 53
        wide = np.flatnonzero(cert & ~self_exact)
        if wide.size > max(64, n // 100):  # too many to convert one by one: off the grid
            cert[wide] = False
            spans[wide] = 10_000
            wide = wide[:0]
        for j in wide.tolist():  # ||x~_j||^2 / 2 exactly, as hi + lo
            hi_lo = _exact_half_sqnorm(self.x64[j])
            if hi_lo is None:
                cert[j] = False
                spans[j] = 10_000
            else:
                self.nh[j], self.nh_lo[j] = hi_lo
        self.normx = np.sqrt(xs.sqnorm_upper_bound(nsqx, d)) * (1.0 + 4.0 * _F64_U)
        self.normr = normr
        self.rho = rho
        self.e_rho = 1.01 * (g64 * rho_abs * (1.0 + g64)) + 4.0 * engine.eta2
        self.mu = mu
        e_mu = 1.01 * g64 * mu_abs * (1.0 + g64) + engine.eta2
        self.e_mu = e_mu
        if prep.mean is not None:
            mm = float(prep.mean @ prep.mean)
            self.mm, self.e_mm = mm, 1.01 * g64 * mm + engine.eta2
        else:
            self.mm, self.e_mm = 0.0, 0.0
        ok = cert
        self.normx_max = float(self.normx[ok].max()) if ok.any() else 0.0
        self.normr_max = float(normr[ok].max()) if ok.any() else 0.0
        self.nh_max = float(self.nh[ok].max()) if ok.any() else 0.0
        self.nh_lo_max = float(np.abs(self.nh_lo).max())
        self.e_rho_max = float(self.e_rho[ok].max()) if ok.any() else 0.0
        self.rho_max = float(np.abs(rho[ok]).max()) if ok.any() else 0.0
        self.rho_abs_max = float((rho_abs * (1.0 + g64) + self.e_rho)[ok].max()) if ok.any() else 0.0
        self.mu_max = float((np.abs(mu) + e_mu)[ok].max()) if ok.any() else 0.0
        self.e_mu_max = float(e_mu[ok].max()) if ok.any() else 0.0
        # float32 products of H (x~ exact in float32, r * 2^53 rounded): relative and underflow errors
        self.c_h = 1.01 * xs._product_error(d + 1, np.float32, rounded_inputs=True)
        self.c_h64 = 1.01 * xs.gamma(d + 1, np.float64)  # the same sum in float64 (:meth:`h64`)
        self.eta_h = xs.underflow_slack(2 * d, np.float32) + 2 * d * 2.0**-150
        # rows that cannot be decided here: not certified, or a norm too small for float64 keys
        tiny = (engine.nsq64 < 2.0**-600) & (engine.nsq64 > 0)
        spans[tiny] = 10_000
        self.row_ok = cert & ~tiny
        self.force = np.flatnonzero(~self.row_ok)
        # spans of the widest certified rows: every certified product is exact if theirs is
        s_max = spans[self.row_ok].max(axis=0) if self.row_ok.any() else np.zeros(3, dtype=np.int64)
        widest = int(_pair_spans(s_max, s_max))
        #: no column is ever forced to per-item refinement (all rows certified, all products exact)
        self.all_exact = self.force.size == 0 and widest <= 53
        #: dense products of certified rows are exact in float32 too: at most 24 bits between the largest
        #: partial sum and the smallest bit, which is a normal float32 number (2^-126 or above)
        e_min = int(e_low[self.row_ok].min()) if self.row_ok.any() else 0
        self.g32 = self.sparse is None and widest <= 24 and 2 * e_min >= -126
        self._triples, self._triple_of = np.unique(spans, axis=0, return_inverse=True)
        self._triple_of = self._triple_of.reshape(-1)
        self._off_grid: dict[int, np.ndarray] = {}
        self.stats = {"tie_rows": 0, "tie_decided": 0}

    # ---------------------------------------------------------------------------------------------
    def inv_acc(self, cols: np.ndarray) -> np.ndarray:
        """``1 / ||c_j||`` of columns ``cols`` from accurate squared norms (:func:`_accurate_sqnorms`;
        0 for a zero vector), computed the first time a column is asked for."""
        got = self._inv_acc[cols]
        miss = np.isnan(got)
        if miss.any():
            need = np.unique(cols[miss])
            for s in range(0, need.size, _REFINE_BATCH):
                part = need[s : s + _REFINE_BATCH]
                nsq = _accurate_sqnorms(self.engine.prep.rows64(part))
                with np.errstate(divide="ignore"):
                    self._inv_acc[part] = np.where(nsq > 0.0, 1.0 / np.sqrt(nsq), 0.0)
            got = self._inv_acc[cols]
        return got

    def h64(self, q: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``H_qj = x~_q . r_j + r_q . x~_j`` of entries ``(q, cols)`` in float64 from the exact residuals
        ``r`` (recomputed: TwoSum of ``x~`` and ``-m``); error at most :attr:`c_h64` ``(||x~_q|| ||r_j|| +
        ||r_q|| ||x~_j||)`` plus ``2 eta`` (underflow), for any summation order."""
        out = np.empty(q.size, dtype=np.float64)
        neg = -self.engine.prep.mean
        for s in range(0, q.size, _REFINE_BATCH):
            xq, xj = self.x64[q[s : s + _REFINE_BATCH]], self.x64[cols[s : s + _REFINE_BATCH]]
            rq, rj = -_two_sum(xq, neg)[1], -_two_sum(xj, neg)[1]
            out[s : s + _REFINE_BATCH] = np.einsum("ij,ij->i", xq, rj) + np.einsum("ij,ij->i", rq, xj)
        return out

    def off_grid(self, q: int) -> np.ndarray:
        """Columns ``j`` whose product with row ``q`` is not certified exact (cached per span triple)."""
        t = int(self._triple_of[q])
        got = self._off_grid.get(t)
        if got is None:
            s2, s1, si = (int(v) for v in self._triples[t])
            sp = self.spans
            bad = _pair_spans(np.array([s2, s1, si]), sp) > 53
            got = self._off_grid[t] = np.flatnonzero(bad | ~self.row_ok)
        return got

    def pair_ok(self, q: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Whether each pair ``(q, p)`` of distinct rows is certified (both rows on the grid, product exact)."""
        return self.row_ok[q] & self.row_ok[p] & (_pair_spans(self.spans[q], self.spans[p]) <= 53)

    def products(self, cq: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None, np.ndarray]:
        """Products of the distinct query rows among ``cq`` (a query row that occurs several times, e.g.
        every out-of-vocabulary word, is multiplied once): ``(G, H, inv)`` with ``G[inv[i]]`` the row of
        ``cq[i]``.  ``G = x~_Q . x~^T`` is exact for certified rows (float32 when :attr:`g32`, else
        float64).  ``H`` is ``None`` for dense input (computed per entry, :class:`_LazyH`) and for sparse
        input the two float32 halves of ``2^53 H``: ``x~_Q . (2^53 r)^T`` (rows as ``G``) and
        ``x~ . (2^53 r_Q)^T`` (one column per distinct query row), added per entry (:class:`_SplitH`)."""
        rows, inv = np.unique(cq, return_inverse=True)
        inv = inv.reshape(-1)
        if self.sparse is None:  # dense input: H is only needed for the few entries near the positive
            if self.g32:
                return self.x32[rows] @ self.x32.T, None, inv
            return self.x64[rows] @ self.x64.T, None, inv
        # sparse input: same exact values (every product and partial sum is exact)
        s64, s64t, s32, r32t = self.sparse
        dense = self.dense_rows[rows]
        g = np.empty((rows.size, self.n), dtype=np.float64)
        h1 = h2t = None
        if r32t is not None:
            h1 = np.empty((rows.size, self.n), dtype=np.float32)
            h2t = np.empty((self.n, rows.size), dtype=np.float32)
        for at, sparse_rows in ((np.flatnonzero(~dense), True), (np.flatnonzero(dense), False)):
            if not at.size:
                continue
            qq = rows[at]
            if sparse_rows:
                g[at] = (s64[qq] @ s64t).toarray()
                if h1 is not None:
                    h1[at] = s32[qq] @ r32t
                    h2t[:, at] = s32 @ self.r32[qq].T
            else:
                g[at] = self.x64[qq] @ self.x64.T
                if h1 is not None:
                    h1[at] = self.x32[qq] @ self.r32.T
                    h2t[:, at] = self.x32 @ self.r32[qq].T
        return g, (None if h1 is None else (h1, h2t)), inv

    def block_h(
        self, h: tuple[np.ndarray, np.ndarray] | None, at: np.ndarray, cq: np.ndarray
    ) -> _LazyH | _SplitH | None:
        """``2^53 H`` of a block of query rows ``cq`` (rows ``at`` of :meth:`products`), per entry."""
        if self.r32 is None:
            return None
        if h is None:
            return _LazyH(self.w32, cq)
        return _SplitH(h[0][at], h[1], at)

    def _h_bounds(self, cq: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per query row: ``max_j |H_qj|`` (true) and ``max_j`` of the error of the computed ``H_qj``."""
        nx, nr = self.normx[cq], self.normr[cq]
        h_true = nx * self.normr_max + nr * self.normx_max
        h_err = (self.c_h * (h_true * _R_SCALE) + self.eta_h) / _R_SCALE
        return h_true * 1.01, h_err

    def ranks(
        self, g: np.ndarray, h: _LazyH | _SplitH | None, cq: np.ndarray, cp: np.ndarray, other: np.ndarray,
        metric: str, pessimistic: bool,
    ) -> np.ndarray:
        e = self.engine
        bsz = g.shape[0]
        rows = np.arange(bsz)
        u = _F64_U
        nx = self.normx[cq]
        g_max = nx * self.normx_max
        if h is not None:
            h_true, h_err = self._h_bounds(cq)
            rr_max = self.normr[cq] * self.normr_max * 1.01
        else:
            h_true = h_err = rr_max = np.zeros(bsz)
        if metric == "l2":
            key = g - self.nh
            a_max = g_max + self.nh_max
            s_max = h_true + h_err + self.rho_abs_max + rr_max + self.nh_lo_max
            delta = 1.02 * (2.0 * u * a_max + 2.0 * s_max)
            kp = key[rows, cp]
            delta = delta + 1.02 * u * np.abs(kp)
        else:
            h_unc = h_true  # H (tiny; computed per entry where needed) is left out: at most its bound
            kappa = np.zeros(bsz)
            e_kappa = np.zeros(bsz)
            if self.mm or self.mu.any():
                key = g - self.mu
                kappa = -(self.mu[cq] + self.mm)
                e_kappa = self.e_mu[cq] + self.e_mm + u * np.abs(kappa)
                key += kappa[:, None]
            else:
                key = g.copy()
            key *= e.inv64
            h_max = h_true + h_err
            e_nu = 1.01 * (h_unc + self.e_mu_max + e_kappa + rr_max
                           + 3.0 * u * (g_max + h_max + self.mu_max + np.abs(kappa)))  # fmt: skip
            delta = 2.0 * 1.01 * (e_nu * e.w_max + e.c2_cos * e.norm_up[cq] + e.eta2 * e.w_max)
            kp = key[rows, cp]
        hi = np.nextafter(kp + delta, np.inf)
        lo = np.nextafter(kp - delta, -np.inf)
        gt = key > hi[:, None]
        band = key >= lo[:, None]
        np.logical_xor(band, gt, out=band)  # lo <= key <= hi (gt implies key >= lo)
        forced = None
        if not self.all_exact:
            forced = np.zeros(gt.shape, dtype=bool)
            for r in range(bsz):
                forced[r, self.off_grid(int(cq[r]))] = True
            gt &= ~forced
            band |= forced
        band[rows, cp] = False
        c = np.fromiter((np.count_nonzero(row) for row in gt), dtype=np.int64, count=bsz)
        if e.n_dup:
            c += gt[:, : e.n_dup].astype(np.int64) @ e.extra
        qcount = gt[rows, cq]
        rr_idx, jj = np.divmod(np.flatnonzero(band), band.shape[1])  # row-major, like np.nonzero
        if rr_idx.size:
            if forced is None:
                dec = self._exact_decisions(g, h, rr_idx, jj, cq, cp, metric)
            else:
                dec = np.full(rr_idx.size, 2, dtype=np.int8)
                sel = np.flatnonzero(~forced[rr_idx, jj])
                if sel.size:
                    dec[sel] = self._exact_decisions(g, h, rr_idx[sel], jj[sel], cq, cp, metric)
            self.stats["tie_decided"] += int(np.count_nonzero(dec != 2))
            rest = np.flatnonzero(dec == 2)
            if rest.size:
                dec[rest] = e._refine(rr_idx[rest], jj[rest], cq, cp, metric)
            counted = dec >= 0 if pessimistic else dec > 0
            np.add.at(c, rr_idx[counted], e.counts[jj[counted]])
            is_q = jj == cq[rr_idx]
            qcount[rr_idx[is_q]] |= counted[is_q]
        same = cq == cp
        if pessimistic:
            c += e.counts[cp] - 1
        qcount[same] = pessimistic
        c -= qcount & other
        self.stats["tie_rows"] += bsz
        return 1 + c

    def _centred_cos_decisions(
        self, g: np.ndarray, h: _LazyH | _SplitH | None, r: np.ndarray, j: np.ndarray, cq: np.ndarray, cp: np.ndarray
    ) -> np.ndarray:
        """Centred cosines: decided where the keys, re-evaluated with per-item bounds and accurate norms,
        differ by more than those bounds (ties and closer near-ties are refined per item)."""
        q = cq[r]
        tj, ej = _cos_entry_keys(self, g, h, r, j, q)
        tp, ep = _cos_entry_keys(self, g, h, r, cp[r], q, positive=cp)
        diff = tj - tp
        bound = 1.02 * (ej + ep) + 2.0 * _F64_U * np.abs(diff)
        dec = np.full(r.size, 2, dtype=np.int8)
        ok = np.abs(diff) > bound
        dec[ok] = np.sign(diff[ok]).astype(np.int8)
        rest = np.flatnonzero(~ok)
        for s in range(0, rest.size, _REFINE_BATCH):  # near-ties: double-double keys
            part = rest[s : s + _REFINE_BATCH]
            dec[part] = _cos_dd_decisions(self.engine.prep.rows64, q[part], j[part], cp[r[part]])
        self.stats["cos_dd"] = self.stats.get("cos_dd", 0) + int(np.count_nonzero(dec[rest] != 2))
        return dec

    def _l2_decisions(
        self, g: np.ndarray, h: _LazyH | _SplitH | None, r: np.ndarray, j: np.ndarray, cq: np.ndarray, cp: np.ndarray
    ) -> np.ndarray:
        """:meth:`_exact_decisions` for l2 keys.  Most entries tie exactly in ``x~`` (equal products and
        norms): their sign is that of the small terms ``s = (H_qj - H_qp) - (rho_j - rho_p)``, decided
        where ``|s|`` exceeds a bound that takes the largest column norms (one bound per row, the same
        for all its entries).  The others get bounds of their own and, if need be, the exact sum of all
        terms; what the float32 ``H`` still leaves open, the same again with ``H`` in float64."""
        u = _F64_U
        rows = np.arange(cp.size)
        p = cp[r]
        gj, gp = g[r, j], g[rows, cp][r]
        flat = (gj == gp) & (self.nh[j] == self.nh[cp][r])
        if self.nh_lo_max:
            flat &= self.nh_lo[j] == self.nh_lo[cp][r]

        def terms(at: np.ndarray) -> list[np.ndarray]:
            jj, pp = j[at], p[at]
            return [gj[at], -gp[at], -self.nh[jj], self.nh[pp], -self.nh_lo[jj], self.nh_lo[pp]]

        if h is None:
            return _sign_of_sum(terms(np.arange(r.size)), 0.0)
        hj = h[r, j].astype(np.float64) / _R_SCALE
        hp_row = h.at(cp).astype(np.float64) / _R_SCALE
        rho_p = self.rho[cp]
        s = (hj - hp_row[r]) - (self.rho[j] - rho_p[r])
        # per row: the entry-wise bound (:meth:`_l2_small_bound`) with every column quantity at its maximum
        nx, nr = self.normx[cq], self.normr[cq]
        e_h = lambda normr, normx: (self.c_h * ((nx * normr + nr * normx) * _R_SCALE) + self.eta_h) / _R_SCALE  # noqa: E731
        row_err = 1.02 * (e_h(self.normr_max, self.normx_max) + e_h(self.normr[cp], self.normx[cp])
                          + self.e_rho_max + self.e_rho[cp] + nr * (self.normr_max + self.normr[cp])
                          + 3.0 * u * (np.abs(hp_row) + self.rho_max + np.abs(rho_p)))  # fmt: skip
        err = (row_err[r] + 1.02 * 3.0 * u * np.abs(hj)) * (1.0 + 16.0 * u)
        dec = np.full(r.size, 2, dtype=np.int8)
        sure = flat & (np.abs(s) > err * (1.0 + 4.0 * u))
        dec[sure] = np.sign(s[sure]).astype(np.int8)
        at = np.flatnonzero(~sure)
        for in_float64 in (False, True):
            if not at.size:
                break
            jj, pp, qq = j[at], p[at], cq[r[at]]
            if in_float64:  # H from the exact residuals: a bound 2^-29 times smaller
                hj_at, hp_at = self.h64(qq, jj), self.h64(qq, pp)
                s_at = (hj_at - hp_at) - (self.rho[jj] - self.rho[pp])
            else:
                hj_at, hp_at, s_at = hj[at], hp_row[r[at]], s[at]
            err_at = self._l2_small_bound(qq, jj, pp, hj_at, hp_at, in_float64)
            part = np.full(at.size, 2, dtype=np.int8)
            sure = flat[at] & (np.abs(s_at) > err_at * (1.0 + 4.0 * u))
            part[sure] = np.sign(s_at[sure]).astype(np.int8)
            rest = np.flatnonzero(~sure)
            if rest.size:
                part[rest] = _sign_of_sum(terms(at[rest]) + [s_at[rest]], err_at[rest])
            dec[at] = part
            at = at[part == 2]
        return dec

    def _l2_small_bound(
        self, q: np.ndarray, jc: np.ndarray, pc: np.ndarray, hj: np.ndarray, hp: np.ndarray, in_float64: bool
    ) -> np.ndarray:
        """Bound on the error of the computed ``s = (H_qj - H_qp) - (rho_j - rho_p)`` against the small
        terms of the exact l2 key difference: ``H`` as computed in float32 (:attr:`c_h`) or float64
        (:attr:`c_h64`), ``rho`` (:attr:`e_rho`), the omitted ``r_q . (r_j - r_p)`` and three roundings."""
        nx, nr = self.normx[q], self.normr[q]

        def e_h(col: np.ndarray) -> np.ndarray:
            if in_float64:
                return self.c_h64 * (nx * self.normr[col] + nr * self.normx[col]) + 2.0 * self.engine.eta2
            return (self.c_h * ((nx * self.normr[col] + nr * self.normx[col]) * _R_SCALE) + self.eta_h) / _R_SCALE

        return 1.02 * (e_h(jc) + e_h(pc) + self.e_rho[jc] + self.e_rho[pc]
                       + nr * (self.normr[jc] + self.normr[pc])
                       + 3.0 * _F64_U * (np.abs(hj) + np.abs(hp) + np.abs(self.rho[jc]) + np.abs(self.rho[pc])))  # fmt: skip

    def _exact_decisions(
        self, g: np.ndarray, h: _LazyH | _SplitH | None, r: np.ndarray, j: np.ndarray, cq: np.ndarray, cp: np.ndarray,
        metric: str,
    ) -> np.ndarray:
        """Sign of ``key_j - key_p`` for band entries (row ``r``, column ``j``): 1, -1, 0 or 2 (undecided)."""
        p = cp[r]
        if metric == "l2":
            return self._l2_decisions(g, h, r, j, cq, cp)
        gj, gp = g[r, j], g[r, p]
        if h is not None or self.mm or self.mu.any():
            return self._centred_cos_decisions(g, h, r, j, cq, cp)
        # uncentred cosine: sign(a_j) a_j^2 / n_j against the positive's, all exact (TwoProduct)
        nj, np_ = 2.0 * self.nh[j], 2.0 * self.nh[p]
        sj, sp = np.sign(gj), np.sign(gp)
        dec = np.full(r.size, 2, dtype=np.int8)
        inexact = (self.nh_lo[j] != 0) | (self.nh_lo[p] != 0)  # norms held as two numbers: refined per item
        diff = sj != sp
        dec[diff] = np.sign(sj[diff] - sp[diff]).astype(np.int8)
        both0 = (sj == 0) & (sp == 0)
        dec[both0] = 0
        rest = np.flatnonzero(~diff & ~both0 & ~inexact)
        if rest.size:
            a1, a2 = _two_product(gj[rest], gj[rest])
            b1, b2 = _two_product(gp[rest], gp[rest])
            t = []
            for x1, x2, nn in ((a1, a2, np_[rest]), (b1, b2, nj[rest])):
                y1, y2 = _two_product(x1, nn)
                y3, y4 = _two_product(x2, nn)
                t.append([y1, y2, y3, y4])
            cmp = _sign_of_sum(t[0] + [-v for v in t[1]], 0.0)
            flip = sj[rest] < 0
            cmp = np.where((cmp != 2) & flip, -cmp, cmp).astype(np.int8)
            dec[rest] = cmp
        return dec


class _LazyH:
    """``2^53 H_qj = x~_q . (2^53 r_j) + (2^53 r_q) . x~_j`` for query rows ``cq`` (one per block row),
    computed only for the entries asked for, as the full product computes them: two float32 dot
    products of length ``d`` and their float32 sum (within the bound of :attr:`_TiePath.c_h` for any
    summation order).  ``w32`` holds the rows ``[x~_j, 2^53 r_j]``; a row's entries are one gather of
    those rows and one product with the two columns ``[0, x~_q]`` and ``[2^53 r_q, 0]`` (the zeros add
    nothing, exactly)."""

    def __init__(self, w32: np.ndarray, cq: np.ndarray) -> None:
        self.w32, self.cq = w32, cq
        d = w32.shape[1] // 2
        wq = w32[cq]
        self.v = np.zeros((cq.size, 2 * d, 2), dtype=np.float32)
        self.v[:, d:, 0] = wq[:, :d]  # r_j . x~_q
        self.v[:, :d, 1] = wq[:, d:]  # x~_j . 2^53 r_q
        self._pos: tuple[np.ndarray, np.ndarray] | None = None

    def rows(self, r: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Entries ``(r, j)`` with ``r`` non-decreasing (as :func:`numpy.nonzero` lists them): one
        gather and one matrix-vector product per block row."""
        vals = np.empty(r.size, dtype=np.float32)
        if not r.size:
            return vals
        cut = np.flatnonzero(r[1:] != r[:-1]) + 1
        for s, e in zip([0, *cut.tolist()], [*cut.tolist(), r.size]):
            two = self.w32[j[s:e]] @ self.v[r[s]]
            np.add(two[:, 0], two[:, 1], out=vals[s:e])
        return vals

    def at(self, cp: np.ndarray) -> np.ndarray:
        """The entry ``(r, cp[r])`` of every block row (the positive's column; computed once)."""
        if self._pos is None or self._pos[0] is not cp:
            two = np.einsum("ij,ijk->ik", self.w32[cp], self.v)
            self._pos = (cp, two[:, 0] + two[:, 1])
        return self._pos[1]

    def __getitem__(self, index: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        r, j = (np.asarray(v, dtype=np.int64).reshape(-1) for v in index)
        if r.size > 1 and (r[1:] < r[:-1]).any():
            order = np.argsort(r, kind="stable")
            out = np.empty(r.size, dtype=np.float32)
            out[order] = self.rows(r[order], j[order])
            return out
        return self.rows(r, j)


class _SplitH:
    """``2^53 H`` of a block of sparse query rows from its two float32 halves (:meth:`_TiePath.products`):
    ``h1[r, j] + h2t[j, at[r]]``, the float32 sum the full product would hold."""

    def __init__(self, h1: np.ndarray, h2t: np.ndarray, at: np.ndarray) -> None:
        self.h1, self.h2t, self.at_col = h1, h2t, at

    def __getitem__(self, index: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        r, j = index
        return self.h1[r, j] + self.h2t[j, self.at_col[r]]

    def at(self, cp: np.ndarray) -> np.ndarray:
        """The entry ``(r, cp[r])`` of every block row."""
        r = np.arange(cp.size)
        return self[r, cp]


def _accurate_sqnorms(c: np.ndarray) -> np.ndarray:
    """Squared norms of the rows of ``c`` within ``u |N| (1 + 1e-9)``: TwoProduct squares summed
    pairwise with TwoSum, every error term kept and their float64 sum added at the end (the error
    terms add up to at most ``u (log2 d + 1) |N|``; their sum is off by ``gamma(K)`` times that, K
    terms, below ``1e-9 u |N|`` up to 4,096 columns).  Wider rows: Ogita-Rump-Oishi's compensated
    Sum2 column by column (error ``u |N| + gamma(2d)^2 sum |terms|``)."""
    p, e = _two_product(c, c)
    if c.shape[1] > 4096:
        s = p[:, 0].copy()
        comp = e[:, 0].copy()
        for i in range(1, c.shape[1]):
            s, t = _two_sum(s, p[:, i])
            comp += t
            comp += e[:, i]
        return s + comp
    lo = e.sum(axis=1)
    while p.shape[1] > 1:
        if p.shape[1] % 2:
            p = np.concatenate([p, np.zeros((p.shape[0], 1))], axis=1)
        p, t = _two_sum(p[:, 0::2], p[:, 1::2])
        lo += t.sum(axis=1)
    return p[:, 0] + lo


def _exact_half_sqnorm(row: np.ndarray) -> tuple[float, float] | None:
    """``||row||^2 / 2`` exactly as ``hi + lo`` (two float64 numbers), or ``None`` if it needs more."""
    from fractions import Fraction

    (ints, e), = xs.exact_integers(row[None, :])
    value = Fraction(sum(v * v for v in ints)) * Fraction(2) ** (2 * e - 1)
    hi = float(value)
    lo = float(value - Fraction(hi))
    if Fraction(hi) + Fraction(lo) != value:
        return None
    return hi, lo


def _cos_entry_keys(tie, g, h, r, col, q, positive=None):
    """Cosine keys ``nu / ||c_col||`` of entries (row ``r``, column ``col``) and their error bounds
    (``positive``: the block's positive columns, when ``col`` is ``positive[r]``)."""
    u = _F64_U
    gv = g[r, col]
    if h is None:
        hv = np.zeros(r.size)
    elif positive is not None:
        hv = h.at(positive)[r].astype(np.float64) / _R_SCALE
    else:
        hv = h[r, col].astype(np.float64) / _R_SCALE
    kappa = -(tie.mu[q] + tie.mm)
    nu = ((gv + hv) - tie.mu[col]) + kappa
    nx, nr = tie.normx[q], tie.normr[q]
    if h is not None:
        e_h = (tie.c_h * ((nx * tie.normr[col] + nr * tie.normx[col]) * _R_SCALE) + tie.eta_h) / _R_SCALE
    elif tie.any_r:
        e_h = (nx * tie.normr[col] + nr * tie.normx[col]) * 1.01  # H itself, not computed
    else:
        e_h = np.zeros(r.size)
    e_kappa = tie.e_mu[q] + tie.e_mm + u * np.abs(kappa)
    e_nu = 1.02 * (e_h + tie.e_mu[col] + e_kappa + nr * tie.normr[col]
                   + 3.0 * u * (np.abs(gv) + np.abs(hv) + np.abs(tie.mu[col]) + np.abs(kappa)))  # fmt: skip
    inv = tie.inv_acc(col)
    t = nu * inv
    return t, e_nu * inv * (1.0 + 4.0 * u) + tie.c_rel * np.abs(t) + tie.engine.eta2 * inv


def _dot2(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row-wise ``x . y`` as a double-double ``hi + lo`` and a bound on ``|hi + lo - x . y|``.

    Error-free products (TwoProduct) summed pairwise with TwoSum, every error term kept: the exact
    dot product is ``hi`` plus the sum of the error terms, of which ``lo`` is the float64 sum.  The
    error terms add up to at most ``u (log2 d + 2) sum |x y|``, so ``lo`` is off by at most
    ``gamma(2d + 2)`` times that (plus slack for products that underflow)."""
    d = x.shape[1]
    p, e = _two_product(x, y)
    lo = e.sum(axis=1)
    levels = 0
    while p.shape[1] > 1:
        if p.shape[1] % 2:
            p = np.concatenate([p, np.zeros((p.shape[0], 1))], axis=1)
        p, t = _two_sum(p[:, 0::2], p[:, 1::2])
        lo += t.sum(axis=1)
        levels += 1
    hi = p[:, 0]
    err = (xs.gamma(2 * d + 2, np.float64) * _F64_U * (levels + 2) * np.abs(x * y).sum(axis=1) * 1.01
           + 4 * d * 2.0**-1060)  # fmt: skip
    return hi, lo, err


def _dd_mul(ah, al, bh, bl):
    p, e = _two_product(ah, bh)
    e = e + (ah * bl + al * bh)
    hi = p + e
    return hi, e - (hi - p)


def _cos_dd_decisions(rows64, q: np.ndarray, j: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Sign of ``cos(q, j) - cos(q, p)`` on the prepared vectors from double-double dot products and
    norms with rigorous bounds: 1, -1, or 2 where the bounds do not decide (ties: refined per item)."""
    cq, cj, cpp = rows64(q), rows64(j), rows64(p)
    aj, ajl, eaj = _dot2(cq, cj)
    ap, apl, eap = _dot2(cq, cpp)
    nj, njl, enj = _dot2(cj, cj)
    np_, npl, enp = _dot2(cpp, cpp)
    u = _F64_U
    dec = np.full(q.size, 2, dtype=np.int8)
    # signs of the numerators (decided when the double-double value clears its bound)
    sj = np.where(np.abs(aj + ajl) > 2.0 * eaj + 4 * u * np.abs(aj), np.sign(aj + ajl), 2)
    sp = np.where(np.abs(ap + apl) > 2.0 * eap + 4 * u * np.abs(ap), np.sign(ap + apl), 2)
    positive_norms = (nj > 0) & (np_ > 0)
    known = (sj != 2) & (sp != 2) & positive_norms
    differ = known & (sj != sp)
    dec[differ] = np.sign(sj[differ] - sp[differ]).astype(np.int8)
    same = np.flatnonzero(known & (sj == sp))
    if same.size:
        i = same
        x_h, x_l = _dd_mul(*_dd_mul(aj[i], ajl[i], aj[i], ajl[i]), np_[i], npl[i])  # a_j^2 n_p
        y_h, y_l = _dd_mul(*_dd_mul(ap[i], apl[i], ap[i], apl[i]), nj[i], njl[i])  # a_p^2 n_j
        k_h, k_e = _two_sum(x_h, -y_h)
        k_l = k_e + (x_l - y_l)
        va, vp = np.abs(aj[i]) * (1 + 4 * u) + eaj[i], np.abs(ap[i]) * (1 + 4 * u) + eap[i]
        wn, wp = np.abs(nj[i]) * (1 + 4 * u) + enj[i], np.abs(np_[i]) * (1 + 4 * u) + enp[i]
        err = ((2 * va * eaj[i] + eaj[i] ** 2) * wp + va * va * enp[i]
               + (2 * vp * eap[i] + eap[i] ** 2) * wn + vp * vp * enj[i]
               + 64 * u * u * (va * va * wp + vp * vp * wn))  # fmt: skip
        total = k_h + k_l  # within u |total| of k_h + k_l, which is within err of a_j^2 n_p - a_p^2 n_j
        ok = np.abs(total) > 1.1 * err + 2 * u * np.abs(total)
        sign = np.sign(total) * sj[i]  # a larger a^2 n ratio means a larger cosine for positive numerators
        dec[i[ok]] = sign[ok].astype(np.int8)
    return dec


def _use_tie_path(prep: _Prepared, engine: _RankEngine, uq: np.ndarray, up: np.ndarray) -> bool:
    """Whether the tie path pays: a large, certifiable input on which the float32 filter leaves many
    candidates undecided (measured on a few evenly spaced query rows)."""
    if _TIE_MODE is not None:
        return bool(_TIE_MODE)
    n = prep.u.shape[0]
    if n < _TIE_MIN_DISTINCT:
        return False
    pick = np.unique(np.linspace(0, uq.size - 1, min(_TIE_SAMPLE_ROWS, uq.size)).astype(np.int64))
    g = np.empty((pick.size, n), dtype=prep.u.dtype)
    _gemm(prep.u[uq[pick]], prep.u.T, g)
    exact_items = 0.0
    rng = np.random.default_rng(0)
    for metric in ("cos", "l2"):
        rr, jj = engine.band(g, uq[pick], up[pick], metric)
        if not rr.size:
            continue
        take = rng.choice(rr.size, min(rr.size, _TIE_PROBE_ITEMS), replace=False)
        dec = engine._refine(rr[take], jj[take], uq[pick], up[pick], metric, exact=False)
        exact_items += rr.size * float(np.mean(dec == 2))  # items the float64 stage leaves to integers
    if exact_items <= _TIE_EXACT_SHARE * pick.size * n:
        return False
    engine.grid = _all_grid_spans(prep)  # kept for the tie path's set-up
    return _on_grid_share(prep, np.unique(uq[pick]), engine.grid) >= 1.0 - _TIE_MAX_UNCERTIFIED


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
    tie = _TiePath(prep, engine) if _use_tie_path(prep, engine, uq, up) else None
    if tie is not None:
        engine.refined["tie_path"] = 1
        fits = tie.pair_ok(uq, up)
        todo = np.flatnonzero(~fits)  # these pairs take the float32 path
        on_tie = np.flatnonzero(fits)
        per_item = 12 if tie.sparse is not None else (4 if tie.g32 else 8)  # bytes of G (and H) per score
        t_chunk = max(1, min(_TIE_CHUNK_BYTES // (per_item * n_distinct) if chunk_size is None else int(chunk_size),
                             on_tie.size or 1))  # fmt: skip
        t_block = max(1, min(t_chunk, 4 * _BLOCK_BYTES // (8 * n_distinct)))
        on_tie = on_tie[np.argsort(uq[on_tie], kind="stable")]  # pairs of one query row together
        for start in range(0, on_tie.size, t_chunk):
            sel = on_tie[start : start + t_chunk]
            g64, h32, inv = tie.products(uq[sel])
            for b in range(0, sel.size, t_block):
                part = sel[b : b + t_block]
                at = inv[b : b + t_block]
                gb = g64[at].astype(np.float64, copy=False)  # exact either way
                hb = tie.block_h(h32, at, uq[part])
                other = q_idx[part] != p_idx[part]
                rank_cos[part] = tie.ranks(gb, hb, uq[part], up[part], other, "cos", pessimistic)
                rank_l2[part] = tie.ranks(gb, hb, uq[part], up[part], other, "l2", pessimistic)
            del g64, h32, inv
        engine.refined["tie_decided"] = tie.stats["tie_decided"]
    else:
        todo = np.arange(m)
    if todo.size:
        _float32_path(engine, u, uq, up, q_idx, p_idx, todo, chunk_size, dt, pessimistic, rank_cos, rank_l2)
    del tie

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


def _float32_path(
    engine: _RankEngine, u: np.ndarray, uq: np.ndarray, up: np.ndarray, q_idx: np.ndarray, p_idx: np.ndarray,
    todo: np.ndarray, chunk_size: int | None, dt: np.dtype, pessimistic: bool, rank_cos: np.ndarray,
    rank_l2: np.ndarray,
) -> None:
    """Ranks of the pairs ``todo`` through the float32 filter (one score chunk held at a time)."""
    n_distinct = u.shape[0]
    m = todo.size
    chunk = _DEFAULT_CHUNK_BYTES // (dt.itemsize * n_distinct) if chunk_size is None else int(chunk_size)
    chunk = max(1, min(chunk, m))
    block = max(1, min(chunk, _BLOCK_BYTES // (dt.itemsize * n_distinct)))
    scores = np.empty((chunk, n_distinct), dtype=dt)  # the only score chunk ever held
    for start in range(0, m, chunk):
        stop = min(start + chunk, m)
        _gemm(u[uq[todo[start:stop]]], u.T, scores[: stop - start])
        for b in range(start, stop, block):
            e = min(b + block, stop)
            g = scores[b - start : e - start]
            rows = todo[b:e]
            # the query's own row is excluded separately only if it is another row than the positive's
            other = q_idx[rows] != p_idx[rows]
            rank_cos[rows] = engine.ranks(g, uq[rows], up[rows], other, "cos", pessimistic)
            rank_l2[rows] = engine.ranks(g, uq[rows], up[rows], other, "l2", pessimistic)
    del scores


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
