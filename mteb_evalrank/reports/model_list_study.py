"""``mteb-evalrank study --models FILE``: run a user's list of models, then write its population and page.

Writes into ``<out>`` (``word_`` prefix at the word level):

- ``results/…`` — MTEB result files, one folder per model (:func:`~mteb_evalrank.integration.model_list.run_model_list`:
  resumable, shardable);
- ``timing.json`` — one entry per invocation, as the zoo study writes it;
- ``population.csv`` — the zoo study's columns (``model, family, floor, postprocessed, kind, lineage,
  lineage_reason``), with ``model`` the MTEB name results are filed under and lineage, reason, floor and
  family from the model list (:func:`model_list_population`); it is a ``correlate --families`` file;
- ``scores.csv`` — the models × scores table (the level's intrinsic scores, the downstream tasks and their
  mean): a ``correlate TABLE.csv`` input, so anyone can redo the analysis without encoding;
- ``study.md`` (``word_level.md``) — the page: the level's confirmatory Finding (the claim score against every
  primary similarity baseline of the level, :func:`~mteb_evalrank.reports.correlation_study.decide_claim`,
  lineages from the list), the population by lineage, then ``correlate``'s table with its exploratory
  comparisons and noise (:func:`~mteb_evalrank.reports.correlation_study.correlate_report`), with
  ``correlation.csv``, ``correlation.png`` and ``ranks.png`` next to it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from mteb_evalrank.errors import InputError
from mteb_evalrank.integration.model_list import ResolvedModel


def _kind(model: ResolvedModel) -> str:
    """The model kind (the zoo study's ``kind``): ``bag-of-words`` or ``contextual``.  A zoo variant has its
    base's; a word-vector file or shortcut is a bag of words; any other model counts as contextual (a registry
    Model2Vec table is a bag of words too, but nothing in its MTEB name says so: give such models a ``family`` of
    their own and read the kind off their card)."""
    from mteb_evalrank.models.packaged import WORD_VECTOR_ALIASES
    from mteb_evalrank.models.word_vector_files import split_matrix_spec
    from mteb_evalrank.zoo.adapter import BASES, is_zoo_spec, resolve_zoo_spec

    spec = model.row.model
    if is_zoo_spec(spec):
        return BASES[resolve_zoo_spec(spec).base].model_kind_name
    if spec.lower() in WORD_VECTOR_ALIASES:
        return "bag-of-words"
    path, _ = split_matrix_spec(spec)
    if path.exists() and (path.is_file() or not any((path / m).is_file() for m in ("config.json", "modules.json"))):
        return "bag-of-words"
    return "contextual"


def model_list_population(models: Sequence[ResolvedModel]) -> pd.DataFrame:
    """One row per model (index: the MTEB name its results are filed under) with the zoo study's population
    columns: ``family`` (the list's, else a zoo variant's checkpoint family, else the model itself), ``floor``
    (the list's), ``postprocessed`` (a zoo variant's whitening/ABTT/SIF; false otherwise), ``kind``
    (:func:`_kind`), ``lineage`` and ``lineage_reason`` (the list's)."""
    from mteb_evalrank.reports.correlation_study import zoo_family
    from mteb_evalrank.reports.study_analysis import POPULATION_COLUMNS
    from mteb_evalrank.zoo.adapter import contrast_factors, is_zoo_spec, resolve_zoo_spec, unprocessed_counterpart

    rows = []
    for m in models:
        post, extra = False, {}
        if is_zoo_spec(m.row.model):
            v = resolve_zoo_spec(m.row.model)
            post = v.whiten is not None or v.static_post is not None
            plain = unprocessed_counterpart(v)
            extra = {"unprocessed": plain.mteb_name if plain is not None else "", **contrast_factors(v)}
        rows.append(
            {
                "model": m.name,
                "family": m.row.family or zoo_family(m.name) or m.name,
                "floor": m.row.floor,
                "postprocessed": post,
                "kind": _kind(m),
                "lineage": m.row.lineage,
                "lineage_reason": m.row.lineage_reason,
                "left_out": False,
                **extra,
            }
        )
    return pd.DataFrame(rows, columns=["model", *POPULATION_COLUMNS]).set_index("model")


def model_list_scores(
    out: Path, models: Sequence[ResolvedModel], tasks: Sequence[str], level
) -> tuple[pd.DataFrame, list[str], list[str]]:
    """The models × scores table of the listed models in ``out/results``: the level's primary intrinsic scores
    and the downstream tasks among ``tasks`` that some model has, plus the downstream mean (models with every
    downstream task).  Returns ``(scores, intrinsic, downstream)``."""
    from mteb_evalrank.integration.study import DOWNSTREAM_TASKS
    from mteb_evalrank.reports.results_reader import read_results_folder, score_matrix
    from mteb_evalrank.reports.study_analysis import DOWNSTREAM_MEAN

    folder = read_results_folder(out)
    names = {m.name for m in models}
    have = {r["task"] for r in folder.records if r["model"] in names}
    intrinsic = [t for t in level.intrinsic if t in tasks and t in have]
    down = [t for t in DOWNSTREAM_TASKS if t in tasks and t in have]
    if not intrinsic or not down:
        raise InputError(
            f"the listed models have no {'intrinsic' if not intrinsic else 'downstream'} results for the "
            f"{level.name} level in {out / 'results'}: the correlation needs at least one of each "
            "(run the study first, with --tasks naming both kinds)."
        )
    scores, _ = score_matrix(folder, [*intrinsic, *down])
    scores = scores[scores.index.isin(names)].copy()
    scores[DOWNSTREAM_MEAN] = scores[down].mean(axis=1, skipna=False)
    return scores, intrinsic, [*down, DOWNSTREAM_MEAN]


def _lineage_table(pop: pd.DataFrame, present: Sequence[str]) -> str:
    rows = ["| lineage | models with results | floors | reason |", "|---|---:|---:|---|"]
    part = pop.loc[[m for m in pop.index if m in set(present)]]
    for lineage, g in sorted(part.groupby("lineage"), key=lambda kv: (-len(kv[1]), kv[0])):
        reason = str(g["lineage_reason"].iloc[0]).replace("|", "/")
        rows.append(f"| {lineage} | {len(g)} | {int(g['floor'].sum())} | {reason} |")
    return "\n".join(rows)


def write_model_list_report(
    out: str | Path,
    models: Sequence[ResolvedModel],
    tasks: Sequence[str],
    *,
    level: str = "sentence",
    source: str = "",
    n_resamples: int = 1000,
    seed: int = 0,
) -> str:
    """Write the level's population, scores, correlation files and page into ``out``; return the page."""
    from mteb_evalrank.data.files import all_or_nothing, atomic_target, atomic_write_text
    from mteb_evalrank.integration.study import run_environment
    from mteb_evalrank.reports.correlation_study import CorrelateOptions, correlate_report, decide_claim
    from mteb_evalrank.reports.study_analysis import LEVELS

    out = Path(out)
    spec = LEVELS[level]
    pre = spec.prefix
    pop = model_list_population(models)
    scores, intrinsic, downstream = model_list_scores(out, models, tasks, spec)
    # every file of this level is renamed into place together when all are written: a failure (or an
    # interrupt) midway leaves the previous tables and page whole, never half old and half new
    with all_or_nothing([("study report", out, "folder")]):
        with (
            atomic_target(out / f"{pre}population.csv") as pop_file,
            atomic_target(out / f"{pre}scores.csv") as scores_file,
        ):
            pop.to_csv(pop_file)
            scores.rename_axis("model").to_csv(scores_file, float_format="%.6f")
            report = correlate_report(  # read back from the written files: the tables correlate reads
                scores_file,
                intrinsic,
                downstream,
                CorrelateOptions(
                    families=pop_file,
                    csv=out / f"{pre}correlation.csv",
                    plot=out / f"{pre}correlation.png",
                    rank_plot=out / f"{pre}ranks.png",
                    compare_all=any(i.startswith("EvalRank") for i in intrinsic)
                    and any(not i.startswith("EvalRank") for i in intrinsic),
                    n_resamples=n_resamples,
                    seed=seed,
                ),
            )
        attrs = report.table.attrs
        baselines = [b for b in spec.baselines if b in intrinsic]
        if spec.claim_score in intrinsic and baselines:
            finding = decide_claim(
                attrs["scores"],
                spec.claim_score,
                baselines,
                downstream[:-1] if len(downstream) > 2 else downstream[0],
                lineages=attrs["lineages"],
                floors=attrs["floors"],
                seed=seed,
                n_resamples=max(n_resamples, 2000),
            ).line()
        else:
            finding = (
                f"- Not tested: the claim needs {spec.claim_score} and at least one of {', '.join(spec.baselines)} "
                "among the tasks run."
            )
        env = run_environment()
        missing = [m.name for m in models if m.name not in scores.index]
        parts = [
            f"# Study of a model list ({spec.name} level): {len(scores)} models in "
            f"{pop.loc[scores.index, 'lineage'].nunique()} lineages",
            "",
            "## Finding",
            "",
            "One claim, one test fixed in advance (docs/statistics.md): the claim score against every primary "
            f"{spec.similarity_label} score run, on the downstream mean; lineages from the model list. Everything "
            "below it is exploratory.",
            "",
            finding,
            "",
            "## Reproduce",
            "",
            f"`mteb-evalrank study --models {Path(source).name if source else 'FILE'} --level {spec.name} --out OUT"
            + (f" --tasks {' '.join(tasks)}" if tasks else "")
            + "` at commit "
            f"`{env.get('commit', 'unknown')}` (mteb {env.get('mteb')}, torch {env.get('torch')}). "
            f"The scores are in `{pre}scores.csv` and the lineages in `{pre}population.csv`: "
            f"`mteb-evalrank correlate {pre}scores.csv --families {pre}population.csv --intrinsic … --downstream …` "
            "redoes every table without encoding.",
            "",
            "## Population",
            "",
            _lineage_table(pop, list(scores.index)),
            "",
        ]
        if missing:
            parts += [f"Listed but without results here ({len(missing)}): " + ", ".join(missing), ""]
        body = report.markdown.split("\n", 1)[1] if report.markdown.startswith("# ") else report.markdown
        parts += ["## Correlations", "", body.strip(), ""]
        page = "\n".join(parts)
        atomic_write_text(out / spec.page, page)
    return page


def model_list_command(
    out: str | Path,
    models_file: str | Path,
    *,
    tasks: Sequence[str] | None,
    shard: str | None,
    device: str | None,
    batch_size: int,
    progress: bool,
    correlate_only: bool,
    n_resamples: int,
    level: str = "sentence",
) -> int:
    """The CLI's ``study --models FILE``: check the list, run this shard, then (one shard, or
    ``--correlate-only``) write the population and the page."""
    from mteb_evalrank.integration.model_list import read_model_list, resolve_rows, run_model_list
    from mteb_evalrank.integration.study import STUDY_TASKS, WORD_STUDY_TASKS, parse_shard
    from mteb_evalrank.reports.study_analysis import LEVELS

    if level not in LEVELS:
        raise InputError(f"--level must be one of {', '.join(LEVELS)}, got {level!r}.")
    out = Path(out)
    models = resolve_rows(read_model_list(models_file), source=str(models_file))  # everything checked first
    tasks = list(tasks or (WORD_STUDY_TASKS if level == "word" else STUDY_TASKS))
    _, count = parse_shard(shard)
    if not correlate_only:
        start = time.perf_counter()
        run = run_model_list(out, models, tasks, shard=shard, device=device, batch_size=batch_size, progress=progress)
        print(
            f"\nstudy of {models_file} ({level} level): {len(models)} models × {len(run.tasks)} tasks, shard "
            f"{run.shard}: {run.items_run} run, {run.items_skipped_done} already done, {len(run.failures)} failed, "
            f"{time.perf_counter() - start:.0f} s"
        )
        for f in run.failures[:10]:
            print(f"  failed: {f['variant']} on {f['task']}: {f['error'][:200]}", file=sys.stderr)
        if count > 1:
            print(
                f"shard {run.shard} done. When every shard has finished, write the report with:\n"
                f"  mteb-evalrank study --models {models_file} --level {level} --out {out} --correlate-only"
            )
            return 1 if run.failures else 0
    page = write_model_list_report(out, models, tasks, level=level, source=str(models_file), n_resamples=n_resamples)
    print(page)
    print(
        f"report: {out / LEVELS[level].page} ({LEVELS[level].prefix}population.csv, {LEVELS[level].prefix}scores.csv, "
        f"{LEVELS[level].prefix}correlation.csv, plots)"
    )
    return 0


def _once(names: Sequence[str]) -> list[str]:
    """``--from-registry`` names, each model once: a name given again (also spelled otherwise under the one name
    rule, :func:`~mteb_evalrank.names.name_key`) is counted once, with a warning naming it."""
    import warnings

    from mteb_evalrank.errors import EvalRankWarning
    from mteb_evalrank.names import name_key, spelled

    kept: dict[str, str] = {}
    for name in names:
        first = kept.get(name_key(name))
        if first is None:
            kept[name_key(name)] = name
        else:
            again = name if first == name else f"{spelled(name)} (as {spelled(first)})"
            warnings.warn(
                EvalRankWarning(f"--from-registry names {again} again; the model is listed once."), stacklevel=3
            )
    return list(kept.values())


def study_population_command(names: Sequence[str], models_file: str | Path | None, out: str | Path) -> int:
    """The CLI's ``study-population``: a model list of registry models (``names`` and the rows of
    ``models_file``) with lineages from ``adapted_from`` where none is given, parameter counts and
    GPU-hours (:func:`~mteb_evalrank.integration.model_list.registry_population`), written to ``out``."""
    from mteb_evalrank.data.files import output_file
    from mteb_evalrank.integration.model_list import (
        GPU_HOURS_FORMULA,
        read_rows,
        registry_population,
        write_population_csv,
    )

    if names and models_file:  # one source of models: a name list and a file would be merged without a word
        raise InputError("give --from-registry NAME ... or --models FILE, not both.")
    # before the registry is read: a folder that cannot be written, a device, a result file as the target
    out = output_file(Path(out), what="model list file", suffixes=("csv",))
    rows: list[Any] = [*_once(names), *(read_rows(models_file) if models_file else [])]
    if not rows:
        raise InputError("give registry model names (--from-registry NAME ...) or --models FILE.")
    population = registry_population(rows)
    try:
        written = write_population_csv(population, out)
    except OSError as exc:  # writable when checked above; the disk filled up or the mount changed since
        raise InputError(
            f"cannot write model list file {out}: {exc.strerror or type(exc).__name__}; nothing was written "
            "(a previous file there is unchanged): free space or give another --out."
        ) from exc
    print(f"wrote {written} ({len(rows)} models; {GPU_HOURS_FORMULA})")
    return 0
