"""MTEB's own leaderboard app (``mteb leaderboard``, Gradio) on a local results folder, in a real browser.

The module fixture writes a small results folder: the plugin's own run of the zoo model ``zoo:glove-50d/mean``
on three plugin tasks (``mteb-evalrank run``; real sources when present, else ``tests/fixtures/sources``), the
same tasks for two models of MTEB's registry written with MTEB's own objects (seeded scores,
``results_fixture``), and one result of a task of MTEB's default benchmark, which MTEB's app needs to
open on its default page.  It then writes the folder's leaderboard parquet with ``mteb-evalrank leaderboard FOLDER
--prepare-only`` and starts the real ``mteb leaderboard --cache-path FOLDER`` on 127.0.0.1 with
``HF_HUB_OFFLINE=1``.  Debian's Chromium (driven by Playwright) clicks the plugin's ``EvalRank suite``
button and the per-task and summary tables are checked against the result files on disk.  The server is
stopped at the end (terminate, then kill after 10 s); start-up is bounded by ``STARTUP_SECONDS``.

Locally the browser test is skipped (with the reason) when gradio, Chromium or Playwright is missing; with
``CI`` set it fails instead (``.ci/run`` installs ``.[test,leaderboard]`` and Chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from results_fixture import MODELS, model_meta, write_results
from test_report_browser import _unavailable, chromium  # noqa: F401 - the shared Chromium fixture

PLUGIN_TASKS = ("EvalRankSent", "SentEvalSTS12", "WS-353-All")  # complete in the fixture sources too
GLOVE = "zoo:glove-50d/mean"
#: a one-subset task of MTEB(Multilingual, v2), the benchmark MTEB's app opens on
DEFAULT_BENCHMARK_TASK = "STS12"
STARTUP_SECONDS = 420


def _needs_gradio():
    try:
        import gradio  # noqa: F401
        import mteb.leaderboard  # noqa: F401
    except ImportError as exc:
        _unavailable(f"MTEB's leaderboard app is not installed (pip install -e '.[leaderboard]'): {exc}")


def _write_default_benchmark_result(folder: Path) -> None:
    import mteb

    task = mteb.get_task(DEFAULT_BENCHMARK_TASK)
    name, revision = MODELS[0]
    scores = {split: {subset: {"main_score": 0.5, "cosine_spearman": 0.5} for subset in task.hf_subsets}
              for split in task.eval_splits}  # fmt: skip
    mteb.ResultCache(folder).save_to_cache(mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0), model_meta(name, revision))


def _files_scores(folder: Path) -> dict[str, dict[str, float]]:
    """{model name: {task: MTEB's task score}} read back from the result files (mean main score over splits
    and subsets), for the plugin tasks."""
    out: dict[str, dict[str, float]] = {}
    for meta in sorted(folder.glob("results/*/*/model_meta.json")):
        name = json.loads(meta.read_text())["name"]
        for task in PLUGIN_TASKS:
            data = json.loads((meta.parent / f"{task}.json").read_text())
            values = [entry["main_score"] for split in data["scores"].values() for entry in split]
            out.setdefault(name, {})[task] = float(np.mean(values))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def results_folder(tmp_path_factory) -> Path:
    from conftest import FIXTURE_SOURCES, shared_sources_dir

    from mteb_evalrank.cli import main

    folder = tmp_path_factory.mktemp("leaderboard") / "results_folder"
    real = shared_sources_dir()
    with pytest.MonkeyPatch.context() as mp:
        for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_STR"):
            mp.delenv(var, raising=False)
        mp.setenv("MTEB_EVALRANK_SOURCES", str(real if (real / "sts_senteval").is_dir() else FIXTURE_SOURCES))
        mp.setenv("MTEB_EVALRANK_CACHE", str(tmp_path_factory.mktemp("cache")))
        mp.setenv("HF_HUB_OFFLINE", "1")
        assert main(["run", "-m", GLOVE, "-t", *PLUGIN_TASKS, "--no-progress", "--output-folder", str(folder)]) == 0
    write_results(folder, models=MODELS[:2], tasks=PLUGIN_TASKS)
    _write_default_benchmark_result(folder)
    return folder


@pytest.fixture(scope="module")
def leaderboard_url(results_folder, chromium):  # noqa: F811
    _needs_gradio()
    from mteb_evalrank.cli import main

    assert main(["leaderboard", str(results_folder), "--prepare-only"]) == 0
    mteb_cli = Path(sys.executable).with_name("mteb")
    port = _free_port()
    log = results_folder.parent / "server.log"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(mteb_cli), "leaderboard", "--cache-path", str(results_folder), "--host", "127.0.0.1", "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if server.poll() is not None:
                pytest.fail(f"mteb leaderboard exited with {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"mteb leaderboard did not answer within {STARTUP_SECONDS}s:\n{log.read_text()[-3000:]}")
            time.sleep(2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def _tables(page) -> list[list[list[str]]]:
    """Every table of the page as rows of cell texts (Gradio appends a ⋮ menu to header cells)."""
    return page.eval_on_selector_all(
        "table",
        "ts => ts.map(t => Array.from(t.querySelectorAll('tr')).map("
        "r => Array.from(r.cells).map(c => c.textContent.replace('⋮', '').trim())))",
    )


def _table_with(page, header: str, n_rows: int) -> dict[str, dict[str, str]]:
    """The table whose header holds ``header`` and that has ``n_rows`` body rows, as {model: {column: text}}."""
    deadline = time.monotonic() + 60
    while True:
        for rows in _tables(page):
            if rows and header in rows[0] and len(rows) - 1 == n_rows:
                head = rows[0]
                return {r[head.index("Model")]: dict(zip(head, r, strict=True)) for r in rows[1:]}
        if time.monotonic() > deadline:
            raise AssertionError(f"no table with column {header!r} and {n_rows} rows; tables: {_tables(page)}")
        page.wait_for_timeout(500)


@pytest.mark.slow
def test_mteb_leaderboard_shows_the_evalrank_benchmark(leaderboard_url, results_folder, chromium):  # noqa: F811
    from playwright.sync_api import sync_playwright

    expected = {name.split("/")[-1]: scores for name, scores in _files_scores(results_folder).items()}
    assert len(expected) == 3  # the plugin's GloVe run and the two registry models
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(leaderboard_url, timeout=120_000)
            button = page.get_by_role("button", name="EvalRank suite")
            button.wait_for(timeout=120_000)
            assert page.get_by_text("EvalRank (mteb-evalrank)").count() >= 1  # the plugin's menu entry
            button.click()
            page.get_by_text("Number of tasks").first.wait_for(timeout=60_000)

            summary = _table_with(page, "Mean (Task)", len(expected))
            page.get_by_role("tab", name="Performance per task", exact=True).click()
            per_task = _table_with(page, "EvalRankSent", len(expected))
        finally:
            browser.close()

    assert set(per_task) == set(expected)
    for model, scores in expected.items():
        for task, score in scores.items():
            assert per_task[model][task] == f"{100 * score:.2f}", (model, task)
        # MTEB's summary column: the mean of the task scores, x 100, two decimals
        assert float(summary[model]["Mean (Task)"]) == pytest.approx(100 * np.mean(list(scores.values())), abs=0.006)
    ranks = sorted(int(row["Rank (Borda)"]) for row in summary.values())  # Borda ranks may tie
    assert ranks[0] == 1 and ranks[-1] <= len(expected)


def test_plugin_launcher_builds_the_app_offline_on_a_plugin_only_folder(tmp_path, monkeypatch):
    """``mteb-evalrank leaderboard``'s app: no Hub, no GitHub, no result of MTEB's default benchmark needed."""
    _needs_gradio()
    import gradio as gr

    from mteb_evalrank.integration.leaderboard_app import leaderboard_app

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = tmp_path / "plugin_only"
    write_results(folder, models=MODELS[:2], tasks=PLUGIN_TASKS[:2])
    app = leaderboard_app(folder)
    assert isinstance(app, gr.Blocks)
    assert not (folder / "remote").exists()  # the public results repository was not cloned
    assert (folder / "leaderboard" / "benchmark_results.parquet").is_file()


def test_menu_entry_and_bad_folder(tmp_path):
    import importlib

    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.leaderboard_app import MENU_ENTRY_NAME, prepare_leaderboard_cache

    menu = importlib.import_module("mteb.benchmarks._leaderboard_menu")
    entries = [e for e in menu.GP_BENCHMARK_ENTRIES if e.name == MENU_ENTRY_NAME]
    assert len(entries) == 1
    assert [b.name for b in entries[0].benchmarks] == ["EvalRank", "EvalRank(study)", "WordSim"]
    with pytest.raises(InputError, match="not an MTEB results folder"):
        prepare_leaderboard_cache(tmp_path)
