"""The zoo's catalogue, read once from ``catalogue.json`` (data, not code).

``catalogue.json`` holds every base and every variant of the zoo, with the recipes they name (``corpora``,
``builds``), the fitting corpora of the post-processings and the packages checked and rejected.  Each base
names its **engine** (a class of :mod:`mteb_evalrank.models.engines`), its checkpoint **family** and
**lineage** (the reasons are in ``lineages.json``), its weights (``package``: what ``mteb-evalrank models``
shows; ``weights``: what the engine reads), its licence, dimension, provenance and its variants.  The
measured speeds of the bases are in the sibling ``speeds.json``.

:mod:`mteb_evalrank.models.zoo` turns the entries into its ``BASES`` / ``VARIANTS`` when it is imported;
the other modules read the raw entries from here.  Standard library only.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

CATALOGUE_FILE = Path(__file__).with_name("catalogue.json")
LINEAGES_FILE = Path(__file__).with_name("lineages.json")
SPEEDS_FILE = Path(__file__).with_name("speeds.json")
#: the keys a base entry may have besides its engine's ``weights`` (checked when the file is read)
BASE_KEYS = frozenset({
    "name", "engine", "kind", "family", "lineage", "selection", "description", "package", "weights", "reference",
    "dim", "n_layers", "exposed_layers", "engine_pooling", "prefix", "license", "n_parameters", "label", "framework",
    "floor", "provenance", "word", "variants", "folder", "slow", "model_kind", "contrast",
})  # fmt: skip
VARIANT_KEYS = frozenset({
    "variant", "expectation", "pooling", "whiten", "stop_words", "static_post", "fit_corpus", "reference", "requires",
    "word_level", "selection",
})  # fmt: skip
SELECTIONS = ("study", "population", "word")


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the zoo catalogue ({exc}).") from None


def check(data: dict[str, Any], *, source: str = "catalogue.json") -> dict[str, Any]:
    """``data`` if it is a well-formed catalogue: unique base names, known keys, a selection, variants that
    name known fitting corpora; raises :class:`InputError` naming the entry otherwise."""
    names: set[str] = set()
    for entry in data.get("bases", []):
        name = entry.get("name")
        if not name or name in names:
            raise InputError(f"{source}: a base without a name or a duplicate name ({name!r}).")
        names.add(name)
        unknown = set(entry) - BASE_KEYS
        missing = {"engine", "kind", "family", "lineage", "selection", "description", "reference", "dim", "variants"} - set(entry)
        if unknown or missing:
            raise InputError(f"{source}: base {name}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}.")
        if entry["selection"] not in SELECTIONS:
            raise InputError(f"{source}: base {name}: selection {entry['selection']!r} is not one of {', '.join(SELECTIONS)}.")
        variants = [v.get("variant") for v in entry["variants"]]
        if len(set(variants)) != len(variants) or not all(variants):
            raise InputError(f"{source}: base {name}: variants without a name or duplicated.")
        for v in entry["variants"]:
            extra = set(v) - VARIANT_KEYS
            if extra:
                raise InputError(f"{source}: variant {name}/{v['variant']}: unknown keys {sorted(extra)}.")
            if v.get("fit_corpus") is not None and v["fit_corpus"] not in data.get("fit_corpora", {}):
                raise InputError(f"{source}: variant {name}/{v['variant']}: unknown fit corpus {v['fit_corpus']!r}.")
    return data


@functools.lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    """The parsed, checked ``catalogue.json`` (read once per process)."""
    return check(_read(CATALOGUE_FILE), source=str(CATALOGUE_FILE))


def base_entries() -> dict[str, dict[str, Any]]:
    """Base name → its entry, in file order."""
    return {b["name"]: b for b in catalogue()["bases"]}


def base_entry(name: str) -> dict[str, Any] | None:
    return base_entries().get(name)


@functools.lru_cache(maxsize=1)
def lineage_reasons() -> dict[str, str]:
    """Lineage → why its families are one lineage (``lineages.json``)."""
    return {name: e["reason"] for name, e in _read(LINEAGES_FILE)["lineages"].items()}


@functools.lru_cache(maxsize=1)
def speeds() -> dict[str, Any]:
    """Base → the speed measured here (``speeds.json``; written by ``benchmarks/zoo_base_speed.py --write``)."""
    return _read(SPEEDS_FILE).get("speeds", {})


def clear_cache() -> None:
    """Forget what was read (after ``speeds.json`` was written, or in tests)."""
    catalogue.cache_clear()
    lineage_reasons.cache_clear()
    speeds.cache_clear()
