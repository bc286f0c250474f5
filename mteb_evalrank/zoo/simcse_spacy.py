"""A short contrastive fine-tuning run on CPU: the ``simcse-spacy-sm`` checkpoint family.

Base: the shared tok2vec CNN of spaCy's ``en_core_web_sm`` 3.8.0, trained for tagging and parsing, not
for sentences (no pretrained transformer that is not sentence-tuned is available offline here).
Objective: unsupervised SimCSE (Gao et al. 2021, §3): each text of a batch is encoded twice, the two
views are positives, the other texts of the batch negatives; InfoNCE over cosine similarities with
temperature τ.  SimCSE's only noise is dropout; for this CNN, dropout alone makes the task trivial
(loss ≈ 0.02 from the first step, no learning signal), so each view also deletes 20 % of the words at
random (the "word deletion" augmentation of Wu et al. 2020 / CLEAR), keeping at least one word.
Pooling: the masked mean of the last layer (the zoo's ``mean``).  The gradient of the loss with
respect to the pooled vectors is computed in numpy and passed back through thinc's own backprop.

Recipe (``catalogue.json`` → ``builds.simcse-spacy-sm``; its digest is part of each checkpoint's
revision): corpus = the WordNet 3.0 gloss corpus (:mod:`mteb_evalrank.models.neutral_corpus`,
SHA-256 pinned), batch 64 texts drawn uniformly with ``numpy.random.default_rng(seed)``, τ = 0.05,
thinc ``Adam`` lr 1e-3, dropout 0.1, word deletion 0.2, checkpoints after 25, 100, 300, 800 steps.
Run: ``mteb-evalrank fetch-weights simcse-spacy-sm`` (about 8 minutes on two shared cores);
the checkpoints (``step-00025.bin`` … thinc ``to_bytes`` of the CNN) and ``manifest.json`` (recipe, file
checksums, loss per step, seconds) go to ``$MTEB_EVALRANK_CACHE/models/simcse-spacy-sm``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np


def info_nce_grad(m1: np.ndarray, m2: np.ndarray, tau: float) -> tuple[float, np.ndarray, np.ndarray]:
    """InfoNCE of two views (rows of ``m1`` positive with the same rows of ``m2``) over cosines / ``tau``.

    Returns ``(loss, dL/dm1, dL/dm2)`` (float64): the loss is the mean over rows of
    ``-log softmax(cos(m1_i, m2_·)/τ)_i``, SimCSE's Eq. 1 with in-batch negatives.
    """
    m1 = np.asarray(m1, dtype=np.float64)
    m2 = np.asarray(m2, dtype=np.float64)
    n1 = np.maximum(np.linalg.norm(m1, axis=1, keepdims=True), 1e-12)
    n2 = np.maximum(np.linalg.norm(m2, axis=1, keepdims=True), 1e-12)
    z1, z2 = m1 / n1, m2 / n2
    b = m1.shape[0]
    s = z1 @ z2.T / tau
    s -= s.max(axis=1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=1, keepdims=True)
    loss = float(-np.log(p[np.arange(b), np.arange(b)]).mean())
    g = (p - np.eye(b)) / b / tau
    dz1, dz2 = g @ z2, g.T @ z1
    dm1 = (dz1 - z1 * (dz1 * z1).sum(axis=1, keepdims=True)) / n1
    dm2 = (dz2 - z2 * (dz2 * z2).sum(axis=1, keepdims=True)) / n2
    return loss, dm1, dm2


def _delete_words(text: str, rate: float, rng: np.random.Generator) -> str:
    words = text.split()
    if len(words) < 2:
        return text
    keep = rng.random(len(words)) >= rate
    if not keep.any():
        keep[rng.integers(len(words))] = True
    return " ".join(w for w, k in zip(words, keep) if k)


def train_simcse_spacy(
    build: str, cache: str | os.PathLike | None = None, *, log=print, max_steps: int | None = None
) -> Path:
    """Run the recipe of build ``build`` (the catalogue's ``builds``) and write its checkpoints (idempotent: a finished build with the same recipe is kept).

    ``max_steps`` (tests) stops early and writes only the checkpoints reached, without a manifest.
    """
    from thinc.api import Adam

    from mteb_evalrank.zoo.builds import (
        _checked_corpus,
        _replace_folder,
        _write_manifest,
        build_folder,
        build_manifest,
        build_recipe,
        load_spacy_cnn,
    )

    folder = build_folder(build, cache)
    if max_steps is None and build_manifest(build, cache) is not None:
        return folder
    recipe = build_recipe(build)
    corpus = _checked_corpus(build)
    texts = corpus.texts
    nlp, tok2vec = load_spacy_cnn("tok2vec")
    for node in tok2vec.walk():
        if "dropout_rate" in node.attrs:
            node.attrs["dropout_rate"] = float(recipe["dropout"])
    rng = np.random.default_rng(int(recipe["seed"]))
    optimizer = Adam(float(recipe["learning_rate"]))
    batch, tau, rate = int(recipe["batch_size"]), float(recipe["temperature"]), float(recipe["word_deletion"])
    checkpoints = sorted(int(s) for s in recipe["steps"])
    last = checkpoints[-1] if max_steps is None else min(int(max_steps), checkpoints[-1])
    tmp = folder.with_name(folder.name + ".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    losses: list[float] = []
    start = time.perf_counter()
    for step in range(1, last + 1):
        idx = rng.integers(len(texts), size=batch)
        views = [[nlp.make_doc(_delete_words(texts[i], rate, rng)) for i in idx] for _ in range(2)]
        (y1, back1), (y2, back2) = (tok2vec.begin_update(v) for v in views)
        m1 = np.stack([np.asarray(y).mean(axis=0) for y in y1])
        m2 = np.stack([np.asarray(y).mean(axis=0) for y in y2])
        loss, d1, d2 = info_nce_grad(m1, m2, tau)
        back1([np.repeat((d1[i] / len(y))[None], len(y), axis=0).astype(np.float32) for i, y in enumerate(y1)])
        back2([np.repeat((d2[i] / len(y))[None], len(y), axis=0).astype(np.float32) for i, y in enumerate(y2)])
        tok2vec.finish_update(optimizer)
        losses.append(round(loss, 5))
        if step in checkpoints:
            (tmp / f"step-{step:05d}.bin").write_bytes(tok2vec.to_bytes())
            log(
                f"{build}: step {step}, loss (mean of last 25) {np.mean(losses[-25:]):.4f}, {time.perf_counter() - start:.0f} s"
            )
    seconds = round(time.perf_counter() - start, 1)
    if max_steps is not None and last < checkpoints[-1]:
        return tmp
    _write_manifest(tmp, build, {"seconds": seconds, "loss_per_step": losses, "n_corpus_texts": len(texts)})
    _replace_folder(tmp, folder)
    log(f"{build}: trained in {seconds} s → {folder}")
    return folder


if __name__ == "__main__":  # pragma: no cover - `mteb-evalrank fetch-weights <build>` is the documented command
    import sys

    print(json.dumps(str(train_simcse_spacy(sys.argv[1]))))
