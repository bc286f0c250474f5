"""Files and folders a user names (corpus files, output files and folders): checked, one-line errors.

- :func:`read_text` / :func:`read_lines` — a text file in a given encoding.  Missing, a folder,
  unreadable, or not in that encoding raises :class:`~mteb_evalrank.errors.InputError` naming the
  file; a decoding error (:func:`decoding_error`) also names the line, the column and the encoding.
- :func:`output_file` / :func:`output_dir` — a file about to be written / a folder about to be written
  into; :func:`figure_file` also checks the image type.  An existing folder where a file is wanted (or
  a file where a folder is wanted, anywhere on the path) raises :class:`InputError` naming the path, and
  so does a location that cannot be written (read-only mount, no permission): it is tried by creating
  and removing a file, before any work is done.
- :func:`file_sha256` — the SHA-256 of a file (download and cache checksums); the package's one
  file-hashing function, :func:`mteb_evalrank.hashing.file_sha256`, re-exported here.
- :func:`file_lock` — an exclusive inter-process lock (``fcntl.flock`` on a lock file, removed again
  on release) for writers that share a file: result folders, embedding caches.  Where ``fcntl`` does
  not exist (Windows) it is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from mteb_evalrank.errors import InputError, SourceFormatError
from mteb_evalrank.hashing import file_sha256  # noqa: F401  (checksums of downloads and cache shards)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def read_text(path: Path, *, what: str = "file", encoding: str = "utf-8") -> str:
    """The whole of ``path`` decoded with ``encoding`` (universal newlines are left to the caller)."""
    path = Path(path)
    try:
        if not path.exists():
            raise InputError(f"{what} {path} does not exist.")
        if path.is_dir():
            raise InputError(f"{what} {path} is a folder, not a file.")
        data = path.read_bytes()
    except OSError as exc:  # unreadable file, or a folder on the way that cannot be entered
        raise InputError(f"cannot read {what} {path}: {_reason(exc)}.") from exc
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise decoding_error(path, exc, what=what, encoding=encoding) from exc


def read_lines(path: Path, *, what: str = "file", encoding: str = "utf-8") -> list[str]:
    """The non-blank lines of a text file, stripped (errors as in :func:`read_text`)."""
    return [line.strip() for line in read_text(path, what=what, encoding=encoding).splitlines() if line.strip()]


def decoding_error(
    path: Path, exc: UnicodeDecodeError, *, what: str = "file", encoding: str = "utf-8"
) -> SourceFormatError:
    """The error for a file that is not in ``encoding``: names the file, the line, the column and the encoding."""
    data = bytes(exc.object)
    line = data.count(b"\n", 0, exc.start) + 1
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    name = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig") else encoding
    return SourceFormatError(
        path,
        f"not {name} text: byte 0x{data[exc.start]:02x} at column {column} cannot be decoded ({exc.reason}); "
        f"save the {what} as {name}" + (" (e.g. iconv -f latin1 -t utf-8)." if name == "UTF-8" else "."),
        line=line,
    )


def _is_file(path: Path) -> bool:
    """``path`` exists and is not a folder (a folder that cannot be entered: False, mkdir/open will say so)."""
    try:
        return path.exists() and not path.is_dir()
    except OSError:
        return False


def _blocking_file(path: Path) -> Path | None:
    """The first existing non-folder on the way to ``path`` (``path`` itself excluded), if any."""
    return next((parent for parent in reversed(path.parents) if _is_file(parent)), None)


def check_writable_folder(folder: Path, *, what: str, path: Path | None = None) -> None:
    """Create and remove a file in the existing ``folder``; :class:`InputError` naming ``path`` (default
    ``folder``) and the reason if that fails (``Read-only file system``, ``Permission denied``, ...).

    Trying is the only reliable test: ``os.access`` answers for the real user id and ignores read-only
    mounts on some systems, and root passes every permission check except the mount's.
    """
    try:
        fd, probe = tempfile.mkstemp(prefix=".mteb-evalrank-write-test-", dir=folder)
    except OSError as exc:
        where = path if path is not None else folder
        raise InputError(f"cannot write {what} {where}: {_reason(exc)}.") from exc
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def output_dir(path: Path, *, what: str = "output folder", create: bool = True) -> Path:
    """Create folder ``path`` (and its parents) unless it exists and check that files can be written into
    it; return it (``create=False``: only check what is on the way, write nothing)."""
    path = Path(path)
    if _is_file(path):
        raise InputError(f"{what} {path} is an existing file, not a folder.")
    blocker = _blocking_file(path)
    if blocker is not None:
        raise InputError(f"cannot create {what} {path}: {blocker} is a file, not a folder.")
    if not create:
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {what} {path}: {_reason(exc)}.") from exc
    check_writable_folder(path, what=f"into {what}")
    return path


def check_output_dir(path: Path, *, what: str = "output folder") -> Path:
    """Check, without creating anything, that folder ``path`` can be created and written into later: no
    file in the way, and its nearest existing folder (``path`` itself when it exists) takes a new file."""
    path = output_dir(Path(path), what=what, create=False)
    existing = next((p for p in (path, *path.parents) if p.is_dir()), None)
    if existing is not None:
        check_writable_folder(existing, what=f"into {what}" if existing == path else what, path=path)
    return path


def output_file(path: Path, *, what: str = "output file", suffixes: Iterable[str] | None = None) -> Path:
    """Check that ``path`` can be written as a file and create its parent folders; return it.

    ``suffixes`` (lower case, without the dot): the file name must end with one of them.
    """
    path = Path(path)
    allowed = list(suffixes) if suffixes is not None else None
    if path.is_dir():
        example = path / f"out.{allowed[0] if allowed else 'csv'}"
        raise InputError(f"{what} {path} is a folder; give a file name (e.g. {example}).")
    if allowed is not None:
        suffix = path.suffix.lower().lstrip(".")
        if suffix not in allowed:
            raise InputError(
                f"{what} {path}: unknown file type {path.suffix or '(none)'!r}; use one of .{', .'.join(allowed)}."
            )
    blocker = _blocking_file(path)
    if blocker is not None:
        raise InputError(f"cannot write {what} {path}: {blocker} is a file, not a folder.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():  # an existing file is replaced in place: it must open for writing (nothing is written)
            with open(path, "r+b"):
                pass
    except OSError as exc:
        raise InputError(f"cannot write {what} {path}: {_reason(exc)}.") from exc
    check_writable_folder(path.parent, what=what, path=path)
    return path


def figure_file(path: Path, *, what: str = "figure file") -> Path:
    """:func:`output_file` for a matplotlib figure: a known image type; no suffix means ``.png``."""
    from matplotlib.backend_bases import FigureCanvasBase

    path = Path(path)
    if not path.suffix and not path.is_dir():
        path = path.with_suffix(".png")  # what matplotlib would write
    return output_file(path, what=what, suffixes=FigureCanvasBase.get_supported_filetypes())


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` while the block runs; waits for other holders.

    The lock file is removed on release (while still held); a waiter that locked the removed file
    notices that ``path`` now names another file, and locks again.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks, writers must not overlap
        yield
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_ino == os.stat(path).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
        os.close(fd)  # closing the descriptor releases the lock
