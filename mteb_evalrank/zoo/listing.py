"""The ``mteb-evalrank models`` listing: one line per zoo variant, from plain row dicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

COLUMNS = ("name", "kind", "dim", "family", "base", "weights", "status")


def format_models_table(rows: Sequence[Mapping[str, Any]], *, details: bool = False) -> str:
    """Fixed-width table of ``rows`` (keys of :data:`COLUMNS`); ``details`` adds the MTEB name,
    revision, fit corpus and what the literature expects, under each row."""
    if not rows:
        return "the zoo is empty"
    cells = [[("full" if c == "dim" and r.get(c) is None else str(r.get(c, ""))) for c in COLUMNS] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(COLUMNS)]
    widths[4] = min(widths[4], 58)
    widths[5] = min(widths[5], 46)

    def line(values: Sequence[str]) -> str:
        out = []
        for v, w in zip(values, widths):
            out.append((v if len(v) <= w else v[: w - 1] + "…").ljust(w))
        return "  ".join(out).rstrip()

    lines = [line(COLUMNS), line(["-" * w for w in widths])]
    for r, row in zip(rows, cells):
        lines.append(line(row))
        if details:
            lines.append(
                f"    MTEB name {r.get('mteb_name')}  revision {r.get('revision')}"
                + (f"  fitted on {r['fit_corpus']}" if r.get("fit_corpus") else "")
            )
            if r.get("level") == "word":
                lines.append(
                    f"    word level: vectors from {r.get('origin')}; licence {r.get('licence') or 'not stated'}"
                    + (f"; vocabulary {r['vocab']}" if r.get("vocab") else "")
                )
                lines.append(f"    family {r.get('family')}; speed here: {r.get('speed') or 'not measured'}")
            else:  # sentence level: provenance from zoo/catalogue.json
                lines.append(f"    family {r.get('family')}; source: {r.get('source') or r.get('weights')}")
                lines.append(
                    f"    licence {r.get('licence') or 'not stated'}; speed here: {r.get('speed') or 'not measured'}"
                )
            lines.append(f"    expected: {r.get('expectation')}")
    installed = sum(1 for r in rows if r.get("status") == "installed")
    lines.append(f"\n{len(rows)} variants, {installed} installed; dim 'full' = whitened to the fitted rank")
    summary = word_level_summary(rows)
    if summary:
        lines.append(summary)
    return "\n".join(lines)


def word_level_summary(rows: Sequence[Mapping[str, Any]]) -> str:
    """``word level: N variants, M installed, from K sources (families F)`` over rows with ``level == "word"``;
    a source is where a set's vectors come from (its ``origin``), random floors not counted."""
    word = [r for r in rows if r.get("level") == "word"]
    if not word:
        return ""
    ok = [r for r in word if r.get("status") == "installed"]
    sources = sorted({r["origin"] for r in ok if r.get("origin") and not str(r["origin"]).startswith("random")})
    families = sorted({r["family"] for r in ok})
    return (
        f"word level: {len(word)} variants, {len(ok)} installed, from {len(sources)} sources of vectors "
        f"(random floor not counted) in {len(families)} families; build the missing ones with "
        "`mteb-evalrank build-word-models`"
    )


def models_listing(*, level: str = "all", details: bool = False) -> str:
    """``mteb-evalrank models``: the zoo's table, all of it or one level (``"sentence"`` or ``"word"``)."""
    from mteb_evalrank.zoo.adapter import zoo_rows

    rows = zoo_rows()
    if level != "all":
        rows = [r for r in rows if r.get("level", "sentence") == level]
    return format_models_table(rows, details=details)


def build_word_models_and_print(
    names: Sequence[str] = (),
    *,
    force: bool = False,
    spacy_wheel_dir: str | None = None,
    check_copies: bool = False,
    words: int = 1000,
) -> int:
    """``mteb-evalrank build-word-models``: build the named word sets (default: every one not built yet)
    and print the outcome; with ``check_copies``, also (or, without names, only) print the copy check.
    Returns the exit code: 1 when a build failed."""
    from mteb_evalrank.zoo import word_builds as builds
    from mteb_evalrank.zoo import word_copies as copies

    failed = 0
    if not check_copies or names:
        results = builds.build_word_models(
            list(names) or None, force=force, spacy_wheel_dir=spacy_wheel_dir, log=lambda m: print(m, flush=True)
        )
        print(builds.format_results(results))
        failed = sum(r.state == "failed" for r in results)
    if check_copies:
        print(copies.format_copies(copies.check_copies(n_words=words)))
    return 1 if failed else 0
