"""``mteb-evalrank compare FOLDER MODEL_A MODEL_B -t TASK ...``: do two models differ on the same items?

For each task: the two models' result files in ``FOLDER`` (``<Task>.json``) and the per-item values
beside them (``<Task>.items.npz``, :mod:`mteb_evalrank.integration.item_values`), checked to be the same
items (same data revision, same item-set digest, same scoring options); then the paired bootstrap of
:func:`mteb_evalrank.metrics.paired_comparison.paired_bootstrap` on the per-item values of the task's
main score:

- EvalRank: its headline (subset ``default``; ``all`` in files from before 0.2), ``1 / cos_rank`` (MRR),
  clusters = the two directions of a pair;
- HEROS: per original sentence, the synonym minus the negation normalised cosine (the task's main score,
  ``synonym_minus_negation``; files from before 0.2: the mean over the edit subsets).  Each model's random-pair
  baseline is taken as fixed here (the result file's own interval also resamples the baseline);
- N2O: ``1 / needle_rank`` (needle MRR);
- STS and word similarity: each pair's share of the cosine Spearman correlation, SentEval: each test item's share
  of the accuracy (:mod:`mteb_evalrank.metrics.correlation_uncertainty`; resampled here without the strata the
  stored interval keeps, the folds and sub-datasets).

One line per task, and one Holm-adjusted line when several tasks are given.  What cannot be compared
(unknown model, a task not run for one model, different data, a result without per-item values) raises
:class:`~mteb_evalrank.errors.InputError` with one line saying what to do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.item_values import SubsetItems, items_path, read_items
from mteb_evalrank.metrics.paired_comparison import N_RESAMPLES, PairedComparison, holm, paired_bootstrap

#: score-dict keys that change what a per-item value means: both models must agree on them
SCORING_OPTIONS = ("centered", "ties", "dataset_fingerprint", "corpus_fingerprint", "k_max", "seed")
#: a stored score and the mean of its per-item values agree to this (MTEB rounds stored floats)
SCORE_TOLERANCE = 1e-5


@dataclass(frozen=True)
class TaskComparison:
    """One task's comparison: what was compared and :class:`PairedComparison` (A − B)."""

    task: str
    subset: str
    metric: str
    score_a: float
    score_b: float
    result: PairedComparison


def _label_matches(identity: Any, wanted: str) -> bool:
    name, revision = wanted.split("@", 1) if "@" in wanted else (wanted, None)
    return name in {identity.model, identity.label} and (revision is None or identity.revision == revision)


def _model_files(folder: Path) -> dict[str, list[tuple[Any, Path]]]:
    """task -> [(record, path)] of every scored entry of every result file below ``folder`` (the one reader,
    :func:`~mteb_evalrank.results.record.read_records`; a record names its model, revision and experiment)."""
    from mteb_evalrank.results.record import read_records

    out: dict[str, list[tuple[Any, Path]]] = {}
    for record in read_records(folder, mteb_check=False).records:
        out.setdefault(record.task, []).append((record, record.path))
    return out


def _result_path(files: dict[str, list[tuple[Any, Path]]], model: str, task: str, folder: Path) -> Path:
    known = {i.label for entries in files.values() for i, _ in entries}
    if not any(_label_matches(i, model) for entries in files.values() for i, _ in entries):
        shown = ", ".join(sorted(known)[:8]) + (" ..." if len(known) > 8 else "")
        raise InputError(f"unknown model {model!r}: no results for it in {folder} (models there: {shown or 'none'}).")
    found = [(i, p) for i, p in files.get(task, []) if _label_matches(i, model)]
    if not found:
        raise InputError(
            f"{task} was not run for {model} in {folder}: run `mteb-evalrank run -m {model} -t {task} -o {folder}` first."
        )
    if len({(i.revision, getattr(i, "experiment", None)) for i, _ in found}) > 1:
        revisions = sorted({i.revision for i, _ in found})
        raise InputError(
            f"{model} has {task} results for several revisions ({', '.join(revisions)}); name one as {model}@REVISION."
        )
    return found[0][1]


def _entries(files: dict[str, list[tuple[Any, Path]]], task: str, path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(split, subset) -> score entry of the result file ``path``, from its records."""
    return {(r.split, r.subset): r.entry for r, p in files.get(task, []) if p == path}


def _items(path: Path, model: str, task: str, folder: Path) -> dict[tuple[str, str], SubsetItems]:
    import os

    ipath = items_path(path)
    if not os.path.lexists(ipath):
        raise InputError(
            f"{model}'s {task} result ({path}) has no per-item values ({ipath.name}; results from before this "
            f"version or from `mteb run`): re-run that task: mteb-evalrank run -m {model} -t {task} -o {folder} "
            "--overwrite-strategy always."
        )
    return read_items(ipath)


def _check_belongs(
    items: dict[tuple[str, str], SubsetItems],
    entries: dict[tuple[str, str], dict[str, Any]],
    path: Path,
    model: str,
    task: str,
) -> None:
    for key, item in items.items():
        entry = entries.get(key)
        if entry is None:
            continue
        for name, value in item.scores.items():
            stored = entry.get(name)
            if (
                isinstance(stored, (int, float))
                and value is not None
                and not math.isclose(float(stored), value, abs_tol=SCORE_TOLERANCE)
            ):
                raise InputError(
                    f"{items_path(path).name} does not match {path} ({name} {value:.6f} vs {float(stored):.6f}: the result "
                    f"was rewritten by another run); re-run {task} for {model} with mteb-evalrank run."
                )


def _per_item(
    task: str, items: dict[tuple[str, str], SubsetItems], split: str
) -> tuple[str, str, np.ndarray, np.ndarray | None]:
    """(subset label, metric, per-item values of the task's main score, groups)."""
    subsets = {sub: it for (sp, sub), it in items.items() if sp == split}
    if not subsets:
        raise InputError(f"{task}: no per-item values for split {split!r}; re-run the task.")
    if "all" in subsets or len(subsets) == 1:  # the headline: "default", or "all" before 0.2
        subset = "all" if "all" in subsets else next(iter(subsets))
        it = subsets[subset]
        for name, metric in (("cos_rank", "mrr"), ("needle_rank", "needle_mrr")):
            if name in it.values:
                return subset, metric, 1.0 / np.asarray(it.values[name], dtype=np.float64), it.groups
        # HEROS: its headline (older files: one edit); STS, word similarity, SentEval: each item's share of the score
        for metric in ("synonym_minus_negation", "cosine_spearman", "accuracy", "normalized_cosine"):
            if metric in it.values:
                return subset, metric, np.asarray(it.values[metric], dtype=np.float64), it.groups
    names = sorted(subsets)
    found = [subsets[s].values.get("normalized_cosine") for s in names]
    arrays = [a for a in found if a is not None]
    if len(arrays) != len(found) or len({len(a) for a in arrays}) != 1:
        raise InputError(f"{task}: per-item values of the subsets {names} cannot be combined; re-run the task.")
    return f"mean of {len(names)} subsets", "normalized_cosine", np.mean(np.vstack(arrays), axis=0), None


def compare_task(
    folder: Path | str,
    model_a: str,
    model_b: str,
    task: str,
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = 0,
    files: dict[str, list[tuple[Any, Path]]] | None = None,
) -> TaskComparison:
    """Compare ``model_a`` and ``model_b`` on ``task`` in ``folder`` (see the module docstring)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"results folder {folder} does not exist.")
    files = _model_files(folder) if files is None else files
    paths = [_result_path(files, m, task, folder) for m in (model_a, model_b)]
    entries = [_entries(files, task, p) for p in paths]
    items = [_items(p, m, task, folder) for p, m in zip(paths, (model_a, model_b))]
    for it, en, p, m in zip(items, entries, paths, (model_a, model_b)):
        _check_belongs(it, en, p, m, task)
    split = "test" if any(k[0] == "test" for k in items[0]) else sorted(items[0])[0][0]
    keys = sorted(k for k in items[0] if k[0] == split)
    if keys != sorted(k for k in items[1] if k[0] == split):
        raise InputError(f"{task}: {model_a} and {model_b} were run on different subsets; run both on the same ones.")
    for key in keys:
        if items[0][key].digest != items[1][key].digest:
            raise InputError(
                f"{task}/{key[1]}: {model_a} and {model_b} were scored on different items (another data revision or item "
                "set); re-run both on the same data."
            )
        for option in SCORING_OPTIONS:
            a, b = entries[0].get(key, {}).get(option), entries[1].get(key, {}).get(option)
            if a != b:
                raise InputError(
                    f"{task}/{key[1]}: {option} differs ({model_a}: {a!r}, {model_b}: {b!r}); run both with the same settings."
                )
    subset, metric, a, groups = _per_item(task, items[0], split)
    _, _, b, _ = _per_item(task, items[1], split)
    result = paired_bootstrap(a, b, groups, n_resamples=n_resamples, seed=seed)
    return TaskComparison(task, subset, metric, float(a.mean()), float(b.mean()), result)


def compare_models(
    folder: Path | str,
    model_a: str,
    model_b: str,
    tasks: Sequence[str],
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = 0,
) -> list[TaskComparison]:
    """:func:`compare_task` for every task (every task is checked before any is reported)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"results folder {folder} does not exist.")
    files = _model_files(folder)
    return [
        compare_task(folder, model_a, model_b, t, n_resamples=n_resamples, seed=seed, files=files)
        for t in dict.fromkeys(tasks)
    ]


def format_lines(comparisons: Sequence[TaskComparison], model_a: str, model_b: str) -> list[str]:
    """One line per task; a Holm-adjusted line when there are several."""
    lines = []
    for c in comparisons:
        r = c.result
        verdict = "A better" if r.significant and r.difference > 0 else "B better" if r.significant else "no difference"
        lines.append(
            f"{c.task} ({c.subset}, {c.metric}, {r.n_items} items): A {c.score_a:.4f}, B {c.score_b:.4f}, "
            f"A − B = {r.difference:+.4f} [95% CI {r.ci_low:+.4f}, {r.ci_high:+.4f}], p = {r.p_value:.4g}, "
            f"min. detectable ±{r.min_detectable:.4f} (80% power) → {verdict}"
        )
    if len(comparisons) > 1:
        adjusted = holm([c.result.p_value for c in comparisons])
        parts = [f"{c.task} p = {p:.4g}" + (" (differ)" if p < 0.05 else "") for c, p in zip(comparisons, adjusted)]
        lines.append(f"Holm-adjusted over {len(comparisons)} tasks: " + "; ".join(parts))
    return [
        f"A = {model_a}, B = {model_b}; paired bootstrap over items ({comparisons[0].result.n_resamples} resamples)"
    ] + lines


__all__ = ["TaskComparison", "compare_models", "compare_task", "format_lines"]
