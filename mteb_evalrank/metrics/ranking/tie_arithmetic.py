"""Exact float64 arithmetic for the tie path of the EvalRank ranking (:mod:`.ties`).

Error-free transformations (Knuth's TwoSum, Dekker's TwoProduct), the sign of an exact sum of float64
terms under a bounded unknown (:func:`_sign_of_sum`), the bit spans that certify a product of two rows
as exact in float64 (:func:`_grid_spans`, :func:`_pair_spans`), the small correction term ``H`` of the
centred products computed per entry (:class:`_LazyH`, :class:`_SplitH`), accurate squared norms and the
double-double cosine decisions.  Every function states the bound it keeps; none chooses a path.
"""

from __future__ import annotations

import numpy as np

from mteb_evalrank.metrics import exact_scores as xs
from mteb_evalrank.metrics.ranking.exact import _CENTER_ROWS, _Prepared

_TIE_MIN_EXPONENT = -150  # smallest bit of a certified row (keeps every product and its error normal)
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

    ((ints, e),) = xs.exact_integers(row[None, :])
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
    e_nu = 1.02 * (
        e_h
        + tie.e_mu[col]
        + e_kappa
        + nr * tie.normr[col]
        + 3.0 * u * (np.abs(gv) + np.abs(hv) + np.abs(tie.mu[col]) + np.abs(kappa))
    )
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
    err = (
        xs.gamma(2 * d + 2, np.float64) * _F64_U * (levels + 2) * np.abs(x * y).sum(axis=1) * 1.01 + 4 * d * 2.0**-1060
    )
    return hi, lo, err


def _dd_mul(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Double-double product ``(ah + al)(bh + bl)`` as a (high, low) pair."""
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
        err = (
            (2 * va * eaj[i] + eaj[i] ** 2) * wp
            + va * va * enp[i]
            + (2 * vp * eap[i] + eap[i] ** 2) * wn
            + vp * vp * enj[i]
            + 64 * u * u * (va * va * wp + vp * vp * wn)
        )
        total = k_h + k_l  # within u |total| of k_h + k_l, which is within err of a_j^2 n_p - a_p^2 n_j
        ok = np.abs(total) > 1.1 * err + 2 * u * np.abs(total)
        sign = np.sign(total) * sj[i]  # a larger a^2 n ratio means a larger cosine for positive numerators
        dec[i[ok]] = sign[ok].astype(np.int8)
    return dec
