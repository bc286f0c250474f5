"""What a path names when it is not a regular file (layer 0: standard library only, so that the model
resolver and the catalogue reader, below :mod:`mteb_evalrank.data.files`, name a FIFO, a device or a symlink
loop as such instead of "not found").  :func:`special_file_kind` is re-exported by
:mod:`mteb_evalrank.data.files`."""

from __future__ import annotations

import errno
import os
import stat


def special_file_kind(path: str | os.PathLike) -> str | None:
    """What ``path`` is when it is not a regular file (symlinks followed), or ``None`` for a regular file.

    ``"does not exist"``, ``"a folder"``, ``"a FIFO (named pipe)"``, ``"a character device"``, ``"a block
    device"``, ``"a socket"``, ``"a symlink loop"``, ``"a broken symlink"``, ``"a file named as a folder (a
    trailing '/' or a file on the way)"``: :func:`os.stat` answers without opening the file, so a FIFO or a
    device is named, never read (reading a FIFO blocks forever).  A ``str`` path keeps a trailing ``/``
    (``pathlib`` drops it), so ``file.txt/`` is not the file ``file.txt``.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symlink loop"
        if exc.errno == errno.ENOENT:
            return "a broken symlink" if os.path.islink(path) else "does not exist"
        if exc.errno == errno.ENOTDIR:
            return "a file named as a folder (a trailing '/' or a file on the way)"
        if exc.errno == errno.ENAMETOOLONG:
            return "a name longer than the file system allows"
        return f"not readable ({exc.strerror or type(exc).__name__})"
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


#: what an output path may not be: a file written there would go to a device or a pipe, or replace the node
NOT_AN_OUTPUT = (
    "a FIFO (named pipe)",
    "a character device",
    "a block device",
    "a socket",
    "a symlink loop",
    "not a regular file",
)


def output_path_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` (as given, before any suffix is added) cannot be an output file: what it is when it is a FIFO,
    a device, a socket or a symlink loop; ``None`` otherwise (a new name, a regular file or a broken symlink is
    replaced by a new file; a folder or a file on the way is named by the output checks)."""
    kind = special_file_kind(path)
    return kind if kind in NOT_AN_OUTPUT else None
