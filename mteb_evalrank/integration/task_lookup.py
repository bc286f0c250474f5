"""Look up MTEB tasks by name with a clear error for unknown names."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from mteb_evalrank.errors import InputError


def get_tasks_or_explain(names: Sequence[str]):
    """``mteb.get_tasks(tasks=names)``, but unknown names raise :class:`InputError` with suggestions."""
    import importlib

    import mteb

    registry = importlib.import_module("mteb.get_tasks")._TASKS_REGISTRY
    unknown = [n for n in names if n not in registry]
    if unknown:
        hints = []
        for n in unknown:
            close = difflib.get_close_matches(n, registry.keys(), n=3)
            hints.append(f"{n!r}" + (f" (did you mean {', '.join(close)}?)" if close else ""))
        # the plugin's classes are the registry entries defined in its package (reading them here, not
        # from integration.registry, keeps registry -> benchmarks -> task_lookup free of a cycle)
        ours = ", ".join(name for name, cls in registry.items() if cls.__module__.startswith("mteb_evalrank."))
        raise InputError(f"unknown task {'; '.join(hints)}. Plugin tasks: {ours}.")
    return mteb.get_tasks(tasks=list(names))
