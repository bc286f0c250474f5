"""Layer 2 — model specs → MTEB encoders: MTEB names, SentenceTransformer folders, static word vectors.

May import: ``mteb_evalrank.errors``, :mod:`mteb_evalrank.metrics` and MTEB's model classes.  Never
data, integration, tasks, reports or the CLI.

Public API (imported lazily, so that ``import mteb_evalrank.models.packaged`` during MTEB's import
stays cheap):

- :func:`load_model` / :func:`describe_model` — see :mod:`mteb_evalrank.models.resolve`
- :class:`StaticWordVectorEncoder`, :func:`load_word_vectors`, :class:`WordVectors`,
  :func:`task_input_level` (a task's declared input level, which decides word-level encoding),
  :data:`STOP_WORD_PRESETS` — see :mod:`mteb_evalrank.models.static_vectors`
- :func:`read_text_vectors`, :func:`read_vocabulary` — the word-vector file readers, see
  :mod:`mteb_evalrank.models.word_vector_files`
- :func:`packaged_models`, :data:`PACKAGED_WORD_VECTORS`, :func:`install_packaged_loaders` — see
  :mod:`mteb_evalrank.models.packaged`
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "load_model": "resolve",
    "describe_model": "resolve",
    "hub_offline": "resolve",
    "ACCEPTED_FORMS": "resolve",
    "StaticWordVectorEncoder": "static_vectors",
    "WordVectors": "static_vectors",
    "load_word_vectors": "static_vectors",
    "read_text_vectors": "word_vector_files",
    "read_vocabulary": "word_vector_files",
    "task_input_level": "static_vectors",
    "STOP_WORD_PRESETS": "static_vectors",
    "packaged_models": "packaged",
    "PACKAGED_WORD_VECTORS": "packaged",
    "install_packaged_loaders": "packaged",
    "packaged_model_path": "packaged",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # the lazily loaded names, for type checkers and IDEs
    from mteb_evalrank.models.packaged import (  # noqa: F401
        PACKAGED_WORD_VECTORS,
        install_packaged_loaders,
        packaged_model_path,
        packaged_models,
    )
    from mteb_evalrank.models.resolve import ACCEPTED_FORMS, describe_model, hub_offline, load_model  # noqa: F401
    from mteb_evalrank.models.static_vectors import (  # noqa: F401
        STOP_WORD_PRESETS,
        StaticWordVectorEncoder,
        WordVectors,
        load_word_vectors,
        task_input_level,
    )
    from mteb_evalrank.models.word_vector_files import read_text_vectors, read_vocabulary  # noqa: F401


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


# MTEB before any module that uses it — but not for the pure ones.  Importing mteb runs the plugin's
# registration (the start-up hook), which imports modules of this package (the zoo catalogue, packaged
# loaders); if that happened from inside one of them (``import mteb_evalrank.zoo.variants`` as the first
# import, whose ``from mteb...`` line imports mteb) the registration would meet a half-initialised module
# ("partially initialized module").  So a module of this package that is not in ``_WITHOUT_MTEB`` gets
# ``mteb`` imported just *before* it starts (a finder consulted first, which only imports mteb and
# then lets the normal import go on).  The pure modules below (numpy/torch only) stay importable
# without MTEB: ``import mteb_evalrank.models.pooling`` imports neither mteb nor the task package
# (``tests/test_layers.py`` checks this in a fresh interpreter).
_WITHOUT_MTEB = frozenset(
    {
        "lineage",
        "neutral_corpus",
        "pooling",
        "postprocessing",
        "rankencoder_loss",
        "transformer_forward",
        "word_vector_files",
    }
)


class _AlreadyLoaded(importlib.abc.Loader):
    """Hands back a module that importing mteb has just imported (through the plugin's start-up hook), so
    that the import which asked for it does not execute it a second time into a new module object.

    CPython's import machinery, finding the module already in ``sys.modules`` after the finder ran, loads
    the *module's own* ``__spec__`` again; so the module's ``__spec__`` points here for that one load, and
    :meth:`exec_module` puts the original spec back."""

    def __init__(self, module: Any, original_spec: Any) -> None:
        self.module = module
        self.original_spec = original_spec

    def create_module(self, spec):
        return self.module

    def exec_module(self, module) -> None:
        module.__spec__ = self.original_spec


#: package -> its modules that are imported without MTEB (this package's, and those given to :func:`mteb_first`)
_PACKAGES: dict[str, frozenset[str]] = {__name__: _WITHOUT_MTEB}


def mteb_first(package: str, without_mteb: frozenset[str]) -> None:
    """Import MTEB before any module of ``package`` other than ``without_mteb`` (as for this package, above)."""
    _PACKAGES[package] = without_mteb


def _needs_mteb_first(fullname: str) -> bool:
    for package, pure in _PACKAGES.items():
        prefix, _, rest = fullname.partition(package + ".")
        if not prefix and rest:
            return rest.split(".")[0] not in pure
    return False


class _MtebFirst(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if _needs_mteb_first(fullname) and "mteb" not in sys.modules:
            import mteb  # noqa: F401

            loaded = sys.modules.get(fullname)
            if loaded is not None:  # the start-up hook imported it meanwhile: that module is the module
                spec = importlib.util.spec_from_loader(
                    fullname, _AlreadyLoaded(loaded, loaded.__spec__), origin=getattr(loaded, "__file__", None)
                )
                loaded.__spec__ = spec
                return spec
        return None  # the normal finders import the module itself


if not any(isinstance(f, _MtebFirst) for f in sys.meta_path):
    sys.meta_path.insert(0, _MtebFirst())
