"""Model specs → encoders, the same for every entry point: ``run``, ``n2o``, ``senteval``, ``mteb run -m``,
``mteb.get_model`` and :func:`mteb_evalrank.run`.

A spec is one of

- a zoo variant: ``zoo:<base>/<variant>`` or ``zoo/<base>__<variant>`` (``mteb-evalrank models`` lists them);
- a RankEncoder around any other spec: ``rankencoder:BASE?corpus=FILE&weight=0.1``;
- anything :func:`mteb_evalrank.models.load_model` accepts: a word-vector shortcut (``glove-6b-50d``) or
  file, a SentenceTransformer or Hugging Face transformers folder, an MTEB model name, a Hub id.

:func:`check_model_spec` answers "does this spec name a model that can be loaded here?" without loading
any weights, so a command that takes several models checks them all before it encodes anything;
:func:`load_any_model` loads one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError


def is_plugin_spec(spec: Any) -> bool:
    """``zoo:``/``zoo/`` names and ``rankencoder:`` specs (the forms MTEB itself does not know)."""
    from mteb_evalrank.integration.rankencoder_spec import is_rankencoder_spec
    from mteb_evalrank.zoo.adapter import is_zoo_spec

    return is_zoo_spec(spec) or is_rankencoder_spec(spec)


def _no_vector_options(spec: str, stop_words: Any, strip_punctuation: bool) -> None:
    if stop_words is not None or strip_punctuation:
        raise InputError(f"{spec}: stop_words/strip_punctuation apply to word-vector models only")


def check_model_spec(spec: Any, *, revision: str | None = None) -> tuple[str, str | None]:
    """``(name, revision)`` under which results of ``spec`` are filed; raises :class:`InputError` for a
    spec that cannot be loaded (unknown name, missing file, zoo variant not installed, Hub offline, ...).

    No weights are loaded: zoo names are looked up in the catalogue, local files are hashed, MTEB names
    are looked up in MTEB's registry (see :func:`mteb_evalrank.models.describe_model`).
    """
    from mteb_evalrank.integration.rankencoder_spec import is_rankencoder_spec, parse_spec
    from mteb_evalrank.models import describe_model
    from mteb_evalrank.zoo.adapter import is_zoo_spec, resolve_zoo_spec, variant_revision, variant_status

    if is_zoo_spec(spec):
        variant = resolve_zoo_spec(spec.strip())
        status = variant_status(variant)
        if status != "installed":
            raise InputError(f"{spec.strip()}: {status}")
        expected = variant_revision(variant)
        if revision not in (None, expected):
            raise InputError(
                f"{variant.mteb_name}: revision {revision!r} requested, the installed zoo has {expected!r}."
            )
        return variant.mteb_name, expected
    if is_rankencoder_spec(spec):
        base, corpus, _, _ = parse_spec(spec)
        if not Path(corpus).is_file():
            raise InputError(f"{spec!r}: the rank corpus {corpus} is not a file.")
        base_name, base_revision = check_model_spec(base)
        return f"rankencoder({base_name})", base_revision
    return describe_model(spec, revision=revision)


def load_any_model(
    spec: Any,
    *,
    device: str | None = None,
    revision: str | None = None,
    stop_words: Any = None,
    strip_punctuation: bool = False,
):
    """The MTEB encoder for ``spec`` (an object with ``encode`` is returned as it is)."""
    from mteb_evalrank.integration.rankencoder_spec import is_rankencoder_spec, load_rankencoder
    from mteb_evalrank.models import load_model
    from mteb_evalrank.zoo.adapter import is_zoo_spec, load_zoo_variant, resolve_zoo_spec

    if isinstance(spec, (str, os.PathLike)) and is_plugin_spec(os.fspath(spec)):
        spec = os.fspath(spec).strip()
        _no_vector_options(spec, stop_words, strip_punctuation)
        if is_zoo_spec(spec):
            return load_zoo_variant(resolve_zoo_spec(spec).mteb_name, revision, device=device)
        if is_rankencoder_spec(spec):
            return load_rankencoder(spec, device=device)
    return load_model(
        spec, device=device, revision=revision, stop_words=stop_words, strip_punctuation=strip_punctuation
    )
