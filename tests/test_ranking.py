"""Exact EvalRank ranks (mteb_evalrank.metrics.ranking): hand-computed cases, reference agreement, errors."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.ranking import RankResult, evalrank_ranks, evalrank_scores, summarize_ranks
from mteb_evalrank.metrics.ranking import exact as rx


def ranks(emb, pairs, **kw):
    q, p = zip(*pairs)
    res = evalrank_ranks(np.asarray(emb, dtype=np.float64), list(q), list(p), **kw)
    return res.cos.tolist(), res.l2.tolist()


# --------------------------------------------------------------------------------------------------
# hand-computed cases (center=False unless the test is about centring)
# --------------------------------------------------------------------------------------------------
def test_ties_pessimistic_vs_optimistic_and_l2_vs_cos():
    emb = [
        [1, 0],  # 0: query
        [1, 1],  # 1: positive. cos = 1/√2, distance 1
        [1, -1],  # 2: cos = 1/√2 (tie),       distance 1 (tie)
        [0, 1],  # 3: cos = 0,                 distance √2
        [2, 0],  # 4: cos = 1 (beats),         distance 1 (tie)
    ]
    # pessimistic: cos counts 2 (tie) and 4 (beats) -> 3; l2 counts 2 and 4 (both ties) -> 3
    assert ranks(emb, [(0, 1)], center=False) == ([3], [3])
    # optimistic: cos counts only 4 -> 2; l2 counts nothing -> 1 (l2 and cos differ)
    assert ranks(emb, [(0, 1)], center=False, ties="optimistic") == ([2], [1])


def test_l2_and_cos_rank_differently_without_ties():
    emb = [
        [1, 0],  # 0: query
        [2, 0.2],  # 1: positive: cos = 2/√4.04 ≈ 0.995, distance √1.04 ≈ 1.02
        [0.8, 0.6],  # 2: cos 0.8 (below), distance √0.40 ≈ 0.63 (closer than the positive)
        [-1, 0],  # 3: cos -1, distance 2
    ]
    assert ranks(emb, [(0, 1)], center=False) == ([1], [2])
    assert ranks(emb, [(0, 1)], center=False, ties="optimistic") == ([1], [2])


def test_centering_changes_cos_but_not_l2():
    emb = [[1, 0], [0, 1], [2, 2]]
    # raw: cos(e0, e1) = 0 < cos(e0, e2) = 1/√2 -> cos rank 2; distances √2 < √5 -> l2 rank 1
    assert ranks(emb, [(0, 1)], center=False) == ([2], [1])
    # centred (mean (1, 1)): c0 = (0,-1), c1 = (-1,0), c2 = (1,1): cos 0 vs -1/√2 -> rank 1;
    # distances are translation invariant -> l2 rank 1 again
    assert ranks(emb, [(0, 1)]) == ([1], [1])
    assert ranks(emb, [(0, 1)], center=True) == ([1], [1])
    res = evalrank_ranks(np.asarray(emb, float), [0], [1], center=False)
    assert res.center is False and res.n_background == 3


def test_query_and_positive_rows_are_excluded_by_index_not_by_value():
    emb = [
        [1, 0],  # 0: query (self-cosine 1 would beat the positive if it were counted)
        [1, 1],  # 1: positive (counted against itself under ">=" if it were not excluded)
        [0, 1],  # 2: cos 0, distance √2
    ]
    assert ranks(emb, [(0, 1)], center=False) == ([1], [1])
    # an identical copy of the query at another row is an ordinary background item: cos 1 and
    # distance 0 both beat the positive -> rank 2
    with_query_copy = emb + [[1, 0]]
    assert ranks(with_query_copy, [(0, 1)], center=False) == ([2], [2])
    assert ranks(with_query_copy, [(0, 1)], center=False, ties="optimistic") == ([2], [2])
    # an identical copy of the positive ties exactly: pessimistic counts it, optimistic does not
    with_positive_copy = emb + [[1, 1]]
    assert ranks(with_positive_copy, [(0, 1)], center=False) == ([2], [2])
    assert ranks(with_positive_copy, [(0, 1)], center=False, ties="optimistic") == ([1], [1])


def test_query_equal_to_positive_uses_the_self_score():
    emb = [[1, 0], [1, 1], [0, 1]]
    # S(0, 0) is the maximum of both metrics; only row 0 itself is excluded
    assert ranks(emb, [(0, 0)], center=False) == ([1], [1])
    # a copy of row 0 ties with the self-score: pessimistic rank 2, optimistic rank 1
    emb_copy = emb + [[1, 0]]
    assert ranks(emb_copy, [(0, 0)], center=False) == ([2], [2])
    assert ranks(emb_copy, [(0, 0)], center=False, ties="optimistic") == ([1], [1])


def test_positive_identical_to_query_at_another_row():
    # rows 0 and 1 are the same vector; both are excluded (by index) for the pair (0, 1)
    emb = [[1, 0], [1, 0], [1, 0], [0, 1]]
    # row 2 is a third copy: a tie under both metrics
    assert ranks(emb, [(0, 1)], center=False) == ([2], [2])
    assert ranks(emb, [(0, 1)], center=False, ties="optimistic") == ([1], [1])
    assert ranks(emb[:2] + emb[3:], [(0, 1)], center=False) == ([1], [1])


def test_identical_duplicates_are_counted_as_ties_with_multiplicity():
    # the positive (row 1) has 4 extra copies; one vector beats it; the rest are far away
    rng = np.random.default_rng(3)
    q = np.array([1.0, 0.0, 0.0])
    pos = np.array([0.6, 0.8, 0.0])  # cos 0.6, distance √0.8
    better = np.array([0.9, 0.1, 0.0])  # cos ≈ 0.994, distance ≈ 0.14
    far = -np.abs(rng.standard_normal((20, 3))) - 1.0  # negative x: cos < 0 and distance > 2
    emb = np.vstack([q, pos, better, np.repeat(pos[None], 4, axis=0), far])
    # pessimistic: 1 + better + 4 copies = 6; optimistic: 1 + better = 2 (both metrics)
    assert ranks(emb, [(0, 1)], center=False) == ([6], [6])
    assert ranks(emb, [(0, 1)], center=False, ties="optimistic") == ([2], [2])
    res = evalrank_ranks(emb, [0], [1], center=False)
    assert res.n_distinct == emb.shape[0] - 4


def test_constant_model_scores_about_one_over_n():
    n = 50
    emb = np.tile(np.array([0.3, -1.2, 2.0]), (n, 1))
    q = np.arange(0, 40)
    p = np.r_[np.arange(1, 40), 0]
    for center in (True, False):  # centred: all rows are zero; raw: all rows identical
        res = evalrank_ranks(emb, q, p, center=center)
        assert res.cos.tolist() == [n - 1] * 40
        assert res.l2.tolist() == [n - 1] * 40
        assert res.n_distinct == 1
        s = summarize_ranks(res.cos)
        assert s["mrr"] == pytest.approx(1 / (n - 1))
        assert s["hits_at_10"] == 0.0
        opt = evalrank_ranks(emb, q, p, center=center, ties="optimistic")
        assert opt.cos.tolist() == [1] * 40 and opt.l2.tolist() == [1] * 40
    # query == positive excludes one row only: every other row ties -> rank n
    assert evalrank_ranks(emb, [5], [5]).cos.tolist() == [n]


def test_zero_after_centring_has_cosine_zero():
    # rows 0 and 1 are the background mean's copies -> zero after centring (cosine 0 with everything)
    emb = np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 1.0], [0.0, 1.0], [1.0, 2.0], [1.0, 0.0]])
    # mean (1, 1); centred: r0 = r1 = (0,0), r2 = (1,0), r3 = (-1,0), r4 = (0,1), r5 = (0,-1)
    # query 2, positive 4: cos(r2, r4) = 0 = cos(r2, r0) = cos(r2, r1) = cos(r2, r5); r3 has -1
    # pessimistic cos: rows 0, 1, 5 tie -> rank 4; optimistic -> rank 1
    # l2: d(r2, r4) = √2; d(r2, r0) = d(r2, r1) = 1 (closer), d(r2, r5) = √2 (tie), d(r2, r3) = 2
    assert ranks(emb, [(2, 4)]) == ([4], [4])
    assert ranks(emb, [(2, 4)], ties="optimistic") == ([1], [3])
    # a zero query: all cosines are 0 -> every other row ties with the positive
    assert ranks(emb, [(0, 2)])[0] == [5]


# --------------------------------------------------------------------------------------------------
# reference implementations
# --------------------------------------------------------------------------------------------------
def reference_ranks(emb, q_idx, p_idx, *, center, ties):
    """Brute force in float64, one score at a time (math.fsum: the same value for identical rows)."""
    e = np.asarray(emb, dtype=np.float64)
    if center:
        e = e - e.mean(axis=0)
    rows = [list(map(float, r)) for r in e]
    norms = [math.sqrt(math.fsum(v * v for v in r)) for r in rows]

    def cos(a, b):
        if norms[a] == 0.0 or norms[b] == 0.0:
            return 0.0
        return math.fsum(x * y for x, y in zip(rows[a], rows[b])) / (norms[a] * norms[b])

    def l2(a, b):
        return 1.0 / (1.0 + math.sqrt(math.fsum((x - y) ** 2 for x, y in zip(rows[a], rows[b]))))

    better = (lambda s, t: s > t) if ties == "optimistic" else (lambda s, t: s >= t)
    out = {"cos": [], "l2": []}
    for q, p in zip(q_idx, p_idx):
        for name, f in (("cos", cos), ("l2", l2)):
            target = f(q, p)
            out[name].append(1 + sum(better(f(q, j), target) for j in range(len(rows)) if j != q and j != p))
    return out


def planted_duplicates(seed, n=240, d=12, m=120):
    rng = np.random.default_rng(seed)
    emb = rng.standard_normal((n, d)).astype(np.float32)
    src = rng.integers(0, n, 25)
    dst = rng.integers(0, n, 25)
    emb[dst] = emb[src]  # ~10% of rows are copies of others (some several times)
    q = rng.integers(0, n, m)
    p = rng.integers(0, n, m)
    p[:10] = q[:10]  # query == positive
    p[10:20] = dst[:10]
    q[10:20] = src[:10]  # the positive is an identical copy of the query (when src != dst)
    # the positive has identical copies elsewhere
    p[20:30] = src[10:20]
    return emb, q, p


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("ties", ["pessimistic", "optimistic"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_agrees_with_float64_brute_force_on_random_data_with_duplicates(center, ties, dtype):
    emb, q, p = planted_duplicates(seed=7)
    ref = reference_ranks(emb, q, p, center=center, ties=ties)
    res = evalrank_ranks(emb, q, p, center=center, ties=ties, dtype=dtype)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]
    assert res.n_distinct < emb.shape[0]
    # the planted duplicates matter: the two tie rules disagree on some pairs
    other = "optimistic" if ties == "pessimistic" else "pessimistic"
    assert res.cos.tolist() != evalrank_ranks(emb, q, p, center=center, ties=other, dtype=dtype).cos.tolist()


def exact_reference_ranks(vectors, q_idx, p_idx, ties):
    """Exact rational arithmetic for integer vectors (no centring).

    cos order = order of sign(g) g² / |u|² with g = q·u (the query norm is common to the row);
    l2 order = reverse order of |q - u|².
    """
    vec = [tuple(int(v) for v in r) for r in vectors]

    def dot(a, b):
        return sum(x * y for x, y in zip(a, b))

    def cos_key(a, b):
        g = dot(vec[a], vec[b])
        return Fraction(g * abs(g), dot(vec[b], vec[b]))

    def l2_key(a, b):
        return -sum((x - y) ** 2 for x, y in zip(vec[a], vec[b]))

    better = (lambda s, t: s > t) if ties == "optimistic" else (lambda s, t: s >= t)
    out = {"cos": [], "l2": []}
    for q, p in zip(q_idx, p_idx):
        for name, f in (("cos", cos_key), ("l2", l2_key)):
            target = f(q, p)
            out[name].append(1 + sum(better(f(q, j), target) for j in range(len(vec)) if j not in (q, p)))
    return out


@pytest.mark.parametrize("ties", ["pessimistic", "optimistic"])
def test_exact_ties_between_distinct_vectors_match_rational_arithmetic(ties):
    # primitive integer vectors in {-2..2}^3 (no two point the same way): permutations and sign
    # flips give many distinct vectors with exactly equal cosines and distances
    cand = [v for v in product(range(-2, 3), repeat=3) if any(v) and math.gcd(*map(abs, v)) == 1]
    rng = np.random.default_rng(11)
    emb = np.array(cand + [cand[i] for i in rng.integers(0, len(cand), 30)], dtype=np.float32)
    q = rng.integers(0, len(emb), 150)
    p = rng.integers(0, len(emb), 150)
    ref = exact_reference_ranks(emb, q, p, ties)
    res = evalrank_ranks(emb, q, p, center=False, ties=ties)
    assert res.cos.tolist() == ref["cos"]
    assert res.l2.tolist() == ref["l2"]


# --------------------------------------------------------------------------------------------------
# determinism: chunking, pair order, background order
# --------------------------------------------------------------------------------------------------
def near_tie_data(seed=1, d=64, n_near=200):
    """A query and a positive with 200 background rows that differ from the positive by one ulp in a
    few coordinates: their scores are within float32 rounding of the positive's, so any change in
    how the dot products are rounded (e.g. BLAS choosing another kernel for another number of
    rows) changes the counts."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(d).astype(np.float32)
    p = rng.standard_normal(d).astype(np.float32)
    near = np.repeat(p[None], n_near, axis=0)
    for row in near:
        k = rng.integers(0, d, 3)
        row[k] = np.nextafter(row[k], np.where(rng.random(3) < 0.5, np.inf, -np.inf).astype(np.float32))
    other = rng.standard_normal((100, d)).astype(np.float32)
    emb = np.vstack([q[None], p[None], near, other])
    n = emb.shape[0]
    qi = np.r_[np.zeros(40, dtype=np.int64), rng.integers(0, n, 60)]
    pi = np.r_[np.ones(40, dtype=np.int64), rng.integers(0, n, 60)]
    return emb, qi, pi


@pytest.mark.parametrize("center", [True, False])
def test_ranks_do_not_depend_on_chunk_size_or_on_the_other_pairs(center):
    emb, q, p = near_tie_data()
    base = evalrank_ranks(emb, q, p, center=center)
    # the same pair repeated gets the same rank everywhere in the batch
    assert len(set(base.cos[:40].tolist())) == 1 and len(set(base.l2[:40].tolist())) == 1
    for chunk_size in (1, 2, 3, 5, 13, 64, 255, 256, 257, 10_000):
        res = evalrank_ranks(emb, q, p, center=center, chunk_size=chunk_size)
        assert np.array_equal(res.cos, base.cos), chunk_size
        assert np.array_equal(res.l2, base.l2), chunk_size
    # each pair alone, and the pairs in reverse order
    for i in (0, 17, 39, 40, 99):
        alone = evalrank_ranks(emb, q[i : i + 1], p[i : i + 1], center=center)
        assert (alone.cos[0], alone.l2[0]) == (base.cos[i], base.l2[i])
    rev = evalrank_ranks(emb, q[::-1], p[::-1], center=center)
    assert np.array_equal(rev.cos[::-1], base.cos) and np.array_equal(rev.l2[::-1], base.l2)


def test_identical_vectors_tie_even_if_blas_rounds_each_position_differently(monkeypatch):
    """A BLAS may round the same dot product differently in different columns or rows of a product
    (OpenBLAS does for small shapes).  Simulate the worst case — every other output entry nudged by
    one ulp — and check that identical vectors still tie exactly (one column per distinct vector)."""

    def position_dependent_gemm(a, bt, out):
        exact = (a.astype(np.float64) @ bt.astype(np.float64)).astype(out.dtype)
        i, j = np.indices(exact.shape)
        out[...] = np.where((i + j) % 2 == 1, np.nextafter(exact, np.inf), exact)

    emb, q, p = planted_duplicates(seed=7)
    monkeypatch.setattr(rx, "_gemm", position_dependent_gemm)
    for ties in ("pessimistic", "optimistic"):
        ref = reference_ranks(emb, q, p, center=True, ties=ties)
        res = evalrank_ranks(emb, q, p, ties=ties)
        assert res.cos.tolist() == ref["cos"] and res.l2.tolist() == ref["l2"]


def test_ranks_do_not_depend_on_the_order_of_background_rows():
    emb, q, p = planted_duplicates(seed=5)
    perm = np.random.default_rng(0).permutation(emb.shape[0])
    where = np.empty_like(perm)
    where[perm] = np.arange(perm.size)  # row i of emb is row where[i] of emb[perm]
    a = evalrank_ranks(emb, q, p)
    b = evalrank_ranks(emb[perm], where[q], where[p])
    assert np.array_equal(a.cos, b.cos) and np.array_equal(a.l2, b.l2)
    again = evalrank_ranks(emb, q, p)
    assert np.array_equal(a.cos, again.cos) and np.array_equal(a.l2, again.l2)


def test_hash_collisions_fall_back_to_exact_deduplication(monkeypatch):
    emb, q, p = planted_duplicates(seed=9)
    expected = evalrank_ranks(emb, q, p)
    # every row gets the same hash: the bytewise check must notice and fall back
    monkeypatch.setattr(rx, "_hash_multipliers", lambda width: np.zeros(width, dtype=np.uint64))
    res = evalrank_ranks(emb, q, p)
    assert np.array_equal(res.cos, expected.cos) and np.array_equal(res.l2, expected.l2)
    assert res.n_distinct == expected.n_distinct == len(np.unique(emb, axis=0))


def test_scale_does_not_matter_and_float64_inputs_beyond_float32_range_work():
    emb, q, p = planted_duplicates(seed=2)
    a = evalrank_ranks(emb, q, p)
    b = evalrank_ranks(emb.astype(np.float64) * 2.0**200, q, p)  # exact scaling, > float32 max
    c = evalrank_ranks(emb.astype(np.float64) * 2.0**-200, q, p)
    for r in (b, c):
        assert np.array_equal(a.cos, r.cos) and np.array_equal(a.l2, r.l2)


def test_integer_embeddings_are_accepted():
    emb = np.array([[1, 0], [1, 1], [0, 1], [2, 0]], dtype=np.int64)
    res = evalrank_ranks(emb, np.array([0], dtype=np.int32), np.array([1], dtype=np.uint8), center=False)
    # cos: row 3 (cos 1) beats the positive -> 2; l2: d(0,3) = 1 ties with d(0,1) = 1 -> 2
    assert (res.cos.tolist(), res.l2.tolist()) == ([2], [2])


# --------------------------------------------------------------------------------------------------
# result types and summaries
# --------------------------------------------------------------------------------------------------
def test_rank_result_is_frozen_and_read_only():
    res = evalrank_ranks(np.eye(3), [0, 1], [1, 2])
    assert isinstance(res, RankResult)
    assert res.cos.dtype == np.int64 and res.l2.dtype == np.int64 and res.n_pairs == 2
    assert (res.ties, res.center, res.n_background) == ("pessimistic", True, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.ties = "optimistic"
    with pytest.raises(ValueError):
        res.cos[0] = 7


def test_summarize_ranks_values_and_types():
    s = summarize_ranks(np.array([1, 2, 4, 10, 11]))
    assert list(s) == ["mrr", "hits_at_1", "hits_at_3", "hits_at_10", "mean_rank"]
    assert s["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 4 + 1 / 10 + 1 / 11) / 5)
    assert (s["hits_at_1"], s["hits_at_3"], s["hits_at_10"]) == (0.2, 0.4, 0.8)
    assert s["mean_rank"] == pytest.approx(5.6)
    assert all(type(v) is float for v in s.values())
    t = summarize_ranks([3, 3], ks=(2, 5), prefix="l2_")
    assert t == {"l2_mrr": pytest.approx(1 / 3), "l2_hits_at_2": 0.0, "l2_hits_at_5": 1.0, "l2_mean_rank": 3.0}


@pytest.mark.parametrize(
    "bad, match",
    [([], "non-empty"), ([[1, 2]], "1-D"), ([0, 1], "start at 1"), ([1.0, 2.0], "integers")],
)
def test_summarize_ranks_rejects_bad_input(bad, match):
    with pytest.raises(InputError, match=match):
        summarize_ranks(np.asarray(bad))
    with pytest.raises(InputError, match="positive integers"):
        summarize_ranks([1, 2], ks=(0,))


def test_evalrank_scores_dict_is_json_ready():
    emb, q, p = planted_duplicates(seed=4)
    out = evalrank_scores(emb, q, p, ties="optimistic")
    res = evalrank_ranks(emb, q, p, ties="optimistic")
    assert out == {
        **summarize_ranks(res.cos),
        **summarize_ranks(res.l2, prefix="l2_"),
        "main_score": out["mrr"],
        "num_pairs": len(q),
        "num_background": emb.shape[0],
        "centered": True,
        "ties": "optimistic",
    }
    assert {type(v) for v in out.values()} <= {float, int, bool, str}
    assert json.loads(json.dumps(out)) == out
    assert 0.0 < out["mrr"] <= 1.0 and out["mean_rank"] >= 1.0


def test_evalrank_scores_subset_mask_scores_only_those_pairs_against_the_full_background():
    emb, q, p = planted_duplicates(seed=4)
    mask = np.zeros(len(q), dtype=bool)
    mask[::3] = True
    out = evalrank_scores(emb, q, p, subset_mask=mask, ks=(1, 5), center=False)
    full = evalrank_ranks(emb, q, p, center=False)
    assert out["num_pairs"] == int(mask.sum()) and out["num_background"] == emb.shape[0]
    assert out["centered"] is False
    assert out["hits_at_5"] == summarize_ranks(full.cos[mask], ks=(5,))["hits_at_5"]
    assert out["l2_mrr"] == summarize_ranks(full.l2[mask])["mrr"]
    with pytest.raises(InputError, match="selects no pairs"):
        evalrank_scores(emb, q, p, subset_mask=np.zeros(len(q), dtype=bool))
    with pytest.raises(InputError, match="boolean"):
        evalrank_scores(emb, q, p, subset_mask=np.ones(len(q) - 1, dtype=bool))
    with pytest.raises(InputError, match="boolean"):
        evalrank_scores(emb, q, p, subset_mask=np.arange(len(q)))
    with pytest.raises(InputError, match="same length"):
        evalrank_scores(emb, q, p[:-1], subset_mask=mask)


# --------------------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------------------
GOOD = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])


def test_zero_rows_are_rejected_with_count_and_rows():
    emb = GOOD.copy()
    emb[[1, 3]] = 0.0
    with pytest.raises(InputError, match=r"2 of 4 embedding rows are all zero \(rows 1, 3\)"):
        evalrank_ranks(emb, [0], [2])


def test_many_bad_rows_are_abbreviated():
    emb = np.ones((30, 2))
    emb[5:25] = 0.0
    with pytest.raises(InputError, match=r"20 of 30 .*rows 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, \.\.\."):
        evalrank_ranks(emb, [0], [1])


@pytest.mark.parametrize(
    "value, match", [(np.nan, r"1 with NaN, 1 with inf only; rows 1, 2"), (np.inf, r"0 with NaN, 2 with inf only")]
)
def test_nan_and_inf_rows_are_rejected(value, match):
    emb = GOOD.copy()
    emb[1, 0] = value
    emb[2, 1] = np.inf
    with pytest.raises(InputError, match=r"2 of 4 embedding rows contain NaN or inf") as info:
        evalrank_ranks(emb, [0], [3])
    assert re.search(match, str(info.value))


@pytest.mark.parametrize(
    "q, p, match",
    [
        ([0, 4], [1, 2], r"1 of 2 query_idx values are outside \[0, 4\).*pairs 1: values 4"),
        ([0, 1], [-1, 2], r"positive_idx values are outside \[0, 4\).*values -1"),
        ([], [], "query_idx is empty"),
        ([0, 1], [1], "same length"),
        ([0.0], [1.0], "integer row indices"),
        ([[0, 1]], [[1, 2]], "1-D"),
    ],
)
def test_bad_indices_are_rejected(q, p, match):
    with pytest.raises(InputError, match=match):
        evalrank_ranks(GOOD, np.asarray(q), np.asarray(p))


@pytest.mark.parametrize(
    "emb, match",
    [
        (np.ones(4), "2-D"),
        (np.ones((0, 3)), "empty"),
        (np.ones((3, 0)), "empty"),
        (np.ones((3, 2), dtype=complex), "real numbers"),
        (np.array([["a", "b"], ["c", "d"]]), "real numbers"),
    ],
)
def test_bad_embeddings_are_rejected(emb, match):
    with pytest.raises(InputError, match=match):
        evalrank_ranks(emb, [0], [1])


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"ties": "random"}, "ties must be one of"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"chunk_size": 2.5}, "chunk_size"),
        ({"center": "yes"}, "center"),
        ({"dtype": np.float16}, "dtype"),
    ],
)
def test_bad_options_are_rejected(kw, match):
    with pytest.raises(InputError, match=match):
        evalrank_ranks(GOOD, [0], [1], **kw)


def test_input_error_is_a_value_error():
    with pytest.raises(ValueError):
        evalrank_ranks(GOOD, [0], [9])
