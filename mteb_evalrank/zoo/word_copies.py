"""The word level's copy check: is one installed word set a copy of another (or of a dropped candidate)?

:func:`check_copies` compares every pair of sets on one sample of frequent English words known to all of them
by :func:`~mteb_evalrank.metrics.vector_copies.similarity_structure_correlation` (and token tables of one shape
by their median row cosine); a pair at or above the threshold is a copy.  ``mteb-evalrank build-word-models
--check-copies`` prints :func:`format_copies`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo import word_zoo


def sample_words(n: int = 1000, *, skip: int = 100) -> list[str]:
    """A fixed sample of frequent English words (wordfreq's list, ranks after ``skip``, alphabetic, ≥ 3
    letters) for the copy check."""
    try:
        import wordfreq
    except ImportError:
        raise InputError("the copy check needs wordfreq's word list: pip install wordfreq") from None
    words = [w for w in wordfreq.top_n_list("en", 20_000)[skip:] if w.isalpha() and len(w) >= 3]
    return words[: n * 3]


def _word_matrix(vectors: Any, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(matrix, known)`` of each word (row ``i`` zero where unknown)."""
    if isinstance(vectors, word_zoo.SubwordVectors):
        found = vectors.lookup(list(words))
        known = np.array([v is not None for v in found])
        out = np.zeros((len(words), vectors.dim), dtype=np.float32)
        for i, v in enumerate(found):
            if v is not None:
                out[i] = v
        return out, known
    ids = [vectors.word2id.get(w) for w in words]
    known = np.array([i is not None for i in ids])
    out = np.zeros((len(words), vectors.dim), dtype=np.float32)
    for k, i in enumerate(ids):
        if i is not None:
            out[k] = vectors.matrix[i]
    return out, known


def candidate_sets(include_dropped: bool = True) -> dict[str, Any]:
    """Every installed word set (plain, no ABTT) by base name, plus the dropped candidates that load."""
    from mteb_evalrank.models.static_vectors import WordVectors

    sets: dict[str, Any] = {}
    for name in word_zoo.word_bases():
        if word_zoo.status(name) == "installed":
            sets[name] = word_zoo.load_vectors(name)
    from mteb_evalrank.zoo.engines import engine_of
    from mteb_evalrank.zoo.variants import BASES

    for name, base in BASES.items():  # static bases of other engines that give plain word vectors (GloVe)
        engine = engine_of(base)
        if base.floor or not hasattr(engine, "word_vectors") or engine.status(base) != "installed":
            continue
        with contextlib.suppress(InputError, ImportError):
            vectors = engine.word_vectors(base)
            sets[name] = WordVectors(matrix=np.asarray(vectors.matrix), words=list(vectors.words))
    if include_dropped:
        for d in word_zoo.catalogue()["dropped"]:
            src = d.get("source")
            if src and src["kind"] == "input-embeddings":
                with contextlib.suppress(InputError, ImportError):
                    from tokenizers import Tokenizer

                    matrix, tok = word_zoo.input_embeddings(src["weights"], src["tensor"])
                    sets[d["name"] + " (dropped)"] = word_zoo.SubwordVectors(matrix, Tokenizer.from_file(str(tok)))
    return sets


def check_copies(sets: dict[str, Any] | None = None, *, n_words: int = 1000, threshold: float = 0.98) -> dict[str, Any]:
    """Similarity-structure correlation of every pair of sets on one word sample known to all of them;
    and the median row cosine of token tables of one shape.  Pairs at or above ``threshold`` are copies."""
    from mteb_evalrank.metrics.vector_copies import median_row_cosine, similarity_structure_correlation

    sets = sets if sets is not None else candidate_sets()
    if len(sets) < 2:
        raise InputError("the copy check needs at least two installed word sets.")
    words = sample_words(n_words)
    mats, known = {}, np.ones(len(words), dtype=bool)
    for name, vec in sets.items():
        mats[name], k = _word_matrix(vec, words)
        known &= k
    chosen = np.flatnonzero(known)[:n_words]
    if len(chosen) < 50:
        raise InputError(f"the copy check found only {len(chosen)} sample words known to every set.")
    names = list(sets)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            r = similarity_structure_correlation(mats[a][chosen], mats[b][chosen])
            row = None
            ta, tb = sets[a], sets[b]
            if (
                isinstance(ta, word_zoo.SubwordVectors)
                and isinstance(tb, word_zoo.SubwordVectors)
                and ta.matrix.shape == tb.matrix.shape
            ):
                row = median_row_cosine(ta.matrix, tb.matrix)
            pairs.append({"a": a, "b": b, "r": r, "row_cosine": row, "copy": r >= threshold or (row or 0) >= threshold})
    return {"words": int(len(chosen)), "threshold": threshold, "pairs": pairs, "sets": names}


def format_copies(report: dict[str, Any], *, show_above: float = 0.5) -> str:
    """The pairs with r >= ``show_above`` (and every copy), then each set's closest other set."""
    pairs = sorted(report["pairs"], key=lambda p: -p["r"])
    shown = [p for p in pairs if p["r"] >= show_above or p["copy"]]
    lines = [
        f"copy check on {report['words']} frequent words known to all {len(report['sets'])} sets "
        f"(similarity-structure correlation r; copy if r or the token tables' median row cosine >= "
        f"{report['threshold']}); {len(shown)} of {len(pairs)} pairs have r >= {show_above}:"
    ]
    for p in shown:
        row = f"  row cosine {p['row_cosine']:.4f}" if p["row_cosine"] is not None else ""
        lines.append(f"  r={p['r']:.4f}{row}  {p['a']}  vs  {p['b']}" + ("   <- COPY" if p["copy"] else ""))
    nearest: dict[str, Any] = {}
    for p in report["pairs"]:
        for x, y in ((p["a"], p["b"]), (p["b"], p["a"])):
            if x not in nearest or p["r"] > nearest[x][1]:
                nearest[x] = (y, p["r"])
    lines.append("closest other set of each:")
    lines += [f"  {n}: {nearest[n][0]} (r={nearest[n][1]:.3f})" for n in report["sets"] if n in nearest]
    return "\n".join(lines)
