"""``mteb-evalrank export-upstream --plugin-entry-points``: a plugin mechanism for MTEB, as a patch to MTEB.

MTEB 2.x has no way for another package to add tasks, benchmarks or models: this plugin gets in through a
start-up hook that patches MTEB's registries (:mod:`mteb_evalrank._autoload`, :mod:`mteb_evalrank.mteb_internals`).
The patch written here proposes the honest fix upstream: MTEB reads the entry-point groups ``mteb.tasks``,
``mteb.benchmarks`` and ``mteb.models`` of every installed distribution.  It adds to the given MTEB tree

- ``mteb/_plugins.py`` (template ``templates/upstream_plugins/_plugins.py.tmpl``): discovery and registration.
  Tasks and models are added at the end of ``import mteb``; benchmarks when MTEB first builds its benchmark
  registry.  MTEB's own names win; a plugin that fails to load gives a ``PluginWarning`` and never breaks
  ``import mteb``; ``MTEB_DISABLE_PLUGINS=1`` turns plugins off;
- two lines at the end of ``mteb/__init__.py``, and two calls in ``mteb/benchmarks/get_benchmark.py``;
- ``tests/test_plugins.py`` (template ``test_plugins.py.tmpl``): MTEB-style tests with a fake distribution;

and writes the pull request's text (template ``PR_DESCRIPTION_PLUGINS.md.tmpl``).  This plugin declares the three
groups in its ``pyproject.toml`` (:mod:`mteb_evalrank.mteb_entry_points`).  As in :mod:`.upstream_export`, the
source tree given is never modified: the touched files are copied into a scratch git repository, edited there,
and its ``git diff`` is the patch.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from mteb_evalrank.atomic_files import scratch_folder
from mteb_evalrank.data.files import atomic_write_text
from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.upstream_export import _git

PATCH_NAME = "mteb-plugin-entry-points.patch"
PR_NAME = "PR_DESCRIPTION_PLUGINS.md"
#: the environment variable that turns plugins off, in the patched MTEB
DISABLE_ENV = "MTEB_DISABLE_PLUGINS"
#: the entry-point groups the patched MTEB reads
GROUPS = ("mteb.tasks", "mteb.benchmarks", "mteb.models")

PLUGINS_MODULE = "mteb/_plugins.py"
PLUGINS_TEST = "tests/test_plugins.py"
INIT_MODULE = "mteb/__init__.py"
BENCHMARK_REGISTRY = "mteb/benchmarks/get_benchmark.py"
TEMPLATES = Path(__file__).parent / "templates" / "upstream_plugins"

#: the MTEB files the patch reads or edits, and the code each must hold
_REQUIRED: dict[str, tuple[str, ...]] = {
    INIT_MODULE: ("from .benchmarks.get_benchmark import get_benchmark, get_benchmarks",),
    "mteb/get_tasks.py": (
        "TASK_LIST = _gather_tasks()",
        "_TASKS_REGISTRY =",
        "_SIMILAR_TASKS =",
        "def _create_similar_tasks(",
    ),
    BENCHMARK_REGISTRY: ("    return benchmark_registry\n", "    return aliases\n", "def _build_aliases_registry("),
    "mteb/models/model_implementations/__init__.py": ("MODEL_REGISTRY",),
}

_INIT_TAIL = """
# last: plugins import mteb's public names (mteb/_plugins.py)
from mteb._plugins import _register_plugins

_register_plugins()
"""

_REGISTRY_RETURN = """    from mteb._plugins import add_plugin_benchmarks

    return add_plugin_benchmarks(benchmark_registry)
"""
_ALIASES_RETURN = """    from mteb._plugins import add_plugin_benchmark_aliases

    return add_plugin_benchmark_aliases(aliases, _build_registry())
"""


def check_mteb_source(path: str | Path) -> Path:
    """``path`` as an MTEB 2.x source tree the patch applies to, or :class:`InputError` naming what is missing."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(f"--mteb-source {path} is not a folder (give an MTEB checkout or unpacked sdist)")
    for rel in _REQUIRED:
        if not (root / rel).is_file():
            raise InputError(f"--mteb-source {path} is not an MTEB 2.x source tree: no {rel}")
    if (root / PLUGINS_MODULE).exists():
        raise InputError(f"--mteb-source {path} already has {PLUGINS_MODULE} (already patched?)")
    for rel, needed in _REQUIRED.items():
        text = (root / rel).read_text(encoding="utf-8")
        missing = [code for code in needed if code not in text]
        if missing:
            raise InputError(
                f"--mteb-source {path}: {rel} has no `{missing[0].strip()}` (an MTEB release this patch does not "
                "know; the patch is written for MTEB 2.26)"
            )
    return root


def _template(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8").replace("{{DISABLE_ENV}}", DISABLE_ENV)


def _edit_benchmark_registry(text: str) -> str:
    """``_build_registry`` and ``_build_aliases_registry`` return MTEB's benchmarks with the plugins' added."""
    registry_fn, _, aliases_fn = text.partition("def _build_aliases_registry(")
    registry_fn = registry_fn.replace("    return benchmark_registry\n", _REGISTRY_RETURN, 1)
    aliases_fn = aliases_fn.replace("    return aliases\n", _ALIASES_RETURN, 1)
    return registry_fn + "def _build_aliases_registry(" + aliases_fn


def patch_files(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """``(edited, new)``: the new text of each MTEB file the patch edits, and each file it adds."""
    edited = {
        INIT_MODULE: (root / INIT_MODULE).read_text(encoding="utf-8").rstrip("\n") + "\n" + _INIT_TAIL,
        BENCHMARK_REGISTRY: _edit_benchmark_registry((root / BENCHMARK_REGISTRY).read_text(encoding="utf-8")),
    }
    new = {PLUGINS_MODULE: _template("_plugins.py.tmpl"), PLUGINS_TEST: _template("test_plugins.py.tmpl")}
    return edited, new


def build_plugin_patch(mteb_source: str | Path) -> str:
    """The ``git diff`` (paths relative to the MTEB tree) that adds entry-point plugins to ``mteb_source``."""
    root = check_mteb_source(mteb_source)
    edited, new = patch_files(root)
    with scratch_folder(prefix="mteb-evalrank-plugins-") as tmp:
        repo = tmp
        for rel in edited:
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, repo / rel)
        _git(repo, "init", "-q")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "MTEB files the patch touches")
        for rel, text in {**edited, **new}.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text, encoding="utf-8")
        _git(repo, "add", "-A")
        return _git(repo, "diff", "--cached", "--no-color", "--no-ext-diff")


def _mteb_version(root: Path) -> str:
    """The version in the tree's ``PKG-INFO`` (an sdist) or ``pyproject.toml``; ``unknown`` otherwise."""
    for name, pattern in (("PKG-INFO", r"^Version:\s*(\S+)"), ("pyproject.toml", r'^version\s*=\s*"([^"]+)"')):
        path = root / name
        if path.is_file():
            found = re.search(pattern, path.read_text(encoding="utf-8"), re.MULTILINE)
            if found:
                return found.group(1)
    return "unknown"


def plugin_pr_description(mteb_source: str | Path, patch: str) -> str:
    """The pull request's text (template ``PR_DESCRIPTION_PLUGINS.md.tmpl``), filled in from the patch."""
    root = Path(mteb_source)
    tests = re.findall(r"^\+def (test_\w+)", patch, re.MULTILINE)
    values = {
        "MTEB_VERSION": _mteb_version(root),
        "GROUPS": ", ".join(f"`{g}`" for g in GROUPS),
        "N_TESTS": str(len(tests)),
        "TESTS": "\n".join(f"- `{name}`" for name in tests),
        "FILES": "\n".join(f"- `{f}`" for f in re.findall(r"^diff --git a/(\S+)", patch, re.MULTILINE)),
    }
    text = _template("PR_DESCRIPTION_PLUGINS.md.tmpl")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    leftover = re.findall(r"\{\{\w+\}\}", text)
    if leftover:
        raise InputError(f"internal: {PR_NAME}'s template still has {sorted(set(leftover))}")
    return text


def export_plugin_entry_points(mteb_source: str | Path, out: str | Path) -> tuple[Path, Path]:
    """Write ``out/mteb-plugin-entry-points.patch`` and ``out/PR_DESCRIPTION_PLUGINS.md``; return both paths."""
    patch = build_plugin_patch(mteb_source)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is an existing file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    patch_path, pr_path = out / PATCH_NAME, out / PR_NAME
    atomic_write_text(patch_path, patch)
    atomic_write_text(pr_path, plugin_pr_description(mteb_source, patch))
    return patch_path, pr_path
