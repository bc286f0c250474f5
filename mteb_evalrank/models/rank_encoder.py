"""RankEncoder as an MTEB encoder around any base encoder (RankEncoder §3, Eq. 2-3, 7).

``RankEncoder(base, corpus=sentences, weight=λ)`` is scored by every cosine-based MTEB task (STS,
classification, this plugin's EvalRank) exactly by Eq. 7, without special cases:

**What ``encode`` returns, and why.** For each input ``x`` it returns the concatenation
``[√λ · u(x), √(1 − λ) · E(x)/‖E(x)‖]`` of the unit-norm rank vector ``u(x)`` over the corpus (length
m) and the unit-norm base embedding (length d).  Each row has unit norm, so the cosine of two outputs
is ``λ · u(a)·u(b) + (1 − λ) · cos(E(a), E(b))`` — Eq. 7.  The alternative, returning ``E(x)`` and
overriding ``similarity``/``similarity_pairwise``, would only reach tasks that call those methods
(MTEB's STS does; EvalRank, N2O and classification use the vectors themselves), and it would need the
texts again inside ``similarity``.  The cost of the chosen route is output width m + d (a 10k corpus
gives 10,384 floats per input); :func:`mteb_evalrank.metrics.rank_vectors.rank_similarity_pairs`
scores pairs without it.

**λ.** The paper uses λ = 0.1 on the rank similarity (Eq. 7, §3.6; setting in §4.3); its released scripts put 0.9 on the
cosine (λ = 0.1 there too) — both mean ``weight=0.1`` here: ``weight`` is the rank-vector weight λ.

**Inputs that are also corpus sentences.** They are *not* excluded: every rank vector must be over
the same corpus for ``u(a)·u(b)`` to be Spearman's ρ, so dropping a sentence for one input only is
impossible.  An input found in the corpus ranks itself first, which inflates its similarity to inputs
near it; by default this raises :class:`InputError` naming how many inputs are in the corpus
(``on_overlap="keep"`` accepts it, e.g. for a corpus built from the evaluation data on purpose).

The corpus is encoded once with the base model (``corpus_encoder`` may supply a cached encoding, e.g.
the plugin's embedding cache) and fingerprinted; the ModelMeta's name and revision carry the base
model, the corpus fingerprint and λ.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder

from mteb_evalrank.errors import InputError
from mteb_evalrank.hashing import corpus_fingerprint
from mteb_evalrank.metrics.rank_vectors import check_weight, rank_encoder_embeddings

if TYPE_CHECKING:
    from mteb.models.model_meta import ModelMeta


def _texts_of(inputs: Any) -> list[str]:
    if isinstance(inputs, (list, tuple)):
        return [str(t) for t in inputs]
    out: list[str] = []
    for batch in inputs:
        out.extend(batch["text"])
    return out


def _to_numpy(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):
        x = x.detach().float().cpu().numpy()
    return np.asarray(x, dtype=np.float32)


class RankEncoder(AbsEncoder):
    """Rank-vector similarity over ``corpus`` around ``base`` (any MTEB encoder); see the module docstring.

    Args:
        base: an MTEB encoder (``mteb.get_model(...)``, a zoo variant, word vectors, …).
        corpus: the corpus sentences (at least 2, unique; duplicates are dropped).
        weight: λ of Eq. 7, in [0, 1] (paper: 0.1).
        corpus_encoder: ``texts -> (m, d) array``; default: ``base.encode`` on the corpus.
        on_overlap: ``"error"`` (default) or ``"keep"`` when inputs are corpus sentences.
        chunk_size: inputs ranked at a time (memory O(chunk_size × m)).

    Similarity is MTEB's :class:`~mteb.models.AbsEncoder` one: cosine, from the ModelMeta (= Eq. 7).
    """

    mteb_model_meta: ModelMeta  # set in __init__ (AbsEncoder declares it Optional)

    def __init__(
        self,
        base: Any,
        corpus: Sequence[str],
        *,
        weight: float = 0.1,
        corpus_encoder: Callable[[list[str]], np.ndarray] | None = None,
        on_overlap: str = "error",
        chunk_size: int = 1024,
    ) -> None:
        if not hasattr(base, "encode"):
            raise InputError(f"RankEncoder needs a base encoder with an encode method, got {type(base).__name__}.")
        texts = list(dict.fromkeys(str(t) for t in corpus if str(t).strip()))
        if len(texts) < 2:
            raise InputError(f"a RankEncoder corpus needs at least 2 distinct sentences, got {len(texts)}.")
        if on_overlap not in ("error", "keep"):
            raise InputError(f"on_overlap must be 'error' or 'keep', got {on_overlap!r}.")
        self.base = base
        self.corpus = texts
        self.weight = check_weight(weight)
        self.on_overlap = on_overlap
        self.chunk_size = int(chunk_size)
        self._corpus_encoder = corpus_encoder
        self._corpus_emb: np.ndarray | None = None
        self._corpus_set = set(texts)
        self.fingerprint = corpus_fingerprint(texts, length=12)
        self.mteb_model_meta = self._meta()

    # -- metadata ------------------------------------------------------------------------------------
    def _meta(self) -> ModelMeta:
        from mteb.models import ModelMeta
        from mteb.models.model_meta import ScoringFunction

        base_meta = getattr(self.base, "mteb_model_meta", None)
        base_name = getattr(base_meta, "name", None) or type(self.base).__name__
        base_rev = getattr(base_meta, "revision", None) or "unknown"
        lam = f"{self.weight:g}"
        revision = hashlib.sha256(f"{base_name}|{base_rev}|{self.fingerprint}|{lam}".encode()).hexdigest()[:12]
        dim = getattr(base_meta, "embed_dim", None)
        return ModelMeta(
            loader=None,
            name=f"rankencoder/{base_name.replace('/', '__')}__c{self.fingerprint}__w{lam}",
            revision=revision,
            release_date=None,
            languages=getattr(base_meta, "languages", None),
            n_parameters=getattr(base_meta, "n_parameters", None),
            n_embedding_parameters=None,
            memory_usage_mb=None,
            max_tokens=getattr(base_meta, "max_tokens", None),
            embed_dim=(len(self.corpus) + int(dim)) if isinstance(dim, int) else None,
            license=getattr(base_meta, "license", None),
            open_weights=getattr(base_meta, "open_weights", None),
            public_training_code=None,
            public_training_data=f"rank corpus of {len(self.corpus)} sentences ({self.fingerprint})",
            framework=list(getattr(base_meta, "framework", None) or ["NumPy"]),
            reference="https://arxiv.org/abs/2209.04333",
            similarity_fn_name=ScoringFunction.COSINE,
            use_instructions=False,
            training_datasets=None,
        )

    # -- encoding ------------------------------------------------------------------------------------
    def _encode_base(self, texts: list[str], **kwargs: Any) -> np.ndarray:
        from mteb._create_dataloaders import _create_dataloader_from_texts

        kwargs = dict(kwargs)
        batch_size = int(kwargs.pop("batch_size", None) or 32)
        loader = _create_dataloader_from_texts(texts, batch_size=batch_size)
        kwargs.setdefault("task_metadata", None)
        kwargs.setdefault("hf_split", "test")
        kwargs.setdefault("hf_subset", "default")
        emb = _to_numpy(self.base.encode(loader, batch_size=batch_size, **kwargs))
        self._check(emb, len(texts), "base model")
        return emb

    def _check(self, emb: np.ndarray, n: int, what: str) -> None:
        name = getattr(getattr(self.base, "mteb_model_meta", None), "name", type(self.base).__name__)
        if emb.ndim != 2 or emb.shape[0] != n:
            raise InputError(f"RankEncoder: {what} {name} returned shape {emb.shape} for {n} texts.")
        bad = ~np.isfinite(emb).all(axis=1)
        if bad.any():
            raise InputError(
                f"RankEncoder: {what} {name} returned NaN or inf for {int(bad.sum())} of {n} texts "
                f"(first: row {int(np.flatnonzero(bad)[0])})."
            )

    def corpus_embeddings(self, **kwargs: Any) -> np.ndarray:
        """The base model's corpus embeddings (encoded once)."""
        if self._corpus_emb is None:
            if self._corpus_encoder is not None:
                emb = _to_numpy(self._corpus_encoder(self.corpus))
            else:
                emb = self._encode_base(self.corpus, **kwargs)
            self._check(emb, len(self.corpus), "base model (corpus)")
            self._corpus_emb = emb
        return self._corpus_emb

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
        """``[√λ · u(x), √(1 − λ) · Ê(x)]`` per input (see the module docstring)."""
        texts = _texts_of(inputs)
        overlap = sum(1 for t in texts if t in self._corpus_set)
        if overlap and self.on_overlap == "error":
            raise InputError(
                f"RankEncoder: {overlap} of {len(texts)} inputs are also corpus sentences; they cannot be excluded "
                "(every rank vector must rank the same corpus) and would rank themselves first. Use a corpus "
                "without the evaluation sentences, or on_overlap='keep' to accept this."
            )
        base_kwargs = {k: v for k, v in kwargs.items() if k in ("batch_size", "show_progress_bar")}
        base_kwargs.update(task_metadata=task_metadata, hf_split=hf_split or "test", hf_subset=hf_subset or "default")
        corpus = self.corpus_embeddings(**base_kwargs)
        emb = self._encode_base(texts, **base_kwargs)
        return rank_encoder_embeddings(emb, corpus, self.weight, chunk_size=self.chunk_size)

    def __repr__(self) -> str:
        return f"RankEncoder({self.mteb_model_meta.name!r}, corpus={len(self.corpus)}, weight={self.weight})"
