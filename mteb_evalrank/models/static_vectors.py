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
import os
import re
import string
import warnings
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder
from mteb.models.model_meta import ModelMeta, ScoringFunction

from mteb_evalrank.hashing import file_sha256, files_sha256
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
def file_digest(path: str | os.PathLike, *, length: int = 12) -> str:
    """Short SHA-256 of a file's content, cached per path, size and mtime in this process (the package's one
    hashing function, :func:`mteb_evalrank.hashing.file_sha256`)."""
    return file_sha256(path, length=length, cached=True)


def files_digest(paths: Sequence[str | os.PathLike], *, length: int = 12) -> str:
    """Short hash over the contents of several files (order matters): :func:`mteb_evalrank.hashing.files_sha256`."""
    return files_sha256(paths, length=length)


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


# --- the text format -------------------------------------------------------------------------------
# One definition of a valid text file, which both readers below implement exactly (the property tests in
# tests/test_word_vector_parsing.py check them against a plain line-by-line parser):
#
# - the file is UTF-8 (a byte-order mark at its start is dropped); lines end with "\n"; trailing whitespace
#   of a line (a fastText ".vec" space, a Windows "\r") is ignored, and so are blank lines;
# - the first non-blank line may be a word2vec header "N D" (two whole numbers); D, else the number of
#   space-separated fields after the first one on the first row, is the dimension;
# - every other non-blank line is "word v1 ... vD": the last D space-separated fields are the values and
#   whatever comes before them is the word (GloVe 840B has words with spaces), which must not be empty; a
#   value is a decimal number (``_NUMBER``), finite as a float32 (read as a float64, then rounded);
# - a line with fewer than D values, or with more (the field before the last D is a number too), is an
#   error naming the file, the line, the word and both counts; so is a non-numeric or non-finite value.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_HEADER = re.compile(r"([0-9]+)\s+([0-9]+)")
_BOM = b"\xef\xbb\xbf"
#: Bytes read and parsed at a time (the fast reader's unit, and the careful reader's when it takes over).
_BLOCK_BYTES = 64 * 2**20


def _is_value_token(token: str) -> bool:
    """A field that reads as a number (finite or not): counted when a row has too many values."""
    return _NUMBER.fullmatch(token) is not None or _NON_FINITE.fullmatch(token) is not None


def _not_utf8(path: Path, data: bytes, exc: UnicodeDecodeError, first_line: int) -> SourceFormatError:
    """The error for bytes that are not UTF-8: the line, the byte and its column (1-based, in bytes)."""
    line = first_line + data.count(b"\n", 0, exc.start)
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    return SourceFormatError(
        path,
        f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column} cannot be decoded ({exc.reason}); "
        "save the word-vector file as UTF-8 (e.g. iconv -f latin1 -t utf-8)",
        line=line,
    )


@dataclass(frozen=True)
class _Layout:
    """What the start of a text vectors file says: the header ``(N, D)`` if any, the dimension, where it
    comes from (for messages) and how many lines (header and blank lines before it) precede the rows."""

    header: tuple[int, int] | None
    dim: int
    dim_source: str
    lines_before_rows: int


def _ragged(path: Path, lineno: int, word: str, found: int, layout_dim: int, dim_source: str) -> SourceFormatError:
    return SourceFormatError(
        path,
        f"the vector of {word!r} has {found} value{'' if found == 1 else 's'}, expected {layout_dim} "
        f"(the dimension of {dim_source}); every row must be a word and {layout_dim} values",
        line=lineno,
    )


def _parse_line_strict(path: Path, line: str, lineno: int, dim: int, dim_source: str) -> tuple[str, np.ndarray]:
    """One non-blank line, trailing whitespace removed, by the definition above (every error named)."""
    tokens = line.split(" ")
    n_fields = len(tokens) - 1
    if n_fields < dim:
        raise _ragged(path, lineno, tokens[0], max(n_fields, 0), dim, dim_source)
    trailing = 0
    for token in reversed(tokens[1:]):
        if not _is_value_token(token):
            break
        trailing += 1
    if trailing > dim:
        raise _ragged(path, lineno, " ".join(tokens[: len(tokens) - trailing]), trailing, dim, dim_source)
    word = " ".join(tokens[:-dim])
    if not word:
        raise SourceFormatError(path, "the line starts with a space: no word before the values", line=lineno)
    fields = tokens[-dim:]
    for token in fields:
        if _NON_FINITE.fullmatch(token):
            raise SourceFormatError(path, f"non-finite value {token!r} in the vector of {word!r}", line=lineno)
        if not _NUMBER.fullmatch(token):
            raise SourceFormatError(path, f"non-numeric value {token!r} in the vector of {word!r}", line=lineno)
    with np.errstate(over="ignore"):
        values = np.array([float(token) for token in fields], dtype=np.float64).astype(np.float32)
    if not np.isfinite(values).all():
        bad = fields[int(np.argmin(np.isfinite(values)))]
        raise SourceFormatError(
            path, f"value {bad} in the vector of {word!r} is beyond the float32 range (non-finite)", line=lineno
        )
    return word, values


def _fromstring_exact(text: str, count: int) -> np.ndarray | None:
    """``count`` float32 values from single-space-separated numbers, or ``None`` if that is not what ``text``
    holds (numpy reads each number as a float64, correctly rounded, then rounds it to float32)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns (DeprecationWarning) instead of raising on unread data
        try:
            with np.errstate(over="ignore"):
                arr = np.fromstring(text, dtype=np.float32, sep=" ")  # noqa: NPY201
        except (ValueError, DeprecationWarning, RuntimeWarning):
            return None
    if arr.size != count or not np.isfinite(arr).all():
        return None
    return arr


def _parse_lines(
    path: Path, lines: Sequence[str], linenos: Sequence[int], dim: int, dim_source: str
) -> tuple[list[str], np.ndarray]:
    """Parse stripped non-blank lines: the lines made of a word and ``dim`` single-space-separated fields in
    one numpy call, the others (words with spaces) one by one; any problem is located line by line."""
    simple = [k for k, line in enumerate(lines) if line.count(" ") == dim and line[0] != " "]
    parts = [lines[k].partition(" ") for k in simple]
    joined = " ".join(p[2] for p in parts)
    arr = None
    if simple and "  " not in joined and not joined.startswith(" ") and not any(c in joined for c in "\t\n\v\f\r"):
        arr = _fromstring_exact(joined, len(simple) * dim)
    words: list[str] = [""] * len(lines)
    if arr is None:  # an error somewhere (or odd but valid lines): line by line, the first bad line in file order
        rows = []
        for k, (line, lineno) in enumerate(zip(lines, linenos)):
            words[k], row = _parse_line_strict(path, line, lineno, dim, dim_source)
            rows.append(row)
        return words, np.stack(rows)
    out = np.empty((len(lines), dim), dtype=np.float32)
    out[simple] = arr.reshape(len(simple), dim)
    for k, p in zip(simple, parts):
        words[k] = p[0]
    if len(simple) < len(lines):
        is_simple = np.zeros(len(lines), dtype=bool)
        is_simple[simple] = True
        for k in np.flatnonzero(~is_simple):
            words[k], out[k] = _parse_line_strict(path, lines[k], linenos[k], dim, dim_source)
    return words, out


def _parse_block_careful(
    path: Path, data: bytes, first_line: int, dim: int, dim_source: str
) -> tuple[list[str], np.ndarray]:
    """A block of whole lines (bytes) by the definition above: decoded strictly, then :func:`_parse_lines`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # the lines before the bad byte first: an error there comes first in the file
        _parse_block_careful(path, data[: data.rfind(b"\n", 0, exc.start) + 1], first_line, dim, dim_source)
        raise _not_utf8(path, data, exc, first_line) from None
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    lines: list[str] = []
    linenos: list[int] = []
    for k, line in enumerate(raw):
        line = line.rstrip()
        if line:
            lines.append(line)
            linenos.append(first_line + k)
    if not lines:
        return [], np.zeros((0, dim), dtype=np.float32)
    return _parse_lines(path, lines, linenos, dim, dim_source)


def _parse_block_fast(data: bytes, dim: int) -> tuple[list[str], np.ndarray] | None:
    """A block of whole lines with polars' CSV reader (multi-threaded C-speed parsing, UTF-8 checked, float64
    correctly rounded), or ``None`` when the block is not plainly "word v1 ... vD" on every non-blank line;
    the careful reader then reads the block and names any error.  Never a different result: anything the
    fast reader is unsure of (a word with a space, a ragged row, a lone \\r, NUL, a value that is not
    finite) makes it return ``None``."""
    try:
        import polars as pl
    except ImportError:  # pragma: no cover - mteb depends on polars
        return None
    if 2 * dim > len(data) or b"\x00" in data or data.startswith(_BOM) or data.count(b"\r") != data.count(b"\r\n"):
        return None  # (a row of D values takes at least 2 D bytes: a header's absurd D is not a schema)
    value_columns = [f"v{i}" for i in range(dim)]
    # one more column than the row needs: it takes a trailing space (fastText .vec) and must stay empty
    schema = {"word": pl.String, **{c: pl.Float64 for c in value_columns}, "rest": pl.String}
    try:
        frame = pl.read_csv(
            data, separator=" ", has_header=False, quote_char=None, schema=schema, encoding="utf8",
            comment_prefix=None, null_values=None, empty_string_is_null=True, truncate_ragged_lines=False,
            extra_columns="raise", missing_columns="insert",
        )  # fmt: skip
    except Exception:  # noqa: BLE001 - any parse or decoding problem: the careful reader says what it is
        return None
    if frame.null_count().row(0)[:-1] != (0,) * (dim + 1):
        blank = frame.select(pl.all_horizontal([pl.col(c).is_null() for c in ("word", *value_columns)])).to_series()
        frame = frame.filter(~blank)  # blank (or spaces-only) lines: every field empty
        if frame.select(pl.exclude("rest")).null_count().row(0) != (0,) * (dim + 1):
            return None
    if frame.height and frame["rest"].null_count() != frame.height:
        return None
    with np.errstate(over="ignore"):
        matrix = frame.select(value_columns).to_numpy().astype(np.float32)
    if not np.isfinite(matrix).all():
        return None
    return frame["word"].to_list(), matrix


def _open_binary(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def _blocks(path: Path, *, skip_lines: int) -> Iterator[tuple[int, bytes]]:
    """``(number of its first line, bytes)`` for consecutive blocks of whole lines (about :data:`_BLOCK_BYTES`
    each), the first ``skip_lines`` lines and a leading byte-order mark left out."""
    lineno = 1
    carry = b""
    first = True
    with _open_binary(path) as fh:
        while True:
            block = fh.read(_BLOCK_BYTES)
            data = carry + block if carry else block
            if first:
                first = False
                if data.startswith(_BOM):
                    data = data[len(_BOM) :]
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            while skip_lines and data:
                end = data.find(b"\n")
                data = b"" if end < 0 else data[end + 1 :]
                skip_lines -= 1
                lineno += 1
            if data:
                yield lineno, data
                lineno += data.count(b"\n")
            if not block:
                return


def _layout(path: Path) -> _Layout | None:
    """The header and dimension from the first non-blank line (``None`` for a file without one)."""
    with _open_binary(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            if lineno == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM) :]
            try:
                line = raw.decode("utf-8").rstrip()
            except UnicodeDecodeError as exc:
                raise _not_utf8(path, raw, exc, lineno) from None
            if not line:
                continue
            match = _HEADER.fullmatch(line)
            if match:
                n, d = int(match.group(1)), int(match.group(2))
                if d <= 0:
                    raise SourceFormatError(path, f"header gives dimension {d}", line=lineno)
                return _Layout((n, d), d, f"the header, line {lineno}", lineno)
            dim = len(line.split(" ")) - 1
            if dim < 1:
                raise SourceFormatError(path, "expected 'word v1 v2 ...' (a word followed by its vector)", line=lineno)
            return _Layout(None, dim, f"the first row, line {lineno}", lineno - 1)
    return None


def read_text_vectors(
    path: str | os.PathLike, *, show_progress: bool | None = None, fast: bool = True
) -> tuple[np.ndarray, list[str]]:
    """Read a GloVe/word2vec/fastText text file (optionally ``.gz``): ``(matrix, words)``.

    The format is defined above (UTF-8; an optional header ``N D``, checked against the rows; every row a
    word and exactly D values, D from the header or the first row; words may contain spaces).  Any other
    row, a byte that is not UTF-8, a non-numeric or non-finite value, or an empty file raises
    :class:`SourceFormatError` naming the file and the line (and, for a ragged row, the word, the expected
    and the found number of values).  Blocks of lines are read by polars' CSV reader; a block it cannot
    read plainly (words with spaces, an error) is read line by line.  ``fast=False`` reads every block line
    by line (the same result; for tests and comparisons).
    """
    from tqdm.auto import tqdm

    path = Path(path)
    if not path.is_file():
        raise SourceFormatError(path, "word-vector file not found")
    size = path.stat().st_size
    if show_progress is None:
        show_progress = size >= _PROGRESS_MIN_BYTES
    words: list[str] = []
    blocks: list[np.ndarray] = []
    try:
        layout = _layout(path)
        if layout is None:
            raise SourceFormatError(path, "empty file: no word vectors found")
        with tqdm(total=size if path.suffix != ".gz" else None, unit="B", unit_scale=True,
                  desc=f"Reading {path.name}", disable=not show_progress) as bar:  # fmt: skip
            for first_line, data in _blocks(path, skip_lines=layout.lines_before_rows):
                parsed = _parse_block_fast(data, layout.dim) if fast else None
                if parsed is None:
                    parsed = _parse_block_careful(path, data, first_line, layout.dim, layout.dim_source)
                words.extend(parsed[0])
                blocks.append(parsed[1])
                bar.update(len(data))
    except (OSError, EOFError, zlib.error) as exc:  # e.g. a corrupt .gz
        raise SourceFormatError(path, f"cannot read word vectors: {exc}") from None
    if not words:
        raise SourceFormatError(path, "empty file: no word vectors found")
    if layout.header is not None and layout.header[0] != len(words):
        raise SourceFormatError(
            path, f"header announces {layout.header[0]} vectors but the file has {len(words)}",
            line=layout.lines_before_rows,
        )  # fmt: skip
    matrix = blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=0)
    return matrix, words


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
    try:
        with _open_binary(path) as fh:
            data = fh.read()
    except (OSError, EOFError, zlib.error) as exc:
        raise SourceFormatError(path, f"cannot read the vocabulary: {exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, data, exc, 1) from None
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
