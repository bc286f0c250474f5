"""Every model of a results folder on MTEB's leaderboard app, registered in MTEB's model registry or not.

MTEB 2.26's app lists a model only when its name is in MTEB's model registry
(``mteb.models.model_implementations.MODEL_REGISTRY``): the filter step calls ``mteb.get_model_metas`` and
raises ``KeyError`` for any other name, and the summary table joins the registry.  MTEB models and the
plugin's zoo variants are registered; a user's own checkpoint (a SentenceTransformer folder, a word-vector
file, a Hub model MTEB does not know) is not.  This module gives such a model a :class:`ModelMeta` built from
its result folder's ``model_meta.json`` and adds it to the registry before the app filters — the registry
is the mechanism MTEB itself reads; the app is not changed.

What an unregistered model's meta holds: its name, revision, embedding dimensions and parameter counts when
``model_meta.json`` has them, its modalities and model type; release date, licence, languages, framework,
training data, reference and the like are left empty (``None``), so nothing in the table looks like a
public entry's metadata.

Names.  An unregistered model keeps its own name (``local/glove.6B.50d``) in the Gradio app and in
``mteb.api``, so that a client can look it up (``/v1/models/local%2Fglove.6B.50d/scores``).  That it is not in
MTEB's registry is a field, not part of its name: ``registered: false`` in the models file below, and the
line ``mteb-evalrank leaderboard`` prints; its meta's public fields (licence, release date, reference, ...) are
empty.  When a folder holds results of several revisions of one unregistered model, each revision is its own
row (MTEB would otherwise keep one result per task, from any of the revisions, and mix them in one row): the
newest revision (by its result files' time) keeps the name, every other is ``<name> @ <revision>``.  (A
registered model keeps MTEB's own rule: its registry revision first, see ``BenchmarkResults.join_revisions``.)

The metas of a prepared folder are written next to its leaderboard parquet
(``<folder>/leaderboard/.mteb_evalrank_models.json``), so ``mteb leaderboard --cache-path FOLDER`` registers
exactly the names that file shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteb_evalrank.data.result_files import model_name_from_folder
from mteb_evalrank.errors import InputError

#: what the terminal says of a model that is not in MTEB's model registry (never part of its name)
NOT_IN_REGISTRY = "(not in MTEB registry)"
#: written next to the leaderboard parquet: the metas of the unregistered models it shows
MODELS_FILE = ".mteb_evalrank_models.json"  # a dot file: result readers (report, prepare-submission) skip it
#: what the file says it is (checked when it is read)
MODELS_FILE_KIND = "mteb-evalrank leaderboard models"
#: ``model_meta.json`` fields copied into an unregistered model's meta (when valid)
_INT_FIELDS = ("n_parameters", "n_embedding_parameters")


@dataclass(frozen=True)
class FolderModel:
    """One model revision with results in a folder (``results/<org>__<name>/<revision>/``)."""

    name: str  # as MTEB reads it: model_meta.json's name, else the folder's
    revision: str | None
    folder: Path
    meta: dict[str, Any] | None  # model_meta.json, when present
    registered: bool
    display: str  # the name the leaderboard shows (== name for a registered model)

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.name, self.revision)


def _registry() -> dict[str, Any]:
    from mteb.models.model_implementations import MODEL_REGISTRY

    return MODEL_REGISTRY


def folder_models(folder: str | Path) -> list[FolderModel]:
    """Every model revision with a result file in ``folder/results`` (both of MTEB's layouts), with
    the name the leaderboard shows it under.  Raises :class:`InputError` on a malformed ``model_meta.json`` and
    on two folders holding one model revision (:class:`~mteb_evalrank.data.result_files.ModelOwners`)."""
    from mteb_evalrank.data.result_files import ModelOwners, read_model_meta, revision_folders, walk_result_files

    found: dict[tuple[str, str | None], tuple[Path, dict[str, Any] | None]] = {}
    owners = ModelOwners()  # two folders of one model revision (also NFC/NFD or case twins): refused
    for rev_dir in revision_folders(Path(folder) / "results", exact_root=True):
        meta = read_model_meta(rev_dir, strict=True)
        if meta is not None:
            name, revision = meta["name"], meta["revision"]
        else:  # MTEB names such a model after its folders
            meta, name, revision = None, model_name_from_folder(rev_dir.parent.name), rev_dir.name
        owners.claim(name, revision, rev_dir)
        found.setdefault((name, revision), (rev_dir, meta))
    registry = _registry()  # every zoo variant is in it (registered once, from the plugin's start-up hook)
    revisions: dict[str, list[tuple[str | None, Path]]] = {}
    for (name, revision), (rev_dir, _) in found.items():
        revisions.setdefault(name, []).append((revision, rev_dir))
    several = {n: revs for n, revs in revisions.items() if len(revs) > 1 and n not in registry}
    stamps: dict[Path, float] = {}  # revision folder -> time of its newest result file (only when it decides)
    if several:
        root = Path(folder) / "results"
        for path in walk_result_files(root, exact_root=True):
            rev_dir = root.joinpath(*path.relative_to(root).parts[:2])
            stamps[rev_dir] = max(stamps.get(rev_dir, 0.0), path.stat().st_mtime)
    #: an unregistered name with several revisions -> the revision that keeps the name: its newest results
    newest = {n: max(revs, key=lambda rev: (stamps.get(rev[1], 0.0), str(rev[0])))[0] for n, revs in several.items()}
    out = []
    for (name, revision), (rev_dir, meta) in found.items():
        registered = name in registry
        display = name if name not in newest or newest[name] == revision else f"{name} @ {revision}"
        out.append(FolderModel(name, revision, rev_dir, meta, registered, display))
    return out


def meta_fields(model: FolderModel) -> dict[str, Any]:
    """What an unregistered model's leaderboard meta holds (JSON-able; see the module docstring)."""
    meta = model.meta or {}
    fields: dict[str, Any] = {
        "name": model.display,
        "revision": model.revision,
        "source_name": model.name,
        "registered": model.registered,
    }
    for key in _INT_FIELDS:
        value = meta.get(key)
        fields[key] = value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
    dim = meta.get("embed_dim")
    if isinstance(dim, list) and dim and all(isinstance(d, int) and d > 0 for d in dim):
        fields["embed_dim"] = dim
    else:
        fields["embed_dim"] = dim if isinstance(dim, int) and not isinstance(dim, bool) and dim > 0 else None
    for key, default in (("modalities", ["text"]), ("model_type", ["dense"])):
        value = meta.get(key)
        fields[key] = value if isinstance(value, list) and value and all(isinstance(v, str) for v in value) else default
    return fields


def build_meta(fields: dict[str, Any]):
    """MTEB's :class:`ModelMeta` for :func:`meta_fields`' output (every other field empty)."""
    from mteb.models import ModelMeta

    common = dict(
        loader=None,
        name=fields["name"],
        revision=fields["revision"],
        release_date=None,
        languages=None,
        n_parameters=fields.get("n_parameters"),
        n_embedding_parameters=fields.get("n_embedding_parameters"),
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=fields.get("embed_dim"),
        license=None,
        open_weights=None,
        public_training_code=None,
        public_training_data=None,
        framework=[],
        reference=None,
        similarity_fn_name=None,
        use_instructions=None,
        training_datasets=None,
    )
    try:
        return ModelMeta(
            **common, modalities=fields.get("modalities", ["text"]), model_type=fields.get("model_type", ["dense"])
        )
    except ValueError:  # modalities / model type MTEB does not know: its defaults
        return ModelMeta(**common)


#: MTEB's caches built from the model registry (functools caches); emptied when metas are added
_REGISTRY_CACHES = (
    (
        "mteb.benchmarks._create_table",
        (
            "_static_model_meta",
            "_meta_df_no_zs",
            "_meta_df_with_zs",
            "_training_datasets_cached",
            "_zero_shot_pct_cached",
        ),
    ),
    ("mteb.results.benchmark_results", ("_get_cached_model_metas",)),
)


def forget_registry_views() -> None:
    """Empty MTEB's caches of views of the model registry (:data:`_REGISTRY_CACHES`), so that they are built
    again with the registry as it is now."""
    import importlib
    import sys

    for module_name, names in _REGISTRY_CACHES:
        module = sys.modules.get(module_name) or importlib.import_module(module_name)
        for name in names:
            cache_clear = getattr(getattr(module, name, None), "cache_clear", None)
            if cache_clear is not None:
                cache_clear()


#: the names :func:`register_metas` added to MTEB's registry in this process (what :func:`forget_added_metas`
#: takes out again)
ADDED_NAMES: set[str] = set()


def register_metas(fields_list: Iterable[dict[str, Any]]) -> list[str]:
    """Add a :func:`build_meta` per entry to MTEB's model registry (names already there are left alone);
    the names added."""
    registry = _registry()
    added = []
    for fields in fields_list:
        if fields["name"] not in registry:
            registry[fields["name"]] = build_meta(fields)
            added.append(fields["name"])
    ADDED_NAMES.update(added)
    if added:  # MTEB caches views of the registry for the process lifetime: rebuild them with the new names
        forget_registry_views()
    return added


def forget_added_metas() -> list[str]:
    """Take every meta :func:`register_metas` added out of MTEB's registry again (a local model keeps its own
    name there, so a later reader in the same process would otherwise see it as registered); the names removed."""
    registry = _registry()
    removed = sorted(n for n in ADDED_NAMES if n in registry)
    for name in removed:
        del registry[name]
    ADDED_NAMES.clear()
    if removed:
        forget_registry_views()
    return removed


def write_models_file(path: Path, fields_list: list[dict[str, Any]]) -> None:
    """Write the leaderboard's models file (kind, writer version, one entry per model) atomically."""
    import importlib.metadata

    from mteb_evalrank.data.files import atomic_write_text

    try:
        version = importlib.metadata.version("mteb-evalrank")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        version = "unknown"
    payload = {"kind": MODELS_FILE_KIND, "written_by": f"mteb-evalrank {version}", "models": fields_list}
    atomic_write_text(Path(path), json.dumps(payload, indent=2) + "\n")  # never half a file


def read_models_file(path: Path) -> list[dict[str, Any]]:
    """The metas written by :func:`write_models_file`; :class:`InputError` when the file is not one."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        if payload.get("kind") != MODELS_FILE_KIND or not isinstance(payload.get("models"), list):
            raise ValueError("not a file written by mteb-evalrank leaderboard")
        models = payload["models"]
        for m in models:
            if not isinstance(m, dict) or not isinstance(m.get("name"), str) or "/" not in m["name"]:
                raise ValueError(f"bad entry {m!r}")
    except (OSError, ValueError, AttributeError) as exc:
        raise InputError(
            f"{path}: {exc}; write it again with `mteb-evalrank leaderboard {path.parent.parent} --prepare-only`"
        ) from None
    return models
