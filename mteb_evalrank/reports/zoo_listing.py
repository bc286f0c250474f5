"""The ``mteb-evalrank models`` listing: one line per zoo variant, from plain row dicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

COLUMNS = ("name", "kind", "dim", "base", "weights", "status")


def format_models_table(rows: Sequence[Mapping[str, Any]], *, details: bool = False) -> str:
    """Fixed-width table of ``rows`` (keys of :data:`COLUMNS`); ``details`` adds the MTEB name,
    revision, fit corpus and what the literature expects, under each row."""
    if not rows:
        return "the zoo is empty"
    cells = [[("full" if c == "dim" and r.get(c) is None else str(r.get(c, ""))) for c in COLUMNS] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(COLUMNS)]
    widths[3] = min(widths[3], 58)
    widths[4] = min(widths[4], 46)

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w in zip(values, widths):
            out.append((v if len(v) <= w else v[: w - 1] + "…").ljust(w))
        return "  ".join(out).rstrip()

    lines = [line(COLUMNS), line(["-" * w for w in widths])]
    for r, row in zip(rows, cells):
        lines.append(line(row))
        if details:
            lines.append(f"    MTEB name {r.get('mteb_name')}  revision {r.get('revision')}"
                         + (f"  fitted on {r['fit_corpus']}" if r.get("fit_corpus") else ""))  # fmt: skip
            lines.append(f"    expected: {r.get('expectation')}")
    installed = sum(1 for r in rows if r.get("status") == "installed")
    lines.append(f"\n{len(rows)} variants, {installed} installed; dim 'full' = whitened to the fitted rank")
    return "\n".join(lines)
