"""The float32 path of the exact EvalRank ranking: prepare the input, filter with one float32 product, refine.

Preparation (:func:`_prepare`): the embeddings are rescaled by a power of two, centred in float64 on the
correctly rounded column means (:func:`_exact_column_means`), deduplicated bytewise and rounded once to
the filter precision.  Ranking (:class:`_RankEngine`): one matrix product ``G = U_q . U^T`` per score
chunk gives every cosine key ``G / ||u_j||`` and l2 key ``G - ||u_j||^2 / 2`` with a rigorous rounding
bound (:mod:`mteb_evalrank.metrics.exact_scores`); items outside the bound around the positive's key
are counted there, the rest are re-scored in float64 and, if still within that bound, compared in exact
integers.  The rule the ranks follow is stated in :mod:`mteb_evalrank.metrics.ranking`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mteb_evalrank.metrics import exact_scores as xs

#: Default size (bytes) of the one score chunk held at a time (``chunk_size=None``).
_DEFAULT_CHUNK_BYTES = 64 * 2**20
#: Candidates re-scored in float64 at a time (bounds the float64 temporaries: 3 x this x d x 8 bytes).
_REFINE_BATCH = 4096
#: Target size (bytes) of the per-block scratch used for keys and masks (fits in a core's L2 cache).
_BLOCK_BYTES = 2**20
_CENTER_ROWS = 4096  # rows per float64 block while centring (bounds the float64 temporary)
_MAX_LISTED = 10  # row numbers quoted in error messages


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
        rows, cols = np.nonzero(inside)
        return rows, cols

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
# the float32 path
# --------------------------------------------------------------------------------------------------
@dataclass
class _Pairs:
    """The pairs being ranked: the distinct rows of each query and positive (``uq``, ``up``), their input indices
    (``q_idx``, ``p_idx``), the tie rule, and the ranks ``cos`` and ``l2``, filled in place."""

    uq: np.ndarray
    up: np.ndarray
    q_idx: np.ndarray
    p_idx: np.ndarray
    pessimistic: bool
    cos: np.ndarray
    l2: np.ndarray


def _float32_path(
    engine: _RankEngine, u: np.ndarray, pairs: _Pairs, todo: np.ndarray, chunk_size: int | None, dt: np.dtype
) -> None:
    """Ranks of the pairs ``todo`` through the float32 filter (one score chunk held at a time)."""
    uq, up, q_idx, p_idx = pairs.uq, pairs.up, pairs.q_idx, pairs.p_idx
    pessimistic, rank_cos, rank_l2 = pairs.pessimistic, pairs.cos, pairs.l2
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
