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
from collections.abc import Iterable, Iterator
from pathlib import Path

from mteb_evalrank.atomic_files import discard, move_file, replace_all, temporary_sibling
from mteb_evalrank.data.result_layout import MODEL_META, RUN_SETTINGS
from mteb_evalrank.errors import InputError, SourceFormatError
from mteb_evalrank.file_kinds import output_path_problem, special_file_kind
from mteb_evalrank.file_magic import compressed_kind, text_problem
from mteb_evalrank.file_names import FILE_NAME_ERRORS
from mteb_evalrank.hashing import file_sha256  # noqa: F401  (checksums of downloads and cache shards)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def read_text(path: Path, *, what: str = "file", encoding: str = "utf-8", limit: int | None = None) -> str:
    """The whole of ``path`` decoded with ``encoding`` (universal newlines are left to the caller); only a
    regular file of at most ``limit`` bytes (default :data:`MAX_TEXT_BYTES`) is read (:func:`read_bytes`).
    UTF-16 or UTF-32 text (also without a byte-order mark) and a NUL byte are refused naming the file (and the
    line of the NUL): :func:`mteb_evalrank.file_magic.text_problem`."""
    path = Path(path)
    data = read_bytes(path, what=what, limit=limit)
    problem = text_problem(data)
    if problem is not None:
        raise SourceFormatError(path, f"the {what} {problem[0]}", line=problem[1])
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise decoding_error(path, exc, what=what, encoding=encoding) from exc


#: Largest text file read whole (corpora, SentEval JSON, score tables, families files): 2 GiB.
MAX_TEXT_BYTES = 2 * 2**30


def check_regular_file(path: Path, *, what: str = "file") -> Path:
    """``path`` if it is a regular file (symlinks followed); else :class:`InputError` naming what it is."""
    kind = special_file_kind(Path(path))
    if kind == "does not exist":
        raise InputError(f"{what} {path} does not exist.")
    if kind == "a folder":
        raise InputError(f"{what} {path} is a folder, not a file.")
    if kind is not None:
        raise InputError(f"{what} {path} is {kind}, not a regular file; give a regular file.")
    return Path(path)


def read_bytes(path: Path, *, what: str = "file", limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (:func:`check_regular_file`), at most ``limit`` bytes (default
    :data:`MAX_TEXT_BYTES`): a larger file is refused before it is read."""
    path = check_regular_file(Path(path), what=what)
    limit = MAX_TEXT_BYTES if limit is None else limit
    try:
        size = path.stat().st_size
        if size > limit:
            raise InputError(f"{what} {path} has {size:,} bytes; the limit is {limit:,}.")
        with path.open("rb") as fh:  # never more than the limit, also when the file grows meanwhile
            data = fh.read(limit + 1)
    except OSError as exc:  # unreadable file, or a folder on the way that cannot be entered
        raise InputError(f"cannot read {what} {path}: {_reason(exc)}.") from exc
    if len(data) > limit:  # grew while read
        raise InputError(f"{what} {path} has more than {limit:,} bytes; the limit is {limit:,}.")
    return data


def regular_files(paths: Iterable[Path], *, what: str = "file") -> list[Path]:
    """The regular files among ``paths`` (symlinks followed); every other entry (FIFO, device, socket,
    symlink loop, broken symlink, folder) is skipped with one warning naming it and what it is."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    kept = []
    for path in paths:
        kind = special_file_kind(Path(path))
        if kind is None:
            kept.append(Path(path))
        else:
            warnings.warn(f"skipped {path}: {kind}, not a regular {what}.", EvalRankWarning, stacklevel=2)
    return kept


def read_lines(path: Path, *, what: str = "file", encoding: str = "utf-8") -> list[str]:
    """The non-blank lines of a text file, stripped (errors as in :func:`read_text`)."""
    return [line.strip() for line in read_text(path, what=what, encoding=encoding).splitlines() if line.strip()]


def decoding_error(
    path: Path, exc: UnicodeDecodeError, *, what: str = "file", encoding: str = "utf-8"
) -> SourceFormatError:
    """The error for a file that is not in ``encoding``: names the file, the line, the column and the encoding; a
    compressed file (gzip, bzip2, xz, zip) is named as such instead."""
    data = bytes(exc.object)
    kind = compressed_kind(data[:6])
    if kind is not None:
        return SourceFormatError(path, f"a {kind}-compressed file, not text; decompress it first")
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
    from mteb_evalrank.atomic_files import probe_write

    try:
        probe_write(folder)
    except OSError as exc:
        where = path if path is not None else folder
        raise InputError(f"cannot write {what} {where}: {_reason(exc)}.") from exc


def output_dir(path: Path, *, what: str = "output folder", create: bool = True) -> Path:
    """Create folder ``path`` (and its parents) unless it exists and check that files can be written into
    it; return it (``create=False``: only check what is on the way, write nothing)."""
    path = Path(path)
    check_name_lengths(path, what)
    kind = output_path_problem(path)
    if kind is not None:  # a FIFO, a device, a socket or a symlink loop where the folder goes
        raise InputError(f"{what} {path} is {kind}, not a folder.")
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
    """Why ``path`` (an existing file; a symlink is judged by the file it points to) must not be replaced by
    an output option, or ``None``.

    Protected: an MTEB result file (a JSON object with ``task_name`` and ``scores``, what ``TaskResult``
    writes, or MTEB 1.x's ``mteb_dataset_name``), a ``model_meta.json`` (a JSON object with ``name``; MTEB
    writes one into every result folder), a ``run_settings.jsonl``, the per-item values beside a result
    (``<Task>.items.npz``), and any other file of a folder that holds a ``model_meta.json`` or
    ``run_settings.jsonl`` (a result folder: its truncated or foreign files too, whatever their suffix).
    """
    import json

    path = Path(os.path.realpath(path))
    try:
        if not path.is_file():
            return None
        if path.name == RUN_SETTINGS:
            return "the run settings of an MTEB result folder"
        if path.name.endswith(ITEMS_SUFFIX):
            return "the per-item values of an MTEB result"
        in_result_folder = _in_result_folder(path)
        if path.suffix.lower() not in (".json", ".jsonl"):
            return "a file of an MTEB result folder" if in_result_folder else None
        if path.stat().st_size > _PROTECT_PROBE_BYTES:
            return "a file of an MTEB result folder" if in_result_folder else None
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return "a file of an MTEB result folder" if _in_result_folder(path) else None
    if isinstance(data, dict):
        if ("task_name" in data and "scores" in data) or "mteb_dataset_name" in data:
            return f"an MTEB result file (task {data.get('task_name', data.get('mteb_dataset_name'))})"
        if path.name == MODEL_META and "name" in data:
            return "the model metadata of an MTEB result folder"
    if in_result_folder:
        return "a file of an MTEB result folder"
    return None


def _in_result_folder(path: Path) -> bool:
    try:
        return any((path.parent / name).is_file() for name in (MODEL_META, RUN_SETTINGS))
    except OSError:
        return False


def _check_not_protected(path: Path, what: str) -> None:
    reason = protected_file_reason(path)
    if reason is not None:
        raise InputError(f"{what} {path} is {reason}; an output option never writes over it. Give another file name.")


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
    kind = special_file_kind(path)
    if kind not in (None, "does not exist", "a broken symlink"):
        raise InputError(f"{what} {path} is {kind}; an output is written as a new regular file: give a file name.")
    _check_not_protected(path, what)
    # nothing is created here: the folder is made when the file is written (atomic_target)
    existing = next((p for p in (path.parent, *path.parents) if p.is_dir()), None)
    if existing is not None:
        check_writable_folder(existing, what=what, path=path)
    return path


#: Figures named without a suffix whose ``.png`` was announced (:func:`figure_file`), by absolute path.
_NAMED_PNG: set[str] = set()


def figure_file(path: Path, *, what: str = "figure file") -> Path:
    """:func:`output_file` for a matplotlib figure: a known image type; no suffix means ``.png``, with a warning
    naming the file written."""
    from matplotlib.backend_bases import FigureCanvasBase

    path = Path(path)
    check_name_lengths(path, what)
    kind = output_path_problem(path)
    if kind is not None:  # as given: /dev/full is not the place for /dev/full.png
        raise InputError(f"{what} {path} is {kind}; an output is written as a new regular file: give a file name.")
    if not path.suffix and not path.is_dir():
        import warnings

        from mteb_evalrank.errors import EvalRankWarning

        path = path.with_suffix(".png")  # what matplotlib would write
        key = os.path.abspath(path)
        if key not in _NAMED_PNG:  # once per file: a command checks the name before the work and again to write
            _NAMED_PNG.add(key)
            warnings.warn(
                EvalRankWarning(f"{what} {path.with_suffix('')} has no file type; writing {path}."), stacklevel=2
            )
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
        key = Path(os.path.realpath(checked))
        if key in seen:
            raise InputError(f"{seen[key]} and {option} name the same file {checked}; give each its own file.")
        seen[key] = option


#: Files a results-folder walk reads: an output file of such a name is never written inside an input folder.
_READ_BY_WALKS = (".json", ".jsonl", ".npz")
#: The per-item values written beside a result file (``mteb_evalrank.integration.item_values.SUFFIX``).
ITEMS_SUFFIX = ".items.npz"


def _inside(child: str, parent: str) -> bool:
    return child != parent and child.startswith(parent.rstrip(os.sep) + os.sep)


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)  # hard links, bind mounts
    except OSError:
        return False


def check_inputs_are_not_outputs(
    inputs: Iterable[tuple[str, Path | str | None]],
    outputs: Iterable[tuple[str, Path | str | None, str]],
) -> None:
    """Refuse, before any work, an output that is, contains or lies inside an input.

    ``inputs``: ``(option, path)``, files or folders the command reads (``None`` and missing paths skipped).
    ``outputs``: ``(option, path, kind)`` with kind ``"file"``, ``"folder"`` (for a folder, give the part
    the command writes into, e.g. ``OUT/results``) or ``"cache"`` (a folder of the plugin cache the command
    builds or replaces, e.g. fetched weights: it may lie inside an input folder, never be or hold one).  Paths are compared as real paths (symlinks and ``..``
    resolved) and with :func:`os.path.samefile` (hard links).  The rule, for input ``I`` and output ``O``:

    - ``O`` is ``I``: refused (the input would be replaced);
    - ``O`` is a folder (or a cache folder) and ``I`` lies inside it: refused (the output folder contains the
      input);
    - ``O`` lies inside the folder ``I``: refused for an output folder, and for an output file that a results
      walk would read (``.json``/``.jsonl``); another file (``RESULTS/correlation.csv``) is allowed.
    """
    ins = []
    for option, path in inputs:
        if path is None or str(path) == "" or not os.path.lexists(path):
            continue
        ins.append((option, str(path), os.path.realpath(path), os.path.isdir(path)))
    for out_option, out, kind in outputs:
        if out is None or str(out) == "":
            continue
        real_out = os.path.realpath(out)
        for in_option, given, real_in, in_is_dir in ins:
            if kind == "cache" and (_same(real_out, real_in) or _inside(real_in, real_out)):
                raise InputError(
                    f"{in_option} {given} is inside {out_option} {out}, which this command builds or replaces; "
                    "move the input elsewhere (or point MTEB_EVALRANK_CACHE to another cache)."
                )
            if _same(real_out, real_in):
                raise InputError(
                    f"{out_option} {out} is the input {in_option} {given}; an output never replaces an input. "
                    "Give another name."
                )
            if kind == "folder" and _inside(real_in, real_out):
                raise InputError(
                    f"{out_option} {out} contains the input {in_option} {given}; write the output elsewhere."
                )
            if (
                in_is_dir
                and _inside(real_out, real_in)
                and (kind == "folder" or Path(real_out).suffix.lower() in _READ_BY_WALKS)
            ):
                if kind == "file":
                    _check_not_protected(Path(out), f"{out_option} file")  # the more telling message first
                raise InputError(
                    f"{out_option} {out} lies inside the input {in_option} {given}; write the output elsewhere."
                )


#: While :func:`all_or_nothing` runs: the ``(temporary, target)`` renames not done yet and the folders made.
_STAGED: list[tuple[Path, Path]] | None = None
_MADE_FOLDERS: list[Path] | None = None
#: The outputs the running command declared (real paths): only writes to them, or into them, are staged.
_DECLARED: tuple[tuple[str, bool], ...] = ()


def _declared(path: Path) -> bool:
    real = os.path.realpath(path)
    # (a figure named without a suffix is written as .png: figure_file)
    return any(real in (out, out + ".png") or (is_folder and _inside(real, out)) for out, is_folder in _DECLARED)


def _make_parents(folder: Path) -> None:
    """``folder.mkdir(parents=True, exist_ok=True)``, remembering (inside :func:`all_or_nothing`) which
    folders were new, so that they can be removed again when the command fails."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    if _MADE_FOLDERS is not None:
        _MADE_FOLDERS.extend(missing)  # deepest first


def remove_new_empty_folders(folders: Iterable[Path]) -> None:
    """Remove each of ``folders`` (deepest first) that is empty; a folder holding anything is kept."""
    for folder in sorted({Path(f) for f in folders}, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            folder.rmdir()


def folders_below(roots: Iterable[Path | str | None]) -> set[str]:
    """Every folder below each of ``roots`` that exists now (symlinks not followed), for
    :func:`remove_empty_folders_made`."""
    found: set[str] = set()
    for root in roots:
        if root and os.path.isdir(root):
            found.update(dirpath for dirpath, _, _ in os.walk(root))
    return found


def remove_empty_folders_made(roots: Iterable[Path | str | None], before: set[str]) -> None:
    """Remove every empty folder below ``roots`` (deepest first) that was not there ``before``
    (:func:`folders_below`): what a failed command made, e.g. a model's result folder whose first file could not
    be written.  A folder holding anything, and a folder that was there before, is kept."""
    for root in roots:
        if not root or not os.path.isdir(root):
            continue
        for dirpath, _, _ in os.walk(root, topdown=False):
            if dirpath not in before:
                with contextlib.suppress(OSError):
                    os.rmdir(dirpath)


@contextlib.contextmanager
def all_or_nothing(outputs: Iterable[tuple[str, Path | str | None, str]] = ()) -> Iterator[None]:
    """Every file of ``outputs`` (``(option, path, kind)`` as for :func:`check_inputs_are_not_outputs`; a
    folder stands for every file in it) written through :func:`atomic_target` inside the block is renamed over
    its target only when the block ends without an exception; otherwise every temporary file is removed, and
    so is every folder created for them: a command that fails leaves nothing behind, not even the first of its
    outputs.  Other files (scratch figures, caches) are written at once."""
    global _STAGED, _MADE_FOLDERS, _DECLARED
    if _STAGED is not None:  # nested: the outer block decides
        yield
        return
    _DECLARED = tuple((os.path.realpath(path), kind == "folder") for _, path, kind in outputs if path)
    _STAGED, _MADE_FOLDERS = [], []
    staged, made = _STAGED, _MADE_FOLDERS
    try:
        yield
    except BaseException:
        discard(tmp for tmp, _ in staged)
        remove_new_empty_folders(made)
        raise
    finally:
        _STAGED = _MADE_FOLDERS = None
        _DECLARED = ()
    replace_all(staged)  # a rename refused (read-only, no permission): no temporary file is left behind


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path`` (same suffix, so writers that go by it still work); when the block
    ends without an exception it is renamed over ``path`` (``os.replace``: a symlink at ``path`` is replaced,
    never written through), otherwise removed.  Inside :func:`all_or_nothing` the rename waits for the end
    of that block."""
    path = Path(path)
    deferred = _STAGED is not None and _declared(path)
    if deferred:
        _make_parents(path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_sibling(path)  # the mode of the file it replaces, or the umask's
    staged = False
    try:
        yield tmp
        if deferred and _STAGED is not None:
            _STAGED.append((tmp, path))
            staged = True
        else:
            move_file(tmp, path)
    finally:
        if not staged:
            discard([tmp])


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed over it."""
    with atomic_target(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def atomic_write_text(path: Path, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` through a temporary file renamed over it.  A file name that is not UTF-8 in the
    text (a result file or model folder named with the byte ``\xe9``) is written as ``\xe9``
    (:mod:`mteb_evalrank.file_names`), never a ``UnicodeEncodeError`` after the work is done."""
    return atomic_write_bytes(path, text.encode(encoding, FILE_NAME_ERRORS))


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
