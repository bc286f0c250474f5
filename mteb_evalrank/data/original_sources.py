"""The raw sources, downloaded from their original public locations, checked, and laid out like ``shared/data/sources``.

This is the last way the plugin gets its data (after ``MTEB_EVALRANK_DATA``, ``MTEB_EVALRANK_SOURCES``
and the pinned Hub copy): :func:`ensure_sources` downloads the files a dataset's builder reads into
the plugin cache, in the *sources layout* (the layout of ``shared/data/sources`` that
``mteb-evalrank build-data --sources`` reads), and the dataset is then built locally on first use.

Every file is pinned: :data:`MANIFEST` lists, for each destination path of the sources layout, one or
more URLs at a fixed commit (tried in order, all serving the same bytes), its size and its sha256.
Bytes whose sha256 is not pinned are never used.

- **Where the files come from.**  The word-similarity sets: ``mfaruqui/eval-word-vectors`` at
  ``10a573a`` (2017-09-15; the later commit ``b7e72d1`` and its two successors changed three files'
  separators from spaces to tabs, so that revision is not the one the EvalRank toolkit used).
  ``wiki_vocab_20k.txt`` and SentEval's preprocessed STS / SICK / transfer-task files (read by the
  ``evalrank-sent``, ``sts-senteval`` and ``senteval-downstream`` builders): the EvalRank toolkit, ``BinWang28/EvalRank-Embedding-Evaluation`` at ``c6422db`` (also the fallback for the
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
- **Downloads** are atomic and resumable: a file is written to ``<dest>.part``, fsynced, checked and
  renamed; an interrupted download keeps its ``.part`` and the next attempt asks for the rest with an
  HTTP ``Range`` request (a server that ignores it sends the whole file, which then replaces the
  ``.part``).  A dropped connection is resumed at once up to ``retries`` times; a refused connection,
  an HTTP error or a checksum mismatch moves on to the next URL at once, without retrying.  Files
  already present are re-hashed and kept when they match.  One process at a time writes into a
  folder (a lock file, where ``fcntl`` exists).  A progress bar (tqdm, bytes) is shown on stderr.
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
import hashlib
import http.client
import os
import re
import socket
import sys
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mteb_evalrank.data.files import file_sha256
from mteb_evalrank.errors import DataNotFoundError, InputError

MIRROR_ENV = "MTEB_EVALRANK_SOURCE_MIRROR"
OFFLINE_ENV = "MTEB_EVALRANK_OFFLINE"
HF_OFFLINE_ENV = "HF_HUB_OFFLINE"
SOURCES_ENV = "MTEB_EVALRANK_SOURCES"
DATA_ENV = "MTEB_EVALRANK_DATA"

#: Bump when a checksum or a destination changes: the default download folder is versioned, so a
#: dataset built from an older set of files is not reused.
MANIFEST_VERSION = 1
DEFAULT_TIMEOUT = 30.0  # seconds, per connection attempt and per read
DEFAULT_RETRIES = 2  # immediate resumes after a dropped connection (per URL)
_CHUNK = 1 << 16
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
        if p.is_absolute() or not self.dest or ".." in p.parts or "\\" in self.dest or self.dest.endswith(".part"):
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


def _github(repo: str, commit: str) -> str:
    return f"https://raw.githubusercontent.com/{repo}/{commit}/"


#: Pinned repositories (raw.githubusercontent.com at a fixed commit).
_MFARUQUI = _github("mfaruqui/eval-word-vectors", "10a573aa202aa474ce61be391d4872275967633c")
_EVALRANK = _github("BinWang28/EvalRank-Embedding-Evaluation", "c6422dbf8a357b206234ab81639b24bd3428914f")
_STR_REPO = _github("Priya22/semantic-textual-relatedness", "961f9a9be535f3299e4c0a7b0f656d583ba911ff")
_SIF = _github("PrincetonML/SIF", "84b5b4c1c1ca20b6af19fc78cae005a1818ec571")
_SST_FINE = _github("AcademiaSinicaNLPLab/sentiment_dataset", "23c72429de5fb3d2f3da87bf2efb5559c15b78f7")

_WORD, _SENT, _N2O, _HEROS = ("evalrank-word",), ("evalrank-sent",), ("n2o-corpus",), ("heros",)
_STS, _DOWNSTREAM = ("sts-senteval",), ("senteval-downstream",)
_WORDSIM = ("word-similarity",)

#: STS Benchmark release (Cer et al., 2017).  sha256 computed from the copy committed to
#: eduardofv/sts_eval on 2021-06-14 "retrieved from http://ixa2.si.ehu.es/..." (members dated 2017-02);
#: its dev/test/LICENSE/readme members are byte-identical to shared/data/sources/stsbenchmark_raw.
STSBENCHMARK_ARCHIVE = Archive(
    "Stsbenchmark.tar.gz",
    (
        "http://ixa2.si.ehu.es/stswiki/images/4/48/Stsbenchmark.tar.gz",  # as in SentEval's get_transfer_data.bash
        _github("eduardofv/sts_eval", "b4cd273eb2c6cc0de34ebeffebd12ebf155ecff6") + "data/sources/Stsbenchmark.tar.gz",
    ),
    "557a86abbd2b76ee6768d8b5103b659601a9d26b797898c7467812f303b21280",
    409630,
)

#: heros.tsv at the revision the HEROS task pins (hub_datasets/heros/build.py: SOURCE_REVISION).
HEROS_URL = "https://huggingface.co/datasets/dcml0714/Heros/resolve/0929565636acc37c329ad0fe0d44c5a715351427/heros.tsv"


def _entry(dest: str, size: int | None, datasets: tuple[str, ...], sha256: str | None, *urls: str) -> SourceFile:
    return SourceFile(dest, tuple(urls), sha256, size, datasets)


def _member(dest: str, member: str, size: int, datasets: tuple[str, ...], sha256: str, archive: Archive) -> SourceFile:
    return SourceFile(dest, (), sha256, size, datasets, archive=archive, member=member)


# Generated from the pinned commits (sha256 of each git blob, checked against shared/data/sources).
MANIFEST: tuple[SourceFile, ...] = (
    # --- evalrank-word: the 13 sets (their own repository first, the toolkit's identical copy second), 20k words
    _entry(
        "wiki_vocab/wiki_vocab_20k.txt", 157940, _WORD,
        "ab2c76b26cc8ca09f352d4bb70fa4b34b2e8a3a7a520a2506d664bbc75203c75",
        _EVALRANK + "data/word_evalrank/wiki_vocab.txt",
    ),
    _entry(
        "word_similarity/EN-MC-30.txt", 543, _WORD + _WORDSIM,
        "33ee05911496ff83d95cac351d0746c6f63b9181b605cb7d307f4daa8864511b",
        _MFARUQUI + "data/word-sim/EN-MC-30.txt",
        _EVALRANK + "data/word_similarity/EN-MC-30.txt",
    ),
    _entry(
        "word_similarity/EN-MEN-TR-3k.txt", 53593, _WORD + _WORDSIM,
        "3df21751d8f69d51619ec62251c045da70815f3fad27736db7c1fc99ff3bfacf",
        _MFARUQUI + "data/word-sim/EN-MEN-TR-3k.txt",
        _EVALRANK + "data/word_similarity/EN-MEN-TR-3k.txt",
    ),
    _entry(
        "word_similarity/EN-MTurk-287.txt", 7218, _WORD + _WORDSIM,
        "a9ae3a9decb75a9700fe0cf18b048c1344774d9f40e0196baf8e34d4cd9d1ce5",
        _MFARUQUI + "data/word-sim/EN-MTurk-287.txt",
        _EVALRANK + "data/word_similarity/EN-MTurk-287.txt",
    ),
    _entry(
        "word_similarity/EN-MTurk-771.txt", 19629, _WORD + _WORDSIM,
        "a8cc04ed7b45a95a4b8915814c75c30ef99ab6001b534205529b07273022f569",
        _MFARUQUI + "data/word-sim/EN-MTurk-771.txt",
        _EVALRANK + "data/word_similarity/EN-MTurk-771.txt",
    ),
    _entry(
        "word_similarity/EN-RG-65.txt", 1210, _WORD + _WORDSIM,
        "c243f3a91c3f5d8cf67f21a67f6fb80bde8b6bb060851a6a48e6f2d68ec98c9f",
        _MFARUQUI + "data/word-sim/EN-RG-65.txt",
        _EVALRANK + "data/word_similarity/EN-RG-65.txt",
    ),
    _entry(
        "word_similarity/EN-RW-STANFORD.txt", 49851, _WORD + _WORDSIM,
        "5108d54dfc746f44f9c3d7e31d2857c37cf71430bc1594175a61a3b89bb0ae1f",
        _MFARUQUI + "data/word-sim/EN-RW-STANFORD.txt",
        _EVALRANK + "data/word_similarity/EN-RW-STANFORD.txt",
    ),
    _entry(
        "word_similarity/EN-SIMLEX-999.txt", 18024, _WORD + _WORDSIM,
        "405394ffb7d25f6d0e3c041f87c9f27d29dc6b047506769953e85c4523b11685",
        _MFARUQUI + "data/word-sim/EN-SIMLEX-999.txt",
        _EVALRANK + "data/word_similarity/EN-SIMLEX-999.txt",
    ),
    _entry(
        "word_similarity/EN-SimVerb-3500.txt", 65315, _WORD + _WORDSIM,
        "9d84274e7ad029fd3cf69dd0516e9ade624bbef9bd4e2050f6cc1fa01471e0f5",
        _MFARUQUI + "data/word-sim/EN-SimVerb-3500.txt",
        _EVALRANK + "data/word_similarity/EN-SimVerb-3500.txt",
    ),
    _entry(
        "word_similarity/EN-VERB-143.txt", 3320, _WORD + _WORDSIM,
        "7259e19961c81912aa4c72de0102e480b2ad2bb9f4ce97d036fbde8e1a403001",
        _MFARUQUI + "data/word-sim/EN-VERB-143.txt",
        _EVALRANK + "data/word_similarity/EN-VERB-143.txt",
    ),
    _entry(
        "word_similarity/EN-WS-353-ALL.txt", 7405, _WORD + _WORDSIM,
        "ce12919b240af45bdf46d243601eaca2b6212b159b5e7e9b435ee7ee40c5619c",
        _MFARUQUI + "data/word-sim/EN-WS-353-ALL.txt",
        _EVALRANK + "data/word_similarity/EN-WS-353-ALL.txt",
    ),
    _entry(
        "word_similarity/EN-WS-353-REL.txt", 5134, _WORD + _WORDSIM,
        "66a7c88100624d0a391605ff61ce84e11d11ee620d51ec0298da49592838f8fa",
        _MFARUQUI + "data/word-sim/EN-WS-353-REL.txt",
        _EVALRANK + "data/word_similarity/EN-WS-353-REL.txt",
    ),
    _entry(
        "word_similarity/EN-WS-353-SIM.txt", 4002, _WORD + _WORDSIM,
        "f1da938998863c94e53f72f984a5c6e215f0b46c323aae8f0f4930703a339107",
        _MFARUQUI + "data/word-sim/EN-WS-353-SIM.txt",
        _EVALRANK + "data/word_similarity/EN-WS-353-SIM.txt",
    ),
    _entry(
        "word_similarity/EN-YP-130.txt", 2614, _WORD + _WORDSIM,
        "4b963f0771ba8cf1d378de8cd43387c31eae34a5e57e2de3685c53fc2cdd9a73",
        _MFARUQUI + "data/word-sim/EN-YP-130.txt",
        _EVALRANK + "data/word_similarity/EN-YP-130.txt",
    ),
    _entry(
        "word_similarity/LICENSE_eval-word-vectors_MIT.txt", 1071, _WORD + _WORDSIM,
        "d966f71dc26b1a28af0c2176721a503ad4abf6267638c64d3bed2be6034840d1",
        _MFARUQUI + "LICENSE",
    ),
    # --- evalrank-sent (and sts-senteval): SentEval's STS-B copy as shipped with the EvalRank toolkit, STR
    _entry(
        "sts_senteval/STR/License.md", 1427, _SENT + _STS,
        "275cda5a4499d19c07391f1b201ed6ec83a8db571abcb2e6a8c73542daa01e6c",
        _STR_REPO + "License.md",
    ),
    _entry(
        "sts_senteval/STR/sem_text_rel_ranked.csv", 1009609, _SENT + _STS,
        "2624f378bbd4793466c235720e6d6b386449c322f576667825bea3998dc66a9d",
        _STR_REPO + "sem_text_rel_ranked.csv",
        _EVALRANK + "data/sent_similarity/STR/sem_text_rel_ranked.csv",
    ),
    _entry(
        "sts_senteval/STS/STSBenchmark/LICENSE.txt", 6641, _SENT + _STS,
        "3dfc3217395f8c5dd05c5f8995f25fe2f8fd258e6dd770b3de480749caee8c70",
        _EVALRANK + "data/sent_similarity/STS/STSBenchmark/LICENSE.txt",
    ),
    _entry(
        "sts_senteval/STS/STSBenchmark/readme.txt", 5994, _SENT + _STS,
        "e9488363d211c32ca5e912954f16eb9233cfed1b5b4b0475d0d812d35d7c8ef1",
        _EVALRANK + "data/sent_similarity/STS/STSBenchmark/readme.txt",
    ),
    _entry(
        "sts_senteval/STS/STSBenchmark/sts-dev.csv", 258473, _SENT + _STS,
        "c558fa95fec006608f13e3d942f153b614beabccbf33e64f36418d406a895e37",
        _EVALRANK + "data/sent_similarity/STS/STSBenchmark/sts-dev.csv",
    ),
    _entry(
        "sts_senteval/STS/STSBenchmark/sts-test.csv", 206733, _SENT + _STS,
        "22ef3e10603b6655d7c7978c8eee26e7d5291dd5a71c5531b934fb025c108cbf",
        _EVALRANK + "data/sent_similarity/STS/STSBenchmark/sts-test.csv",
    ),
    _entry(
        "sts_senteval/STS/STSBenchmark/sts-train.csv", 896257, _SENT + _STS,
        "4fc4924edd059a43e9c7c8927a72cb8061a87ef98afdf2026a0e0b540b458693",
        _EVALRANK + "data/sent_similarity/STS/STSBenchmark/sts-train.csv",
    ),
    # --- sts-senteval (STS12-16, SICK; its STS-B and STR files are listed above)
    _entry(
        "sts_senteval/SICK/SICK_test_annotated.txt", 560514, _STS,
        "d0362afe8304c8d08166b82d76da2a8c665d5b635ac1f3f1ee82054511749f97",
        _EVALRANK + "data/sent_similarity/SICK/SICK_test_annotated.txt",
    ),
    _entry(
        "sts_senteval/SICK/SICK_train.txt", 506719, _STS,
        "e02bd30f17ab87358f80ef079a6ef797acd244c3c7515de454301c7c257e410c",
        _EVALRANK + "data/sent_similarity/SICK/SICK_train.txt",
    ),
    _entry(
        "sts_senteval/SICK/SICK_trial.txt", 57293, _STS,
        "0d0786bd8671a0a70614f2f890b8ab24b3c24d1ccb624bcca87618091fbe4f11",
        _EVALRANK + "data/sent_similarity/SICK/SICK_trial.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/00-readme.txt", 3002, _STS,
        "d47be1641ac98ac312de6f0746b65683df392f70d843eaac9fb10ebd4cb4cb63",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/00-readme.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.ALL.txt", 18648, _STS,
        "5bcbfda125ad56a1b924763482420b585bea9bf74dc2c18d88d62cd6d2e3422f",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.ALL.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.MSRpar.txt", 4500, _STS,
        "5526be59228bc34ccb3cb6f1f56c0d7278d3419b8886713ae016fd92b151f19c",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.MSRpar.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.MSRvid.txt", 4500, _STS,
        "9c6096c6bcfb0144c8bbddb00900ca9198c88498630cd0c8f08d18365f1d7150",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.MSRvid.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.SMTeuroparl.txt", 2754, _STS,
        "708530c4d006d06881f3289fce35d624d7efe562dcf0fe5f8aa0eec3a135f6d4",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.SMTeuroparl.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.surprise.OnWN.txt", 4500, _STS,
        "088d8ca22c0aa406e4a5d2e6e308a4f38b482b8e736c2445a38ffb6e4c4fb4fd",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.surprise.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.gs.surprise.SMTnews.txt", 2394, _STS,
        "aa6dfc868db333c43dc59be14d46fa6587c7ebddc0d497e717f647bf35121cf1",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.gs.surprise.SMTnews.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.input.MSRpar.txt", 168149, _STS,
        "21c0c6cc32f68f69d672dfae0f86935cdc2627bae4941381692941aa9320f8c4",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.input.MSRpar.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.input.MSRvid.txt", 50402, _STS,
        "c4a92a3645744f77d1cda9f2af7da5d11e807ae296f6a20fe5930403fb9c4dfe",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.input.MSRvid.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.input.SMTeuroparl.txt", 61015, _STS,
        "05acf33c0fcb592347f49e279137a17e0244d7b0d37cc113134320a5d3f586e1",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.input.SMTeuroparl.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.input.surprise.OnWN.txt", 68924, _STS,
        "e605c67de4b7cee2c5629239d209e2845920f475ebd0468bdcf03d8da2ffa9cf",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.input.surprise.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS12-en-test/STS.input.surprise.SMTnews.txt", 59937, _STS,
        "cc4a0b9a1355c5680a8a37c02f2d08e35f95754b9f89a2a4a05088ee5ff57ffe",
        _EVALRANK + "data/sent_similarity/STS/STS12-en-test/STS.input.surprise.SMTnews.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/00-readme.txt", 8428, _STS,
        "531ee28a3787b11dd14dda8d809e724479d87f9705120494aad584c9cb14a6ce",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/00-readme.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.gs.FNWN.txt", 685, _STS,
        "8ca95b7228119578e2007839cf7969f22c4f1fd41fd610c4b7f9683072d98066",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.gs.FNWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.gs.OnWN.txt", 2001, _STS,
        "0cd497aaddb00a2fb6db25f77bccfc09e8aa012e11549b81b434bab1a27ad954",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.gs.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.gs.SMT.txt", 2753, _STS,
        "a09775ba2fafc9cbe0a7d0a08f0c729789b0d6c99dc4867a86b45b71a73f004e",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.gs.SMT.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.gs.headlines.txt", 2716, _STS,
        "f49f64089011436dd296ef384c07160219406feef7dc4b9fa2af52a519f32bc6",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.gs.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.input.FNWN.txt", 46833, _STS,
        "a20cb41a33a528f3c089c94ef24da8eb5e26ed594937cf6fa90f3d1c79d6c53c",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.input.FNWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.input.OnWN.txt", 48351, _STS,
        "cb74993eef23cfa2c03da7e5a08c62e50c9baafae0fa9ba0bb5a09d8e7d2be65",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.input.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.input.headlines.txt", 69813, _STS,
        "637f3b4afdc8d1cc789e91a4d7217efff30e503c34a872d93e8b27e7b1136cb7",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.input.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.output.FNWN.txt", 2816, _STS,
        "56afda1f9e8ac0b02a4a5f6aebc6e0e42177797575b40841204ae32e159819d9",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.output.FNWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.output.OnWN.txt", 8369, _STS,
        "0cacf7473b15c06e79a148b246b07742ee61993829fb586c33174daef871a991",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.output.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.output.SMT.txt", 11182, _STS,
        "43d35776984fae2f7df62a9bd41bd5adbb734ce02ed9db267fa090545a349487",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.output.SMT.txt",
    ),
    _entry(
        "sts_senteval/STS/STS13-en-test/STS.output.headlines.txt", 11173, _STS,
        "df3393be04ddbe986044eaa764f36ed33f59ce3a56931582b4fd4a0795de0542",
        _EVALRANK + "data/sent_similarity/STS/STS13-en-test/STS.output.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/00-readme.txt", 6782, _STS,
        "9fe9d64362ac42ed24010d5b00f227235a660dc2466fba743f31051fd121ef73",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/00-readme.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.OnWN.txt", 2765, _STS,
        "1c80147df270ea4cfce14a47ed29f8a2f10d5dc016d02836077fd786ff7f535b",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.deft-forum.txt", 1780, _STS,
        "ba6dc76696b5c93985590a325b4d142449932cdf0d715b2bab1b1743fe3c488c",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.deft-forum.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.deft-news.txt", 1058, _STS,
        "105c5b333abd50c274efb4dae9e3e0dab36ed63eee780cfb49955b1586bd62f2",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.deft-news.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.headlines.txt", 2610, _STS,
        "f243c34647255cd0b994565ed4f58dd31506e7d9c9d6250d1a6dd14095625832",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.images.txt", 2550, _STS,
        "fc994ebacc7074c332626fa9e29542d7340a48a3cdb999b47cdb59c378523a62",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.images.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.gs.tweet-news.txt", 2640, _STS,
        "0098c644bfeaa2d511a8297b1940771865900c372c9dd49a62726dc5ec02c9a3",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.gs.tweet-news.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.OnWN.txt", 69761, _STS,
        "8cd2333328d17e3212afa2d43dd934c5521e3fd35fc786b992dc7864f9d34f8f",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.OnWN.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.deft-forum.txt", 43750, _STS,
        "b39579e59c7b9f4063545c3d4643f8db16dc060cd0a35447ef56ff0aabec9d83",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.deft-forum.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.deft-news.txt", 63248, _STS,
        "cc450dcd9228211c1a311de1ff28199f166dce6f7fc81dcb5ce968a3a8a80d2d",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.deft-news.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.headlines.txt", 72107, _STS,
        "2ed0ea55d196cdbb440ed428eb1846dcb43486a692aafb22b3bc5c14c44407c8",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.images.txt", 71048, _STS,
        "295fc99f8a9215c330b36a08bc1ff3e428f10057be5bb915262111494b3616e2",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.images.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.input.tweet-news.txt", 94941, _STS,
        "b25b3768762aa7cdcd89f2a25ce5049de7e4cd51b138227c3a31092ae8e2b5f5",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.input.tweet-news.txt",
    ),
    _entry(
        "sts_senteval/STS/STS14-en-test/STS.output.headlines.txt", 11173, _STS,
        "df3393be04ddbe986044eaa764f36ed33f59ce3a56931582b4fd4a0795de0542",
        _EVALRANK + "data/sent_similarity/STS/STS14-en-test/STS.output.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/00-readme.txt", 877, _STS,
        "38fe35ef21a0f224b6cc51e00d138810063521cd90458a7d77e4e0aa3a79542d",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/00-readme.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.gs.answers-forums.txt", 3500, _STS,
        "1644301a7540e5484da285002e9269062852efb2272be614cad99c9530f6a102",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.gs.answers-forums.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.gs.answers-students.txt", 4500, _STS,
        "028db213140f8c7aef7497c4ae38b6380938f20359852231669c83dce11c3701",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.gs.answers-students.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.gs.belief.txt", 3500, _STS,
        "5736192faaccbdbecd0ef6b73ec04b24115cd2e48d55dc3b1b170da3d2a81c75",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.gs.belief.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.gs.headlines.txt", 4500, _STS,
        "e8e432f769c8a94ddb62ae3343890ac24a9dd78a116d56c707313bc59413dd56",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.gs.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.gs.images.txt", 4500, _STS,
        "ed8878209098c77ca7f02ac413d3fd698f92ad3425999555e50fda89fc46012a",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.gs.images.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.answers-forums.LICENSE", 2494, _STS,
        "65718ec23624d97933308adc08cb270db798cdd5593d35501be9bfda5ba1a28a",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.answers-forums.LICENSE",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.answers-forums.txt", 357930, _STS,
        "b8f1bc125559adbb3ac5b33206472b217c12621c3a6b5a8575da47dc0b536fc4",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.answers-forums.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.answers-students.txt", 162805, _STS,
        "4893f736e84cea176c39c882250f6513d5bbcfa6ebe8d3ffabcef6056d0471a7",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.answers-students.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.belief.txt", 289003, _STS,
        "a54ec7af1924c900d8474586abae465819d2c03c73561aa2e76e7fa5e836faff",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.belief.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.headlines.txt", 146911, _STS,
        "85d90b0f8f258a47758808d382188ba2ee7b1adbbf84feb776afad0e4691d5d1",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS15-en-test/STS.input.images.txt", 146961, _STS,
        "0dac9494186838a8f4dfbb4ee290fec8d7581cf84a33d615c522700b3b50e0d6",
        _EVALRANK + "data/sent_similarity/STS/STS15-en-test/STS.input.images.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/LICENSE.txt", 3543, _STS,
        "94b7380d16f832ae97bcb48536f22fe9a22e8e20f8cf88a9298f65c556e3a6f2",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/LICENSE.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/README.txt", 2998, _STS,
        "1b74b4c84a59f139153f0348e212bfdb33dffd3b008dfb2c4f7728c4fa27141f",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/README.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.gs.answer-answer.txt", 1826, _STS,
        "332efd741b0cb247d20dd2a6cec854360c921c7e6b395f328f562d8d26057214",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.gs.answer-answer.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.gs.headlines.txt", 1747, _STS,
        "01e33a95996201a6e81e3cce9eda0f15048b77613ea64dce2929bb35479f7d85",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.gs.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.gs.plagiarism.txt", 1501, _STS,
        "29984944a91aaff484f2b2e5d4d434fc8a6f5ef6f578a880cccd2786f5142fdc",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.gs.plagiarism.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.gs.postediting.txt", 3531, _STS,
        "81947ed9dbe7f85b7bd249df68ed5c7b2f16f06390ad568eb5554b1e26bc5577",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.gs.postediting.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.gs.question-question.txt", 1764, _STS,
        "cf9ebf9d140191f73620cda0560947ad9283c910735d0d541b8a401a5e64afb0",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.gs.question-question.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.input.answer-answer.txt", 151640, _STS,
        "ebbffced7d4630755e61d4dfe4d82121198965a14b9f5734b5abedb961f0725c",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.input.answer-answer.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.input.headlines.txt", 149506, _STS,
        "705c3e82fb85fa3b6706a481b790e1030304ddc9c72d39e126693ed44b258ba6",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.input.headlines.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.input.plagiarism.txt", 206994, _STS,
        "dd4ca54d1dfcd7d1cabe67f0de98cde23f4c1696ecc0003afbecae1274305d63",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.input.plagiarism.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.input.postediting.txt", 808635, _STS,
        "9b455d8da1d1bae692d038da1d431827d23bfec04c64b109efc3b6b620fd422f",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.input.postediting.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS.input.question-question.txt", 167903, _STS,
        "58920c7da7dbc1b860609310782d88b7457d599c90a226819b5880262dd7f58a",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS.input.question-question.txt",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS2016.input.answer-answer.ascii", 621627, _STS,
        "1770cbd3b07ef198cb8f118114dbfc22ab490ff259b7cf840909012298cf460a",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS2016.input.answer-answer.ascii",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS2016.input.headlines.ascii", 289007, _STS,
        "4abc9faf7d16b52c1207834bcb101017b1c5c541e4d137a26ddf186f2d528ee5",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS2016.input.headlines.ascii",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS2016.input.plagiarism.ascii", 516587, _STS,
        "817854e5c8e004d606a656a26be7bb48f25857882ecdcca7dbda1d61ed146e2b",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS2016.input.plagiarism.ascii",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS2016.input.postediting.ascii", 1448299, _STS,
        "fe08761cdf93c7933a86cf4062466b6a745997c9d04d9c6fe794cc41ad888a3a",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS2016.input.postediting.ascii",
    ),
    _entry(
        "sts_senteval/STS/STS16-en-test/STS2016.input.question-question.ascii", 727109, _STS,
        "1206ebfeb55a41b4f60723b2e1e476e8a0ab55aa9865e1abd1a342e069486906",
        _EVALRANK + "data/sent_similarity/STS/STS16-en-test/STS2016.input.question-question.ascii",
    ),
    # --- senteval-downstream: SentEval's preprocessed transfer tasks + SciCite, as shipped with the EvalRank
    # toolkit; SST from the URLs of SentEval's get_transfer_data.bash first
    _entry(
        "senteval_downstream/CR/custrev.neg", 142650, _DOWNSTREAM,
        "ec94532766f6f962094841ab3bee2ad6f232f996c3756825a91e78bcc294750f",
        _EVALRANK + "data/sent_classification/CR/custrev.neg",
    ),
    _entry(
        "senteval_downstream/CR/custrev.pos", 228014, _DOWNSTREAM,
        "91a20a4ffeb5d38a39a4087bb247e16538aff21e7d621ae59738379f39f21732",
        _EVALRANK + "data/sent_classification/CR/custrev.pos",
    ),
    _entry(
        "senteval_downstream/MPQA/mpqa.neg", 158902, _DOWNSTREAM,
        "8da6e035fa4cea02f0555091096b29a6b3995ff0adf41fad25008dcee066b79e",
        _EVALRANK + "data/sent_classification/MPQA/mpqa.neg",
    ),
    _entry(
        "senteval_downstream/MPQA/mpqa.pos", 60581, _DOWNSTREAM,
        "7487dbb74c77383e60b292845495163a9e21fb70a4fdacdda933413e43163f0d",
        _EVALRANK + "data/sent_classification/MPQA/mpqa.pos",
    ),
    _entry(
        "senteval_downstream/MR/rt-polarity.neg", 616109, _DOWNSTREAM,
        "c4ac36eaa8adc8ee31c31f69594bfbe68d83ef5b6db53f1f19b28c0be52f3999",
        _EVALRANK + "data/sent_classification/MR/rt-polarity.neg",
    ),
    _entry(
        "senteval_downstream/MR/rt-polarity.pos", 629795, _DOWNSTREAM,
        "34e5b0da2d491e46b700b00afe735aaae0962bcfe4f7f22b2d8077e714fa370f",
        _EVALRANK + "data/sent_classification/MR/rt-polarity.pos",
    ),
    _entry(
        "senteval_downstream/MRPC/msr_paraphrase_test.txt", 441275, _DOWNSTREAM,
        "a04e271090879aaba6423d65b94950c089298587d9c084bf9cd7439bd785f784",
        _EVALRANK + "data/sent_classification/MRPC/msr_paraphrase_test.txt",
    ),
    _entry(
        "senteval_downstream/MRPC/msr_paraphrase_train.txt", 1047044, _DOWNSTREAM,
        "60a9b09084528f0673eedee2b69cb941920f0b8cd0eeccefc464a98768457f89",
        _EVALRANK + "data/sent_classification/MRPC/msr_paraphrase_train.txt",
    ),
    _entry(
        "senteval_downstream/SCICITE/dev.txt", 251936, _DOWNSTREAM,
        "1dc52ca86748d6638642a204eff94714ca6cd6202e73fbe64eab09e3581cad02",
        _EVALRANK + "data/sent_classification/SCICITE/dev.txt",
    ),
    _entry(
        "senteval_downstream/SCICITE/test.txt", 511173, _DOWNSTREAM,
        "ac76196975f15d3a4317ccd702da9fc774f9a29caa962f87bbd5d1f9b810f1ab",
        _EVALRANK + "data/sent_classification/SCICITE/test.txt",
    ),
    _entry(
        "senteval_downstream/SCICITE/train.txt", 1991975, _DOWNSTREAM,
        "3046a7288579c797052f82b55ec1b243231a7d80653462d052ebbbb2a6bd322b",
        _EVALRANK + "data/sent_classification/SCICITE/train.txt",
    ),
    _entry(
        "senteval_downstream/SICK/SICK_test_annotated.txt", 560514, _DOWNSTREAM,
        "d0362afe8304c8d08166b82d76da2a8c665d5b635ac1f3f1ee82054511749f97",
        _EVALRANK + "data/sent_classification/SICK/SICK_test_annotated.txt",
    ),
    _entry(
        "senteval_downstream/SICK/SICK_train.txt", 506719, _DOWNSTREAM,
        "e02bd30f17ab87358f80ef079a6ef797acd244c3c7515de454301c7c257e410c",
        _EVALRANK + "data/sent_classification/SICK/SICK_train.txt",
    ),
    _entry(
        "senteval_downstream/SICK/SICK_trial.txt", 57293, _DOWNSTREAM,
        "0d0786bd8671a0a70614f2f890b8ab24b3c24d1ccb624bcca87618091fbe4f11",
        _EVALRANK + "data/sent_classification/SICK/SICK_trial.txt",
    ),
    _entry(
        "senteval_downstream/SST/binary/sentiment-dev", 94916, _DOWNSTREAM,
        "9a6c7403b71a9b762158387afe4431253ae10cdfb2319b5275289f3766f48291",
        _SIF + "data/sentiment-dev",
        _EVALRANK + "data/sent_classification/SST/binary/sentiment-dev",
    ),
    _entry(
        "senteval_downstream/SST/binary/sentiment-test", 194788, _DOWNSTREAM,
        "4fefd1cd67526cf87ebc7fafc3afc21cc7cfa6ae53b45e74f77f9456e3c62752",
        _SIF + "data/sentiment-test",
        _EVALRANK + "data/sent_classification/SST/binary/sentiment-test",
    ),
    _entry(
        "senteval_downstream/SST/binary/sentiment-train", 3806066, _DOWNSTREAM,
        "10a92a297ec38e262386e5a2713b4bc70e5d18ced88b7f54bd171a26e5b34ab5",
        _SIF + "data/sentiment-train",
        _EVALRANK + "data/sent_classification/SST/binary/sentiment-train",
    ),
    _entry(
        "senteval_downstream/SST/fine/sentiment-dev", 117239, _DOWNSTREAM,
        "b2f76c62b960f9fda5c6d751edb125abab4f878eb94a8754239b7f4af647f4c3",
        _SST_FINE + "data/stsa.fine.dev",
        _EVALRANK + "data/sent_classification/SST/fine/sentiment-dev",
    ),
    _entry(
        "senteval_downstream/SST/fine/sentiment-test", 233634, _DOWNSTREAM,
        "0e2ebb450c231f7b3d67fc932066e7bb26ae7bad8c88488f45ed44ef02eb3c73",
        _SST_FINE + "data/stsa.fine.test",
        _EVALRANK + "data/sent_classification/SST/fine/sentiment-test",
    ),
    _entry(
        "senteval_downstream/SST/fine/sentiment-train", 902818, _DOWNSTREAM,
        "9b52b5f686ed438d4d0274c385369251b3d579b578fddd340ba8a9bae2ca4bee",
        _SST_FINE + "data/stsa.fine.train",
        _EVALRANK + "data/sent_classification/SST/fine/sentiment-train",
    ),
    _entry(
        "senteval_downstream/SUBJ/subj.objective", 672430, _DOWNSTREAM,
        "d8ccd43f1674f1c17e4ab717564e3561cfb719b0db4cfb19e5677427c68ff8a1",
        _EVALRANK + "data/sent_classification/SUBJ/subj.objective",
    ),
    _entry(
        "senteval_downstream/SUBJ/subj.subjective", 634654, _DOWNSTREAM,
        "274c2ffe59c204dc4df779848561786f59a98cc20dda3cfdd7d9f76a4f730710",
        _EVALRANK + "data/sent_classification/SUBJ/subj.subjective",
    ),
    _entry(
        "senteval_downstream/TREC/TREC_10.label", 23269, _DOWNSTREAM,
        "86ad53c8fc9d397ab2f4be7c967d8efb470b260140557d3e57afad69d1b88b76",
        _EVALRANK + "data/sent_classification/TREC/TREC_10.label",
    ),
    _entry(
        "senteval_downstream/TREC/train_5500.label", 333379, _DOWNSTREAM,
        "8bd6e79493f43bbd22c364587366a1dced54e1e31259eaa92721a0f526031116",
        _EVALRANK + "data/sent_classification/TREC/train_5500.label",
    ),
    # --- n2o-corpus: the original STS Benchmark release (cased, untokenised), extracted from its archive
    _member(
        "stsbenchmark_raw/LICENSE.txt", "stsbenchmark/LICENSE.txt", 6641, _N2O,
        "3dfc3217395f8c5dd05c5f8995f25fe2f8fd258e6dd770b3de480749caee8c70",
        STSBENCHMARK_ARCHIVE,
    ),
    _member(
        "stsbenchmark_raw/readme.txt", "stsbenchmark/readme.txt", 5994, _N2O,
        "e9488363d211c32ca5e912954f16eb9233cfed1b5b4b0475d0d812d35d7c8ef1",
        STSBENCHMARK_ARCHIVE,
    ),
    _member(
        "stsbenchmark_raw/sts-dev.csv", "stsbenchmark/sts-dev.csv", 255680, _N2O,
        "5d7e944d8b02734b07bfdb5df67db3420c64bed153fcaa1ba47ad03480cf4234",
        STSBENCHMARK_ARCHIVE,
    ),
    _member(
        "stsbenchmark_raw/sts-test.csv", "stsbenchmark/sts-test.csv", 282419, _N2O,
        "affe45928a66ee5a708531233c95b7dacbbdc57f974f002a3d32ea0180cf816a",
        STSBENCHMARK_ARCHIVE,
    ),
    _member(
        "stsbenchmark_raw/sts-train.csv", "stsbenchmark/sts-train.csv", 901177, _N2O,
        "0f71910b59aa1ad973c5897f0791f3b0965a92b8f82b1a95f3eea9f4162fda82",
        STSBENCHMARK_ARCHIVE,
    ),
    # --- heros: sha256 not known yet (the Hub was unreachable when this was written): refused until pinned
    _entry(
        "heros/heros.tsv", None, _HEROS,
        None,
        HEROS_URL,
    ),
)

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
    "evalrank-word", "evalrank-sent", "n2o-corpus", "sts-senteval", "senteval-downstream", "word-similarity",
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
    docstring for resuming, mirrors and offline use).  Returns the paths of all selected files, in
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
                "sha256 in mteb_evalrank/data/original_sources.py.",
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
    with _folder_lock(root):
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
    var = f"{OFFLINE_ENV}={os.environ.get(OFFLINE_ENV)}" if os.environ.get(OFFLINE_ENV, "").strip() else (
        f"{HF_OFFLINE_ENV}={os.environ.get(HF_OFFLINE_ENV)}"
    )
    return (
        f"Offline ({var}): {len(missing)} source file(s) of {', '.join(names)} are not downloaded, e.g. "
        f"{missing[0].dest} from {missing[0].sources[0]}. Set {SOURCES_ENV}=DIR (raw sources in the layout "
        f"of shared/data/sources) or {DATA_ENV}=DIR (built datasets), point {MIRROR_ENV} at a local "
        f"mirror, or allow the download with {OFFLINE_ENV}=0."
    )


# --- downloading -------------------------------------------------------------------------------
class _Failure(Exception):
    """This URL did not work (the next one is tried); the message says why."""


class _Dropped(Exception):
    """The connection broke mid-file; the ``.part`` file is kept for a resume."""

    def __init__(self, reason: str, progressed: bool) -> None:
        super().__init__(reason)
        self.progressed = progressed


class _NullBar:
    total = 0

    def update(self, n: int) -> None:
        pass

    def set_postfix_str(self, s: str, refresh: bool = True) -> None:
        pass

    def refresh(self) -> None:
        pass


class _Credit:
    """Bytes of one file shown on the progress bar, so a restart can take them back."""

    def __init__(self, bar) -> None:
        self.bar, self.shown = bar, 0

    def set(self, n: int) -> None:
        self.bar.update(n - self.shown)
        self.shown = n

    def add(self, n: int) -> None:
        self.bar.update(n)
        self.shown += n


@contextlib.contextmanager
def _progress_bar(total: int, enabled: bool, count: int) -> Iterator:
    if not enabled:
        yield _NullBar()
        return
    from tqdm.auto import tqdm

    with tqdm(
        total=total or None, unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr,
        desc=f"mteb-evalrank: downloading {count} source file(s)", dynamic_ncols=True,
    ) as bar:
        yield bar


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """Exclusive lock on ``folder`` (fcntl); a no-op where fcntl or a writable lock file is missing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        handle = open(folder / _LOCK_NAME, "a+b")  # noqa: SIM115
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _candidate_urls(urls: Sequence[str], mirror: str | None) -> list[str]:
    return [mirror_url(u, mirror) for u in urls] if mirror else list(urls)


def _download_missing(
    root: Path, missing: Sequence[SourceFile], mirror: str | None, *, progress: bool, timeout: float, retries: int
) -> None:
    plain = [e for e in missing if e.archive is None]
    archives: dict[Archive, list[SourceFile]] = {}
    for e in missing:
        if e.archive is not None:
            archives.setdefault(e.archive, []).append(e)
    total = sum(e.size or 0 for e in plain) + sum(a.size or 0 for a in archives)
    with _progress_bar(total, progress, len(missing)) as bar:
        for entry in plain:
            bar.set_postfix_str(entry.dest, refresh=False)
            _fetch_plain(root, entry, mirror, bar, timeout=timeout, retries=retries)
        for archive, members in archives.items():
            bar.set_postfix_str(archive.name, refresh=False)
            _fetch_archive(root, archive, members, mirror, bar, timeout=timeout, retries=retries)


def _failure_message(what: str, errors: list[str]) -> str:
    return (
        f"Could not download {what}: " + "; ".join(errors) + f". Check the network or set {MIRROR_ENV}=BASE_URL "
        f"to use a mirror, or set {SOURCES_ENV}=DIR to a folder of raw sources (layout of shared/data/sources)."
    )


def _fetch_plain(root: Path, entry: SourceFile, mirror: str | None, bar, *, timeout: float, retries: int) -> None:
    target = root / entry.dest
    _mkdir(target.parent)
    urls = _candidate_urls(entry.urls, mirror)
    errors = []
    for url in urls:
        try:
            _download(url, target, entry.sha256, entry.size, bar, timeout=timeout, retries=retries)
            return
        except _Failure as exc:
            errors.append(f"{url}: {exc}")
    raise SourceDownloadError(_failure_message(entry.dest, errors), urls)


def _fetch_archive(
    root: Path, archive: Archive, members: list[SourceFile], mirror: str | None, bar, *, timeout: float, retries: int
) -> None:
    folder = root / _ARCHIVE_DIR
    _mkdir(folder)
    path = folder / archive.name
    urls = _candidate_urls(archive.urls, mirror)
    errors = []
    for url in urls:
        try:
            if not (path.is_file() and archive.sha256 is not None and file_sha256(path) == archive.sha256):
                _download(url, path, archive.sha256, archive.size, bar, timeout=timeout, retries=retries)
            _extract(path, members, root)
        except _Failure as exc:
            errors.append(f"{url}: {exc}")
            path.unlink(missing_ok=True)  # never reuse an archive whose members did not check out
            continue
        path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            folder.rmdir()
        return
    what = f"{', '.join(m.dest for m in members)} (from the archive {archive.name})"
    raise SourceDownloadError(_failure_message(what, errors), urls)


def _mkdir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceDownloadError(f"Cannot create the folder {folder}: {exc}.") from exc


def _part_path(target: Path) -> Path:
    return target.with_name(target.name + ".part")


def _download(
    url: str, target: Path, sha256: str | None, size: int | None, bar, *, timeout: float, retries: int
) -> None:
    """Download ``url`` to ``target`` through ``target.part`` (resumed if present); verify; rename."""
    part = _part_path(target)
    credit = _Credit(bar)
    resumes = 0
    restarted = False
    try:
        while True:
            try:
                resumed = _transfer(url, part, size, bar, credit, timeout)
            except _Dropped as exc:
                if exc.progressed and resumes < retries:
                    resumes += 1
                    continue
                have = part.stat().st_size if part.exists() else 0
                raise _Failure(
                    f"connection lost after {have} of {size if size is not None else '?'} bytes ({exc}); "
                    f"{part.name} is kept and the next attempt resumes it"
                ) from None
            got_size = part.stat().st_size
            digest = file_sha256(part)
            if (sha256 is None or digest == sha256) and (size is None or got_size == size):
                _commit(part, target)
                return
            part.unlink(missing_ok=True)
            credit.set(0)
            if (resumed or resumes) and not restarted:  # the kept part may have been the bad bit: once more, whole
                restarted = True
                continue
            expected = f"expected sha256 {sha256}" + (f" ({size} bytes)" if size is not None else "")
            raise _Failure(f"checksum mismatch: {expected}, got {digest} ({got_size} bytes)")
    except _Failure:
        credit.set(0)
        raise


def _transfer(url: str, part: Path, size: int | None, bar, credit: _Credit, timeout: float) -> bool:
    """Append the rest of ``url`` to ``part`` (or write it whole); return whether it resumed."""
    offset = part.stat().st_size if part.is_file() else 0
    if size is not None and offset > size:
        part.unlink()
        offset = 0
    credit.set(offset)
    if size is not None and offset == size and offset > 0:
        return True  # complete from an earlier attempt: the checksum decides
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept-Encoding": "identity"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 - pinned URLs, checked bytes
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 416 and offset:  # nothing after offset: the part is complete (or wrong: the checksum says)
            return True
        raise _Failure(f"HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise _Failure(f"{_reason(exc.reason)}") from None
    except (TimeoutError, socket.timeout):
        raise _Failure(f"no answer within {timeout:g} s") from None
    except (http.client.HTTPException, OSError, ValueError) as exc:
        raise _Failure(_reason(exc)) from None
    with response:
        status = getattr(response, "status", None) or response.getcode() or 200
        mode = "wb"
        if offset and status == 206:
            match = re.match(r"bytes (\d+)-", response.headers.get("Content-Range", ""))
            if not match or int(match.group(1)) != offset:
                response.close()
                part.unlink(missing_ok=True)  # an answer we cannot splice: start again, whole
                return _transfer(url, part, size, bar, credit, timeout)
            mode = "ab"
        elif status not in (200, 206):
            raise _Failure(f"HTTP {status}")
        if mode == "wb":
            credit.set(0)  # the server sends everything (it ignored Range, or there was nothing to resume)
        length = response.headers.get("Content-Length")
        expected = int(length) if length and length.isdigit() else None
        if size is None and expected is not None and bar.total is not None:
            bar.total += expected + (offset if mode == "ab" else 0)
            bar.refresh()
        written = 0
        try:
            handle = open(part, mode)  # noqa: SIM115
        except OSError as exc:
            raise SourceDownloadError(f"Cannot write {part}: {exc}.") from exc
        with handle:
            try:
                while True:
                    try:
                        chunk = response.read(_CHUNK)
                    except (http.client.HTTPException, OSError) as exc:
                        raise _Dropped(_reason(exc), written > 0) from None
                    if not chunk:
                        break
                    try:
                        handle.write(chunk)
                    except OSError as exc:
                        raise SourceDownloadError(f"Cannot write {part}: {exc}.") from exc
                    written += len(chunk)
                    credit.add(len(chunk))
                    if size is not None and (offset if mode == "ab" else 0) + written > size:
                        break  # more than the pinned size: stop reading, the size check rejects it
            finally:
                handle.flush()
                os.fsync(handle.fileno())
        total = (offset if mode == "ab" else 0) + written
        if (expected is not None and written < expected) or (size is not None and total < size):
            raise _Dropped(f"the server closed the connection after {written} bytes", written > 0)
    return mode == "ab"


def _reason(exc: object) -> str:
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).strip()
    return text or type(exc).__name__


def _commit(part: Path, target: Path) -> None:
    os.replace(part, target)
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- archives ----------------------------------------------------------------------------------
@contextlib.contextmanager
def _open_member(archive: Path, member: str) -> Iterator:
    import tarfile
    import zipfile
    import zlib

    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                try:
                    info = zf.getinfo(member)
                except KeyError:
                    raise _Failure(f"the archive has no member {member}") from None
                with zf.open(info) as stream:
                    yield stream
        else:
            with tarfile.open(archive, "r:*") as tf:
                try:
                    info = tf.getmember(member)
                except KeyError:
                    raise _Failure(f"the archive has no member {member}") from None
                if not info.isfile():
                    raise _Failure(f"archive member {member} is not a regular file")
                stream = tf.extractfile(info)
                with stream:
                    yield stream
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise _Failure(f"{archive.name} is not a readable archive ({_reason(exc)})") from None


def _extract(archive: Path, members: Sequence[SourceFile], root: Path) -> None:
    """Copy each member to its destination (through ``.part``), checking size and sha256 first."""
    for entry in members:
        target = root / entry.dest
        _mkdir(target.parent)
        part = _part_path(target)
        h = hashlib.sha256()
        with _open_member(archive, entry.member) as stream, open(part, "wb") as out:
            for block in iter(lambda: stream.read(_CHUNK), b""):
                h.update(block)
                out.write(block)
            out.flush()
            os.fsync(out.fileno())
        got = part.stat().st_size
        wrong_sha = entry.sha256 is not None and h.hexdigest() != entry.sha256
        if wrong_sha or (entry.size is not None and got != entry.size):
            part.unlink(missing_ok=True)
            raise _Failure(
                f"archive member {entry.member}: expected sha256 {entry.sha256} ({entry.size} bytes), "
                f"got {h.hexdigest()} ({got} bytes)"
            )
        _commit(part, target)


__all__ = [
    "Archive",
    "DATASETS",
    "DEFAULT_DATASETS",
    "MANIFEST",
    "MIRROR_ENV",
    "OFFLINE_ENV",
    "STR_DEST",
    "SourceDownloadError",
    "SourceFile",
    "default_sources_dir",
    "download_sources",
    "ensure_sources",
    "manifest_for",
    "mirror_url",
    "offline",
]
