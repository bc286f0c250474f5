"""The ``population`` selection of ``mteb-evalrank study --zoo``: every installed sentence-level variant.

``select_variants("population")`` = every installed zoo variant of every family (built-in catalogue,
``models/population.json``, and the sentence-level bag-of-words variants of the word-level zoo), except
the slow bases it is given and word-level-only variants.  The default ``study`` selection keeps the
bases it had before the population was widened: :func:`population_only` names the bases it leaves out
until the study is re-run on the whole population.
"""

from __future__ import annotations

from collections.abc import Iterable


def population_only(base: str) -> bool:
    """A base added by ``models/population.json`` (not part of the default ``study`` selection yet)."""
    from mteb_evalrank.models import population

    return population.provides(base)


def _word_only(base: str) -> bool:
    """A base of the word-level zoo (``models/word_models.json``): word vectors scored on word tasks only.
    (GloVe's bag-of-words variants are sentence encoders too and stay in.)"""
    try:
        from mteb_evalrank.models import word_zoo
    except ImportError:  # pragma: no cover - the word-level zoo is optional
        return False
    return bool(word_zoo.is_word_base(base))


def population_variants(exclude_bases: Iterable[str] = ()) -> list[str]:
    """Installed sentence-level variants of all families, minus ``exclude_bases`` (sorted names)."""
    from mteb_evalrank.integration.zoo import register_zoo, variant_status
    from mteb_evalrank.models.zoo import VARIANTS

    register_zoo()  # word-level-only bases (models/word_models.json) are not sentence encoders: not registered here
    excluded = set(exclude_bases)
    return [name for name in sorted(VARIANTS)
            if VARIANTS[name].base not in excluded and not _word_only(VARIANTS[name].base)
            and variant_status(VARIANTS[name]) == "installed"]  # fmt: skip
