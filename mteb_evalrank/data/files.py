"""Files and folders a user names (corpus files, output files and folders): checked, one-line errors.

- :func:`read_text` / :func:`read_lines` — a text file in a given encoding.  Missing, a folder,
  unreadable, or not in that encoding raises :class:`~mteb_evalrank.errors.InputError` naming the
  file; a decoding error (:func:`decoding_error`) also names the line, the column and the encoding.
- :func:`output_file` / :func:`output_dir` — a file about to be written / a folder about to be written
  into; :func:`figure_file` also checks the image type.  An existing folder where a file is wanted (or
  a file where a folder is wanted, anywhere on the path) raises :class:`InputError` naming the path, and
  so does a location that cannot be written (read-only mount, no permission): it is tried by creating
  and removing a file, before any work is done.
- :func:`protected_file_reason` — why an existing file must never be replaced through an output option: an
  MTEB result file (a ``TaskResult`` JSON) or the ``model_meta.json`` of a results folder.
  :func:`output_file` refuses such a file; :func:`check_outputs` checks all of a command's output files
  (and that no two options name the same file) before the command reads or computes anything.
- :func:`atomic_write_text` / :func:`atomic_write_bytes` / :func:`atomic_target` — writes through a
  temporary file next to the target, renamed over it (``os.replace``): an interrupted write leaves the
  previous file, never half a file.
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
    check_name_lengths(path, what)
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


#: Largest JSON file read to tell whether it is an MTEB result file (result files are far smaller).
_PROTECT_PROBE_BYTES = 64 * 2**20


def protected_file_reason(path: Path) -> str | None:
    """Why ``path`` (an existing file) must not be replaced by an output option, or ``None``.

    Protected: an MTEB result file (a JSON object with ``task_name`` and ``scores``, what ``TaskResult``
    writes) and a ``model_meta.json`` (a JSON object with ``name``; MTEB writes one into every result
    folder).  Only ``.json`` files are looked into.
    """
    import json

    path = Path(path)
    try:
        if path.suffix.lower() != ".json" or not path.is_file() or path.stat().st_size > _PROTECT_PROBE_BYTES:
            return None
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if "task_name" in data and "scores" in data:
        return f"an MTEB result file (task {data.get('task_name')})"
    if path.name == "model_meta.json" and "name" in data:
        return "the model metadata of an MTEB result folder"
    return None


def _check_not_protected(path: Path, what: str) -> None:
    reason = protected_file_reason(path)
    if reason is not None:
        raise InputError(
            f"{what} {path} is {reason}; an output option never writes over it. Give another file name."
        )


def check_name_lengths(path: Path, what: str) -> None:
    """A file or folder name longer than the file system allows: one clear error, not ``OSError``."""
    try:
        limit = os.pathconf(next((p for p in (path.parent, *path.parents) if p.is_dir()), Path(".")), "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        limit = 255
    for part in path.parts:
        size = len(os.fsencode(part))
        if size > limit:
            shown = part if len(part) <= 40 else f"{part[:20]}…{part[-10:]}"
            raise InputError(
                f"{what} {shown!r}: a name of {size} bytes is longer than the file system allows ({limit}); "
                "give a shorter name."
            )


def output_file(path: Path, *, what: str = "output file", suffixes: Iterable[str] | None = None) -> Path:
    """Check that ``path`` can be written as a file and create its parent folders; return it.

    ``suffixes`` (lower case, without the dot): the file name must end with one of them.  An existing MTEB
    result file or ``model_meta.json`` is refused (:func:`protected_file_reason`).
    """
    path = Path(path)
    allowed = list(suffixes) if suffixes is not None else None
    check_name_lengths(path, what)
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
    _check_not_protected(path, what)
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
    check_name_lengths(path, what)
    if not path.suffix and not path.is_dir():
        path = path.with_suffix(".png")  # what matplotlib would write
    return output_file(path, what=what, suffixes=FigureCanvasBase.get_supported_filetypes())


def check_outputs(outputs: Iterable[tuple[str, Path | str | None, str]]) -> None:
    """Check every output file of a command before it reads or computes anything: ``(option, path, kind)``
    with kind ``"file"`` (:func:`output_file`) or ``"figure"`` (:func:`figure_file`); ``None`` paths are
    skipped.  Two options naming the same file are refused too (the second would replace the first)."""
    seen: dict[Path, str] = {}
    for option, path, kind in outputs:
        if path is None:
            continue
        check = figure_file if kind == "figure" else output_file
        checked = check(Path(path), what=f"{option} file")
        key = Path(os.path.abspath(checked))
        if key in seen:
            raise InputError(f"{seen[key]} and {option} name the same file {checked}; give each its own file.")
        seen[key] = option


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path`` (same suffix, so writers that go by it still work); when the block
    ends without an exception it is renamed over ``path`` (``os.replace``), otherwise removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem[:100]}.", suffix=f".tmp{path.suffix[:20]}", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:  # mkstemp makes the file private (0600): give it the mode of the file it replaces, or the umask's
        mode = path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        os.chmod(tmp, mode)
        yield tmp
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed over it."""
    with atomic_target(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` through a temporary file renamed over it."""
    return atomic_write_bytes(path, text.encode(encoding))


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
