"""How many independent lineages MTEB's model registry could give a study: ``study-population --from-registry``.

Metadata only, no model loaded.  The population is every registry entry that is an open-weights dense text
encoder (``ModelMeta``: ``open_weights`` true, ``modalities`` exactly text, not a cross-encoder or a
late-interaction model, when the metadata says so).  Each is put in a lineage: the hand-checked lineage of the
shipped ``hub`` list when the model is on it, else the root of its ``adapted_from`` chain
(:func:`~mteb_evalrank.integration.model_list.registry_lineage`).

The count is an **upper bound**: a model that records no ``adapted_from`` and is not on the hand-checked list is
its own lineage only because the registry is silent (a fine-tune whose card names its base, a distillation, a
shared corpus are all missed).  :func:`count_lineages` therefore reports separately the lineages that rest only
on absent metadata (no member records an ``adapted_from``, none is hand-checked), and how many organisations the
lineages' roots belong to (a crude merge, since one organisation's models often share a method and a corpus).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: model types that are not dense single-vector encoders (``ModelMeta.model_type``, where MTEB records it)
NOT_DENSE = ("cross-encoder", "late-interaction")


def is_open_text_encoder(meta: Any) -> bool:
    """An open-weights dense text encoder by its registry metadata (missing fields do not exclude it)."""
    if getattr(meta, "open_weights", None) is not True:
        return False
    modalities = getattr(meta, "modalities", None) or ["text"]
    if set(modalities) != {"text"}:
        return False
    kinds = getattr(meta, "model_type", None) or []
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    return not any(k in NOT_DENSE for k in kinds)


@dataclass(frozen=True)
class RegistryCount:
    """The registry's text encoders in lineages (an upper bound on the independent lineages)."""

    n_entries: int  # every registry entry read
    n_encoders: int  # open-weights dense text encoders
    n_lineages: int
    n_silent: int  # lineages that rest only on absent metadata
    largest: tuple[tuple[str, int], ...]  # the largest lineages, (root, models)
    n_organisations: int = 0  # distinct organisations (the part before "/") among the lineages' roots

    @property
    def n_evidence(self) -> int:
        """Lineages with recorded evidence (an adapted_from chain or a hand-checked lineage)."""
        return self.n_lineages - self.n_silent

    def line(self) -> str:
        """The count in one sentence, with what it rests on."""
        return (
            f"{self.n_encoders} open-weights dense text encoders of {self.n_entries} registry entries, in at most "
            f"{self.n_lineages} lineages (an upper bound: metadata only); {self.n_silent} of them rest only on "
            "absent metadata (one model, no adapted_from, not hand-checked), so "
            f"{self.n_evidence} lineages have recorded evidence (an adapted_from chain or the hub list's "
            f"hand-checked lineage). Merging by organisation (one organisation's models often share a method and a "
            f"corpus, which the lineage rule counts as one lineage) leaves {self.n_organisations}."
        )


def count_lineages(metas: Mapping[str, Any], hand_checked: Mapping[str, str] | None = None) -> RegistryCount:
    """Lineages of the registry's open text encoders (``metas``: {name: ModelMeta}); ``hand_checked``:
    {model: lineage} that override the ``adapted_from`` root (the shipped hub list's)."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.model_list import registry_lineage

    hand_checked = hand_checked or {}
    encoders = sorted(name for name, meta in metas.items() if is_open_text_encoder(meta))
    members: dict[str, list[str]] = {}
    evidence: dict[str, bool] = {}
    for name in encoders:
        try:
            root, _ = registry_lineage(name, metas)
        except InputError:  # an adapted_from cycle: the model is its own lineage, with no evidence
            root = name
        lineage = hand_checked.get(name, root)
        members.setdefault(lineage, []).append(name)
        recorded = name in hand_checked or bool(getattr(metas[name], "adapted_from", None))
        evidence[lineage] = evidence.get(lineage, False) or recorded
    silent = sum(1 for lineage, names in members.items() if not evidence[lineage] and len(names) == 1)
    largest = tuple(sorted(((k, len(v)) for k, v in members.items()), key=lambda kv: (-kv[1], kv[0]))[:5])
    organisations = {str(lineage).split("/", 1)[0] for lineage in members}
    return RegistryCount(len(metas), len(encoders), len(members), silent, largest, len(organisations))


def hub_lineages(rows: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """{model: lineage} of a model list's rows."""
    return {str(r["model"]).strip(): str(r["lineage"]).strip() for r in rows if str(r.get("lineage") or "").strip()}


def registry_count() -> RegistryCount:
    """:func:`count_lineages` over MTEB's installed registry, with the shipped hub list's hand-checked lineages."""
    from mteb_evalrank.integration.model_list import _registry_metas, read_rows, shipped_population

    return count_lineages(_registry_metas(), hub_lineages(read_rows(shipped_population("hub"))))
