"""``mteb-evalrank study``: run the zoo on every study task, then write the correlation report.

Writes into ``<out>``:

- ``results/…`` — MTEB result files, one folder per zoo variant (resumable, shardable:
  :mod:`mteb_evalrank.integration.study`);
- ``timing.json`` — one entry per invocation (seconds, work run and skipped, forward passes per base,
  distinct texts cached, cache size);
- ``scores.csv`` — the models × scores matrix;
- ``correlation.md`` / ``correlation.csv`` / ``correlation.png`` — all variants: every intrinsic score
  against every downstream task and the downstream mean (EvalRank Table 6 layout);
- ``correlation_bow.md`` — the bag-of-words variants only (the word-level study of Table 3);
- ``ranks.png`` — Figure 4 for the downstream mean;
- ``study.md`` — all of the above in one page, with the paired comparisons "EvalRank predicts better
  than STS-B / STR" and the Table 10 reading (what post-processing does to each kind of score).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from mteb_evalrank.integration.study import DOWNSTREAM_TASKS, INTRINSIC_TASKS, STUDY_TASKS
from mteb_evalrank.reports.correlation_study import (
    comparisons,
    correlation_table,
    format_markdown,
    plot_heatmap,
    plot_ranks,
    read_results_folder,
    score_matrix,
    write_csv,
)
from mteb_evalrank.reports.postprocessing_effect import format_effects, postprocessing_effects

DOWNSTREAM_MEAN = "downstream mean"
#: extra intrinsic metrics reported besides each task's main score
EXTRA_INTRINSIC = ("EvalRankSent:hits_at_1", "EvalRankSent:l2_mrr", "EvalRankWord:hits_at_1")
SIMILARITY = ("SentEvalSTS12", "SentEvalSTS13", "SentEvalSTS14", "SentEvalSTS15", "SentEvalSTS16",
              "SentEvalSTSB", "SentEvalSICKR", "STR")  # fmt: skip


def study_scores(out: Path, variants: Sequence[str], tasks: Sequence[str]) -> pd.DataFrame:
    """The models × scores matrix of the chosen zoo variants (main scores, extras, downstream mean)."""
    from mteb_evalrank.models.zoo import VARIANTS

    names = [t for t in tasks if t in STUDY_TASKS]
    names += [e for e in EXTRA_INTRINSIC if e.split(":")[0] in names]
    folder = read_results_folder(out)
    present, _ = _present_names(folder, names)
    scores, _ = score_matrix(folder, present)
    wanted = {VARIANTS[v].mteb_name for v in variants}
    scores = scores[scores.index.isin(wanted)].copy()
    down = [d for d in DOWNSTREAM_TASKS if d in scores.columns]
    if down:
        scores[DOWNSTREAM_MEAN] = scores[down].mean(axis=1, skipna=False)
    return scores


def _present_names(folder, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ``names`` into those some model has and those none has (e.g. HEROS without its data)."""
    from mteb_evalrank.errors import InputError

    present, missing = [], []
    for n in names:
        try:
            score_matrix(folder, [n])
            present.append(n)
        except InputError:
            missing.append(n)
    return present, missing


def write_study_report(out: str | Path, variants: Sequence[str], tasks: Sequence[str] = STUDY_TASKS, *,
                       n_resamples: int = 1000, seed: int = 0) -> str:  # fmt: skip
    """Write the study's tables and plots into ``out`` and return the Markdown page (also ``study.md``)."""
    from mteb_evalrank.models.zoo import BASES, VARIANTS, unprocessed_counterpart

    out = Path(out)
    scores = study_scores(out, variants, tasks)
    scores.to_csv(out / "scores.csv", float_format="%.6f")
    intrinsic = [c for c in [*INTRINSIC_TASKS, *EXTRA_INTRINSIC] if c in scores.columns]
    downstream = [c for c in [*DOWNSTREAM_TASKS, DOWNSTREAM_MEAN] if c in scores.columns]
    table = correlation_table(scores, intrinsic, downstream, n_resamples=n_resamples, seed=seed)
    write_csv(table, out / "correlation.csv")
    plot_heatmap(table, out / "correlation.png")
    if DOWNSTREAM_MEAN in scores.columns:
        plot_ranks(scores, DOWNSTREAM_MEAN, [c for c in ("EvalRankSent", "EvalRankWord", "SentEvalSTSB", "STR")
                                             if c in scores.columns], out / "ranks.png")  # fmt: skip
    main_md = format_markdown(table)
    (out / "correlation.md").write_text(main_md + "\n", encoding="utf-8")

    bow = [m for m in scores.index if BASES[_variant_of(m).base].kind == "static"]
    bow_md = ""
    if len(bow) >= 3:
        bow_intrinsic = [c for c in ("EvalRankWord", "EvalRankSent", *SIMILARITY) if c in scores.columns]
        bow_table = correlation_table(scores.loc[bow], bow_intrinsic, downstream, n_resamples=n_resamples, seed=seed)
        bow_md = format_markdown(bow_table)
        (out / "correlation_bow.md").write_text(bow_md + "\n", encoding="utf-8")

    pairs = [(a, b) for a, b in (("EvalRankSent", "SentEvalSTSB"), ("EvalRankSent", "STR"),
                                 ("EvalRankWord", "SentEvalSTSB")) if a in scores and b in scores]  # fmt: skip
    comp = comparisons(scores, pairs, downstream, n_resamples=n_resamples, seed=seed) if pairs else pd.DataFrame()

    effect_pairs = []
    for m in scores.index:
        plain = unprocessed_counterpart(_variant_of(m))
        if plain is not None:
            effect_pairs.append((m, plain.mteb_name))
    groups = {
        "similarity (STS12-16, STS-B, SICK-R, STR)": [c for c in SIMILARITY if c in scores],
        "EvalRank (Word, Sent)": [c for c in ("EvalRankWord", "EvalRankSent") if c in scores],
        "downstream (10 tasks)": [c for c in DOWNSTREAM_TASKS if c in scores],
    }
    effects = postprocessing_effects(scores, effect_pairs, groups)

    timing = json.loads((out / "timing.json").read_text(encoding="utf-8")) if (out / "timing.json").exists() else []
    lines = [f"# Correlation study: {len(scores)} zoo variants", ""]
    lines += ["## Scores (main score × 100)", "", _scores_markdown(scores), ""]
    lines += [f"## All {len(scores)} variants: ρ × 100 between intrinsic and downstream scores", "", main_md, ""]
    if bow_md:
        lines += [f"## Bag-of-words variants only ({len(bow)} models; word level, EvalRank Table 3)", "", bow_md, ""]
    if not comp.empty:
        lines += ["## Does A predict better than B? Paired bootstrap of ρ(A) − ρ(B) on the same models", "",
                  "| A | B | downstream | ρ(A) − ρ(B) | 95% interval | n |", "|---|---|---|---|---|---|"]  # fmt: skip
        for r in comp.itertuples():
            if r.note:
                lines.append(f"| {r.a} | {r.b} | {r.downstream} | {r.note} | | {r.n_models} |")
            else:
                lines.append(f"| {r.a} | {r.b} | {r.downstream} | {r.difference:+.1f} | [{r.ci_low:+.1f}, {r.ci_high:+.1f}] | {r.n_models} |")
        lines.append("")
    lines += ["## What post-processing does (EvalRank Table 10 reading)", "",
              "Mean change in points (×100) from each unprocessed variant to its post-processed version:", "",
              format_effects(effects, list(groups)), ""]  # fmt: skip
    if timing:
        lines += ["## Time", ""]
        for t in timing:
            lines.append(f"- {t['started']} shard {t['shard']}: {t['seconds']:.0f} s, {t['items_run']} (variant, task) "
                         f"evaluations run, {t['items_skipped_done']} already done; forward passes "
                         f"{t['forward_texts_by_base']}; embedding cache {t['cache_bytes'] / 2**20:.0f} MiB")  # fmt: skip
    page = "\n".join(lines) + "\n"
    (out / "study.md").write_text(page, encoding="utf-8")
    return page


def _variant_of(mteb_name: str):
    from mteb_evalrank.models.zoo import parse_zoo_name

    return parse_zoo_name(mteb_name)


def _scores_markdown(scores: pd.DataFrame) -> str:
    cols = [c for c in scores.columns if ":" not in c]
    short = {c: c.replace("SentEval", "") for c in cols}
    lines = ["| model | " + " | ".join(short[c] for c in cols) + " |", "|---|" + "---|" * len(cols)]
    for model, row in scores.iterrows():
        cells = ["" if pd.isna(row[c]) else f"{row[c] * 100:.1f}" for c in cols]
        lines.append(f"| {str(model).removeprefix('zoo/')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def study_command(out: str | Path, *, zoo: Sequence[str], tasks: Sequence[str] | None, shard: str | None,
                  batch_size: int, progress: bool, correlate_only: bool, n_resamples: int) -> int:  # fmt: skip
    """The CLI's ``study``: run (unless ``correlate_only``), then report unless this is one shard of several."""
    from mteb_evalrank.integration.study import parse_shard, run_study, select_variants

    out = Path(out)
    variants = select_variants(zoo)
    tasks = list(tasks or STUDY_TASKS)
    _, count = parse_shard(shard)
    if not correlate_only:
        start = time.perf_counter()
        run = run_study(out, variants=variants, tasks=tasks, shard=shard, batch_size=batch_size, progress=progress)
        print(f"\nstudy: {len(variants)} variants × {len(run.tasks)} tasks, shard {run.shard}: "
              f"{run.items_run} run, {run.items_skipped_done} already done, {len(run.failures)} failed, "
              f"{time.perf_counter() - start:.0f} s")  # fmt: skip
        print(f"forward passes (texts) per base: {run.forward_texts_by_base}; distinct texts cached: "
              f"{run.cached_texts_by_base}; embedding cache {run.cache_bytes / 2**20:.0f} MiB")  # fmt: skip
        for f in run.failures[:10]:
            print(f"  failed: zoo:{f['variant']} on {f['task']}: {f['error'][:200]}")
        if count > 1:
            print(f"shard {run.shard} done. When every shard has finished, write the report with:\n"
                  f"  mteb-evalrank study --out {out} --correlate-only")  # fmt: skip
            return 1 if run.failures else 0
    page = write_study_report(out, variants, tasks, n_resamples=n_resamples)
    print(page)
    print(f"report: {out / 'study.md'} (tables, correlation.csv, correlation.png, ranks.png)")
    return 0
