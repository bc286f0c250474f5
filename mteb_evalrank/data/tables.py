"""Small user tables (score tables, ``--families`` files) read strictly: one rule for every cell.

:func:`read_strict_table` reads a CSV/TSV file a user gives and refuses, with the file and the line, what a
lenient reader would silently repair:

- the file must be a regular UTF-8 file (a byte-order mark is allowed and dropped);
- the first non-blank row is the header; a header cell may be empty only in the first column (the index
  column pandas writes, e.g. the study's ``scores.csv``), which then takes the name ``index_name``;
- two header cells with one name (compared case-insensitively, spaces stripped) are an error, not
  ``EvalRankSent.1``;
- every row has exactly as many cells as the header (a short row is not padded, a long one not cut);
- blank rows are skipped; a table without a data row is an error;
- ``key`` (e.g. ``model``): that column must exist, be non-empty in every row, hold no line break, tab or
  other control character, and be unique, compared case-insensitively (``org/Model`` and ``org/model`` name
  one model on the Hugging Face Hub: two rows of them are one model twice).

:func:`parse_bool_cell` is the one reading of a ``floor`` cell: ``true/false``, ``yes/no``, ``1/0`` (any
case) or empty; anything else ("maybe") is an error naming the line and column.

:func:`number_columns` is the one reading of score cells: ASCII digits with an optional sign, point and exponent
(``1_000``, ``1,5`` or Arabic-Indic digits, which Python's ``float`` would take or misread, are refused with the
line and column); an empty cell, ``nan`` or ``na`` is a missing value; ``inf`` and a number beyond
:data:`MAX_CELL` (``1e308``) are refused.  A column in which no
cell is a number (notes, links) is a text column: returned apart, for the caller to leave out with a warning.
"""

from __future__ import annotations

import csv
import io
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.names import name_key, spelled, twin_note

TRUE_WORDS = ("true", "yes", "1")
#: a number cell: ASCII digits, an optional sign, decimal point and exponent (what every spreadsheet writes)
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITE = re.compile(r"[+-]?inf(?:inity)?", re.IGNORECASE)
#: what was meant as a number, well written or not (``1_000``, ``1,5``, digits of any script, ``inf``)
_NUMBER_LIKE = re.compile(r"[+-]?(?:[\d_.,]+(?:[eE][+-]?\d+)?|inf(?:inity)?)", re.IGNORECASE)
#: the largest magnitude of a number cell: the square root of the largest float, so that a sum of squares (a
#: variance, a Pearson correlation) of scores stays finite; a score beyond it (``1e308``, ``1e999``) is a typo
MAX_CELL = math.sqrt(sys.float_info.max) / 1e3
#: cells that stand for a missing value (compared in lower case)
MISSING_WORDS = ("", "nan", "na")
FALSE_WORDS = ("false", "no", "0")


@dataclass
class StrictTable:
    """``header`` (stripped, the key column renamed to ``key``) and ``rows`` as ``(line number, cells)``."""

    path: Path
    header: list[str]
    rows: list[tuple[int, list[str]]]

    def column(self, name: str) -> list[str]:
        i = self.header.index(name)
        return [cells[i] for _, cells in self.rows]


def read_strict_table(
    path: str | Path,
    *,
    what: str,
    sep: str = ",",
    key: str | None = None,
    index_name: str | None = None,
    allow_no_rows: bool = False,
) -> StrictTable:
    """The table at ``path`` read by the rules of the module docstring; cells are stripped of spaces.
    ``allow_no_rows``: a header without rows is a table of no rows (a correlation table with no cell), not an
    error."""
    from mteb_evalrank.data.files import read_text

    path = Path(path)
    # a BOM is dropped; not UTF-8: line and column; UTF-16 and a NUL byte: refused by read_text
    text = read_text(path, what=what, encoding="utf-8-sig")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    try:
        start = 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            cells = [c.strip() for c in cells]
            if not any(cells):
                continue
            if header is None:
                header = _check_header(cells, path, what, line, index_name)
                continue
            if len(cells) != len(header):
                raise InputError(
                    f"{what} {path}, line {line}: {len(cells)} cell(s), the header has {len(header)}; "
                    "every row needs one cell per column (an empty cell for a missing value)."
                )
            rows.append((line, cells))
    except csv.Error as exc:
        raise InputError(
            f"{what} {path}, line {reader.line_num}: not valid {'TSV' if sep != ',' else 'CSV'} ({exc})."
        ) from None
    if header is None:
        raise InputError(f"{what} {path} is empty: expected a header row and one row per model.")
    if key is not None:
        lower = [h.lower() for h in header]
        if key not in lower:
            other = next((c for c in (";", "\t", ",", "|") if c != sep and c in "".join(header)), None)
            hint = f"; is it separated by {other!r}? The separator is {sep!r}" if other else ""
            raise InputError(f"{what} {path} needs a {key!r} column (found: {', '.join(header)}){hint}.")
        k = lower.index(key)
        header[k] = key
        seen: dict[str, tuple[str, int]] = {}
        for line, cells in rows:
            name = cells[k]
            if not name:
                raise InputError(f"{what} {path}, line {line}: empty {key} name.")
            if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
                raise InputError(
                    f"{what} {path}, line {line}: the {key} name {name!r} holds a line break or control character."
                )
            if name_key(name) in seen:
                first, first_line = seen[name_key(name)]
                again = (
                    repr(name) if first == name else f"{spelled(name)} (as {spelled(first)}, {twin_note(name, first)})"
                )
                raise InputError(
                    f"{what} {path}, line {line}: {key} {again} appears again (first on line {first_line}); "
                    f"one row per {key}."
                )
            seen[name_key(name)] = (name, line)
    if not rows and not allow_no_rows:
        raise InputError(f"{what} {path} has a header but no rows.")
    return StrictTable(path, header, rows)


def _check_header(cells: list[str], path: Path, what: str, line: int, index_name: str | None) -> list[str]:
    header = list(cells)
    for i, name in enumerate(header):
        if not name:
            if i == 0 and index_name is not None and index_name not in (h.lower() for h in header):
                header[0] = index_name  # pandas' unnamed index column
                continue
            raise InputError(f"{what} {path}, line {line}: column {i + 1} has no name.")
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        if name.lower() in seen:
            raise InputError(
                f"{what} {path}, line {line}: the column {name!r} appears twice (columns {seen[name.lower()] + 1} "
                f"and {i + 1}); give each column one name."
            )
        seen[name.lower()] = i
    return header


def parse_bool_cell(text: str, *, path: Path, what: str, line: int, column: str) -> bool | None:
    """``True``/``False`` for the words of the module docstring, ``None`` for an empty cell; else an error."""
    word = text.strip().lower()
    if not word:
        return None
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise InputError(
        f"{what} {path}, line {line}, column {column!r}: {text!r} is not true or false "
        f"(use {'/'.join(TRUE_WORDS)} or {'/'.join(FALSE_WORDS)})."
    )


def parse_number_cell(text: str, *, path: Path, what: str, line: int, column: str) -> float:
    """The number in a score cell (:data:`NUMBER`), NaN for a missing one (:data:`MISSING_WORDS`); anything else
    (``abc``, ``1_000``, ``١``, ``inf``) is an :class:`InputError` naming the line and column."""
    word = text.strip()
    if word.lower() in MISSING_WORDS:
        return float("nan")
    where = f"{what} {path}, line {line}, column {column!r}"
    if NUMBER.fullmatch(word):
        value = float(word)
        if not abs(value) <= MAX_CELL:  # 1e999 overflows to inf; 1e308 cannot be squared (a variance, Pearson)
            raise InputError(
                f"{where}: {text!r} is out of range (a score's magnitude must stay below {MAX_CELL:.3g}, where "
                "statistics on it overflow); is it a typo?"
            )
        return value
    if _INFINITE.fullmatch(word):
        raise InputError(f"{where}: {text!r} is not a finite number (leave the cell empty for a missing score).")
    hint = (
        " (write numbers with the digits 0-9 and a '.', without '_' or a thousands separator)"
        if any(ch.isdigit() or ch == "_" for ch in word)
        else ""
    )
    raise InputError(f"{where}: {text!r} is not a number{hint}.")


def number_columns(
    table: StrictTable, columns: list[str], *, what: str
) -> tuple[dict[str, np.ndarray], dict[str, tuple[int, str]]]:
    """``(numbers, text)`` for the named ``columns`` of ``table``: each column of numbers as an array
    (:func:`parse_number_cell`; NaN where missing), and each text column (some cell not empty, and no cell a
    number, well written or not) as its first non-empty cell ``(line, text)``.  A column of numbers with one
    other cell (``abc``, ``1_000``) is an error naming that cell."""
    numbers: dict[str, np.ndarray] = {}
    text: dict[str, tuple[int, str]] = {}
    for name in columns:
        i = table.header.index(name)
        filled = [(line, row[i]) for line, row in table.rows if row[i].strip().lower() not in MISSING_WORDS]
        if filled and not any(_NUMBER_LIKE.fullmatch(v.strip()) for _, v in filled):
            text[name] = filled[0]
            continue
        numbers[name] = np.asarray(
            [parse_number_cell(row[i], path=table.path, what=what, line=line, column=name) for line, row in table.rows],
            dtype=float,
        )
    return numbers, text
