"""Ranks are exact and depend only on the input: checks that fail on any CPU if the guarantee breaks.

The filter (a float32 BLAS product) may round every entry differently; these tests replace it by a
hostile one that moves each score by up to 3 ulps, differently in every position, and compare the
ranks with a brute force in exact rational arithmetic (``fractions.Fraction``) on data built to be
full of exact ties between *distinct* vectors and of near-ties one ulp apart.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from mteb_evalrank.metrics import exact_scores as xs
from mteb_evalrank.metrics import neighbors
from mteb_evalrank.metrics.ranking import evalrank_ranks
from mteb_evalrank.metrics.ranking import exact as rx


# --------------------------------------------------------------------------------------------------
# exact reference
# --------------------------------------------------------------------------------------------------
def _fr(v) -> list[Fraction]:
    return [Fraction(float(x)) for x in v]


def _cos_key(q, u):
    """(sign, square) of q.u / ||u|| as exact rationals: orders like the cosine for a fixed query."""
    a = sum(x * y for x, y in zip(q, u))
    n = sum(y * y for y in u)
    if n == 0 or a == 0:
        return Fraction(0)
    return (1 if a > 0 else -1) * a * a / n


def _l2_key(q, u):
    return sum(x * y for x, y in zip(q, u)) - sum(y * y for y in u) / 2


def exact_reference(emb, q_idx, p_idx, ties):
    """EvalRank ranks of ``emb`` taken as exact (center=False), every score a Fraction."""
    rows = [_fr(r) for r in np.asarray(emb)]
    better = (lambda s, t: s > t) if ties == "optimistic" else (lambda s, t: s >= t)
    out = {"cos": [], "l2": []}
    for q, p in zip(q_idx, p_idx):
        for name, key in (("cos", _cos_key), ("l2", _l2_key)):
            target = key(rows[q], rows[p])
            out[name].append(
                1 + sum(better(key(rows[q], rows[j]), target) for j in range(len(rows)) if j not in (q, p))
            )
    return out


N_QUERY_ROWS = 10


def near_tie_background(seed: int = 0, n_base: int = 10, d: int = 16) -> np.ndarray:
    """Rows full of exact ties between distinct vectors and of one-ulp near-ties.

    The first :data:`N_QUERY_ROWS` rows are the queries; they are equal in coordinates 2 and 3.  Every
    base vector then comes with a copy with coordinates 2 and 3 swapped (same norm, same dot product
    with every query: an exact tie under both metrics, yet a distinct vector), copies with one
    coordinate moved by one ulp up or down (near-ties far below the float32 product's rounding
    error) and an exact duplicate.
    """
    rng = np.random.default_rng(seed)
    queries = rng.standard_normal((N_QUERY_ROWS, d)).astype(np.float32)
    queries[:, 3] = queries[:, 2]
    rows = list(queries)
    for b in rng.standard_normal((n_base, d)).astype(np.float32):
        swapped, up, down = b.copy(), b.copy(), b.copy()
        swapped[[2, 3]] = b[[3, 2]]
        up[5] = np.nextafter(b[5], np.float32(np.inf))
        down[6] = np.nextafter(b[6], np.float32(-np.inf))
        rows += [b, swapped, up, down, b.copy()]
    return np.stack(rows)


def pairs_for(n: int, seed: int = 1, m: int = 60):
    """Pairs whose queries are query rows and whose positives are anywhere (5 with query == positive)."""
    rng = np.random.default_rng(seed)
    q = rng.integers(0, N_QUERY_ROWS, m)
    p = rng.integers(0, n, m)
    p[:5] = q[:5]
    return q, p


def hostile_gemm(a, bt, out):
    """A BLAS that rounds each output entry differently: the correctly rounded product moved by -3..+3
    ulps depending on the (row, column) position.  Stays inside the rigorous bound (3 ulps of |G| is
    below gamma(d) ||q|| ||u|| for d >= 7)."""
    exact = (a.astype(np.float64) @ bt.astype(np.float64)).astype(out.dtype)
    i, j = np.indices(exact.shape)
    steps = ((i * 7919 + j * 104729) % 7) - 3
    res = exact.copy()
    for _ in range(3):
        res = np.where(steps > 0, np.nextafter(res, np.float32(np.inf)), res)
        res = np.where(steps < 0, np.nextafter(res, np.float32(-np.inf)), res)
        steps = steps - np.sign(steps)
    out[...] = res


# --------------------------------------------------------------------------------------------------
# exact agreement
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ties", ["pessimistic", "optimistic"])
@pytest.mark.parametrize("hostile", [False, True])
def test_ranks_equal_exact_rational_arithmetic_on_near_ties(monkeypatch, ties, hostile):
    emb = near_tie_background()
    q, p = pairs_for(len(emb))
    if hostile:
        monkeypatch.setattr(rx, "_gemm", hostile_gemm)
    res = evalrank_ranks(emb, q, p, center=False, ties=ties)
    ref = exact_reference(emb, q, p, ties)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]
    assert res.refined["stage3"] > 0  # the data really exercises the exact stage


def test_the_data_has_exact_ties_between_distinct_vectors_and_near_ties():
    emb = near_tie_background()
    rows = [_fr(r) for r in emb]
    q, b = rows[0], N_QUERY_ROWS
    assert not np.array_equal(emb[b], emb[b + 1])
    assert _cos_key(q, rows[b]) == _cos_key(q, rows[b + 1]) and _l2_key(q, rows[b]) == _l2_key(q, rows[b + 1])
    assert _l2_key(q, rows[b + 2]) != _l2_key(q, rows[b])  # one ulp apart: distinct exact scores
    # ... yet closer than float32 can tell after a dot product of 16 terms
    gap = abs(float(_l2_key(q, rows[b + 2]) - _l2_key(q, rows[b])))
    assert gap < 2**-24 * float(sum(abs(x * y) for x, y in zip(q, rows[b])))


def test_hostile_blas_changes_nothing_with_centring_either(monkeypatch):
    emb = near_tie_background(seed=3)
    q, p = pairs_for(len(emb), seed=4)
    honest = evalrank_ranks(emb, q, p)
    monkeypatch.setattr(rx, "_gemm", hostile_gemm)
    hostile = evalrank_ranks(emb, q, p)
    assert np.array_equal(honest.cos, hostile.cos) and np.array_equal(honest.l2, hostile.l2)


def test_float64_working_precision_gives_the_same_ranks_on_float32_input():
    """Without centring the prepared input is the same exact vectors in both precisions."""
    emb = near_tie_background(seed=5)
    q, p = pairs_for(len(emb), seed=6)
    a = evalrank_ranks(emb, q, p, center=False, dtype=np.float32)
    b = evalrank_ranks(emb, q, p, center=False, dtype=np.float64)
    assert np.array_equal(a.cos, b.cos) and np.array_equal(a.l2, b.l2)


# --------------------------------------------------------------------------------------------------
# independence of order, chunking and companions
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("center", [True, False])
def test_permuting_rows_and_pairs_and_chunking_change_nothing(monkeypatch, center):
    emb = near_tie_background(seed=8)
    q, p = pairs_for(len(emb), seed=9, m=80)
    base = evalrank_ranks(emb, q, p, center=center)
    rng = np.random.default_rng(10)
    perm = rng.permutation(len(emb))
    where = np.empty_like(perm)
    where[perm] = np.arange(perm.size)
    order = rng.permutation(len(q))
    monkeypatch.setattr(rx, "_gemm", hostile_gemm)  # positions change with every permutation
    for chunk_size in (None, 1, 3, 7, 80):
        res = evalrank_ranks(emb[perm], where[q][order], where[p][order], center=center, chunk_size=chunk_size)
        assert np.array_equal(res.cos, base.cos[order]), chunk_size
        assert np.array_equal(res.l2, base.l2[order]), chunk_size
    for i in (0, 5, 33, 79):  # each pair alone
        alone = evalrank_ranks(emb, q[i : i + 1], p[i : i + 1], center=center)
        assert (alone.cos[0], alone.l2[0]) == (base.cos[i], base.l2[i])


def test_centring_mean_does_not_depend_on_row_order():
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((3000, 8)) * np.logspace(-6, 3, 3000)[:, None]).astype(np.float32)
    perm = rng.permutation(3000)
    a = rx._exact_column_means(x, 1.0)
    b = rx._exact_column_means(x[perm], 1.0)
    assert np.array_equal(a, b)
    exact = [sum(Fraction(float(v)) for v in col) for col in x.T]
    assert all(float(e) == math.fsum(map(float, col)) for e, col in zip(exact, x.T))
    assert np.array_equal(a, np.array([math.fsum(map(float, col)) for col in x.T]) / 3000)


# --------------------------------------------------------------------------------------------------
# the building blocks
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exact_integers_represent_every_value_exactly(dtype):
    info = np.finfo(dtype)
    vals = np.array(
        [[0.0, -0.0, 1.0, -1.5, info.tiny, info.tiny * info.eps, -info.max, info.max, 0.1, -3e-30]], dtype=dtype
    )
    ints, e = xs.exact_integers(vals)[0]
    assert [i * Fraction(2) ** e for i in ints] == [Fraction(float(v)) for v in vals[0]]


def test_exact_comparisons_agree_with_fractions():
    rng = np.random.default_rng(12)
    for _ in range(200):
        a_j, a_p = (int(v) for v in rng.integers(-50, 50, 2))
        n_j, n_p = (int(v) for v in rng.integers(0, 40, 2))
        a_j = a_j if n_j else 0
        a_p = a_p if n_p else 0
        kj = Fraction(0) if not n_j else (1 if a_j > 0 else -1) * Fraction(a_j * a_j, n_j)
        kp = Fraction(0) if not n_p else (1 if a_p > 0 else -1) * Fraction(a_p * a_p, n_p)
        assert xs.cmp_cos_exact((a_j, 3), (n_j, 4), (a_p, 3), (n_p, 4)) == (kj > kp) - (kj < kp)
        lj, lp = Fraction(2 * a_j - n_j), Fraction(2 * a_p - n_p)
        assert xs.cmp_l2_exact((a_j, -2), (n_j, -2), (a_p, -2), (n_p, -2)) == (lj > lp) - (lj < lp)
        # different exponents are aligned: a_j * 2 - n_j * 4 against a_p - n_p
        lj2 = Fraction(2 * a_j * 2 - n_j * 4)
        assert xs.cmp_l2_exact((a_j, 1), (n_j, 2), (a_p, 0), (n_p, 0)) == (lj2 > lp) - (lj2 < lp)


def test_filter_bound_holds_for_float32_products():
    """The bound the filter relies on, checked against exact arithmetic on adversarial data."""
    rng = np.random.default_rng(13)
    d = 384
    q = rng.standard_normal(d).astype(np.float32)
    u = (rng.standard_normal((200, d)) * np.logspace(-3, 3, d)).astype(np.float32)
    approx = u @ q
    bound = (
        xs.gamma(d, np.float32) * np.linalg.norm(q.astype(np.float64)) * np.linalg.norm(u.astype(np.float64), axis=1)
    )
    exact = [float(sum(Fraction(float(a)) * Fraction(float(b)) for a, b in zip(row, q))) for row in u]
    assert np.all(np.abs(approx.astype(np.float64) - exact) <= bound)


# --------------------------------------------------------------------------------------------------
# N2O: neighbour lists and needle ranks
# --------------------------------------------------------------------------------------------------
def _exact_knn_reference(emb, query_ids, k):
    rows = [_fr(r) for r in np.asarray(emb)]
    out = []
    for q in query_ids:
        keys = [(_cos_key(rows[q], rows[j]), j) for j in range(len(rows)) if j != q]
        keys.sort(key=lambda t: (-t[0], t[1]))  # higher cosine first, ties -> lower index
        out.append([j for _, j in keys[:k]])
    return out


@pytest.mark.parametrize("hostile", [False, True])
def test_exact_knn_neighbour_lists_are_exact(monkeypatch, hostile):
    emb = near_tie_background(seed=14)
    qids = np.r_[np.arange(N_QUERY_ROWS), N_QUERY_ROWS + 7]
    if hostile:
        monkeypatch.setattr(neighbors, "_gemm", hostile_gemm)
    for k in (1, 2, 5, 9):
        ids, _ = neighbors.exact_knn(emb, qids, k)
        assert ids.tolist() == _exact_knn_reference(emb, qids, k), k


def test_exact_knn_does_not_depend_on_which_queries_are_searched_together(monkeypatch):
    emb = near_tie_background(seed=15)
    qids = np.arange(len(emb))
    monkeypatch.setattr(neighbors, "_gemm", hostile_gemm)
    together, _ = neighbors.exact_knn(emb, qids, 7)
    for i in (0, 13, 40):
        alone, _ = neighbors.exact_knn(emb, qids[i : i + 1], 7)
        assert alone[0].tolist() == together[i].tolist()


def test_needle_ranks_are_exact(monkeypatch):
    emb = near_tie_background(seed=16)
    corpus = emb[N_QUERY_ROWS:]
    queries = emb[:3]
    needles = emb[[N_QUERY_ROWS, N_QUERY_ROWS + 7, 1]]  # exact ties and near-ties in the corpus
    monkeypatch.setattr(neighbors, "_gemm", hostile_gemm)
    got = neighbors.needle_ranks(corpus, queries, needles)
    rows = [_fr(r) for r in corpus]
    want = []
    for qv, nv in zip(queries, needles):
        qf, target = _fr(qv), _cos_key(_fr(qv), _fr(nv))
        want.append(1 + sum(_cos_key(qf, r) >= target for r in rows))
    assert got.tolist() == want
