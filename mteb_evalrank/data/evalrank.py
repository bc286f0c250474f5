"""The EvalRank evaluation set as arrays: unique background texts and (query, positive) index pairs.

EvalRank (Wang et al., 2022, §4) ranks the positive of each query among the whole background C.
:class:`EvalRankData` turns the two tables of a built dataset (``pairs``: query, positive, source;
``background``: text) into the index form the ranking core needs, and rejects inconsistent data
with messages that say what is wrong: duplicated background items, a pair whose text is not in the
background, empty tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteb_evalrank.errors import InputError


@dataclass(frozen=True)
class EvalRankData:
    """Background texts (unique, in dataset order) and pairs as row indices into them."""

    texts: list[str]
    query_idx: np.ndarray
    positive_idx: np.ndarray
    sources: np.ndarray  # one source name per pair (object array of str)

    @classmethod
    def from_texts(
        cls,
        background: Sequence[str],
        queries: Sequence[str],
        positives: Sequence[str],
        sources: Sequence[str] | None = None,
        *,
        name: str = "dataset",
    ) -> EvalRankData:
        """Index the pairs into the background; raise :class:`InputError` on inconsistent data."""
        texts = list(background)
        if not texts:
            raise InputError(f"{name}: the background is empty.")
        if len(queries) == 0:
            raise InputError(f"{name}: there are no (query, positive) pairs.")
        if len(queries) != len(positives):
            raise InputError(f"{name}: {len(queries)} queries but {len(positives)} positives.")
        if sources is not None and len(sources) != len(queries):
            raise InputError(f"{name}: {len(sources)} source labels for {len(queries)} pairs.")
        bad_text = [i for i, t in enumerate(texts) if not isinstance(t, str) or not t.strip()]
        if bad_text:
            raise InputError(f"{name}: {len(bad_text)} background items are empty or not text (rows {bad_text[:3]}).")
        index = {t: i for i, t in enumerate(texts)}
        if len(index) != len(texts):
            dupes = [t for t, c in Counter(texts).items() if c > 1]
            raise InputError(
                f"{name}: the background must hold unique items; {len(texts) - len(index)} duplicates, "
                f"e.g. {dupes[:3]!r}."
            )

        def _lookup(column: Sequence[str], what: str) -> np.ndarray:
            out = np.empty(len(column), dtype=np.int64)
            for row, text in enumerate(column):
                i = index.get(text)
                if i is None:
                    raise InputError(
                        f"{name}: the {what} of pair {row} ({str(text)[:80]!r}) is not in the background; "
                        "every query and positive must be a background item."
                    )
                out[row] = i
            return out

        q = _lookup(queries, "query")
        p = _lookup(positives, "positive")
        src = np.asarray(list(sources) if sources is not None else ["all"] * len(q), dtype=object)
        return cls(texts=texts, query_idx=q, positive_idx=p, sources=src)

    @property
    def n_pairs(self) -> int:
        return len(self.query_idx)

    def subset_rows(self, source: str | None) -> np.ndarray:
        """Row indices of the pairs of one source (``None`` or ``"all"``: every pair)."""
        if source in (None, "all"):
            return np.arange(self.n_pairs)
        return np.flatnonzero(self.sources == source)
