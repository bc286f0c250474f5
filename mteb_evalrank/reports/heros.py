"""HEROS report: table (models × subsets), summary readings, CSV and the paper's Figure-1-style chart.

Reads the ``HEROS.json`` result files of any number of models below a folder — the MTEB result-cache
layout ``<folder>/results/<org>__<model>/<revision>/HEROS.json``, read as records by the one reader
(:func:`mteb_evalrank.results.record.read_records`: the model and revision from ``model_meta.json`` next to the
file, else the folder names).  Only the ``test`` split is read.

CLI: ``mteb-evalrank heros-report RESULTS_DIR [--out FILE.png] [--csv FILE]``.

Module-level imports stay light (the CLI parser imports this module); matplotlib is imported inside
:func:`plot_heros`, with the Agg backend.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteb_evalrank.data.files import atomic_target, figure_file, output_file
from mteb_evalrank.data.result_layout import EDIT_BREAKDOWN, entry_parts
from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.heros import SUBSET_LABELS, SUBSETS, SUMMARY_READINGS, summary_readings
from mteb_evalrank.names import name_key, spelled
from mteb_evalrank.reports.results_reader import revision_labels
from mteb_evalrank.results.record import RecordSet, ResultRecord, read_records

#: the ``hf_subset`` of the one headline entry, whose ``scores_per_edit`` holds the edits (MTEB's default subset)
HEADLINE_SUBSET = "default"
TASK = "HEROS"
RESULT_FILE = f"{TASK}.json"
SPLIT = "test"
#: Short column headers for the terminal table.
SHORT_LABELS = {
    "synonym": "synonym",
    "antonym": "antonym",
    "negation_main": "neg_main",
    "negation_antonym": "neg_ant",
    "random_mlm": "random",
    "typo": "typo",
}


@dataclass
class HerosModelResult:
    """Normalised cosine per subset (and the summary readings) of one model's HEROS result."""

    model: str
    revision: str
    path: Path
    normalized: dict[str, float] = field(default_factory=dict)
    readings: dict[str, float] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.model


def _score(path: Path, key: str, value: Any) -> float | None:
    """A stored score: a number; ``null`` or NaN is missing (with a warning); anything else is an error
    naming the file and the key."""
    import math
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    if isinstance(value, bool) or (value is not None and not isinstance(value, (int, float))):
        shown = json.dumps(value)[:40]
        raise InputError(f"{path}: score {key} is {shown}, not a number; repair or re-run this result.")
    if value is None or not math.isfinite(value):
        shown = "null" if value is None else repr(value)  # as the JSON file says it
        warnings.warn(EvalRankWarning(f"{path}: score {key} is {shown}; shown as missing (-)."), stacklevel=3)
        return None
    from mteb_evalrank.reports.results_reader import check_score_range

    check_score_range(path, key.split(".")[0], key.split(".")[-1], float(value))
    return float(value)


def _check_headline_scores(path: Path, entry: dict[str, Any]) -> None:
    """The headline entry's own numbers besides ``main_score`` and the readings (a ``normalized_cosine`` of 5.0
    stored there): each against its range (:func:`~mteb_evalrank.reports.results_reader.check_score_range`: a
    normalised cosine outside [-1, 1] warns, naming the file)."""
    import math

    from mteb_evalrank.reports.results_reader import check_score_range

    for key, value in entry.items():
        if key == "main_score" or key in SUMMARY_READINGS:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            check_score_range(path, HEADLINE_SUBSET, key, float(value))


def read_result(path: Path) -> HerosModelResult:
    """Parse one ``HEROS.json`` (through the one reader); a file without HEROS test scores raises
    :class:`InputError`."""
    path = Path(path)
    return result_from_records(path, _task_records(path).records)


def _task_records(where: Path) -> RecordSet:
    """The HEROS records of ``where`` (a folder or one file); a HEROS file the reader could not read raises
    :class:`InputError` naming it (the report shows every model or none)."""
    read = read_records(where, task=TASK, mteb_check=False)
    if read.skipped:
        path, reason = read.skipped[0]
        raise InputError(f"{path}: {reason}")
    return read


def result_from_records(path: Path, records: list[ResultRecord]) -> HerosModelResult:
    """One model's :class:`HerosModelResult` from the records of its ``HEROS.json`` ``path``."""
    entries = [r.entry for r in records if r.split == SPLIT]
    if not entries:
        raise InputError(f"{path}: no {SPLIT!r} scores in this result file.")
    result = HerosModelResult(model=records[0].label, revision=records[0].revision, path=Path(path))
    stored: dict[str, float] = {}
    seen: dict[str, str] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise InputError(f"{path}: a {SPLIT!r} score entry is not an object ({json.dumps(entry)[:60]}).")
        # one headline entry, the edit types inside it (the layout since 0.2)
        entries = entries + [
            {**v, "hf_subset": k, **{n: entry[n] for n in SUMMARY_READINGS if n in entry}}
            for key, k, v in entry_parts(entry)
            if key == EDIT_BREAKDOWN
        ]
    for entry in entries:
        subset = entry.get("hf_subset")
        if not isinstance(subset, str):
            raise InputError(f"{path}: a {SPLIT!r} score entry's hf_subset is {json.dumps(subset)[:40]}, not a name.")
        key = name_key(subset, casefold=False)
        if key in seen:  # two entries of one subset (or of two spellings of it): which one is the score?
            again = "twice" if seen[key] == subset else f"twice ({spelled(seen[key])} and {spelled(subset)})"
            raise InputError(f"{path}: subset {spelled(subset)} is listed {again} in split {SPLIT!r}; keep one entry.")
        seen[key] = subset
        if subset not in SUBSETS and subset != HEADLINE_SUBSET:  # '', ' default', an edit 'synonyms': was ignored
            raise InputError(
                f"{path}: subset {spelled(subset)} in split {SPLIT!r} is neither a HEROS edit ({', '.join(SUBSETS)}) "
                f"nor the headline {HEADLINE_SUBSET!r}; repair or re-run this result."
            )
        if "main_score" in entry:  # a number, or missing: 'main_score': '0.48' was never looked at
            _score(path, f"{subset}.main_score", entry["main_score"])
        if subset == HEADLINE_SUBSET:  # scores the table does not show are checked against their range all the same
            _check_headline_scores(path, entry)
        if subset in SUBSETS:
            key = "normalized_cosine" if "normalized_cosine" in entry else "main_score"
            value = _score(path, f"{subset}.{key}", entry.get(key))
            if value is not None:
                result.normalized[subset] = value
        for name in SUMMARY_READINGS:
            value = _score(path, f"{subset}.{name}", entry.get(name)) if name in entry else None
            if value is not None:
                stored.setdefault(name, value)
    if not result.normalized and not any(isinstance(e, dict) and e.get("hf_subset") in SUBSETS for e in entries):
        raise InputError(f"{path}: no HEROS subset scores ({', '.join(SUBSETS)}).")
    # every subset missing (NaN): the model stays in the table, its cells shown as missing (-)
    # readings stored by the task (computed from all six subsets) win; otherwise derive from what is here
    result.readings = {**summary_readings(result.normalized), **stored}
    return result


def check_report_outputs(out: Path | None, csv_path: Path | None) -> None:
    """Refuse an unusable ``out`` / ``csv_path`` (a folder, a file in the way, read-only) before any work."""
    if csv_path:
        output_file(Path(csv_path), what="CSV file")
    if out:
        figure = figure_file(Path(out), what="chart file")
        if csv_path and Path(csv_path).absolute() == figure.absolute():
            raise InputError(f"--csv and --out name the same file {figure}; give each its own file.")


def collect_results(results_dir: Path) -> list[HerosModelResult]:
    """Every ``HEROS.json`` below ``results_dir``, sorted by model name then revision.

    When one model has several revisions, labels become ``model@revision``.
    """
    root = Path(results_dir)
    if not root.exists():
        raise InputError(f"{root} does not exist.")
    files = _task_records(root).files()
    if not files:
        raise InputError(
            f"no {RESULT_FILE} found below {root} (expected the MTEB layout results/<org>__<model>/<revision>/{RESULT_FILE})."
        )
    results = sorted((result_from_records(p, r) for p, r in files.items()), key=lambda r: (r.model.lower(), r.revision))
    for r, label in zip(results, revision_labels([(r.model, r.revision) for r in results], length=12)):
        r.model = label
    return results


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_table(results: list[HerosModelResult]) -> str:
    """Models × subsets (normalised cosine, 3 decimals) plus the three summary readings."""
    header = ["model", *(SHORT_LABELS[s] for s in SUBSETS), *SUMMARY_READINGS]
    rows = [header] + [
        [r.model, *(_fmt(r.normalized.get(s)) for s in SUBSETS), *(_fmt(r.readings.get(k)) for k in SUMMARY_READINGS)]
        for r in results
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    legend = (
        "normalised cosine (cos - cos_avg) / (1 - cos_avg), mean per subset; "
        "*_minus_synonym = subset mean minus synonym mean"
    )
    return "\n".join(lines) + "\n" + legend


def write_csv(results: list[HerosModelResult], path: Path) -> Path:
    """One row per model: model, revision, the six subsets, the three readings, result file."""
    path = output_file(Path(path), what="CSV file")
    with atomic_target(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["model", "revision", *SUBSETS, *SUMMARY_READINGS, "result_file"])
        for r in results:
            writer.writerow(
                [
                    r.model,
                    r.revision,
                    *("" if r.normalized.get(s) is None else f"{r.normalized[s]:.6f}" for s in SUBSETS),
                    *("" if r.readings.get(k) is None else f"{r.readings[k]:.6f}" for k in SUMMARY_READINGS),
                    str(r.path),
                ]
            )
    return path


def heros_x_limits(values: list[float]) -> tuple[float, float]:
    """x-axis range of the HEROS chart: from 0 (or below, for negative values) to at least 1, in steps of 0.05.

    The axis starts at 0 so that a bar's length is its value: an axis starting at 0.4 made a 0.75 bar
    look twice as long as a 0.6 one.
    """
    import numpy as np

    finite = [float(v) for v in values if v is not None and np.isfinite(v)]
    lo = min(finite, default=0.0)
    hi = max(finite, default=1.0)
    x_lo = 0.0 if lo >= 0 else float(np.floor((lo - 0.02) * 20) / 20)
    x_hi = max(1.0, float(np.ceil((hi + 0.01) * 20) / 20))
    return x_lo, x_hi


def plot_heros(results: list[HerosModelResult], path: Path, *, title: str | None = None) -> Path:
    """Grouped horizontal bar chart (paper Figure 1): one group per model, one bar per subset.

    Models run top to bottom in the given order; the x axis (normalised cosine) is shared; the
    figure grows with the number of models, so 2 and 30 models are both readable.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    import numpy as np

    if not results:
        raise InputError("nothing to plot: no HEROS results.")
    path = figure_file(path, what="chart file")
    n_models, n_sub = len(results), len(SUBSETS)
    bar = 0.8 / n_sub
    group_h = 0.1 * n_sub + 0.2  # inches per model group
    height = max(3.4, 1.9 + group_h * n_models)
    longest = max(len(r.model) for r in results)
    width = 8.5 + min(longest, 60) * 0.065
    values = [v for r in results for v in r.normalized.values()]
    x_lo, x_hi = heros_x_limits(values)

    colors = plt.get_cmap("tab10").colors  # type: ignore[attr-defined]  # a ListedColormap
    long_chart = n_models > 12
    header_in = 0.9  # title + legend above the axes
    footer_in = 0.55 if long_chart else 0.0  # repeated legend below long charts
    fig, ax = plt.subplots(figsize=(width, height + footer_in))
    total = height + footer_in
    centers = np.arange(n_models)
    handles: list[Any] = []

    for j, subset in enumerate(SUBSETS):
        ys = centers - 0.4 + bar * (j + 0.5)
        xs = np.array([r.normalized.get(subset, np.nan) for r in results], dtype=float)
        handles.append(
            ax.barh(
                ys,
                np.nan_to_num(xs, nan=0.0),
                left=0.0,
                height=bar * 0.92,
                color=colors[j % len(colors)],
                label=SUBSET_LABELS[subset],
            )
        )  # bars start at 0: their lengths are the values, differences are not exaggerated
    ax.set_yticks(centers)
    ax.set_yticklabels([r.model for r in results], fontsize=9)
    ax.set_ylim(n_models - 0.5, -0.5)  # first model at the top
    ax.set_xlim(x_lo, x_hi)
    if x_lo < 0:
        ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("normalised cosine similarity, (cos − cos_avg) / (1 − cos_avg)")
    ax.xaxis.grid(True, linestyle=":", alpha=0.7)
    ax.set_axisbelow(True)
    for k in range(1, n_models):
        ax.axhline(k - 0.5, color="0.85", linewidth=0.6)
    ax.tick_params(axis="x", top=long_chart, labeltop=long_chart)  # long charts: x labels on top too
    fig.tight_layout(rect=(0, footer_in / total, 1, 1 - header_in / total))
    labels = [SUBSET_LABELS[s] for s in SUBSETS]
    fig.suptitle(
        title or f"HEROS: normalised cosine per subset ({n_models} model{'s' if n_models != 1 else ''})",
        y=1 - 0.12 / total,
        va="top",
    )
    fig.legend(
        handles, labels, loc="upper center", bbox_to_anchor=(0.5, 1 - 0.45 / total), ncol=6, fontsize=9, frameon=False
    )
    if long_chart:
        fig.legend(
            handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.05 / total), ncol=6, fontsize=9, frameon=False
        )
    try:
        with atomic_target(path) as tmp:  # whole or not at all; a symlink at PATH is replaced, not written through
            fig.savefig(tmp, dpi=110, bbox_inches="tight", format=path.suffix[1:].lower())
    finally:
        plt.close(fig)
    return path
