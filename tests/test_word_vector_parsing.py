"""The word-vector text reader against a plain reference parser (property tests with hypothesis).

:func:`reference_parse` below is the definition of a valid file written as simply as possible: bytes split
on ``\\n``, each line decoded on its own, stripped on the right, split on single spaces.  The reader
(:func:`mteb_evalrank.models.word_vector_files.read_text_vectors`) reads blocks with polars' CSV parser and
falls back to a line-by-line parser; both must give exactly the reference's words and float32 bits for
every valid file, and refuse every file the reference refuses, naming the same line.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mteb_evalrank.errors import SourceFormatError
from mteb_evalrank.models import word_vector_files
from mteb_evalrank.models.word_vector_files import read_text_vectors

NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class RefError(Exception):
    def __init__(self, line: int | None, kind: str) -> None:
        super().__init__(f"line {line}: {kind}")
        self.line, self.kind = line, kind


def reference_parse(data: bytes) -> tuple[list[str], np.ndarray]:
    """The format, line by line: ``(words, float32 matrix)`` or :class:`RefError` at the first bad line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw_lines = data.split(b"\n")
    if raw_lines[-1] == b"":
        raw_lines.pop()
    dim = header = None
    header_line = None
    words: list[str] = []
    rows: list[list[float]] = []
    for lineno, raw in enumerate(raw_lines, start=1):
        try:
            line = raw.decode("utf-8").rstrip()
        except UnicodeDecodeError:
            raise RefError(lineno, "utf8") from None
        if not line:
            continue
        if dim is None:
            m = re.fullmatch(r"([0-9]+)\s+([0-9]+)", line)
            if m:
                header, dim, header_line = int(m.group(1)), int(m.group(2)), lineno
                if dim == 0:
                    raise RefError(lineno, "header")
                continue
            dim = len(line.split(" ")) - 1
            if dim < 1:
                raise RefError(lineno, "no values")
        tokens = line.split(" ")
        if len(tokens) - 1 < dim:
            raise RefError(lineno, "ragged")
        if len(tokens) - 1 > dim and (NUMBER.fullmatch(tokens[-dim - 1]) or NON_FINITE.fullmatch(tokens[-dim - 1])):
            raise RefError(lineno, "ragged")
        word, fields = " ".join(tokens[:-dim]), tokens[-dim:]
        if not word:
            raise RefError(lineno, "no word")
        if "\x00" in word or word != word.strip():  # "money " (two spaces before the values), a NUL
            raise RefError(lineno, "word")
        if not all(NUMBER.fullmatch(t) for t in fields):
            raise RefError(lineno, "value")
        with np.errstate(over="ignore"):
            values = [np.float32(float(t)) for t in fields]
        if not all(np.isfinite(v) for v in values):
            raise RefError(lineno, "value")
        words.append(word)
        rows.append(values)
    if not words:
        raise RefError(None, "empty")
    if header is not None and header != len(words):
        raise RefError(header_line, "count")
    return words, np.array(rows, dtype=np.float32).reshape(len(words), dim)


def read(tmp_path: Path, data: bytes, *, gz: bool = False, fast: bool = True, block: int | None = None):
    path = tmp_path / ("v.txt.gz" if gz else "v.txt")
    path.write_bytes(gzip.compress(data) if gz else data)
    saved = word_vector_files._BLOCK_BYTES
    try:
        if block is not None:
            word_vector_files._BLOCK_BYTES = block
        return read_text_vectors(path, show_progress=False, fast=fast)
    finally:
        word_vector_files._BLOCK_BYTES = saved


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return (
        a.shape == b.shape and a.dtype == b.dtype == np.float32 and np.array_equal(a.view(np.uint32), b.view(np.uint32))
    )


# --- strategies -----------------------------------------------------------------------------------------
# no whitespace, no controls, no U+FEFF (at the start of a file it is the byte-order mark: near_valid_files has it)
WORD_CHARS = st.characters(exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), exclude_characters="\ufeff")
word_part = st.text(WORD_CHARS, min_size=1, max_size=8)


@st.composite
def words(draw, *, allow_spaces: bool) -> str:
    parts = draw(st.lists(word_part, min_size=1, max_size=3 if allow_spaces else 1))
    assume((not NUMBER.fullmatch(parts[-1]) and not NON_FINITE.fullmatch(parts[-1])) or len(parts) == 1)
    return " ".join(parts)


@st.composite
def value_text(draw) -> str:
    v = draw(st.floats(width=32, allow_nan=False, allow_infinity=False))
    style = draw(st.sampled_from(["repr32", "fixed5", "exp", "g17", "int", "midpoint", "plus"]))
    if style == "repr32":
        return repr(float(v))
    if style == "fixed5":
        return f"{v:.5f}"
    if style == "exp":
        return f"{v:.6e}"
    if style == "g17":
        return f"{draw(st.floats(min_value=-3e38, max_value=3e38, allow_nan=False)):.17g}"
    if style == "int":
        return str(draw(st.integers(-(10**20), 10**20)))
    if style == "midpoint":  # exactly halfway between two float32 values: float64 → float32 rounding decides
        f = np.float32(v)
        with np.errstate(over="ignore"):
            nxt = np.nextafter(f, np.float32(np.inf))
        if not np.isfinite(nxt):
            return repr(float(v))
        return repr((float(f) + float(nxt)) / 2)
    return "+" + repr(abs(float(v)))


@st.composite
def valid_files(draw, plain: bool | None = None) -> bytes:
    """Valid files; ``plain``: single-token words, one line ending for the file, no blank lines, no byte-order
    mark (what real GloVe, word2vec and fastText files look like, and what polars reads itself)."""
    plain = draw(st.booleans()) if plain is None else plain
    dim = draw(st.integers(1, 5))
    header = draw(st.booleans())
    n = draw(st.integers(1, 12))
    endings = draw(st.sampled_from(["\n", "\r\n", " \n"] if plain else ["\n", "\r\n", " \n", "mixed"]))
    lines: list[str] = []
    if header:
        lines.append(f"{n} {dim}")
    for i in range(n):
        word = draw(words(allow_spaces=not plain and (header or i > 0)))
        if i == 0 and not header and dim == 1:
            assume(not re.fullmatch(r"\ufeff?[0-9]+", word))  # "12 5" would be a header
        lines.append(word + " " + " ".join(draw(value_text()) for _ in range(dim)))
        if not plain and draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", " ", "  ", "\t"])))  # blank lines are ignored
    ends = [draw(st.sampled_from(["\n", "\r\n", " \n", "\t\n"])) if endings == "mixed" else endings for _ in lines]
    text = "".join(line + end for line, end in zip(lines, ends))
    if draw(st.booleans()):
        text = text[: -len(ends[-1])] if plain else text.rstrip("\n")  # no newline at the end
    data = text.encode("utf-8")
    if not plain and draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    return data


def rows_and_dim(data: bytes) -> tuple[bytes, int]:
    """The rows of a generated valid file (header left out) and its dimension, as the reader finds them."""
    first, _, rest = data.partition(b"\n")
    header = re.fullmatch(r"([0-9]+)\s+([0-9]+)", first.decode("utf-8").rstrip())
    if header:
        return rest, int(header.group(2))
    return data, len(first.decode("utf-8").rstrip().split(" ")) - 1


read_options = st.fixed_dictionaries(
    {"gz": st.booleans(), "fast": st.booleans(), "block": st.sampled_from([None, 7, 64])}
)


# --- properties -----------------------------------------------------------------------------------------
@SETTINGS
@given(data=valid_files(), options=read_options)
def test_every_valid_file_reads_exactly_as_the_reference(tmp_path_factory, data, options):
    words_ref, matrix_ref = reference_parse(data)
    matrix, words_got = read(tmp_path_factory.mktemp("v"), data, **options)
    assert words_got == words_ref
    assert same_bits(matrix, matrix_ref)


@SETTINGS
@given(data=valid_files(plain=True))
def test_the_fast_reader_reads_every_plain_file_itself_exactly_as_the_reference(data):
    """The speed comes from polars: a plain file never falls back to the line-by-line reader, and what the
    fast reader returns is the reference's result, bit for bit (float32 rounding of float64 midpoints too)."""
    rows, dim = rows_and_dim(data)
    parsed = word_vector_files._parse_block_fast(rows, dim)
    assert parsed is not None
    words_ref, matrix_ref = reference_parse(data)
    assert parsed[0] == words_ref
    assert same_bits(parsed[1], matrix_ref)


@pytest.mark.integration
@SETTINGS
@given(data=valid_files(), where=st.integers(0, 10**6), change=st.sampled_from(["short", "long", "pair", "empty"]))
def test_a_ragged_row_is_always_refused_with_its_line(tmp_path_factory, data, where, change):
    text = data.decode("utf-8")
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line.strip() and not re.fullmatch(r"\ufeff?[0-9]+\s+[0-9]+\s*", line)]
    assume(len(rows) >= 2)
    k = rows[1:][where % (len(rows) - 1)]  # not the first row: without a header, it sets the dimension
    tokens = lines[k].rstrip().split(" ")
    end = lines[k][len(lines[k].rstrip()) :]
    if change == "short":
        tokens = tokens[:-1]
    elif change == "long":
        tokens = tokens + ["0.5"]
    elif change == "empty":
        tokens = tokens[:1]
    else:  # the issue's case: one row a value short, the next a value long; the total still divides
        assume(k + 1 < len(lines) and k + 1 in rows)
        nxt = lines[k + 1].rstrip().split(" ") + ["0.25"]
        lines[k + 1] = " ".join(nxt)
        tokens = tokens[:-1]
    lines[k] = " ".join(tokens) + end
    bad = "\n".join(lines).encode("utf-8")
    with pytest.raises(RefError) as ref:
        reference_parse(bad)
    assert ref.value.line == k + 1
    for fast in (True, False):
        with pytest.raises(SourceFormatError) as got:
            read(tmp_path_factory.mktemp("v"), bad, fast=fast)
        assert got.value.line == k + 1, str(got.value)


@SETTINGS
@given(data=valid_files(), where=st.integers(0, 10**6), byte=st.integers(0x80, 0xFF), options=read_options)
def test_one_byte_that_is_not_utf8_is_always_refused_with_its_line(tmp_path_factory, data, where, byte, options):
    pos = where % (len(data) + 1)
    bad = data[:pos] + bytes([byte]) + data[pos:]
    with pytest.raises(SourceFormatError, match="not UTF-8 text") as got:
        read(tmp_path_factory.mktemp("v"), bad, **options)
    assert got.value.line == bad.count(b"\n", 0, pos) + 1


@st.composite
def near_valid_files(draw) -> bytes:
    """Lines of number-like and word-like fields, with odd separators and endings: mostly invalid."""
    field = st.one_of(
        value_text(),
        word_part,
        st.sampled_from(
            [
                "",
                "nan",
                "-inf",
                "Infinity",
                "1e39",
                "-1e-400",
                "1_0",
                "0x1",
                "1.",
                ".5",
                "1e",
                "١",
                "\t",
                "\x0c",
                "\r",
                "\x00",
                "\xa0",
                "\u2028",
                "\ufeff",
                "12",
                "3",
            ]
        ),
    )
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        fields = draw(st.lists(field, min_size=0, max_size=6))
        sep = draw(st.sampled_from([" ", " ", " ", "  ", "\t"]))
        lines.append(sep.join(fields) + draw(st.sampled_from(["\n", "\n", "\r\n", " \n", "\r", ""])))
    return "".join(lines).encode("utf-8")


@SETTINGS
@given(data=near_valid_files(), options=read_options)
def test_any_file_is_read_as_the_reference_reads_it_or_refused_at_the_same_line(tmp_path_factory, data, options):
    try:
        expected = reference_parse(data)
    except RefError as exc:
        with pytest.raises(SourceFormatError) as got:
            read(tmp_path_factory.mktemp("v"), data, **options)
        assert got.value.line == exc.line, (exc.kind, str(got.value))
        return
    matrix, words_got = read(tmp_path_factory.mktemp("v"), data, **options)
    assert words_got == expected[0]
    assert same_bits(matrix, expected[1])


# --- the cases of issue 33, and the messages ---------------------------------------------------------------
def glove_like(n: int, dim: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    values = np.round(rng.standard_normal((n, dim)), 5)
    return [f"w{i} " + " ".join(f"{v:.5f}" for v in row) for i, row in enumerate(values)]


@pytest.mark.parametrize("n", [3, 4, 20_000])
def test_issue_33_one_row_short_and_the_next_long_is_refused(tmp_path, n):
    lines = glove_like(n, 50)
    k = n // 2
    short, long = lines[k].split(" "), lines[k + 1].split(" ")
    lines[k] = " ".join(short[:-1])
    lines[k + 1] = " ".join(long + [short[-1]])  # the total number of values still divides by 50
    path = tmp_path / "ragged.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SourceFormatError) as got:
        read_text_vectors(path, show_progress=False)
    assert str(got.value) == (
        f"{path}, line {k + 1}: the vector of 'w{k}' has 49 values, expected 50 (the dimension of the first row, "
        "line 1); every row must be a word and 50 values"
    )


def test_a_row_with_a_value_too_many_names_the_word_and_both_counts(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("2 3\ncat 1 2 3\ndog 1 2 3 4\n", encoding="utf-8")
    with pytest.raises(
        SourceFormatError,
        match=r"line 3: the vector of 'dog' has 4 values, expected 3 \(the "
        r"dimension of the header, line 1\)",
    ):
        read_text_vectors(path)


@pytest.mark.integration
@pytest.mark.parametrize("n", [3, 50_000])
def test_a_latin1_byte_is_the_same_error_in_a_small_and_a_large_file(tmp_path, n):
    lines = glove_like(n, 10)
    k = n - 2
    lines[k] = "caf\xe9" + lines[k][lines[k].index(" ") :]
    path = tmp_path / "latin1.txt"
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    with pytest.raises(SourceFormatError) as got:
        read_text_vectors(path, show_progress=False)
    assert str(got.value) == (
        f"{path}, line {k + 1}: not UTF-8 text: byte 0xe9 at column 4 cannot be decoded (invalid continuation "
        "byte); save the word-vector file as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
    )


@pytest.mark.integration
def test_a_large_valid_file_is_read_by_the_fast_reader_and_equals_the_careful_one(tmp_path):
    lines = glove_like(30_000, 20)
    lines[123] = "new york " + lines[123].split(" ", 1)[1]  # a word with a space: that block is read line by line
    data = ("\n".join(lines) + "\n").encode("utf-8")
    fast = read(tmp_path, data, block=1 << 16)
    careful = read(tmp_path, data, fast=False, block=1 << 16)
    assert fast[1] == careful[1] and same_bits(fast[0], careful[0])
    assert fast[1][123] == "new york" and fast[0].shape == (30_000, 20)
    ref_words, ref_matrix = reference_parse(data)
    assert fast[1] == ref_words and same_bits(fast[0], ref_matrix)


@pytest.mark.integration
def test_the_fast_reader_reads_plain_blocks_itself(tmp_path):
    """The speed comes from polars: a plain block must not fall back to the line-by-line reader."""
    data = ("\n".join(glove_like(1000, 8)) + "\n").encode("utf-8")
    parsed = word_vector_files._parse_block_fast(data, 8)
    assert parsed is not None
    ref_words, ref_matrix = reference_parse(data)
    assert parsed[0] == ref_words and same_bits(parsed[1], ref_matrix)
    fasttext = ("1000 8\n" + " \n".join(glove_like(1000, 8)) + " \n").encode("utf-8")
    lines = fasttext.split(b"\n", 1)[1]
    assert word_vector_files._parse_block_fast(lines, 8) is not None


def test_one_word_spelled_two_ways_is_merged_with_one_warning(tmp_path):
    """Issue 47: ``café`` as NFC and as NFD in one vector file were two words (both kept: the mean vector, and so the
    score, moved); now they are one, like a repeated word: the first vector, found by either spelling, one warning."""
    import unicodedata

    import numpy as np

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.models.static_vectors import load_word_vectors

    nfc, nfd = (unicodedata.normalize(form, "Café") for form in ("NFC", "NFD"))
    twin, plain = tmp_path / "twin.txt", tmp_path / "plain.txt"
    twin.write_text(f"cat 1 0 0\n{nfc} 0 1 0\ndog 0 0 1\n{nfd} 1 1 0\n", encoding="utf-8")
    plain.write_text(f"cat 1 0 0\n{nfc} 0 1 0\ndog 0 0 1\n", encoding="utf-8")
    with pytest.warns(
        EvalRankWarning, match=r"'Café' and 'Cafe\\u0301' \(vectors 2 and 4, .*one word spelled two ways"
    ):
        merged = load_word_vectors(twin)
    reference = load_word_vectors(plain)
    assert len(merged) == len(reference) == 3
    for spelling in (nfc, nfd, nfc.lower(), nfd.lower()):
        assert np.array_equal(merged.vector(spelling), [0, 1, 0]) and merged.lookup(spelling) == 1
    assert np.array_equal(merged.mean_vector, reference.mean_vector)
    assert np.array_equal(merged.kept_rows(), [0, 1, 2])


def test_twins_that_lowercase_alike_are_still_twins(tmp_path):
    """sweep_holdout53: the Angstrom sign (U+212B) and Å (U+00C5) are one letter under NFC, and lowercase to the same
    å: the lowercased keys met first, so the pair was merged as a repeated word, without the twins' warning."""
    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.models.static_vectors import load_word_vectors

    path = tmp_path / "angstrom.txt"
    path.write_text("cat 1 0\n\u00c5 0 1\n\u212b 1 1\n", encoding="utf-8")
    with pytest.warns(EvalRankWarning, match="one word spelled two ways"):
        vectors = load_word_vectors(path)
    assert len(vectors) == 2 and vectors.lookup("\u212b") == vectors.lookup("\u00c5") == 1
