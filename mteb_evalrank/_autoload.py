"""Register the plugin with MTEB as soon as ``mteb`` is imported — cheaply, at any time.

MTEB 2.x builds its task registry (``mteb.get_tasks.TASK_LIST`` / ``_TASKS_REGISTRY``) and its model
registry at import time from its own modules only; there is no entry point for plugins.  This module
installs a ``sys.meta_path`` finder that wraps the loader of the ``mteb`` package: when ``mteb``'s
``__init__`` has finished executing, it imports ``mteb_evalrank.tasks``, whose ``__init__`` hands the task
classes to :func:`mteb_evalrank.integration.registry.register` (tasks and offline model loaders).  If ``mteb`` is already imported, registration happens immediately.

It is imported by ``mteb_evalrank.pth`` at interpreter start-up (and :func:`install` is the PEP 829 entry point of
``mteb_evalrank.start``, for Pythons that read start files instead of ``.pth`` import lines), so it must stay tiny: standard
library only, nothing imported until ``mteb`` is.  Set ``MTEB_EVALRANK_NO_AUTOLOAD=1`` to disable.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import warnings

_TARGET = "mteb"


def _is_mteb_cli() -> bool:
    """Whether this process is MTEB's own command line (``mteb run ...`` or ``python -m mteb ...``)."""
    argv0 = (getattr(sys, "argv", None) or [""])[0]
    if os.path.basename(argv0) in ("mteb", "mteb.exe") or argv0.replace(os.sep, "/").endswith("mteb/__main__.py"):
        return True
    orig = list(getattr(sys, "orig_argv", None) or [])  # `python -m mteb`: argv[0] is "-m" while mteb is imported
    return "-mmteb" in orig or any(a == "-m" and b == "mteb" for a, b in zip(orig, orig[1:]))


def _plugin_error(exc: BaseException | None) -> BaseException | None:
    """The plugin's own error (``mteb_evalrank.errors.EvalRankError``) that ``exc`` is or was raised from."""
    errors = sys.modules.get("mteb_evalrank.errors")
    seen = set()
    while exc is not None and errors is not None and id(exc) not in seen:
        if isinstance(exc, errors.EvalRankError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _one_line_hook(previous):
    def hook(kind, exc, tb):
        found = _plugin_error(exc)
        if found is None:
            return previous(kind, exc, tb)
        text = "; ".join(part.strip() for part in str(found).splitlines() if part.strip())
        registry = sys.modules.get("mteb_evalrank.integration.registry")
        if text and text == getattr(registry, "zoo_problem", None):
            return  # said once already, when the zoo could not be registered (a bad user catalogue): one line
        sys.stderr.write(f"mteb-evalrank: error: {text}\n")
        sys.stderr.flush()

    hook.mteb_evalrank = True  # type: ignore[attr-defined]
    return hook


def _install_cli_excepthook() -> None:
    """Under MTEB's own CLI, a plugin error that ends the run (an unknown zoo variant, data missing offline, a
    malformed vectors file) is printed as the one line ``mteb-evalrank: error: ...`` the plugin's CLI prints,
    not as a traceback (the exit code stays MTEB's, 1); any other exception keeps Python's traceback."""
    if _is_mteb_cli() and not getattr(sys.excepthook, "mteb_evalrank", False):
        sys.excepthook = _one_line_hook(sys.excepthook)


def _register_now() -> None:
    _install_cli_excepthook()
    tasks = sys.modules.get("mteb_evalrank.tasks")
    if tasks is not None and not hasattr(tasks, "ALL_TASKS"):
        # `mteb` was imported from inside the plugin's task modules (they import mteb.abstasks);
        # mteb_evalrank/tasks/__init__.py registers at its end, once ALL_TASKS exists.
        return
    try:
        import importlib

        # importing the task package registers its classes (mteb_evalrank/tasks/__init__.py); with an MTEB that
        # reads entry points, `import mteb` has imported it already (mteb_evalrank/mteb_entry_points.py) and MTEB
        # registered the tasks: register the rest now (the registry skips the tasks MTEB has)
        package = importlib.import_module("mteb_evalrank.tasks")
        registry = importlib.import_module("mteb_evalrank.integration.registry")
        if not registry.registered():
            registry.register(package.ALL_TASKS)
    except Exception as exc:  # never break `import mteb` because of the plugin
        # one line (no source line under it); a bad user catalogue does not get here: the registry registers the
        # rest without the zoo and says so in one line (quietly under the plugin's CLI, which refuses it itself)
        warnings.warn_explicit(
            f"mteb-evalrank could not register its tasks with MTEB: {exc!r}. "
            "Run `python -c 'import mteb, mteb_evalrank.tasks'` to see the full error.",
            RuntimeWarning,
            filename="mteb-evalrank",
            lineno=0,
            module="mteb_evalrank",
        )


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, wrapped: importlib.abc.Loader) -> None:
        self._wrapped = wrapped

    def create_module(self, spec):
        return self._wrapped.create_module(spec)

    def exec_module(self, module) -> None:
        self._wrapped.exec_module(module)
        _uninstall()
        _register_now()

    def __getattr__(self, name):  # resource readers, get_filename, ...
        return getattr(self._wrapped, name)


class _MtebFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != _TARGET:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                # stay installed until the module is executed: `python -m mteb` calls find_spec
                # once to inspect the package and imports it with a second lookup
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


_FINDER = _MtebFinder()


def _uninstall() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


def install() -> None:
    """Make sure the plugin is registered with MTEB, now or when ``mteb`` gets imported."""
    if os.environ.get("MTEB_EVALRANK_NO_AUTOLOAD"):
        return
    mteb = sys.modules.get(_TARGET)
    if mteb is not None and getattr(mteb, "get_tasks", None) is not None:
        _register_now()  # mteb already fully imported
    elif mteb is None and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    # else: mteb is mid-import (we are being imported from inside it); the finder is already wrapped


install()
