"""MTEB's leaderboard API backend (``mteb.api``, FastAPI) on a local results folder, through a real HTTP client.

The module fixture writes a small results folder with MTEB's own objects (``results_fixture.write_results``):
a model of MTEB's registry and a local model that is not in it, on the single-task groups of the ``EvalRank``
benchmark and its STS baselines.  Each server is a real uvicorn on 127.0.0.1 on a free port, started both ways
— ``mteb-evalrank leaderboard FOLDER --api`` and plain ``MTEB_CACHE=FOLDER CACHE_REPO= uvicorn
mteb.api.app:app`` — with ``HF_HUB_OFFLINE=1``; start-up is bounded by ``STARTUP_SECONDS``, every request by
``REQUEST_SECONDS``, and the server is stopped at the end (terminate, then kill after 10 s).

The tests read ``/v1/benchmarks``, ``/v1/benchmarks/EvalRank/scores``, ``/v1/models`` and
``/v1/models/{name}/scores`` with ``urllib`` and compare every score with the result files, including the
``Evaluation`` custom-group columns; and that nothing was cloned (no ``FOLDER/remote``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest
from results_fixture import MODELS, task_score, write_results

from mteb_evalrank.integration.benchmarks import GROUPING_NAME, GROUPS

pytest.importorskip("fastapi", reason="MTEB's API backend needs mteb[api]: pip install -e '.[leaderboard]'")
pytest.importorskip("uvicorn")
pytest.importorskip("pydantic_settings")

STARTUP_SECONDS = 240
REQUEST_SECONDS = 60
GROUPED = ("EvalRank word", "EvalRank sentence", "N2O", "Baselines: STS")
TASKS = tuple(t for label, _, names in GROUPS if label in GROUPED for t in names)
LOCAL = ("local/my-checkpoint", "abc123")
SHOWN = {MODELS[0][0]: MODELS[0][0], LOCAL[0]: LOCAL[0]}  # an unregistered model keeps its own name (issue 44)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=REQUEST_SECONDS) as response:
        assert response.status == 200
        return json.loads(response.read())


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("api") / "results_folder"
    written = write_results(root, models=[MODELS[0]], tasks=TASKS)
    written.update(write_results(root, models=[LOCAL], tasks=TASKS, seed=1))
    expected = {
        # the task's headline as the plugin reads it (EvalRank's MRR over all pairs, SentEval's 'all'): what the
        # API must show (issue 44; with a whole and its parts as subsets MTEB's mean would differ)
        SHOWN[name]: {task: task_score(s) for task, s in tasks.items()}
        for (name, _), tasks in written.items()
    }
    return root, expected


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


@pytest.fixture(
    scope="module", params=["mteb-evalrank leaderboard FOLDER --api", "MTEB_CACHE=FOLDER CACHE_REPO= uvicorn"]
)
def api(request, folder):
    root, _ = folder
    port = _free_port()
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    for var in ("MTEB_CACHE", "CACHE_REPO", "MTEB_EVALRANK_API_FOLDER", "PRELOAD"):
        env.pop(var, None)
    if request.param.startswith("mteb-evalrank"):
        command = [str(bin_dir / "mteb-evalrank"), "leaderboard", str(root), "--api", "--port", str(port)]
    else:
        env.update(MTEB_CACHE=str(root), CACHE_REPO="")
        command = [str(bin_dir / "uvicorn"), "mteb.api.app:app", "--host", "127.0.0.1", "--port", str(port)]
    log = root.parent / f"api-{port}.log"
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        while True:
            if server.poll() is not None:
                pytest.fail(f"{request.param} exited with {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if _get(f"{base}/health") == {"ok": True}:
                    break
            except (OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{request.param} did not answer within {STARTUP_SECONDS}s:\n{log.read_text()[-3000:]}")
            time.sleep(1)
        yield f"{base}/v1"
    finally:
        _stop(server)
    text = log.read_text()
    assert "Traceback" not in text, text[-3000:]
    assert not (root / "remote").exists()  # the public results repository was not cloned


def _group_means(scores: dict[str, float]) -> dict[str, float]:
    return {label: float(np.mean([scores[t] for t in names])) for label, _, names in GROUPS if label in GROUPED}


def test_benchmarks_list_the_plugins_benchmarks_with_their_groups(api):
    benchmarks = {b["name"]: b for b in _get(f"{api}/benchmarks")}
    assert {"EvalRank", "EvalRank(study)", "WordSim"} <= set(benchmarks)
    (grouping,) = benchmarks["EvalRank"]["customGroupings"]
    assert grouping["name"] == GROUPING_NAME
    assert [g["label"] for g in grouping["groups"]] == [label for label, _, _ in GROUPS]
    assert [g["tasks"] for g in grouping["groups"]] == [list(names) for _, _, names in GROUPS]
    assert benchmarks["EvalRank"]["aggregations"] == ["mean_task", "custom_groups"]


def test_benchmark_scores_are_the_result_files_scores(api, folder):
    _, expected = folder
    summary = _get(f"{api}/benchmarks/{quote('EvalRank')}/scores")
    rows = {r["model"]["name"]: r for r in summary["rows"]}
    assert set(rows) == set(expected)  # the local model too, under its own name
    assert summary["taskTypes"] == []  # no task-type means: N2O is not averaged with EvalRank
    for name, scores in expected.items():
        row = rows[name]
        assert row["scoresByTask"] == pytest.approx(scores)
        assert row["meanTask"] == pytest.approx(np.mean(list(scores.values())))
        groups = row["scoresByCustomGroup"][GROUPING_NAME]
        assert groups == pytest.approx(_group_means(scores))  # the groups without results are left out
    # MTEB's rank is Borda's: a model gets a point per task for each model it beats
    points = {n: sum(s[t] > expected[o][t] for o in expected for t in s) for n, s in expected.items()}
    ranks = {n: 1 + sum(p > points[n] for p in points.values()) for n in points}
    assert {n: r["rank"] for n, r in rows.items()} == ranks


def test_models_and_model_scores(api, folder):
    _, expected = folder
    local = SHOWN[LOCAL[0]]
    listed = _get(f"{api}/models?name={quote('my-checkpoint')}")
    assert [m["name"] for m in listed] == [local]
    assert listed[0]["releaseDate"] is None and listed[0]["license"] is None  # nothing that looks like a public entry
    for name, scores in expected.items():
        model = _get(f"{api}/models/{quote(name)}/scores")
        assert model["model"]["name"] == name
        by_benchmark = {r["benchmarkName"]: r for r in model["rows"]}
        assert by_benchmark["EvalRank"]["meanTask"] == pytest.approx(np.mean(list(scores.values())))
        assert by_benchmark["EvalRank"]["totalModels"] == len(expected)


def test_an_unknown_model_is_404(api):
    with pytest.raises(urllib.error.HTTPError) as info:
        _get(f"{api}/models/{quote('local/nobody')}/scores")
    assert info.value.code == 404


@pytest.mark.integration
def test_plain_uvicorn_on_a_folder_without_results_stops_with_one_line(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "MTEB_CACHE": str(empty), "CACHE_REPO": ""}
    env.pop("MTEB_EVALRANK_API_FOLDER", None)
    uvicorn = Path(sys.executable).with_name("uvicorn")
    proc = subprocess.run(
        [str(uvicorn), "mteb.api.app:app", "--host", "127.0.0.1", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=STARTUP_SECONDS,
    )
    assert proc.returncode == 2, proc.stderr[-3000:]
    errors = [line for line in proc.stderr.splitlines() if "error" in line.lower()]
    assert errors == [line for line in proc.stderr.splitlines() if line.startswith("mteb-evalrank: error: ")]
    assert len(errors) == 1 and f"{empty} holds no MTEB result file" in errors[0] and "mteb-evalrank run" in errors[0]
    assert "Traceback" not in proc.stderr
    assert not (empty / "remote").exists()


@pytest.mark.integration
def test_cli_api_on_a_folder_without_results(tmp_path, capsys):
    from mteb_evalrank.cli import main

    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["leaderboard", str(empty), "--api", "--port", str(_free_port())]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{empty} holds no MTEB result file" in err[0]
    assert "mteb.api.app" not in sys.modules  # stopped before MTEB's backend was imported
