"""The one module that writes files by renaming (standard library only): every temporary file, staged folder
and rename of the package goes through here (``tests/test_file_writes.py`` fails on ``os.replace``,
``os.rename``, ``shutil.move``, ``Path.rename``/``Path.replace`` or ``tempfile`` anywhere else).

- :func:`replace_file` — write bytes to a temporary file next to the target and rename it over the target: an
  interrupted write leaves the previous file whole, never half a file, and a symlink at the target is replaced,
  never written through; ``durable=True`` also flushes the file and its folder to disk (the embedding store);
- :func:`temporary_sibling` — the temporary file itself (same suffix, the mode of the file it replaces), for
  writers that need a path (:func:`mteb_evalrank.data.files.atomic_target`);
- :func:`replace_all` — all-or-nothing staging: rename every ``(temporary, target)`` pair, or, when one rename
  fails, remove every temporary file (:func:`mteb_evalrank.data.files.all_or_nothing`);
- :func:`staged_folder` — a folder built next to its target and renamed into place only when complete;
  :func:`replace_folder` renames a finished folder into place;
- :func:`move_file` — one rename (``os.replace``) of a file the caller wrote;
- :func:`scratch_folder` — a temporary folder removed afterwards; :func:`probe_write` — whether a folder takes
  a new file.

:mod:`mteb_evalrank.models` (which may not import ``data``) writes its kept files (``speeds.json``, an ONNX
export's spec) with :func:`replace_file`; every other layer uses
:func:`mteb_evalrank.data.files.atomic_write_text` / :func:`~mteb_evalrank.data.files.atomic_target`, which also
take part in a command's all-or-nothing outputs (output protection stays there: it needs the result layout).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from mteb_evalrank.file_names import FILE_NAME_ERRORS


def _mode_for(path: Path) -> int:
    """The mode of the file at ``path``, else the umask's for a new file."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def temporary_sibling(path: str | os.PathLike[str]) -> Path:
    """A new empty temporary file next to ``path`` (hidden, same suffix, so writers that go by it still work),
    with the mode of the file it will replace (else the umask's); the caller renames it (:func:`move_file`) or
    removes it."""
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem[:100]}.", suffix=f".tmp{path.suffix[:20]}", dir=path.parent)
    os.close(fd)
    try:  # mkstemp makes the file private (0600)
        os.chmod(name, _mode_for(path))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system lets a folder be opened
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def replace_file(
    path: str | os.PathLike[str], data: bytes | str, *, encoding: str = "utf-8", durable: bool = False
) -> Path:
    """Write ``data`` (``str`` is encoded with ``encoding``) to ``path`` through a temporary file renamed over it;
    the new file keeps the mode of the file it replaces (else the umask's).  ``durable``: the data and the rename
    are flushed to disk before returning.  Returns ``path``."""
    path = Path(path)
    raw = data.encode(encoding, FILE_NAME_ERRORS) if isinstance(data, str) else data  # \xe9 for a non-UTF-8 name
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_sibling(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        move_file(tmp, path)
        if durable:
            _fsync_folder(path.parent)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # only there when the write or the rename failed
    return path


def move_file(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Rename ``source`` over ``target`` in one step (``os.replace``: atomic on one file system; a symlink at
    ``target`` is replaced, never written through).  Returns ``target``."""
    os.replace(source, target)
    return Path(target)


def replace_all(staged: Iterable[tuple[str | os.PathLike[str], str | os.PathLike[str]]]) -> None:
    """All-or-nothing staging: rename each ``(temporary, target)`` pair in order; when a rename fails
    (read-only, no permission), every temporary file still there is removed and the error raised."""
    pairs = list(staged)
    try:
        for tmp, target in pairs:
            move_file(tmp, target)
    except BaseException:
        discard(tmp for tmp, _ in pairs)
        raise


def discard(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Remove each temporary file of ``paths`` that is still there."""
    for tmp in paths:
        with contextlib.suppress(OSError):
            Path(tmp).unlink(missing_ok=True)


def replace_folder(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Rename the finished folder ``source`` to ``target`` (which must not exist, or be an empty folder)."""
    os.replace(source, target)
    return Path(target)


@contextlib.contextmanager
def staged_folder(target: str | os.PathLike[str], *, prefix: str | None = None) -> Iterator[Path]:
    """A new hidden folder next to ``target``; when the block ends without an exception it is renamed to
    ``target`` (:func:`replace_folder`), otherwise removed with what it holds: ``target`` appears complete or
    not at all."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=prefix or f".{target.name}-", dir=target.parent))
    try:
        yield tmp
        replace_folder(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def scratch_folder(*, prefix: str | None = None, dir: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """A temporary folder (below ``dir``, default the system's), removed with what it holds afterwards."""
    with tempfile.TemporaryDirectory(prefix=prefix, dir=dir) as tmp:
        yield Path(tmp)


def make_scratch_folder(*, prefix: str | None = None, dir: str | os.PathLike[str] | None = None) -> Path:
    """A new temporary folder the caller removes (or renames into place with :func:`replace_folder`)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=dir))


def probe_write(folder: str | os.PathLike[str]) -> None:
    """Create and remove a file in ``folder``; the :class:`OSError` of a folder that takes none is raised."""
    fd, probe = tempfile.mkstemp(prefix=".mteb-evalrank-write-test-", dir=folder)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


__all__ = [
    "discard",
    "make_scratch_folder",
    "move_file",
    "probe_write",
    "replace_all",
    "replace_file",
    "replace_folder",
    "scratch_folder",
    "staged_folder",
    "temporary_sibling",
]
