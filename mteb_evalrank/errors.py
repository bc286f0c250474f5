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
    """A warning of the plugin meant for users (the CLI prints it as one line, without a source location)."""
