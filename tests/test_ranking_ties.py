"""The tie path of the exact EvalRank ranking (mteb_evalrank.metrics.ranking.ties._TiePath).

Vectors with many exact ties (sparse TF-IDF and its sparse random projections, quantised vectors)
take a path that decides ties and near-ties by exact float64 sums instead of refining each one.  The
ranks must be bit-for-bit those of the float32 path and of exact rational arithmetic on the prepared
(centred) vectors: seeded random property tests below, on tie-heavy and dense inputs, both tie rules,
with and without centring.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_ranking_exact import exact_reference

from mteb_evalrank.metrics.ranking import evalrank_ranks
from mteb_evalrank.metrics.ranking import exact as rx
from mteb_evalrank.metrics.ranking import tie_arithmetic as ta
from mteb_evalrank.metrics.ranking import ties as rt


# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------
def rp_words(rng, n, d, nonzeros=2.5, oov=0.2, value=0.4228):
    """Single-word TF-IDF vectors through a sparse random projection: a few +-value entries per row;
    out-of-vocabulary rows are 1e-9 everywhere (the zoo's padding of an empty vector)."""
    k = rng.binomial(d, min(1.0, nonzeros / d), n)
    emb = np.zeros((n, d), dtype=np.float32)
    for i, kk in enumerate(k):
        cols = rng.choice(d, kk, replace=False)
        emb[i, cols] = np.float32(value) * rng.choice(np.array([-1, 1], dtype=np.float32), kk)
    emb[rng.random(n) < oov] = 0.0
    emb[~emb.any(axis=1)] += np.float32(1e-9)
    return emb


def quantised(rng, n, d, levels=3):
    emb = (rng.integers(0, levels, (n, d)) - levels // 2).astype(np.float32) * np.float32(0.75)
    emb[~emb.any(axis=1), 0] = 1.0
    return emb


def mixed(rng, n, d):
    """Tie-heavy rows, exact duplicates, a few dense float32 rows and a few float64 rows that are off
    the float32 grid (those pairs must take the per-item route)."""
    emb = rp_words(rng, n, d).astype(np.float64)
    emb[: n // 10] = quantised(rng, n // 10, d)
    a, b = n // 10, n // 5
    emb[a:b] = rng.standard_normal((b - a, d)).astype(np.float32)
    emb[n // 5 : n // 5 + 3] = rng.standard_normal((3, d))  # 53-bit values: not certified
    emb[rng.integers(0, n, n // 8)] = emb[rng.integers(0, n, n // 8)]  # duplicates
    return emb


KINDS = {"rp": rp_words, "quantised": quantised, "mixed": mixed}


def pairs(rng, n, m):
    q = rng.integers(0, n, m)
    p = rng.integers(0, n, m)
    p[: m // 10] = q[: m // 10]  # query == positive
    return q, p


def forced(monkeypatch, mode):
    monkeypatch.setattr(rt, "_TIE_MODE", mode)


def prepared_rows(emb, center):
    """The prepared (centred, float64) vector of every input row: what the ranks are exact for."""
    prep = rx._prepare(np.asarray(emb), center, np.dtype(np.float32))
    return prep.rows64(prep.inverse)


# --------------------------------------------------------------------------------------------------
# property tests
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_tie_path_equals_exact_rational_arithmetic(monkeypatch, seed, kind):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 40)), int(rng.integers(3, 9))
    emb = KINDS[kind](rng, n, d)
    q, p = pairs(rng, n, 40)
    center = bool(seed % 2)
    ties = "pessimistic" if seed % 4 < 2 else "optimistic"
    forced(monkeypatch, True)
    res = evalrank_ranks(emb, q, p, center=center, ties=ties)
    assert res.refined["tie_path"] == 1
    ref = exact_reference(prepared_rows(emb, center), q, p, ties)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["rp", "quantised", "mixed", "dense"])
def test_tie_path_equals_float32_path_at_medium_size(monkeypatch, seed, kind):
    rng = np.random.default_rng(100 + seed)
    n, d = 600, 24
    emb = rng.standard_normal((n, d)).astype(np.float32) if kind == "dense" else KINDS[kind](rng, n, d)
    q, p = pairs(rng, n, 120)
    center = seed % 3 != 0
    ties = ("pessimistic", "optimistic")[seed % 2]
    forced(monkeypatch, False)
    old = evalrank_ranks(emb, q, p, center=center, ties=ties)
    forced(monkeypatch, True)
    new = evalrank_ranks(emb, q, p, center=center, ties=ties, chunk_size=int(rng.integers(1, 200)))
    assert np.array_equal(new.cos, old.cos)
    assert np.array_equal(new.l2, old.l2)
    if kind != "dense":
        assert new.refined["tie_decided"] > 0  # the tie path decided comparisons itself
        assert new.refined["stage3"] < old.refined["stage3"] or old.refined["stage3"] == 0


def test_tie_heavy_input_takes_the_tie_path_by_itself_and_dense_input_does_not():
    rng = np.random.default_rng(5)
    n = rt._TIE_MIN_DISTINCT * 2
    emb = rp_words(rng, n, 64, nonzeros=3.0, oov=0.05)
    q, p = pairs(rng, n, 60)
    res = evalrank_ranks(emb, q, p)
    assert res.refined.get("tie_path") == 1
    dense = rng.standard_normal((n, 64)).astype(np.float32)
    assert "tie_path" not in evalrank_ranks(dense, q, p).refined


def test_tie_path_decides_what_the_float32_path_refines_one_by_one(monkeypatch):
    rng = np.random.default_rng(9)
    emb = rp_words(rng, 1500, 32, nonzeros=2.0, oov=0.1)
    q, p = pairs(rng, 1500, 80)
    forced(monkeypatch, False)
    old = evalrank_ranks(emb, q, p)
    forced(monkeypatch, True)
    new = evalrank_ranks(emb, q, p)
    assert np.array_equal(new.cos, old.cos) and np.array_equal(new.l2, old.l2)
    assert old.refined["stage3"] > 1000  # centred l2 scores tie up to the centring's rounding
    assert new.refined["stage3"] * 20 < old.refined["stage3"]


# --------------------------------------------------------------------------------------------------
# the exact building blocks
# --------------------------------------------------------------------------------------------------
def test_sign_of_sum_is_the_exact_sign():
    rng = np.random.default_rng(3)
    big = rng.standard_normal(2000) * 2.0 ** rng.integers(-60, 60, 2000)
    terms = [big, -big * (1 + 2.0**-52), rng.standard_normal(2000) * 2.0**-70, np.zeros(2000)]
    terms[3][:500] = -(terms[0][:500] + terms[1][:500])  # not exact: some sums become tiny, not zero
    terms[2][500:900] = 0.0
    terms[1][500:900] = -terms[0][500:900]  # exact zeros
    dec = ta._sign_of_sum(terms, 0.0)
    exact = [sum((Fraction(float(t[i])) for t in terms), Fraction(0)) for i in range(2000)]
    want = np.array([(e > 0) - (e < 0) for e in exact])
    decided = dec != 2
    assert decided.mean() > 0.99
    assert np.array_equal(dec[decided], want[decided])
    assert (dec[500:900] == 0).all()
    # an unknown extra term of at most err: undecided unless the sum clearly outweighs it
    dec_err = ta._sign_of_sum([np.array([1.0, 1e-300, 0.0])], np.array([0.5, 1e-300, 0.0]))
    assert dec_err.tolist() == [1, 2, 0]


def test_two_product_and_accurate_squared_norms():
    rng = np.random.default_rng(4)
    a = rng.standard_normal(1000) * 2.0 ** rng.integers(-100, 100, 1000)
    b = rng.standard_normal(1000)
    p, e = ta._two_product(a, b)
    assert all(
        Fraction(float(x)) + Fraction(float(y)) == Fraction(float(u)) * Fraction(float(v))
        for x, y, u, v in zip(p, e, a, b)
    )
    c = rng.standard_normal((50, 300)) * 2.0 ** rng.integers(-20, 5, (50, 300))
    got = ta._accurate_sqnorms(c)
    for row, value in zip(c, got):
        exact = sum(Fraction(float(v)) ** 2 for v in row)
        assert abs(Fraction(float(value)) - exact) <= exact * Fraction(2**-53) * Fraction(1001, 1000)


def test_exact_half_squared_norm_is_exact_or_refused():
    row = np.full(256, np.float32(1e-9), dtype=np.float64)
    hi, lo = ta._exact_half_sqnorm(row)
    assert Fraction(hi) + Fraction(lo) == sum(Fraction(float(v)) ** 2 for v in row) / 2


@pytest.mark.parametrize("center", [True, False])
def test_wide_rows_and_a_row_near_the_mean(monkeypatch, center):
    """300-d out-of-vocabulary rows (1e-9 everywhere) whose half squared norm needs two float64
    numbers, and a row next to the mean (tiny centred norm: a wide cosine band, decided item by item)."""
    rng = np.random.default_rng(1)
    emb = rp_words(rng, 400, 300, nonzeros=3, oov=0.2)
    emb[5] = emb.mean(axis=0) + np.float32(1e-4)
    q, p = pairs(rng, 400, 60)
    q[-10:] = 5
    prep = rx._prepare(emb, center, np.dtype(np.float32))
    tie = rt._TiePath(prep, rx._RankEngine(prep))
    assert (tie.nh_lo != 0).any()
    decided = []
    original = rt._TiePath._centred_cos_decisions

    def spy(self, *args):
        dec = original(self, *args)
        decided.append(int(np.count_nonzero(dec != 2)))
        return dec

    monkeypatch.setattr(rt._TiePath, "_centred_cos_decisions", spy)
    for ties in ("pessimistic", "optimistic"):
        forced(monkeypatch, False)
        old = evalrank_ranks(emb, q, p, center=center, ties=ties)
        forced(monkeypatch, True)
        new = evalrank_ranks(emb, q, p, center=center, ties=ties)
        assert np.array_equal(new.cos, old.cos) and np.array_equal(new.l2, old.l2)
    if center:
        assert sum(decided) > 0


def test_inputs_off_the_exact_grid_stay_on_the_float32_path(monkeypatch):
    """Full-precision vectors with many near-ties (a lattice plus noise of one float32 ulp) make the
    float32 filter undecided, but their products are not exact in float64: the tie path would refine
    every item, so it is not taken."""
    rng = np.random.default_rng(2)
    n = rt._TIE_MIN_DISTINCT * 2
    base = rng.integers(-1, 2, (n, 48)).astype(np.float32) + np.float32(1.0)
    emb = base * (1 + rng.integers(-3, 4, base.shape).astype(np.float32) * np.float32(2.0**-23))
    emb *= np.float32(3.0**0.5)  # full 24-bit significands
    q, p = pairs(rng, n, 40)
    res = evalrank_ranks(emb, q, p)
    assert "tie_path" not in res.refined
    forced(monkeypatch, True)
    tied = evalrank_ranks(emb, q, p)
    assert np.array_equal(tied.cos, res.cos) and np.array_equal(tied.l2, res.l2)


# --------------------------------------------------------------------------------------------------
# the fast routes of the tie path (issue 31 item 5): each against exact rational arithmetic
# --------------------------------------------------------------------------------------------------
def sparse_layout(monkeypatch):
    """Multiply every input as a sparse matrix (the TF-IDF route), whatever its density."""
    monkeypatch.setattr(rt, "_TIE_SPARSE_SHARE", 1.1)


def tie_path_of(emb, center=True):
    prep = rx._prepare(np.asarray(emb), center, np.dtype(np.float32))
    return rt._TiePath(prep, rx._RankEngine(prep))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_sparse_products_equal_exact_rational_arithmetic(monkeypatch, seed, kind):
    """Sparse x sparse products, the two halves of H added per entry, repeated query rows (an
    out-of-vocabulary word asked many times) multiplied once."""
    rng = np.random.default_rng(200 + seed)
    n, d = int(rng.integers(20, 40)), int(rng.integers(3, 9))
    emb = KINDS[kind](rng, n, d)
    q, p = pairs(rng, n, 40)
    q[-12:] = q[-1]  # one query row, many pairs
    center = seed % 3 != 0
    ties = ("pessimistic", "optimistic")[seed % 2]
    sparse_layout(monkeypatch)
    assert tie_path_of(emb, center).sparse is not None
    forced(monkeypatch, True)
    res = evalrank_ranks(emb, q, p, center=center, ties=ties, chunk_size=int(rng.integers(1, 50)))
    ref = exact_reference(prepared_rows(emb, center), q, p, ties)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]


@pytest.mark.integration
@pytest.mark.parametrize("seed", range(4))
def test_sparse_words_at_medium_size_equal_the_float32_path(monkeypatch, seed):
    """Sparse random-projection words as ``zoo:tfidf-wordnet/rp`` gives them (a tenth of the queries
    out of vocabulary, all one vector): the sparse route by itself, the same ranks as the float32 path."""
    rng = np.random.default_rng(300 + seed)
    n, d = 900, 160
    emb = rp_words(rng, n, d, nonzeros=2.0, oov=0.02)
    emb[:3] = np.float32(1e-9)  # out-of-vocabulary rows (the zoo's padding), one distinct vector
    q, p = pairs(rng, n, 150)
    q[::10] = rng.integers(0, 3, q[::10].size)
    ties = ("pessimistic", "optimistic")[seed % 2]
    assert tie_path_of(emb).sparse is not None
    forced(monkeypatch, False)
    old = evalrank_ranks(emb, q, p, ties=ties)
    forced(monkeypatch, True)
    new = evalrank_ranks(emb, q, p, ties=ties, chunk_size=int(rng.integers(1, 160)))
    assert np.array_equal(new.cos, old.cos) and np.array_equal(new.l2, old.l2)
    assert new.refined["tie_decided"] > 0


def test_float32_products_only_where_exact():
    """Quantised vectors are multiplied in float32 (every product and partial sum fits 24 bits);
    24-bit values, or a smallest bit below 2^-63, keep the float64 product."""
    rng = np.random.default_rng(6)
    emb = quantised(rng, 200, 16)
    assert tie_path_of(emb).g32
    assert not tie_path_of(rp_words(rng, 200, 16, nonzeros=4)).g32  # 0.4228: 24-bit significands
    tiny = emb.copy()
    tiny[7, 3] = np.float32(2.0**-70)  # on the grid, but its products with itself underflow float32
    tie = tie_path_of(tiny)
    assert tie.row_ok[tie.engine.prep.inverse[7]] and not tie.g32


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["quantised", "rp", "mixed"])
def test_float64_h_decides_what_float32_h_leaves_open(monkeypatch, seed, kind):
    """With the float32 H's bound made useless, every exact tie of ``x~`` goes to the float64 H (exact
    residuals); the ranks stay those of exact rational arithmetic."""
    original = rt._TiePath.__init__
    calls = []

    def loose(self, *args):
        original(self, *args)
        self.c_h *= 2.0**20
        h64 = self.h64

        def spy(q, cols):
            calls.append(q.size)
            return h64(q, cols)

        self.h64 = spy

    monkeypatch.setattr(rt._TiePath, "__init__", loose)
    rng = np.random.default_rng(400 + seed)
    n, d = int(rng.integers(25, 45)), int(rng.integers(3, 9))
    emb = KINDS[kind](rng, n, d)
    q, p = pairs(rng, n, 40)
    ties = ("pessimistic", "optimistic")[seed % 2]
    if seed % 2:
        sparse_layout(monkeypatch)
    forced(monkeypatch, True)
    res = evalrank_ranks(emb, q, p, ties=ties)
    ref = exact_reference(prepared_rows(emb, True), q, p, ties)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]
    assert sum(calls) > 0


def _exact_h(tie, q, j):
    """``x~_q . r_j + r_q . x~_j`` in rational arithmetic, ``r = c - (x~ - m)`` the centring's residual."""
    prep = tie.engine.prep
    m = [Fraction(float(v)) for v in prep.mean]

    def parts(row):
        x = [Fraction(float(v)) for v in tie.x64[row]]
        c = [Fraction(float(v)) for v in prep.rows64(np.array([row]))[0]]
        return x, [ci - (xi - mi) for ci, xi, mi in zip(c, x, m)]

    xq, rq = parts(q)
    xj, rj = parts(j)
    return sum(a * b for a, b in zip(xq, rj)) + sum(a * b for a, b in zip(rq, xj))


@pytest.mark.parametrize("kind", ["quantised", "rp", "dense"])
def test_per_entry_h_is_within_its_bounds(kind):
    """H computed per entry — float32 (:class:`_LazyH`, as the bounds of the full product assume) and
    float64 (:meth:`_TiePath.h64`) — against exact rational arithmetic."""
    rng = np.random.default_rng(11)
    n, d = 60, 12
    emb = rng.standard_normal((n, d)).astype(np.float32) if kind == "dense" else KINDS[kind](rng, n, d)
    tie = tie_path_of(emb)
    assert tie.r32 is not None
    cq = rng.integers(0, tie.n, 5)
    r = np.repeat(np.arange(5), 8)
    j = rng.integers(0, tie.n, r.size)
    lazy = ta._LazyH(tie.w32, cq)
    h32 = lazy[r, j].astype(np.float64) / ta._R_SCALE
    shuffled = rng.permutation(r.size)  # entries in any order
    assert np.array_equal(lazy[r[shuffled], j[shuffled]], lazy[r, j][shuffled])
    h64 = tie.h64(cq[r], j)
    pos = lazy.at(j[:5]).astype(np.float64) / ta._R_SCALE
    for i in range(r.size):
        q, col = int(cq[r[i]]), int(j[i])
        exact = _exact_h(tie, q, col)
        scale = tie.normx[q] * tie.normr[col] + tie.normr[q] * tie.normx[col]
        bound32 = (tie.c_h * scale * ta._R_SCALE + tie.eta_h) / ta._R_SCALE
        bound64 = tie.c_h64 * scale + 2 * tie.engine.eta2
        assert abs(Fraction(float(h32[i])) - exact) <= Fraction(bound32)
        assert abs(Fraction(float(h64[i])) - exact) <= Fraction(bound64)
        if i < 5:
            assert abs(Fraction(float(pos[i])) - _exact_h(tie, int(cq[i]), int(j[i]))) <= Fraction(
                (
                    tie.c_h * (tie.normx[cq[i]] * tie.normr[j[i]] + tie.normr[cq[i]] * tie.normx[j[i]]) * ta._R_SCALE
                    + tie.eta_h
                )
                / ta._R_SCALE
            )
