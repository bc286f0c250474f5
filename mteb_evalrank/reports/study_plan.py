"""``study --models FILE --plan``: what a model list could decide, before any GPU-hour is spent.

No model is loaded and no result is read.  The planner takes the list's lineage count and draws populations of
that many lineages with replacement from the committed study's lineages (:data:`COMMITTED_TABLE`: the
confirmatory models of ``docs/study`` with their lineage, the claim's score, the baselines named in advance
and the downstream mean; :func:`committed_study_table` derives it from ``docs/study``'s CSVs, and a test keeps
the two equal).  For the level's claim it prints, at the level of each verdict that could use it (the list's
own page: one claim at α; the study's three claims: Holm's first step, α/3):

- the expected minimum detectable difference (80% power) of "the claim's score beats every baseline";
- the power at +10 ρ points and at the largest attainable advantage (100 − the best baseline's ρ_w);
- how many lineages like these would give 80% power at +10;

and the list's GPU-hours (its ``gpu_hours_est`` column, else :func:`~mteb_evalrank.integration.model_list.
gpu_hours` of its ``n_parameters``).  The assumption is stated with the figures: new lineages look like the
observed ones (:func:`~mteb_evalrank.metrics.confirmatory.plan_power`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.metrics.confirmatory import PLAN_TARGET, ClaimScores

#: the committed study's confirmatory models, one row per (level, model) (see :func:`committed_study_table`)
COMMITTED_TABLE = Path(__file__).resolve().parents[1] / "data" / "study_populations" / "committed_study.csv"
N_CLAIMS = 3


def committed_study_table(folder: str | Path) -> pd.DataFrame:
    """The planner's table from a study folder (``docs/study``): for each level, its confirmatory models (no
    random floor, no left-out lineage; ``population.csv``) with ``level, model, lineage``, the claim's score,
    the level's baselines and the downstream mean (``scores.csv``), rounded as the CSVs are."""
    from mteb_evalrank.reports.study_analysis import DOWNSTREAM_MEAN, LEVELS, confirmatory_models

    folder = Path(folder)
    parts = []
    for name, level in LEVELS.items():
        pop_file, scores_file = folder / f"{level.prefix}population.csv", folder / f"{level.prefix}scores.csv"
        if not pop_file.is_file() or not scores_file.is_file():
            continue
        pop = pd.read_csv(pop_file, index_col="model")
        scores = pd.read_csv(scores_file, index_col=0)
        columns = [level.claim_score, *[b for b in level.baselines if b in scores.columns], DOWNSTREAM_MEAN]
        keep = [m for m in confirmatory_models(pop) if m in scores.index]
        part = scores.loc[keep, columns].dropna()
        part.insert(0, "lineage", pop.loc[part.index, "lineage"])
        part.insert(0, "level", name)
        parts.append(part.rename_axis("model").reset_index())
    if not parts:
        raise InputError(f"{folder} holds no population.csv and scores.csv of a study level.")
    table = pd.concat(parts, ignore_index=True)
    return table[["level", "model", "lineage", *[c for c in table.columns if c not in ("level", "model", "lineage")]]]


def write_committed_table(folder: str | Path, path: Path = COMMITTED_TABLE) -> Path:
    """Write :func:`committed_study_table` of ``folder`` to ``path`` (run after the study pages change)."""
    from mteb_evalrank.data.files import atomic_write_text

    atomic_write_text(path, committed_study_table(folder).to_csv(index=False, float_format="%.6f"))
    return path


def level_data(level: str, table: pd.DataFrame | None = None) -> ClaimScores:
    """The claim's score, the baselines', the downstream mean and the lineages of one level of the committed
    table."""
    from mteb_evalrank.reports.study_analysis import DOWNSTREAM_MEAN, LEVELS

    table = pd.read_csv(COMMITTED_TABLE) if table is None else table
    spec = LEVELS[level]
    part = table[table["level"] == level]
    if part.empty:
        raise InputError(f"the committed study has no {level}-level models to plan from.")
    baselines = {b: part[b].tolist() for b in spec.baselines if b in part.columns and part[b].notna().all()}
    return ClaimScores(
        part[spec.claim_score].tolist(), baselines, part[DOWNSTREAM_MEAN].tolist(), part["lineage"].tolist()
    )


@dataclass(frozen=True)
class ListCost:
    """The GPU-hours of a model list: the sum over the models with a size, and the models without one."""

    hours: float
    n_with: int
    without: tuple[str, ...]


def list_cost(rows: Sequence[Mapping[str, str]]) -> ListCost:
    """GPU-hours of a model list's rows (raw CSV rows): ``gpu_hours_est`` where given, else
    :func:`~mteb_evalrank.integration.model_list.gpu_hours` of ``n_parameters``; rows with neither are listed."""
    from mteb_evalrank.integration.model_list import gpu_hours

    total, n, without = 0.0, 0, []
    for row in rows:
        hours = _number(row.get("gpu_hours_est"))
        if hours is None:
            hours = gpu_hours(_number(row.get("n_parameters")))
        if hours is None:
            without.append(str(row.get("model", "")))
            continue
        total += hours
        n += 1
    return ListCost(total, n, tuple(without))


def _number(text: object) -> float | None:
    try:
        value = float(str(text).strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def plan_lines(
    n_lineages: int, level: str, *, n_resamples: int = 2000, seed: int = 0, table: pd.DataFrame | None = None
) -> list[str]:
    """The plan of the level's claim for ``n_lineages`` lineages, at each verdict level (one line each)."""
    from mteb_evalrank.metrics.confirmatory import plan_power
    from mteb_evalrank.reports.study_analysis import LEVELS

    data = level_data(level, table)
    lineages, baselines = data.clusters, data.baselines
    spec = LEVELS[level]
    lines = [
        f"{spec.claim} ({spec.claim_score} against {len(baselines)} baselines on the downstream mean; "
        f"populations of {n_lineages} lineages drawn from the committed study's {len(set(lineages))} "
        f"{level}-level lineages, {n_resamples} draws):"
    ]
    for where, alpha in (
        ("on the list's own page (one claim)", 0.05),
        (f"in the study's design (Holm's first step across its {N_CLAIMS} claims)", 0.05 / N_CLAIMS),
    ):
        p = plan_power(data, n_lineages, alpha, n_resamples=n_resamples, seed=seed)
        lines.append(f"- {where}, α = {alpha:.4g}: {plan_sentence(p)}")
    return lines


def plan_sentence(p) -> str:
    """One :class:`~mteb_evalrank.metrics.confirmatory.PlannedPower` in words."""
    if math.isnan(p.mdd):
        mdd = "expected MDD (80% power): none up to 400 ρ points"
    else:
        mdd = f"expected MDD (80% power) {p.mdd:.1f} ρ points"
        if p.mdd > p.room:
            mdd += f": more than the {p.room:.1f} points an advantage can reach"
    goal = f"+{p.target:.0f}" if p.target >= PLAN_TARGET else f"+{p.target:.1f} (the largest attainable advantage)"
    text = f"{mdd}; power {p.power_at_target:.0%} at {goal}; {p.power_at_room:.0%} at +{p.room:.1f} (the largest attainable advantage)."
    if p.lineages_needed == float("inf"):
        text += f" Even {p.cap} such lineages would not give 80% power at {goal}."
    elif p.lineages_needed <= p.n_observed:
        text += f" {p.n_observed} such lineages (the committed study's count) or fewer give 80% power at {goal}."
    else:
        text += f" About {p.lineages_needed:.0f} such lineages would give 80% power at {goal}."
    return text


def plan_command(models_file: str | Path, *, level: str = "sentence", n_resamples: int = 2000, seed: int = 0) -> int:
    """The CLI's ``study --models FILE --plan``: the list is read and checked, no model is loaded."""
    from mteb_evalrank.integration.model_list import model_list_path, read_model_list, read_rows

    rows = read_model_list(models_file)
    real = [r for r in rows if not r.floor]
    n_lineages = len({r.lineage for r in real})
    cost = list_cost(read_rows(model_list_path(models_file)))
    print(
        f"plan for {models_file} ({level} level): {len(rows)} models, {len(rows) - len(real)} random floors, "
        f"{n_lineages} lineages (no model loaded)"
    )
    if n_lineages < 2:
        raise InputError(f"--models {models_file}: {n_lineages} lineage; a lineage bootstrap needs at least 2.")
    for line in plan_lines(n_lineages, level, n_resamples=n_resamples, seed=seed):
        print(line)
    print(
        "Assumes new lineages look like the committed study's (drawn with replacement from them); the list's "
        "post-processing claim is not planned (it needs post-processed and unprocessed variants of one checkpoint)."
    )
    missing = f"; {len(cost.without)} models without a size: {', '.join(cost.without[:5])}" if cost.without else ""
    print(
        f"cost: about {cost.hours:.1f} GPU-hours for {cost.n_with} models (gpu_hours_est, else n_parameters){missing}"
    )
    return 0
