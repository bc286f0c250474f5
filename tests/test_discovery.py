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


@pytest.mark.integration
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


@pytest.mark.integration
def test_interpreter_start_up_stays_light():
    """The .pth hook must not import mteb, numpy or torch at start-up."""
    line = _run("import sys, json; print(json.dumps(sorted(m for m in ('mteb','numpy','torch') if m in sys.modules)))")
    assert json.loads(line) == []


@pytest.mark.integration
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


@pytest.mark.integration
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


SUBSET_TASKS = ("EvalRankWord", "EvalRankSent", "HEROS", "SentEvalSTS12")


@pytest.mark.integration
def test_english_tasks_with_named_subsets_are_not_listed_as_multilingual():
    """Issue 19: ``mteb available-tasks`` showed these as "multilingual n / n Subsets" because their
    ``eval_langs`` was a dict of subsets; since issue 44 they have one English subset and their parts are
    nested in it, so they are monolingual as MTEB reads them."""
    import mteb

    for name in SUBSET_TASKS:
        meta = mteb.get_task(name).metadata
        assert meta.hf_subsets == ["default"], name  # one subset since issue 44: the parts are nested
        assert meta.languages == ["eng"] and not meta.is_multilingual, name
        assert meta._hf_languages() == ["eng"], name
    out = subprocess.run(
        [sys.executable, "-m", "mteb", "available-tasks", "--tasks", *SUBSET_TASKS],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if out.returncode != 0 and "invalid choice" in out.stderr:
        pytest.skip("this mteb version has no available-tasks command")
    assert out.returncode == 0, out.stderr
    listed = [line for line in out.stdout.splitlines() if line.strip().startswith("- ")]
    assert sorted(line.split()[1].rstrip(",") for line in listed) == sorted(SUBSET_TASKS), out.stdout
    assert not [line for line in listed if "multilingual" in line], out.stdout


def test_task_metadata_never_points_into_the_mteb_package():
    import mteb

    from mteb_evalrank.tasks._base import SHIPPED_STATS_DIR  # the plugin's own package data

    for name in ("EvalRankWord", "EvalRankSent"):
        path = mteb.get_task(name).metadata.descriptive_stat_path
        assert path == SHIPPED_STATS_DIR / f"{name}.json"
        assert "site-packages/mteb/" not in str(path)


def _imports_mteb_at_module_level(path) -> bool:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [getattr(node, "module", None) or ""]
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(n == "mteb" or n.startswith("mteb.") for n in names):
            return True
    return False


def _first_imports() -> list[str]:
    """Plugin modules that import mteb while they are being imported (so MTEB's import, and with it the
    plugin's registration, starts while they are half-built), and the zoo module the registration
    imports (it imports mteb through the zoo catalogue)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = {"mteb_evalrank.zoo.adapter"}
    for folder, package in ((root / "mteb_evalrank", "mteb_evalrank"), (root / "tasks", "mteb_evalrank.tasks")):
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("").parts
            if rel[0] in ("tasks", "hub_datasets") and package == "mteb_evalrank":
                continue
            if _imports_mteb_at_module_level(path):
                found.add(".".join((package, *rel)).removesuffix(".__init__"))
    return sorted(found)


@pytest.mark.integration
@pytest.mark.parametrize("module", _first_imports())
def test_any_plugin_module_imported_first_registers_everything_without_a_warning(module):
    """Issue 19: ``python -c "from mteb_evalrank.zoo import adapter as zoo"`` (or ``mteb-evalrank models``)
    warned "the model zoo could not be registered: cannot import name 'register_zoo' from partially
    initialized module": importing the zoo imported mteb, whose start-up hook registered the plugin,
    which imported the half-built zoo module.  Whatever is imported first, everything registers."""
    line = _run(
        f"""
        import json, warnings
        warnings.simplefilter("error", RuntimeWarning)  # a registration warning fails the import
        import {module}
        import mteb
        zoo = mteb.get_model_meta("zoo/glove-50d__abtt").name
        task = mteb.get_task("EvalRankSent").metadata.name
        bench = mteb.get_benchmark("EvalRank").name
        print(json.dumps([zoo, task, bench]))
        """,
        env_extra={"PYTHONWARNINGS": "error::RuntimeWarning"},
    )
    assert json.loads(line) == ["zoo/glove-50d__abtt", "EvalRankSent", "EvalRank"]


# --- PEP 829 start file -----------------------------------------------------------------------------
def _installed(name: str):
    """``name`` at the top of this environment's site-packages (where setup.py's build hook puts it)."""
    import sysconfig
    from pathlib import Path

    return Path(sysconfig.get_paths()["purelib"]) / name


def _start_entry_points() -> list[str]:
    """The entry points of the installed ``mteb_evalrank.start`` (PEP 829: one ``pkg.mod:callable`` per line;
    blank lines and ``#`` comments are skipped)."""
    lines = _installed("mteb_evalrank.start").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_start_file_beside_the_pth_names_a_zero_argument_callable():
    import inspect
    import pkgutil
    import re

    assert _installed("mteb_evalrank.pth").read_text(encoding="utf-8").strip() == "import mteb_evalrank._autoload"
    (entry,) = _start_entry_points()
    dotted = r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*"
    assert re.fullmatch(f"{dotted}:{dotted}", entry), entry  # pkg.mod:callable, as PEP 829 (and pkgutil) read it
    function = pkgutil.resolve_name(entry)
    assert callable(function)
    assert all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in inspect.signature(function).parameters.values()
    )  # callable with no argument
    function()
    function()  # idempotent: the .pth line and the start file may both run on some Python


_WITHOUT_SITE = """
import json, sys
from pathlib import Path
purelib = {purelib!r}
assert "site" not in sys.modules and purelib not in sys.path  # python -S: no .pth file was read
sys.path.append(purelib)
# an editable install's own .pth line (setuptools' finder) makes the package importable; it registers nothing
for finder in sorted(Path(purelib).glob("__editable___mteb_evalrank_*_finder.py")):
    __import__(finder.stem).install()
assert "mteb_evalrank._autoload" not in sys.modules
if {call_entry_point!r}:
    import pkgutil
    for entry in {entry_points!r}:
        pkgutil.resolve_name(entry)()  # what Python's site module does with a .start file (PEP 829)
import mteb
try:
    found = mteb.get_task("EvalRankSent").metadata.name
except Exception as exc:
    found = type(exc).__name__
print(json.dumps(found))
"""


@pytest.mark.integration
@pytest.mark.parametrize("call_entry_point", [True, False])
def test_the_start_file_entry_point_alone_registers_the_tasks(call_entry_point):
    """With ``.pth`` processing off (``python -S``, site-packages appended by hand), calling the start file's
    entry point is enough for ``mteb.get_task("EvalRankSent")``; without it the task is unknown."""
    import os

    code = _WITHOUT_SITE.format(
        purelib=str(_installed("")).rstrip("/"), entry_points=_start_entry_points(), call_entry_point=call_entry_point
    )
    env = {k: v for k, v in os.environ.items() if k != "MTEB_EVALRANK_NO_AUTOLOAD"}
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, timeout=180)
    assert out.returncode == 0, out.stderr[-3000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found == ("EvalRankSent" if call_entry_point else "KeyError")


def test_every_package_of_the_source_tree_is_in_the_wheel():
    """pyproject.toml lists the packages one by one (tasks/ and hub_datasets/ are mapped into mteb_evalrank): a
    package left out is missing from every regular (non-editable) install."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = set()
    for package, folder in config["package-dir"].items():
        for init in (root / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(root / folder)
            on_disk.add(".".join([package, *rel.parts]))
    assert on_disk - listed == set()
