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
        from mteb_evalrank.integration.registry import plugin_tasks

        ours = ", ".join(cls.metadata.name for cls in plugin_tasks())
        raise InputError(f"unknown task {'; '.join(hints)}. Plugin tasks: {ours}.")
    return mteb.get_tasks(tasks=list(names))
