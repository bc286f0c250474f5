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
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mteb_evalrank.integration.study import (
    DOWNSTREAM_TASKS,
    INTRINSIC_TASKS,
    OTHER_WORD_SIMILARITY_TASKS,
    STUDY_TASKS,
    WORD_SIMILARITY_TASKS,
    WORD_STUDY_TASKS,
)
from mteb_evalrank.reports.correlation_study import (
    correlation_table,
    format_markdown,
    plot_heatmap,
    plot_ranks,
    write_csv,
)
from mteb_evalrank.reports.results_reader import read_results_folder, read_standard_error, score_matrix
from mteb_evalrank.reports.postprocessing_effect import format_effects, postprocessing_effects
from mteb_evalrank.reports.rank_panels import plot_rank_panels

DOWNSTREAM_MEAN = "downstream mean"
#: exploratory intrinsic metrics reported (apart, never marked) besides each task's primary (main) score
EXTRA_INTRINSIC = ("EvalRankSent:hits_at_1", "EvalRankSent:l2_mrr", "EvalRankWord:hits_at_1")
SIMILARITY = ("SentEvalSTS12", "SentEvalSTS13", "SentEvalSTS14", "SentEvalSTS15", "SentEvalSTS16",
              "SentEvalSTSB", "SentEvalSICKR", "STR")  # fmt: skip
SENTENCE_CLAIM = "EvalRank (sentence) predicts downstream better than STS"
WORD_CLAIM = "EvalRank (word) predicts downstream better than word similarity"
MIN_FAMILY_FOR_WITHIN = 5


@dataclass(frozen=True)
class Level:
    """What one level of the study correlates (EvalRank Table 6: sentence; Table 3: word)."""

    name: str
    intrinsic: tuple[str, ...]  # primary scores, in table order
    exploratory: tuple[str, ...]  # other metrics of the same tasks: shown apart, never marked
    evalrank: tuple[str, ...]  # the EvalRank primary scores compared with every baseline
    baselines: tuple[str, ...]
    claim: str
    claim_score: str
    similarity_label: str
    prefix: str  # file-name prefix of this level's outputs
    page: str
    rank_cols: tuple[str, ...]


SENTENCE = Level("sentence", INTRINSIC_TASKS, EXTRA_INTRINSIC, ("EvalRankSent", "EvalRankWord"), SIMILARITY,
                 SENTENCE_CLAIM, "EvalRankSent", "similarity (STS12-16, STS-B, SICK-R, STR)", "", "study.md",
                 ("EvalRankSent", "SentEvalSTSB", "STR", "EvalRankWord"))  # fmt: skip
WORD = Level("word", ("EvalRankWord", *WORD_SIMILARITY_TASKS, *OTHER_WORD_SIMILARITY_TASKS),
             ("EvalRankWord:hits_at_1", "EvalRankWord:hits_at_3"), ("EvalRankWord",), WORD_SIMILARITY_TASKS,
             WORD_CLAIM, "EvalRankWord", "word similarity (the 9 sets of Table 3)", "word_", "word_level.md",
             ("EvalRankWord", "SimLex-999", "WS-353-All", "MEN-TR-3K"))  # fmt: skip
LEVELS = {"sentence": SENTENCE, "word": WORD}


def study_scores(out: Path, variants: Sequence[str], tasks: Sequence[str], level: Level = SENTENCE, *,
                 folder: Any = None) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The models × scores matrix of the chosen zoo variants (primary scores, exploratory extras, downstream
    mean) and the matching matrix of sampling standard errors."""
    from mteb_evalrank.metrics.sampling_error import mean_se
    from mteb_evalrank.models.zoo import VARIANTS

    known = set(level.intrinsic) | set(DOWNSTREAM_TASKS)
    names = [t for t in tasks if t in known]
    names += [e for e in level.exploratory if e.split(":")[0] in names]
    folder = folder if folder is not None else read_results_folder(out)
    present, _ = _present_names(folder, names)
    if not present:
        return pd.DataFrame(), pd.DataFrame()
    scores, _ = score_matrix(folder, present)
    errors, _ = score_matrix(folder, present, reader=read_standard_error, strict=False)
    wanted = {VARIANTS[v].mteb_name for v in variants if v in VARIANTS}
    scores = scores[scores.index.isin(wanted)].copy()
    errors = errors.reindex(index=scores.index, columns=scores.columns)
    down = [d for d in DOWNSTREAM_TASKS if d in scores.columns]
    if down:
        scores[DOWNSTREAM_MEAN] = scores[down].mean(axis=1, skipna=False)
        errors[DOWNSTREAM_MEAN] = [mean_se(errors.loc[m, down]) for m in errors.index]
    return scores, errors


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


def population(models: Sequence[str]) -> pd.DataFrame:
    """One row per model: ``family`` (zoo checkpoint family), ``floor`` (random weights or vectors),
    ``postprocessed`` (whitening, ABTT, SIF), ``kind``, and its ``lineage`` with the reason
    (:mod:`mteb_evalrank.models.lineage`), read from the zoo's definitions."""
    from mteb_evalrank.models.lineage import lineage_of
    from mteb_evalrank.models.zoo import BASES

    rows = []
    for m in models:
        v = _variant_of(m)
        base = BASES[v.base]
        lineage, why = lineage_of(base.family_name)
        rows.append({"model": m, "family": base.family_name, "floor": bool(base.floor),
                     "postprocessed": v.whiten is not None or v.static_post is not None, "kind": base.kind,
                     "lineage": lineage, "lineage_reason": why})  # fmt: skip
    return pd.DataFrame(rows, columns=["model", *POPULATION_COLUMNS]).set_index("model")


POPULATION_COLUMNS = ["family", "floor", "postprocessed", "kind", "lineage", "lineage_reason"]


@dataclass
class Analysis:
    """Every number of one level of the study (see :func:`analyse`)."""

    level: Level
    scores: pd.DataFrame
    errors: pd.DataFrame
    pop: pd.DataFrame
    table: pd.DataFrame
    comp: pd.DataFrame
    noise: pd.DataFrame
    effects: pd.DataFrame
    groups: dict[str, list[str]]
    primary: list[str]
    downstream: list[str]
    claim: Any = None  # metrics.confirmatory.BetterThanAll on the primary population (no floors, by lineage)
    claim_sensitivity: dict[str, Any] = field(default_factory=dict)  # the same test on other populations/clusters
    within: Any = None  # metrics.confirmatory.WithinPermutation
    pp_similarity: Any = None  # metrics.confirmatory.MeanTest of the similarity change
    pp_downstream: Any = None
    n_pairs: int = 0

    def claim_finding(self, n_claims: int = 3, alpha: float = 0.05):
        from mteb_evalrank.reports.verdict import better_than_all_finding

        primary = self.pop.index[~self.pop["floor"]]
        lineages = self.pop.loc[primary, "lineage"].nunique()
        where = (f"{len(primary)} {self.level.name}-level models in {lineages} lineages without the random floors "
                 f"({int(self.pop['floor'].sum())} excluded). ")  # fmt: skip
        baselines = [b for b in self.level.baselines if b in self.scores.columns]
        return better_than_all_finding(self.level.claim, self.claim, self.level.claim_score, DOWNSTREAM_MEAN, baselines,
                                       alpha=alpha, n_claims=n_claims, population=where)  # fmt: skip

    def postprocessing_finding(self, n_claims: int = 3, alpha: float = 0.05):
        from mteb_evalrank.reports.verdict import postprocessing_finding

        return postprocessing_finding(self.pp_similarity, self.pp_downstream, n_pairs=self.n_pairs, alpha=alpha,
                                      n_claims=n_claims, similarity_label=self.level.similarity_label)  # fmt: skip

    def within_finding(self, alpha: float = 0.05):
        from mteb_evalrank.reports.verdict import within_checkpoint_finding

        return within_checkpoint_finding(self.level.claim_score, DOWNSTREAM_MEAN, self.within, alpha=alpha)


def _claim_test(scores: pd.DataFrame, pop: pd.DataFrame, level: Level, models, clusters: str, *, n_resamples: int,
                seed: int):  # fmt: skip
    """:func:`~mteb_evalrank.metrics.confirmatory.better_than_all` of the level's claim on ``models``."""
    from mteb_evalrank.metrics.confirmatory import better_than_all

    baselines = [b for b in level.baselines if b in scores.columns]
    if level.claim_score not in scores.columns or DOWNSTREAM_MEAN not in scores.columns or not baselines:
        return None
    part = scores.loc[list(models), [level.claim_score, *baselines, DOWNSTREAM_MEAN]].dropna()
    return better_than_all(part[level.claim_score].to_numpy(), {b: part[b].to_numpy() for b in baselines},
                           part[DOWNSTREAM_MEAN].to_numpy(), pop.loc[part.index, clusters].tolist(),
                           n_resamples=n_resamples, seed=seed)  # fmt: skip


def analyse(out: Path, variants: Sequence[str], tasks: Sequence[str], level: Level, *, n_resamples: int = 1000,
            seed: int = 0, folder: Any = None) -> Analysis | None:  # fmt: skip
    """Correlations, exploratory comparisons, noise, Table 10 effects and the level's confirmatory tests
    (``None``: no results).  The confirmatory tests run on the models that are not random floors and
    resample whole lineages; the sensitivity lines rerun them with the floors and by checkpoint family."""
    from mteb_evalrank.metrics.confirmatory import mean_tests, within_cluster_permutation
    from mteb_evalrank.models.zoo import unprocessed_counterpart
    from mteb_evalrank.reports.correlation_study import fair_comparisons, noise_table
    from mteb_evalrank.reports.verdict import EQUIVALENCE_MARGIN

    scores, errors = study_scores(out, variants, tasks, level, folder=folder)
    if scores.empty:
        return None
    pop = population(list(scores.index))
    families = pop["family"].to_dict()
    intrinsic = [c for c in [*level.intrinsic, *level.exploratory] if c in scores.columns]
    primary = [c for c in intrinsic if ":" not in c]
    downstream = [c for c in [*DOWNSTREAM_TASKS, DOWNSTREAM_MEAN] if c in scores.columns]
    table = correlation_table(scores, intrinsic, downstream, families=families, n_resamples=n_resamples, seed=seed)
    real = pop.index[~pop["floor"]]
    lineage = pop["lineage"].to_dict()
    comp = fair_comparisons(scores.loc[real], list(level.evalrank), list(level.baselines), downstream,
                            families=lineage, n_resamples=n_resamples, seed=seed)  # fmt: skip
    noise = noise_table(scores, errors, downstream)
    effect_pairs = []
    for m in scores.index:
        plain = unprocessed_counterpart(_variant_of(m))
        if plain is not None:
            effect_pairs.append((m, plain.mteb_name))
    groups = {
        level.similarity_label: [c for c in level.baselines if c in scores],
        "EvalRank": [c for c in level.evalrank if c in scores],
        "downstream (10 tasks)": [c for c in DOWNSTREAM_TASKS if c in scores],
    }
    effects = postprocessing_effects(scores, effect_pairs, groups)
    a = Analysis(level, scores, errors, pop, table, comp, noise, effects, groups, primary, downstream)
    boot = {"n_resamples": max(n_resamples, 2000), "seed": seed}
    a.claim = _claim_test(scores, pop, level, real, "lineage", **boot)
    a.claim_sensitivity = {
        "with the random floors, by lineage": _claim_test(scores, pop, level, pop.index, "lineage", **boot),
        "without the floors, by checkpoint family": _claim_test(scores, pop, level, real, "family", **boot),
    }
    if level.claim_score in scores.columns and DOWNSTREAM_MEAN in scores.columns:
        part = scores.loc[real, [level.claim_score, DOWNSTREAM_MEAN]].dropna()
        a.within = within_cluster_permutation(part[level.claim_score].to_numpy(), part[DOWNSTREAM_MEAN].to_numpy(),
                                              pop.loc[part.index, "family"].tolist(), seed=seed)  # fmt: skip
    sim, down = level.similarity_label, "downstream (10 tasks)"
    if not effects.empty and sim in effects and down in effects:
        ok = effects[~effects["processed"].map(pop["floor"]).astype(bool)]
        ok = ok[ok[[sim, down]].notna().all(axis=1)]
        clusters = ok["processed"].map(lineage).tolist()
        if len(ok):
            a.n_pairs = len(ok)
            a.pp_similarity = mean_tests(ok[sim].to_numpy(), clusters, **boot)
            a.pp_downstream = mean_tests(ok[down].to_numpy(), clusters, margin=EQUIVALENCE_MARGIN, **boot)
    return a


def confirmatory_findings(sentence: Analysis | None, word: Analysis | None, alpha: float = 0.05) -> list[Any]:
    """The three confirmatory claims (sentence, word, post-processing at sentence level), Holm across them."""
    from mteb_evalrank.reports.verdict import INCONCLUSIVE, Finding, adjust_across_claims

    def missing(claim: str, what: str) -> Any:
        return Finding(claim, INCONCLUSIVE, f"Not tested: no {what} results in this study.", "see docs/statistics.md")

    raw = [sentence.claim_finding(alpha=alpha) if sentence is not None else missing(SENTENCE_CLAIM, "sentence-level"),
           word.claim_finding(alpha=alpha) if word is not None else missing(WORD_CLAIM, "word-level (study --level word)"),
           sentence.postprocessing_finding(alpha=alpha) if sentence is not None
           else missing("Post-processing helps similarity scores but not downstream (EvalRank Table 10)", "sentence-level")]  # fmt: skip
    return adjust_across_claims(raw, alpha)


def claim_sensitivity_lines(analyses: Sequence[Analysis | None]) -> list[str]:
    """Exploratory: the claims' tests rerun with the floors and by checkpoint family (never deciding)."""
    from mteb_evalrank.reports.verdict import format_p as _p

    lines = []
    for a in analyses:
        if a is None:
            continue
        for label, t in a.claim_sensitivity.items():
            if t is None or not t.contrasts:
                continue
            worst = min(t.contrasts, key=lambda c: c.difference)
            lines.append(f"- {a.level.claim_score} vs every baseline, {label} ({t.n_models} models, {t.n_clusters} "
                         f"clusters): smallest advantage {worst.difference:+.1f} over {worst.baseline}; "
                         f"intersection-union {_p(t.p_support)}, some baseline better {_p(t.p_refute)}; "
                         f"minimum detectable difference {_mdd(t.mdd)}")  # fmt: skip
    return lines


def _mdd(mdd: float) -> str:
    import math

    return f"{mdd:.1f} ρ points" if math.isfinite(mdd) else "none (a baseline ranks the models as the score does)"


def word_level_variants(out: Path, *, folder: Any = None) -> list[str]:
    """Zoo variants of ``out``'s results that have EvalRankWord and a word-similarity task (the word population)."""
    from mteb_evalrank.models.zoo import VARIANTS

    folder = folder if folder is not None else read_results_folder(out)
    tasks_of: dict[str, set[str]] = {}
    for r in folder.records:
        tasks_of.setdefault(r["model"], set()).add(r["task"])
    names = {v.mteb_name: k for k, v in VARIANTS.items()}
    return sorted(names[m] for m, t in tasks_of.items()
                  if m in names and "EvalRankWord" in t and t & set(WORD_SIMILARITY_TASKS))  # fmt: skip


def write_study_report(out: str | Path, variants: Sequence[str], tasks: Sequence[str] = STUDY_TASKS, *,
                       level: str = "sentence", n_resamples: int = 1000, seed: int = 0) -> str:  # fmt: skip
    """Write one level's tables and plots into ``out`` and return its Markdown page (``study.md`` for the
    sentence level, ``word_level.md`` for the word level).

    The page opens with *Findings* (:mod:`mteb_evalrank.reports.verdict`), then *Reproduce* and what was
    skipped or failed; then the population, the primary table with its exploratory block, the noise of each
    downstream column, the fair comparisons, the sensitivity tables, Table 10 and the scores.  The sentence
    page also carries the word-level Finding when word-level results exist in ``out``."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.reports.correlation_study import format_comparisons, format_noise

    out = Path(out)
    spec = LEVELS[level]
    folder = read_results_folder(out)  # read once: every table of the page comes from it
    a = analyse(out, variants, tasks, spec, n_resamples=n_resamples, seed=seed, folder=folder)
    if a is None or a.scores.empty:
        raise InputError(f"no results of the chosen zoo variants in {out / 'results'}; run the study first.")
    if not a.downstream:
        raise InputError(f"no downstream task has results for the {len(a.scores)} {level}-level variants in "
                         f"{out / 'results'}: the correlation needs at least one (run the study with its downstream "
                         "tasks, e.g. without --tasks); the intrinsic results are saved.")  # fmt: skip
    scores, pop, table, comp = a.scores, a.pop, a.table, a.comp
    families = pop["family"].to_dict()
    pre = spec.prefix
    scores.to_csv(out / f"{pre}scores.csv", float_format="%.6f")
    pop.to_csv(out / f"{pre}population.csv")  # model, family, floor, postprocessed, kind: usable as correlate --families
    a.errors.to_csv(out / f"{pre}standard_errors.csv", float_format="%.6f")  # sampling standard error of every score
    write_csv(table, out / f"{pre}correlation.csv")
    comp.to_csv(out / f"{pre}comparisons.csv", index=False, float_format="%.4f")
    n_fam = pop["family"].nunique()
    plot_heatmap(table[table["primary"]], out / f"{pre}correlation.png",
                 title=f"Spearman ρ×100 across {len(scores)} models in {n_fam} families (primary scores)")  # fmt: skip
    rank_cols = [c for c in spec.rank_cols if c in scores.columns]
    plots = [f"{pre}correlation.png"]
    if "SentEvalMR" in scores.columns and rank_cols:  # EvalRank Figure 4: MR as the pivot, SST2 and the intrinsic scores
        plot_rank_panels(scores, "SentEvalMR", ["SentEvalSST2", *rank_cols], families, out / f"{pre}ranks.png")
        plots.append(f"{pre}ranks.png")
    for d in ("SentEvalMR", "SentEvalSST2", DOWNSTREAM_MEAN):  # the same, one axes per pivot, with model names
        if d in scores.columns and rank_cols:
            name = f"{pre}ranks_{'mean' if d == DOWNSTREAM_MEAN else d.removeprefix('SentEval').lower()}.png"
            plot_ranks(scores, d, rank_cols, out / name)
            plots.append(name)
    ratios = dict(zip(a.noise["score"], a.noise["ratio"]))
    main_md = format_markdown(table, noise=ratios)
    (out / f"{pre}correlation.md").write_text(main_md + "\n", encoding="utf-8")

    if spec is SENTENCE:
        sent = a
        words = word_level_variants(out, folder=folder)
        word = analyse(out, words, WORD_STUDY_TASKS, WORD, n_resamples=n_resamples, seed=seed, folder=folder) if words else None
    else:
        word = a
        sent = analyse(out, _sentence_variants(out), STUDY_TASKS, SENTENCE, n_resamples=n_resamples, seed=seed,
                       folder=folder)  # fmt: skip
    findings = confirmatory_findings(sent, word)
    second = [x.within_finding() for x in (sent, word) if x is not None]

    timing = json.loads((out / "timing.json").read_text(encoding="utf-8")) if (out / "timing.json").exists() else []
    title = "Correlation study" if spec is SENTENCE else "Word-level study (EvalRank Table 3)"
    n_lin = pop.loc[~pop["floor"], "lineage"].nunique()
    lines = [f"# {title}: {len(scores)} zoo variants in {n_fam} families, {n_lin} lineages without the random floors", ""]
    lines += ["## Findings", "",
              "The three confirmatory claims. Each is decided by the one test printed with it, named with its "
              "competitors, target and margin before the results were read; Holm's correction runs across these "
              "three claims only. Models are counted by lineage (shared weights or training) and random floors are "
              "left out. Everything below the Findings is exploratory. The rule is in docs/statistics.md.", "",
              *[f.line() for f in findings], ""]  # fmt: skip
    lines += ["### Second estimand: within a checkpoint", "",
              "Does the score pick the better pooling, layer or post-processing of one checkpoint? A test of its own, "
              "fixed in advance, not one of the three claims.", "", *[f.line() for f in second], ""]  # fmt: skip
    sens = claim_sensitivity_lines([sent, word])
    if sens:
        lines += ["### Sensitivity of the claims (exploratory, never deciding)", "", *sens, ""]
    lines += _reproduce_block(out, timing, variants, tasks, level)
    lines += _gaps_block(scores, timing, tasks, variants)
    lines += ["## Population", "", _population_markdown(pop), ""]
    lines += [f"## Primary table: all {len(scores)} variants", "", main_md, ""]
    lines += ["## Is each downstream score above its noise?", "", format_noise(a.noise), ""]
    if len(comp):
        lines += ["## Exploratory: each EvalRank score against each baseline, per downstream column", "",
                  f"Each EvalRank primary score against every {spec.similarity_label} baseline present, per downstream "
                  f"column, without the random floors (paired lineage bootstrap, {n_resamples} resamples, seed {seed}). "
                  "Unadjusted p and Benjamini-Hochberg q over this table; none of these decides a Finding.", "",
                  format_comparisons(comp), ""]  # fmt: skip
    lines += ["## Sensitivity", ""]
    lines += _sensitivity_blocks(scores, pop, a.primary, a.downstream, families, ratios, n_resamples, seed)
    bow = [m for m in scores.index if pop.loc[m, "kind"] == "static"]
    if spec is SENTENCE and len(bow) >= 3:
        bow_intrinsic = [c for c in ("EvalRankWord", "EvalRankSent", *SIMILARITY) if c in scores.columns]
        bow_table = correlation_table(scores.loc[bow], bow_intrinsic, a.downstream, families=families,
                                      n_resamples=n_resamples, seed=seed)  # fmt: skip
        bow_md = format_markdown(bow_table, noise=ratios)
        (out / "correlation_bow.md").write_text(bow_md + "\n", encoding="utf-8")
        lines += [f"### Bag-of-words variants only ({len(bow)} models, {pop.loc[bow, 'family'].nunique()} families)", "",
                  bow_md, ""]  # fmt: skip
    lines += ["## What post-processing does (EvalRank Table 10 reading)", "",
              "Mean change in points (×100) from each unprocessed variant to its post-processed version:", "",
              format_effects(a.effects, list(a.groups)), ""]  # fmt: skip
    lines += ["## Plots", ""]
    for p in plots:
        pivot = p.rsplit("_", 1)[-1][:-4]
        what = ("the primary table as a heatmap" if p.endswith("correlation.png") else
                f"EvalRank Figure 4: every model's rank on SentEvalMR (x) against its rank on SentEvalSST2 and under "
                f"{', '.join(rank_cols)} (one panel each, coloured by family)" if p.endswith("ranks.png") else
                f"every model's rank under {', '.join(rank_cols)} against its rank on "
                f"{'the downstream mean' if pivot == 'mean' else pivot.upper()}, model names on the axis")  # fmt: skip
        lines.append(f"- `{p}`: {what}")
    lines += ["", "## Scores (main score × 100)", "", _scores_markdown(scores, families), ""]
    if timing:
        from mteb_evalrank.models.zoo import BASES, VARIANTS
        from mteb_evalrank.reports.study_timing import family_times, format_family_times

        timed = [v for v in variants if v in VARIANTS]
        rows = family_times(timing, timed, {v: BASES[VARIANTS[v].base].family_name for v in timed},
                            {v: VARIANTS[v].base for v in timed})  # fmt: skip
        lines += ["## Time", "", "Wall seconds per family: each variant's last recorded time (loading and its tasks; "
                  "a base's first variant encodes every text when its embedding store is empty, *cold*). "
                  "\"complete\" means every variant was timed and every base from cold; variants run before "
                  "per-variant timing existed count as untimed.", "", format_family_times(rows), "", "Runs:", ""]  # fmt: skip
        for t in timing:
            lines.append(f"- {t['started']} shard {t['shard']}: {t['seconds']:.0f} s, {t['items_run']} (variant, task) "
                         f"evaluations run, {t['items_skipped_done']} already done; forward passes "
                         f"{t['forward_texts_by_base']}; embedding cache {t['cache_bytes'] / 2**20:.0f} MiB")  # fmt: skip
    page = "\n".join(lines) + "\n"
    (out / spec.page).write_text(page, encoding="utf-8")
    return page


def _reproduce_block(out: Path, timing: list[dict], variants: Sequence[str], tasks: Sequence[str],
                     level: str = "sentence") -> list[str]:
    from mteb_evalrank.integration.study import run_environment

    now = run_environment()
    runs = [t for t in timing if t.get("items_run")]
    envs = [t.get("environment") or {} for t in runs]
    setup = (["pip install torch==2.13.0 -e \".[zoo,word-models]\"",
              "apt-get install dict-gcide wordnet-base bible-kjv   # the corpus of the word vectors trained here",
              "mteb-evalrank fetch-weights mpnet-base && mteb-evalrank build-word-models"] if level == "word" else
             ["pip install torch==2.13.0 -e \".[zoo,population]\"",
              "apt-get install wordnet-base   # the neutral corpus of LSA, TF-IDF and SimCSE",
              "mteb-evalrank fetch-weights tfidf-wordnet && mteb-evalrank fetch-weights simcse-spacy-sm"])  # fmt: skip
    lines = ["## Reproduce", "", "```bash", *setup,
             "export MTEB_EVALRANK_ZOO_THREADS=1 OMP_NUM_THREADS=1   # one thread per process; one process per core",
             "export MTEB_EVALRANK_SOURCES=/path/to/sources   # offline: the raw sources (see Data)",
             f"mteb-evalrank study --level {level} --out {out.as_posix()}   # resumes: finished (variant, task) pairs are skipped",
             f"mteb-evalrank study --level {level} --out {out.as_posix()} --correlate-only   # this page, from the committed results",
             "```", ""]  # fmt: skip
    wall = sum(float(t.get("seconds", 0)) for t in timing)
    lines.append(f"- results: `{(out / 'results').as_posix()}/` ({len(variants)} variants requested, {len(tasks)} tasks); "
                 f"total wall time of the runs {wall:.0f} s over {len(timing)} invocation(s)")  # fmt: skip
    for k, (t, env) in enumerate(zip(runs, envs), 1):
        stopped = (" (stopped before the end" + (f": {t['note']}" if t.get("note") else "") + ")" if t.get("finished") is False
                   else f" ({t['note']})" if t.get("note") else "")  # fmt: skip
        if env:
            lines.append(f"- run {k} ({t['started']}, {t['seconds']:.0f} s, {t['items_run']} evaluations{stopped}): "
                         + ", ".join(f"{key} {env[key]}" for key in ("command", "commit", "python", "mteb", "torch",
                                                                     "sentence-transformers", "numpy", "cpu") if key in env))  # fmt: skip
        else:
            lines.append(f"- run {k} ({t['started']}, {t['seconds']:.0f} s, {t['items_run']} evaluations): environment "
                         "not recorded (a run before environments were recorded)")  # fmt: skip
    lines.append("- this report: " + ", ".join(f"{key} {now[key]}" for key in ("commit", "python", "mteb", "torch",
                                                                            "sentence-transformers", "numpy", "cpu", "date")))  # fmt: skip
    return lines + [""]


def _gaps_block(scores: pd.DataFrame, timing: list[dict], tasks: Sequence[str],
                variants: Sequence[str] = ()) -> list[str]:  # fmt: skip
    from mteb_evalrank.models.zoo import VARIANTS

    lines = ["## Skipped and failed", ""]
    absent = [v for v in variants if v in VARIANTS and VARIANTS[v].mteb_name not in scores.index]
    if absent:
        lines.append(f"- {len(absent)} requested variant(s) have no result for any task yet (not run; the next "
                     f"`study` run resumes with them): {', '.join(absent)}")  # fmt: skip
    skipped: dict[str, str] = {}
    for t in timing:  # only this report's tasks: the word level never runs HEROS, say
        skipped.update({k: why for k, why in (t.get("skipped_tasks") or {}).items() if k in tasks})
    failures = {(f["variant"], f["task"]): f["error"] for t in timing for f in t.get("failures", [])}
    for task, why in sorted(skipped.items()):
        lines.append(f"- task {task} skipped for every model: {why}")
    missing = []
    for task in [t for t in tasks if t in STUDY_TASKS or t in WORD_STUDY_TASKS]:
        if task in skipped:
            continue
        if task not in scores.columns:
            missing.append(f"- task {task}: no model has a result")
            continue
        for m in scores.index[scores[task].isna()]:
            why = failures.get((str(m).removeprefix("zoo/").replace("__", "/", 1), task), "no result file (not run yet)")
            missing.append(f"- {m} × {task}: {why[:200]}")
    lines += missing or (["- nothing else: every model has every other task"] if not skipped else [])
    return lines + [""]


def _population_markdown(pop: pd.DataFrame) -> str:
    lines = ["| lineage | family | models | random floor | post-processed | variants |", "|---|---|---|---|---|---|"]
    for (lin, fam), part in pop.groupby(["lineage", "family"], sort=True):
        names = ", ".join(str(m).removeprefix("zoo/").replace("__", "/", 1) for m in part.index)
        lines.append(f"| {lin} | {fam} | {len(part)} | {int(part['floor'].sum())} | {int(part['postprocessed'].sum())} "
                     f"| {names} |")  # fmt: skip
    real = pop[~pop["floor"]]
    lines += ["", f"{len(pop)} models in {pop['family'].nunique()} families and {pop['lineage'].nunique()} lineages; "
              f"without the random floors {len(real)} models in {real['lineage'].nunique()} lineages, the units the "
              "confirmatory tests resample. The family of a zoo variant is its base's checkpoint (a quantised copy of a "
              "checkpoint is in the checkpoint's family); a lineage groups the families that share weights or training "
              "(`mteb_evalrank/models/lineages.json`):", ""]  # fmt: skip
    for lin, part in pop.groupby("lineage", sort=True):
        lines.append(f"- `{lin}`: {part['lineage_reason'].iloc[0]}")
    return "\n".join(lines)


def _sensitivity_blocks(scores: pd.DataFrame, pop: pd.DataFrame, primary: list[str], downstream: list[str],
                        families: dict[str, str], ratios: dict[str, float], n_resamples: int, seed: int) -> list[str]:  # fmt: skip
    subsets = [("(a) Without random floors", pop.index[~pop["floor"]]),
               ("(b) Without post-processed variants (EvalRank Table 11's check)", pop.index[~pop["postprocessed"]])]
    for fam, part in pop.groupby("family", sort=True):
        if len(part) >= MIN_FAMILY_FOR_WITHIN:
            subsets.append((f"(c) Within the {fam} family only", part.index))
    lines: list[str] = []
    for title, models in subsets:
        models = list(models)
        if len(models) < 3:
            lines += [f"### {title}", "", f"{len(models)} models: too few for ρ.", ""]
            continue
        t = correlation_table(scores.loc[models], primary, downstream, families=families, n_resamples=n_resamples,
                              seed=seed)  # fmt: skip
        lines += [f"### {title}: {len(models)} models, {pop.loc[models, 'family'].nunique()} families", "",
                  format_markdown(t, noise=ratios), ""]  # fmt: skip
    return lines


def _has_result(out: Path, variant: str, task: str) -> bool:
    """Whether ``out/results`` holds a ``task`` result of the zoo ``variant`` (any revision)."""
    from mteb_evalrank.models.zoo import VARIANTS

    folder = out / "results" / VARIANTS[variant].mteb_name.replace("/", "__")
    return any(folder.glob(f"*/{task}.json"))


def _sentence_variants(out: Path) -> list[str]:
    """The sentence study's default population with sentence-level results in ``out``."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import select_variants

    try:
        return [v for v in select_variants(["population"], installed_only=False) if _has_result(out, v, "EvalRankSent")]
    except InputError:
        return []


def _variant_of(mteb_name: str):
    from mteb_evalrank.models.zoo import parse_zoo_name

    return parse_zoo_name(mteb_name)


def _scores_markdown(scores: pd.DataFrame, families: dict[str, str]) -> str:
    cols = [c for c in scores.columns if ":" not in c]
    short = {c: c.replace("SentEval", "") for c in cols}
    lines = ["| model | family | " + " | ".join(short[c] for c in cols) + " |", "|---|---|" + "---|" * len(cols)]
    for model, row in scores.iterrows():
        cells = ["" if pd.isna(row[c]) else f"{row[c] * 100:.1f}" for c in cols]
        lines.append(f"| {str(model).removeprefix('zoo/')} | {families.get(model, model)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def default_word_variants(*, installed_only: bool = True) -> list[str]:
    """The word-level population: the ``word`` selection of the zoo when it exists, else every installed
    static (word-vector) variant."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import select_variants
    from mteb_evalrank.integration.zoo import variant_status
    from mteb_evalrank.models.zoo import BASES, VARIANTS

    try:
        return select_variants("word", installed_only=installed_only)
    except InputError:
        return [v for v in sorted(VARIANTS) if BASES[VARIANTS[v].base].kind == "static"
                and variant_status(VARIANTS[v]) == "installed"]  # fmt: skip


def study_command(out: str | Path, *, zoo: Sequence[str] | None, tasks: Sequence[str] | None, shard: str | None,
                  batch_size: int, progress: bool, correlate_only: bool, n_resamples: int,
                  level: str = "sentence") -> int:  # fmt: skip
    """The CLI's ``study``: run (unless ``correlate_only``), then report unless this is one shard of several.

    ``level="sentence"`` (EvalRank Table 6): the zoo's ``population`` selection (every installed sentence-level
    variant of all families but the slow bases; it contains the first study's 27 ``study`` variants) on the
    sentence study's tasks;
    ``level="word"`` (Table 3): the word models on EvalRankWord, the 13 word-similarity tasks and the 10
    downstream tasks, reported in ``word_level.md``."""
    from mteb_evalrank.errors import InputError
    from mteb_evalrank.integration.study import parse_shard, run_study, select_variants

    if level not in LEVELS:
        raise InputError(f"--level must be one of {', '.join(LEVELS)}, got {level!r}.")
    out = Path(out)
    if level == "word":
        variants = (select_variants(zoo, installed_only=not correlate_only) if zoo
                    else default_word_variants(installed_only=not correlate_only))  # fmt: skip
        tasks = list(tasks or WORD_STUDY_TASKS)
    else:
        variants = select_variants(zoo or ["population"], installed_only=not correlate_only)
        if correlate_only and not zoo:  # a report from committed results: the variants run at sentence level
            variants = [v for v in variants if _has_result(out, v, "EvalRankSent")]
        tasks = list(tasks or STUDY_TASKS)
    if not variants:
        raise InputError(f"no installed zoo variant for the {level} level; see `mteb-evalrank models`.")
    _, count = parse_shard(shard)
    if not correlate_only:
        start = time.perf_counter()
        run = run_study(out, variants=variants, tasks=tasks, shard=shard, batch_size=batch_size, progress=progress)
        print(f"\nstudy ({level} level): {len(variants)} variants × {len(run.tasks)} tasks, shard {run.shard}: "
              f"{run.items_run} run, {run.items_skipped_done} already done, {len(run.failures)} failed, "
              f"{time.perf_counter() - start:.0f} s")  # fmt: skip
        print(f"forward passes (texts) per base: {run.forward_texts_by_base}; distinct texts cached: "
              f"{run.cached_texts_by_base}; embedding cache {run.cache_bytes / 2**20:.0f} MiB")  # fmt: skip
        for f in run.failures[:10]:
            print(f"  failed: zoo:{f['variant']} on {f['task']}: {f['error'][:200]}")
        if count > 1:
            print(f"shard {run.shard} done. When every shard has finished, write the report with:\n"
                  f"  mteb-evalrank study --level {level} --out {out} --correlate-only")  # fmt: skip
            return 1 if run.failures else 0
    page = write_study_report(out, variants, tasks, level=level, n_resamples=n_resamples)
    print(page)
    print(f"report: {out / LEVELS[level].page} (tables, {LEVELS[level].prefix}correlation.csv, plots)")
    return 0
