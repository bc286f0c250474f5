"""The lineage of a checkpoint family: each base of ``catalogue.json`` names it, ``lineages.json`` says why.

A *lineage* groups everything that shares weights or training: models fine-tuned, distilled, quantised,
pruned or post-processed from another model or from a common pretrained checkpoint, and models trained
by one method family on one corpus.  The study counts independence in lineages (``docs/statistics.md``).
A family that no base of the catalogue names is its own lineage; a lineage without a reason in
``lineages.json`` says so.
"""

from __future__ import annotations

from functools import lru_cache

UNLISTED_REASON = "no shared weights or training recorded in lineages.json: its own lineage"


@lru_cache(maxsize=1)
def lineage_table() -> dict[str, tuple[str, str]]:
    """family → (lineage, reason) for every family of the catalogue (the reason from ``lineages.json``, else
    :data:`UNLISTED_REASON`)."""
    from mteb_evalrank.zoo.catalogue import catalogue, lineage_reasons

    reasons = lineage_reasons()
    out: dict[str, tuple[str, str]] = {}
    for entry in catalogue()["bases"]:
        family, lineage = entry["family"], entry["lineage"]
        if family in out and out[family][0] != lineage:
            raise ValueError(f"catalogue.json puts family {family!r} in two lineages ({out[family][0]}, {lineage}).")
        out[family] = (lineage, reasons.get(lineage, UNLISTED_REASON))
    return out


@lru_cache(maxsize=1)
def lineage_rule() -> dict[str, str]:
    """The lineage rule, applied to every base (``lineages.json``'s ``rule``: numbered clauses)."""
    from mteb_evalrank.zoo.catalogue import LINEAGES_FILE, _read

    return dict(_read(LINEAGES_FILE).get("rule", {}))


@lru_cache(maxsize=1)
def left_out_lineages() -> frozenset[str]:
    """Lineages the rule leaves out of the confirmatory tests (unknown provenance, no close model: rule 4)."""
    from mteb_evalrank.zoo.catalogue import LINEAGES_FILE, _read

    entries = _read(LINEAGES_FILE).get("lineages", {})
    return frozenset(name for name, e in entries.items() if isinstance(e, dict) and e.get("left_out"))


def lineage_of(family: str) -> tuple[str, str]:
    """(lineage, reason) of a checkpoint family; an unlisted family is its own lineage."""
    return lineage_table().get(str(family), (str(family), UNLISTED_REASON))
