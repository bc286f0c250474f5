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
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from mteb_evalrank.errors import InputError
from mteb_evalrank.names import name_key, spelled, twin_note

TRUE_WORDS = ("true", "yes", "1")
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
    path: str | Path, *, what: str, sep: str = ",", key: str | None = None, index_name: str | None = None
) -> StrictTable:
    """The table at ``path`` read by the rules of the module docstring; cells are stripped of spaces."""
    from mteb_evalrank.data.files import read_text

    path = Path(path)
    text = read_text(path, what=what, encoding="utf-8-sig")  # a BOM is dropped; not UTF-8: line and column
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise InputError(f"{what} {path}, line {line}: a NUL byte; this is not a text table.")
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
    if not rows:
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
