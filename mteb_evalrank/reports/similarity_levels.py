"""``mteb-evalrank sts-by-level``: STS Spearman within gold-score bins, from MTEB's saved predictions.

``mteb run … --prediction-folder DIR`` (or ``mteb.evaluate(…, prediction_folder=DIR)``) saves, for the
plugin's STS tasks, ``DIR/<Task>_predictions.json`` with the model's name and, per subset, the pair
ids, gold scores and cosines.  This report finds every such file under the folders given (one per
model), and prints and plots ρ per bin with n and bootstrap intervals
(:func:`mteb_evalrank.metrics.similarity_levels.spearman_by_bin`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.similarity_levels import BinScore, parse_bins, spearman_by_bin
from mteb_evalrank.reports.figures import save_figure


def find_predictions(folders: Sequence[str | Path], task: str) -> list[tuple[str, dict[str, Any], Path]]:
    """``(model name, predictions of the subset, path)`` for each ``<task>_predictions.json`` found: one per folder
    given (a folder is one model's ``--prediction-folder``; two files of the task below it are refused naming
    both), and one per model (two files naming one model, also spelled differently under the one name normaliser,
    :func:`mteb_evalrank.names.name_key`, are refused naming both)."""
    from mteb_evalrank.names import name_key, spelled, twin_note

    found: list[tuple[str, dict[str, Any], Path]] = []
    owners: dict[str, tuple[str, Path]] = {}
    for folder in folders:
        folder = Path(folder)
        if not folder.exists():
            raise InputError(f"prediction folder {folder} does not exist.")
        from mteb_evalrank.data.files import check_regular_file, regular_files
        from mteb_evalrank.data.result_files import read_predictions

        if folder.is_dir():
            paths = regular_files(sorted(folder.rglob(f"{task}_predictions.json")), what="predictions file")
            if len(paths) > 1:
                raise InputError(
                    f"prediction folder {folder} holds {len(paths)} {task}_predictions.json ({paths[0]}, {paths[1]}"
                    f"{', ...' if len(paths) > 2 else ''}): a folder is one model's predictions; give each model's "
                    "folder."
                )
        else:
            paths = [check_regular_file(folder, what="predictions file")]
        for path in paths:
            name, data = read_predictions(path)  # checked: one line naming the file and the key
            first, where = owners.setdefault(name_key(name), (name, path))
            if where == path and any(p == path for _, _, p in found):
                continue  # one folder given twice (./P/a and P/a)
            if where != path:
                note = "" if first == name else f" ({spelled(first)} and {spelled(name)}: {twin_note(name, first)})"
                raise InputError(
                    f"{where} and {path} both hold predictions of model {spelled(first)}{note}: one row per model; "
                    "give each model's predictions once."
                )
            found.append((name, data, path))
    if not found:
        raise InputError(
            f"no {task}_predictions.json under {', '.join(map(str, folders))}; run the task with "
            "--prediction-folder (mteb run … --prediction-folder DIR) first."
        )
    return found


def levels_table(
    folders: Sequence[str | Path],
    *,
    task: str = "SentEvalSTSB",
    bins: str = "0-2,2-4,4-5",
    subset: str = "default",
    split: str = "test",
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict[str, list[BinScore]]:
    """Model name → per-bin scores."""
    from mteb_evalrank.data.result_files import prediction_pairs

    edges = parse_bins(bins)
    out: dict[str, list[BinScore]] = {}
    low, high = gold_range(task, split)
    first: tuple[Path, list | None, list[float]] | None = None
    for name, data, path in find_predictions(folders, task):
        pred, gold = prediction_pairs(data, subset, split, path)
        ids = _pair_ids(data, subset, split, path, len(gold))
        where = f"{path}: {subset}/{split}"
        bad = next((i for i, g in enumerate(gold) if not low <= g <= high), None)
        if bad is not None:
            raise InputError(
                f"{where}: gold[{bad}] is {gold[bad]:g}, outside {task}'s gold-score range [{low:g}, {high:g}]."
            )
        bad = next((i for i, c in enumerate(pred) if not -1 - COSINE_SLACK <= c <= 1 + COSINE_SLACK), None)
        if bad is not None:
            raise InputError(f"{where}: cosine[{bad}] is {pred[bad]:g}, outside [-1, 1]: not a cosine.")
        if first is None:
            first = (path, ids, gold)
        else:
            pred, gold = _same_items(first, (path, ids, gold), pred, where)
        out[name] = spearman_by_bin(pred, gold, edges, n_resamples=n_resamples, seed=seed)
        if all(b.note for b in out[name]):
            import warnings

            from mteb_evalrank.errors import EvalRankWarning

            warnings.warn(
                EvalRankWarning(
                    f"{where}: no bin has a Spearman ρ for {name}: {len(gold)} pair{'s' if len(gold) != 1 else ''} "
                    "in all, and ρ needs at least 3 pairs of varying scores in a bin; its row says why for each bin."
                ),
                stacklevel=2,
            )
    return out


#: float32 cosines of unit vectors may exceed 1 by rounding
COSINE_SLACK = 1e-4


def gold_range(task: str, split: str = "test") -> tuple[float, float]:
    """The gold-score range of ``task``'s ``split``: the smallest and largest gold score of its data, from the
    plugin's shipped descriptive statistics, widened to whole numbers (SimLex-999's 0.23-9.8 is its scale 0-10);
    ``(-inf, inf)`` for a task they do not cover."""
    import importlib.util
    import json
    import math

    spec = importlib.util.find_spec("mteb_evalrank.tasks")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for folder in locations:
        path = Path(folder) / "descriptive_stats" / f"{task}.json"
        try:
            stats = json.loads(path.read_text(encoding="utf-8"))[split]["label_statistics"]
            return float(math.floor(stats["min_score"])), float(math.ceil(stats["max_score"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return float("-inf"), float("inf")


def _pair_ids(data: dict[str, Any], subset: str, split: str, path: Path, n: int) -> list | None:
    """The ``id`` list of the pairs (``None`` when the file has none): one id per pair, no id twice."""
    ids = data[subset][split].get("id")
    if ids is None:
        return None
    if not isinstance(ids, list) or len(ids) != n:
        raise InputError(
            f"{path}: {subset}/{split}: 'id' must be a list of one id per pair ({n} pairs), "
            f"got {len(ids) if isinstance(ids, list) else type(ids).__name__}."
        )
    if not all(isinstance(i, (str, int)) and not isinstance(i, bool) for i in ids):
        raise InputError(f"{path}: {subset}/{split}: 'id' must hold strings or whole numbers.")
    seen: set = set()
    twice = next((i for i in ids if i in seen or _add(seen, i)), None)
    if twice is not None:
        raise InputError(f"{path}: {subset}/{split}: the pair id {twice!r} appears twice.")
    return ids


def _add(seen: set, item: Any) -> bool:
    """Add ``item`` to ``seen``; False, so that a generator can add as it tests."""
    seen.add(item)
    return False


def _same_items(
    first: tuple[Path, list | None, list[float]],
    other: tuple[Path, list | None, list[float]],
    pred: list[float],
    where: str,
) -> tuple[list[float], list[float]]:
    """``pred`` and the gold scores of ``other`` in the pair order of ``first``; refused (one line) when the two
    files hold different pairs (another length or item set) or different gold scores for one pair."""
    path0, ids0, gold0 = first
    _, ids, gold = other
    if len(gold) != len(gold0):
        raise InputError(
            f"{where}: {len(gold)} pairs, but {path0} has {len(gold0)}: the models were scored on different "
            "pairs (another data revision or subset); give prediction files of one run of the task."
        )
    if ids0 is not None and ids is not None:
        if set(ids) != set(ids0):
            missing = next(i for i in ids0 if i not in set(ids))
            raise InputError(
                f"{where}: another item set than {path0} (pair id {missing!r} is missing); give prediction files "
                "of one run of the task."
            )
        at = {i: k for k, i in enumerate(ids)}
        pred, gold = [pred[at[i]] for i in ids0], [gold[at[i]] for i in ids0]
    bad = next((k for k, (a, b) in enumerate(zip(gold0, gold)) if abs(a - b) > 1e-6 * max(1.0, abs(a))), None)
    if bad is not None:
        raise InputError(
            f"{where}: the gold score of pair {bad if ids0 is None else repr(ids0[bad])} is {gold[bad]:g}, but "
            f"{gold0[bad]:g} in {path0}: the files do not hold the same pairs."
        )
    return pred, gold


def format_levels(levels: dict[str, list[BinScore]], *, task: str) -> str:
    """Markdown: one row per model, one column per bin, ``ρ×100 [CI] (n)``."""
    first = next(iter(levels.values()))
    head = [f"gold {b.low:g}-{b.high:g}" for b in first]
    lines = [f"| {task}: model | " + " | ".join(head) + " |", "|---|" + "---|" * len(head)]
    for name, scores in levels.items():
        cells = [
            b.note or f"{b.rho * 100:.1f} [{b.ci_low * 100:.0f}, {b.ci_high * 100:.0f}] (n={b.n_pairs})" for b in scores
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot_levels(levels: dict[str, list[BinScore]], path: str | Path, *, task: str) -> Path:
    """Grouped bars: Spearman within each gold-score bin per model, 95% intervals, pairs per bin on the axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = list(levels)
    first = levels[names[0]]
    nb = len(first)
    width = 0.8 / max(1, len(names))
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * nb + 0.3 * len(names) * nb), 4.5))
    x = np.arange(nb)
    for k, name in enumerate(names):
        scores = levels[name]
        vals = np.array([b.rho * 100 for b in scores])
        err = np.array([[b.rho * 100 - b.ci_low * 100, b.ci_high * 100 - b.rho * 100] for b in scores]).T
        ax.bar(x + (k - (len(names) - 1) / 2) * width, vals, width, yerr=err, capsize=3, label=name[:60])
    ax.set_xticks(x, [f"gold {b.low:g}–{b.high:g}\n({b.n_pairs} pairs)" for b in first])
    ax.set_ylabel("Spearman ρ × 100 within the bin")
    ax.set_title(
        f"{task}: how well each model orders pairs of similar gold score\n"
        "(Spearman within each bin; error bars: 95% bootstrap interval)",
        fontsize=10,
    )
    ax.axhline(0, color="black", lw=0.8)
    ax.legend(fontsize=8)
    return save_figure(fig, path)


def sts_by_level(
    folders: Sequence[str | Path],
    *,
    task: str,
    bins: str,
    out: str | Path | None = None,
    subset: str = "default",
    split: str = "test",
    n_resamples: int = 1000,
) -> str:
    """What the CLI prints (and plots to ``out``, checked to be writable before anything is computed)."""
    if out:
        from mteb_evalrank.data.files import figure_file

        figure_file(Path(out), what="chart file")
    levels = levels_table(folders, task=task, bins=bins, subset=subset, split=split, n_resamples=n_resamples)
    if out:
        plot_levels(levels, out, task=task)
    return (
        format_levels(levels, task=task)
        + f"\n\nSpearman ρ × 100 within gold-score bins; [95% bootstrap interval over pairs, {n_resamples} resamples]."
    )
