"""``mteb-evalrank migrate-results``: result files of the layout before one-headline results, converted.

Before version 0.2 the plugin filed a task's whole and its parts as MTEB subsets: EvalRankWord / EvalRankSent
as ``all`` plus one subset per source dataset, SentEvalSTS12-16 as ``all`` plus one per sub-dataset, HEROS as
its six edit types.  MTEB's ``TaskResult.get_score()`` averages a task's subsets, so every MTEB view (tables,
benchmark summaries, both leaderboards, ``mteb.api``, the results repository) showed a mean of the whole and
its parts — not the figure the paper defines.  Since 0.2 each of these tasks writes one subset, ``default``,
whose ``main_score`` is the headline, with the parts under one nested key
(:mod:`mteb_evalrank.data.result_layout`).

The conversion, per split of a result file:

- **a whole and its parts** (a subset ``all`` and others; the task declares a ``breakdown_key``): the ``all``
  entry becomes ``default``, unchanged but for its name, and every other entry becomes one part of its
  breakdown, without the keys that belong to the whole run (:func:`~mteb_evalrank.data.result_layout.part_scores`);
- **HEROS's edit types** (subsets named as :data:`mteb_evalrank.metrics.heros.SUBSETS`): one ``default`` entry
  whose ``main_score`` is ``synonym_minus_negation`` (:func:`mteb_evalrank.metrics.heros.headline_reading`), with
  the summary readings, the baseline and the data's identity, and each edit type in ``scores_per_edit``.  Its
  bootstrap standard error needs the sentence embeddings and is not in an old file: it is left out (re-run the
  task to get it).

Every number already in the file is kept: nothing is recomputed but HEROS's headline, a difference of two stored
means.  The items file beside a result (``<Task>.items.npz``, for ``compare``) is converted with it.  Each file
is replaced atomically; a file already in the new layout is left alone (the command is idempotent), and
``--dry-run`` lists what would change without writing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteb_evalrank.data.result_layout import (
    EDIT_BREAKDOWN,
    HEADLINE_SUBSET,
    LEGACY_HEADLINE_SUBSET,
    RUN_KEYS,
    part_scores,
)
from mteb_evalrank.errors import InputError


@dataclass(frozen=True)
class Migration:
    """One result file to convert: its path, task, what changes, and the converted JSON object."""

    path: Path
    task: str
    change: str
    converted: dict[str, Any]
    items_change: str | None = None


def migrate_scores(task: str, scores: Mapping[str, Any], breakdown_key: str) -> dict[str, Any] | None:
    """The ``scores`` of a result file in the one-headline layout, or ``None`` when they already are (or hold
    nothing this conversion knows: the caller leaves the file alone)."""
    out: dict[str, Any] = {}
    changed = False
    for split, entries in scores.items():
        by_subset = {e.get("hf_subset", HEADLINE_SUBSET): e for e in entries if isinstance(e, dict)}
        if breakdown_key == EDIT_BREAKDOWN:
            converted = _heros_headline(by_subset)
        else:
            converted = _whole_and_parts(by_subset, breakdown_key)
        if converted is None:
            out[split] = entries
            continue
        out[split] = [converted]
        changed = True
    return out if changed else None


def _whole_and_parts(by_subset: dict[str, dict[str, Any]], breakdown_key: str) -> dict[str, Any] | None:
    """``all`` renamed ``default``, the other subsets its parts (``None``: no ``all`` subset)."""
    if LEGACY_HEADLINE_SUBSET not in by_subset:
        return None
    whole = {**by_subset[LEGACY_HEADLINE_SUBSET], "hf_subset": HEADLINE_SUBSET}
    whole[breakdown_key] = {
        name: part_scores(entry) for name, entry in by_subset.items() if name != LEGACY_HEADLINE_SUBSET
    }
    return whole


def _heros_headline(by_subset: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """HEROS's six edit subsets as one ``default`` entry (``None``: not the old layout)."""
    from mteb_evalrank.metrics.heros import HEADLINE, SUBSETS, headline_reading

    edits = [s for s in SUBSETS if s in by_subset]
    if not edits or HEADLINE_SUBSET in by_subset:
        return None
    means = {
        s: by_subset[s]["normalized_cosine"]
        for s in edits
        if isinstance(by_subset[s].get("normalized_cosine"), (int, float))
    }
    value = headline_reading(means)
    if value is None:  # no synonym or no negation score: no headline to give (the file is left as it is)
        return None
    first = by_subset[edits[0]]
    shared = {
        k: v for k, v in first.items() if k in RUN_KEYS and k not in ("hf_subset", "main_score", "subset_mean_se")
    }
    headline: dict[str, Any] = {HEADLINE[0]: value, **shared, "num_pairs": first.get("num_pairs")}
    headline.update(main_score=value, hf_subset=HEADLINE_SUBSET)
    headline[EDIT_BREAKDOWN] = {s: part_scores(by_subset[s]) for s in edits}
    return headline


def plan_folder(folder: str | Path, breakdown_keys: Mapping[str, str]) -> list[Migration]:
    """Every result file below ``folder`` of a task in ``breakdown_keys`` (task -> key) that is in the old
    layout, with its converted object.  A file that cannot be read raises :class:`InputError` naming it."""
    from mteb_evalrank.data.result_files import check_result_json, walk_result_files
    from mteb_evalrank.integration.item_values import items_path

    plans = []
    for path in walk_result_files(folder):
        task = path.stem
        if task not in breakdown_keys:
            continue
        obj = check_result_json(path)
        scores = obj.get("scores")
        if not isinstance(scores, dict):
            continue
        new_scores = migrate_scores(task, scores, breakdown_keys[task])
        if new_scores is None:
            continue
        parts = sorted({p for entries in new_scores.values() for e in entries for p in e.get(breakdown_keys[task], {})})
        subsets = sorted(
            {str(e.get("hf_subset")) for entries in scores.values() for e in entries if isinstance(e, dict)}
        )
        change = f"subsets {', '.join(map(str, subsets))} -> default with {len(parts)} parts in {breakdown_keys[task]}"
        ipath = items_path(path)
        plans.append(
            Migration(
                path=path,
                task=task,
                change=change,
                converted={**obj, "scores": new_scores},
                items_change=f"{ipath.name}: per-item values of the headline" if ipath.is_file() else None,
            )
        )
    return plans


def apply(plan: Migration) -> None:
    """Write one conversion: the items file first (so that a result never names items it lacks), then the
    result file, each replaced atomically.  The items file of a HEROS result without all six edit types, which
    cannot give the headline's per-item values, is removed (``compare`` then asks for a re-run)."""
    from mteb_evalrank.data.files import atomic_write_text
    from mteb_evalrank.integration.item_values import items_path

    ipath = items_path(plan.path)
    if ipath.is_file():
        _migrate_items(ipath, plan)
    atomic_write_text(plan.path, json.dumps(plan.converted, indent=2))


def _migrate_items(path: Path, plan: Migration) -> None:
    from mteb_evalrank.integration.item_values import SubsetItems, items_digest, read_items, write_items
    from mteb_evalrank.metrics.heros import HEADLINE, SUBSETS

    items = read_items(path)
    out: dict[tuple[str, str], SubsetItems] = {}
    for split in sorted({s for s, _ in items}):
        subsets = {sub: it for (sp, sub), it in items.items() if sp == split}
        if LEGACY_HEADLINE_SUBSET in subsets:
            out[(split, HEADLINE_SUBSET)] = subsets[LEGACY_HEADLINE_SUBSET]
        elif all(s in subsets for s in SUBSETS):
            _, (edit, reference) = HEADLINE
            values = {
                HEADLINE[0]: subsets[reference].values["normalized_cosine"] - subsets[edit].values["normalized_cosine"]
            }
            for s in SUBSETS:
                values[f"{s}/cosine"] = subsets[s].values["cosine"]
                values[f"{s}/normalized_cosine"] = subsets[s].values["normalized_cosine"]
            entry = plan.converted["scores"].get(split, [{}])[0]
            out[(split, HEADLINE_SUBSET)] = SubsetItems(
                values=values,
                digest=items_digest([subsets[s].digest for s in SUBSETS]),
                scores={HEADLINE[0]: float(entry[HEADLINE[0]])} if entry.get(HEADLINE[0]) is not None else {},
            )
        elif HEADLINE_SUBSET in subsets:
            out[(split, HEADLINE_SUBSET)] = subsets[HEADLINE_SUBSET]
    if out:
        write_items(path, plan.task, out)
    else:
        path.unlink()


def converted_run_settings(path: Path, breakdown_keys: Mapping[str, str]) -> str | None:
    """The text of ``run_settings.jsonl`` (MTEB's record of which (task, split, subset) a run scored, read by the
    results repository's CI) with the lines of tasks in ``breakdown_keys`` whose subsets are the old ones made
    ``["default"]``, other lines kept byte for byte; ``None`` when no line changes."""
    from mteb_evalrank.data.files import read_text
    from mteb_evalrank.metrics.heros import SUBSETS as HEROS_EDITS

    old_names = {LEGACY_HEADLINE_SUBSET, *HEROS_EDITS}
    lines = read_text(path, what="run settings file").split("\n")
    changed = False
    for i, line in enumerate(lines):
        try:
            entry = json.loads(line) if line.strip() else None
        except ValueError:
            continue  # a damaged line is the readers' to report, not this conversion's
        if not isinstance(entry, dict) or entry.get("task") not in breakdown_keys:
            continue
        subsets = entry.get("subsets")
        if isinstance(subsets, list) and old_names & set(map(str, subsets)):
            lines[i] = json.dumps({**entry, "subsets": [HEADLINE_SUBSET]})
            changed = True
    return "\n".join(lines) if changed else None


def migrate_results(folder: str | Path, *, dry_run: bool = False) -> tuple[list[Migration], list[Path]]:
    """Convert every result file below ``folder`` whose task now has one headline (see the module docstring),
    and the ``run_settings.jsonl`` beside them; with ``dry_run``, only list them.  Returns the conversions
    (made or planned) and the run-settings files changed (or to change)."""
    from mteb_evalrank.data.files import atomic_write_text
    from mteb_evalrank.data.result_files import results_root
    from mteb_evalrank.data.result_layout import RUN_SETTINGS
    from mteb_evalrank.integration.task_lookup import breakdown_keys

    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"results folder {folder} does not exist.")
    from mteb_evalrank.data.result_files import walk_result_files

    if next(iter(walk_result_files(folder)), None) is None:
        raise InputError(
            f"no MTEB results found in {folder}; expected results/<org>__<model>/<revision>/<Task>.json "
            "(mteb run --output-folder)."
        )
    keys = breakdown_keys()
    plans = plan_folder(folder, keys)
    settings = {}  # path -> its converted text, each file read once
    for path in sorted(results_root(folder).rglob(RUN_SETTINGS)):
        text = converted_run_settings(path, keys) if path.is_file() else None
        if text is not None:
            settings[path] = text
    if not dry_run:
        for plan in plans:
            apply(plan)
        for path, text in settings.items():
            atomic_write_text(path, text)
    return plans, list(settings)


def legacy_layout_problem(path: Path, obj: Mapping[str, Any]) -> str | None:
    """One line when the result ``obj`` (read from ``path``) of a task with parts is in the old layout, whose
    MTEB score is a mean of a whole and its parts, else ``None``."""
    from mteb_evalrank.integration.task_lookup import breakdown_keys

    key = breakdown_keys().get(str(obj.get("task_name")))
    scores = obj.get("scores")
    if key is None or not isinstance(scores, dict) or migrate_scores(str(obj.get("task_name")), scores, key) is None:
        return None
    folder = next((p for p in path.parents if p.name == "results"), path.parents[min(2, len(path.parents) - 1)])
    return (
        f"{path}: a result in the layout before one-headline results (MTEB would average its whole with its "
        f"parts); convert the folder first: mteb-evalrank migrate-results {folder}"
    )
