"""Environment variables of the wrong kind (issue 47, class 5): one line naming the variable, exit code 2, before
any work; the same reader for every engine (:mod:`mteb_evalrank.environment`)."""

from __future__ import annotations

import os
import subprocess

import pytest

from mteb_evalrank.environment import check_environment, positive_int
from mteb_evalrank.errors import InputError


def _main(argv, capsys) -> tuple[int, str]:
    from mteb_evalrank.cli import main

    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("value", ["abc", "-2", "0", "1.5", "²"])
def test_zoo_threads_of_the_wrong_kind_is_one_line_for_every_command(value, monkeypatch, capsys):
    monkeypatch.setenv("MTEB_EVALRANK_ZOO_THREADS", value)
    code, err = _main(["models"], capsys)
    assert code == 2 and "Traceback" not in err
    assert err.strip() == (
        f"mteb-evalrank: error: MTEB_EVALRANK_ZOO_THREADS={value!r}: expected a whole number ≥ 1, "
        "e.g. MTEB_EVALRANK_ZOO_THREADS=1; or unset it."
    )


@pytest.mark.integration
def test_every_engine_reads_zoo_threads_through_one_helper(monkeypatch):
    """The zoo's loader checks it for every engine (a static word-vector base too, which never calls torch)."""
    from mteb_evalrank.zoo.adapter import load_zoo_variant

    monkeypatch.setenv("MTEB_EVALRANK_ZOO_THREADS", "abc")
    with pytest.raises(InputError, match="MTEB_EVALRANK_ZOO_THREADS='abc'"):
        load_zoo_variant("zoo:glove-50d/mean")
    monkeypatch.setenv("MTEB_EVALRANK_ZOO_THREADS", " 2 ")
    assert positive_int("MTEB_EVALRANK_ZOO_THREADS") == 2
    monkeypatch.delenv("MTEB_EVALRANK_ZOO_THREADS")
    assert positive_int("MTEB_EVALRANK_ZOO_THREADS") is None


@pytest.mark.parametrize("below", [False, True])
def test_an_mteb_cache_that_is_a_file_is_one_line(below, tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("x")
    value = str(tmp_path / "afile" / "sub") if below else str(tmp_path / "afile")
    monkeypatch.setenv("MTEB_CACHE", value)
    with pytest.raises(InputError, match=f"MTEB_CACHE={value}: .*a file, not a folder"):
        check_environment()
    monkeypatch.setenv("MTEB_CACHE", str(tmp_path / "new" / "folder"))  # not there yet: MTEB creates it
    check_environment()


@pytest.mark.integration
def test_a_read_only_plugin_cache_is_one_line_naming_it(tmp_path, monkeypatch, capsys, fixture_sources):
    if os.geteuid() != 0:
        pytest.skip("mounting a read-only tmpfs needs root")
    ro = tmp_path / "ro"
    ro.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(ro)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        monkeypatch.setenv("MTEB_EVALRANK_CACHE", str(ro))
        monkeypatch.setenv("MTEB_EVALRANK_SOURCES", str(fixture_sources))
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        (tmp_path / "vec.txt").write_text("cat 1 0 0\ndog 0 1 0\n")
        argv = ["run", "-m", str(tmp_path / "vec.txt"), "-t", "WS-353-All", "-o", str(tmp_path / "out")]
        code, err = _main([*argv, "--no-progress"], capsys)
        lines = [line for line in err.splitlines() if line.startswith("mteb-evalrank: error:")]
        assert code == 2 and "Traceback" not in err and len(lines) == 1, err[-2000:]
        assert lines[0].startswith(f"mteb-evalrank: error: cannot write {ro}")
        assert "(the plugin cache, MTEB_EVALRANK_CACHE): Read-only file system (EROFS)" in lines[0]
        assert not (tmp_path / "out").exists()
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)


@pytest.mark.integration
def test_a_failed_run_leaves_no_folder_behind_not_even_mteb_s_cache(tmp_path):
    """``run -t WS-353-All HEROS`` offline without data fails; MTEB's cache folder, which ``import mteb`` creates
    (``~/.cache/mteb``), is removed again with the output folder: nothing is left in a fresh home folder."""
    import sys

    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "vec.txt").write_text("cat 1 0 0\ndog 0 1 0\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MTEB_", "XDG_", "HF_"))}
    env.update(HOME=str(home), HF_HUB_OFFLINE="1", MTEB_EVALRANK_CACHE=str(home / "plugin-cache"))
    argv = ["run", "-m", str(tmp_path / "vec.txt"), "-t", "WS-353-All", "HEROS", "-o", str(home / "out")]
    proc = subprocess.run(
        [sys.executable, "-m", "mteb_evalrank.cli", *argv, "--no-progress"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines()[-1].startswith("mteb-evalrank: error: Cannot load dataset")
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []


def test_zoo_threads_above_four_per_core_is_capped_with_a_warning(monkeypatch):
    """100,000 threads exhausted memory (a MemoryError traceback, holdout47's env-zoo-threads-huge)."""
    from mteb_evalrank.environment import THREADS_PER_CORE, zoo_threads
    from mteb_evalrank.errors import EvalRankWarning

    monkeypatch.setenv("MTEB_EVALRANK_ZOO_THREADS", "100000")
    with pytest.warns(EvalRankWarning, match="MTEB_EVALRANK_ZOO_THREADS=100000 is more than"):
        assert zoo_threads() == THREADS_PER_CORE * (os.cpu_count() or 1)
    monkeypatch.setenv("MTEB_EVALRANK_ZOO_THREADS", "1")
    assert zoo_threads() == 1
