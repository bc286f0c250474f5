"""Does an intrinsic score predict downstream quality?  Any MTEB results folder → EvalRank Tables 3/6.

:func:`correlate` reads a results folder (any tasks: this plugin's, MTEB's own such as ``STSBenchmark``,
SentEval results imported with ``mteb-evalrank import-senteval``), builds the models × scores matrix
and, for every (intrinsic, downstream) pair, computes Spearman's ρ × 100 across the models that have
both scores, a seeded bootstrap 95% interval over models and Kendall's τ
(:mod:`mteb_evalrank.metrics.rank_correlation`).  Models missing a score are dropped from that cell and
counted (``n_dropped``), never imputed.

Reading — score names, the revision policy, model names, score tables — is
:mod:`mteb_evalrank.reports.results_reader`, shared by every report; in short:

**Score names.** ``Task`` is the task's main score: the ``all`` subset when the task has one (this
plugin's EvalRank and STS12-16 tasks store their overall figure there), else MTEB's
``TaskResult.get_score()`` (the mean of the subsets' main scores).  ``Task:metric`` reads another
metric the same way; ``Task/subset`` and ``Task/subset:metric`` read one subset.  The split is the
first of ``test``, ``validation``, ``dev``, ``train`` present.

**One model, several revisions.** ``revision_policy``: ``newest`` (default: the revision whose result
file is newest, with a warning listing the others), ``oldest``, ``error``, or ``separate`` (each
revision is its own model, named ``name@revision``).

**Outputs** (plain arguments, no MTEB): :func:`format_markdown` (rows intrinsic, columns downstream,
best of each column **bold**, second <u>underlined</u>, n per cell), :func:`write_csv`,
:func:`plot_heatmap` and :func:`plot_ranks` (the paper's Figure 4).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.reports.figures import save_figure
from mteb_evalrank.metrics.rank_correlation import compare_predictors, spearman_with_ci

# Reading results folders and score tables (score names, revision policy, model names) is
# reports/results_reader.py, the reader every report shares; re-exported here for existing callers.
from mteb_evalrank.reports.results_reader import (  # noqa: F401
    GROUP_COLUMNS,
    REVISION_POLICIES,
    SPLIT_PREFERENCE,
    TABLE_SUFFIXES,
    ResultsFolder,
    ScoreName,
    ScoreSource,
    ScoreTable,
    available_names,
    is_score_table,
    open_score_source,
    read_results_folder,
    read_score,
    read_score_table,
    read_standard_error,
    score_matrix,
    table_scores,
)

CSV_COLUMNS = ["intrinsic", "downstream", "primary", "rho", "ci_low", "ci_high", "kendall_tau", "n_models", "n_families",
               "rho_partial_family", "partial_note", "cluster_ci_low", "cluster_ci_high", "note"]


# --- families ------------------------------------------------------------------------------------------
def _zoo_base_name(model: str) -> str | None:
    """The base of a zoo model name (``zoo/<base>__<variant>`` or ``zoo:<base>/<variant>``), else ``None``."""
    text = str(model)
    if not text.startswith(("zoo/", "zoo:")):
        return None
    body = text[4:]
    return body.split("__", 1)[0] if "__" in body else body.split("/", 1)[0]


def zoo_family(model: str) -> str | None:
    """The checkpoint family of a zoo model name (``zoo/<base>__<variant>``), else ``None``.

    A base's family is its ``family`` (bases sharing trained weights, e.g. an int8 copy) or its own name.
    """
    base = _zoo_base_name(model)
    if base is None:
        return None
    from mteb_evalrank.models.zoo import BASES

    return BASES[base].family_name if base in BASES else base


def read_families_csv(path: str | Path) -> dict[str, str]:
    """``model,family`` rows (a header row starting ``model,family`` is required) → {model: family}."""
    return {m: g["family"] for m, g in read_groups_csv(path).items()}


def read_groups_csv(path: str | Path) -> dict[str, dict[str, str]]:
    """A ``--families`` file: header ``model,family`` then optionally ``lineage`` and ``floor`` columns (as
    the study's ``population.csv`` has) → {model: {"family": …, "lineage": …, "floor": …}}."""
    import csv

    path = Path(path)
    if not path.is_file():
        raise InputError(f"--families {path}: no such file (expected a CSV with the header model,family).")
    import io

    from mteb_evalrank.data.files import read_text

    text = read_text(path, what="--families file")  # not UTF-8: the error names the line
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if header[:2] != ["model", "family"]:
        raise InputError(f"--families {path}: the first row must be the header 'model,family'.")
    extra = {name: header.index(name) for name in ("lineage", "floor") if name in header}
    out: dict[str, dict[str, str]] = {}
    for k, row in enumerate(rows[1:], start=2):
        if not row or not any(c.strip() for c in row):
            continue
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            raise InputError(f"--families {path}, line {k}: expected 'model,family', got {','.join(row)!r}.")
        entry = {"family": row[1].strip()}
        for name, col in extra.items():
            if col < len(row) and row[col].strip():
                entry[name] = row[col].strip()
        out[row[0].strip()] = entry
    return out


def model_lineages(models: Sequence[str], families: Mapping[str, str], *,
                   groups: Mapping[str, Mapping[str, str]] | None = None) -> tuple[dict[str, str], dict[str, bool]]:  # fmt: skip
    """Each model's lineage and whether it is a random floor: an explicit ``lineage``/``floor`` (a
    ``--families`` file or score-table column) first, then the zoo's (each base's ``lineage`` in
    ``models/catalogue.json``, reasons in ``models/lineages.json``), else the lineage is the model's family
    and it is not a floor."""
    from mteb_evalrank.models.lineage import lineage_of

    lineages, floors = {}, {}
    for m in models:
        g = (groups or {}).get(m, {})
        zoo = zoo_family(m)
        lineages[m] = g.get("lineage") or (lineage_of(zoo)[0] if zoo else families.get(m, str(m)))
        floor = g.get("floor")
        if floor is None and zoo is not None:
            from mteb_evalrank.models.zoo import BASES

            base = BASES.get(_zoo_base_name(m))
            floor = bool(base is not None and base.floor)
        floors[m] = str(floor).strip().lower() in ("true", "1", "yes")
    return lineages, floors


def model_families(models: Sequence[str], *, families: Mapping[str, str] | str | Path | None = None,
                   family_regex: str | None = None) -> dict[str, str]:  # fmt: skip
    """Each model's family: an explicit entry (``families``: a mapping or a ``model,family`` CSV) first,
    then the zoo's family of a zoo name, then the first group of ``family_regex``, else the model itself."""
    import re

    explicit = read_families_csv(families) if isinstance(families, (str, Path)) else dict(families or {})
    explicit = {m: f for m, f in explicit.items() if f}
    pattern = None
    if family_regex is not None:
        try:
            pattern = re.compile(family_regex)
        except re.error as exc:
            raise InputError(f"--family-regex {family_regex!r} is not a valid regular expression: {exc}.") from None
        if pattern.groups < 1:
            raise InputError(f"--family-regex {family_regex!r} needs a group: the family is its first group, "
                             "e.g. '^(.*?)__' .")  # fmt: skip
    out: dict[str, str] = {}
    for m in models:
        family = explicit.get(m) or zoo_family(m)
        if family is None and pattern is not None:
            match = pattern.search(str(m))
            family = match.group(1) if match and match.group(1) else None
        out[m] = family or str(m)
    return out


def is_primary(name: str) -> bool:
    """A task's main score (``Task``) is primary; ``Task:metric`` and ``Task/subset`` are exploratory."""
    return ":" not in str(name) and "/" not in str(name)


# --- the correlation table ------------------------------------------------------------------------------
def correlation_table(scores: pd.DataFrame, intrinsic: Sequence[str], downstream: Sequence[str], *,
                      families: Mapping[str, str] | None = None, n_resamples: int = 1000,
                      seed: int = 0) -> pd.DataFrame:  # fmt: skip
    """One row per (intrinsic, downstream) cell from a models × scores matrix.

    Columns: ``rho`` and its model-level interval ``ci_low``/``ci_high``; ``kendall_tau``; ``n_models``,
    ``n_families``; the family-aware ``rho_partial_family`` (``partial_note`` when undefined) and the
    family-bootstrap interval ``cluster_ci_low``/``cluster_ci_high``; ``primary`` (a task's main score).
    ``families``: model → family (default: every model its own family)."""
    from mteb_evalrank.metrics.family_statistics import cluster_bootstrap_spearman, partial_spearman_family

    rows = []
    for i in intrinsic:
        for d in downstream:
            pair = scores[[i, d]].dropna()
            fam = [(families or {}).get(m, str(m)) for m in pair.index]
            x, y = pair[i].to_numpy(), pair[d].to_numpy()
            c = spearman_with_ci(x, y, n_resamples=n_resamples, seed=seed)
            n_fam = len(set(fam))
            if c.defined:
                part = partial_spearman_family(x, y, fam)
                clus = cluster_bootstrap_spearman(x, y, fam, n_resamples=n_resamples, seed=seed)
                partial, partial_note = part.value, part.reason or ""
                cl_low, cl_high, cl_note = clus.ci_low, clus.ci_high, clus.reason or ""
            else:
                partial, partial_note, cl_low, cl_high, cl_note = float("nan"), "", float("nan"), float("nan"), ""
            rows.append({"intrinsic": i, "downstream": d, "rho": c.rho, "ci_low": c.ci_low, "ci_high": c.ci_high,
                         "kendall_tau": c.tau, "n_models": c.n_models, "n_families": n_fam,
                         "rho_partial_family": partial, "partial_note": partial_note,
                         "cluster_ci_low": cl_low, "cluster_ci_high": cl_high, "cluster_note": cl_note,
                         "primary": is_primary(i), "n_dropped": int(len(scores) - len(pair)),
                         "n_resamples": c.n_resamples, "note": _name_constant(c.reason, pair, d, i)})  # fmt: skip
    return pd.DataFrame(rows)


def _name_constant(reason: str | None, pair: pd.DataFrame, downstream: str, intrinsic: str) -> str:
    """Say which score is constant (a constant downstream score makes its whole column undefined)."""
    if not reason or "constant" not in reason:
        return reason or ""
    for name in (downstream, intrinsic):
        if pair[name].nunique() == 1:
            return f"undefined: {name} is constant ({pair[name].iloc[0]:.4g}) across the {len(pair)} models"
    return reason


def correlate(
    results: str | Path | ScoreSource,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    revision_policy: str = "newest",
    families: Mapping[str, str] | str | Path | None = None,
    family_regex: str | None = None,
) -> pd.DataFrame:
    """The study's table for a results folder: columns ``intrinsic, downstream, rho, ci_low, ci_high,
    kendall_tau, n_models, n_families, rho_partial_family, cluster_ci_low, cluster_ci_high, primary,
    n_dropped, n_resamples, note`` (ρ and intervals × 100; ``note`` says why a cell is undefined).
    Families: zoo names automatically, else ``families`` (mapping or ``model,family`` CSV) or the first
    group of ``family_regex``; otherwise each model is its own family.  ``table.attrs`` holds the models ×
    scores matrix (``scores``) and the families used (``families``)."""
    if not intrinsic or not downstream:
        raise InputError("give at least one intrinsic and one downstream score.")
    both = [str(n) for n in dict.fromkeys(intrinsic) if n in set(downstream)]
    if both:
        raise InputError(f"{', '.join(both)} is given both as intrinsic and as downstream score; a score always ranks "
                         "models as itself does: give different --intrinsic and --downstream scores.")  # fmt: skip
    names = list(dict.fromkeys([*intrinsic, *downstream]))
    folder = open_score_source(results)  # a results folder or a score table, read the same way
    scores = folder.matrix(names, revision_policy=revision_policy)
    groups = folder.groups
    if isinstance(families, (str, Path)):
        for m, g in read_groups_csv(families).items():
            groups[m] = {**groups.get(m, {}), **g}
        families = None
    explicit = {m: g["family"] for m, g in groups.items() if g.get("family")}
    explicit.update(dict(families or {}))
    fam = model_families(list(scores.index), families=explicit, family_regex=family_regex)
    lineages, floors = model_lineages(list(scores.index), fam, groups=groups)
    table = correlation_table(scores, list(intrinsic), list(downstream), families=fam, n_resamples=n_resamples,
                              seed=seed)  # fmt: skip
    table.attrs["scores"] = scores
    table.attrs["families"] = fam
    table.attrs["lineages"] = lineages
    table.attrs["floors"] = floors
    table.attrs["skipped"] = folder.skipped
    table.attrs["warnings"] = folder.warnings
    table.attrs["folder"] = folder
    return table


def decide_claim(scores: pd.DataFrame, claim: str, baselines: Sequence[str], target: str | Sequence[str], *,
                 lineages: Mapping[str, str], floors: Mapping[str, bool] | None = None, alpha: float = 0.05,
                 n_resamples: int = 2000, seed: int = 0) -> Any:  # fmt: skip
    """``correlate --claim``: does ``claim`` predict ``target`` better than *every* baseline given?  The
    target is one downstream score, or the mean of several (models with all of them).  Random floors are
    left out; lineages are resampled whole (:func:`~mteb_evalrank.metrics.confirmatory.better_than_all`).
    Returns the :class:`~mteb_evalrank.reports.verdict.Finding` (``.line()`` is the printed line)."""
    from mteb_evalrank.metrics.confirmatory import better_than_all
    from mteb_evalrank.reports.verdict import better_than_all_finding

    if claim not in scores.columns:
        raise InputError(f"--claim {claim!r} is not one of the intrinsic scores ({', '.join(scores.columns)}).")
    if not is_primary(claim):
        raise InputError(f"--claim {claim!r} is an exploratory score (Task:metric or Task/subset); a claim is "
                         "made for a task's main score.")  # fmt: skip
    baselines = [b for b in baselines if b != claim and is_primary(b)]
    if not baselines:
        raise InputError(f"--claim {claim} needs at least one other primary intrinsic score to compare with "
                         "(give it in --intrinsic).")  # fmt: skip
    targets = [target] if isinstance(target, str) else list(target)
    label = targets[0] if len(targets) == 1 else f"the mean of {', '.join(targets)}"
    part = scores[[claim, *baselines, *targets]].dropna()
    kept = [m for m in part.index if not (floors or {}).get(m, False)]
    part = part.loc[kept]
    y = part[targets].mean(axis=1).to_numpy()
    test = better_than_all(part[claim].to_numpy(), {b: part[b].to_numpy() for b in baselines}, y,
                           [lineages.get(m, str(m)) for m in part.index], alpha=alpha, n_resamples=n_resamples,
                           seed=seed)  # fmt: skip
    where = (f"{len(part)} models in {len(set(lineages.get(m, m) for m in part.index))} lineages"
             + (f" ({sum(bool(v) for v in (floors or {}).values())} random floors left out)" if floors and any(floors.values()) else "")
             + ". ")  # fmt: skip
    return better_than_all_finding(f"{claim} predicts {label} better than every other primary intrinsic score given",
                                   test, claim, label, baselines, alpha=alpha, n_claims=1, population=where)  # fmt: skip


def comparisons(scores: pd.DataFrame, pairs: Iterable[tuple[str, str]], downstream: Sequence[str], *,
                families: Mapping[str, str] | None = None, n_resamples: int = 1000, seed: int = 0,
                alpha: float = 0.05) -> pd.DataFrame:  # fmt: skip
    """Exploratory paired (cluster) bootstrap of ρ(a, d) − ρ(b, d) for each (a, b) and downstream d, on the
    models having all three; two-sided p (normal approximation with the bootstrap standard error) and the
    Benjamini-Hochberg ``q_bh`` across every row of the returned table.  These never decide a claim: the
    confirmatory tests are :mod:`mteb_evalrank.metrics.confirmatory`."""
    from mteb_evalrank.metrics.confirmatory import bh_q
    from mteb_evalrank.metrics.family_statistics import compare_clustered

    rows = []
    for a, b in pairs:
        for d in downstream:
            part = scores[[a, b, d]].dropna()
            fam = [(families or {}).get(m, str(m)) for m in part.index]
            c = compare_clustered(part[a].to_numpy(), part[b].to_numpy(), part[d].to_numpy(), fam,
                                  n_resamples=n_resamples, seed=seed)  # fmt: skip
            rows.append({"a": a, "b": b, "downstream": d, "difference": c.difference, "ci_low": c.ci_low,
                         "ci_high": c.ci_high, "se": c.se, "p_value": c.p_value, "n_models": c.n_models,
                         "n_families": c.n_families, "note": c.reason or ""})  # fmt: skip
    comp = pd.DataFrame(rows, columns=["a", "b", "downstream", "difference", "ci_low", "ci_high", "se", "p_value",
                                       "n_models", "n_families", "note"])  # fmt: skip
    comp["q_bh"] = bh_q(comp["p_value"].to_numpy()) if len(comp) else []
    comp.attrs.update(n_resamples=n_resamples, seed=seed, alpha=alpha, n_comparisons=int(comp["p_value"].notna().sum()))
    return comp


def fair_comparisons(scores: pd.DataFrame, evalrank: Sequence[str], baselines: Sequence[str],
                     downstream: Sequence[str], *, families: Mapping[str, str] | None = None,
                     n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:  # fmt: skip
    """Each EvalRank primary score against *every* primary baseline present, per downstream column
    (exploratory: unadjusted p and BH q; no baseline is singled out after looking)."""
    evalrank = [e for e in evalrank if e in scores.columns and is_primary(e)]
    baselines = [b for b in baselines if b in scores.columns and is_primary(b)]
    pairs = [(a, b) for a in evalrank for b in baselines]
    return comparisons(scores, pairs, downstream, families=families, n_resamples=n_resamples, seed=seed, alpha=alpha)


# --- outputs --------------------------------------------------------------------------------------------
def _fmt(value: float, digits: int) -> str:
    """``value`` rounded for display, without a negative zero (−0.4 → ``0``, not ``-0``)."""
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def _uses_cluster_interval(table: pd.DataFrame) -> bool:
    """The family interval is shown when some family has more than one model."""
    if not len(table) or "n_families" not in table:
        return False
    return bool(((table["n_families"] < table["n_models"]) & (table["n_families"] >= 2)).any())


def _cell_text(r: Any, cluster: bool) -> str:
    low, high = (r.cluster_ci_low, r.cluster_ci_high) if cluster else (r.ci_low, r.ci_high)
    interval = f"[{_fmt(low, 0)}, {_fmt(high, 0)}]" if np.isfinite(low) else "[–]"
    n_fam = getattr(r, "n_families", r.n_models)
    partial = getattr(r, "rho_partial_family", float("nan"))
    if np.isfinite(partial):
        extra = f"; partial {_fmt(partial, 1)}"
    else:
        extra = "; partial undefined" if cluster else ""
    return f"{interval} (n={r.n_models}, f={n_fam}{extra})"


def _block(table: pd.DataFrame, intrinsic: list[str], downstream: list[str], *, mark: bool, cluster: bool,
           noise: Mapping[str, float] | None) -> list[str]:  # fmt: skip
    cell = {(r.intrinsic, r.downstream): r for r in table.itertuples()}
    rank: dict[tuple[str, str], int] = {}
    if mark:
        for d in downstream:
            vals = sorted({round(cell[(i, d)].rho, 6) for i in intrinsic if cell[(i, d)].note == ""}, reverse=True)
            for i in intrinsic:
                r = cell[(i, d)]
                if r.note == "" and vals:
                    pos = vals.index(round(r.rho, 6))
                    if pos < 2:
                        rank[(i, d)] = pos
    heads = [f"{d} ⚠" if noise and noise.get(d, float("inf")) < NOISE_RATIO_MIN else d for d in downstream]
    lines = ["| intrinsic \\ downstream | " + " | ".join(heads) + " |", "|---|" + "---|" * len(downstream)]
    for i in intrinsic:
        cells = []
        for d in downstream:
            r = cell[(i, d)]
            if r.note:
                cells.append(f"{r.note} (n={r.n_models})")
                continue
            value = _fmt(r.rho, 1)
            value = {0: f"**{value}**", 1: f"<u>{value}</u>"}.get(rank.get((i, d), -1), value)
            cells.append(f"{value} {_cell_text(r, cluster)}")
        lines.append(f"| {i} | " + " | ".join(cells) + " |")
    return lines


#: a downstream column whose spread across models is below this many median standard errors is "mostly noise"
NOISE_RATIO_MIN = 2.0


def format_markdown(table: pd.DataFrame, *, noise: Mapping[str, float] | None = None) -> str:
    """EvalRank Tables 3/6 layout: rows intrinsic, columns downstream, ρ × 100 [95% interval] (n models,
    f families; partial ρ for family).  Primary rows (each task's main score) come first and per column
    the best primary ρ is **bold** and the second <u>underlined</u> (ties share the mark).  Exploratory rows
    (``Task:metric``, ``Task/subset``) follow in a separate block and are never marked.  The interval is
    the family bootstrap when some family has more than one model, else the model bootstrap.  ``noise``:
    downstream column → spread / median standard error; columns below 2 are marked ⚠."""
    intrinsic = list(dict.fromkeys(table["intrinsic"]))
    downstream = list(dict.fromkeys(table["downstream"]))
    primary_of = {r.intrinsic: bool(getattr(r, "primary", is_primary(r.intrinsic))) for r in table.itertuples()}
    primary = [i for i in intrinsic if primary_of[i]]
    exploratory = [i for i in intrinsic if not primary_of[i]]
    cluster = _uses_cluster_interval(table)
    lines: list[str] = []
    if primary:
        lines += _block(table, primary, downstream, mark=True, cluster=cluster, noise=noise)
    if exploratory:
        if lines:
            lines += ["", "**Exploratory scores** (other metrics and subsets of the same tasks; not fixed in advance, "
                      "so never marked best and never used by the comparisons):", ""]  # fmt: skip
        lines += _block(table, exploratory, downstream, mark=False, cluster=cluster, noise=noise)
    n = int(table["n_resamples"].iloc[0]) if "n_resamples" in table and len(table) else 0
    kind = ("family bootstrap: whole families resampled" if cluster else "bootstrap over models")
    legend = (f"Spearman's ρ × 100 across models; [95% percentile interval, {kind}, {n} resamples]; n = models with "
              "both scores, f = families; partial = Spearman partial correlation controlling for family (ranks "
              "minus the family's mean rank), shown when ≥ 2 families have ≥ 2 models. Best primary ρ per column "
              "**bold**, second <u>underlined</u>.")  # fmt: skip
    if noise and any(v < NOISE_RATIO_MIN for v in noise.values()):
        legend += (f" ⚠ = mostly noise: the column's spread across models is below {NOISE_RATIO_MIN:g} median "
                   "standard errors of a model's score.")  # fmt: skip
    lines += ["", legend]
    return "\n".join(lines)


def write_csv(table: pd.DataFrame, path: str | Path) -> Path:
    """One row per cell (:data:`CSV_COLUMNS`): plain ρ with its model-level interval, the family-aware
    ``rho_partial_family`` and ``cluster_ci_low``/``cluster_ci_high``, ``n_models``, ``n_families``."""
    from mteb_evalrank.data.files import atomic_write_text

    return atomic_write_text(Path(path), table[CSV_COLUMNS].to_csv(index=False, float_format="%.4f"))


def plot_heatmap(table: pd.DataFrame, path: str | Path, *, title: str | None = None) -> Path:
    """ρ × 100 as a diverging heatmap (rows intrinsic, columns downstream), values printed in cells."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = table.pivot(index="intrinsic", columns="downstream", values="rho")
    grid = grid.loc[list(dict.fromkeys(table["intrinsic"])), list(dict.fromkeys(table["downstream"]))]
    rows, cols = grid.shape
    fig, ax = plt.subplots(figsize=(min(max(6, 1.0 * cols + 3), 40), min(max(3, 0.45 * rows + 2), 40)))
    im = ax.imshow(grid.to_numpy(dtype=float), cmap="RdBu", vmin=-100, vmax=100, aspect="auto")
    ax.set_xticks(range(cols), grid.columns, rotation=40, ha="right", fontsize=8 if cols > 20 else 10)
    ax.set_yticks(range(rows), grid.index, fontsize=8 if rows > 20 else 10)
    if rows * cols <= 400:
        for (r, c), v in np.ndenumerate(grid.to_numpy(dtype=float)):
            ax.text(c, r, "–" if np.isnan(v) else _fmt(v, 0), ha="center", va="center", fontsize=8,
                    color="white" if not np.isnan(v) and abs(v) > 60 else "black")  # fmt: skip
    n = int(table["n_models"].max()) if len(table) else 0
    ax.set_title(title or f"Spearman ρ×100 across {n} models\n(rows: intrinsic scores; columns: downstream; – undefined)",
                 fontsize=10)  # fmt: skip
    fig.colorbar(im, ax=ax, label="ρ × 100")
    return save_figure(fig, path)


def plot_ranks(scores: pd.DataFrame, downstream: str, intrinsic: Sequence[str], path: str | Path) -> Path:
    """EvalRank Figure 4: models ordered by ``downstream`` (x), each intrinsic score's rank of them (y).

    A perfect predictor puts its dots on the diagonal.  At most about 40 model names label the x axis
    (every k-th model beyond 40) and the figure widens up to a cap, so it stays readable for hundreds
    of models.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [c for c in intrinsic if c in scores.columns]
    part = scores[[downstream, *cols]].dropna(subset=[downstream])
    part = part.sort_values(downstream, ascending=False)
    n = len(part)
    if n == 0:
        raise InputError(f"no model has the downstream score {downstream!r}.")
    import textwrap

    x = np.arange(1, n + 1)
    width = min(max(7, 0.25 * n + 3), 30)
    fig, ax = plt.subplots(figsize=(width, 6))
    ax.plot(x, x, color="black", lw=1, label=f"{downstream} (reference)")
    markers = "osD^v<>ph*"
    # two scores that rank a model alike would hide each other's markers: each score's dots sit at its own
    # fixed horizontal offset from the model's position (within ±0.3 of a model), so every series shows
    step = min(0.25, 0.6 / max(len(cols) - 1, 1))
    for k, c in enumerate(cols):
        valid = part[c].notna().to_numpy()
        ranks = part[c].rank(ascending=False, method="average").to_numpy()
        dodge = (k - (len(cols) - 1) / 2) * step
        ax.scatter(x[valid] + dodge, ranks[valid], s=max(8, 40 - n // 5), marker=markers[k % len(markers)],
                   alpha=0.75, label=c)  # fmt: skip
    ax.set_xlabel(f"models ranked by {downstream} (1 = best)")
    ax.set_ylabel("rank of the model under the intrinsic score")
    ax.invert_yaxis()
    step = max(1, math.ceil(n / 40))  # at most ~40 model names on the axis, whatever the number of models
    shown = x[::step]
    ax.set_xticks(shown, [str(m).removeprefix("zoo/") for m in part.index[::step]], rotation=70, ha="right",
                  fontsize=7)  # fmt: skip
    if step > 1:
        ax.set_xlabel(f"models ranked by {downstream} (1 = best; every {step}th model named)")
    question, hint = f"Do intrinsic scores rank {n} models as {downstream} does?", "(dots on the line = yes)"
    # wrapped to the axes' width (the legend takes the right of the figure): a one-line title of a narrow
    # figure ran past its left edge and was clipped
    chars = max(28, int((width - 2.5) * 12))
    title = f"{question} {hint}"
    ax.set_title(title if len(title) <= chars else "\n".join([*textwrap.wrap(question, chars), hint]), fontsize=11)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save_figure(fig, path)


def format_comparisons(comp: pd.DataFrame) -> str:
    """Markdown table of exploratory paired comparisons: ρ(A) − ρ(B) × 100 [95% interval], unadjusted p,
    Benjamini-Hochberg q, n models and clusters.  No row is a verdict."""
    lines = ["| A | B | downstream | ρ(A) − ρ(B) | 95% interval | p | q (BH) | n, clusters |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in comp.itertuples():
        if r.note:
            lines.append(f"| {r.a} | {r.b} | {r.downstream} | – | – | – | – | {r.n_models} ({r.note}) |")
            continue
        lines.append(f"| {r.a} | {r.b} | {r.downstream} | {r.difference:+.1f} | [{r.ci_low:+.1f}, {r.ci_high:+.1f}] "
                     f"| {_p(r.p_value)} | {_p(r.q_bh)} | {r.n_models}, {r.n_families} |")  # fmt: skip
    n = comp.attrs.get("n_comparisons", len(comp))
    lines += ["", f"Exploratory. p: two-sided, normal approximation with the bootstrap standard error of the difference; "
              f"q: Benjamini-Hochberg over the {n} comparisons of this table. These rows never decide a claim: the "
              "confirmatory tests are in the Findings (`--claim`)."]  # fmt: skip
    return "\n".join(lines)


def _p(p: float) -> str:
    if not np.isfinite(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def noise_table(scores: pd.DataFrame, errors: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Per column: the spread of the score across models (sample std), the median standard error of a
    model's score, their ratio, and ``mostly_noise`` (ratio < :data:`NOISE_RATIO_MIN`); all × 100."""
    from mteb_evalrank.metrics.sampling_error import noise_ratio

    rows = []
    for c in columns:
        x = scores[c].dropna() if c in scores else pd.Series(dtype=float)
        se = errors[c].reindex(x.index).dropna() if c in errors else pd.Series(dtype=float)
        ratio = noise_ratio(x.to_numpy(), se.to_numpy())
        rows.append({"score": c, "n_models": int(len(x)), "spread": float(x.std(ddof=1) * 100) if len(x) > 1 else float("nan"),
                     "median_se": float(se.median() * 100) if len(se) else float("nan"), "ratio": ratio,
                     "mostly_noise": bool(np.isfinite(ratio) and ratio < NOISE_RATIO_MIN)})  # fmt: skip
    return pd.DataFrame(rows, columns=["score", "n_models", "spread", "median_se", "ratio", "mostly_noise"])


def format_noise(noise: pd.DataFrame) -> str:
    """Markdown of :func:`noise_table`."""
    lines = ["| score | models | spread across models (std, points) | median standard error (points) | ratio | |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for r in noise.itertuples():
        flag = "⚠ mostly noise" if r.mostly_noise else ("no standard error stored" if not np.isfinite(r.ratio) else "")
        lines.append(f"| {r.score} | {r.n_models} | {r.spread:.2f} | {r.median_se:.2f} | "
                     f"{'–' if not np.isfinite(r.ratio) else f'{r.ratio:.1f}'} | {flag} |")  # fmt: skip
    lines += ["", "Standard errors: accuracy binomial over the test items; STS Spearman by Fieller's approximation "
              "(1 − ρ²)·√(1.06 / (n − 3)); EvalRank MRR bounded by √(m(1 − m) / (pairs / 2)); a mean of sub-scores "
              "√(Σ se²) / k. A column whose spread is below "
              f"{NOISE_RATIO_MIN:g} median standard errors cannot rank models and is marked ⚠."]  # fmt: skip
    return "\n".join(lines)


@dataclass
class CorrelateReport:
    """What ``mteb-evalrank correlate`` produced: the Markdown page, the files written, the warnings."""

    table: pd.DataFrame
    markdown: str
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    finding: Any = None  # the --claim Finding (reports.verdict.Finding), if one was asked for


def correlate_report(
    results: str | Path,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    out: str | Path | None = None,
    csv: str | Path | None = None,
    plot: str | Path | None = None,
    rank_plot: str | Path | None = None,
    rank_by: str | None = None,
    compare: Sequence[tuple[str, str]] = (),
    compare_all: bool = False,
    families: Mapping[str, str] | str | Path | None = None,
    family_regex: str | None = None,
    revision_policy: str = "newest",
    n_resamples: int = 1000,
    seed: int = 0,
    progress: bool = False,
    claim: str | None = None,
    target: str | None = None,
) -> CorrelateReport:
    """``mteb-evalrank correlate``: the correlation table of a results folder *or a plain score table*
    (``.csv``/``.tsv``, :func:`read_score_table`) as Markdown (Tables 3/6 layout), optionally written to
    ``out``, ``csv``, a heatmap ``plot`` and a Figure 4 ``rank_plot`` (models ordered by ``rank_by``,
    default the first downstream score).

    ``claim``: the confirmatory test "``claim`` predicts the downstream mean (or ``target``) better than
    every other primary intrinsic score given" (:func:`decide_claim`); its Finding opens the page and is
    ``report.finding``.  ``compare`` / ``compare_all`` add exploratory paired comparisons (unadjusted p,
    Benjamini-Hochberg q).  Families: zoo names automatically, else ``families`` / ``family_regex`` (see
    :func:`model_families`); lineages and random floors from the same file's ``lineage`` / ``floor`` columns
    or the zoo's definitions."""
    if rank_by is not None and rank_by not in downstream:
        raise InputError(f"--rank-by {rank_by!r} is not one of the downstream scores ({', '.join(downstream)}).")
    if target is not None and target not in downstream:
        raise InputError(f"--target {target!r} is not one of the downstream scores ({', '.join(downstream)}).")
    if claim is not None and claim not in intrinsic:
        raise InputError(f"--claim {claim!r} is not one of the intrinsic scores ({', '.join(intrinsic)}).")
    if n_resamples < 100:
        raise InputError(f"use at least 100 bootstrap resamples for a 95% interval, got {n_resamples}.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        source = open_score_source(results, progress=progress)
        table = correlate(source, intrinsic, downstream, n_resamples=n_resamples, seed=seed,
                          revision_policy=revision_policy, families=families, family_regex=family_regex)  # fmt: skip
        scores = table.attrs["scores"]
        extra = [n for pair in compare for n in pair if n not in scores.columns]
        if extra:
            scores = scores.join(source.matrix(list(dict.fromkeys(extra)), revision_policy=revision_policy), how="outer")
        fam = {m: table.attrs["families"].get(m, str(m)) for m in scores.index}
        errors = source.standard_errors(list(downstream), revision_policy=revision_policy)
    notes = list(dict.fromkeys(str(w.message) for w in caught))
    noise = noise_table(scores, errors, list(downstream))
    ratios = dict(zip(noise["score"], noise["ratio"]))
    n_fam = len(set(fam.values()))
    lineages = table.attrs["lineages"]
    finding = None
    parts = [f"# Intrinsic vs downstream: Spearman ρ × 100 across {len(scores)} models in {n_fam} families", ""]
    if claim is not None:
        finding = decide_claim(scores, claim, [i for i in intrinsic if i != claim], target or list(downstream),
                               lineages=lineages, floors=table.attrs["floors"], seed=seed,
                               n_resamples=max(n_resamples, 2000))  # fmt: skip
        parts += ["## Finding", "", "One claim, one test fixed in advance (docs/statistics.md); everything below is "
                  "exploratory.", "", finding.line(), ""]  # fmt: skip
    parts += [format_markdown(table, noise=ratios)]
    dropped = table[table["n_dropped"] > 0]
    if len(dropped):
        parts += ["", "Models without a score are dropped from that cell, never imputed: "
                  + "; ".join(f"{r.intrinsic} × {r.downstream}: {r.n_dropped} dropped" for r in dropped.itertuples())]  # fmt: skip
    if n_fam < len(scores):
        groups: dict[str, list[str]] = {}
        for m, f in fam.items():
            groups.setdefault(f, []).append(m)
        parts += ["", "Families: " + "; ".join(f"{f} ({len(ms)})" for f, ms in sorted(groups.items()))]
    pairs = list(compare)
    if compare_all:
        evalrank = [i for i in intrinsic if is_primary(i) and str(i).startswith("EvalRank")]
        baselines = [i for i in intrinsic if is_primary(i) and not str(i).startswith("EvalRank")]
        pairs += [(a, b) for a in evalrank for b in baselines if (a, b) not in pairs]
        if not pairs:
            raise InputError("--compare-all needs an EvalRank score and at least one other primary intrinsic score.")
    if pairs:
        clusters = {m: lineages.get(m, fam[m]) for m in scores.index}
        if compare_all:
            comp = fair_comparisons(scores, list(dict.fromkeys(a for a, _ in pairs)),
                                    list(dict.fromkeys(b for _, b in pairs)), downstream, families=clusters,
                                    n_resamples=n_resamples, seed=seed)  # fmt: skip
        else:
            comp = comparisons(scores, pairs, downstream, families=clusters, n_resamples=n_resamples, seed=seed)
        kind = "lineages resampled whole" if len(set(clusters.values())) < len(scores) else "models resampled"
        parts += ["", f"## Exploratory paired comparisons (bootstrap, {kind}, {n_resamples} resamples, seed {seed})",
                  "", format_comparisons(comp)]  # fmt: skip
        table.attrs["comparisons"] = comp
    parts += ["", "## Is each downstream score above its noise?", "", format_noise(noise)]
    if notes:
        parts += ["", "## Warnings", "", *[f"- {n}" for n in notes]]
    report = CorrelateReport(table, "\n".join(parts) + "\n", warnings=notes, finding=finding)
    if out is not None:
        from mteb_evalrank.data.files import atomic_write_text

        report.written.append(atomic_write_text(Path(out), report.markdown))
    if csv is not None:
        report.written.append(write_csv(table, csv))
    if plot is not None:
        report.written.append(plot_heatmap(table, plot))
    if rank_plot is not None:
        report.written.append(plot_ranks(scores, rank_by or downstream[0], list(intrinsic), rank_plot))
    return report
