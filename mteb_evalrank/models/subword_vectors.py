"""Word vectors of the word level that are not one row per word: a token table read through its tokenizer
(:class:`SubwordVectors`) and a pruned table whose words share rows (:func:`shared_row_vectors`, spaCy's vectors).
Both duck-type :class:`~mteb_evalrank.models.static_vectors.WordVectors` where the encoders read it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError

_SPECIAL_TOKEN = re.compile(r"^(\[[A-Za-z0-9_]+\]|<[A-Za-z/_|]+>)$")


class SubwordVectors:
    """A token table with its tokenizer: a word is the mean of its known pieces' rows.

    Duck-types :class:`~mteb_evalrank.models.static_vectors.WordVectors` where the encoders read it
    (``matrix``, ``dim``, ``mean_vector``, ``lowercase``, ``sources``, ``len``); ``word2id`` is empty
    because the vocabulary is open.  ``fit_rows`` marks the rows that are the vocabulary (every
    non-special token): ABTT is fitted on them and ``mean_vector`` is their mean.
    """

    lowercase = True
    sources: tuple[Path, ...] = ()

    def __init__(self, matrix: np.ndarray, tokenizer: Any, *, name: str = "subword") -> None:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] == 0:
            raise InputError(f"{name}: a token table must be a non-empty 2-D matrix, got shape {matrix.shape}.")
        if tokenizer.get_vocab_size() > matrix.shape[0]:
            raise InputError(
                f"{name}: the tokenizer has {tokenizer.get_vocab_size()} tokens, the table {matrix.shape[0]} rows."
            )
        self.name = name
        self.matrix = matrix
        self.tokenizer = tokenizer
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        special = np.zeros(matrix.shape[0], dtype=bool)
        for token, i in tokenizer.get_vocab(with_added_tokens=True).items():
            if i < len(special) and _SPECIAL_TOKEN.match(token):
                special[i] = True
        for i, added in _added_tokens(tokenizer).items():
            if i < len(special) and getattr(added, "special", False):
                special[i] = True
        self.special = special
        self.fit_rows = ~special
        self.mean_vector = matrix[self.fit_rows].mean(axis=0, dtype=np.float64).astype(np.float32)
        self.word2id: dict[str, int] = {}
        self._cache: dict[str, np.ndarray | None] = {}

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return int(self.fit_rows.sum())

    def with_matrix(self, matrix: np.ndarray) -> SubwordVectors:
        """The same tokenizer over another table (e.g. after ABTT)."""
        out = SubwordVectors.__new__(SubwordVectors)
        out.__dict__.update(self.__dict__)
        out.matrix = np.asarray(matrix, dtype=np.float32)
        out.mean_vector = out.matrix[self.fit_rows].mean(axis=0, dtype=np.float64).astype(np.float32)
        out._cache = {}
        return out

    def piece_ids(self, words: Sequence[str]) -> list[list[int]]:
        """The known, non-special piece ids of each (already lowercased) word."""
        encodings = self.tokenizer.encode_batch(list(words), add_special_tokens=False)
        keep = self.fit_rows
        return [[i for i in e.ids if i < len(keep) and keep[i]] for e in encodings]

    def lookup(self, words: Sequence[str]) -> list[np.ndarray | None]:
        """Each word's vector (mean of its pieces' rows), ``None`` when it has no known piece."""
        todo = [w for w in dict.fromkeys(words) if w not in self._cache]
        if todo:
            for w, ids in zip(todo, self.piece_ids(todo)):
                self._cache[w] = self.matrix[ids].mean(axis=0, dtype=np.float64).astype(np.float32) if ids else None
        return [self._cache[w] for w in words]

    def vector(self, word: str) -> np.ndarray | None:
        return self.lookup([word.strip().lower()])[0]


def _added_tokens(tokenizer: Any) -> dict[int, Any]:
    getter = getattr(tokenizer, "get_added_tokens_decoder", None)
    try:
        return dict(getter()) if getter is not None else {}
    except Exception:
        return {}


def shared_row_vectors(table: np.ndarray, words: Sequence[str], rows: np.ndarray):
    """A :class:`WordVectors` whose words share the rows of a pruned ``table`` (spaCy's vectors).

    ``words[i]`` has the vector ``table[rows[i]]``; the vocabulary mean is the mean over the words.
    """
    from mteb_evalrank.models.static_vectors import WordVectors

    table = np.asarray(table, dtype=np.float32)
    rows = np.asarray(rows, dtype=np.int64)
    if len(words) != len(rows) or rows.min(initial=0) < 0 or rows.max(initial=0) >= table.shape[0]:
        raise InputError(
            f"shared-row vectors: {len(words)} words, {len(rows)} row indices, table of {table.shape[0]} rows."
        )
    vectors = WordVectors(matrix=table, words=[f"\x00row{i}" for i in range(table.shape[0])])
    vectors.words = list(words)
    vectors.word2id = {}
    for w, r in zip(words, rows):
        vectors.word2id.setdefault(vectors.key(w), int(r))
    kept = np.fromiter(vectors.word2id.values(), dtype=np.int64, count=len(vectors.word2id))
    vectors.mean_vector = table[kept].mean(axis=0, dtype=np.float64).astype(np.float32)
    vectors.rows = rows  # type: ignore[attr-defined]
    return vectors
