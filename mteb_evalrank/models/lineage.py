"""The lineage of a checkpoint family, read from ``lineages.json`` (data, not code).

A *lineage* groups everything that shares weights or training: models fine-tuned, distilled, quantised,
pruned or post-processed from another model or from a common pretrained checkpoint, and models trained
by one method family on one corpus.  The study counts independence in lineages (``docs/statistics.md``).
A family that ``lineages.json`` does not list is its own lineage.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

UNLISTED_REASON = "no shared weights or training recorded in lineages.json: its own lineage"


@lru_cache(maxsize=1)
def lineage_table() -> dict[str, tuple[str, str]]:
    """family → (lineage, reason), from the package's ``lineages.json``."""
    data = json.loads(resources.files("mteb_evalrank.models").joinpath("lineages.json").read_text(encoding="utf-8"))
    out: dict[str, tuple[str, str]] = {}
    for name, entry in data["lineages"].items():
        for family in entry["families"]:
            if family in out:
                raise ValueError(f"lineages.json lists family {family!r} in two lineages ({out[family][0]}, {name}).")
            out[family] = (name, entry["reason"])
    return out


def lineage_of(family: str) -> tuple[str, str]:
    """(lineage, reason) of a checkpoint family; an unlisted family is its own lineage."""
    return lineage_table().get(str(family), (str(family), UNLISTED_REASON))
