"""Exact comparisons of cosine and l2 scores: rigorous rounding bounds for a fast filter, exact refine.

The plugin's rankings (EvalRank ranks, N2O neighbour lists, needle ranks) must depend only on the
input vectors — not on the CPU, the BLAS kernel, the thread count or the position of a row in a matrix
product.  They are computed by *filter and refine*:

1. **Filter**: a BLAS matrix product in the working precision gives every score with an error that is
   bounded rigorously (below).  Items whose computed key is farther than the bound from the
   reference key are decided there.
2. **Refine, stage 2**: the few items within the bound are re-scored in float64 with numpy elementwise
   products and sums (no BLAS), whose error is bounded again, about 2^29 times tighter.
3. **Refine, stage 3**: items still within that bound are compared in exact integer arithmetic
   (Python integers), so items whose scores are equal in exact arithmetic are ties — whatever the
   machine.

Which items reach stages 2 and 3 depends on rounding, but the *decision* for every item is the exact
one, so the result does not.

Keys (``q`` the query vector, ``u`` a background vector, both as given, e.g. centred)
--------------------------------------------------------------------------------------
* cosine: ``t = q.u / ||u||`` (``= ||q|| cos(q, u)``; ``0`` when ``u = 0``) orders items as the cosine does.
* l2: ``t = q.u - ||u||^2 / 2`` orders items as ``1 / (1 + ||q - u||)`` does, since
  ``||q - u||^2 = ||q||^2 - 2 q.u + ||u||^2`` and ``||q||`` is fixed for the query.

Rounding bounds (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1, Eq. 3.5)
--------------------------------------------------------------------------------------------------
With unit roundoff ``u`` (``2^-24`` in float32, ``2^-53`` in float64) and ``gamma(n) = n u / (1 - n u)``,
a dot product of length ``d`` computed in *any* summation order, with or without fused multiply-adds
(so by any BLAS kernel, blocked or threaded), satisfies::

    |fl(q.u) - q.u| <= gamma(d) * sum_i |q_i u_i| <= gamma(d) * ||q|| ||u||      (Cauchy-Schwarz)

provided nothing underflows.  Products that underflow (or that a kernel flushes to zero) add at most
``2^-124`` each in float32 (``2^-1020`` in float64), so ``d`` times that is added as an absolute term.
The keys then go through a few more correctly rounded operations (the inverse norm, the product with
it, the half squared norm, the subtraction), each adding one relative ``u`` (float64 norms: their own
``gamma(d)``).  :func:`cos_error_factor` and :func:`l2_error_factors` give the resulting bounds; every
factor carries a 1% margin for the second-order terms.  Two computed keys are *decided* when they differ
by more than the sum of their bounds.

Exact integers (stage 3)
------------------------
Every float32 or float64 vector is an integer vector times a power of two (:func:`exact_integers`),
so dot products are exact Python integers (times a power of two), and the comparisons
``A_j / sqrt(N_j)`` vs ``A_p / sqrt(N_p)`` (cosine) and ``2 A_j - N_j`` vs ``2 A_p - N_p`` (l2) are
decided by integer signs and squares.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "ExactRows",
    "cmp_cos_exact",
    "cmp_l2_exact",
    "cos_error_factor",
    "exact_dot",
    "exact_integers",
    "gamma",
    "l2_error_factors",
    "refine_error_factors",
    "round_outward",
    "sqnorm_upper_bound",
    "underflow_slack",
    "unit_roundoff",
]

_MARGIN = 1.01  # covers the second-order terms of every bound below
#: float dtype -> (mantissa bits, -log2 of the smallest subnormal)
_FORMAT = {np.dtype(np.float32): (24, 149), np.dtype(np.float64): (53, 1074)}


def unit_roundoff(dtype) -> float:
    """``u`` = half the machine epsilon: ``2^-24`` for float32, ``2^-53`` for float64."""
    return float(np.finfo(dtype).eps) / 2.0


def gamma(n: int, dtype) -> float:
    """``gamma(n) = n u / (1 - n u)`` (Higham Lemma 3.1); the error factor of an ``n``-term dot product."""
    nu = n * unit_roundoff(dtype)
    if nu >= 0.5:
        raise ValueError(f"dimension {n} is too large for a rounding bound in {np.dtype(dtype)}")
    return nu / (1.0 - nu)


def underflow_slack(d: int, dtype) -> float:
    """Absolute error a length-``d`` dot product can pick up from underflow or flush-to-zero."""
    return d * (2.0**-124 if np.dtype(dtype) == np.float32 else 2.0**-1020)


def _product_error(d: int, dtype, rounded_inputs: bool) -> float:
    """Relative (to ``||q|| ||u||``) error of ``fl(q~.u~)`` in ``dtype`` against the exact ``q.u``,
    where ``q~, u~`` are ``q, u`` rounded to ``dtype`` (``rounded_inputs``): ``gamma(d) + 2u + u^2``."""
    u = unit_roundoff(dtype)
    return gamma(d, dtype) + ((2 * u + u * u) * (1 + gamma(d, dtype)) if rounded_inputs else 0.0)


def cos_error_factor(d: int, dtype, *, rounded_inputs: bool = False) -> float:
    """``c`` such that the computed cosine key ``fl(fl(q~.u~) * fl(1/||u||))`` is within ``c * ||q||``
    (plus ``underflow_slack / ||u||``) of ``q.u / ||u||``.

    The product in ``dtype`` (of the inputs rounded to ``dtype`` when ``rounded_inputs``):
    :func:`_product_error`; the inverse norm (float64 sum of squares, square root, division, rounding
    to ``dtype``): ``gamma64(d) / 2 + 2 u64 + u``; the final product: ``u``.
    """
    return _MARGIN * (
        _product_error(d, dtype, rounded_inputs)
        + 2 * unit_roundoff(dtype)
        + gamma(d, np.float64) / 2
        + 2 * unit_roundoff(np.float64)
    )


def l2_error_factors(d: int, dtype, *, rounded_inputs: bool = False) -> tuple[float, float]:
    """``(a, b)``: the computed l2 key ``fl(fl(q~.u~) - fl(||u||^2 / 2))`` is within
    ``a ||q|| ||u|| + b ||u||^2`` (plus ``underflow_slack``) of ``q.u - ||u||^2 / 2``.

    The product: :func:`_product_error` ``||q|| ||u||``; the half squared norm (float64 sum, rounded to
    ``dtype``): ``(gamma64(d) + u) ||u||^2 / 2``; the subtraction: ``u (||q|| ||u|| + ||u||^2 / 2)``.
    """
    u = unit_roundoff(dtype)
    return _MARGIN * (_product_error(d, dtype, rounded_inputs) + u), _MARGIN * (gamma(d, np.float64) + 2 * u) / 2


def refine_error_factors(d: int) -> tuple[float, float]:
    """Stage-2 bounds for keys re-scored in float64 without BLAS (numpy products and sums).

    Returns ``(c_cos, c_l2)``: ``|t_cos - t| <= c_cos ||q||`` for ``fl(fl(q.u) / fl(sqrt(fl(u.u))))``
    (``gamma64(d)`` for the dot product, ``gamma64(d) / 2 + u64`` for the norm, ``u64`` for the division),
    and ``|t_l2 - t| <= c_l2 (||q|| ||u|| + ||u||^2 / 2)`` for ``fl(fl(q.u) - fl(u.u) / 2)``.  Inputs
    in float32 make every product exact in float64; the bounds do not rely on it.
    """
    g = gamma(d + 1, np.float64)
    return _MARGIN * (1.5 * g + 2 * unit_roundoff(np.float64)), _MARGIN * g


def sqnorm_upper_bound(nsq: np.ndarray, d: int) -> np.ndarray:
    """Upper bounds on exact squared norms from float64 sums of ``d`` squares (relative error
    ``gamma64(d)``, inflated twice over)."""
    return np.asarray(nsq, dtype=np.float64) * (1.0 + 2.0 * gamma(d, np.float64))


def round_outward(values, dtype, up: bool) -> np.ndarray:
    """float64 ``values`` rounded to ``dtype`` outwards: never below them (``up``) / never above them,
    so a threshold widened by a bound stays at least as wide after rounding."""
    values = np.asarray(values, dtype=np.float64)
    dtype = np.dtype(dtype)
    r = np.atleast_1d(values.astype(dtype))
    v = np.atleast_1d(values)
    off = (r < v) if up else (r > v)
    r[off] = np.nextafter(r[off], dtype.type(np.inf if up else -np.inf))
    return r.reshape(values.shape)


def exact_integers(rows: np.ndarray) -> list[tuple[list[int], int]]:
    """Rows of a float32/float64 array as Python integers: ``(M, e)`` per row with ``row == M * 2^e``
    exactly (``e`` is the row's smallest exponent, so the integers stay short)."""
    rows = np.asarray(rows)
    mant = 24 if rows.dtype == np.float32 else 53
    m, e = np.frexp(rows.astype(np.float64))
    ints = (m * 2.0**mant).astype(np.int64)  # exact: |m| < 1 has at most `mant` significant bits
    exps = e.astype(np.int64) - mant
    out = []
    for row_ints, row_exps in zip(ints.tolist(), exps.tolist()):
        used = [x for v, x in zip(row_ints, row_exps) if v]
        base = min(used) if used else 0
        out.append(([(v << (x - base)) if v else 0 for v, x in zip(row_ints, row_exps)], base))
    return out


#: An exact number as ``(integer, exponent)``: the value ``integer * 2^exponent``.
Exact = tuple


class ExactRows:
    """Exact dot products between rows of one matrix, each row converted once (cached).

    ``rows_of(indices)`` returns the float32 or float64 rows (e.g. a matrix's ``__getitem__``, or a
    function that recomputes them).  Results are :data:`Exact` pairs ``(integer, exponent)``.
    """

    def __init__(self, rows_of) -> None:
        self._rows_of = rows_of
        self._ints: dict[int, tuple[list[int], int]] = {}
        self._norms: dict[int, Exact] = {}

    def ints(self, row: int) -> tuple[list[int], int]:
        got = self._ints.get(row)
        if got is None:
            got = self._ints[row] = exact_integers(self._rows_of(np.array([row])))[0]
        return got

    def dot(self, a: int, b: int) -> Exact:
        return exact_dot(self.ints(a), self.ints(b))

    def sqnorm(self, row: int) -> Exact:
        got = self._norms.get(row)
        if got is None:
            ints, e = self.ints(row)
            got = self._norms[row] = (sum(x * x for x in ints), 2 * e)
        return got


def exact_dot(a: tuple[list[int], int], b: tuple[list[int], int]) -> Exact:
    """Exact dot product of two rows given by :func:`exact_integers`."""
    return sum(x * y for x, y in zip(a[0], b[0])), a[1] + b[1]


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def cmp_cos_exact(a_j: Exact, n_j: Exact, a_p: Exact, n_p: Exact) -> int:
    """Sign of ``a_j / sqrt(n_j) - a_p / sqrt(n_p)`` in exact arithmetic (a zero norm gives key 0).

    ``a`` are exact dot products with the query, ``n`` exact squared norms, as ``(integer, exponent)``.
    The comparison ``a_j^2 n_p`` vs ``a_p^2 n_j`` has the same power of two on both sides (that of
    ``q^2 u_j^2 u_p^2``), so only the integers are needed.
    """
    (aj, _), (nj, _), (ap, _), (np_, _) = a_j, n_j, a_p, n_p
    s_j = _sign(aj) if nj else 0
    s_p = _sign(ap) if np_ else 0
    if s_j != s_p:
        return 1 if s_j > s_p else -1
    if s_j == 0:
        return 0
    lhs, rhs = aj * aj * np_, ap * ap * nj
    c = (lhs > rhs) - (lhs < rhs)
    return c if s_j > 0 else -c


def cmp_l2_exact(a_j: Exact, n_j: Exact, a_p: Exact, n_p: Exact) -> int:
    """Sign of ``(a_j - n_j / 2) - (a_p - n_p / 2)`` in exact arithmetic (inputs as in :func:`cmp_cos_exact`)."""
    base = min(a_j[1], n_j[1], a_p[1], n_p[1])

    def at_base(v: Exact) -> int:
        return v[0] << (v[1] - base)

    return _sign((2 * at_base(a_j) - at_base(n_j)) - (2 * at_base(a_p) - at_base(n_p)))
