"""Static word vectors (GloVe, word2vec, fastText) as bag-of-words MTEB encoders.

Behaviour follows the EvalRank reference toolkit (``Word_embedding_model`` and the BOW sentence
encoder):

- the vocabulary is lowercased when loaded; when two entries collide after lowercasing, the first
  one in the file wins (the reference does the same), and the vocabulary mean is taken over the
  entries kept;
- a sentence is lowercased and split on whitespace; its embedding is the mean of the vectors of its
  in-vocabulary tokens; a sentence with none gets a zero vector + 1e-9;
- for word-level evaluation (tasks named in :data:`WORD_LEVEL_TASKS`) each input is looked up as a
  whole (lowercased, surrounding whitespace stripped) and an out-of-vocabulary word gets the mean
  vector of the vocabulary.  Stop words are not applied at word level.  The word-similarity tasks
  also read the vocabulary itself (:func:`word_vocabulary_of`): its centring mean and which words are
  out of vocabulary (see :mod:`mteb_evalrank.metrics.word_similarity`).

Unlike the reference, which silently skips lines with fewer than 25 fields, files are validated
strictly: a malformed line raises :class:`~mteb_evalrank.errors.SourceFormatError` naming the file
and the line.

**Stop words.**  ``stop_words=None`` (default) averages every token, as the EvalRank reference does.
``stop_words="sbert"`` drops the English stop-word list of sentence-transformers' word tokenizers
(386 entries: punctuation and function words, *including "not", "no", "nor", "never"*), and
``strip_punctuation=True`` adds that tokenizer's fallback of stripping punctuation from tokens not
found as they are.  Both together reproduce sentence-transformers' ``average_word_embeddings_glove``
models.  The HEROS paper's GloVe numbers (negation ≈ 0.99) match such a tokenizer that drops "not":
a sentence and its negation then have nearly the same bag of words.  Plain averaging gives different
(lower) negation scores.  The choice is recorded in the model meta's ``experiment_kwargs``, so MTEB
files results of each choice in their own folder (``<name>/<revision>/<experiment>/``).

Supported formats (see :func:`load_word_vectors`): text (``word v1 ... vD`` per line, optional
word2vec header ``N D``, optionally gzip-compressed), and a ``.npy`` matrix with a vocabulary
(``.txt`` one word per line, or ``.parquet`` with one string column).  ``.npy`` files are
memory-mapped.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import string
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder
from mteb.models.model_meta import ModelMeta, ScoringFunction

from mteb_evalrank.errors import EvalRankWarning, InputError, SourceFormatError

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

#: Tasks whose inputs are single words: out-of-vocabulary words get the vocabulary mean.  EvalRankWord
#: and the 13 word-similarity tasks (``mteb_evalrank.tasks.word_similarity``; a test keeps the two lists equal).
WORD_LEVEL_TASKS: set[str] = {
    "EvalRankWord",
    "WS-353-All", "WS-353-Rel", "WS-353-Sim", "RW-STANFORD", "MEN-TR-3K", "MTurk-287", "MTurk-771",
    "SimLex-999", "SimVerb-3500", "MC-30", "RG-65", "YP-130", "VERB-143",
}  # fmt: skip

#: Value added to the zero vector of a sentence without any in-vocabulary token (reference: 1e-9).
EMPTY_SENTENCE_VALUE = 1e-9

# sentence-transformers' ENGLISH_STOP_WORDS (sentence_transformers/.../tokenizer/word.py, Apache-2.0),
# copied so that using it does not import transformers.
_SBERT_ENGLISH_STOP_WORDS = frozenset(
    """
    ! " '' `` # $ % & ' ( ) * + , - . / : ; < = > ? @ [ \\ ] ^ _ ` { | } ~
    a about above across after afterwards again against ain all almost alone along already also
    although always am among amongst amoungst amount an and another any anyhow anyone anything anyway
    anywhere are aren around as at back be became because become becomes becoming been before
    beforehand behind being below beside besides between beyond bill both bottom but by call can
    cannot cant co con could couldn couldnt cry d de describe detail did didn do does doesn doing don
    done down due during each eg eight either eleven else elsewhere empty enough etc even ever every
    everyone everything everywhere except few fifteen fifty fill find fire first five for former
    formerly forty found four from front full further get give go had hadn has hasn hasnt have haven
    having he hence her here hereafter hereby herein hereupon hers herself him himself his how however
    hundred i ie if in inc indeed interest into is isn it its itself just keep last latter latterly
    least less ll ltd m ma made many may me meanwhile might mightn mill mine more moreover most mostly
    move much must mustn my myself name namely needn neither never nevertheless next nine no nobody
    none noone nor not nothing now nowhere o of off often on once one only onto or other others
    otherwise our ours ourselves out over own part per perhaps please put rather re s same see seem
    seemed seeming seems serious several shan she should shouldn show side since sincere six sixty so
    some somehow someone something sometime sometimes somewhere still such system t take ten than that
    the their theirs them themselves then thence there thereafter thereby therefore therein thereupon
    these they thick thin third this those though three through throughout thru thus to together too
    top toward towards twelve twenty two un under until up upon us ve very via was wasn we well were
    weren what whatever when whence whenever where whereafter whereas whereby wherein whereupon
    wherever whether which while whither who whoever whole whom whose why will with within without
    won would wouldn y yet you your yours yourself yourselves
    """.split()
)

#: Named stop-word presets accepted by ``stop_words=``.
STOP_WORD_PRESETS: dict[str, frozenset[str]] = {
    "sbert": _SBERT_ENGLISH_STOP_WORDS,
    "sentence-transformers": _SBERT_ENGLISH_STOP_WORDS,
}

_TEXT_SUFFIXES = (".txt", ".vec", ".glove", ".w2v")
_VOCAB_SUFFIXES = (".txt", ".vocab", ".parquet")
_PROGRESS_MIN_BYTES = 32 * 2**20
_CHUNK_LINES = 20_000


# --- stop words --------------------------------------------------------------------------------
def resolve_stop_words(stop_words: str | Iterable[str] | None) -> tuple[frozenset[str], Any]:
    """Return ``(set, label)`` for a stop-word option.

    ``label`` is what goes into ``experiment_kwargs``: the preset name, the sorted word list for a
    custom set (MTEB hashes long values into the folder name), or ``None`` for no stop words.
    """
    if stop_words is None:
        return frozenset(), None
    if isinstance(stop_words, str):
        key = stop_words.strip().lower()
        if key in STOP_WORD_PRESETS:
            return STOP_WORD_PRESETS[key], "sbert"
        raise InputError(
            f"unknown stop-word preset {stop_words!r}; use one of {sorted(STOP_WORD_PRESETS)}, "
            "a set of words, or None"
        )
    words = frozenset(str(w).lower() for w in stop_words)
    if not words:
        return frozenset(), None
    if words == _SBERT_ENGLISH_STOP_WORDS:
        return words, "sbert"
    return words, sorted(words)


# --- hashing -----------------------------------------------------------------------------------
_HASH_CACHE: dict[tuple[str, int, int], str] = {}


def file_digest(path: str | os.PathLike, *, length: int = 12) -> str:
    """Short SHA-256 of a file's content (cached per path, size and mtime in this process)."""
    p = Path(path).resolve()
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key not in _HASH_CACHE:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(4 * 2**20), b""):
                h.update(block)
        _HASH_CACHE[key] = h.hexdigest()
    return _HASH_CACHE[key][:length]


def files_digest(paths: Sequence[str | os.PathLike], *, length: int = 12) -> str:
    """Short hash over the contents of several files (order matters)."""
    if len(paths) == 1:
        return file_digest(paths[0], length=length)
    h = hashlib.sha256()
    for p in paths:
        h.update(file_digest(p, length=64).encode())
    return h.hexdigest()[:length]


# --- loading -----------------------------------------------------------------------------------
@dataclass
class WordVectors:
    """A vector matrix with its vocabulary (rows aligned with ``words``)."""

    matrix: np.ndarray  # (n, d) float32, possibly memory-mapped
    words: list[str]
    sources: tuple[Path, ...] = ()
    lowercase: bool = True
    word2id: dict[str, int] = field(init=False, repr=False)
    mean_vector: np.ndarray = field(init=False, repr=False)
    _statistics: dict[bool, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.matrix.ndim != 2:
            raise InputError(f"word vectors must be a 2-D matrix, got shape {self.matrix.shape}")
        if len(self.words) != self.matrix.shape[0]:
            raise InputError(
                f"vocabulary has {len(self.words)} words but the matrix has {self.matrix.shape[0]} rows"
            )
        if self.matrix.shape[0] == 0:
            raise InputError("no word vectors (empty vocabulary)")
        word2id: dict[str, int] = {}
        for i, w in enumerate(self.words):
            key = w.lower() if self.lowercase else w
            if key not in word2id:  # first occurrence wins, as in the reference toolkit
                word2id[key] = i
        self.word2id = word2id
        if self.sources:
            _warn_duplicate_words(self.words, self.sources[-1] if len(self.sources) > 1 else self.sources[0])
        matrix = np.asarray(self.matrix)
        if len(word2id) == matrix.shape[0]:
            self.mean_vector = matrix.mean(axis=0, dtype=np.float32)
        else:
            rows = np.fromiter(word2id.values(), dtype=np.int64, count=len(word2id))
            self.mean_vector = matrix[np.sort(rows)].mean(axis=0, dtype=np.float32)

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.word2id)

    def vector(self, word: str) -> np.ndarray | None:
        i = self.word2id.get(word.lower() if self.lowercase else word)
        return None if i is None else np.asarray(self.matrix[i], dtype=np.float32)

    def lookup(self, word: str) -> int | None:
        """Row of a word as word-level evaluation looks it up (stripped, lowercased), or ``None`` if OOV."""
        return self.word2id.get(word.strip().lower() if self.lowercase else word.strip())

    def oov_mask(self, words: Sequence[str]) -> np.ndarray:
        """``True`` for each word that :meth:`lookup` does not find."""
        return np.fromiter((self.lookup(w) is None for w in words), dtype=bool, count=len(words))

    def kept_rows(self) -> np.ndarray | None:
        """Rows of the entries kept (first of each lowercased word); ``None`` when every row is kept."""
        if len(self.word2id) == self.matrix.shape[0]:
            return None
        return np.sort(np.fromiter(self.word2id.values(), dtype=np.int64, count=len(self.word2id)))

    def similarity_statistics(self, center: bool = True):
        """Centring mean and OOV vectors over the kept entries, as the EvalRank toolkit's word-similarity
        evaluation uses them (:func:`mteb_evalrank.metrics.word_similarity.vocabulary_statistics`; cached)."""
        from mteb_evalrank.metrics.word_similarity import vocabulary_statistics

        key = bool(center)
        if key not in self._statistics:
            rows = self.kept_rows()
            matrix = self.matrix if rows is None else np.asarray(self.matrix)[rows]
            self._statistics[key] = vocabulary_statistics(matrix, center=key)
        return self._statistics[key]

    def mapped(self, transform: Any) -> WordVectors:
        """The same vocabulary with ``transform(matrix)`` as vectors (e.g. a fitted post-processing)."""
        matrix = np.asarray(transform(np.asarray(self.matrix, dtype=np.float32)), dtype=np.float32)
        return WordVectors(matrix, self.words, sources=(), lowercase=self.lowercase)


def _warn_duplicate_words(words: Sequence[str], source: Path) -> None:
    """One warning when the same word has several lines (rows) in a vector file: only its first vector
    is used.  (Words that differ only in case are not counted: a cased file has those on purpose.)"""
    if len(set(words)) == len(words):
        return
    seen: set[str] = set()
    repeated: dict[str, int] = {}
    for w in words:
        if w in seen:
            repeated[w] = repeated.get(w, 1) + 1
        else:
            seen.add(w)
    extra = sum(repeated.values()) - len(repeated)
    examples = ", ".join(repr(w) for w in list(repeated)[:3]) + (", ..." if len(repeated) > 3 else "")
    warnings.warn(
        EvalRankWarning(
            f"{source}: {len(repeated):,} word(s) occur more than once ({examples}); the first vector of each is "
            f"used and {extra:,} later row(s) are ignored."
        ),
        stacklevel=4,
    )


def _is_float(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _open_text(path: Path):
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline="\n")
    return open(path, encoding="utf-8", errors="replace", newline="\n")


def _parse_line_slow(path: Path, line: str, lineno: int, dim: int) -> tuple[str, np.ndarray]:
    """Parse one ``word v1 ... vD`` line, raising a precise error (words may contain spaces)."""
    tokens = line.split(" ")
    while len(tokens) > 1 and tokens[-1] == "":
        tokens.pop()
    n_values = len(tokens) - 1
    if n_values < dim or (n_values > dim and _is_float(tokens[-dim - 1])):
        raise SourceFormatError(
            path, f"expected a word and {dim} values, found {max(n_values, 0)} value{'' if n_values == 1 else 's'}", line=lineno
        )
    word = " ".join(tokens[:-dim])
    values = np.empty(dim, dtype=np.float32)
    for j, tok in enumerate(tokens[-dim:]):
        try:
            values[j] = float(tok)
        except ValueError:
            raise SourceFormatError(
                path, f"non-numeric value {tok!r} in the vector of {word!r}", line=lineno
            ) from None
    if not np.all(np.isfinite(values)):
        raise SourceFormatError(path, f"non-finite value in the vector of {word!r}", line=lineno)
    return word, values


def _parse_chunk(
    path: Path, lines: list[str], linenos: list[int], dim: int
) -> tuple[list[str], np.ndarray]:
    """Parse a chunk of lines: one vectorised numpy parse, with a per-line fallback on any problem."""
    words: list[str] = []
    rests: list[str] = []
    for line in lines:
        word, _, rest = line.partition(" ")
        words.append(word)
        rests.append(rest)
    arr = None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            arr = np.fromstring(" ".join(rests), dtype=np.float32, sep=" ")  # noqa: NPY201
        except (ValueError, DeprecationWarning):
            arr = None
    if arr is not None and arr.size == len(lines) * dim:
        arr = arr.reshape(len(lines), dim)
        if np.all(np.isfinite(arr)):
            return words, arr
    # slow path: words with spaces, or an error to locate
    out = np.empty((len(lines), dim), dtype=np.float32)
    for k, (line, lineno) in enumerate(zip(lines, linenos)):
        words[k], out[k] = _parse_line_slow(path, line, lineno, dim)
    return words, out


def _first_data_line(path: Path) -> tuple[tuple[int, int] | None, int | None, int]:
    """``(header, dim, lineno of the first vector line)`` from the start of a text vectors file."""
    with _open_text(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip()
            if not line:
                continue
            parts = line.split()
            if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                if int(parts[1]) <= 0:
                    raise SourceFormatError(path, f"header gives dimension {parts[1]}", line=lineno)
                return (int(parts[0]), int(parts[1])), int(parts[1]), lineno
            dim = len(line.split(" ")) - 1
            if dim < 1:
                raise SourceFormatError(
                    path, "expected 'word v1 v2 ...' (a word followed by its vector)", line=lineno
                )
            return None, dim, lineno
    return None, None, 0


def _read_text_fast(
    path: Path, *, skip_header: bool, dim: int, total: int | None, show_progress: bool
) -> tuple[np.ndarray, list[str]] | None:
    """pandas' C parser (about 5x faster than numpy's text parsing); ``None`` on any irregularity
    (words with spaces, malformed lines, ...), which the line-by-line reader then handles."""
    try:
        import csv

        import pandas as pd
    except ImportError:  # pragma: no cover
        return None
    from tqdm.auto import tqdm

    words: list[str] = []
    blocks: list[np.ndarray] = []
    try:
        reader = pd.read_csv(
            path,
            sep=" ",
            header=None,
            skiprows=1 if skip_header else 0,
            quoting=csv.QUOTE_NONE,
            doublequote=False,
            keep_default_na=False,
            na_filter=False,
            dtype={0: str},
            engine="c",
            index_col=False,
            chunksize=50_000,
            encoding="utf-8",
            encoding_errors="replace",
        )
        with reader, tqdm(
            total=total, unit=" words", unit_scale=True, desc=f"Reading {path.name}", disable=not show_progress
        ) as bar:
            for chunk in reader:
                if chunk.shape[1] == dim + 2:  # trailing space on every line (fastText .vec)
                    last = chunk.iloc[:, -1]
                    if last.isna().all() or (last.astype(str) == "").all():
                        chunk = chunk.iloc[:, :-1]
                if chunk.shape[1] != dim + 1:
                    return None
                values = chunk.iloc[:, 1:]
                if not all(np.issubdtype(dt, np.number) for dt in values.dtypes):
                    return None
                arr = values.to_numpy(dtype=np.float32)
                if not np.isfinite(arr).all():
                    return None
                col = chunk.iloc[:, 0]
                if not all(isinstance(w, str) for w in col):
                    return None
                words.extend(col.tolist())
                blocks.append(arr)
                bar.update(len(chunk))
    except Exception:  # ParserError (field counts), decoding, ...: let the careful reader report
        return None
    if not blocks:
        return None
    return np.concatenate(blocks, axis=0), words


def read_text_vectors(
    path: str | os.PathLike, *, show_progress: bool | None = None
) -> tuple[np.ndarray, list[str]]:
    """Read a GloVe/word2vec/fastText text file (optionally ``.gz``): ``(matrix, words)``.

    An optional first line ``N D`` (word2vec/fastText header) is checked against the content.
    Blank lines are ignored; words may contain spaces (GloVe 840B).  Raises
    :class:`SourceFormatError` with the line number for a line with the wrong number of values or
    a non-numeric/non-finite value, and for an empty file.
    """
    path = Path(path)
    if not path.is_file():
        raise SourceFormatError(path, "word-vector file not found")
    size = path.stat().st_size
    if show_progress is None:
        show_progress = size >= _PROGRESS_MIN_BYTES
    try:
        header, dim, _ = _first_data_line(path)
    except (OSError, EOFError) as exc:  # e.g. a corrupt .gz
        raise SourceFormatError(path, f"cannot read word vectors: {exc}") from None
    if dim is None:
        raise SourceFormatError(path, "empty file: no word vectors found")

    result = _read_text_fast(
        path,
        skip_header=header is not None,
        dim=dim,
        total=header[0] if header else None,
        show_progress=show_progress,
    )
    if result is None:
        result = _read_text_careful(path, dim=dim, has_header=header is not None, show_progress=show_progress)
    matrix, words = result
    if not words:
        raise SourceFormatError(path, "empty file: no word vectors found")
    if header is not None and header[0] != len(words):
        raise SourceFormatError(
            path, f"header announces {header[0]} vectors but the file has {len(words)}", line=1
        )
    return matrix, words


def _read_text_careful(
    path: Path, *, dim: int, has_header: bool, show_progress: bool
) -> tuple[np.ndarray, list[str]]:
    """Line-by-line reader: exact line numbers in errors, words containing spaces."""
    from tqdm.auto import tqdm

    all_words: list[str] = []
    blocks: list[np.ndarray] = []
    lines: list[str] = []
    linenos: list[int] = []
    bar = tqdm(
        total=path.stat().st_size if path.suffix != ".gz" else None,
        unit="B",
        unit_scale=True,
        desc=f"Reading {path.name}",
        disable=not show_progress,
    )
    pending_bytes = 0

    def flush() -> None:
        nonlocal pending_bytes
        if lines:
            w, a = _parse_chunk(path, lines, linenos, dim)
            all_words.extend(w)
            blocks.append(a)
            lines.clear()
            linenos.clear()
        bar.update(pending_bytes)
        pending_bytes = 0

    try:
        with _open_text(path) as fh:
            skip = has_header
            for lineno, raw in enumerate(fh, start=1):
                pending_bytes += len(raw)
                line = raw.rstrip()
                if not line:
                    continue
                if skip:
                    skip = False
                    continue
                lines.append(line)
                linenos.append(lineno)
                if len(lines) >= _CHUNK_LINES:
                    flush()
            flush()
    except (OSError, EOFError) as exc:  # e.g. a corrupt .gz
        raise SourceFormatError(path, f"cannot read word vectors: {exc}") from None
    finally:
        bar.close()
    if not blocks:
        return np.zeros((0, dim), dtype=np.float32), []
    return np.concatenate(blocks, axis=0), all_words


def read_vocabulary(path: str | os.PathLike) -> list[str]:
    """Read a vocabulary: ``.parquet`` (one string column, or a column named word/token/index) or
    a text file with one word per line (the whole line minus its line ending is the word)."""
    path = Path(path)
    if not path.is_file():
        raise SourceFormatError(path, "vocabulary file not found")
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several types
            raise SourceFormatError(path, f"cannot read parquet vocabulary: {exc}") from None
        names = table.column_names
        col = None
        if len(names) == 1:
            col = names[0]
        else:
            for cand in ("word", "words", "token", "tokens", "vocab", "index"):
                if cand in names:
                    col = cand
                    break
        if col is None:
            raise SourceFormatError(
                path, f"cannot tell which column holds the words among {names}; "
                "expected one column or a column named word/token/index"
            )
        words = table.column(col).to_pylist()
        bad = next((i for i, w in enumerate(words) if not isinstance(w, str)), None)
        if bad is not None:
            raise SourceFormatError(path, f"column {col!r} row {bad}: {words[bad]!r} is not a string")
        if not words:
            raise SourceFormatError(path, "empty vocabulary")
        return words
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="\n") as fh:
        text = fh.read()
    words = text.split("\n")
    if words and words[-1] == "":
        words.pop()
    words = [w[:-1] if w.endswith("\r") else w for w in words]
    if not words:
        raise SourceFormatError(path, "empty vocabulary file")
    return words


def find_vocabulary_for(matrix_path: str | os.PathLike) -> Path | None:
    """A vocabulary file next to a ``.npy`` matrix: same stem with a vocabulary suffix, or the only
    ``.parquet``/``.txt``/``.vocab`` file in the folder."""
    m = Path(matrix_path)
    for suffix in _VOCAB_SUFFIXES:
        for cand in (m.with_suffix(suffix), m.with_name(m.stem + ".vocab" + suffix)):
            if cand.is_file() and cand != m:
                return cand
    cands = sorted(p for p in m.parent.iterdir() if p.is_file() and p.suffix in _VOCAB_SUFFIXES)
    if len(cands) == 1:
        return cands[0]
    return None


def read_npy_vectors(
    matrix_path: str | os.PathLike, vocab_path: str | os.PathLike | None = None
) -> tuple[np.ndarray, list[str], Path]:
    """Memory-map a ``.npy`` matrix and read its vocabulary: ``(matrix, words, vocab_path)``."""
    matrix_path = Path(matrix_path)
    if not matrix_path.is_file():
        raise SourceFormatError(matrix_path, "matrix file not found")
    if vocab_path is None:
        vocab_path = find_vocabulary_for(matrix_path)
        if vocab_path is None:
            raise SourceFormatError(
                matrix_path,
                "no vocabulary found next to the matrix; name it like the matrix with .txt/.parquet "
                "or give it as 'matrix.npy:vocab.txt'",
            )
    vocab_path = Path(vocab_path)
    try:
        matrix = np.load(matrix_path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise SourceFormatError(matrix_path, f"not a readable .npy matrix: {exc}") from None
    if matrix.ndim != 2:
        raise SourceFormatError(matrix_path, f"expected a 2-D matrix, got shape {matrix.shape}")
    if matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise SourceFormatError(matrix_path, f"empty matrix (shape {matrix.shape})")
    if not np.issubdtype(matrix.dtype, np.floating):
        raise SourceFormatError(matrix_path, f"expected a float matrix, got dtype {matrix.dtype}")
    if matrix.dtype != np.float32:
        matrix = np.asarray(matrix, dtype=np.float32)
    words = read_vocabulary(vocab_path)
    if len(words) != matrix.shape[0]:
        raise SourceFormatError(
            vocab_path,
            f"vocabulary has {len(words)} words but the matrix {matrix_path.name} has {matrix.shape[0]} rows",
        )
    finite = np.isfinite(matrix).all(axis=1)
    if not finite.all():
        row = int(np.argmin(finite))
        raise SourceFormatError(matrix_path, f"row {row} ({words[row]!r}) has non-finite values")
    return matrix, words, vocab_path


def split_matrix_spec(spec: str | os.PathLike) -> tuple[Path, Path | None]:
    """``'m.npy:vocab.txt'`` → ``(m.npy, vocab.txt)``; any other path → ``(path, None)``."""
    s = os.fspath(spec)
    if not os.path.exists(s) and ":" in s:
        left, right = s.rsplit(":", 1)
        if left.endswith(".npy") and right:
            return Path(left).expanduser(), Path(right).expanduser()
    return Path(s).expanduser(), None


def is_word_vector_path(path: str | os.PathLike) -> bool:
    """Whether a path names a word-vector file by its suffix (.txt/.vec/.gz/.npy/...)."""
    p, _ = split_matrix_spec(path)
    suffixes = [s.lower() for s in p.suffixes]
    if not suffixes:
        return False
    if suffixes[-1] == ".gz":
        return True
    return suffixes[-1] in _TEXT_SUFFIXES or suffixes[-1] == ".npy"


def load_word_vectors(
    path: str | os.PathLike,
    vocab_path: str | os.PathLike | None = None,
    *,
    lowercase: bool = True,
    show_progress: bool | None = None,
) -> WordVectors:
    """Load word vectors from a text file (``.txt``/``.vec``/``.gz``) or a ``.npy`` matrix + vocabulary.

    ``path`` may also be ``'matrix.npy:vocab.txt'``.  For ``.npy`` without ``vocab_path`` the
    vocabulary is looked up next to the matrix (see :func:`find_vocabulary_for`).
    """
    p, spec_vocab = split_matrix_spec(path)
    vocab_path = vocab_path if vocab_path is not None else spec_vocab
    if p.suffix.lower() == ".bin":
        raise InputError(
            f"{p}: binary word2vec files are not supported; convert to text "
            "(gensim: KeyedVectors.load_word2vec_format(path, binary=True).save_word2vec_format(out))"
        )
    if p.suffix.lower() == ".npy":
        matrix, words, vp = read_npy_vectors(p, vocab_path)
        return WordVectors(matrix, words, sources=(p.resolve(), Path(vp).resolve()), lowercase=lowercase)
    if vocab_path is not None:
        raise InputError(f"{p}: a separate vocabulary is only used with a .npy matrix")
    matrix, words = read_text_vectors(p, show_progress=show_progress)
    return WordVectors(matrix, words, sources=(p.resolve(),), lowercase=lowercase)


def default_model_name(path: str | os.PathLike) -> str:
    """``local/<file name without vector suffixes>`` for a vectors file."""
    p, _ = split_matrix_spec(path)
    name = p.name
    for suffix in (".gz", *_TEXT_SUFFIXES, ".npy"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    name = name.replace(" ", "_") or "word-vectors"
    return f"local/{name}"


# --- the encoder -------------------------------------------------------------------------------
def _iter_texts(inputs: Any) -> Iterator[str]:
    """Texts from an MTEB DataLoader (batches of dicts with a "text" list) or a plain list."""
    if isinstance(inputs, str):
        raise InputError("encode() expects a DataLoader or a list of texts, not a single string")
    for item in inputs:
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            if "text" not in item:
                raise InputError(
                    f"StaticWordVectorEncoder encodes text only; batch has keys {sorted(item)}"
                )
            texts = item["text"]
            if isinstance(texts, str):
                yield texts
            else:
                yield from texts
        else:
            raise InputError(f"cannot encode an input of type {type(item).__name__}")


class StaticWordVectorEncoder(AbsEncoder):
    """Bag-of-words encoder over static word vectors (an MTEB ``EncoderProtocol``).

    Args:
        vectors: loaded :class:`WordVectors` (see :func:`load_word_vectors` / :meth:`from_file`).
        name: MTEB model name (``org/name``); default derived from the file name (``local/<stem>``).
        revision: default: a short content hash of the vectors file(s).
        stop_words: ``None`` (plain averaging, the EvalRank reference), ``"sbert"`` (the English
            stop words of sentence-transformers' word tokenizers, which include "not"), or a set.
        strip_punctuation: also try each token with punctuation stripped, as sentence-transformers'
            ``WhitespaceTokenizer`` does (default ``False``, as in the EvalRank reference).
        word_level: force word-level (``True``) or sentence-level (``False``) encoding; default
            ``None`` decides by task name (:data:`WORD_LEVEL_TASKS`).
        meta_overrides: extra ModelMeta fields (license, reference, citation, ...).
    """

    def __init__(
        self,
        vectors: WordVectors,
        *,
        name: str | None = None,
        revision: str | None = None,
        stop_words: str | Iterable[str] | None = None,
        strip_punctuation: bool = False,
        word_level: bool | None = None,
        meta_overrides: Mapping[str, Any] | None = None,
        loader_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        self.vectors = vectors
        self.model = vectors
        self.stop_words, stop_label = resolve_stop_words(stop_words)
        self.strip_punctuation = bool(strip_punctuation)
        self.word_level = word_level
        if name is None:
            name = default_model_name(vectors.sources[0]) if vectors.sources else "local/word-vectors"
        if "/" not in name:
            name = f"local/{name}"
        if revision is None:
            revision = files_digest(vectors.sources) if vectors.sources else "no_revision_available"
        experiment: dict[str, Any] = {}
        if stop_label is not None:
            experiment["stop_words"] = stop_label
        if self.strip_punctuation:
            experiment["strip_punctuation"] = True
        n, d = vectors.matrix.shape
        fields: dict[str, Any] = dict(
            loader=static_word_vectors_loader if vectors.sources else None,
            loader_kwargs=dict(loader_kwargs or self._default_loader_kwargs()),
            name=name,
            revision=revision,
            release_date=None,
            languages=None,
            n_parameters=int(n * d),
            n_embedding_parameters=int(n * d),
            memory_usage_mb=round(n * d * 4 / 2**20, 1),
            max_tokens=None,
            embed_dim=int(d),
            license=None,
            open_weights=True,
            public_training_code=None,
            public_training_data=None,
            framework=["NumPy"],
            similarity_fn_name=ScoringFunction.COSINE,
            use_instructions=False,
            training_datasets=None,
            experiment_kwargs=experiment or None,
        )
        fields.update(meta_overrides or {})
        self.mteb_model_meta = ModelMeta(**fields)

    def _default_loader_kwargs(self) -> dict[str, Any]:
        src = self.vectors.sources
        if not src:
            return {}
        kw: dict[str, Any] = {"vectors_path": str(src[0])}
        if len(src) > 1:
            kw["vocab_path"] = str(src[1])
        if not self.vectors.lowercase:
            kw["lowercase"] = False
        return kw

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike,
        vocab_path: str | os.PathLike | None = None,
        *,
        name: str | None = None,
        revision: str | None = None,
        stop_words: str | Iterable[str] | None = None,
        strip_punctuation: bool = False,
        lowercase: bool = True,
        word_level: bool | None = None,
        show_progress: bool | None = None,
        meta_overrides: Mapping[str, Any] | None = None,
    ) -> StaticWordVectorEncoder:
        """Load a vectors file (see :func:`load_word_vectors`) and wrap it."""
        vectors = load_word_vectors(path, vocab_path, lowercase=lowercase, show_progress=show_progress)
        return cls(
            vectors,
            name=name or default_model_name(path),
            revision=revision,
            stop_words=stop_words,
            strip_punctuation=strip_punctuation,
            word_level=word_level,
            meta_overrides=meta_overrides,
        )

    # -- encoding -------------------------------------------------------------------------------
    def is_word_level(self, task_metadata: TaskMetadata | None) -> bool:
        if self.word_level is not None:
            return self.word_level
        return getattr(task_metadata, "name", None) in WORD_LEVEL_TASKS

    def _token_ids(self, text: str) -> list[int]:
        w2i = self.vectors.word2id
        stop = self.stop_words
        ids: list[int] = []
        for tok in text.lower().split():
            if tok in stop:
                continue
            i = w2i.get(tok)
            if i is None and self.strip_punctuation:
                tok = tok.strip(string.punctuation)
                if not tok or tok in stop:
                    continue
                i = w2i.get(tok)
            if i is not None:
                ids.append(i)
        return ids

    def encode_sentences(self, texts: Sequence[str]) -> np.ndarray:
        """Bag-of-words sentence embeddings: mean of in-vocabulary token vectors (1e-9 if none)."""
        m = self.vectors.matrix
        out = np.empty((len(texts), self.vectors.dim), dtype=np.float32)
        for k, text in enumerate(texts):
            ids = self._token_ids(text)
            if ids:
                out[k] = np.asarray(m[ids], dtype=np.float32).mean(axis=0)
            else:
                out[k] = EMPTY_SENTENCE_VALUE
        return out

    def encode_words(self, words: Sequence[str]) -> np.ndarray:
        """Word embeddings: the word's vector, or the vocabulary mean if out of vocabulary."""
        m = self.vectors.matrix
        out = np.empty((len(words), self.vectors.dim), dtype=np.float32)
        for k, word in enumerate(words):
            i = self.vectors.lookup(word)
            out[k] = self.vectors.mean_vector if i is None else m[i]
        return out

    def word_vocabulary(self) -> WordVectors:
        """The vocabulary behind :meth:`encode_words` (see :func:`word_vocabulary_of`)."""
        return self.vectors

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: TaskMetadata | None = None,
        hf_split: str | None = None,
        hf_subset: str | None = None,
        prompt_type: PromptType | None = None,
        **kwargs: Any,
    ) -> np.ndarray:
        """Encode the texts of an MTEB DataLoader (or a list of strings): ``(n, d)`` float32."""
        texts = list(_iter_texts(inputs))
        if self.is_word_level(task_metadata):
            return self.encode_words(texts)
        return self.encode_sentences(texts)

    def coverage(self, texts: Iterable[str]) -> float:
        """Share of whitespace tokens (after lowercasing and stop words) found in the vocabulary."""
        total = found = 0
        for text in texts:
            toks = [t for t in text.lower().split() if t not in self.stop_words]
            total += len(toks)
            found += len(self._token_ids(text))
        return found / total if total else 0.0

    def __repr__(self) -> str:
        meta = self.mteb_model_meta
        return (
            f"StaticWordVectorEncoder({meta.name!r}, revision={meta.revision!r}, "
            f"vocab={len(self.vectors)}, dim={self.vectors.dim}, experiment={meta.experiment_name!r})"
        )


def word_vocabulary_of(model: Any) -> WordVectors | None:
    """The word vectors behind a word-level encoder, or ``None`` for a model without a vocabulary.

    A model has a vocabulary when it offers ``word_vocabulary()`` (:class:`StaticWordVectorEncoder`,
    the zoo's static variants) returning :class:`WordVectors` whose rows are exactly what the model's
    word-level ``encode`` returns for in-vocabulary words.  MTEB's ``CachedEmbeddingWrapper`` passes
    its inner model's vocabulary through; any other wrapper hides it (it may transform the vectors).
    """
    from mteb.models.cache_wrappers.cache_wrapper import CachedEmbeddingWrapper

    for _ in range(8):
        method = getattr(type(model), "word_vocabulary", None)
        if callable(method):
            vocabulary = model.word_vocabulary()
            return vocabulary if isinstance(vocabulary, WordVectors) else None
        if isinstance(model, CachedEmbeddingWrapper):
            model = model._model
            continue
        return None
    return None


def static_word_vectors_loader(
    model_name: str,
    revision: str | None = None,
    *,
    vectors_path: str,
    vocab_path: str | None = None,
    stop_words: str | Iterable[str] | None = None,
    strip_punctuation: bool = False,
    lowercase: bool = True,
    device: str | None = None,  # noqa: ARG001  (MTEB passes it to every loader)
    **kwargs: Any,
) -> StaticWordVectorEncoder:
    """MTEB ``ModelMeta.loader`` for static vectors (so ``meta.load_model()`` rebuilds the encoder)."""
    if kwargs:
        raise InputError(f"unexpected options for a word-vector model: {sorted(kwargs)}")
    enc = StaticWordVectorEncoder.from_file(
        vectors_path,
        vocab_path,
        name=model_name,
        stop_words=stop_words,
        strip_punctuation=strip_punctuation,
        lowercase=lowercase,
    )
    if revision and revision != enc.mteb_model_meta.revision:
        raise InputError(
            f"{vectors_path}: content hash {enc.mteb_model_meta.revision} differs from the requested "
            f"revision {revision}"
        )
    return enc
