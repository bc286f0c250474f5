"""Word-vector files: the readers and parsers of the text format (GloVe, word2vec, fastText; optionally
gzip-compressed) and of a ``.npy`` matrix with its vocabulary.

Readers return plain arrays and word lists; :func:`mteb_evalrank.models.static_vectors.load_word_vectors`
turns them into :class:`~mteb_evalrank.models.static_vectors.WordVectors`, and the bag-of-words encoder is
:class:`~mteb_evalrank.models.static_vectors.StaticWordVectorEncoder`.  Every error is a
:class:`~mteb_evalrank.errors.SourceFormatError` naming the file and, for a text file, the line.

The module is in the models layer (2), the lowest layer that reads these files: the model resolver and the
word-vector encoders (layer 2) call it, and a module under ``data/`` (layer 3) would be above them.
"""

from __future__ import annotations

import gzip
import os
import re
import warnings
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import SourceFormatError

__all__ = [
    "TEXT_SUFFIXES",
    "VOCAB_SUFFIXES",
    "find_vocabulary_for",
    "is_word_vector_path",
    "read_npy_vectors",
    "read_text_vectors",
    "read_vocabulary",
    "split_matrix_spec",
]

#: suffixes of word-vector text files (a ``.gz`` of one is read too)
TEXT_SUFFIXES = (".txt", ".vec", ".glove", ".w2v")
#: suffixes of a vocabulary file beside a ``.npy`` matrix
VOCAB_SUFFIXES = (".txt", ".vocab", ".parquet")
_PROGRESS_MIN_BYTES = 32 * 2**20


# --- the text format -------------------------------------------------------------------------------
# One definition of a valid text file, which both readers below implement exactly (the property tests in
# tests/test_word_vector_parsing.py check them against a plain line-by-line parser):
#
# - the file is UTF-8 (a byte-order mark at its start is dropped); lines end with "\n"; trailing whitespace
#   of a line (a fastText ".vec" space, a Windows "\r") is ignored, and so are blank lines;
# - the first non-blank line may be a word2vec header "N D" (two whole numbers); D, else the number of
#   space-separated fields after the first one on the first row, is the dimension;
# - every other non-blank line is "word v1 ... vD": the last D space-separated fields are the values and
#   whatever comes before them is the word (GloVe 840B has words with spaces), which must not be empty, hold
#   a NUL or start or end with a space or tab (two spaces before the values are refused, not read as a word
#   "money "); a value is a decimal number (``_NUMBER``), finite as a float32 (read as a float64, then rounded);
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
    """The error for bytes that are not UTF-8: the line, the byte and its column (1-based, in bytes); a compressed
    file (gzip, bzip2, xz, zip magic bytes) is named as such, whatever its suffix."""
    from mteb_evalrank.file_magic import compressed_kind

    kind = compressed_kind(data[:6]) if first_line <= 1 else None
    if kind is not None:
        return SourceFormatError(
            path, f"a {kind}-compressed file, not text; name it with its suffix (e.g. .gz) or decompress it first"
        )
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
    _check_word(path, word, lineno)
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


def _check_word(path: Path, word: str, lineno: int) -> None:
    """A word may hold inner spaces (GloVe 840B) but no NUL and no space or tab at either end: ``'money '`` is
    what two spaces before the values make, and it would never match a token."""
    if "\x00" in word:
        raise SourceFormatError(path, f"the word {word!r} holds a NUL byte", line=lineno)
    if word != word.strip():
        raise SourceFormatError(
            path,
            f"the word {word!r} has a space or tab at its end: separate the word and every value by one "
            "space (two spaces before the values?)",
            line=lineno,
        )


def _fromstring_exact(text: str, count: int) -> np.ndarray | None:
    """``count`` float32 values from single-space-separated numbers, or ``None`` if that is not what ``text``
    holds (numpy reads each number as a float64, correctly rounded, then rounds it to float32)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns (DeprecationWarning) instead of raising on unread data
        try:
            with np.errstate(over="ignore"):
                arr = np.fromstring(text, dtype=np.float32, sep=" ")
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
    odd_word = any("\x00" in p[0] or p[0] != p[0].strip() for p in parts)  # refused: line by line, in file order
    if (
        simple
        and not odd_word
        and "  " not in joined
        and not joined.startswith(" ")
        and not any(c in joined for c in "\t\n\v\f\r")
    ):
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
        for k in np.flatnonzero(~is_simple).tolist():
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
    if any(c in data for c in (b"\t", b"  ", b"\v", b"\f")):  # whitespace other than single spaces: the careful
        return None  # reader decides (a word with surrounding whitespace is refused there)
    if 2 * dim > len(data) or b"\x00" in data or data.startswith(_BOM) or data.count(b"\r") != data.count(b"\r\n"):
        return None  # (a row of D values takes at least 2 D bytes: a header's absurd D is not a schema)
    value_columns = [f"v{i}" for i in range(dim)]
    # one more column than the row needs: it takes a trailing space (fastText .vec) and must stay empty
    schema = {"word": pl.String, **dict.fromkeys(value_columns, pl.Float64), "rest": pl.String}
    try:
        frame = pl.read_csv(
            data,
            separator=" ",
            has_header=False,
            quote_char=None,
            schema=schema,
            encoding="utf8",
            comment_prefix=None,
            null_values=None,
            empty_string_is_null=True,
            truncate_ragged_lines=False,
            extra_columns="raise",
            missing_columns="insert",
        )
    except Exception:
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
        with tqdm(
            total=size if path.suffix != ".gz" else None,
            unit="B",
            unit_scale=True,
            desc=f"Reading {path.name}",
            disable=not show_progress,
        ) as bar:
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
            path,
            f"header announces {layout.header[0]} vectors but the file has {len(words)}",
            line=layout.lines_before_rows,
        )
    matrix = blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=0)
    return matrix, words


def read_vocabulary(path: str | os.PathLike) -> list[str]:
    """Read a vocabulary: ``.parquet`` (one string column, or a column named word/token/index) or
    a UTF-8 text file with one word per line (the whole line minus its line ending is the word; a byte-order
    mark is dropped; UTF-16/32 text and a NUL byte are refused, :func:`mteb_evalrank.file_magic.text_problem`)."""
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
                path,
                f"cannot tell which column holds the words among {names}; "
                "expected one column or a column named word/token/index",
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
    from mteb_evalrank.file_magic import text_problem

    problem = text_problem(data)
    if problem is not None:  # UTF-16/32 (also without a mark), a NUL byte: as every text reader says it
        raise SourceFormatError(path, f"the vocabulary file {problem[0]}", line=problem[1])
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is no part of the first word
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
    for suffix in VOCAB_SUFFIXES:
        for cand in (m.with_suffix(suffix), m.with_name(m.stem + ".vocab" + suffix)):
            if cand.is_file() and cand != m:
                return cand
    cands = sorted(p for p in m.parent.iterdir() if p.is_file() and p.suffix in VOCAB_SUFFIXES)
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
    return suffixes[-1] in TEXT_SUFFIXES or suffixes[-1] == ".npy"
