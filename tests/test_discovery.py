"""Discovery: the plugin's tasks are visible to MTEB in a fresh interpreter that imports only mteb."""

import json
import subprocess
import sys
import textwrap

import pytest


def _run(code: str, env_extra: dict | None = None) -> str:
    import os

    env = {**os.environ, **(env_extra or {})}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=180
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_get_tasks_by_name_and_filter_in_fresh_interpreter_importing_only_mteb():
    line = _run(
        """
        import json, sys
        import mteb
        by_name = [t.metadata.name for t in mteb.get_tasks(tasks=["EvalRankWord", "EvalRankSent"])]
        single = mteb.get_task("EvalRankSent").metadata.name
        filtered = sorted(t.metadata.name for t in mteb.get_tasks(task_types=["Retrieval"], languages=["eng"])
                          if t.metadata.name.startswith("EvalRank"))
        print(json.dumps({"by_name": by_name, "single": single, "filtered": filtered,
                          "plugin_imported_explicitly": False}))
        """
    )
    got = json.loads(line)
    assert got["by_name"] == ["EvalRankWord", "EvalRankSent"]
    assert got["single"] == "EvalRankSent"
    assert got["filtered"] == ["EvalRankSent", "EvalRankWord"]


def test_interpreter_start_up_stays_light():
    """The .pth hook must not import mteb, numpy or torch at start-up."""
    line = _run("import sys, json; print(json.dumps(sorted(m for m in ('mteb','numpy','torch') if m in sys.modules)))")
    assert json.loads(line) == []


def test_importing_the_plugin_before_mteb_is_enough_and_autoload_can_be_disabled():
    line = _run(
        """
        import mteb_evalrank, mteb
        print(mteb.get_task("EvalRankWord").metadata.name)
        """,
        {"MTEB_EVALRANK_NO_AUTOLOAD": ""},
    )
    assert line == "EvalRankWord"
    line = _run(
        """
        import mteb, importlib
        print("EvalRankWord" in importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY)
        """,
        {"MTEB_EVALRANK_NO_AUTOLOAD": "1"},
    )
    assert line == "False"


def test_mteb_cli_lists_plugin_task():
    out = subprocess.run(
        [sys.executable, "-m", "mteb", "available-tasks", "--tasks", "EvalRankSent"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if out.returncode != 0 and "invalid choice" in out.stderr:
        pytest.skip("this mteb version has no available-tasks command")
    assert out.returncode == 0, out.stderr
    assert "EvalRankSent" in out.stdout


def test_task_metadata_never_points_into_the_mteb_package():
    import mteb

    from mteb_evalrank.tasks._base import SHIPPED_STATS_DIR  # the plugin's own package data

    for name in ("EvalRankWord", "EvalRankSent"):
        path = mteb.get_task(name).metadata.descriptive_stat_path
        assert path == SHIPPED_STATS_DIR / f"{name}.json"
        assert "site-packages/mteb/" not in str(path)
