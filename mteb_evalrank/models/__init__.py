"""Layer 2 — model specs → MTEB encoders: MTEB names, SentenceTransformer folders, static word vectors.

May import: ``mteb_evalrank.errors``, :mod:`mteb_evalrank.metrics` and MTEB's model classes.  Never
data, integration, tasks, reports or the CLI.

Public API (imported lazily, so that ``import mteb_evalrank.models.packaged`` during MTEB's import
stays cheap):

- :func:`load_model` / :func:`describe_model` — see :mod:`mteb_evalrank.models.resolve`
- :class:`StaticWordVectorEncoder`, :func:`load_word_vectors`, :class:`WordVectors`,
  :data:`WORD_LEVEL_TASKS`, :data:`STOP_WORD_PRESETS` — see :mod:`mteb_evalrank.models.static_vectors`
- :data:`PACKAGED_MODELS`, :data:`PACKAGED_WORD_VECTORS`, :func:`install_packaged_loaders` — see
  :mod:`mteb_evalrank.models.packaged`
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "load_model": "resolve",
    "describe_model": "resolve",
    "hub_offline": "resolve",
    "ACCEPTED_FORMS": "resolve",
    "StaticWordVectorEncoder": "static_vectors",
    "WordVectors": "static_vectors",
    "load_word_vectors": "static_vectors",
    "read_text_vectors": "static_vectors",
    "read_vocabulary": "static_vectors",
    "WORD_LEVEL_TASKS": "static_vectors",
    "STOP_WORD_PRESETS": "static_vectors",
    "PACKAGED_MODELS": "packaged",
    "PACKAGED_WORD_VECTORS": "packaged",
    "install_packaged_loaders": "packaged",
    "packaged_model_path": "packaged",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from mteb_evalrank.models.packaged import (
        PACKAGED_MODELS,
        PACKAGED_WORD_VECTORS,
        install_packaged_loaders,
        packaged_model_path,
    )
    from mteb_evalrank.models.resolve import ACCEPTED_FORMS, describe_model, hub_offline, load_model
    from mteb_evalrank.models.static_vectors import (
        STOP_WORD_PRESETS,
        WORD_LEVEL_TASKS,
        StaticWordVectorEncoder,
        WordVectors,
        load_word_vectors,
        read_text_vectors,
        read_vocabulary,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


# MTEB last (after ``__getattr__`` exists): importing it runs the plugin's registration (the start-up
# hook), which imports modules of this package (the zoo catalogue, packaged loaders).  Done here, before
# any of them starts, none is half-initialised when that happens (``import mteb_evalrank.models.zoo`` as
# the first import used to fail the zoo's registration with "partially initialized module").
import mteb  # noqa: E402, F401
