"""A file system that refuses writes (issue 47, class 2): full (ENOSPC), read-only, no permission.

Every command ends with one line naming the path (the error's own, or the output option when the writer does
not name its file, as pyarrow does), exit code 2 and no traceback; a failed command leaves no folder it created
behind, and a result save that fails midway is undone (the result file and ``run_settings.jsonl`` stay as they
were).  The real full disk is a 64 KiB tmpfs filled with zeros (needs root and ``mount``; skipped otherwise);
the rest raise the errno from the writer the command uses.
"""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from results_fixture import MODELS, write_results

ENOSPC_LINE = "No space left on device (ENOSPC); free some space or write elsewhere."


def _main(argv: list[str], capsys) -> tuple[int, str]:
    from mteb_evalrank.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().err


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err[-2000:]
    lines = [line for line in err.splitlines() if line.startswith("mteb-evalrank: error:")]
    assert len(lines) == 1, err[-2000:]
    return lines[0]


def _files(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
    }


def _fill(path: Path) -> None:
    """Write zeros into ``path`` until the file system is full."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


@pytest.fixture
def full(tmp_path):
    """A mounted tmpfs of 64 KiB whose space is used up by one file (``full/fill``)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path / "full"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode(errors='replace').strip()}")
    try:
        _fill(mount / "fill")
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


@pytest.fixture
def results(tmp_path) -> Path:
    root = tmp_path / "results_in"
    write_results(root, models=MODELS, tasks=["EvalRankWord", "HEROS", "SentEvalMR"])
    return root


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["heros-report", "{R}", "--csv", "{F}/h.csv"], "--csv {F}/h.csv"),
        (["heros-report", "{R}", "--out", "{F}/sub/h.png"], "--out {F}/sub/h.png"),
        (
            ["correlate", "{R}", "--intrinsic", "EvalRankWord", "--downstream", "SentEvalMR", "--csv", "{F}/c.csv"],
            "--csv {F}/c.csv",
        ),
        (["build-data", "word-similarity", "--sources", "{S}", "--out", "{F}/built"], "--out {F}/built"),
    ],
)
def test_a_full_disk_is_one_line_naming_the_path_and_leaves_nothing(
    argv, option, full, results, fixture_sources, capsys, monkeypatch, tmp_path
):
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    fill = {"{R}": str(results), "{F}": str(full), "{S}": str(fixture_sources)}
    args = [fill.get(a, a) for a in argv]
    for key, value in fill.items():
        args = [a.replace(key, value) for a in args]
        option = option.replace(key, value)
    code, err = _main(args, capsys)
    assert code == 2
    assert _one_line(err) == f"mteb-evalrank: error: cannot write {option}: {ENOSPC_LINE}"
    assert sorted(p.name for p in full.iterdir()) == ["fill"]  # no temporary file, no half-built folder


@pytest.mark.integration
def test_a_result_save_that_fails_on_a_full_disk_is_undone(full, fixture_sources, capsys, monkeypatch, tmp_path):
    """The first save leaves no empty result folder; a later save (other options: computed again) leaves the
    saved files as they were and no backup file."""
    monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
    monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    vectors = tmp_path / "vec.txt"
    vectors.write_text("cat 1 0 0\ndog 0 1 0\ntiger 0 0 1\n")
    run = ["run", "-m", str(vectors), "-t", "WS-353-All", "-o", str(full / "out"), "--no-progress"]
    code, err = _main(run, capsys)
    assert code == 2 and "the scores above are NOT saved" in _one_line(err)
    assert sorted(p.name for p in full.iterdir()) == ["fill"]  # no empty results/<model>/<revision>/
    (full / "fill").unlink()
    code, err = _main(run, capsys)
    assert code == 0, err
    saved = _files(full / "out")
    assert any(name.endswith("WS-353-All.json") for name in saved)
    _fill(full / "fill")
    code, err = _main([*run, "--no-center"], capsys)
    assert code == 2 and "the scores above are NOT saved" in _one_line(err)
    assert _files(full / "out") == saved


def test_a_writer_that_does_not_name_its_file_is_named_by_the_option(fixture_sources, capsys, monkeypatch, tmp_path):
    """pyarrow raises ``OSError(28, ...)`` without a file name: the line names ``--out``; the half-built dataset
    folder the command created is removed."""
    from mteb_evalrank.hub_datasets import layout as plugin_layout  # write_dataset calls its write_config

    real = plugin_layout.write_config
    calls = []

    def write_config_then_fill_up(*args, **kwargs):
        calls.append(args)
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(plugin_layout, "write_config", write_config_then_fill_up)
    monkeypatch.chdir(tmp_path)
    code, err = _main(["build-data", "word-similarity", "--sources", str(fixture_sources), "--out", "b"], capsys)
    assert code == 2 and len(calls) == 3
    assert _one_line(err) == f"mteb-evalrank: error: cannot write --out b: {ENOSPC_LINE}"
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize(
    ("number", "filename", "line"),
    [
        (errno.EROFS, "/m/x.csv", "cannot write /m/x.csv: Read-only file system (EROFS); use a writable folder"),
        (errno.EACCES, "/m/x.csv", "cannot use /m/x.csv: Permission denied (EACCES); check its permissions"),
        (errno.ENOSPC, "/m/.x.abc.tmp.csv", f"cannot write --csv out.csv: {ENOSPC_LINE}"),
    ],
)
def test_file_system_errors_are_one_line(number, filename, line, seeded_tables, capsys, monkeypatch):
    """The errno of a write from any writer: the real file name unless it is the temporary file of an atomic
    write (then the option); exit code 2."""
    real = os.replace

    def refuse(src, dst, *args, **kwargs):  # the rename of the finished output onto out.csv
        if str(dst).endswith("out.csv"):
            raise OSError(number, os.strerror(number), filename)
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", refuse)
    code, err = _main(
        [
            "correlate",
            str(seeded_tables),
            "--intrinsic",
            "EvalRankWord",
            "--downstream",
            "SentEvalMR",
            "--csv",
            "out.csv",
        ],
        capsys,
    )
    assert code == 2
    assert _one_line(err).startswith(f"mteb-evalrank: error: {line}")
    assert not Path("out.csv").exists()
    assert [p.name for p in Path.cwd().iterdir() if ".tmp" in p.name] == []  # no temporary file left behind


@pytest.fixture
def seeded_tables(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "res"
    write_results(root, models=MODELS, tasks=["EvalRankWord", "SentEvalMR"])
    return root
