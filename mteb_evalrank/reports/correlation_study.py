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

**Outputs** (plain arguments, no MTEB): :func:`write_csv` here; the Markdown in
:mod:`mteb_evalrank.reports.correlation_rendering` (``format_markdown``: rows intrinsic, columns downstream,
best of each column **bold**, second <u>underlined</u>, n per cell; ``format_comparisons``, ``format_noise``);
the figures in :mod:`mteb_evalrank.reports.correlation_figures` (``plot_heatmap``, ``plot_ranks``: the paper's
Figure 4).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.rank_correlation import spearman_with_ci
from mteb_evalrank.metrics.sampling_error import NOISE_RATIO_MIN
from mteb_evalrank.reports.correlation_figures import plot_heatmap, plot_ranks
from mteb_evalrank.reports.correlation_rendering import format_comparisons, format_markdown, format_noise

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
    is_primary,
    is_score_table,
    open_score_source,
    read_results_folder,
    read_score,
    read_score_table,
    read_standard_error,
    score_matrix,
    table_scores,
)

#: every column of :func:`correlation_table`, in order
TABLE_COLUMNS = [
    "intrinsic",
    "downstream",
    "rho",
    "ci_low",
    "ci_high",
    "kendall_tau",
    "n_models",
    "n_families",
    "rho_partial_family",
    "partial_note",
    "cluster_ci_low",
    "cluster_ci_high",
    "cluster_note",
    "primary",
    "n_dropped",
    "n_resamples",
    "note",
]

CSV_COLUMNS = [
    "intrinsic",
    "downstream",
    "primary",
    "rho",
    "ci_low",
    "ci_high",
    "kendall_tau",
    "n_models",
    "n_families",
    "rho_partial_family",
    "partial_note",
    "cluster_ci_low",
    "cluster_ci_high",
    "note",
]


# --- families ------------------------------------------------------------------------------------------
def _zoo_base_name(model: str) -> str | None:
    """The base of a zoo model name (either form), else ``None`` (the zoo's catalogue parses the name)."""
    from mteb_evalrank.zoo.adapter import base_of_name

    return base_of_name(model)


def zoo_family(model: str) -> str | None:
    """The checkpoint family of a zoo model name (``zoo/<base>__<variant>``), else ``None``.

    A base's family is its ``family`` (bases sharing trained weights, e.g. an int8 copy) or its own name.
    """
    base = _zoo_base_name(model)
    if base is None:
        return None
    from mteb_evalrank.zoo.adapter import BASES

    return BASES[base].family_name if base in BASES else base


def read_families_csv(path: str | Path) -> dict[str, str]:
    """``model,family`` rows (a header row starting ``model,family`` is required) → {model: family}."""
    return {m: g["family"] for m, g in read_groups_csv(path).items()}


def read_groups_csv(path: str | Path) -> dict[str, dict[str, str]]:
    """A ``--families`` file: header ``model,family`` then optionally ``lineage`` and ``floor`` columns (as
    the study's ``population.csv`` has) → {model: {"family": …, "lineage": …, "floor": …}}.

    Read strictly (:func:`mteb_evalrank.data.tables.read_strict_table`): a repeated model, a row with
    too few or too many cells, a repeated column, an empty family or a ``floor`` that is not true/false is an
    error naming the line."""
    from mteb_evalrank.data.files import special_file_kind
    from mteb_evalrank.data.tables import parse_bool_cell, read_strict_table

    path = Path(path)
    if special_file_kind(path) == "does not exist":
        raise InputError(f"--families {path}: no such file (expected a CSV with the header model,family).")
    table = read_strict_table(path, what="--families file", key="model", index_name="model")
    header = [h.lower() for h in table.header]
    if header[:2] != ["model", "family"]:
        raise InputError(
            f"--families {path}: the first row must be the header 'model,family' (found: {','.join(table.header)})."
        )
    extra = {name: header.index(name) for name in ("lineage", "floor") if name in header}
    out: dict[str, dict[str, str]] = {}
    for line, row in table.rows:
        if not row[1]:
            raise InputError(f"--families {path}, line {line}: empty family for model {row[0]!r}.")
        entry = {"family": row[1]}
        for name, col in extra.items():
            if row[col]:
                entry[name] = row[col]
        if "floor" in entry:
            floor = parse_bool_cell(entry["floor"], path=path, what="--families file", line=line, column="floor")
            entry["floor"] = str(floor).lower()
        out[row[0]] = entry
    _refuse_twin_families(path, [e["family"] for e in out.values()])
    return out


def _refuse_twin_families(path: Path, families: Sequence[str]) -> None:
    """Two family names that print alike (NFC and NFD spellings of one name) would be two families of one: an
    error naming both (the one name normaliser, :func:`mteb_evalrank.names.name_key`)."""
    from mteb_evalrank.names import first_twin, spelled

    twins = first_twin(families, casefold=False)
    if twins is not None:
        other, family = twins
        raise InputError(
            f"--families {path}: families {spelled(other)} and {spelled(family)} are one name under Unicode "
            "normalisation (NFC) spelled two ways; spell them alike (or name two families differently)."
        )


def _check_families_models(path: str | Path, named: Sequence[str], models: Sequence[str]) -> None:
    """The models of a ``--families`` file against those with scores: none in common is an error (a file for
    another study, or names spelled another way); some not among them is a warning naming them."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    known = set(models)
    unknown = [m for m in named if m not in known]
    listed = set(named)
    missing = [str(m) for m in models if m not in listed and zoo_family(m) is None]
    if missing and len(unknown) < len(named):
        warnings.warn(
            EvalRankWarning(
                f"--families {path} gives no family for {len(missing)} of the {len(models)} models with scores "
                f"({', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''}); each of them is its own family."
            ),
            stacklevel=3,
        )
    if not unknown:
        return
    shown = ", ".join(repr(m) for m in unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
    folded = {m.casefold(): m for m in models}
    case = next((f" ({m!r} is {folded[m.casefold()]!r} there)" for m in unknown if m.casefold() in folded), "")
    if len(unknown) == len(named):
        raise InputError(
            f"--families {path} names none of the {len(known)} models with scores ({shown}){case}; give the "
            "families of these models, spelled as in the results."
        )
    warnings.warn(
        EvalRankWarning(
            f"--families {path}: {len(unknown)} model(s) have no scores here and are ignored: {shown}{case}"
        ),
        stacklevel=3,
    )


def model_lineages(
    models: Sequence[str], families: Mapping[str, str], *, groups: Mapping[str, Mapping[str, str]] | None = None
) -> tuple[dict[str, str], dict[str, bool]]:
    """Each model's lineage and whether it is a random floor: an explicit ``lineage``/``floor`` (a
    ``--families`` file or score-table column) first, then the zoo's (each base's ``lineage`` in
    ``zoo/catalogue.json``, reasons in ``models/lineages.json``), else the lineage is the model's family
    and it is not a floor."""
    from mteb_evalrank.models.lineage import lineage_of

    lineages, floors = {}, {}
    for m in models:
        g = (groups or {}).get(m, {})
        zoo = zoo_family(m)
        lineages[m] = g.get("lineage") or (lineage_of(zoo)[0] if zoo else families.get(m, str(m)))
        floor: Any = g.get("floor")
        if floor is None and zoo is not None:
            from mteb_evalrank.zoo.adapter import BASES

            base_name = _zoo_base_name(m)
            base = BASES.get(base_name) if base_name is not None else None

            floor = bool(base is not None and base.floor)
        floors[m] = str(floor).strip().lower() in ("true", "1", "yes")
    return lineages, floors


def model_families(
    models: Sequence[str], *, families: Mapping[str, str] | str | Path | None = None, family_regex: str | None = None
) -> dict[str, str]:
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
            raise InputError(
                f"--family-regex {family_regex!r} needs a group: the family is its first group, e.g. '^(.*?)__' ."
            )
    out: dict[str, str] = {}
    unmatched: list[str] = []
    for m in models:
        family = explicit.get(m) or zoo_family(m)
        if family is None and pattern is not None:
            match = pattern.search(str(m))
            family = match.group(1) if match and match.group(1) else None
            if family is None:
                unmatched.append(str(m))
        out[m] = family or str(m)
    _check_families(out, models, unmatched, family_regex)
    return out


def _check_families(out: dict[str, str], models: Sequence[str], unmatched: list[str], family_regex: str | None) -> None:
    """What the family options did not do, said once: a ``--family-regex`` that matches no model is refused; one
    family for every model is a warning (a ``--families`` file without some models: :func:`_check_families_models`)."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning

    if family_regex is not None and models and len(unmatched) == len(models):
        raise InputError(
            f"--family-regex {family_regex!r} matches none of the {len(models)} models (e.g. {unmatched[0]!r}); "
            "each would be its own family."
        )
    if len(models) >= 3 and len(set(out.values())) == 1:
        warnings.warn(
            f"all {len(models)} models are in one family ({next(iter(out.values()))!r}): the family-aware "
            "statistics (one model per family, the family bootstrap) are undefined.",
            EvalRankWarning,
            stacklevel=3,
        )


# --- the correlation table ------------------------------------------------------------------------------
def correlation_table(
    scores: pd.DataFrame,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    families: Mapping[str, str] | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """One row per (intrinsic, downstream) cell from a models × scores matrix.

    Columns: ``rho`` and its model-level interval ``ci_low``/``ci_high``; ``kendall_tau``; ``n_models``,
    ``n_families``; the family-aware ``rho_partial_family`` (``partial_note`` when undefined) and the
    family-bootstrap interval ``cluster_ci_low``/``cluster_ci_high``; ``primary`` (a task's main score).
    ``families``: model → family (default: every model its own family)."""
    from mteb_evalrank.metrics.family_statistics import cluster_bootstrap_spearman, partial_spearman_family
    from mteb_evalrank.metrics.rank_correlation import check_bootstrap_size

    check_bootstrap_size(len(scores), n_resamples)  # up front: before the first cell, not in the middle
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
            rows.append(
                {
                    "intrinsic": i,
                    "downstream": d,
                    "rho": c.rho,
                    "ci_low": c.ci_low,
                    "ci_high": c.ci_high,
                    "kendall_tau": c.tau,
                    "n_models": c.n_models,
                    "n_families": n_fam,
                    "rho_partial_family": partial,
                    "partial_note": partial_note,
                    "cluster_ci_low": cl_low,
                    "cluster_ci_high": cl_high,
                    "cluster_note": cl_note,
                    "primary": is_primary(i),
                    "n_dropped": int(len(scores) - len(pair)),
                    "n_resamples": c.n_resamples,
                    "note": _name_constant(c.reason, pair, d, i),
                }
            )
    # the columns also when there is no cell (no intrinsic or no downstream score): every reader of the table
    # (the CSV, the Markdown, the figures, the study page) then says "no cell" instead of a KeyError
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def _name_constant(reason: str | None, pair: pd.DataFrame, downstream: str, intrinsic: str) -> str:
    """Say which score is constant (a constant downstream score makes its whole column undefined)."""
    if not reason or "constant" not in reason:
        return reason or ""
    for name in (downstream, intrinsic):
        if pair[name].nunique() == 1:
            return f"undefined: {name} is constant ({pair[name].iloc[0]:.4g}) across the {len(pair)} models"
    return reason


def _score_key(name: str) -> tuple[str, str | None, str]:
    """What a score name names: ``X`` and ``X:main_score`` are one score."""
    n = ScoreName.parse(name)
    return n.task, n.subset, n.metric or "main_score"


def _same_score(a: str, b: str) -> bool:
    """Whether two score names name one score: ``X`` and ``X:main_score``, and ``X`` and ``X:<the metric X's task
    declares as its main score>`` (``EvalRankSent`` and ``EvalRankSent:mrr``: MTEB's task metadata, not equal
    columns, decides, so two scores that happen to agree are not taken for one)."""
    ka, kb = _score_key(a), _score_key(b)
    if ka == kb:
        return True
    if ka[:2] != kb[:2] or "main_score" not in (ka[2], kb[2]):
        return False
    from mteb_evalrank.integration.task_lookup import main_score_name

    metric = kb[2] if ka[2] == "main_score" else ka[2]
    return main_score_name(ka[0]) == metric


def check_correlate_options(
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    *,
    compare: Sequence[tuple[str, str]] = (),
    claim: str | None = None,
    target: str | None = None,
) -> None:
    """The options of ``correlate`` that contradict each other or would be silently ignored, refused before any
    result is read: a score given twice on one side (also as ``X`` and ``X:main_score``), one score on both
    sides, ``--target`` without ``--claim``, a ``--compare`` pair of one score or of a score not in
    ``--intrinsic``."""
    for option, names in (("--intrinsic", intrinsic), ("--downstream", downstream)):
        seen: list[str] = []
        for name in names:
            if name != name.strip():  # ' EvalRankSent' named no column: a KeyError traceback
                raise InputError(f"{option} {name!r}: a score name has spaces around it; write {name.strip()!r}.")
            first = next((n for n in seen if _same_score(n, name)), None)
            if first is not None:
                same = f"{name} twice" if first == name else f"{first} and {name}, one score"
                raise InputError(f"{option} names {same}; give each score once.")
            seen.append(name)
    _refuse_one_score_on_both_sides(intrinsic, downstream)
    if target is not None and claim is None:
        raise InputError(
            f"--target {target} chooses the downstream score of --claim, and no --claim is given; add --claim "
            "SCORE, or drop --target."
        )
    for a, b in compare:
        outside = next((n for n in (a, b) if not any(_same_score(n, i) for i in intrinsic)), None)
        if outside is not None:
            raise InputError(
                f"--compare {a} {b}: {outside} is not one of the --intrinsic scores ({', '.join(intrinsic)}); "
                "a comparison is between two intrinsic scores given."
            )
        if _same_score(a, b):
            raise InputError(f"--compare {a} {b} compares a score with itself; give two different scores.")


def _refuse_one_score_on_both_sides(intrinsic: Sequence[str], downstream: Sequence[str]) -> None:
    """One score given on both sides, also under two names (``X`` and ``X:main_score``, or ``X`` and the metric
    its task declares as main score, ``EvalRankSent:mrr``: :func:`_same_score`), would correlate with itself
    (ρ = 100): :class:`InputError`.  Two scores whose columns are merely equal are not refused: that may be a
    coincidence."""
    both = [str(n) for n in dict.fromkeys(intrinsic) if n in set(downstream)]
    if both:
        raise InputError(
            f"{', '.join(both)} is given both as intrinsic and as downstream score; a score always ranks "
            "models as itself does: give different --intrinsic and --downstream scores."
        )

    for i in dict.fromkeys(intrinsic):
        for d in dict.fromkeys(downstream):
            if _same_score(i, d):
                raise InputError(
                    f"--intrinsic {i} and --downstream {d}: they name one score, and a score always ranks models "
                    "as itself does (ρ = 100): give different --intrinsic and --downstream scores."
                )


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
    _refuse_one_score_on_both_sides(intrinsic, downstream)
    names = list(dict.fromkeys([*intrinsic, *downstream]))
    folder = open_score_source(results)  # a results folder or a score table, read the same way
    scores = folder.matrix(names, revision_policy=revision_policy)
    groups = folder.groups
    in_table = any(g.get("family") for g in groups.values())
    if in_table and (families is not None or family_regex is not None):
        option = "--families" if families is not None else "--family-regex"
        raise InputError(
            f"score table {getattr(folder, 'path', results)} has a family column, and {option} gives the families "
            "too; give the families once (drop the option, or the column)."
        )
    if isinstance(families, (str, Path)):
        from_file = read_groups_csv(families)
        _check_families_models(families, list(from_file), list(scores.index))
        for m, g in from_file.items():
            groups[m] = {**groups.get(m, {}), **g}
        families = None
    explicit = {m: g["family"] for m, g in groups.items() if g.get("family")}
    explicit.update(dict(families or {}))
    fam = model_families(list(scores.index), families=explicit, family_regex=family_regex)
    lineages, floors = model_lineages(list(scores.index), fam, groups=groups)
    table = correlation_table(
        scores, list(intrinsic), list(downstream), families=fam, n_resamples=n_resamples, seed=seed
    )
    table.attrs["scores"] = scores
    table.attrs["families"] = fam
    table.attrs["lineages"] = lineages
    table.attrs["floors"] = floors
    return table


def decide_claim(
    scores: pd.DataFrame,
    claim: str,
    baselines: Sequence[str],
    target: str | Sequence[str],
    *,
    lineages: Mapping[str, str],
    floors: Mapping[str, bool] | None = None,
    alpha: float = 0.05,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Any:
    """``correlate --claim``: does ``claim`` predict ``target`` better than *every* baseline given?  The
    target is one downstream score, or the mean of several (models with all of them).  Random floors are
    left out; lineages are resampled whole (:func:`~mteb_evalrank.metrics.confirmatory.better_than_all`).
    Returns the :class:`~mteb_evalrank.reports.verdict.Finding` (``.line()`` is the printed line)."""
    from mteb_evalrank.metrics.confirmatory import better_than_all
    from mteb_evalrank.reports.verdict import better_than_all_finding

    if claim not in scores.columns:
        raise InputError(f"--claim {claim!r} is not one of the intrinsic scores ({', '.join(scores.columns)}).")
    if not is_primary(claim):
        raise InputError(
            f"--claim {claim!r} is an exploratory score (Task:metric or Task/subset); a claim is "
            "made for a task's main score."
        )
    baselines = [b for b in baselines if b != claim and is_primary(b)]
    if not baselines:
        raise InputError(
            f"--claim {claim} needs at least one other primary intrinsic score to compare with "
            "(give it in --intrinsic)."
        )
    targets = [target] if isinstance(target, str) else list(target)
    label = targets[0] if len(targets) == 1 else f"the mean of {', '.join(targets)}"
    part = scores[[claim, *baselines, *targets]].dropna()
    kept = [m for m in part.index if not (floors or {}).get(m, False)]
    part = part.loc[kept]
    if len(part) < 3:  # a rank correlation, let alone its bootstrap, needs models
        raise InputError(
            f"--claim {claim}: {len(part)} model(s) have {claim}, every baseline and {label} "
            "(random floors left out); the test needs at least 3."
        )
    y = part[targets].mean(axis=1).to_numpy()
    args = (
        part[claim].to_numpy(),
        {b: part[b].to_numpy() for b in baselines},
        y,
        [lineages.get(m, str(m)) for m in part.index],
    )
    test = better_than_all(*args, alpha=alpha, n_resamples=n_resamples, seed=seed)
    where = (
        f"{len(part)} models in {len({lineages.get(m, m) for m in part.index})} lineages"
        + (
            f" ({sum(bool(v) for v in (floors or {}).values())} random floors left out)"
            if floors and any(floors.values())
            else ""
        )
        + ". "
    )
    finding = better_than_all_finding(
        f"{claim} predicts {label} better than every other primary intrinsic score given",
        test,
        claim,
        label,
        baselines,
        alpha=alpha,
        n_claims=1,
        population=where,
    )
    per_model = better_than_all(
        *args, alpha=alpha, n_resamples=n_resamples, seed=seed, weighting="model", simulate_growth=False
    )
    if per_model.contrasts:
        worst = min(per_model.contrasts, key=lambda c: c.difference)
        line = (
            f"Sensitivity (exploratory, never deciding): the per-model ρ (each model one unit of weight, lineages "
            f"resampled whole): ρ({claim}) = {per_model.rho_claim:.1f}; smallest advantage {worst.difference:+.1f} "
            f"over {worst.baseline}; intersection-union p = {per_model.p_support:.3f}."
        )
        finding = dataclasses.replace(finding, sensitivity=line)
    return finding


def comparisons(
    scores: pd.DataFrame,
    pairs: Iterable[tuple[str, str]],
    downstream: Sequence[str],
    *,
    families: Mapping[str, str] | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
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
            c = compare_clustered(
                part[a].to_numpy(), part[b].to_numpy(), part[d].to_numpy(), fam, n_resamples=n_resamples, seed=seed
            )
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "downstream": d,
                    "difference": c.difference,
                    "ci_low": c.ci_low,
                    "ci_high": c.ci_high,
                    "se": c.se,
                    "p_value": c.p_value,
                    "n_models": c.n_models,
                    "n_families": c.n_families,
                    "note": c.reason or "",
                }
            )
    comp = pd.DataFrame(
        rows,
        columns=[
            "a",
            "b",
            "downstream",
            "difference",
            "ci_low",
            "ci_high",
            "se",
            "p_value",
            "n_models",
            "n_families",
            "note",
        ],
    )
    comp["q_bh"] = bh_q(comp["p_value"].to_numpy()) if len(comp) else []
    comp.attrs.update(n_resamples=n_resamples, seed=seed, alpha=alpha, n_comparisons=int(comp["p_value"].notna().sum()))
    return comp


def fair_comparisons(
    scores: pd.DataFrame,
    evalrank: Sequence[str],
    baselines: Sequence[str],
    downstream: Sequence[str],
    *,
    families: Mapping[str, str] | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Each EvalRank primary score against *every* primary baseline present, per downstream column
    (exploratory: unadjusted p and BH q; no baseline is singled out after looking)."""
    evalrank = [e for e in evalrank if e in scores.columns and is_primary(e)]
    baselines = [b for b in baselines if b in scores.columns and is_primary(b)]
    pairs = [(a, b) for a in evalrank for b in baselines]
    return comparisons(scores, pairs, downstream, families=families, n_resamples=n_resamples, seed=seed, alpha=alpha)


def write_csv(table: pd.DataFrame, path: str | Path) -> Path:
    """One row per cell (:data:`CSV_COLUMNS`): plain ρ with its model-level interval, the family-aware
    ``rho_partial_family`` and ``cluster_ci_low``/``cluster_ci_high``, ``n_models``, ``n_families``."""
    from mteb_evalrank.data.files import atomic_write_text

    return atomic_write_text(Path(path), table[CSV_COLUMNS].to_csv(index=False, float_format="%.4f"))


def noise_table(scores: pd.DataFrame, errors: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Per column: the spread of the score across models (sample std), the median standard error of a
    model's score, their ratio, and ``mostly_noise`` (ratio < :data:`NOISE_RATIO_MIN`); all × 100."""
    from mteb_evalrank.metrics.sampling_error import noise_ratio

    rows = []
    for c in columns:
        x = scores[c].dropna() if c in scores else pd.Series(dtype=float)
        se = errors[c].reindex(x.index).dropna() if c in errors else pd.Series(dtype=float)
        ratio = noise_ratio(x.to_numpy(), se.to_numpy())
        rows.append(
            {
                "score": c,
                "n_models": int(len(x)),
                "spread": float(x.std(ddof=1) * 100) if len(x) > 1 else float("nan"),
                "median_se": float(se.median() * 100) if len(se) else float("nan"),
                "ratio": ratio,
                "mostly_noise": bool(np.isfinite(ratio) and ratio < NOISE_RATIO_MIN),
            }
        )
    return pd.DataFrame(rows, columns=["score", "n_models", "spread", "median_se", "ratio", "mostly_noise"])


@dataclass
class CorrelateReport:
    """What ``mteb-evalrank correlate`` produced: the Markdown page, the files written, the warnings."""

    table: pd.DataFrame
    markdown: str
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    finding: Any = None  # the --claim Finding (reports.verdict.Finding), if one was asked for


@dataclass(frozen=True)
class CorrelateOptions:
    """The options of :func:`correlate_report` (``mteb-evalrank correlate``'s flags): outputs (``out``,
    ``csv``, ``plot``, ``rank_plot`` ordered by ``rank_by``), exploratory comparisons (``compare``,
    ``compare_all``), families and lineages (``families``, ``family_regex``), which revision to read, the
    bootstrap, and the confirmatory ``claim`` on ``target``."""

    out: str | Path | None = None
    csv: str | Path | None = None
    plot: str | Path | None = None
    rank_plot: str | Path | None = None
    rank_by: str | None = None
    compare: Sequence[tuple[str, str]] = ()
    compare_all: bool = False
    families: Mapping[str, str] | str | Path | None = None
    family_regex: str | None = None
    revision_policy: str = "newest"
    n_resamples: int = 1000
    seed: int = 0
    progress: bool = False
    claim: str | None = None
    target: str | None = None


def correlate_report(
    results: str | Path,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    options: CorrelateOptions | None = None,
) -> CorrelateReport:
    """``mteb-evalrank correlate``: the correlation table of a results folder *or a plain score table*
    (``.csv``/``.tsv``, :func:`read_score_table`) as Markdown (Tables 3/6 layout), optionally written to
    ``out``, ``csv``, a heatmap ``plot`` and a Figure 4 ``rank_plot`` (models ordered by ``rank_by``,
    default the first downstream score); the options are a :class:`CorrelateOptions`.

    ``claim``: the confirmatory test "``claim`` predicts the downstream mean (or ``target``) better than
    every other primary intrinsic score given" (:func:`decide_claim`); its Finding opens the page and is
    ``report.finding``.  ``compare`` / ``compare_all`` add exploratory paired comparisons (unadjusted p,
    Benjamini-Hochberg q).  Families: zoo names automatically, else ``families`` / ``family_regex`` (see
    :func:`model_families`); lineages and random floors from the same file's ``lineage`` / ``floor`` columns
    or the zoo's definitions."""
    o = options or CorrelateOptions()
    _check_correlate_options(intrinsic, downstream, o)
    table, scores, errors, notes = _read_correlation(results, intrinsic, downstream, o)
    _refuse_all_undefined(table)
    noise = noise_table(scores, errors, list(downstream))
    ratios = dict(zip(noise["score"], noise["ratio"]))
    fam = {m: table.attrs["families"].get(m, str(m)) for m in scores.index}
    n_fam = len(set(fam.values()))
    parts = [f"# Intrinsic vs downstream: Spearman ρ × 100 across {len(scores)} models in {n_fam} families", ""]
    finding = _claim_finding(table, scores, intrinsic, downstream, o)
    if finding is not None:
        parts += [
            "## Finding",
            "",
            "One claim, one test fixed in advance (docs/statistics.md); everything below is exploratory.",
            "",
            finding.line(),
            "",
        ]
        if finding.sensitivity:
            parts += [finding.sensitivity, ""]
    parts += [format_markdown(table, noise=ratios)]
    dropped = table[table["n_dropped"] > 0]
    if len(dropped):
        parts += [
            "",
            "Models without a score are dropped from that cell, never imputed: "
            + "; ".join(f"{r.intrinsic} × {r.downstream}: {r.n_dropped} dropped" for r in dropped.itertuples()),
        ]
    if n_fam < len(scores):
        groups: dict[str, list[str]] = {}
        for m, f in fam.items():
            groups.setdefault(f, []).append(m)
        parts += ["", "Families: " + "; ".join(f"{f} ({len(ms)})" for f, ms in sorted(groups.items()))]
    parts += _comparison_parts(table, scores, fam, intrinsic, downstream, o)
    parts += ["", "## Is each downstream score above its noise?", "", format_noise(noise)]
    if notes:
        parts += ["", "## Warnings", "", *[f"- {n}" for n in notes]]
    report = CorrelateReport(table, "\n".join(parts) + "\n", warnings=notes, finding=finding)
    _write_correlate_outputs(report, scores, intrinsic, downstream, o)
    return report


def _refuse_all_undefined(table: pd.DataFrame) -> None:
    """No cell has a correlation (2 models, a constant score): nothing was computed, so :class:`InputError` with
    the first cell's reason, not a page of undefined cells and exit 0."""
    if len(table) and not np.isfinite(table["rho"].to_numpy(dtype=float)).any():
        first = table.iloc[0]
        why = str(first.get("note") or "undefined").removeprefix("undefined: ")
        raise InputError(
            f"no correlation can be computed: {first['intrinsic']} × {first['downstream']}: {why}"
            + (f" (and {len(table) - 1} other cell(s))" if len(table) > 1 else "")
            + "; a rank correlation needs at least 3 models whose scores vary."
        )


def _check_correlate_options(intrinsic: Sequence[str], downstream: Sequence[str], o: CorrelateOptions) -> None:
    """The options' refusals, by name, before any result is read."""
    if o.rank_by is not None and o.rank_plot is None:
        raise InputError(
            f"--rank-by {o.rank_by} orders the rank plot, and no --rank-plot is given; add --rank-plot FILE."
        )
    if o.rank_by is not None and o.rank_by not in downstream:
        raise InputError(f"--rank-by {o.rank_by!r} is not one of the downstream scores ({', '.join(downstream)}).")
    if o.target is not None and o.target not in downstream:
        raise InputError(f"--target {o.target!r} is not one of the downstream scores ({', '.join(downstream)}).")
    if o.claim is not None and o.claim not in intrinsic:
        raise InputError(f"--claim {o.claim!r} is not one of the intrinsic scores ({', '.join(intrinsic)}).")
    if o.n_resamples < 100:
        raise InputError(f"use at least 100 bootstrap resamples for a 95% interval, got {o.n_resamples}.")
    check_correlate_options(intrinsic, downstream, compare=o.compare, claim=o.claim, target=o.target)


def _read_correlation(
    results: str | Path, intrinsic: Sequence[str], downstream: Sequence[str], o: CorrelateOptions
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, list[str]]:
    """The correlation table, the scores (with those ``compare`` names too), their standard errors and the
    warnings raised while reading."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        source = open_score_source(results, progress=o.progress)
        table = correlate(
            source,
            intrinsic,
            downstream,
            n_resamples=o.n_resamples,
            seed=o.seed,
            revision_policy=o.revision_policy,
            families=o.families,
            family_regex=o.family_regex,
        )
        scores = table.attrs["scores"]
        extra = [n for pair in o.compare for n in pair if n not in scores.columns]
        if extra:
            scores = scores.join(
                source.matrix(list(dict.fromkeys(extra)), revision_policy=o.revision_policy), how="outer"
            )
        errors = source.standard_errors(list(downstream), revision_policy=o.revision_policy)
    return table, scores, errors, list(dict.fromkeys(str(w.message) for w in caught))


def _claim_finding(
    table: pd.DataFrame, scores: pd.DataFrame, intrinsic: Sequence[str], downstream: Sequence[str], o: CorrelateOptions
) -> Any:
    """The ``--claim`` Finding (:func:`decide_claim`), or ``None`` without a claim."""
    if o.claim is None:
        return None
    return decide_claim(
        scores,
        o.claim,
        [i for i in intrinsic if i != o.claim],
        o.target or list(downstream),
        lineages=table.attrs["lineages"],
        floors=table.attrs["floors"],
        seed=o.seed,
        n_resamples=max(o.n_resamples, 2000),
    )


def _comparison_parts(
    table: pd.DataFrame,
    scores: pd.DataFrame,
    fam: Mapping[str, str],
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    o: CorrelateOptions,
) -> list[str]:
    """The exploratory paired comparisons (``compare``, ``compare_all``) as Markdown; stored in the table's
    ``attrs["comparisons"]``."""
    pairs = list(o.compare)
    if o.compare_all:
        evalrank = [i for i in intrinsic if is_primary(i) and str(i).startswith("EvalRank")]
        baselines = [i for i in intrinsic if is_primary(i) and not str(i).startswith("EvalRank")]
        pairs += [(a, b) for a in evalrank for b in baselines if (a, b) not in pairs]
        if not pairs:
            raise InputError("--compare-all needs an EvalRank score and at least one other primary intrinsic score.")
    if not pairs:
        return []
    lineages = table.attrs["lineages"]
    clusters = {m: lineages.get(m, fam[m]) for m in scores.index}
    if o.compare_all:
        comp = fair_comparisons(
            scores,
            list(dict.fromkeys(a for a, _ in pairs)),
            list(dict.fromkeys(b for _, b in pairs)),
            downstream,
            families=clusters,
            n_resamples=o.n_resamples,
            seed=o.seed,
        )
    else:
        comp = comparisons(scores, pairs, downstream, families=clusters, n_resamples=o.n_resamples, seed=o.seed)
    kind = "lineages resampled whole" if len(set(clusters.values())) < len(scores) else "models resampled"
    table.attrs["comparisons"] = comp
    return [
        "",
        f"## Exploratory paired comparisons (bootstrap, {kind}, {o.n_resamples} resamples, seed {o.seed})",
        "",
        format_comparisons(comp),
    ]


def _write_correlate_outputs(
    report: CorrelateReport,
    scores: pd.DataFrame,
    intrinsic: Sequence[str],
    downstream: Sequence[str],
    o: CorrelateOptions,
) -> None:
    """Write the page, the CSV and the figures asked for; each path written goes to ``report.written``."""
    if o.out is not None:
        from mteb_evalrank.data.files import atomic_write_text

        report.written.append(atomic_write_text(Path(o.out), report.markdown))
    if o.csv is not None:
        report.written.append(write_csv(report.table, o.csv))
    if o.plot is not None:
        report.written.append(plot_heatmap(report.table, o.plot))
    if o.rank_plot is not None:
        report.written.append(plot_ranks(scores, o.rank_by or downstream[0], list(intrinsic), o.rank_plot))
