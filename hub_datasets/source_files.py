"""Reading raw source files with errors that name the file and the line.

Sources are read as UTF-8 text with universal newlines (``\\r\\n`` and ``\\r`` become ``\\n``), the way
the reference toolkit's ``open(...)`` line iteration sees them.  Every problem becomes a
:class:`mteb_evalrank.errors.SourceFormatError` carrying the path and, where there is one, the
1-based line number.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

from mteb_evalrank.errors import SourceFormatError


def read_text(path: Path, *, what: str = "source file") -> str:
    """The whole file as text; a missing or non-UTF-8 file raises :class:`SourceFormatError`."""
    path = Path(path)
    if not path.is_file():
        raise SourceFormatError(path, f"missing {what} (expected the layout of shared/data/sources).")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        from mteb_evalrank.data.files import decoding_error

        raise decoding_error(path, exc, what=what) from exc  # names the line and the column


def numbered_lines(path: Path, *, what: str = "source file") -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` for every non-blank line (1-based numbers, newline removed)."""
    for number, line in enumerate(read_text(path, what=what).split("\n"), start=1):
        if line.strip():
            yield number, line


def parse_score(value: str, path: Path, line: int) -> float:
    """A finite float, or :class:`SourceFormatError` naming the file and line."""
    try:
        score = float(value)
    except (TypeError, ValueError):
        raise SourceFormatError(path, f"score {value!r} is not a number.", line=line) from None
    if not math.isfinite(score):
        raise SourceFormatError(path, f"score {value!r} is not a finite number.", line=line)
    return score
