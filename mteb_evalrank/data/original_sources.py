"""The raw sources, downloaded from their original public locations with pooch, checked, and laid out like ``shared/data/sources``.

This is the last way the plugin gets its data (after ``MTEB_EVALRANK_DATA``, ``MTEB_EVALRANK_SOURCES``
and the pinned Hub copy): :func:`ensure_sources` downloads the files a dataset's builder reads into
the plugin cache, in the *sources layout* (the layout of ``shared/data/sources`` that
``mteb-evalrank build-data --sources`` reads), and the dataset is then built locally on first use.

Every file is pinned in a data file, ``original_sources.txt`` next to this module (a pooch registry
with more columns: destination path, sha256, size, the datasets that read it, and one or more URLs at
a fixed commit, tried in order, all serving the same bytes).  :func:`load_registry` reads it into
:data:`MANIFEST`.  Bytes whose sha256 is not pinned are never used.

- **Where the files come from.**  The word-similarity sets: ``mfaruqui/eval-word-vectors`` at
  ``10a573a`` (2017-09-15; the later commit ``b7e72d1`` and its two successors changed three files'
  separators from spaces to tabs, so that revision is not the one the EvalRank toolkit used).
  ``wiki_vocab_20k.txt`` and SentEval's preprocessed STS / SICK / transfer-task files (read by the
  ``evalrank-sent``, ``sts-senteval`` and ``senteval-downstream`` builders): the EvalRank toolkit,
  ``BinWang28/EvalRank-Embedding-Evaluation`` at ``c6422db`` (also the fallback for the
  word-similarity sets, STR and SST, whose bytes are identical there).  STR:
  ``Priya22/semantic-textual-relatedness`` at ``961f9a9``.  SST binary / fine-grained: the URLs of
  SentEval's ``get_transfer_data.bash`` (``PrincetonML/SIF``, ``AcademiaSinicaNLPLab/sentiment_dataset``)
  at pinned commits.  The original cased STS Benchmark (``stsbenchmark_raw/``, read by the N2O corpus
  builder): the release archive ``Stsbenchmark.tar.gz`` at the URL SentEval uses, with a byte-identical
  copy in ``eduardofv/sts_eval`` (committed 2021-06-14, "retrieved from ixa2") as fallback; the
  archive's sha256 and every extracted member's sha256 are checked.  HEROS: ``heros.tsv`` of
  ``dcml0714/Heros`` at the revision the HEROS task pins; its sha256 could not be computed offline, so
  that entry refuses to download until it is filled in (the HEROS task itself loads the file with
  ``huggingface_hub``).
- **Differences from shared/data/sources.**  The layout is the same, file for file (HEROS aside, which
  is not in it).  The bytes are the same except ``stsbenchmark_raw/sts-train.csv``: the release (and
  this download) has LF line ends and a trailing space on four lines, the shared copy CRLF and no such
  spaces.  The builder strips both, so the N2O corpus built from either is the same (fingerprint
  ``a51413099fdf9b72``).
- **Downloads go through pooch** (:class:`pooch.Pooch`): each file is streamed to a temporary file in
  its destination folder, its sha256 is checked, and only then is it moved into place, so a file that
  is present is complete.  Files already present are re-hashed and kept when they match.  A dropped
  connection or a checksum mismatch is retried by pooch (``retries`` more times, waiting 1 s, 2 s, ...);
  a refused connection or an HTTP error moves on to the next URL at once.  An archive is extracted with
  pooch's ``Untar`` / ``Unzip`` processors and each member's sha256 is checked before it is moved to its
  destination.  One process at a time writes into a folder (:func:`~mteb_evalrank.data.files.file_lock`).
  A progress bar (tqdm, bytes; pooch's) is shown on stderr.
- **No resume.**  pooch has no HTTP ``Range`` support: an interrupted file is downloaded again from its
  start.  The largest file here is 3.8 MB (SST-2's training file; all of them together 26 MB), so the
  plugin keeps pooch's behaviour rather than its own resuming HTTP client.
- **Errors** are one line, name the URL(s) and the reason, and are
  :class:`~mteb_evalrank.errors.DataNotFoundError` (:class:`SourceDownloadError`).
- **Mirror.**  ``MTEB_EVALRANK_SOURCE_MIRROR=BASE`` replaces every URL ``scheme://host/path`` by
  ``BASE/host/path`` (e.g. ``http://mirror.local/sources/raw.githubusercontent.com/...``;
  ``file:///srv/mirror`` works too).  Only the mirror is used then.
- **Offline.**  With ``MTEB_EVALRANK_OFFLINE=1``, or ``HF_HUB_OFFLINE=1`` and
  ``MTEB_EVALRANK_OFFLINE`` unset, nothing is downloaded: files already present and verified are used,
  anything missing fails at once with a message naming the variables to set
  (``MTEB_EVALRANK_SOURCES`` / ``MTEB_EVALRANK_DATA``).  ``MTEB_EVALRANK_OFFLINE=0`` allows the
  downloads while the Hub stays offline.  An explicitly configured mirror is still used offline (it
  is how machines without internet access reach a local copy).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sys
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mteb_evalrank.atomic_files import move_file
from mteb_evalrank.data.files import file_lock, file_sha256
from mteb_evalrank.errors import DataNotFoundError, InputError

MIRROR_ENV = "MTEB_EVALRANK_SOURCE_MIRROR"
OFFLINE_ENV = "MTEB_EVALRANK_OFFLINE"
HF_OFFLINE_ENV = "HF_HUB_OFFLINE"
SOURCES_ENV = "MTEB_EVALRANK_SOURCES"
DATA_ENV = "MTEB_EVALRANK_DATA"

#: Bump when a checksum or a destination changes: the default download folder is versioned, so a
#: dataset built from an older set of files is not reused.
MANIFEST_VERSION = 1
#: The pinned registry of every source file (see the module docstring and the file's own header).
REGISTRY_FILE = Path(__file__).with_name("original_sources.txt")
DEFAULT_TIMEOUT = 30.0  # seconds, per connection attempt and per read
DEFAULT_RETRIES = 2  # pooch's retries after a dropped connection or a checksum mismatch (per URL)
_USER_AGENT = "mteb-evalrank (original-sources downloader; +https://github.com/embeddings-benchmark/mteb)"
_SHA256 = re.compile(r"[0-9a-f]{64}")
_LOCK_NAME = ".mteb_evalrank-download.lock"
_ARCHIVE_DIR = ".archives"


class SourceDownloadError(DataNotFoundError):
    """A source file could not be downloaded, or its bytes are not the pinned ones (one-line message)."""

    def __init__(self, message: str, urls: Sequence[str] = ()) -> None:
        self.urls = tuple(urls)
        super().__init__(" ".join(str(message).split()))  # always one line


# --- the manifest ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Archive:
    """A downloadable archive (``.tar.gz``/``.tgz``/``.tar``/``.zip``) some source files are extracted from."""

    name: str  # file name in the download folder (.archives/NAME)
    urls: tuple[str, ...]
    sha256: str | None  # None: not pinned (then every member must be pinned)
    size: int | None = None

    def __post_init__(self) -> None:
        _check_urls(self.name, self.urls)
        _check_sha(self.name, self.sha256)
        if not self.name.endswith((".tar.gz", ".tgz", ".tar", ".zip")) or "/" in self.name:
            raise ValueError(f"archive name {self.name!r}: expected a plain .tar.gz/.tgz/.tar/.zip file name")


@dataclass(frozen=True)
class SourceFile:
    """One file of the sources layout: where it goes, where it comes from, and what it must hash to."""

    dest: str  # relative POSIX path in the sources layout, e.g. "word_similarity/EN-MC-30.txt"
    urls: tuple[str, ...]  # tried in order; empty when the file comes from an archive
    sha256: str | None  # sha256 of the file as written at dest; None: not pinned (refused)
    size: int | None
    datasets: tuple[str, ...]  # the dataset names (builders) that read this file
    archive: Archive | None = None
    member: str | None = None  # path inside the archive

    def __post_init__(self) -> None:
        p = PurePosixPath(self.dest)
        if p.is_absolute() or not self.dest or ".." in p.parts or "\\" in self.dest:
            raise ValueError(f"destination {self.dest!r}: expected a relative POSIX path inside the sources folder")
        _check_sha(self.dest, self.sha256)
        if (self.archive is None) != (self.member is None):
            raise ValueError(f"{self.dest}: archive and member go together")
        if self.archive is None:
            _check_urls(self.dest, self.urls)
        elif self.urls:
            raise ValueError(f"{self.dest}: a file extracted from an archive has no URLs of its own")
        if not self.datasets:
            raise ValueError(f"{self.dest}: no dataset reads it")

    @property
    def archive_member(self) -> str:
        """The path inside the archive; only an archive member has one."""
        if self.member is None:
            raise AssertionError(f"{self.dest} is not an archive member")
        return self.member

    @property
    def sources(self) -> tuple[str, ...]:
        """The original URLs of this file (of its archive, for an archive member)."""

        return self.archive.urls if self.archive is not None else self.urls

    @property
    def verifiable(self) -> bool:
        """Whether the downloaded bytes can be checked against a pinned sha256."""
        return self.sha256 is not None or (self.archive is not None and self.archive.sha256 is not None)


def _check_sha(what: str, sha: str | None) -> None:
    if sha is not None and not _SHA256.fullmatch(sha):
        raise ValueError(f"{what}: sha256 must be 64 lowercase hex digits, got {sha!r}")


def _check_urls(what: str, urls: tuple[str, ...]) -> None:
    if not isinstance(urls, tuple) or not urls:
        raise ValueError(f"{what}: needs at least one URL (a tuple)")
    for url in urls:
        if not re.match(r"^(https?|file)://[^/]+/", url) and not url.startswith("file:///"):
            raise ValueError(f"{what}: {url!r} is not an absolute http(s) or file URL")


def load_registry(path: str | os.PathLike = REGISTRY_FILE) -> tuple[SourceFile, ...]:
    """Read a registry file (the format is described in its header) into :class:`SourceFile` entries.

    A malformed line raises :class:`ValueError` naming the file and the line: the registry ships with
    the package, so a broken one is a packaging bug, not a user error.
    """
    archives: dict[str, Archive] = {}
    entries: list[SourceFile] = []

    def pinned(value: str, kind=str):
        return None if value == "-" else kind(value)

    path = Path(path)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            kind, name, sha, size, *rest = fields
            if kind == "archive":
                archives[name] = Archive(name, tuple(rest), pinned(sha), pinned(size, int))
            elif kind == "file":
                datasets, *urls = rest
                entries.append(
                    SourceFile(name, tuple(urls), pinned(sha), pinned(size, int), tuple(datasets.split(",")))
                )
            elif kind == "member":
                datasets, archive, member = rest
                entries.append(
                    SourceFile(
                        name,
                        (),
                        pinned(sha),
                        pinned(size, int),
                        tuple(datasets.split(",")),
                        archive=archives[archive],
                        member=member,
                    )
                )
            else:
                raise ValueError(f"unknown record kind {kind!r}")
        except (ValueError, KeyError) as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
    return tuple(entries)


MANIFEST: tuple[SourceFile, ...] = load_registry()
#: STS Benchmark release (Cer et al., 2017), the archive the N2O corpus's cased sentences come from.
STSBENCHMARK_ARCHIVE: Archive = next(e.archive for e in MANIFEST if e.archive is not None)
#: heros.tsv at the revision the HEROS task pins (hub_datasets/heros/build.py: SOURCE_REVISION).
HEROS_URL: str = next(e.urls[0] for e in MANIFEST if e.dest == "heros/heros.tsv")

#: Dataset name (a builder of :mod:`mteb_evalrank.hub_datasets`) -> what its input files are.
DATASETS: dict[str, str] = {
    "evalrank-word": "13 word-similarity sets and the 20k frequent-word list",
    "evalrank-sent": "STS Benchmark (SentEval's preprocessed copy) and STR-2022",
    "n2o-corpus": "STS Benchmark, original release (cased)",
    "sts-senteval": "STS12-16, STS Benchmark, SICK (SentEval's preprocessed copies) and STR-2022",
    "senteval-downstream": "SentEval transfer tasks (MR, CR, SUBJ, MPQA, SST, TREC, MRPC, SICK-E) and SciCite",
    "heros": "heros.tsv of dcml0714/Heros (sha256 not pinned yet: refused)",
    "word-similarity": "the 13 word-similarity sets (WS-353, RW, MEN, MTurk, SimLex, SimVerb, MC, RG, YP, VERB)",
}
#: What :func:`download_sources` fetches by default: every dataset whose files are all pinned (not HEROS).
DEFAULT_DATASETS: tuple[str, ...] = (
    "evalrank-word",
    "evalrank-sent",
    "n2o-corpus",
    "sts-senteval",
    "senteval-downstream",
    "word-similarity",
)
#: Destination of the STR csv (its text is restored from it when the published dataset is used).
STR_DEST = "sts_senteval/STR/sem_text_rel_ranked.csv"


# --- public functions ------------------------------------------------------------------------
def default_sources_dir() -> Path:
    """Where :func:`ensure_sources` puts the files: ``<plugin cache>/original-sources/v<MANIFEST_VERSION>``."""
    from mteb_evalrank.data.paths import cache_dir

    return cache_dir() / "original-sources" / f"v{MANIFEST_VERSION}"


def offline() -> bool:
    """Whether downloads are switched off: ``MTEB_EVALRANK_OFFLINE`` if set, else ``HF_HUB_OFFLINE``."""
    own = os.environ.get(OFFLINE_ENV, "").strip()
    if own:
        return _truthy(own)
    return _truthy(os.environ.get(HF_OFFLINE_ENV, ""))


def manifest_for(
    datasets: str | Iterable[str] | None = None, manifest: Sequence[SourceFile] = MANIFEST
) -> tuple[SourceFile, ...]:
    """The entries of ``manifest`` read by ``datasets`` (None: :data:`DEFAULT_DATASETS`; ``"all"``: every one)."""
    names = _dataset_names(datasets, manifest)
    return tuple(e for e in manifest if names.intersection(e.datasets))


def ensure_sources(
    datasets: str | Iterable[str] | None = None, *, dest_dir: str | os.PathLike | None = None, progress: bool = True
) -> Path:
    """Download (once) what the builders of ``datasets`` read; return the sources folder to build from.

    The folder defaults to :func:`default_sources_dir`.  This is the fourth step of data resolution.
    """
    root = Path(dest_dir).expanduser() if dest_dir is not None else default_sources_dir()
    download_sources(root, datasets=datasets, progress=progress)
    return root


def download_sources(
    dest_dir: str | os.PathLike,
    datasets: str | Iterable[str] | None = None,
    progress: bool = True,
    *,
    files: Iterable[str] | None = None,
    manifest: Sequence[SourceFile] = MANIFEST,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
) -> list[Path]:
    """Download the source files of ``datasets`` (and/or the destinations ``files``) into ``dest_dir``.

    Files already present with the pinned sha256 are kept; the others are downloaded (see the module
    docstring for retries, mirrors and offline use).  Returns the paths of all selected files, in
    manifest order.  Raises :class:`SourceDownloadError` (a :class:`DataNotFoundError`) naming the
    URL(s) when a file cannot be had, and :class:`~mteb_evalrank.errors.InputError` for an unknown
    dataset name or destination.
    """
    if retries < 0:
        raise InputError(f"retries must be >= 0, got {retries}")
    if timeout <= 0:
        raise InputError(f"timeout must be > 0 seconds, got {timeout}")
    root = Path(dest_dir).expanduser()
    entries = _select(datasets, files, manifest)
    for entry in entries:
        if not entry.verifiable:
            raise SourceDownloadError(
                f"No sha256 is pinned for {entry.dest} ({entry.sources[0]}), and the plugin does not use "
                "unverified downloads. Download and check it yourself and place it at "
                f"{root / entry.dest} (or set {SOURCES_ENV}=DIR with it at DIR/{entry.dest}), or pin its "
                f"sha256 in {REGISTRY_FILE.name} (mteb_evalrank/data/).",
                entry.sources,
            )
    mirror = os.environ.get(MIRROR_ENV, "").strip().rstrip("/") or None
    if offline() and mirror is None:  # use what is there, touch nothing, fail at once
        missing = [e for e in entries if not _present(root, e)]
        if missing:
            raise SourceDownloadError(_offline_message(missing), missing[0].sources)
        return [root / e.dest for e in entries]
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceDownloadError(f"Cannot create the download folder {root}: {exc}.") from exc
    with file_lock(root / _LOCK_NAME):
        missing = [e for e in entries if not _present(root, e)]
        if missing:
            _download_missing(root, missing, mirror, progress=progress, timeout=timeout, retries=retries)
    return [root / e.dest for e in entries]


def mirror_url(url: str, mirror: str) -> str:
    """``scheme://host/path`` -> ``MIRROR/host/path`` (how a mirror lays out the original URLs)."""
    return f"{mirror.rstrip('/')}/{url.split('://', 1)[1]}"


# --- selection ---------------------------------------------------------------------------------
def _truthy(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _dataset_names(datasets: str | Iterable[str] | None, manifest: Sequence[SourceFile]) -> set[str]:
    known = {name for e in manifest for name in e.datasets}
    if datasets is None:
        wanted = set(DEFAULT_DATASETS) & known
    elif datasets == "all":
        wanted = known
    else:
        wanted = {datasets} if isinstance(datasets, str) else set(datasets)
    unknown = sorted(wanted - known)
    if unknown:
        raise InputError(f"Unknown source dataset(s) {unknown}; known: {', '.join(sorted(known))} (or 'all').")
    return wanted


def _select(
    datasets: str | Iterable[str] | None, files: Iterable[str] | None, manifest: Sequence[SourceFile]
) -> list[SourceFile]:
    chosen: set[str] = set()
    if files is not None:
        wanted = {str(PurePosixPath(f)) for f in files}
        unknown = sorted(wanted - {e.dest for e in manifest})
        if unknown:
            raise InputError(f"Not in the source manifest: {unknown}.")
        chosen |= wanted
    if files is None or datasets is not None:
        chosen |= {e.dest for e in manifest_for(datasets, manifest)}
    return [e for e in manifest if e.dest in chosen]


def _present(root: Path, entry: SourceFile) -> bool:
    path = root / entry.dest
    if not path.is_file():
        return False
    if entry.size is not None and path.stat().st_size != entry.size:
        return False
    # a member of a pinned archive without its own sha256 was only ever written after the archive checked out
    return entry.sha256 is None or file_sha256(path) == entry.sha256


def _offline_message(missing: Sequence[SourceFile]) -> str:
    names = sorted({n for e in missing for n in e.datasets})
    var = (
        f"{OFFLINE_ENV}={os.environ.get(OFFLINE_ENV)}"
        if os.environ.get(OFFLINE_ENV, "").strip()
        else (f"{HF_OFFLINE_ENV}={os.environ.get(HF_OFFLINE_ENV)}")
    )
    return (
        f"Offline ({var}): {len(missing)} source file(s) of {', '.join(names)} are not downloaded, e.g. "
        f"{missing[0].dest} from {missing[0].sources[0]}. Set {SOURCES_ENV}=DIR (raw sources in the layout "
        f"of shared/data/sources) or {DATA_ENV}=DIR (built datasets), point {MIRROR_ENV} at a local "
        f"mirror, or allow the download with {OFFLINE_ENV}=0."
    )


# --- downloading (pooch) -----------------------------------------------------------------------
class _Failure(Exception):
    """This URL did not work (the next one is tried); the message says why.

    Not a ``ValueError`` or a ``requests`` exception, so pooch does not retry it: a refused connection,
    an HTTP error or an unreadable archive does not get better by asking again.
    """


class _Downloader:
    """A pooch downloader: ``http(s)://`` through :class:`pooch.HTTPDownloader`, ``file://`` (a local
    mirror) by copying.  Errors that retrying cannot fix become :class:`_Failure`; a connection that
    breaks mid-file stays a ``requests`` exception, which pooch retries."""

    def __init__(self, *, progress: bool, timeout: float, label: str, size: int | None) -> None:
        self.progress, self.timeout, self.label, self.size = progress, timeout, label, size

    def __call__(self, url: str, output_file: str, pup, check_only: bool = False) -> None:
        if url.startswith("file://"):
            try:
                shutil.copyfile(urllib.parse.unquote(urllib.parse.urlsplit(url).path), output_file)
            except OSError as exc:
                raise _Failure(_reason(exc)) from None
            return
        import pooch
        import requests

        bar = None
        if self.progress:
            from tqdm.auto import tqdm

            # a total > 0 from the start: pooch tests the bar's truth value, which tqdm refuses without a total
            bar = tqdm(
                total=self.size or 1,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
                file=sys.stderr,
                desc=f"mteb-evalrank: {self.label}",
                dynamic_ncols=True,
            )
        http = pooch.HTTPDownloader(
            progressbar=bar if bar is not None else False,
            timeout=self.timeout,
            headers={"User-Agent": _USER_AGENT, "Accept-Encoding": "identity"},
        )
        try:
            http(url, output_file, pup)
        except requests.HTTPError as exc:
            got = exc.response
            raise _Failure(f"HTTP {got.status_code} {got.reason}" if got is not None else str(exc)) from None
        except requests.Timeout:
            raise _Failure(f"no answer within {self.timeout:g} s") from None
        except requests.ConnectionError as exc:  # refused, unknown host; a break mid-file is ChunkedEncodingError
            raise _Failure(_reason(exc)) from None
        finally:
            if bar is not None:
                bar.close()


@contextlib.contextmanager
def _quiet_pooch() -> Iterator[None]:
    """pooch logs every download at INFO level on stderr; the plugin shows its own progress instead."""
    import pooch

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


@dataclass(frozen=True)
class _Transfer:
    """How the files are fetched: the mirror (or None), a progress bar, the timeout per request, the retries."""

    mirror: str | None
    progress: bool
    timeout: float
    retries: int


def _download_missing(
    root: Path, missing: Sequence[SourceFile], mirror: str | None, *, progress: bool, timeout: float, retries: int
) -> None:
    transfer = _Transfer(mirror, progress, timeout, retries)
    plain = [e for e in missing if e.archive is None]
    archives: dict[Archive, list[SourceFile]] = {}
    for e in missing:
        if e.archive is not None:
            archives.setdefault(e.archive, []).append(e)
    if progress:
        print(f"mteb-evalrank: downloading {len(missing)} source file(s) into {root}", file=sys.stderr)
    with _quiet_pooch():
        for entry in plain:
            _fetch(root, entry.dest, entry.sha256, entry.size, entry.urls, entry.dest, transfer)
        for archive, members in archives.items():
            _fetch_archive(root, archive, members, transfer)


def _failure_message(what: str, errors: list[str]) -> str:
    return (
        f"Could not download {what}: " + "; ".join(errors) + f". Check the network or set {MIRROR_ENV}=BASE_URL "
        f"to use a mirror, or set {SOURCES_ENV}=DIR to a folder of raw sources (layout of shared/data/sources)."
    )


def _fetch(
    root: Path,
    fname: str,
    sha256: str | None,
    size: int | None,
    urls: Sequence[str],
    what: str,
    transfer: _Transfer,
    *,
    processor=None,
) -> None:
    """Fetch ``fname`` into ``root`` with pooch from the first of ``urls`` that works (checked, retried)."""
    import pooch
    import requests

    mirror, progress, timeout, retries = transfer.mirror, transfer.progress, transfer.timeout, transfer.retries

    candidates = [mirror_url(u, mirror) for u in urls] if mirror else list(urls)
    downloader = _Downloader(progress=progress, timeout=timeout, label=what, size=size)
    errors = []
    for url in candidates:
        pup = pooch.Pooch(path=root, base_url="", registry={fname: sha256}, urls={fname: url}, retry_if_failed=retries)
        try:
            pup.fetch(fname, processor=processor, downloader=downloader)
            return
        except _Failure as exc:
            errors.append(f"{url}: {exc}")
        except ValueError as exc:  # pooch: the hash of the downloaded bytes is not the pinned one
            got = re.search(r"expected (\S+) but got (\S+?)\.", str(exc))
            detail = f"expected sha256 {got[1]}, got {got[2]}" if got else str(exc)
            errors.append(f"{url}: checksum mismatch ({detail}, {retries + 1} attempt(s))")
        except requests.RequestException as exc:  # the connection broke mid-file on every attempt
            errors.append(f"{url}: connection lost ({_reason(exc)}; {retries + 1} attempt(s))")
        if processor is not None:  # never reuse an archive whose members did not check out
            (root / fname).unlink(missing_ok=True)
    raise SourceDownloadError(_failure_message(what, errors), candidates)


def _fetch_archive(root: Path, archive: Archive, members: list[SourceFile], transfer: _Transfer) -> None:
    """Fetch ``archive`` with pooch, extract ``members`` with its Untar/Unzip processor, check and place them."""
    fname = f"{_ARCHIVE_DIR}/{archive.name}"
    what = f"{', '.join(m.dest for m in members)} (from the archive {archive.name})"
    try:
        _fetch(
            root, fname, archive.sha256, archive.size, archive.urls, what, transfer, processor=_Extract(root, members)
        )
    finally:
        shutil.rmtree(root / _ARCHIVE_DIR, ignore_errors=True)


class _Extract:
    """pooch processor: unpack the members with ``pooch.Untar`` / ``pooch.Unzip``, check each sha256 and
    move it to its destination in the sources layout."""

    def __init__(self, root: Path, members: Sequence[SourceFile]) -> None:
        self.root, self.members = root, members

    def __call__(self, fname: str, action: str, pup) -> None:
        import tarfile
        import zipfile
        import zlib

        import pooch

        unpack = pooch.Unzip if fname.endswith(".zip") else pooch.Untar
        folder = Path(fname + ".contents")
        shutil.rmtree(folder, ignore_errors=True)
        try:
            unpack(members=[m.member for m in self.members], extract_dir=str(folder))(fname, action, pup)
        except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, KeyError) as exc:
            raise _Failure(f"{Path(fname).name} is not a readable archive ({_reason(exc)})") from None
        for entry in self.members:
            got = folder / entry.archive_member
            if not got.is_file():
                raise _Failure(f"the archive has no member {entry.member}")
            digest, size = pooch.file_hash(str(got)), got.stat().st_size
            if (entry.sha256 is not None and digest != entry.sha256) or (entry.size is not None and size != entry.size):
                raise _Failure(
                    f"archive member {entry.member}: expected sha256 {entry.sha256} ({entry.size} bytes), "
                    f"got {digest} ({size} bytes)"
                )
        for entry in self.members:
            target = self.root / entry.dest
            target.parent.mkdir(parents=True, exist_ok=True)
            move_file(folder / entry.archive_member, target)


def _reason(exc: object) -> str:
    """The short reason of an error: ``Connection refused`` rather than urllib3's nested repr."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).strip()
    errno = re.search(r"\[Errno -?\d+\] ([^'\")\]]+)", text)
    if errno:
        return errno[1].strip()
    return text or type(exc).__name__


__all__ = [
    "DATASETS",
    "DEFAULT_DATASETS",
    "MANIFEST",
    "MIRROR_ENV",
    "OFFLINE_ENV",
    "REGISTRY_FILE",
    "STR_DEST",
    "Archive",
    "SourceDownloadError",
    "SourceFile",
    "default_sources_dir",
    "download_sources",
    "ensure_sources",
    "load_registry",
    "manifest_for",
    "mirror_url",
    "offline",
]
