"""The ``population`` selection of ``mteb-evalrank study --zoo``: every installed sentence-level variant.

``select_variants("population")`` = every installed zoo variant of every family (the catalogue's bases of
selection ``study`` and ``population``), except the slow bases it is given and the word level's additions.
The default ``study`` selection keeps the bases it had before the population was widened:
:func:`population_only` names the bases it leaves out until the study is re-run on the whole population.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np


def population_only(base: str) -> bool:
    """A base the wider population added (its ``selection`` in ``catalogue.json``; not part of the default
    ``study`` selection yet)."""
    from mteb_evalrank.zoo.variants import BASES

    return base in BASES and BASES[base].selection == "population"


def population_variants(exclude_bases: Iterable[str] = (), *, installed_only: bool = True) -> list[str]:
    """Sentence-level variants of all families, minus ``exclude_bases`` (sorted names): the sentence encoders
    and the bag-of-words sentence models of the word models (EvalRank builds its BoW models the same way);
    ``installed_only``: only those whose base is installed here (a report from committed results needs none
    installed)."""
    from mteb_evalrank.zoo.adapter import variant_status
    from mteb_evalrank.zoo.variants import VARIANTS

    excluded = set(exclude_bases)
    return [
        name
        for name in sorted(VARIANTS)
        if VARIANTS[name].base not in excluded and (not installed_only or variant_status(VARIANTS[name]) == "installed")
    ]


_STATIC_ENCODERS: dict[str, Any] = {}


def base_sentence_vectors(base_name: str, texts: list[str]) -> np.ndarray:
    """Sentence vectors of a base's default pooling (``mean``, the engine's own, or GloVe's bag of words),
    straight from its forward (no cache); raises the base's install/build message when it is missing."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.models.pooling import parse_pooling, select_pooling
    from mteb_evalrank.zoo.adapter import _forward, install_status, load_zoo_variant
    from mteb_evalrank.zoo.variants import BASES, VARIANTS, PooledBaseEncoder, base_blocks

    base = BASES[base_name]
    status = install_status(base)
    if status != "installed":
        raise InputError(f"zoo base {base_name}: {status}")
    if base.kind == "static":  # bag of word vectors: the encoder is built once (random-50d draws 20M numbers)
        if base_name not in _STATIC_ENCODERS:
            name = (
                f"{base_name}/mean"
                if f"{base_name}/mean" in VARIANTS
                else next(v for v in VARIANTS if v.startswith(base_name + "/"))
            )
            _STATIC_ENCODERS[base_name] = load_zoo_variant(VARIANTS[name].mteb_name)
        return np.asarray(_STATIC_ENCODERS[base_name].pooled.encode_sentences(list(texts)), dtype=np.float32)
    blocks = base_blocks(base)
    encoder = PooledBaseEncoder(_forward(base, None), base=base, blocks=blocks, meta=None)
    stored = encoder.encode_texts(list(texts), show_progress_bar=False)
    if base.engine_pooling:
        return stored
    return select_pooling(
        stored,
        blocks,
        parse_pooling("mean", n_layers=base.n_layers)
        if f"mean:{base.n_layers}" in blocks
        else parse_pooling("cls", n_layers=base.n_layers),
    )


def structure_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson r over all sentence pairs between the cosines two encoders give the same sentences: ~1 for a
    copy (also quantised, rotated or re-scaled), lower for independently trained models."""

    def cosines(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-30)
        return (x @ x.T)[np.triu_indices(len(x), k=1)]

    sa, sb = cosines(a), cosines(b)
    sa, sb = sa - sa.mean(), sb - sb.mean()
    denom = np.sqrt((sa * sa).sum() * (sb * sb).sum())
    return float((sa * sb).sum() / denom) if denom > 0 else 0.0


def copy_report(vectors: dict[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """:func:`structure_correlation` of every pair of bases from different families (same sentences)."""
    from mteb_evalrank.zoo.variants import BASES

    names = sorted(vectors)
    return {
        (a, b): structure_correlation(vectors[a], vectors[b])
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if BASES[a].family_name != BASES[b].family_name
    }
