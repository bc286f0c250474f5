"""Engines of spaCy's tok2vec CNNs (also the checkpoints trained here from one) and of the TF-IDF / LSA bases
built here, the bases the study's wider model list added (``selection: "population"``); the forwards and builds
are in :mod:`mteb_evalrank.zoo.builds`.

``weights``: ``requirement`` (the pip requirement the vectors come from), ``requires`` (more requirements),
``build`` (what ``mteb-evalrank fetch-weights`` builds first), and per engine ``component`` and
``checkpoint`` (spaCy) or ``components`` (LSA).  The revision digests all of them with the build's recipe.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo.engines.base import Engine, register_engine


class _Built(Engine):
    """Status and revision from the recipe (shared by these engines)."""

    def status(self, base: Any) -> str:
        from mteb_evalrank.zoo.builds import forward_status

        return forward_status(base.name, base.weights)

    def revision(self, base: Any) -> str:
        from mteb_evalrank.zoo.builds import base_revision

        return base_revision(base.name, base.engine, base.weights)

    def listed_package(self, entry: dict[str, Any]) -> str:
        """The requirement, or for a base built here: ``built: fetch-weights <build> (from <requirement>, seed <k>)``."""
        from mteb_evalrank.zoo.builds import catalogue

        w = entry["weights"]
        if not w.get("build"):
            return w["requirement"]
        return f"built: fetch-weights {w['build']} (from {w['requirement']}, seed {catalogue()['builds'][w['build']]['seed']})"


@register_engine
class SpacyCnnEngine(_Built):
    """A tok2vec CNN of spaCy's ``en_core_web_sm`` (``weights.component``: ``tok2vec``, ``ner`` or ``senter``),
    optionally with the weights of a checkpoint built here (``weights.checkpoint`` steps of ``weights.build``)."""

    name = "spacy-cnn"

    def load(self, base: Any, *, layer_indices: Sequence[int] | None = None, **_: Any) -> Any:
        from mteb_evalrank.zoo.builds import SpacyCNNForward, apply_zoo_threads, build_folder

        apply_zoo_threads()
        checkpoint = None
        if base.weights.get("checkpoint"):
            checkpoint = build_folder(base.weights["build"]) / f"step-{int(base.weights['checkpoint']):05d}.bin"
            if not checkpoint.is_file():
                raise InputError(
                    f"zoo base {base.name}: {checkpoint} is missing; rebuild: "
                    f"mteb-evalrank fetch-weights {base.weights['build']}"
                )
        return SpacyCNNForward(base, layer_indices=layer_indices, checkpoint=checkpoint)


@register_engine
class LsaEngine(_Built):
    """LSA: the TF-IDF of the ``build`` projected on its first ``weights.components`` SVD directions; pools itself."""

    name = "lsa"

    def load(self, base: Any, **_: Any) -> Any:
        import numpy as np

        from mteb_evalrank.zoo.builds import TfidfForward, apply_zoo_threads, build_folder

        apply_zoo_threads()
        folder = build_folder(base.weights["build"])
        components = np.load(folder / "svd_components.npy", mmap_mode="r")
        projection = np.ascontiguousarray(components[: int(base.weights["components"])].T, dtype=np.float32)
        return TfidfForward(base, folder, projection)


@register_engine
class TfidfRandomProjectionEngine(_Built):
    """The TF-IDF of the ``build`` through its sparse random projection (N2O's tf-idf baseline); pools itself."""

    name = "tfidf-rp"

    def load(self, base: Any, **_: Any) -> Any:
        import numpy as np
        import scipy.sparse

        from mteb_evalrank.zoo.builds import TfidfForward, apply_zoo_threads, build_folder

        apply_zoo_threads()
        folder = build_folder(base.weights["build"])
        projection = scipy.sparse.load_npz(folder / "random_projection.npz").T.tocsr().astype(np.float32)
        return TfidfForward(base, folder, projection)
