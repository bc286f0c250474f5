"""The MTEB internals the plugin touches (mteb_evalrank/mteb_internals.py): all named there, all checked before
anything is patched, and a changed one gives one line and a plugin that registered nothing."""

from __future__ import annotations

import ast
import importlib
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from mteb_evalrank import mteb_internals
from mteb_evalrank.integration import registry
from mteb_evalrank.mteb_internals import INTERNALS, MtebChangedWarning

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "mteb_evalrank", ROOT / "tasks"]
#: generated MTEB source (a patch to MTEB itself, not the plugin's use of MTEB)
NOT_PLUGIN_CODE = {"upstream_export.py", "mteb_internals.py"}


def _private_mteb_names() -> set[str]:
    """Every private name of mteb (``mteb.x._y``) the package's sources use: ``from mteb.x import _y``,
    ``from mteb._x import y`` and dotted names in strings or code."""
    found: set[str] = set()
    dotted = re.compile(r"\bmteb(?:\.[A-Za-z_]\w*)+")
    for folder in SOURCES:
        for path in folder.rglob("*.py"):
            if path.name in NOT_PLUGIN_CODE:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mteb":
                    for alias in node.names:
                        name = f"{node.module}.{alias.name}"
                        if any(part.startswith("_") for part in name.split(".")):
                            found.add(name)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("mteb."):
                    for match in dotted.findall(node.value):
                        if any(p.startswith("_") and not p.startswith("__") for p in match.split(".")):
                            found.add(match)
    return found


def _named(name: str) -> bool:
    """``name`` is an internal of :data:`INTERNALS`, or a module one of them lives in (a string naming a module)."""
    return name in mteb_internals.BY_NAME or any(internal.module == name for internal in INTERNALS)


def test_every_private_mteb_name_is_in_the_one_module():
    used = _private_mteb_names()
    assert used, "the scan found no private MTEB name at all: it is broken"
    missing = sorted(name for name in used if not _named(name))
    assert not missing, f"private MTEB names used but not listed in mteb_evalrank/mteb_internals.py: {missing}"


@pytest.mark.integration
def test_every_patched_internal_is_in_the_one_module():
    for name in (
        "mteb.get_tasks._TASKS_REGISTRY",
        "mteb.get_tasks.TASK_LIST",
        "mteb.get_model",
        "mteb.models.model_implementations.MODEL_REGISTRY",
        "mteb.benchmarks.get_benchmark._build_registry",
        "mteb.benchmarks.get_benchmark._build_aliases_registry",
    ):
        assert name in mteb_internals.BY_NAME, name


def test_the_installed_mteb_has_every_internal_checked_at_registration():
    assert mteb_internals.problems() == []
    assert mteb_internals.check() is None


@pytest.mark.integration
def test_the_leaderboard_internals_match_the_installed_mteb():
    pytest.importorskip("gradio")
    modules = sorted({i.module for i in INTERNALS if i.when != mteb_internals.AT_REGISTRATION})
    for name in modules:
        module = importlib.import_module(name)
        assert mteb_internals.problems(module_name=name, module=module) == [], name


def test_the_line_names_the_change_and_what_to_do():
    line = mteb_internals.incompatibility_line(
        ["mteb.get_tasks._TASKS_REGISTRY is not a dict (found a tuple)"], "registered nothing", installed="2.31.0"
    )
    assert "\n" not in line
    assert "mteb 2.31.0 changed an internal the plugin needs: mteb.get_tasks._TASKS_REGISTRY" in line
    assert "install 'mteb>=2.26,<2.31'" in line
    assert mteb_internals.TESTED_MTEB in line
    # on the tested minor itself (a patched-in change) the advice is the tested release
    assert "install 'mteb==" in mteb_internals.advice("2.26.24")


class _FakeMetadata:
    name = "MtebInternalsProbeTask"


class _FakeTask:
    metadata = _FakeMetadata()


@pytest.fixture
def fresh(monkeypatch):
    """MTEB's registries as a process that has not registered the plugin yet sees them (copies, restored after
    the test), with plain functions where the plugin wraps MTEB's, and the registration's own state reset."""
    import mteb

    get_tasks_module = importlib.import_module("mteb.get_tasks")
    bench_module = importlib.import_module("mteb.benchmarks.get_benchmark")
    models = mteb_internals.model_registry()

    def get_model(model_name, revision=None, device=None, **kwargs):
        raise AssertionError("not called")

    def build_registry():
        return {}

    def build_aliases_registry():
        return {}

    monkeypatch.setattr(get_tasks_module, "_TASKS_REGISTRY", dict(get_tasks_module._TASKS_REGISTRY))
    monkeypatch.setattr(get_tasks_module, "TASK_LIST", tuple(get_tasks_module.TASK_LIST))
    monkeypatch.setattr(mteb, "get_model", get_model)
    monkeypatch.setattr(bench_module, "_build_registry", build_registry)
    monkeypatch.setattr(bench_module, "_build_aliases_registry", build_aliases_registry)
    monkeypatch.setattr(registry, "_registered", False)
    monkeypatch.setattr(registry, "_warned", False)
    monkeypatch.setattr(registry, "_TASKS", [])
    monkeypatch.setattr(mteb_internals, "last_problem", None)
    for name in list(models):  # the model registry: restored entry by entry
        monkeypatch.setitem(models, name, models[name])
    return mteb, get_tasks_module, bench_module, models


def _state(mteb, get_tasks_module, bench_module, models):
    return (
        dict(get_tasks_module._TASKS_REGISTRY),
        get_tasks_module.TASK_LIST,
        mteb.get_model,
        bench_module._build_registry,
        getattr(bench_module, "_build_aliases_registry", None),
        {name: meta.loader for name, meta in models.items()},
    )


def _break_task_registry(monkeypatch, mteb, get_tasks_module, bench_module):
    monkeypatch.setattr(get_tasks_module, "_TASKS_REGISTRY", tuple(get_tasks_module._TASKS_REGISTRY.items()))
    return "mteb.get_tasks._TASKS_REGISTRY is not a dict of task name -> task class (found a tuple)"


def _break_task_list(monkeypatch, mteb, get_tasks_module, bench_module):
    monkeypatch.setattr(get_tasks_module, "TASK_LIST", {cls.metadata.name: cls for cls in get_tasks_module.TASK_LIST})
    return "mteb.get_tasks.TASK_LIST is not a tuple or list (found a dict)"


def _break_get_model(monkeypatch, mteb, get_tasks_module, bench_module):
    monkeypatch.setattr(mteb, "get_model", lambda spec: None)
    return "mteb.get_model is not a function of (model_name, revision, device)"


def _drop_aliases(monkeypatch, mteb, get_tasks_module, bench_module):
    monkeypatch.delattr(bench_module, "_build_aliases_registry")
    return "mteb.benchmarks.get_benchmark._build_aliases_registry is missing"


def _drop_private_helper(monkeypatch, mteb, get_tasks_module, bench_module):
    monkeypatch.delattr(importlib.import_module("mteb._content_hashes"), "hash_item")
    return "mteb._content_hashes.hash_item is missing"


@pytest.mark.parametrize(
    "change", [_break_task_registry, _break_task_list, _break_get_model, _drop_aliases, _drop_private_helper]
)
def test_a_changed_internal_registers_nothing_and_says_so_in_one_line(fresh, monkeypatch, change):
    mteb, get_tasks_module, bench_module, models = fresh
    expected = change(monkeypatch, mteb, get_tasks_module, bench_module)
    before = _state(mteb, get_tasks_module, bench_module, models)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert registry.register([_FakeTask]) is False
        assert registry.register([_FakeTask]) is False  # called again: still nothing, and no second line
    assert _state(mteb, get_tasks_module, bench_module, models) == before
    ours = [w for w in caught if issubclass(w.category, MtebChangedWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    line = str(ours[0].message)
    assert "\n" not in line
    assert expected in line, line
    assert "registered nothing" in line and "install 'mteb" in line
    # shown as exactly one line, with no source line under it
    shown = warnings.formatwarning(ours[0].message, ours[0].category, ours[0].filename, ours[0].lineno)
    assert shown.strip().count("\n") == 0, shown
    # the plugin's own task lookup repeats the line
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    with pytest.raises(InputError, match="registered nothing"):
        get_tasks_or_explain(["MtebInternalsProbeTask"])


def test_with_every_internal_in_place_the_same_call_registers(fresh, monkeypatch):
    mteb, get_tasks_module, bench_module, models = fresh
    monkeypatch.setattr(registry, "_registered", True)  # the process-wide hooks are in place already
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert registry.register([_FakeTask]) is True
    assert not [w for w in caught if issubclass(w.category, MtebChangedWarning)]
    assert get_tasks_module._TASKS_REGISTRY["MtebInternalsProbeTask"] is _FakeTask
    assert get_tasks_module.TASK_LIST[-1] is _FakeTask


@pytest.mark.integration
def test_a_changed_leaderboard_internal_leaves_that_module_alone(monkeypatch):
    import types

    from mteb_evalrank.integration import leaderboard_app

    menu = types.ModuleType(leaderboard_app.MENU_MODULE)
    menu.GP_BENCHMARK_ENTRIES = ()  # a tuple: the plugin could not append its entry
    menu.HOME_BENCHMARK_ENTRIES = []
    menu.R_BENCHMARK_ENTRIES = []
    menu.MenuEntry = type("MenuEntry", (), {})
    line = mteb_internals.check_module(leaderboard_app.MENU_MODULE, menu)
    assert line is not None and "\n" not in line
    assert "mteb.benchmarks._leaderboard_menu.GP_BENCHMARK_ENTRIES is not a list (found a tuple)" in line
    assert f"left {leaderboard_app.MENU_MODULE} unchanged" in line


@pytest.mark.integration
def test_a_fresh_interpreter_on_a_changed_mteb_prints_one_line_and_registers_nothing(tmp_path):
    """End to end: MTEB imported with the hook off, one internal removed, then the plugin's task package imported
    (what the start-up hook does): stderr is the one line, and no plugin task is in MTEB."""
    code = (
        "import importlib, mteb\n"
        "del importlib.import_module('mteb.benchmarks.get_benchmark')._build_aliases_registry\n"
        "import mteb_evalrank.tasks\n"
        "registry = importlib.import_module('mteb.get_tasks')._TASKS_REGISTRY\n"
        "print('EvalRankSent' in registry, mteb.get_model.__module__)\n"
        "from mteb_evalrank.cli import main\n"
        "print(main(['run', '-m', 'glove-6b-50d', '-t', 'EvalRankSent', '--output-folder', 'out']))\n"
    )
    env = {**os.environ, "MTEB_EVALRANK_NO_AUTOLOAD": "1", "PYTHONWARNINGS": "default"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "mteb.models.get_model_meta", "2"], done.stdout
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    # at import: the one line; then the plugin's `run` stops with it (exit status 2), before any model loads
    assert len(lines) == 2, done.stderr
    assert lines[0].startswith("mteb-evalrank:0: MtebChangedWarning: mteb "), lines[0]
    assert "_build_aliases_registry is missing" in lines[0] and "registered nothing" in lines[0]
    assert lines[1].startswith("mteb-evalrank: error: unknown task or benchmark 'EvalRankSent': mteb "), lines[1]
    assert not (tmp_path / "out").exists()


def test_the_requirement_admits_later_2x_releases_everywhere():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    mteb_reqs = [r for r in project["dependencies"] if re.match(r"mteb\b", r)]
    mteb_reqs += [r for r in project["optional-dependencies"]["leaderboard"] if re.match(r"mteb\b", r)]
    assert len(mteb_reqs) == 2, mteb_reqs
    for req in mteb_reqs:
        assert req.endswith(mteb_internals.MTEB_REQUIREMENT), req
    assert mteb_internals.MTEB_REQUIREMENT == ">=2.26,<3"


def test_ci_runs_the_unit_tier_on_the_newest_dependencies_without_the_pinned_extras():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    core = " ".join(extras["test-core"])
    assert "leaderboard" not in core and "gradio" not in core  # Gradio's pins would hold pandas and hf-hub back
    assert "mteb-evalrank[test-core,leaderboard]" in extras["test"]  # the full test extra is test-core + the app
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert '"--upgrade", "--upgrade-strategy", "eager", "-e", ".[test-core]"' in noxfile
    assert '"pytest", "-q", "-m", "unit"' in noxfile
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
    # the environment is built in the background while the other steps run (--install-only), then reused (-R)
    assert any(re.match(r"^(timeout \d+ )?nox -s newest --install-only\b", line) for line in ci), "no nox install"
    assert any(re.match(r"^(timeout \d+ )?nox -R -s newest$", line) for line in ci), "CI does not run nox -s newest"
