"""The study's cost per family: wall seconds per variant (from ``timing.json``), summed by family.

``mteb-evalrank study`` records, after every variant, the wall seconds it took (loading the model and
running its tasks) and whether its base had no stored embeddings when it started (*cold*: the time
includes encoding every text of the study for that base; later variants of the base read the stored
vectors).  A family's cold time is the sum over its variants of their last recorded seconds, and is
complete only when every variant was timed and each of the family's bases had a cold first variant.
Variants run before per-variant timing existed are counted as untimed, never estimated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class FamilyTime:
    """The recorded run time of one model family: variants timed, seconds summed, bases timed from a cold store."""

    family: str
    variants: int  # variants of this family in the report
    timed: int  # of them, with a recorded per-variant time
    seconds: float  # sum of their last recorded seconds
    cold_bases: int  # bases whose first timed variant started with an empty embedding store
    bases: int

    @property
    def complete(self) -> bool:
        """Every variant timed and every base timed from cold: the figure is the family's whole cold cost."""
        return self.timed == self.variants and self.cold_bases == self.bases


def family_times(
    timing: Sequence[Mapping], variants: Sequence[str], family_of: Mapping[str, str], base_of: Mapping[str, str]
) -> list[FamilyTime]:
    """Per family (sorted by name): the last recorded seconds of each variant (later runs override earlier
    ones, as a re-run replaces a result) and how many of its bases were timed cold."""
    seconds: dict[str, float] = {}
    cold: set[str] = set()
    for run in timing:  # timing.json lists runs in the order they were written
        seconds.update({v: float(s) for v, s in (run.get("seconds_by_variant") or {}).items()})
        cold.update(run.get("cold_variants") or [])
    rows = []
    for fam in sorted({family_of[v] for v in variants}):
        members = [v for v in variants if family_of[v] == fam]
        bases = {base_of[v] for v in members}
        rows.append(
            FamilyTime(
                fam,
                len(members),
                sum(v in seconds for v in members),
                round(sum(seconds.get(v, 0.0) for v in members), 1),
                len({base_of[v] for v in members if v in cold}),
                len(bases),
            )
        )
    return rows


def format_family_times(rows: Sequence[FamilyTime]) -> str:
    """Markdown table of :func:`family_times` with a total row."""
    lines = [
        "| family | variants timed | wall seconds | bases timed cold | complete cold time |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.family} | {r.timed} of {r.variants} | {r.seconds:,.0f} | {r.cold_bases} of {r.bases} | "
            f"{'yes' if r.complete else 'no'} |"
        )
    total = sum(r.seconds for r in rows)
    complete = [r for r in rows if r.complete]
    lines.append(
        f"| **total** | {sum(r.timed for r in rows)} of {sum(r.variants for r in rows)} | {total:,.0f} | "
        f"{sum(r.cold_bases for r in rows)} of {sum(r.bases for r in rows)} | {len(complete)} of {len(rows)} "
        f"families ({sum(r.seconds for r in complete):,.0f} s) |"
    )
    return "\n".join(lines)
