"""The correlation study's pages as Markdown: ``study.md`` (sentence level) and ``word_level.md`` (word level).

Plain arguments in — an :class:`~mteb_evalrank.reports.study_analysis.Analysis`, its findings, the tables of
the sensitivity populations, the recorded runs (``timing.json``'s entries), the names of the figures — and
text out; nothing is computed or written here.  :func:`render_study_page` is the page (its content a :class:`StudyPage`); the blocks it is made
of are functions of their own.  The numbers come from :mod:`mteb_evalrank.reports.study_analysis`, the
figures from :mod:`mteb_evalrank.reports.study_figures`; :mod:`mteb_evalrank.reports.study` wires them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mteb_evalrank.metrics.confirmatory import MIN_CLUSTERS
from mteb_evalrank.reports.correlation_rendering import format_comparisons, format_markdown, format_noise
from mteb_evalrank.reports.postprocessing_effect import format_effects
from mteb_evalrank.reports.study_analysis import SENTENCE, Analysis, confirmatory_models


@dataclass(frozen=True)
class StudyPage:
    """Everything one level's page shows (see :func:`render_study_page`).

    ``findings``: the three claims; ``second``: the within-checkpoint tests; ``claim_analyses``: the analyses
    whose claims' sensitivity is shown; ``main_md``: the primary table; ``bow``: the bag-of-words table's models
    and Markdown; ``family_rows``: :func:`~mteb_evalrank.reports.study_timing.family_times`."""

    a: Analysis
    out: Path
    variants: Sequence[str]
    tasks: Sequence[str]
    study_tasks: Sequence[str]
    absent: Sequence[str]
    timing: list[dict]
    environment: dict[str, Any]
    findings: Sequence[Any]
    second: Sequence[Any]
    claim_analyses: Sequence[Analysis | None]
    main_md: str
    ratios: dict[str, float]
    sensitivity: Sequence[tuple[str, list[str], Any]]
    bow: tuple[list[str], str] | None
    plots: Sequence[str]
    rank_cols: Sequence[str]
    family_rows: Any
    n_resamples: int
    seed: int


def render_study_page(page: StudyPage) -> str:
    """One level's page: *Findings* (the three claims, the within-checkpoint tests, the claims' sensitivity),
    *Reproduce*, what was skipped or failed, the population, the primary table, the noise of each downstream
    column, the fair comparisons, the sensitivity tables, the bag-of-words table, Table 10, the plots, the
    scores and the time per family."""
    lines = _findings_lines(page)
    lines += reproduce_block(page.out, page.timing, page.variants, page.tasks, page.a.level.name, page.environment)
    lines += gaps_block(page.a.scores, page.timing, page.tasks, page.study_tasks, page.absent, level=page.a.level)
    lines += _tables_lines(page)
    lines += _time_lines(page.timing, page.family_rows)
    return "\n".join(lines) + "\n"


def _findings_lines(page: StudyPage) -> list[str]:
    """The title, the Findings, the second estimand and the exploratory blocks under them."""
    spec, scores, pop = page.a.level, page.a.scores, page.a.pop
    title = "Correlation study" if spec is SENTENCE else "Word-level study (EvalRank Table 3)"
    n_lin = pop.loc[confirmatory_models(pop), "lineage"].nunique()
    lines = [
        f"# {title}: {len(scores)} zoo variants in {pop['family'].nunique()} families, {n_lin} lineages in the "
        "confirmatory tests",
        "",
        "## Findings",
        "",
        "The three confirmatory claims. Each is decided by the one test printed with it, named with its "
        "competitors, target and margin before the results were read; Holm's correction runs across these "
        "three claims only. The estimand weighs lineages equally (models that share weights or training share "
        "one unit of weight), so it does not depend on how many variants of a lineage were run; random floors "
        "and lineages of unknown provenance are left out. Everything below the Findings is exploratory. The "
        "rule is in docs/statistics.md.",
        "",
        *[f.line() for f in page.findings],
        "",
        "### Second estimand: within a checkpoint, against the baselines",
        "",
        "Does the claim's score pick the better variant of one checkpoint more often than every baseline of its "
        "level does? One test per contrast type (pairs of variants that differ only in their pooling, layer, "
        "post-processing, table dimension, quantisation or training), fixed in advance, not one of the three "
        f"claims. Holm runs across the contrast types of a level whose pairs span at least {MIN_CLUSTERS} "
        "lineages: the family is fixed by the population's design, never by outcomes. A type with fewer "
        "lineages is shown, but it cannot decide, so it does not spread the correction.",
        "",
        *[f.line() for f in page.second],
        "",
    ]
    for heading, block in (
        ("Sensitivity of the claims (exploratory, never deciding)", claim_sensitivity_lines(page.claim_analyses)),
        ("Within a checkpoint, every score (exploratory, never deciding)", within_blocks(page.claim_analyses)),
        ("What the left-out models beat (exploratory)", floor_blocks(page.claim_analyses)),
    ):
        if block:
            lines += [f"### {heading}", "", *block, ""]
    return lines


def _tables_lines(page: StudyPage) -> list[str]:
    """The population, the primary table, the noise, the comparisons, sensitivity, Table 10, plots, scores."""
    a, spec, pop = page.a, page.a.level, page.a.pop
    lines = ["## Population", "", population_markdown(pop), ""]
    lines += [
        f"## Primary table: all {len(a.scores)} variants",
        "",
        page.main_md if len(a.table) else no_cells_line(a),
        "",
    ]
    lines += ["## Is each downstream score above its noise?", "", format_noise(a.noise), ""]
    if len(a.comp):
        lines += [
            "## Exploratory: each EvalRank score against each baseline, per downstream column",
            "",
            f"Each EvalRank primary score against every {spec.similarity_label} baseline present, per downstream "
            f"column, without the random floors (paired lineage bootstrap, {page.n_resamples} resamples, seed "
            f"{page.seed}). Unadjusted p and Benjamini-Hochberg q over this table; none of these decides a Finding.",
            "",
            format_comparisons(a.comp),
            "",
        ]
    lines += ["## Sensitivity", ""]
    lines += sensitivity_blocks(page.sensitivity, pop, page.ratios)
    if page.bow is not None:
        models, bow_md = page.bow
        lines += [
            f"### Bag-of-words variants only ({len(models)} models, {pop.loc[models, 'family'].nunique()} families)",
            "",
            bow_md,
            "",
        ]
    lines += [
        "## What post-processing does (EvalRank Table 10 reading)",
        "",
        "Mean change in points (×100) from each unprocessed variant to its post-processed version:",
        "",
        format_effects(a.effects, list(a.groups)),
        "",
    ]
    lines += ["## Plots", ""]
    lines += plot_lines(page.plots, page.rank_cols) or ["- none: no correlation to draw (see the primary table)"]
    lines += ["", "## Scores (main score × 100)", "", scores_markdown(a.scores, pop["family"].to_dict()), ""]
    return lines


def _time_lines(timing: list[dict], family_rows: Any) -> list[str]:
    """The time per family and the recorded runs (nothing without ``timing.json``)."""
    from mteb_evalrank.reports.study_timing import format_family_times

    if not timing:
        return []
    lines = [
        "## Time",
        "",
        "Wall seconds per family: each variant's last recorded time (loading and its tasks; "
        "a base's first variant encodes every text when its embedding store is empty, *cold*). "
        '"complete" means every variant was timed and every base from cold; variants run before '
        "per-variant timing existed count as untimed.",
        "",
        format_family_times(family_rows),
        "",
        "Runs:",
        "",
    ]
    for t in timing:
        lines.append(
            f"- {t['started']} shard {t['shard']}: {t['seconds']:.0f} s, {t['items_run']} (variant, task) "
            f"evaluations run, {t['items_skipped_done']} already done; forward passes "
            f"{t['forward_texts_by_base']}; embedding cache {t['cache_bytes'] / 2**20:.0f} MiB"
        )
    return lines


def plot_lines(plots: Sequence[str], rank_cols: Sequence[str]) -> list[str]:
    """One line per figure file of :func:`~mteb_evalrank.reports.study_figures.write_study_figures`: what it shows."""
    lines = []
    for p in plots:
        pivot = p.rsplit("_", 1)[-1][:-4]
        what = (
            "the primary table as a heatmap"
            if p.endswith("correlation.png")
            else f"EvalRank Figure 4: every model's rank on SentEvalMR (x) against its rank on SentEvalSST2 and under "
            f"{', '.join(rank_cols)} (one panel each, coloured by family)"
            if p.endswith("ranks.png")
            else f"every model's rank under {', '.join(rank_cols)} against its rank on "
            f"{'the downstream mean' if pivot == 'mean' else pivot.upper()}, model names on the axis"
        )
        lines.append(f"- `{p}`: {what}")
    return lines


def claim_sensitivity_lines(analyses: Sequence[Analysis | None]) -> list[str]:
    """Exploratory: the claims' tests rerun per model, with everything and by checkpoint family (never deciding)."""
    from mteb_evalrank.reports.verdict import format_p as _p

    lines = []
    for a in analyses:
        if a is None:
            continue
        for label, t in a.claim_sensitivity.items():
            if t is None or not t.contrasts:
                continue
            worst = min(t.contrasts, key=lambda c: c.difference)
            lines.append(
                f"- {a.level.claim_score} vs every baseline, {label} ({t.n_models} models, {t.n_clusters} "
                f"clusters): ρ({a.level.claim_score}) = {t.rho_claim:.1f}; smallest advantage "
                f"{worst.difference:+.1f} over {worst.baseline}; intersection-union {_p(t.p_support)}, some "
                f"baseline better {_p(t.p_refute)}; minimum detectable difference {_mdd(t.mdd)}"
            )
    return lines


def within_blocks(analyses: Sequence[Analysis | None]) -> list[str]:
    """Exploratory: κ of every primary score of the level (and of the embedding dimension) per contrast type."""
    lines: list[str] = []
    for a in analyses:
        if a is None or a.within_table is None or a.within_table.empty:
            continue
        t = a.within_table
        cols = list(t.columns)
        counts = t.attrs.get("counts", {})
        lines += [
            f"{a.level.name.capitalize()} level: lineage-weighted within-checkpoint concordance κ × 100 with the "
            "downstream mean (100: always picks the variant that is better downstream; 0: a coin), without "
            "floors and left-out lineages.",
            "",
            "| score | " + " | ".join(f"{c} ({counts.get(c, '')})" for c in cols) + " |",
            "|---|" + "---|" * len(cols),
        ]
        for name, row in t.iterrows():
            lines.append(f"| {name} | " + " | ".join("" if pd.isna(row[c]) else f"{row[c]:.1f}" for c in cols) + " |")
        lines.append("")
    return lines


def floor_blocks(analyses: Sequence[Analysis | None]) -> list[str]:
    """How many of the confirmatory models each left-out model (floor, unknown provenance) beats on each score of
    the claim (the floors are not "beaten by every model")."""
    from mteb_evalrank.zoo.adapter import short_name

    lines: list[str] = []
    for a in analyses:
        if a is None or a.floor_beats is None or a.floor_beats.empty:
            continue
        t = a.floor_beats
        cols = list(t.columns)
        lines += [
            f"{a.level.name.capitalize()} level: real models (of the confirmatory population) each left-out "
            "model scores strictly higher than, per score of the claim.",
            "",
            "| left-out model | why | " + " | ".join(cols) + " |",
            "|---|---|" + "---|" * len(cols),
        ]
        for m, row in t.iterrows():
            why = "random floor" if bool(a.pop.at[m, "floor"]) else "lineage of unknown provenance"
            lines.append(
                f"| {short_name(m)} | {why} | "
                + " | ".join("" if pd.isna(row[c]) else str(row[c]) for c in cols)
                + " |"
            )
        lines.append("")
    return lines


def _mdd(mdd: float) -> str:
    import math

    return f"{mdd:.1f} ρ points" if math.isfinite(mdd) else "none (a baseline ranks the models as the score does)"


def reproduce_block(
    out: Path, timing: list[dict], variants: Sequence[str], tasks: Sequence[str], level: str, now: dict[str, Any]
) -> list[str]:
    """*Reproduce*: the commands, the recorded runs' environments and ``now``, this report's environment."""
    from mteb_evalrank.zoo.adapter import setup_fetches

    runs = [t for t in timing if t.get("items_run")]
    envs = [t.get("environment") or {} for t in runs]
    fetches = [f"mteb-evalrank fetch-weights {base}" for base in setup_fetches(level)]  # base names: the catalogue's
    setup = (
        [
            'pip install torch==2.13.0 -e ".[zoo,word-models]"',
            "apt-get install dict-gcide wordnet-base bible-kjv   # the corpus of the word vectors trained here",
            " && ".join([*fetches, "mteb-evalrank build-word-models"]),
        ]
        if level == "word"
        else [
            'pip install torch==2.13.0 -e ".[zoo,population]"',
            "apt-get install wordnet-base   # the neutral corpus of LSA, TF-IDF and SimCSE",
            " && ".join(fetches),
        ]
    )
    lines = [
        "## Reproduce",
        "",
        "```bash",
        *setup,
        "export MTEB_EVALRANK_ZOO_THREADS=1 OMP_NUM_THREADS=1   # one thread per process; one process per core",
        "export MTEB_EVALRANK_SOURCES=/path/to/sources   # offline: the raw sources (see Data)",
        f"mteb-evalrank study --level {level} --out {out.as_posix()}   # resumes: finished (variant, task) pairs are skipped",
        f"mteb-evalrank study --level {level} --out {out.as_posix()} --correlate-only   # this page, from the committed results",
        "```",
        "",
    ]
    wall = sum(float(t.get("seconds", 0)) for t in timing)
    lines.append(
        f"- results: `{(out / 'results').as_posix()}/` ({len(variants)} variants requested, {len(tasks)} tasks); "
        f"total wall time of the runs {wall:.0f} s over {len(timing)} invocation(s)"
    )
    for k, (t, env) in enumerate(zip(runs, envs), 1):
        t = {**t, "note": public_text(t.get("note") or "")}
        env = {**env, "command": public_text(str(env.get("command", "")))} if env else env
        stopped = (
            " (stopped before the end" + (f": {t['note']}" if t.get("note") else "") + ")"
            if t.get("finished") is False
            else f" ({t['note']})"
            if t.get("note")
            else ""
        )
        if env:
            lines.append(
                f"- run {k} ({t['started']}, {t['seconds']:.0f} s, {t['items_run']} evaluations{stopped}): "
                + ", ".join(
                    f"{key} {env[key]}"
                    for key in ("command", "commit", "python", "mteb", "torch", "sentence-transformers", "numpy", "cpu")
                    if key in env
                )
            )
        else:
            lines.append(
                f"- run {k} ({t['started']}, {t['seconds']:.0f} s, {t['items_run']} evaluations): environment "
                "not recorded (a run before environments were recorded)"
            )
    lines.append(
        "- this report: "
        + ", ".join(
            f"{key} {now[key]}"
            for key in ("commit", "python", "mteb", "torch", "sentence-transformers", "numpy", "cpu", "date")
        )
    )
    return lines + [""]


_LOCAL_PATH = None


def public_text(text: str) -> str:
    """``text`` without the machine's own folders: an absolute path outside the repository (a scratch results
    folder, ``/tmp/...``, a home or work folder) becomes ``SCRATCH``; a reader needs the command and the commit."""
    import re

    global _LOCAL_PATH
    if _LOCAL_PATH is None:
        _LOCAL_PATH = re.compile(r"(?<![\w.])/(?:tmp|var|work|root|home|mnt|scratch|data|opt)(?:/[^\s,;:()'\"]*)?")
    return _LOCAL_PATH.sub("SCRATCH", text)


def no_cells_line(a: Analysis) -> str:
    """What the primary table misses when it has no cell: this level's intrinsic scores (the study refuses a
    report without any downstream score before the page is written)."""
    spec = a.level
    missing = [t for t in spec.intrinsic if t not in a.scores.columns]
    return (
        f"No correlation: none of the {spec.name} level's intrinsic scores has results for these variants "
        f"(missing: {', '.join(missing[:8])}{', ...' if len(missing) > 8 else ''}); no claim score "
        f"({spec.claim_score}) either. Run the study with one of them in --tasks (e.g. --tasks {spec.claim_score} "
        f"{' '.join(a.downstream[:1]) or 'SentEvalMR'})."
    )


def gaps_block(
    scores: pd.DataFrame,
    timing: list[dict],
    tasks: Sequence[str],
    study_tasks: Sequence[str],
    absent: Sequence[str],
    *,
    level: Any = None,
) -> list[str]:
    """*Skipped and failed*: the ``absent`` variants (no result at all), the tasks skipped for every model and each
    missing (model, task) of ``study_tasks`` with its recorded failure.  A task that is not a score of ``level``
    (a word-similarity set on the sentence page) is named as such, not as a task without results."""
    from mteb_evalrank.integration.study import DOWNSTREAM_TASKS
    from mteb_evalrank.zoo.adapter import display_name

    read = None if level is None else {*level.intrinsic, *DOWNSTREAM_TASKS}
    lines = ["## Skipped and failed", ""]
    if absent:
        lines.append(
            f"- {len(absent)} requested variant(s) have no result for any task yet (not run; the next "
            f"`study` run resumes with them): {', '.join(absent)}"
        )
    skipped: dict[str, str] = {}
    for t in timing:  # only this report's tasks: the word level never runs HEROS, say
        skipped.update({k: why for k, why in (t.get("skipped_tasks") or {}).items() if k in tasks})
    failures = {(f["variant"], f["task"]): f["error"] for t in timing for f in t.get("failures", [])}
    for task, why in sorted(skipped.items()):
        lines.append(f"- task {task} skipped for every model: {why}")
    missing = []
    for task in study_tasks:
        if task in skipped:
            continue
        if read is not None and task not in read:
            other = "word" if level is SENTENCE else "sentence"
            missing.append(
                f"- task {task}: not a score of the {level.name} level (its page is `study --level {other}`)"
            )
            continue
        if task not in scores.columns:
            missing.append(f"- task {task}: no model has a result")
            continue
        for m in scores.index[scores[task].isna()]:
            why = failures.get((display_name(m), task), "no result file (not run yet)")
            missing.append(f"- {m} × {task}: {why[:200]}")
    lines += missing or (["- nothing else: every model has every other task"] if not skipped else [])
    return lines + [""]


def population_markdown(pop: pd.DataFrame) -> str:
    """The population by lineage and family, then the lineage rule's reason for every lineage."""
    from mteb_evalrank.zoo.adapter import display_name

    left = pop["left_out"].astype(bool) if "left_out" in pop else pd.Series(False, index=pop.index)
    lines = [
        "| lineage | family | models | random floor | left out (unknown provenance) | post-processed | kind | variants |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (lin, fam), part in pop.groupby(["lineage", "family"], sort=True):
        names = ", ".join(display_name(m) for m in part.index)
        kinds = ", ".join(sorted(set(part["kind"].astype(str))))
        lines.append(
            f"| {lin} | {fam} | {len(part)} | {int(part['floor'].sum())} | {int(left[part.index].sum())} | "
            f"{int(part['postprocessed'].sum())} | {kinds} | {names} |"
        )
    confirm = confirmatory_models(pop)
    real = pop.loc[confirm]
    lines += [
        "",
        f"{len(pop)} models in {pop['family'].nunique()} families and {pop['lineage'].nunique()} lineages; "
        f"without the random floors and the lineages the rule leaves out, {len(real)} models in "
        f"{real['lineage'].nunique()} lineages: the units the confirmatory tests weigh equally and resample. The "
        "family of a zoo variant is its base's checkpoint (a quantised copy of a checkpoint is in the checkpoint's "
        "family); a lineage groups the families that share weights or training by the rule of "
        "`mteb_evalrank/models/lineages.json` (docs/statistics.md); `kind` is the model kind (bag-of-words: a "
        "function of the multiset of its tokens; contextual: word order matters):",
        "",
    ]
    for lin, part in pop.groupby("lineage", sort=True):
        lines.append(f"- `{lin}`: {part['lineage_reason'].iloc[0]}")
    return "\n".join(lines)


def sensitivity_blocks(
    tables: Sequence[tuple[str, list[str], Any]], pop: pd.DataFrame, ratios: dict[str, float]
) -> list[str]:
    """The Markdown of :func:`~mteb_evalrank.reports.study_analysis.sensitivity_tables`."""
    lines: list[str] = []
    for title, models, t in tables:
        if t is None:
            lines += [f"### {title}", "", f"{len(models)} models: too few for ρ.", ""]
            continue
        lines += [
            f"### {title}: {len(models)} models, {pop.loc[models, 'family'].nunique()} families",
            "",
            format_markdown(t, noise=ratios),
            "",
        ]
    return lines


def scores_markdown(scores: pd.DataFrame, families: dict[str, str]) -> str:
    """The study's score table as Markdown: one row per model, scores x 100 with one decimal."""
    from mteb_evalrank.zoo.adapter import short_name

    cols = [c for c in scores.columns if ":" not in c]
    short = {c: c.replace("SentEval", "") for c in cols}
    lines = ["| model | family | " + " | ".join(short[c] for c in cols) + " |", "|---|---|" + "---|" * len(cols)]
    for model, row in scores.iterrows():
        cells = ["" if pd.isna(row[c]) else f"{row[c] * 100:.1f}" for c in cols]
        lines.append(f"| {short_name(model)} | {families.get(model, model)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
