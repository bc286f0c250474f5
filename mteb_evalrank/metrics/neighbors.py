"""Nearest-neighbour overlap (N2O; Lin & Smith, "Situating Sentence Embedders with Nearest Neighbor Overlap", arXiv:1909.10724).

Pure numpy (FAISS optional).  Everything works on *corpus row indices*:

- :func:`sample_queries` — seeded query samples; the ids depend only on ``(seed, corpus size, n,
  sample index)``, so every embedder gets the same queries.
- :func:`exact_knn` — cosine k nearest neighbours of corpus rows, the query itself excluded (by index),
  computed in query chunks (never the full ``n × N`` matrix at once; the corpus may be a read-only
  memmap and is read block by block).  Order: higher cosine first, ties broken by lower corpus index,
  so results are deterministic.
- :func:`faiss_knn` — the same with an approximate FAISS index (HNSW or IVF, inner product on
  normalised vectors), plus :func:`recall_at_k` against the exact result.
- :func:`n2o` / :func:`n2o_matrix` — N2O(A, B) = Σ_q |NN_A(q) ∩ NN_B(q)| / (k · n), averaged over
  samples (with the std across samples).
- :func:`robustness` — §6: Spearman ρ between the rankings of embedder pairs across k ∈ {5, …, 50}
  and across query samples.
- :func:`popular_and_outlier_neighbors` — §7.
- :func:`needle_ranks` / :func:`needle_scores` — §8 paraphrase "needle in a haystack" ranks.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from mteb_evalrank.errors import DirectionlessRowsError, InputError
from mteb_evalrank.metrics import exact_scores as xs
from mteb_evalrank.metrics.unit_rows import directionless_rows

logger = logging.getLogger(__name__)

#: Score-block budget for exact search (bytes of float32 scores alive at once).
DEFAULT_BLOCK_BYTES = 256 * 1024 * 1024
#: Corpus rows read (and normalised) at a time.
CORPUS_BLOCK_ROWS = 65_536

PAPER_KS = tuple(range(5, 51, 5))


# --- corpus hygiene ----------------------------------------------------------------------------
def deduplicate(texts: Sequence[str], *, what: str = "corpus") -> list[str]:
    """Unique texts in first-seen order; logs a warning with the number of duplicates dropped."""
    texts = list(texts)
    unique = list(dict.fromkeys(texts))
    dropped = len(texts) - len(unique)
    if dropped:
        logger.warning("%s: dropped %d duplicate line(s) (%d unique of %d).", what, dropped, len(unique), len(texts))
    return unique


# --- sampling ----------------------------------------------------------------------------------
def sample_queries(corpus_size: int, n: int, *, seed: int = 42, sample: int = 0) -> np.ndarray:
    """``n`` distinct corpus row ids (sorted), a function of ``(seed, corpus_size, n, sample)`` only."""
    corpus_size, n = int(corpus_size), int(n)
    if n < 1:
        raise InputError(f"the number of queries must be at least 1, got {n}.")
    if n > corpus_size:
        raise InputError(f"asked for {n} queries but the corpus has only {corpus_size} sentences.")
    rng = np.random.default_rng([int(seed), corpus_size, n, int(sample)])
    return np.sort(rng.choice(corpus_size, size=n, replace=False)).astype(np.int64)


def sample_query_sets(corpus_size: int, n: int, samples: int, *, seed: int = 42) -> np.ndarray:
    """``(samples, n)`` query ids: sample ``s`` is :func:`sample_queries` with ``sample=s``."""
    if samples < 1:
        raise InputError(f"the number of samples must be at least 1, got {samples}.")
    return np.stack([sample_queries(corpus_size, n, seed=seed, sample=s) for s in range(samples)])


# --- exact search ------------------------------------------------------------------------------
def _gemm(a: np.ndarray, bt: np.ndarray, out: np.ndarray) -> None:
    """``out[:] = a @ bt`` — the float32 filter product (a function, so tests can substitute a BLAS
    that rounds every position differently, within the bound of :mod:`.exact_scores`)."""
    np.matmul(a, bt, out=out)


def _normalise(x: np.ndarray) -> np.ndarray:
    """Rows of unit length, float32 (FAISS's input); the rows were checked by :func:`check_corpus_directions`."""
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return x / norms


def check_corpus_directions(corpus: np.ndarray, *, block_rows: int = CORPUS_BLOCK_ROWS) -> None:
    """:class:`~mteb_evalrank.errors.DirectionlessRowsError` when a corpus row has no direction, block by block
    (memmap friendly): NaN or inf, all zero, or a bag of words' fill for a sentence without any known word
    (:func:`~mteb_evalrank.metrics.unit_rows.directionless_rows`).  Its cosine with every row is undefined (or
    the same for every such row), so the neighbours of those rows, and their place in other rows' lists, would be
    the corpus order rather than the model's: the search refuses them, as EvalRank and HEROS refuse zero vectors."""
    found: dict[str, list[int]] = {}
    for start in range(0, len(corpus), block_rows):
        block = np.asarray(corpus[start : start + block_rows], dtype=np.float32)
        for kind, rows in directionless_rows(block, no_words=True).items():
            found.setdefault(kind, []).extend((rows + start).tolist())
    if any(found.values()):
        raise DirectionlessRowsError("corpus embeddings", len(corpus), found, noun="vectors")


def corpus_inverse_norms(corpus: np.ndarray, *, block_rows: int = CORPUS_BLOCK_ROWS) -> np.ndarray:
    """1/‖row‖ in float32 for every corpus row, from float64 norms, block by block (memmap friendly); a row without
    a direction is refused first (:func:`check_corpus_directions`)."""
    check_corpus_directions(corpus, block_rows=block_rows)
    out = np.empty(len(corpus), dtype=np.float32)
    for start in range(0, len(corpus), block_rows):
        block = np.asarray(corpus[start : start + block_rows], dtype=np.float32)
        nsq = np.einsum("ij,ij->i", block, block, dtype=np.float64)
        with np.errstate(divide="ignore", over="ignore"):
            inv = np.where(nsq > 0, 1.0 / np.sqrt(nsq), 0.0).astype(np.float32)
        if not np.isfinite(inv).all():
            raise InputError("a corpus vector's norm is below 1e-38: rescale the embeddings.")
        out[start : start + len(block)] = inv
    return out


def _check_k(k: int, corpus_size: int, *, exclude_self: bool = True) -> int:
    k = int(k)
    limit = corpus_size - 1 if exclude_self else corpus_size
    if corpus_size == 0:
        raise InputError("the corpus is empty: there is nothing to search.")
    if k < 1:
        raise InputError(f"k must be at least 1, got {k}.")
    if k > limit:
        raise InputError(
            f"k={k} is too large for a corpus of {corpus_size} sentences "
            f"(at most {limit} neighbours exist once the query itself is excluded)."
        )
    return k


class _ExactCosine:
    """Exact cosine comparisons against corpus rows, for one corpus (filter bounds + exact refine).

    Keys are ``t_j = q.c_j / ||c_j||`` (the cosine times ``||q||``), see :mod:`.exact_scores`: the
    float32 filter key ``fl(q.c_j) * fl32(1/||c_j||)`` is within ``filter_error(q)`` of ``t_j``; a
    float64 re-score without BLAS is within ``refine_error(q)``; integers decide the rest exactly.
    Vectors are taken as float32 (the corpus is read as float32).
    """

    def __init__(self, corpus: np.ndarray, inv_norms: np.ndarray) -> None:
        self.corpus = corpus
        self.d = int(np.shape(corpus)[1])
        self.inv_norms = inv_norms
        self.w_max = float(inv_norms.max(initial=0.0)) * (1.0 + 2.0**-20)
        self.cos_c = xs.cos_error_factor(self.d, np.float32)
        self.c2_cos, _ = xs.refine_error_factors(self.d)
        self.eta = xs.underflow_slack(self.d, np.float32)
        self._rows = xs.ExactRows(lambda ids: np.asarray(self.corpus[ids], dtype=np.float32))

    def filter_error(self, q_norm_up: np.ndarray | float) -> np.ndarray | float:
        return self.cos_c * q_norm_up + self.eta * self.w_max

    def refine_error(self, q_norm_up: np.ndarray | float) -> np.ndarray | float:
        return self.c2_cos * q_norm_up

    def rows64(self, ids: np.ndarray) -> np.ndarray:
        return np.asarray(self.corpus[np.asarray(ids)], dtype=np.float32).astype(np.float64)

    def refine(self, q64: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Float64 keys (no BLAS) of corpus rows ``ids`` for one query vector ``q64``."""
        rows = self.rows64(ids)
        a = (rows * q64).sum(axis=1)
        nsq = (rows * rows).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(nsq > 0, a / np.sqrt(nsq), 0.0)

    def exact_key(self, q_ints: tuple[list[int], int], j: int) -> tuple[xs.Exact, xs.Exact]:
        """``(q.c_j, ||c_j||^2)`` exactly, for a query given by :func:`.exact_scores.exact_integers`."""
        return xs.exact_dot(q_ints, self._rows.ints(j)), self._rows.sqnorm(j)


def _exact_top_k(
    cos: _ExactCosine, q32: np.ndarray, keys: np.ndarray, k: int, q_norm_up: float
) -> tuple[np.ndarray, np.ndarray]:
    """Top-k corpus ids of one query (higher cosine first, exact ties -> lower id) from filter keys."""
    n = keys.shape[0]
    kth = np.partition(keys, n - k)[n - k]
    lo = xs.round_outward(float(kth) - 2.0 * float(cos.filter_error(q_norm_up)), np.float32, up=False)
    cand = np.flatnonzero(keys >= lo)  # a superset of the true top k (see module docstring)
    q64 = q32.astype(np.float64)
    t = cos.refine(q64, cand)
    order = np.lexsort((cand, -t))
    cand, t = cand[order], t[order]
    window = 2.0 * float(cos.refine_error(q_norm_up))
    # runs of candidates whose float64 keys are within the refine bound of their neighbour are
    # ordered exactly; runs themselves are already in exact order
    breaks = np.flatnonzero(t[:-1] - t[1:] > window) + 1
    starts = np.r_[0, breaks]
    stops = np.r_[breaks, cand.size]
    q_ints = None
    out_ids = []
    for a, b in zip(starts.tolist(), stops.tolist()):
        run = cand[a:b].tolist()
        if len(run) > 1:
            if q_ints is None:
                q_ints = xs.exact_integers(q32[None, :])[0]
            exact = {j: cos.exact_key(q_ints, j) for j in run}
            # higher exact key first; equal keys: lower corpus id first

            def higher_first(x: int, y: int, e: dict[int, tuple[xs.Exact, xs.Exact]] = exact) -> int:
                return -xs.cmp_cos_exact(*e[x], *e[y]) or (x - y)

            run.sort(key=functools.cmp_to_key(higher_first))
        out_ids.extend(run)
        if len(out_ids) >= k:
            break
    ids = np.asarray(out_ids[:k], dtype=np.int64)
    return ids, cos.refine(q64, ids)


def _norm_up(rows: np.ndarray) -> np.ndarray:
    """Upper bounds on the Euclidean norms of float32 rows (float64 sums, inflated by their bound)."""
    rows = np.asarray(rows, dtype=np.float32)
    nsq = np.einsum("ij,ij->i", rows, rows, dtype=np.float64)
    return np.sqrt(xs.sqnorm_upper_bound(nsq, rows.shape[1]))


def exact_knn(
    corpus: np.ndarray,
    query_ids: np.ndarray,
    k: int,
    *,
    exclude_self: bool = True,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
    inv_norms: np.ndarray | None = None,
    progress: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact cosine kNN of the corpus rows ``query_ids``; returns ``(ids, cosines)``, both ``(n, k)``.

    Order: higher cosine first; rows whose cosines are equal in exact arithmetic are ordered by lower
    corpus index.  The lists are exact for the corpus as float32 vectors and depend on nothing else
    (not the BLAS, the CPU, the chunking or which queries are searched together): a float32 product
    filters with a rigorous rounding bound and the candidates near the k-th neighbour are re-scored
    exactly (:mod:`.exact_scores`).  The cosines returned are float64 re-scores rounded to float32.
    The query's own row is excluded (by index).  Queries are processed in chunks so that at most
    ``block_bytes`` of scores are alive at once; the corpus is read in blocks of
    :data:`CORPUS_BLOCK_ROWS` rows, so a memory-mapped corpus is never copied whole.
    """
    corpus_size = len(corpus)
    query_ids = np.asarray(query_ids, dtype=np.int64).reshape(-1)
    k = _check_k(k, corpus_size, exclude_self=exclude_self)
    if len(query_ids) and (query_ids.min() < 0 or query_ids.max() >= corpus_size):
        raise InputError(f"query ids must be corpus rows in [0, {corpus_size}).")
    if inv_norms is None:
        inv_norms = corpus_inverse_norms(corpus)
    cos = _ExactCosine(corpus, inv_norms)
    chunk = max(1, min(len(query_ids) or 1, int(block_bytes // (4 * max(corpus_size, 1)))))
    ids_out = np.empty((len(query_ids), k), dtype=np.int64)
    sims_out = np.empty((len(query_ids), k), dtype=np.float32)
    starts = range(0, len(query_ids), chunk)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="exact kNN", unit="chunk")
    for start in starts:
        qids = query_ids[start : start + chunk]
        q = np.asarray(corpus[qids], dtype=np.float32)
        q_up = _norm_up(q)
        keys = _filter_keys(q, corpus, inv_norms)
        if exclude_self:
            keys[np.arange(len(qids)), qids] = -np.inf
        for r in range(len(qids)):
            ids, t = _exact_top_k(cos, q[r], keys[r], k, float(q_up[r]))
            ids_out[start + r] = ids
            nq = math.sqrt(float(np.dot(q[r].astype(np.float64), q[r].astype(np.float64))))
            sims_out[start + r] = t / nq if nq > 0 else 0.0
        del keys  # free before the next chunk (one live score block)
    return ids_out, sims_out


def _filter_keys(q: np.ndarray, corpus: np.ndarray, inv_norms: np.ndarray) -> np.ndarray:
    """Float32 filter keys ``fl(q.c) * fl32(1/||c||)`` of query rows ``q`` against the whole corpus."""
    corpus_size = len(corpus)
    keys = np.empty((len(q), corpus_size), dtype=np.float32)
    for c0 in range(0, corpus_size, CORPUS_BLOCK_ROWS):
        block = np.asarray(corpus[c0 : c0 + CORPUS_BLOCK_ROWS], dtype=np.float32)
        _gemm(q, block.T, keys[:, c0 : c0 + len(block)])
        keys[:, c0 : c0 + len(block)] *= inv_norms[c0 : c0 + len(block)]
    return keys


# --- approximate search (FAISS) ----------------------------------------------------------------
@dataclass
class ApproxResult:
    """Approximate nearest neighbours: ids, similarities, index type, build and search times, recall@k when measured."""

    ids: np.ndarray
    sims: np.ndarray
    index_type: str
    build_seconds: float
    search_seconds: float
    recall: float | None = None  # recall@k against exact search, when measured


def faiss_knn(
    corpus: np.ndarray,
    query_ids: np.ndarray,
    k: int,
    *,
    index_type: str = "hnsw",
    hnsw_m: int = 32,
    ef_search: int = 256,
    ef_construction: int = 200,
    nlist: int | None = None,
    nprobe: int = 32,
    exclude_self: bool = True,
    add_block_rows: int = CORPUS_BLOCK_ROWS,
    index: Any = None,
) -> ApproxResult:
    """Approximate cosine kNN with FAISS (inner product on L2-normalised vectors).

    ``index_type``: ``"hnsw"`` (``IndexHNSWFlat``) or ``"ivf"`` (``IndexIVFFlat``; ``nlist`` defaults
    to ≈4·√N).  The query itself is removed from its list (searching ``k + 1``).  Pass a previously
    built ``index`` to reuse it (``build_seconds`` is then 0).
    """
    try:
        import faiss
    except ImportError as exc:  # pragma: no cover - faiss is a dependency
        raise InputError("FAISS search needs the faiss-cpu package (pip install faiss-cpu).") from exc
    corpus_size = len(corpus)
    query_ids = np.asarray(query_ids, dtype=np.int64).reshape(-1)
    k = _check_k(k, corpus_size, exclude_self=exclude_self)
    dim = int(np.asarray(corpus[:1]).shape[1])
    t0 = time.perf_counter()
    if index is None:
        check_corpus_directions(corpus, block_rows=add_block_rows)
        if index_type == "hnsw":
            index = faiss.IndexHNSWFlat(dim, hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = ef_construction
        elif index_type == "ivf":
            nlist = nlist or max(1, min(int(4 * np.sqrt(corpus_size)), corpus_size // 39))
            quantizer = faiss.IndexFlatIP(dim)
            index = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
            rng = np.random.default_rng(0)
            train_ids = np.sort(rng.choice(corpus_size, size=min(corpus_size, 256 * nlist), replace=False))
            index.train(_normalise(corpus[train_ids]))
        else:
            raise InputError(f"unknown FAISS index type {index_type!r} (use 'hnsw' or 'ivf').")
        for c0 in range(0, corpus_size, add_block_rows):
            index.add(_normalise(corpus[c0 : c0 + add_block_rows]))
        build = time.perf_counter() - t0
    else:
        build = 0.0
    if index_type == "hnsw":
        index.hnsw.efSearch = max(ef_search, k + 1)
    elif index_type == "ivf":
        index.nprobe = nprobe
    t1 = time.perf_counter()
    extra = 1 if exclude_self else 0
    sims, ids = index.search(_normalise(corpus[query_ids]), k + extra)
    search = time.perf_counter() - t1
    out_ids = np.empty((len(query_ids), k), dtype=np.int64)
    out_sims = np.empty((len(query_ids), k), dtype=np.float32)
    for r, q in enumerate(query_ids):
        keep = ids[r] != q if exclude_self else np.ones(len(ids[r]), bool)
        row_ids, row_sims = ids[r][keep][:k], sims[r][keep][:k]
        if len(row_ids) < k:  # pad (FAISS returned -1s): never counted as overlap
            row_ids = np.concatenate([row_ids, np.full(k - len(row_ids), -1)])
            row_sims = np.concatenate([row_sims, np.full(k - len(row_sims), -np.inf)])
        out_ids[r], out_sims[r] = row_ids, row_sims
    return ApproxResult(out_ids, out_sims, index_type, build, search)


def recall_at_k(approx_ids: np.ndarray, exact_ids: np.ndarray) -> float:
    """Share of the exact top-k ids that the approximate lists contain (mean over queries)."""
    approx_ids, exact_ids = np.asarray(approx_ids), np.asarray(exact_ids)
    if approx_ids.shape[0] != exact_ids.shape[0]:
        raise InputError("approximate and exact neighbour lists cover different numbers of queries.")
    k = exact_ids.shape[1]
    return float(overlap_counts(approx_ids[:, :k], exact_ids).sum() / (k * len(exact_ids)))


# --- N2O ---------------------------------------------------------------------------------------
def overlap_counts(nn_a: np.ndarray, nn_b: np.ndarray, k: int | None = None) -> np.ndarray:
    """|NN_A(q) ∩ NN_B(q)| per query, using the first ``k`` columns of each (ranked) list."""
    nn_a, nn_b = np.asarray(nn_a), np.asarray(nn_b)
    if nn_a.ndim != 2 or nn_a.shape[0] != nn_b.shape[0]:
        raise InputError(
            f"neighbour lists must be (n, k) arrays over the same queries; got {nn_a.shape}, {nn_b.shape}."
        )
    if k is None:
        k = min(nn_a.shape[1], nn_b.shape[1])
    if k < 1 or k > nn_a.shape[1] or k > nn_b.shape[1]:
        raise InputError(f"k={k} exceeds the stored neighbours ({nn_a.shape[1]}, {nn_b.shape[1]}).")
    a, b = nn_a[:, :k], nn_b[:, :k]
    eq = (a[:, :, None] == b[:, None, :]) & (a[:, :, None] >= 0)
    return eq.any(axis=2).sum(axis=1)


def n2o(nn_a: np.ndarray, nn_b: np.ndarray, k: int | None = None) -> float:
    """N2O(A, B) = Σ_q |NN_A(q) ∩ NN_B(q)| / (k · n) ∈ [0, 1] for one query sample."""
    counts = overlap_counts(nn_a, nn_b, k)
    k = k or min(np.shape(nn_a)[1], np.shape(nn_b)[1])
    return float(counts.sum() / (k * len(counts)))


@dataclass
class NeighborSet:
    """Neighbour lists of one embedder over a fixed corpus and fixed query samples.

    ``ids[s, j]`` are the ranked corpus row ids (``k_max`` of them) of query ``query_ids[s, j]``.
    """

    name: str
    ids: np.ndarray  # (samples, n, k_max) int64
    query_ids: np.ndarray  # (samples, n) int64
    corpus_fingerprint: str
    corpus_size: int
    seed: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ids = np.asarray(self.ids, dtype=np.int64)
        self.query_ids = np.asarray(self.query_ids, dtype=np.int64)
        if self.ids.ndim != 3 or self.ids.shape[:2] != self.query_ids.shape:
            raise InputError(
                f"{self.name}: neighbour ids {self.ids.shape} do not match query ids {self.query_ids.shape}."
            )

    @property
    def k_max(self) -> int:
        return int(self.ids.shape[2])

    @property
    def samples(self) -> int:
        return int(self.ids.shape[0])


def _how_queries_differ(a: NeighborSet, b: NeighborSet) -> str:
    """What differs between the query samples of ``a`` and ``b``, in words: the seed, the number of samples, the
    number of queries per sample, or the first query that differs."""
    (sa, na), (sb, nb) = a.query_ids.shape, b.query_ids.shape
    if a.seed is not None and b.seed is not None and a.seed != b.seed:
        return f"seed {a.seed} vs {b.seed}"
    if sa != sb:
        return f"{sa} query sample(s) vs {sb}"
    if na != nb:
        return f"{na} queries per sample vs {nb}"
    s, j = (int(x) for x in np.argwhere(a.query_ids != b.query_ids)[0])
    return f"query {j} of sample {s} is sentence {a.query_ids[s, j]} vs {b.query_ids[s, j]}"


def check_compatible(sets: Sequence[NeighborSet], k: int | None = None) -> int:
    """Raise :class:`InputError` unless all sets share corpus, queries (and hence seed); return usable k."""
    if len(sets) < 2:
        raise InputError(f"N2O compares at least two embedders; got {len(sets)}.")
    names = [s.name for s in sets]
    if len(set(names)) != len(names):
        raise InputError(f"embedder names must be unique; got {names}.")
    ref = sets[0]
    for s in sets[1:]:
        if s.corpus_fingerprint != ref.corpus_fingerprint or s.corpus_size != ref.corpus_size:
            raise InputError(
                f"{s.name} was run on a different corpus ({s.corpus_fingerprint}, {s.corpus_size} sentences) "
                f"than {ref.name} ({ref.corpus_fingerprint}, {ref.corpus_size}); N2O needs one corpus."
            )
        if s.query_ids.shape != ref.query_ids.shape or not np.array_equal(s.query_ids, ref.query_ids):
            raise InputError(
                f"{s.name} and {ref.name} used different query samples: {_how_queries_differ(s, ref)}; "
                "N2O compares neighbours of the same queries: rerun with the same seed, queries and samples."
            )
        if s.seed is not None and ref.seed is not None and s.seed != ref.seed:
            raise InputError(
                f"{s.name} and {ref.name} list the same queries under different seeds ({s.seed} vs {ref.seed}): "
                "one seed draws one set of queries, so one file was edited; rerun with the same seed."
            )
    k_max = min(s.k_max for s in sets)
    if k is None:
        return k_max
    if k < 1 or k > k_max:
        raise InputError(f"k={k} is not available: the stored neighbour lists go up to k={k_max}.")
    return int(k)


@dataclass
class N2OMatrix:
    """N2O between every pair of models, per query sample: `per_sample[s, a, b]` = overlap of A and B in sample s."""

    names: list[str]
    k: int
    per_sample: np.ndarray  # (samples, m, m)

    @property
    def mean(self) -> np.ndarray:
        return self.per_sample.mean(axis=0)

    @property
    def std(self) -> np.ndarray:
        return self.per_sample.std(axis=0)


def n2o_matrix(sets: Sequence[NeighborSet], k: int | None = None) -> N2OMatrix:
    """N2O for every pair of embedders, per query sample (diagonal = 1)."""
    k = check_compatible(sets, k)
    m, samples = len(sets), sets[0].samples
    out = np.ones((samples, m, m), dtype=np.float64)
    for s in range(samples):
        for i, j in combinations(range(m), 2):
            out[s, i, j] = out[s, j, i] = n2o(sets[i].ids[s], sets[j].ids[s], k)
    return N2OMatrix([x.name for x in sets], k, out)


def _pair_values(matrix: np.ndarray) -> np.ndarray:
    iu = np.triu_indices(matrix.shape[-1], 1)
    return matrix[..., iu[0], iu[1]]


def _mean_min_spearman(vectors: Sequence[np.ndarray]) -> dict[str, float | None]:
    from scipy.stats import spearmanr

    rhos = []
    for a, b in combinations(vectors, 2):
        if len(a) < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
            continue  # ρ undefined for a constant ranking
        rhos.append(float(spearmanr(a, b).statistic))
    if not rhos:
        return {"mean": None, "min": None, "count": 0}
    return {"mean": float(np.mean(rhos)), "min": float(np.min(rhos)), "count": len(rhos)}


def robustness(sets: Sequence[NeighborSet], *, ks: Sequence[int] = PAPER_KS, k: int | None = None) -> dict[str, Any]:
    """§6 robustness: Spearman ρ between rankings of embedder pairs.

    - ``across_k``: for every k in ``ks`` (those ≤ the stored k), the vector of pair N2O values
      (mean over samples); ρ between every two k.
    - ``across_samples``: at ``k`` (default: largest available), the pair vector of each sample;
      ρ between every two samples.
    - ``sample_std``: std of each pair's N2O across samples (mean / min / max).
    ρ needs at least three embedders (three pairs); with fewer it is ``None``.
    """
    k_top = check_compatible(sets, k)
    usable = [kk for kk in ks if kk <= min(s.k_max for s in sets)]
    by_k = [_pair_values(n2o_matrix(sets, kk).mean) for kk in usable]
    at_k = n2o_matrix(sets, k_top)
    pair_samples = _pair_values(at_k.per_sample)  # (samples, pairs)
    std = _pair_values(at_k.std)
    return {
        "k": k_top,
        "ks": list(usable),
        "pairs": int(pair_samples.shape[1]),
        "across_k": _mean_min_spearman(by_k),
        "across_samples": _mean_min_spearman(list(pair_samples)),
        "sample_std": {"mean": float(std.mean()), "min": float(std.min()), "max": float(std.max())},
    }


def popular_and_outlier_neighbors(
    sets: Sequence[NeighborSet],
    *,
    sample: int = 0,
    query: int = 0,
    popular_k: int = 5,
    k: int | None = None,
    exclusive_k: int = 50,
) -> dict[str, Any]:
    """§7 for one query (position ``query`` in sample ``sample``).

    ``popular``: corpus ids in the top ``popular_k`` of *every* embedder.  ``outliers[name]``: ids in
    ``name``'s top ``k`` that no other embedder has in its top ``exclusive_k`` (each with its rank).
    """
    k = check_compatible(sets, k)
    if exclusive_k > min(s.k_max for s in sets):
        raise InputError(f"exclusive_k={exclusive_k} exceeds the stored neighbours ({min(s.k_max for s in sets)}).")
    if popular_k > k:
        raise InputError(f"popular_k={popular_k} must not exceed k={k}.")
    lists = [s.ids[sample, query] for s in sets]
    popular = set(lists[0][:popular_k].tolist())
    for ids in lists[1:]:
        popular &= set(ids[:popular_k].tolist())
    outliers: dict[str, list[dict[str, int]]] = {}
    for i, s in enumerate(sets):
        others = set()
        for j, ids in enumerate(lists):
            if j != i:
                others.update(ids[:exclusive_k].tolist())
        outliers[s.name] = [
            {"id": int(c), "rank": r + 1} for r, c in enumerate(lists[i][:k].tolist()) if c not in others
        ]
    return {
        "query_id": int(sets[0].query_ids[sample, query]),
        "popular": sorted(int(c) for c in popular),
        "outliers": outliers,
    }


# --- needle in a haystack (§8) -----------------------------------------------------------------
def needle_ranks(
    corpus: np.ndarray,
    queries: np.ndarray,
    needles: np.ndarray,
    *,
    exclude: Sequence[Sequence[int]] | None = None,
    block_bytes: int = DEFAULT_BLOCK_BYTES,
) -> np.ndarray:
    """Rank of each needle among ``corpus ∪ {needle}`` for its query (1 = nearest).

    Each needle is added to the corpus on its own (as in the paper, temporarily).  rank = 1 + number
    of corpus rows with cosine ≥ the needle's cosine (ties count against the needle), ignoring the
    corpus rows listed in ``exclude[i]`` (e.g. copies of the query or of the needle in the corpus).
    Exact for the vectors as float32, whatever the BLAS (filter and refine, :mod:`.exact_scores`).
    """
    queries = np.asarray(queries, dtype=np.float32)
    needles = np.asarray(needles, dtype=np.float32)
    if queries.shape != needles.shape:
        raise InputError(f"queries {queries.shape} and needles {needles.shape} must pair up one to one.")
    corpus_size = len(corpus)
    inv = corpus_inverse_norms(corpus)
    cos = _ExactCosine(corpus, inv)
    chunk = max(1, int(block_bytes // (4 * max(corpus_size, 1))))
    ranks = np.empty(len(queries), dtype=np.int64)
    for start in range(0, len(queries), chunk):
        q = queries[start : start + chunk]
        q_up = _norm_up(q)
        keys = _filter_keys(q, corpus, inv)
        for r in range(len(q)):
            i = start + r
            q64 = q[r].astype(np.float64)
            n64 = needles[i].astype(np.float64)
            n_norm = math.sqrt(float((n64 * n64).sum()))
            target = float((q64 * n64).sum()) / n_norm if n_norm > 0 else 0.0
            margin = float(cos.filter_error(q_up[r]) + cos.refine_error(q_up[r]))
            hi = xs.round_outward(target + margin, np.float32, up=True)
            lo = xs.round_outward(target - margin, np.float32, up=False)
            above = keys[r] > hi
            band = np.flatnonzero((keys[r] >= lo) & ~above)
            counted = set(np.flatnonzero(above).tolist()) if exclude is not None and len(exclude[i]) else None
            count = int(np.count_nonzero(above))
            if band.size:
                t = cos.refine(q64, band)
                window = 2.0 * float(cos.refine_error(q_up[r]))
                sure = t - target > window
                unsure = band[np.abs(t - target) <= window]
                hits = band[sure].tolist()
                if unsure.size:
                    q_ints = xs.exact_integers(q[r : r + 1])[0]
                    n_ints = xs.exact_integers(needles[i : i + 1])[0]
                    ref = (xs.exact_dot(q_ints, n_ints), xs.exact_dot(n_ints, n_ints))
                    hits += [j for j in unsure.tolist() if xs.cmp_cos_exact(*cos.exact_key(q_ints, j), *ref) >= 0]
                count += len(hits)
                if counted is not None:
                    counted.update(hits)
            if counted is not None:
                if exclude is None:  # counted is only built when there is an exclude list
                    raise AssertionError("counted without exclude")
                count -= sum(1 for c in set(exclude[i]) if c in counted)
            ranks[i] = count + 1
        del keys
    return ranks


def needle_scores(ranks: np.ndarray) -> dict[str, float | int]:
    """MRR, number at rank 1, number within the top 5 (the paper's Table 4 columns)."""
    ranks = np.asarray(ranks)
    if len(ranks) == 0:
        raise InputError("no needle pairs to score.")
    return {
        "needle_mrr": float(np.mean(1.0 / ranks)),
        "needle_top1": int((ranks == 1).sum()),
        "needle_top5": int((ranks <= 5).sum()),
        "needle_mean_rank": float(ranks.mean()),
        "needle_count": int(len(ranks)),
    }
