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

from mteb_evalrank.metrics.ranking.scores import (
    DEFAULT_KS,
    TIES,
    RankResult,
    evalrank_ranks,
    evalrank_scores,
    summarize_ranks,
)

__all__ = [
    "DEFAULT_KS",
    "TIES",
    "RankResult",
    "evalrank_ranks",
    "evalrank_scores",
    "summarize_ranks",
]
