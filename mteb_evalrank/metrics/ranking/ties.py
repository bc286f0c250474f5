"""The tie path of the exact EvalRank ranking: vectors whose scores tie or nearly tie en masse.

Sparse TF-IDF vectors and their sparse random projections, or quantised vectors, leave thousands of
items per query within the float32 filter's bound (:mod:`.exact`): after centring, their l2 scores tie
exactly up to the centring's rounding.  :func:`_use_tie_path` measures that on a few query rows; when
it pays, :class:`_TiePath` computes exact products on the input's own grid and decides ties and
near-ties by exact float64 sums (:mod:`.tie_arithmetic`) instead of refining each one.  The decisions
are the exact ones, so the ranks are those of the float32 path, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import mteb_evalrank.metrics.ranking.exact as rx
from mteb_evalrank.metrics import exact_scores as xs
from mteb_evalrank.metrics.ranking.exact import (
    _BLOCK_BYTES,
    _CENTER_ROWS,
    _REFINE_BATCH,
    _Pairs,
    _Prepared,
    _RankEngine,
)
from mteb_evalrank.metrics.ranking.tie_arithmetic import (
    _F64_U,
    _R_SCALE,
    _accurate_sqnorms,
    _all_grid_spans,
    _cos_dd_decisions,
    _cos_entry_keys,
    _exact_half_sqnorm,
    _LazyH,
    _on_grid_share,
    _pair_spans,
    _sign_of_sum,
    _SplitH,
    _two_product,
    _two_sum,
)

#: ``None``: choose the path per call (:func:`_use_tie_path`); ``True`` / ``False`` force it (tests).
_TIE_MODE: bool | None = None
_TIE_MIN_DISTINCT = 2048  # below this the float32 path is always cheap enough
_TIE_SAMPLE_ROWS = 32  # query rows of the float32 filter inspected to choose the path
_TIE_PROBE_ITEMS = 512  # undecided comparisons of the sample re-scored in float64 to choose the path
_TIE_EXACT_SHARE = 5e-4  # share of comparisons left to exact integers above which the tie path is used
_TIE_MAX_UNCERTIFIED = 0.01  # at most this share of distinct rows may fall outside the exact grid
#: Score bytes per chunk of the tie path: below glibc's largest mmap threshold (32 MiB), so that the
#: products' arrays reuse freed memory instead of mapping (and page-faulting) fresh pages every chunk.
_TIE_CHUNK_BYTES = 16 * 2**20
_TIE_SPARSE_SHARE = 0.05  # inputs with fewer non-zeros than this share are multiplied as sparse matrices


@dataclass
class _RowTerms:
    """Per-row terms of :class:`_TiePath`'s keys, collected while the rows are centred."""

    cert: np.ndarray  # row on the certified grid
    nsqx: np.ndarray  # ||x~_j||^2
    spans: np.ndarray  # (2-norm, 1-norm, inf-norm) over the smallest bit
    e_low: np.ndarray  # exponent of the smallest bit
    normr: np.ndarray  # upper bound of ||r_j||
    rho: np.ndarray  # x~_j . r_j + ||r_j||^2 / 2
    rho_abs: np.ndarray  # |x~_j| . |r_j| + ||r_j||^2 / 2
    mu: np.ndarray  # c_j . m
    mu_abs: np.ndarray  # |c_j| . |m|
    any_r: bool = False  # some residual r is not zero


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
        terms = self._centre_rows(prep, engine.grid if engine.grid is not None else _all_grid_spans(prep))
        self.cert = terms.cert
        self.spans = terms.spans
        # sparse input (e.g. TF-IDF and its sparse random projections): sparse products, same values
        self.any_r = terms.any_r
        if not terms.any_r:
            self.r32 = None
        self._sparse_setup()
        self._inv_acc = np.full(n, np.nan)  # 1 / ||c_j|| to within about one rounding, as needed
        self.c_rel = 1.02 * 4.0 * _F64_U  # relative error of fl(nu * inv_acc) against nu / ||c_j||
        self._half_sqnorms(terms)
        self._error_bounds(terms, prep)
        self._certify_rows(terms)
        self._triples, self._triple_of = np.unique(terms.spans, axis=0, return_inverse=True)
        self._triple_of = self._triple_of.reshape(-1)
        self._off_grid: dict[int, np.ndarray] = {}
        self.stats = {"tie_rows": 0, "tie_decided": 0}

    def _centre_rows(self, prep: _Prepared, grid: tuple[np.ndarray, ...]) -> _RowTerms:
        """Fill ``x64``, ``x32`` and ``r32`` block by block and collect the per-row terms of the keys."""
        n, d = self.n, self.d
        t = _RowTerms(
            cert=np.empty(n, dtype=bool),
            nsqx=np.empty(n, dtype=np.float64),
            spans=np.empty((n, 3), dtype=np.int64),  # (2-norm, 1-norm, inf-norm) over the smallest bit
            e_low=np.empty(n, dtype=np.int64),  # exponent of the smallest bit
            normr=np.zeros(n, dtype=np.float64),
            rho=np.zeros(n, dtype=np.float64),
            rho_abs=np.zeros(n, dtype=np.float64),
            mu=np.zeros(n, dtype=np.float64),
            mu_abs=np.zeros(n, dtype=np.float64),
        )
        for s in range(0, n, _CENTER_ROWS):
            rows = prep.src[s : s + _CENTER_ROWS]
            xt = prep.x[rows].astype(np.float64)
            xt *= prep.scale
            blk = slice(s, s + rows.size)
            self.x64[blk] = xt
            self.x32[blk] = xt
            t.cert[blk], t.spans[blk], t.nsqx[blk], t.e_low[blk] = (a[blk] for a in grid)
            if prep.mean is not None:
                neg = -prep.mean
                c, err = _two_sum(xt, neg)  # c == fl(x~ - m), the prepared vector
                r = -err  # c = x~ - m + r exactly
                t.any_r = t.any_r or bool(r.any())
                if self.r32 is None:  # set above whenever prep.mean is not None
                    raise AssertionError("residual block r32 missing for centred input")
                self.r32[blk] = r * _R_SCALE  # |r| * 2^53 < 2: exact but for float32 rounding
                rr = np.einsum("ij,ij->i", r, r)
                t.normr[blk] = np.sqrt(rr) * (1.0 + 4.0 * _F64_U) * (1.0 + 2.0 * xs.gamma(d, np.float64))
                t.rho[blk] = np.einsum("ij,ij->i", xt, r) + rr / 2.0
                t.rho_abs[blk] = np.einsum("ij,ij->i", np.abs(xt), np.abs(r)) + rr / 2.0
                c += 0.0
                t.mu[blk] = c @ prep.mean
                t.mu_abs[blk] = np.abs(c) @ np.abs(prep.mean)
        return t

    def _sparse_setup(self) -> None:
        """Sparse copies of the vectors when most entries are zero (``sparse``, else None)."""
        self.sparse = None
        if np.count_nonzero(self.x64) < _TIE_SPARSE_SHARE * self.x64.size:
            import scipy.sparse

            s32 = scipy.sparse.csr_matrix(self.x32)
            r32t = None if self.r32 is None else np.ascontiguousarray(self.r32.T)
            s64t = scipy.sparse.csr_matrix(self.x64.T)
            self.sparse = (scipy.sparse.csr_matrix(self.x64), s64t, s32, r32t)
            self.dense_rows = np.diff(s32.indptr) > max(1, self.d // 8)  # queried through BLAS

    def _half_sqnorms(self, t: _RowTerms) -> None:
        """``||x~_j||^2 / 2`` as ``nh + nh_lo``; exactly for certified rows whose own product is not exact."""
        cert, spans, n = t.cert, t.spans, self.n
        self.nh = t.nsqx / 2.0
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

    def _error_bounds(self, t: _RowTerms, prep: _Prepared) -> None:
        """Norms, the small terms ``rho``, ``mu``, ``||m||^2`` with their error bounds, and their maxima."""
        engine, d = self.engine, self.d
        g64 = xs.gamma(d + 2, np.float64)
        self.normx = np.sqrt(xs.sqnorm_upper_bound(t.nsqx, d)) * (1.0 + 4.0 * _F64_U)
        self.normr = t.normr
        self.rho = t.rho
        self.e_rho = 1.01 * (g64 * t.rho_abs * (1.0 + g64)) + 4.0 * engine.eta2
        self.mu = t.mu
        e_mu = 1.01 * g64 * t.mu_abs * (1.0 + g64) + engine.eta2
        self.e_mu = e_mu
        if prep.mean is not None:
            mm = float(prep.mean @ prep.mean)
            self.mm, self.e_mm = mm, 1.01 * g64 * mm + engine.eta2
        else:
            self.mm, self.e_mm = 0.0, 0.0
        ok = t.cert
        self.normx_max = float(self.normx[ok].max()) if ok.any() else 0.0
        self.normr_max = float(t.normr[ok].max()) if ok.any() else 0.0
        self.nh_max = float(self.nh[ok].max()) if ok.any() else 0.0
        self.nh_lo_max = float(np.abs(self.nh_lo).max())
        self.e_rho_max = float(self.e_rho[ok].max()) if ok.any() else 0.0
        self.rho_max = float(np.abs(t.rho[ok]).max()) if ok.any() else 0.0
        self.rho_abs_max = float((t.rho_abs * (1.0 + g64) + self.e_rho)[ok].max()) if ok.any() else 0.0
        self.mu_max = float((np.abs(t.mu) + e_mu)[ok].max()) if ok.any() else 0.0
        self.e_mu_max = float(e_mu[ok].max()) if ok.any() else 0.0
        # float32 products of H (x~ exact in float32, r * 2^53 rounded): relative and underflow errors
        self.c_h = 1.01 * xs._product_error(d + 1, np.float32, rounded_inputs=True)
        self.c_h64 = 1.01 * xs.gamma(d + 1, np.float64)  # the same sum in float64 (:meth:`h64`)
        self.eta_h = xs.underflow_slack(2 * d, np.float32) + 2 * d * 2.0**-150

    def _certify_rows(self, t: _RowTerms) -> None:
        """Which rows are decided here (``row_ok``, ``force``), and whether every product is exact."""
        spans = t.spans
        # rows that cannot be decided here: not certified, or a norm too small for float64 keys
        tiny = (self.engine.nsq64 < 2.0**-600) & (self.engine.nsq64 > 0)
        spans[tiny] = 10_000
        self.row_ok = t.cert & ~tiny
        self.force = np.flatnonzero(~self.row_ok)
        # spans of the widest certified rows: every certified product is exact if theirs is
        s_max = spans[self.row_ok].max(axis=0) if self.row_ok.any() else np.zeros(3, dtype=np.int64)
        widest = int(_pair_spans(s_max, s_max))
        #: no column is ever forced to per-item refinement (all rows certified, all products exact)
        self.all_exact = self.force.size == 0 and widest <= 53
        #: dense products of certified rows are exact in float32 too: at most 24 bits between the largest
        #: partial sum and the smallest bit, which is a normal float32 number (2^-126 or above)
        e_min = int(t.e_low[self.row_ok].min()) if self.row_ok.any() else 0
        self.g32 = self.sparse is None and widest <= 24 and 2 * e_min >= -126

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
        mean = self.engine.prep.mean
        if mean is None:  # H (and so this) exists only for centred input
            raise AssertionError("h64 needs a centring mean")
        neg = -mean
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
        split: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # (h1, h2t, r32)
        if r32t is not None:
            if self.r32 is None:  # r32t is built from r32 (__init__)
                raise AssertionError("sparse H halves without the residual block r32")
            split = (
                np.empty((rows.size, self.n), dtype=np.float32),
                np.empty((self.n, rows.size), dtype=np.float32),
                self.r32,
            )
        for at, sparse_rows in ((np.flatnonzero(~dense), True), (np.flatnonzero(dense), False)):
            if not at.size:
                continue
            qq = rows[at]
            if sparse_rows:
                g[at] = (s64[qq] @ s64t).toarray()
                if split is not None:
                    h1, h2t, r32 = split
                    h1[at] = s32[qq] @ r32t
                    h2t[:, at] = s32 @ r32[qq].T
            else:
                g[at] = self.x64[qq] @ self.x64.T
                if split is not None:
                    h1, h2t, r32 = split
                    h1[at] = self.x32[qq] @ r32.T
                    h2t[:, at] = self.x32 @ r32[qq].T
        return g, (None if split is None else (split[0], split[1])), inv

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
        self,
        g: np.ndarray,
        h: _LazyH | _SplitH | None,
        cq: np.ndarray,
        cp: np.ndarray,
        other: np.ndarray,
        metric: str,
        pessimistic: bool,
    ) -> np.ndarray:
        """The ranks of the positives ``cp`` for the queries ``cq`` from the products ``g`` (and ``h``): entries
        clearly above the positive's key are counted, the band around it is decided exactly."""
        e = self.engine
        bsz = g.shape[0]
        rows = np.arange(bsz)
        key, kp, delta = self._keys(g, h, cq, cp, metric)
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

    def _keys(
        self, g: np.ndarray, h: _LazyH | _SplitH | None, cq: np.ndarray, cp: np.ndarray, metric: str
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(key, kp, delta)``: the float64 keys of every column, the positive's key per query row and the
        half-width of the band within which a key cannot be told from the positive's."""
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
            e_nu = 1.01 * (
                h_unc + self.e_mu_max + e_kappa + rr_max + 3.0 * u * (g_max + h_max + self.mu_max + np.abs(kappa))
            )
            delta = 2.0 * 1.01 * (e_nu * e.w_max + e.c2_cos * e.norm_up[cq] + e.eta2 * e.w_max)
            kp = key[rows, cp]
        return key, kp, delta

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
        e_h = lambda normr, normx: (self.c_h * ((nx * normr + nr * normx) * _R_SCALE) + self.eta_h) / _R_SCALE
        row_err = 1.02 * (
            e_h(self.normr_max, self.normx_max)
            + e_h(self.normr[cp], self.normx[cp])
            + self.e_rho_max
            + self.e_rho[cp]
            + nr * (self.normr_max + self.normr[cp])
            + 3.0 * u * (np.abs(hp_row) + self.rho_max + np.abs(rho_p))
        )
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

        return 1.02 * (
            e_h(jc)
            + e_h(pc)
            + self.e_rho[jc]
            + self.e_rho[pc]
            + nr * (self.normr[jc] + self.normr[pc])
            + 3.0 * _F64_U * (np.abs(hj) + np.abs(hp) + np.abs(self.rho[jc]) + np.abs(self.rho[pc]))
        )

    def _exact_decisions(
        self,
        g: np.ndarray,
        h: _LazyH | _SplitH | None,
        r: np.ndarray,
        j: np.ndarray,
        cq: np.ndarray,
        cp: np.ndarray,
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
    rx._gemm(prep.u[uq[pick]], prep.u.T, g)
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


def _tie_path_ranks(prep: _Prepared, engine: _RankEngine, pairs: _Pairs, chunk_size: int | None) -> np.ndarray:
    """Ranks through the tie path of the pairs it can take, if :func:`_use_tie_path` chooses it; the pairs
    left to the float32 path (all of them when the tie path is not taken)."""
    uq, up, q_idx, p_idx = pairs.uq, pairs.up, pairs.q_idx, pairs.p_idx
    pessimistic, rank_cos, rank_l2 = pairs.pessimistic, pairs.cos, pairs.l2
    n_distinct = prep.u.shape[0]
    tie = _TiePath(prep, engine) if _use_tie_path(prep, engine, uq, up) else None
    if tie is None:
        return np.arange(uq.size)
    engine.refined["tie_path"] = 1
    fits = tie.pair_ok(uq, up)
    todo = np.flatnonzero(~fits)  # these pairs take the float32 path
    on_tie = np.flatnonzero(fits)
    per_item = 12 if tie.sparse is not None else (4 if tie.g32 else 8)  # bytes of G (and H) per score
    t_chunk = max(
        1, min(_TIE_CHUNK_BYTES // (per_item * n_distinct) if chunk_size is None else int(chunk_size), on_tie.size or 1)
    )
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
    return todo
