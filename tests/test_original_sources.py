"""Downloading the raw sources from their original locations (mteb_evalrank.data.original_sources).

Everything runs against a real HTTP server on 127.0.0.1 (a threaded ``http.server`` that honours
``Range``, can ignore it, and can drop the connection mid-file), serving small files laid out like the
real URLs.  With ``../shared/data/sources`` present, the real manifest is exercised too: its files are
served through loopback at the paths of their real URLs and checked against the pinned sha256.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import re
import socket
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

from mteb_evalrank.data import original_sources as osrc
from mteb_evalrank.data.original_sources import Archive, SourceDownloadError, SourceFile, download_sources
from mteb_evalrank.errors import DataNotFoundError, InputError


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- a loopback HTTP server ---------------------------------------------------------------------
class LoopbackServer:
    """Serves ``files`` (URL path -> bytes); records ``(path, Range header)`` of every request."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.drop_after: dict[str, int] = {}  # path -> bytes sent before the connection is dropped (once)
        self.ignore_range = False
        self.requests: list[tuple[str, str | None]] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep pytest output clean
                pass

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                server.requests.append((path, self.headers.get("Range")))
                data = server.files.get(path)
                if data is None:
                    self.send_error(404, "Not Found")
                    return
                start = 0
                match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
                if match and not server.ignore_range:
                    start = int(match.group(1))
                    if start >= len(data):
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(data)}")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                body = data[start:]
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()
                cut = server.drop_after.pop(path, None)
                if cut is not None:
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)  # drop the connection mid-file
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def add(self, path: str, data: bytes) -> str:
        self.files[path] = data
        return self.base + path

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    srv = LoopbackServer()
    yield srv
    srv.close()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for var in (osrc.MIRROR_ENV, osrc.OFFLINE_ENV, osrc.HF_OFFLINE_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))


def dead_url(path: str = "/x.txt") -> str:
    """A URL on a loopback port nobody listens on (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}{path}"


BIG = bytes(range(256)) * 1024  # 256 KiB: several read chunks
SMALL = b"tiger\tcat\t7.35\nbook\tpaper\t7.46\n"


def entry(dest: str, data: bytes, *urls: str, datasets=("toy",)) -> SourceFile:
    return SourceFile(dest, tuple(urls), sha(data), len(data), tuple(datasets))


def leftovers(folder: Path) -> list[str]:
    """Every file below ``folder``: what a download left there (pooch's temporary files have random names)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


# --- the real manifest ----------------------------------------------------------------------------
def test_real_manifest_is_pinned_and_covers_every_file_the_builders_read():
    from importlib import import_module

    from mteb_evalrank.hub_datasets.heros.source import FILENAME as HEROS_FILE
    from mteb_evalrank.hub_datasets.str_source import STR_SOURCE_URL

    word, sent, n2o = (
        import_module(f"mteb_evalrank.hub_datasets.{p}.build") for p in ("evalrank_word", "evalrank_sent", "n2o_corpus")
    )

    dests = [e.dest for e in osrc.MANIFEST]
    assert len(dests) == len(set(dests)), "a destination is listed twice"
    needed = {
        "evalrank-word": {f"{word.WORD_SIMILARITY_DIR}/{f}" for f in word.WORD_SIMILARITY_FILES}
        | {word.WIKI_VOCAB_FILE},
        "evalrank-sent": {f"{sent.STSB_DIR}/sts-{s}.csv" for s in sent.STSB_SPLITS} | {sent.STR_FILE},
        "n2o-corpus": {f"{n2o.STSB_DIR}/sts-{s}.csv" for s in n2o.SPLITS},
        "heros": {f"heros/{HEROS_FILE}"},
    }
    for name, paths in needed.items():
        covered = {e.dest for e in osrc.manifest_for(name)}
        assert paths <= covered, f"{name}: not in the manifest: {sorted(paths - covered)}"
    sts = import_module("mteb_evalrank.hub_datasets.sts_senteval.build")
    root = sts.SOURCE_FOLDER
    needed["sts-senteval"] = (
        {
            f"{root}/STS/{year}-en-test/STS.{kind}.{subset}.txt"
            for year, subsets in sts.STS_SUBSETS.items()
            for subset in subsets
            for kind in ("input", "gs")
        }
        | {f"{root}/STS/STSBenchmark/{f}" for f, _ in sts.STSB_FILES}
        | {f"{root}/SICK/{f}" for f, _ in sts.SICK_FILES}
        | {f"{root}/{sts.STR_FILE}"}
    )
    for name, paths in needed.items():
        covered = {e.dest for e in osrc.manifest_for(name)}
        assert paths <= covered, f"{name}: not in the manifest: {sorted(paths - covered)}"
    from mteb_evalrank.hub_datasets import DATASET_NAMES

    assert set(osrc.DATASETS) == set(DATASET_NAMES)  # one entry per builder
    assert set(osrc.DEFAULT_DATASETS) == set(DATASET_NAMES) - {"heros"}
    assert osrc.STR_DEST == sent.STR_FILE
    # every URL is pinned: a 40-hex commit for GitHub and the Hub, the release archive's own URL otherwise
    for e in osrc.MANIFEST:
        for url in e.sources:
            if "raw.githubusercontent.com" in url or "huggingface.co" in url:
                assert re.search(r"/[0-9a-f]{40}/", url), url
            else:
                assert url == "http://ixa2.si.ehu.es/stswiki/images/4/48/Stsbenchmark.tar.gz", url
    # only HEROS lacks a checksum, and it is refused (not trusted)
    assert [e.dest for e in osrc.MANIFEST if not e.verifiable] == ["heros/heros.tsv"]
    assert all(e.sha256 and e.size for e in osrc.MANIFEST if e.dest != "heros/heros.tsv")
    assert osrc.STSBENCHMARK_ARCHIVE.sha256 and osrc.STSBENCHMARK_ARCHIVE.size
    # STR comes from the authors' repository at the commit the EvalRankSent loader names
    (str_entry,) = [e for e in osrc.MANIFEST if e.dest == sent.STR_FILE]
    assert str_entry.urls[0] == STR_SOURCE_URL


@pytest.mark.integration
def test_real_manifest_lays_out_shared_sources_exactly(shared_sources):
    on_disk = {p.relative_to(shared_sources).as_posix(): p for p in shared_sources.rglob("*") if p.is_file()}
    listed = {e.dest: e for e in osrc.MANIFEST if e.dest != "heros/heros.tsv"}
    assert set(listed) == set(on_disk)
    differ = sorted(d for d, e in listed.items() if sha(on_disk[d].read_bytes()) != e.sha256)
    # the STS-B release has LF line ends; the shared copy CRLF and no trailing spaces (the N2O build is the same)
    assert differ == ["stsbenchmark_raw/sts-train.csv"]


def test_manifest_entries_are_validated():
    with pytest.raises(ValueError, match="relative POSIX path"):
        SourceFile("../escape.txt", ("https://example.org/a",), None, None, ("x",))
    with pytest.raises(ValueError, match="64 lowercase hex"):
        SourceFile("a.txt", ("https://example.org/a",), "abc", None, ("x",))
    with pytest.raises(ValueError, match="at least one URL"):
        SourceFile("a.txt", (), None, None, ("x",))
    with pytest.raises(ValueError, match="archive name"):
        Archive("a.rar", ("https://example.org/a.rar",), None)


def test_unknown_names_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="Unknown source dataset"):
        download_sources(tmp_path, datasets=["evalrank-wrod"])
    with pytest.raises(InputError, match="Not in the source manifest"):
        download_sources(tmp_path, files=["nope.txt"])


def test_mirror_url_keeps_host_and_path():
    url = "https://raw.githubusercontent.com/o/r/" + "a" * 40 + "/data/x.txt"
    expected = "http://m.local/src/raw.githubusercontent.com/o/r/" + "a" * 40 + "/data/x.txt"
    assert osrc.mirror_url(url, "http://m.local/src/") == expected


# --- downloads -----------------------------------------------------------------------------------
def test_full_download_is_verified_and_not_repeated(server, tmp_path):
    manifest = [
        entry("word_similarity/EN-TOY.txt", SMALL, server.add("/o/r/c1/EN-TOY.txt", SMALL), datasets=("word",)),
        entry("big/blob.bin", BIG, server.add("/o/r/c1/blob.bin", BIG), datasets=("sent",)),
    ]
    paths = download_sources(tmp_path / "src", datasets="all", progress=False, manifest=manifest)
    assert paths == [tmp_path / "src/word_similarity/EN-TOY.txt", tmp_path / "src/big/blob.bin"]
    assert paths[0].read_bytes() == SMALL and paths[1].read_bytes() == BIG
    assert leftovers(tmp_path / "src") == ["big/blob.bin", "word_similarity/EN-TOY.txt"]  # nothing else
    n = len(server.requests)
    assert download_sources(tmp_path / "src", datasets="all", progress=False, manifest=manifest) == paths
    assert len(server.requests) == n  # present and verified: nothing downloaded again
    only_word = download_sources(tmp_path / "w", datasets=["word"], progress=False, manifest=manifest)
    assert only_word == [tmp_path / "w/word_similarity/EN-TOY.txt"] and not (tmp_path / "w/big").exists()


def test_interrupted_download_leaves_nothing_and_the_next_attempt_downloads_whole(server, tmp_path):
    """pooch has no Range resume (docs/data.md says why that is acceptable): a broken transfer leaves no
    partial file behind, and the next call downloads the file from its start."""
    url = server.add("/data/blob.bin", BIG)
    manifest = [entry("blob.bin", BIG, url)]
    server.drop_after["/data/blob.bin"] = 100_000
    with pytest.raises(SourceDownloadError) as err:
        download_sources(tmp_path, datasets="all", progress=False, manifest=manifest, retries=0)
    msg = str(err.value)
    assert url in msg and "connection lost" in msg and "\n" not in msg
    assert isinstance(err.value, DataNotFoundError)
    assert leftovers(tmp_path) == []  # nothing that looks complete, no temporary file

    download_sources(tmp_path, datasets="all", progress=False, manifest=manifest)
    assert server.requests[-1] == ("/data/blob.bin", None)  # the whole file again
    assert (tmp_path / "blob.bin").read_bytes() == BIG
    assert leftovers(tmp_path) == ["blob.bin"]


def test_dropped_connection_is_retried_by_pooch(server, tmp_path):
    manifest = [entry("blob.bin", BIG, server.add("/blob.bin", BIG))]
    server.drop_after["/blob.bin"] = 70_000
    download_sources(tmp_path, datasets="all", progress=False, manifest=manifest)
    assert server.requests == [("/blob.bin", None), ("/blob.bin", None)]
    assert (tmp_path / "blob.bin").read_bytes() == BIG


def test_wrong_checksum_names_the_url_and_leaves_nothing(server, tmp_path):
    url = server.add("/o/r/c/EN-TOY.txt", SMALL)
    manifest = [SourceFile("ws/EN-TOY.txt", (url,), sha(b"other bytes"), None, ("toy",))]
    with pytest.raises(SourceDownloadError) as err:
        download_sources(tmp_path, datasets="all", progress=False, manifest=manifest)
    msg = str(err.value)
    assert url in msg and "checksum mismatch" in msg and sha(b"other bytes") in msg and sha(SMALL) in msg
    assert "\n" not in msg and err.value.urls == (url,)
    assert not (tmp_path / "ws/EN-TOY.txt").exists() and leftovers(tmp_path) == []
    assert len(server.requests) == 1 + osrc.DEFAULT_RETRIES  # pooch retried the mismatch, then gave up


def test_existing_file_with_other_bytes_is_replaced(server, tmp_path):
    manifest = [entry("a.txt", SMALL, server.add("/a.txt", SMALL))]
    (tmp_path / "a.txt").write_bytes(b"stale")
    download_sources(tmp_path, datasets="all", progress=False, manifest=manifest)
    assert (tmp_path / "a.txt").read_bytes() == SMALL


def test_next_url_is_tried_and_all_failures_are_named(server, tmp_path):
    missing, good = server.base + "/gone/a.txt", server.add("/mirror2/a.txt", SMALL)
    download_sources(tmp_path / "ok", datasets="all", progress=False, manifest=[entry("a.txt", SMALL, missing, good)])
    assert (tmp_path / "ok/a.txt").read_bytes() == SMALL
    down = dead_url("/a.txt")
    with pytest.raises(SourceDownloadError) as err:
        download_sources(
            tmp_path / "ko", datasets="all", progress=False, manifest=[entry("a.txt", SMALL, missing, down)]
        )
    msg = str(err.value)
    assert f"{missing}: HTTP 404" in msg and down in msg and osrc.SOURCES_ENV in msg


def test_server_down_fails_fast_naming_the_url(tmp_path):
    url = dead_url("/o/r/c/EN-TOY.txt")
    start = time.monotonic()
    with pytest.raises(SourceDownloadError) as err:
        download_sources(tmp_path, datasets="all", progress=False, manifest=[entry("EN-TOY.txt", SMALL, url)])
    assert time.monotonic() - start < 5
    assert url in str(err.value) and "refused" in str(err.value).lower()
    assert not (tmp_path / "EN-TOY.txt").exists() and leftovers(tmp_path) == []


def test_unpinned_checksum_is_refused_before_any_request(server, tmp_path):
    url = server.add("/heros.tsv", SMALL)
    with pytest.raises(SourceDownloadError, match="No sha256 is pinned") as err:
        unpinned = [SourceFile("h.tsv", (url,), None, None, ("h",))]
        download_sources(tmp_path, datasets="all", progress=False, manifest=unpinned)
    assert url in str(err.value) and server.requests == []
    with pytest.raises(SourceDownloadError, match="No sha256 is pinned") as err:
        download_sources(tmp_path, datasets="heros", progress=False)  # the real, still unpinned, HEROS entry
    assert osrc.HEROS_URL in str(err.value)


# --- offline, mirror, progress, concurrency ------------------------------------------------------------
@pytest.mark.parametrize("env", [{"MTEB_EVALRANK_OFFLINE": "1"}, {"HF_HUB_OFFLINE": "1"}])
def test_offline_fails_at_once_without_network(server, tmp_path, monkeypatch, env):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    manifest = [entry("a.txt", SMALL, server.add("/a.txt", SMALL))]
    with pytest.raises(SourceDownloadError) as err:
        download_sources(tmp_path / "new", datasets="all", progress=False, manifest=manifest)
    msg = str(err.value)
    assert "Offline" in msg and osrc.SOURCES_ENV in msg and osrc.DATA_ENV in msg and server.base in msg
    assert server.requests == [] and not (tmp_path / "new").exists()  # nothing touched
    (tmp_path / "a.txt").write_bytes(SMALL)  # already there: offline is fine
    assert download_sources(tmp_path, datasets="all", progress=False, manifest=manifest) == [tmp_path / "a.txt"]


def test_offline_switches(server, tmp_path, monkeypatch):
    manifest = [entry("a.txt", SMALL, "https://example.invalid/o/r/a.txt")]
    server.add("/m/example.invalid/o/r/a.txt", SMALL)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv(osrc.OFFLINE_ENV, "0")  # the Hub stays offline, original sources are allowed
    assert not osrc.offline()
    monkeypatch.setenv(osrc.MIRROR_ENV, server.base + "/m/")
    download_sources(tmp_path / "a", datasets="all", progress=False, manifest=manifest)
    monkeypatch.setenv(osrc.OFFLINE_ENV, "1")  # offline, but an explicit mirror is still used
    download_sources(tmp_path / "b", datasets="all", progress=False, manifest=manifest)
    assert (tmp_path / "b/a.txt").read_bytes() == SMALL


def test_mirror_serves_the_real_url_layout(server, tmp_path, monkeypatch):
    real = "https://raw.githubusercontent.com/owner/repo/" + "c" * 40 + "/data/EN-TOY.txt"
    server.add("/srv/raw.githubusercontent.com/owner/repo/" + "c" * 40 + "/data/EN-TOY.txt", SMALL)
    monkeypatch.setenv(osrc.MIRROR_ENV, server.base + "/srv")
    download_sources(tmp_path, datasets="all", progress=False, manifest=[entry("EN-TOY.txt", SMALL, real)])
    assert (tmp_path / "EN-TOY.txt").read_bytes() == SMALL
    assert server.requests == [("/srv/raw.githubusercontent.com/owner/repo/" + "c" * 40 + "/data/EN-TOY.txt", None)]


def test_file_mirror(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "example.org/d").mkdir(parents=True)
    (mirror / "example.org/d/a.txt").write_bytes(SMALL)
    monkeypatch.setenv(osrc.MIRROR_ENV, mirror.as_uri())
    manifest = [entry("a.txt", SMALL, "https://example.org/d/a.txt")]
    download_sources(tmp_path / "out", datasets="all", progress=False, manifest=manifest)
    assert (tmp_path / "out/a.txt").read_bytes() == SMALL


def test_progress_bar_goes_to_stderr(server, tmp_path, capsys):
    download_sources(tmp_path, datasets="all", progress=True, manifest=[entry("blob.bin", BIG, server.add("/b", BIG))])
    assert "downloading 1 source file" in capsys.readouterr().err


def test_two_concurrent_downloads_into_one_folder(server, tmp_path):
    manifest = [entry("blob.bin", BIG, server.add("/blob.bin", BIG))]
    errors = []

    def run():
        try:
            download_sources(tmp_path, datasets="all", progress=False, manifest=manifest)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and (tmp_path / "blob.bin").read_bytes() == BIG
    assert len(server.requests) == 1  # the second waited for the first, then found the file verified


# --- archives ------------------------------------------------------------------------------------
def make_tar(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make_zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


MEMBERS = {
    "stsbenchmark/sts-dev.csv": b"main-news\tx\t2012\t1\t4.0\tA b.\tA c.\n",
    "stsbenchmark/readme.txt": b"readme\n",
}


def archive_manifest(archive: Archive, member_sha=None) -> list[SourceFile]:
    return [
        SourceFile(
            f"stsbenchmark_raw/{name.split('/')[1]}",
            (),
            member_sha or sha(data),
            len(data),
            ("n2o",),
            archive=archive,
            member=name,
        )
        for name, data in MEMBERS.items()
    ]


@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_archive_members_are_extracted_and_checked(server, tmp_path, kind):
    blob = make_tar(MEMBERS) if kind == "tar.gz" else make_zip(MEMBERS)
    url = server.add(f"/stswiki/Stsbenchmark.{kind}", blob)
    archive = Archive(f"Stsbenchmark.{kind}", (url,), sha(blob), len(blob))
    download_sources(tmp_path, datasets="all", progress=False, manifest=archive_manifest(archive))
    for name, data in MEMBERS.items():
        assert (tmp_path / "stsbenchmark_raw" / name.split("/")[1]).read_bytes() == data
    assert leftovers(tmp_path) == sorted(f"stsbenchmark_raw/{name.split('/')[1]}" for name in MEMBERS)  # no archive


def test_archive_without_pinned_sha_is_verified_by_its_members(server, tmp_path):
    blob = make_tar(MEMBERS)
    url = server.add("/a/Stsbenchmark.tar.gz", blob)
    download_sources(
        tmp_path / "ok",
        datasets="all",
        progress=False,
        manifest=archive_manifest(Archive("Stsbenchmark.tar.gz", (url,), None)),
    )
    assert (tmp_path / "ok/stsbenchmark_raw/readme.txt").read_bytes() == MEMBERS["stsbenchmark/readme.txt"]
    with pytest.raises(SourceDownloadError) as err:
        download_sources(
            tmp_path / "ko",
            datasets="all",
            progress=False,
            manifest=archive_manifest(Archive("Stsbenchmark.tar.gz", (url,), None), member_sha="0" * 64),
        )
    msg = str(err.value)
    assert url in msg and "archive member stsbenchmark/" in msg and "0" * 64 in msg
    assert not list((tmp_path / "ko").rglob("*.csv")) and not list((tmp_path / "ko").rglob("*.txt"))
    assert not (tmp_path / "ko/.archives/Stsbenchmark.tar.gz").exists()  # a bad archive is not kept


def test_archive_with_wrong_sha_or_garbage_is_refused(server, tmp_path):
    blob = make_tar(MEMBERS)
    url = server.add("/a/Stsbenchmark.tar.gz", blob)
    with pytest.raises(SourceDownloadError, match="checksum mismatch"):
        download_sources(
            tmp_path,
            datasets="all",
            progress=False,
            retries=0,
            manifest=archive_manifest(Archive("Stsbenchmark.tar.gz", (url,), "1" * 64)),
        )
    garbage = server.add("/a/garbage.tar.gz", b"not an archive")
    with pytest.raises(SourceDownloadError, match="not a readable archive"):
        download_sources(
            tmp_path,
            datasets="all",
            progress=False,
            manifest=archive_manifest(Archive("garbage.tar.gz", (garbage,), None)),
        )
    assert leftovers(tmp_path) == [] and not list(tmp_path.rglob("*.csv"))


# --- the real manifest through loopback -----------------------------------------------------------------
@pytest.mark.integration
def test_real_sources_through_loopback_and_build(shared_sources, server, tmp_path, monkeypatch):
    """Serve the shared files at the paths of their real URLs; download with the REAL checksums; build."""
    from mteb_evalrank.hub_datasets import BUILDERS

    served = []
    for e in osrc.MANIFEST:
        path = shared_sources / e.dest
        if e.archive is None and path.is_file() and sha(path.read_bytes()) == e.sha256:
            server.add("/mirror/" + e.urls[0].split("://", 1)[1], path.read_bytes())
            served.append(e.dest)
    monkeypatch.setenv(osrc.MIRROR_ENV, server.base + "/mirror")
    groups = ["evalrank-word", "evalrank-sent", "sts-senteval", "senteval-downstream"]
    expected = {e.dest for e in osrc.manifest_for(groups)}
    assert expected <= set(served)
    root = osrc.ensure_sources(groups, progress=False)
    assert root == tmp_path / "cache" / "original-sources" / f"v{osrc.MANIFEST_VERSION}"
    for dest in expected:
        assert (root / dest).read_bytes() == (shared_sources / dest).read_bytes(), dest
    assert leftovers(root) == sorted(expected)  # nothing else: no temporary file, no lock file

    word = BUILDERS["evalrank-word"].build(root, tmp_path / "word")
    sent = BUILDERS["evalrank-sent"].build(root, tmp_path / "sent")
    assert (word["pairs"], word["background"]) == (5514, 22207)
    assert (sent["pairs"], sent["background"]) == (6989, 24957)


@pytest.mark.integration
@pytest.mark.parametrize("name", ["n2o-corpus", "sts-senteval", "senteval-downstream"])
def test_each_builder_builds_from_only_its_manifest_files(shared_sources, tmp_path, name):
    """The manifest lists everything a builder reads: build from a folder holding only those files."""
    from mteb_evalrank.hub_datasets import BUILDERS

    src = tmp_path / "src"
    for e in osrc.manifest_for(name):
        (src / e.dest).parent.mkdir(parents=True, exist_ok=True)
        (src / e.dest).symlink_to(shared_sources / e.dest)
    report = BUILDERS[name].build(src, tmp_path / "out")
    assert report and (tmp_path / "out" / "README.md").is_file()
