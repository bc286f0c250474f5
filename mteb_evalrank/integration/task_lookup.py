"""Look up MTEB tasks by name with a clear error for unknown names; name the plugin's tasks by kind."""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Sequence
from pathlib import Path

from mteb_evalrank import mteb_internals
from mteb_evalrank.errors import InputError

#: what a task is for (``role``, a class attribute of the plugin's task classes), in the order the suite lists
#: them: EvalRank; HEROS; N2O; the similarity baselines named in advance; other similarity sets; downstream
ROLES = ("intrinsic", "diagnostic", "comparison", "baseline", "similarity", "downstream")


def is_plugin_task(task: object) -> bool:
    """Whether ``task`` (a task name, class or instance) is one of the plugin's: a class defined in the plugin's
    package.  The one place this is decided (a name is looked up in MTEB's task registry; an unknown name is not
    the plugin's)."""

    if isinstance(task, str):
        import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

        task = mteb_internals.task_registry().get(task)
        if task is None:
            return False
    cls = task if isinstance(task, type) else type(task)
    return cls.__module__.startswith("mteb_evalrank.")


def get_tasks_or_explain(names: Sequence[str]):
    """``mteb.get_tasks(tasks=names)``, but unknown names raise :class:`InputError` with suggestions; a name
    given twice counts once (``-t A A`` runs A once)."""

    import mteb

    names = list(dict.fromkeys(names))
    registry = mteb_internals.task_registry()
    unknown = [n for n in names if n not in registry]
    if unknown and mteb_internals.last_problem:  # the plugin registered nothing: say why, in its one line
        raise InputError(f"unknown task {', '.join(map(repr, unknown))}: {mteb_internals.last_problem}")
    if unknown:
        hints = []
        for n in unknown:
            close = difflib.get_close_matches(n, registry.keys(), n=3)
            hints.append(f"{n!r}" + (f" (did you mean {', '.join(close)}?)" if close else ""))
        # the plugin's classes are the registry entries defined in its package (reading them here, not
        # from integration.registry, keeps registry -> benchmarks -> task_lookup free of a cycle)
        ours = ", ".join(name for name, cls in registry.items() if is_plugin_task(cls))
        raise InputError(f"unknown task {'; '.join(hints)}. Plugin tasks: {ours}.")
    return mteb.get_tasks(tasks=list(names))


def plugin_task_names(
    *, input_level: str | None = None, downstream: bool | None = None, role: str | Sequence[str] | None = None
) -> tuple[str, ...]:
    """Names of the plugin's registered tasks, in registration order, that declare ``input_level``
    (``"word"``/``"sentence"``), ``downstream`` and/or ``role`` (one role or several) — class attributes of
    each task class (``mteb_evalrank.tasks._base.EncodeOnceTask``), the one source of the task lists derived
    from them (``integration.study.INTRINSIC_TASKS``, ``DOWNSTREAM_TASKS`` ..., the benchmarks' order and
    groups, the reports' sections).

    Read from MTEB's task registry (importing ``mteb`` registers the plugin; reading it here, not from
    ``integration.registry``, keeps ``registry -> benchmarks -> study`` free of a cycle).  Raises
    ``RuntimeError`` when no plugin task is registered, rather than return a list that would silently
    leave tasks out of a study."""

    import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

    registry = mteb_internals.task_registry()
    ours = [cls for cls in registry.values() if is_plugin_task(cls)]
    if not ours and mteb_internals.last_problem:
        raise RuntimeError(mteb_internals.last_problem)
    if not ours:
        raise RuntimeError(
            "no mteb-evalrank task is registered with MTEB (is MTEB_EVALRANK_NO_AUTOLOAD set?); "
            "import mteb_evalrank.tasks first"
        )
    roles = None if role is None else ({role} if isinstance(role, str) else set(role))
    return tuple(
        cls.metadata.name
        for cls in ours
        if (input_level is None or getattr(cls, "input_level", "sentence") == input_level)
        and (downstream is None or bool(getattr(cls, "downstream", False)) == downstream)
        and (roles is None or getattr(cls, "role", "") in roles)
    )


def main_score_name(task: str) -> str | None:
    """The metric a registered task declares as its main score (``mrr`` for EvalRankSent,
    ``cosine_spearman`` for STS), or ``None`` for a name MTEB does not know: ``X`` and ``X:<that metric>`` name
    one score."""
    import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

    cls = mteb_internals.task_registry().get(task)
    main = getattr(getattr(cls, "metadata", None), "main_score", None)
    return str(main) if main else None


def breakdown_keys() -> dict[str, str]:
    """Task name -> the nested key holding its parts (``scores_per_source``, ``scores_per_edit``), for every
    registered plugin task that has one (its class's ``breakdown_key``): the tasks whose single ``default``
    subset holds a whole and, inside it, its parts (:mod:`mteb_evalrank.data.result_layout`)."""
    import mteb  # noqa: F401  (the start-up hook registers the plugin's tasks)

    registry = mteb_internals.task_registry()
    return {
        cls.metadata.name: cls.breakdown_key
        for cls in registry.values()
        if is_plugin_task(cls) and getattr(cls, "breakdown_key", None)
    }


#: the one data file of task selections that are choices rather than roles (figure panels)
TASK_SELECTIONS_FILE = "task_selections.json"


def task_selection(name: str, key: str = "tasks") -> tuple[str, ...]:
    """The task names of selection ``name`` (its entry ``key``) in :data:`TASK_SELECTIONS_FILE`, in file order:
    the choices no role decides, such as which tasks a figure shows.  An unknown name or key is a ``KeyError``."""
    return _task_selections()[name][key]


@functools.cache
def _task_selections() -> dict[str, dict[str, tuple[str, ...]]]:
    text = (Path(__file__).parent / TASK_SELECTIONS_FILE).read_text(encoding="utf-8")
    return {
        name: {k: tuple(v) for k, v in entry.items() if k != "about"}
        for name, entry in json.loads(text).items()
        if name != "about"
    }
