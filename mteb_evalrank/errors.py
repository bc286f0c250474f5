"""Exceptions with messages meant for users (no numpy tracebacks for user mistakes)."""

from __future__ import annotations


class EvalRankError(Exception):
    """Base class of every error the plugin raises on purpose."""


class InputError(EvalRankError, ValueError):
    """Bad input: inconsistent pairs, bad embeddings, wrong model output, unknown names."""


class SourceFormatError(InputError):
    """A raw source file is missing or malformed; the message names the file and the line."""

    def __init__(self, path, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}, line {line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


class DataNotFoundError(EvalRankError, FileNotFoundError):
    """Task data cannot be resolved (offline without a local copy, missing folder, ...)."""


class ResultsNotSavedError(EvalRankError, OSError):
    """Results were computed but could not be written (read-only or full disk); ``unsaved`` lists the
    files, ``result`` (when set) holds what was computed, e.g. MTEB's ``ModelResult``."""

    def __init__(self, message: str, *, unsaved=(), result=None) -> None:
        super().__init__(message)
        self.unsaved = list(unsaved)
        self.result = result


class EvalRankWarning(UserWarning):
    """A warning of the plugin meant for users (the CLI prints it as one line, without a source location).

    Its message names files as they can be printed: a byte of a file name that is not UTF-8 (a lone surrogate of
    ``surrogateescape``) is written ``\\xNN`` (:func:`mteb_evalrank.file_names.shown_name`), so that the warning
    can go to any UTF-8 stream, log file or worker pipe (pytest-xdist refused such a warning: "strings must be
    utf-8 encodable")."""

    def __init__(self, *args: object) -> None:
        from mteb_evalrank.file_names import shown_name

        super().__init__(*(shown_name(a) if isinstance(a, str) else a for a in args))


class DirectionlessRowsError(InputError):
    """Embedding rows without a direction, so without a cosine (:func:`mteb_evalrank.metrics.unit_rows.check_directions`):
    rows holding NaN or inf, all-zero rows and (where the caller asks) rows that are a bag of words' stand-in for a
    text none of whose words the model knows.  ``rows`` maps each kind found (``"nonfinite"``, ``"zero"``,
    ``"no_words"``) to its row numbers (from 0), ``n`` is the number of rows; :meth:`about` words the message again
    for a caller that knows what the rows are (a model's corpus sentences)."""

    KINDS = {
        "nonfinite": "hold NaN or inf",
        "zero": "are all zero",
        "no_words": "stand for a text without any word the model knows (the bag of words' fill of 1e-9)",
    }
    SHOWN = 5

    def __init__(self, what: str, n: int, rows, *, noun: str = "rows", labels=None, advice: str = "") -> None:
        self.what, self.n, self.noun, self.advice = what, int(n), noun, advice
        self.rows = {kind: [int(r) for r in rows[kind]] for kind in self.KINDS if len(rows.get(kind, ()))}
        parts = []
        for kind, text in self.KINDS.items():
            found = self.rows.get(kind)
            if found:
                shown = ", ".join(str(r) for r in found[: self.SHOWN]) + (", ..." if len(found) > self.SHOWN else "")
                named = (
                    ": " + ", ".join(repr(str(labels[r])[:60]) for r in found[:2]) + (", ..." if len(found) > 2 else "")
                    if labels is not None
                    else ""
                )
                parts.append(f"{len(found)} of {self.n} {noun} {text} (rows {shown}{named})")
        super().__init__(
            f"{what}: {'; '.join(parts)}; cosine is undefined for a vector without a direction of its own"
            + (f": {advice}." if advice else ".")
        )

    @property
    def count(self) -> int:
        """How many rows have no direction, of every kind."""
        return sum(len(r) for r in self.rows.values())

    def about(self, what: str, *, noun: str | None = None, labels=None, advice: str = "") -> DirectionlessRowsError:
        """The same rows, told as ``what``'s ``noun`` (``labels[i]``: the text of row ``i``)."""
        return DirectionlessRowsError(
            what, self.n, self.rows, noun=noun or self.noun, labels=labels, advice=advice or self.advice
        )
