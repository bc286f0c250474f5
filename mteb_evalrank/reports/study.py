"""``mteb-evalrank study``: run the zoo on every study task, then write the correlation report.

Writes into ``<out>``:

- ``results/…`` — MTEB result files, one folder per zoo variant (resumable, shardable:
  :mod:`mteb_evalrank.integration.study`); commit them, and anyone can rerun the report without encoding;
- ``timing.json`` — one entry per invocation (seconds, work run and skipped, forward passes per base,
  distinct texts cached, cache size, the environment: command, commit, versions, CPU);
- ``scores.csv`` — the models × scores matrix; ``standard_errors.csv`` — the sampling standard error of each
  score (:mod:`mteb_evalrank.metrics.sampling_error`); ``population.csv`` — each model's family, whether it is a random
  floor or post-processed (its first two columns are a ``correlate --families`` file);
- ``correlation.md`` / ``correlation.csv`` / ``correlation.png`` — all variants: every intrinsic score
  against every downstream task and the downstream mean (EvalRank Table 6 layout), with the family-aware
  statistics; exploratory metrics in their own block;
- ``comparisons.csv`` — exploratory: each EvalRank primary score against every baseline per column (p, BH q);
- ``correlation_bow.md`` — the bag-of-words variants only;
- ``ranks.png`` — EvalRank Figure 4 (§6.2): ranks on MR (the pivot) against SST2 and the intrinsic scores, one
  panel each, coloured by family (:mod:`mteb_evalrank.reports.rank_panels`); ``ranks_mr.png``,
  ``ranks_sst2.png``, ``ranks_mean.png`` — one axes per pivot (MR, SST2, the downstream mean) with model names;
- ``study.md`` — one page opening with the *Findings* (:mod:`mteb_evalrank.reports.verdict`), then
  *Reproduce*, the skipped and failed work, the population, the primary table, the noise of each downstream
  column, the fair comparisons, the sensitivity tables (no floors, no post-processing, within each family
  of ≥ 5 models) and the Table 10 reading.

This module is the entry point: it chooses the variants, reads the results folder once and wires three
modules, one per concept — :mod:`mteb_evalrank.reports.study_analysis` (every number: the scores table, the
correlations, the claim tests, their sensitivity, the within-checkpoint and post-processing tests),
:mod:`mteb_evalrank.reports.study_rendering` (the Markdown pages) and :mod:`mteb_evalrank.reports.study_figures`
(the plots) — and writes their output.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mteb_evalrank.integration.study import STUDY_TASKS, WORD_SIMILARITY_TASKS, WORD_STUDY_TASKS
from mteb_evalrank.reports.correlation_rendering import format_markdown
from mteb_evalrank.reports.correlation_study import write_csv
from mteb_evalrank.reports.results_reader import read_results_folder
from mteb_evalrank.reports.study_analysis import (
    LEVELS,
    SENTENCE,
    WORD,
    Analysis,
    analyse,
    bag_of_words_table,
    confirmatory_findings,
    sensitivity_tables,
)
from mteb_evalrank.reports.study_figures import write_study_figures
from mteb_evalrank.reports.study_rendering import StudyPage, render_study_page


def word_level_variants(out: Path, *, folder: Any = None) -> list[str]:
    """The word population in ``out``'s results: the zoo's word-level variants (the word page's selection) that
    have EvalRankWord and a word-similarity task.  A sentence-only variant that was also run on word tasks
    (a SIF bag of words) is not part of it, so both pages count the same word models."""
    from mteb_evalrank.zoo.adapter import VARIANTS, word_level_names

    folder = folder if folder is not None else read_results_folder(out)
    tasks_of: dict[str, set[str]] = {}
    for r in folder.records:
        tasks_of.setdefault(r["model"], set()).add(r["task"])
    names = {VARIANTS[v].mteb_name: v for v in word_level_names() if v in VARIANTS}
    return sorted(
        names[m] for m, t in tasks_of.items() if m in names and "EvalRankWord" in t and t & set(WORD_SIMILARITY_TASKS)
    )


def write_study_report(
    out: str | Path,
    variants: Sequence[str],
    tasks: Sequence[str] = STUDY_TASKS,
    *,
    level: str = "sentence",
    n_resamples: int = 1000,
    seed: int = 0,
) -> str:
    """Write one level's tables and plots into ``out`` and return its Markdown page (``study.md`` for the
    sentence level, ``word_level.md`` for the word level).

    The page opens with *Findings* (:mod:`mteb_evalrank.reports.verdict`), then *Reproduce* and what was
    skipped or failed; then the population, the primary table with its exploratory block, the noise of each
    downstream column, the fair comparisons, the sensitivity tables, Table 10 and the scores.  The sentence
    page also carries the word-level Finding when word-level results exist in ``out``."""
    from mteb_evalrank.data.files import all_or_nothing, atomic_write_text
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import run_environment
    from mteb_evalrank.reports.study_timing import family_times
    from mteb_evalrank.zoo.adapter import BASES, VARIANTS

    out = Path(out)
    spec = LEVELS[level]
    folder = read_results_folder(out)  # read once: every table of the page comes from it
    a = analyse(out, variants, tasks, spec, n_resamples=n_resamples, seed=seed, folder=folder)
    if a is None or a.scores.empty:
        raise InputError(f"no results of the chosen zoo variants in {out / 'results'}; run the study first.")
    if not a.downstream:
        raise InputError(
            f"no downstream task has results for the {len(a.scores)} {level}-level variants in "
            f"{out / 'results'}: the correlation needs at least one (run the study with its downstream "
            "tasks, e.g. without --tasks); the intrinsic results are saved."
        )
    # every table, figure and page of this level is renamed into place together when all are written: a
    # failure (or an interrupt) midway leaves the previous report whole, never half old and half new
    with all_or_nothing([("study report", out, "folder")]):
        scores, pop, table = a.scores, a.pop, a.table
        families = pop["family"].to_dict()
        pre = spec.prefix
        _write_csv_file(out / f"{pre}scores.csv", scores, float_format="%.6f")
        # model, family, floor, ..., lineage: usable as correlate --families
        _write_csv_file(out / f"{pre}population.csv", pop)
        # the sampling standard error of every score
        _write_csv_file(out / f"{pre}standard_errors.csv", a.errors, float_format="%.6f")
        write_csv(table, out / f"{pre}correlation.csv")
        _write_csv_file(out / f"{pre}comparisons.csv", a.comp, index=False, float_format="%.4f")
        rank_cols = [c for c in spec.rank_cols if c in scores.columns]
        plots = write_study_figures(out, pre, scores, table, families, rank_cols)
        ratios = dict(zip(a.noise["score"], a.noise["ratio"]))
        main_md = format_markdown(table, noise=ratios)
        atomic_write_text(out / f"{pre}correlation.md", main_md + "\n")

        sent: Analysis | None
        word: Analysis | None
        if spec is SENTENCE:
            sent = a
            words = word_level_variants(out, folder=folder)
            word = (
                analyse(out, words, WORD_STUDY_TASKS, WORD, n_resamples=n_resamples, seed=seed, folder=folder)
                if words
                else None
            )
        else:
            word = a
            sent = analyse(
                out, _sentence_variants(out), STUDY_TASKS, SENTENCE, n_resamples=n_resamples, seed=seed, folder=folder
            )
        sensitivity = sensitivity_tables(scores, pop, a.primary, a.downstream, families, n_resamples, seed)
        bow = bag_of_words_table(a, n_resamples=n_resamples, seed=seed)
        if bow is not None:
            bow_md = format_markdown(bow[1], noise=ratios)
            atomic_write_text(out / "correlation_bow.md", bow_md + "\n")
            bow = (bow[0], bow_md)
        timing = json.loads((out / "timing.json").read_text(encoding="utf-8")) if (out / "timing.json").exists() else []
        timed = [v for v in variants if v in VARIANTS]
        family_rows = (
            family_times(
                timing,
                timed,
                {v: BASES[VARIANTS[v].base].family_name for v in timed},
                {v: VARIANTS[v].base for v in timed},
            )
            if timing
            else None
        )
        page = render_study_page(
            StudyPage(
                a,
                out=out,
                variants=variants,
                tasks=tasks,
                study_tasks=[t for t in tasks if t in STUDY_TASKS or t in WORD_STUDY_TASKS],
                absent=[v for v in variants if v in VARIANTS and VARIANTS[v].mteb_name not in scores.index],
                timing=timing,
                environment=run_environment(),
                findings=confirmatory_findings(sent, word),
                second=[f for x in (sent, word) if x is not None for f in x.within_findings()],
                claim_analyses=[sent, word],
                main_md=main_md,
                ratios=ratios,
                sensitivity=sensitivity,
                bow=bow,
                plots=plots,
                rank_cols=rank_cols,
                family_rows=family_rows,
                n_resamples=n_resamples,
                seed=seed,
            )
        )
        atomic_write_text(out / spec.page, page)
    return page


def _write_csv_file(path: Path, frame: Any, **to_csv: Any) -> Path:
    """``frame.to_csv(path, **to_csv)`` through a temporary file renamed over ``path`` (``atomic_target``)."""
    from mteb_evalrank.data.files import atomic_target

    with atomic_target(path) as tmp:
        frame.to_csv(tmp, **to_csv)
    return path


def _has_result(out: Path, variant: str, task: str) -> bool:
    """Whether ``out/results`` holds a ``task`` result of the zoo ``variant`` (any revision)."""
    from mteb_evalrank.data.result_files import has_result
    from mteb_evalrank.results.folders import model_folder
    from mteb_evalrank.zoo.adapter import VARIANTS

    return has_result(model_folder(out, VARIANTS[variant].mteb_name), task)


def _sentence_variants(out: Path) -> list[str]:
    """The sentence study's default population with sentence-level results in ``out``."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import select_variants

    try:
        return [
            v
            for v in select_variants(["population"], installed_only=False, with_slow=True)
            if _has_result(out, v, "EvalRankSent")
        ]
    except InputError:
        return []


def default_word_variants(*, installed_only: bool = True) -> list[str]:
    """The word-level population: the ``word`` selection of the zoo when it exists, else every installed
    static (word-vector) variant."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import select_variants
    from mteb_evalrank.zoo.adapter import BASES, VARIANTS, variant_status

    try:
        return select_variants("word", installed_only=installed_only)
    except InputError:
        return [
            v
            for v in sorted(VARIANTS)
            if BASES[VARIANTS[v].base].kind == "static" and variant_status(VARIANTS[v]) == "installed"
        ]


def _refuse_sentence_variants(variants: Sequence[str]) -> None:
    """``--level word`` studies word models (a static base, or a variant the catalogue puts at the word level): a
    sentence-level variant (``minilm-l6/mean``) is refused before anything runs, not run into a word-level page."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.zoo.adapter import BASES, VARIANTS, user_name, word_level_names

    word = set(word_level_names())
    other = [v for v in variants if v not in word and BASES[VARIANTS[v].base].kind != "static"]
    if other:
        shown = ", ".join(user_name(v) for v in other[:5]) + (f" and {len(other) - 5} more" if len(other) > 5 else "")
        raise InputError(
            f"--level word studies word models, and {shown} is a sentence-level zoo variant; run it with --level "
            "sentence, or give word models (--zoo word)."
        )


def study_command(
    out: str | Path,
    *,
    zoo: Sequence[str] | None,
    tasks: Sequence[str] | None,
    shard: str | None,
    batch_size: int,
    progress: bool,
    correlate_only: bool,
    n_resamples: int,
    level: str = "sentence",
) -> int:
    """The CLI's ``study``: run (unless ``correlate_only``), then report unless this is one shard of several.

    ``level="sentence"`` (EvalRank Table 6): the zoo's ``population`` selection (every installed sentence-level
    variant of all families but the slow bases; it contains the first study's 27 ``study`` variants) on the
    sentence study's tasks; a ``correlate_only`` report takes every population variant with results, the slow
    bases' too;
    ``level="word"`` (Table 3): the word models on EvalRankWord, the 13 word-similarity tasks and the 10
    downstream tasks, reported in ``word_level.md``."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import parse_shard, run_study, select_variants

    if level not in LEVELS:
        raise InputError(f"--level must be one of {', '.join(LEVELS)}, got {level!r}.")
    out = Path(out)
    if level == "word":
        variants = (
            select_variants(zoo, installed_only=not correlate_only)
            if zoo
            else default_word_variants(installed_only=not correlate_only)
        )
        tasks = list(tasks or WORD_STUDY_TASKS)
        _refuse_sentence_variants(variants)
    else:
        if correlate_only and not zoo:  # a report from committed results: the variants run at sentence level,
            variants = _sentence_variants(out)  # the slow bases' included
        else:
            variants = select_variants(zoo or ["population"], installed_only=not correlate_only)
        tasks = list(tasks or STUDY_TASKS)
    if not variants:
        raise InputError(f"no installed zoo variant for the {level} level; see `mteb-evalrank models`.")
    from mteb_evalrank.integration.task_lookup import get_tasks_or_explain

    get_tasks_or_explain(tasks)  # an unknown --tasks name is named (with close matches) before any work
    import os

    for folder in (Path(out), Path(out) / "results"):
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):  # refused before the work, not after it
            raise InputError(f"the study folder {folder} is not writable; the results and pages go there.")
    _, count = parse_shard(shard)
    if not correlate_only:
        start = time.perf_counter()
        run = run_study(out, variants=variants, tasks=tasks, shard=shard, batch_size=batch_size, progress=progress)
        print(
            f"\nstudy ({level} level): {len(variants)} variants × {len(run.tasks)} tasks, shard {run.shard}: "
            f"{run.items_run} run, {run.items_skipped_done} already done, {len(run.failures)} failed, "
            f"{time.perf_counter() - start:.0f} s"
        )
        print(
            f"forward passes (texts) per base: {run.forward_texts_by_base}; distinct texts cached: "
            f"{run.cached_texts_by_base}; embedding cache {run.cache_bytes / 2**20:.0f} MiB"
        )
        from mteb_evalrank.zoo.adapter import user_name

        for f in run.failures[:10]:
            print(f"  failed: {user_name(f['variant'])} on {f['task']}: {f['error'][:200]}")
        if count > 1:
            print(
                f"shard {run.shard} done. When every shard has finished, write the report with:\n"
                f"  mteb-evalrank study --level {level} --out {out} --correlate-only"
            )
            return 1 if run.failures else 0
    page = write_study_report(out, variants, tasks, level=level, n_resamples=n_resamples)
    print(page)
    print(f"report: {out / LEVELS[level].page} (tables, {LEVELS[level].prefix}correlation.csv, plots)")
    return 0
