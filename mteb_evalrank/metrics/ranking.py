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
* **Centring** (``center=True``, default): the background mean is subtracted from every row before
  scoring, as the reference toolkit does.  A row that becomes exactly zero after centring (e.g. every
  row of a model that returns one constant vector) has cosine ``0`` with everything, by definition.
* **Ties** (``ties="pessimistic"``, default): background items scoring *equal* to the positive rank
  above it, so a degenerate model that maps everything to one vector gets rank ``n - 1`` for every
  pair (MRR ~ 1/(n-1)) instead of a perfect score.  ``ties="optimistic"`` uses ``>`` — the rule the
  paper and the reference toolkit intend (ties favour the positive).
* **Exact ties are exact.**  Real models produce identical embeddings for different items (with
  all-MiniLM-L6-v2, 722-738 of the 24,957 EvalRankSent background sentences, depending on the
  encoding run, share an identical embedding with another one).  BLAS kernels may round the same
  dot product differently in different positions of a matrix product, which would turn such ties
  into random wins and losses.  So the
  rows are deduplicated first (after centring, bytewise on the float32 vectors): every distinct
  vector is one column of the score matrix, counted with its multiplicity, and the query's and the
  positive's own rows are subtracted from the count of their columns.  Identical vectors therefore
  tie exactly, and the positive's score is read from the very matrix row it is compared with.
* **Independent of chunking.**  The query × background score matrix is never materialised: queries
  are scored in chunks, and every BLAS call has the same shape (``_tile_rows(n_distinct)`` query rows,
  the last tile padded), because BLAS libraries pick different kernels — with different rounding —
  for different shapes (OpenBLAS 0.3.31 rounds a row differently in a 1-row, a 3-row and a 50-row
  product of small matrices, and can even round two identical columns of one small product
  differently).  So ranks do not depend on ``chunk_size``, on the order of the pairs, or on which pairs
  are evaluated together.
* **One matrix product for both metrics.**  With ``G = Q . U^T`` over centred vectors, the cosine
  ordering in a query row is that of ``G[:, j] / ||u_j||`` and the l2 ordering (smaller distance =
  larger score) is that of ``G[:, j] - ||u_j||^2 / 2`` (because ``||q - u||^2 = ||q||^2 - 2 q.u + ||u||^2``
  and ``||q||`` is constant within a row; ``1 / (1 + d)`` is strictly decreasing in ``d``).  Both keys
  are order-equivalent to the paper's scores, computed in float32; comparisons are exact on these
  keys.  Distinct vectors whose scores differ by less than float32 rounding are ordered by the
  float32 values: for all-MiniLM-L6-v2 on EvalRankSent, ``dtype=np.float64`` (about twice as slow)
  changes 43 of 6,989 cos ranks, each by 1 (MRR 0.8296 -> 0.8298).
* **Scale.**  The embeddings are multiplied by a power of two so that the largest input value is
  below 1 in absolute value — exact in floating point, invisible in the ranks, and it keeps the dot
  products far from overflow (float64 inputs beyond the float32 range work too).

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
(one afterwards), one score chunk of ``chunk_size × n_distinct`` float32 values (default: one tile,
at most 64 MiB for backgrounds up to ~2M distinct rows), float64 and hashing temporaries of
4,096-row blocks (~20 MiB at d = 384) and ~2 MiB of per-block scratch for keys and masks (counts
are taken row by row from a boolean mask, never through a wide integer temporary).  The engine is
numpy: on the 2-core CPU this was developed on, OpenBLAS's SGEMM was faster than torch for this
shape, and 6,989 queries × 24,957 background rows × 384 dimensions take ~1 s for both metrics
(``benchmarks/ranking_speed.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError

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

#: Upper bound (bytes) on one GEMM tile of scores: tile rows = largest power of two <= 512 with
#: rows * n_distinct * itemsize <= this, but at least _MIN_TILE_ROWS rows.
_TILE_BYTES = 64 * 2**20
_MAX_TILE_ROWS = 512
_MIN_TILE_ROWS = 8
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
    """

    cos: np.ndarray
    l2: np.ndarray
    n_background: int
    center: bool
    ties: str
    n_distinct: int

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
def _prepare(x: np.ndarray, center: bool, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centred, rescaled, deduplicated rows ``U`` (duplicated vectors first), ``inverse`` and ``counts``.

    ``U[inverse[i]]`` is row ``i`` of the prepared embeddings; ``counts[u]`` is how many input rows
    share distinct row ``u``.
    """
    n, d = x.shape
    # exact power-of-two rescaling so that |values| < 1 (centred values < 2): no effect on any
    # ordering (both similarities are scale invariant in their ordering), keeps products far from
    # overflow, and lets float64 inputs beyond the float32 range be used
    big = float(np.abs(x).max())
    scale = 2.0 ** -int(np.frexp(big)[1])
    starts = range(0, n, _CENTER_ROWS)  # row blocks bound the float64 temporaries
    mean = None
    if center:
        mean = np.zeros(d, dtype=np.float64)
        for s in starts:
            mean += (x[s : s + _CENTER_ROWS].astype(np.float64) * scale).sum(axis=0)
        mean /= n
    e = np.empty((n, d), dtype=dtype)
    for s in starts:  # float64 arithmetic, rounded once to the working dtype
        rows64 = x[s : s + _CENTER_ROWS].astype(np.float64)
        rows64 *= scale
        if mean is not None:
            rows64 -= mean
        e[s : s + _CENTER_ROWS] = rows64
        del rows64
    e += dtype.type(0.0)  # turn -0.0 into +0.0 so that bytewise deduplication sees equal vectors
    first, inverse, counts = _dedupe_rows(e)
    # duplicated vectors first (their multiplicities need a correction term), stable otherwise
    order = np.argsort(counts == 1, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    u = e[first[order]]
    del e
    return u, position[inverse].astype(np.int64, copy=False), counts[order].astype(np.int64, copy=False)


def _hash_multipliers(width: int) -> np.ndarray:
    """Fixed odd 64-bit multipliers of the row hash (a function, so tests can force collisions)."""
    return np.random.default_rng(0x5EED).integers(1, 2**62, size=width, dtype=np.uint64) | np.uint64(1)


def _dedupe_rows(e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bytewise-distinct rows of ``e`` as ``(first, inverse, counts)``, like ``np.unique(axis=0)``.

    ``e[first]`` are the distinct rows, ``e[first][inverse]`` equals ``e``, ``counts`` their
    multiplicities.

    Rows are grouped by a 64-bit multiplicative hash of their bytes (one pass), and every row of a
    group is then checked bytewise against the group's first row; only if that check ever fails (a
    hash collision) do we fall back to sorting the rows (``np.unique`` on a void view, ~5x slower).
    """
    n, d = e.shape
    row_bytes = d * e.itemsize
    word = np.uint64 if row_bytes % 8 == 0 else np.uint32
    words = e.view(word)
    mult = _hash_multipliers(words.shape[1])
    hashes = np.zeros(n, dtype=np.uint64)
    for s in range(0, n, _CENTER_ROWS):  # wraps modulo 2**64 (unsigned: no overflow warnings)
        hashes[s : s + _CENTER_ROWS] = (words[s : s + _CENTER_ROWS].astype(np.uint64, copy=False) * mult).sum(axis=1)
    _, first, inverse, counts = np.unique(hashes, return_index=True, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    in_group = np.flatnonzero(counts[inverse] > 1)
    if in_group.size and not np.array_equal(words[in_group], words[first[inverse[in_group]]]):
        rows = e.view(np.dtype((np.void, row_bytes))).ravel()
        _, first, inverse, counts = np.unique(rows, return_index=True, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
    return first, inverse, counts


def _gemm(a: np.ndarray, bt: np.ndarray, out: np.ndarray) -> None:
    """``out[:] = a @ bt`` — the one BLAS call (a function, so tests can substitute a BLAS that rounds
    identical inputs differently in different positions)."""
    np.matmul(a, bt, out=out)


def _tile_rows(n_distinct: int, itemsize: int = 4) -> int:
    """Query rows per BLAS call: a function of the background size only (so of the input only)."""
    rows = _MAX_TILE_ROWS
    while rows > _MIN_TILE_ROWS and rows * n_distinct * itemsize > _TILE_BYTES:
        rows //= 2
    return rows


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
            ranks never depend on it.  It is rounded up to a multiple of the fixed BLAS tile
            (512 float32 rows for backgrounds up to 32k distinct rows; fewer for larger ones, so that
            a tile holds at most 64 MiB of scores; never fewer than 8 rows).  Default ``None``: one
            tile (about 48 MiB of scores for EvalRankSent: 512 × ~24.6k distinct rows × 4 bytes).
        dtype: working precision, ``np.float32`` (default) or ``np.float64`` (about twice as slow).

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

    u, inverse, counts = _prepare(x, bool(center), dt)
    n_distinct = u.shape[0]
    uq = inverse[q_idx]
    up = inverse[p_idx]
    distinct_rows = q_idx != p_idx  # the query row is excluded separately only if it is another row

    # per-column constants of the two keys (see module docstring)
    nsq = np.einsum("ij,ij->i", u, u, dtype=np.float64)
    with np.errstate(divide="ignore", over="ignore"):
        inv_norm = np.where(nsq > 0.0, 1.0 / np.sqrt(nsq), 0.0).astype(dt)
    inv_norm[~np.isfinite(inv_norm)] = 0.0  # a norm too small for the working precision counts as zero
    half_nsq = (nsq / 2.0).astype(dt)
    extra = counts - 1  # additional rows behind each distinct column
    n_dup = int(np.count_nonzero(extra))  # duplicated columns come first
    extra = extra[:n_dup]

    m = q_idx.size
    tile = _tile_rows(n_distinct, dt.itemsize)
    chunk = tile if chunk_size is None else -(-int(chunk_size) // tile) * tile
    chunk = min(chunk, -(-m // tile) * tile)
    block = max(1, min(chunk, _BLOCK_BYTES // (dt.itemsize * n_distinct)))
    strict = ties == "optimistic"
    compare = np.greater if strict else np.greater_equal

    rank_cos = np.empty(m, dtype=np.int64)
    rank_l2 = np.empty(m, dtype=np.int64)
    scores = np.empty((chunk, n_distinct), dtype=dt)  # the only score chunk ever held
    key = np.empty((block, n_distinct), dtype=dt)
    mask = np.empty((block, n_distinct), dtype=bool)
    ut = u.T

    def count(k: np.ndarray, mk: np.ndarray, cols_p: np.ndarray, cols_q: np.ndarray, other: np.ndarray) -> np.ndarray:
        rows = np.arange(k.shape[0])
        threshold = k[rows, cols_p]  # the positive's score, read from the row it is compared with
        compare(k, threshold[:, None], out=mk)
        c = np.fromiter((np.count_nonzero(r) for r in mk), dtype=np.int64, count=k.shape[0])
        if n_dup:
            c += mk[:, :n_dup].astype(np.int64) @ extra
        c -= mk[rows, cols_p]  # the positive's own row (always counted under ">=")
        c -= mk[rows, cols_q] & other  # the query's own row, when it is not the positive's row
        return 1 + c

    for start in range(0, m, chunk):
        stop = min(start + chunk, m)
        rows_here = stop - start
        for t in range(0, rows_here, tile):  # every BLAS call has exactly `tile` rows
            sel = uq[start + t : start + min(t + tile, rows_here)]
            if sel.size < tile:
                sel = np.concatenate([sel, np.full(tile - sel.size, sel[-1])])
            _gemm(u[sel], ut, scores[t : t + tile])
        for b in range(0, rows_here, block):
            e = min(b + block, rows_here)
            g = scores[b:e]
            k, mk = key[: e - b], mask[: e - b]
            cp, cq, other = up[start + b : start + e], uq[start + b : start + e], distinct_rows[start + b : start + e]
            np.multiply(g, inv_norm, out=k)
            rank_cos[start + b : start + e] = count(k, mk, cp, cq, other)
            np.subtract(g, half_nsq, out=k)
            rank_l2[start + b : start + e] = count(k, mk, cp, cq, other)
    del scores, key, mask

    rank_cos.setflags(write=False)
    rank_l2.setflags(write=False)
    return RankResult(
        cos=rank_cos,
        l2=rank_l2,
        n_background=int(n),
        center=bool(center),
        ties=str(ties),
        n_distinct=int(n_distinct),
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
