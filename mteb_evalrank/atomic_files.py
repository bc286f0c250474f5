"""One atomic file write for the layers below :mod:`mteb_evalrank.data` (standard library only).

:func:`replace_file` writes bytes to a temporary file next to the target and renames it over the target
(``os.replace``): an interrupted write leaves the previous file whole, never half a file, and a symlink at the
target is replaced, never written through.  :mod:`mteb_evalrank.models` (which may not import ``data``) writes
its kept files (``speeds.json``, an ONNX export's spec) with it; every other layer uses
:func:`mteb_evalrank.data.files.atomic_write_text` / :func:`~mteb_evalrank.data.files.atomic_target`, which also
take part in a command's all-or-nothing outputs."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from mteb_evalrank.file_names import FILE_NAME_ERRORS


def replace_file(path: str | os.PathLike[str], data: bytes | str, *, encoding: str = "utf-8") -> Path:
    """Write ``data`` (``str`` is encoded with ``encoding``) to ``path`` through a temporary file renamed over it;
    the new file keeps the mode of the file it replaces (else the umask's).  Returns ``path``."""
    path = Path(path)
    raw = data.encode(encoding, FILE_NAME_ERRORS) if isinstance(data, str) else data  # \xe9 for a non-UTF-8 name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem[:100]}.", suffix=f".tmp{path.suffix[:20]}", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0o022)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(name, mode)
        os.replace(name, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)  # only there when the write or the rename failed
    return path
