"""The correlation study's analysis: every number of one level of the study (EvalRank Table 6: sentence;
Table 3: word), from the models × scores matrix of a results folder.

- :class:`Level` — what a level correlates (:data:`SENTENCE`, :data:`WORD`, :data:`LEVELS`);
- :func:`study_scores` — the models × scores matrix and its sampling standard errors; :func:`population` —
  each model's family, lineage, floor and post-processing, from the zoo's definitions;
- :func:`analyse` → :class:`Analysis` — the correlation table, the exploratory comparisons, the noise of each
  downstream column, the post-processing effects (Table 10), the claim test
  (:func:`~mteb_evalrank.metrics.confirmatory.better_than_all`) and its sensitivity populations, the
  within-checkpoint permutation and the post-processing mean tests;
- :func:`confirmatory_findings` — the three claims, Holm across them;
- :func:`sensitivity_tables`, :func:`bag_of_words_table` — the exploratory correlation tables of subsets.

No files are written and nothing is rendered here: the Markdown is :mod:`mteb_evalrank.reports.study_rendering`,
the figures :mod:`mteb_evalrank.reports.study_figures`, the wiring :mod:`mteb_evalrank.reports.study`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mteb_evalrank.integration.study import (
    DOWNSTREAM_TASKS,
    INTRINSIC_TASKS,
    OTHER_WORD_SIMILARITY_TASKS,
    WORD_SIMILARITY_TASKS,
)
from mteb_evalrank.reports.correlation_study import correlation_table
from mteb_evalrank.reports.postprocessing_effect import postprocessing_effects
from mteb_evalrank.reports.results_reader import read_results_folder, read_standard_error, score_matrix

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
        v = variant_of(m)
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
        plain = unprocessed_counterpart(variant_of(m))
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


def variant_of(mteb_name: str):
    from mteb_evalrank.models.zoo import parse_zoo_name

    return parse_zoo_name(mteb_name)


def sensitivity_tables(scores: pd.DataFrame, pop: pd.DataFrame, primary: list[str], downstream: list[str],
                       families: dict[str, str], n_resamples: int, seed: int) -> list[tuple[str, list[str], Any]]:  # fmt: skip
    """The exploratory sensitivity populations — (a) without the random floors, (b) without the post-processed
    variants, (c) within each family of at least :data:`MIN_FAMILY_FOR_WITHIN` models — each as
    ``(title, models, correlation table)``; the table is ``None`` for fewer than 3 models."""
    subsets = [("(a) Without random floors", pop.index[~pop["floor"]]),
               ("(b) Without post-processed variants (EvalRank Table 11's check)", pop.index[~pop["postprocessed"]])]
    for fam, part in pop.groupby("family", sort=True):
        if len(part) >= MIN_FAMILY_FOR_WITHIN:
            subsets.append((f"(c) Within the {fam} family only", part.index))
    out: list[tuple[str, list[str], Any]] = []
    for title, models in subsets:
        models = list(models)
        if len(models) < 3:
            out.append((title, models, None))
            continue
        t = correlation_table(scores.loc[models], primary, downstream, families=families, n_resamples=n_resamples,
                              seed=seed)  # fmt: skip
        out.append((title, models, t))
    return out


def bag_of_words_table(a: Analysis, *, n_resamples: int, seed: int) -> tuple[list[str], pd.DataFrame] | None:
    """The sentence level's correlation table of the bag-of-words (``static``) variants only, with their names;
    ``None`` at the word level or with fewer than 3 such variants."""
    scores, pop = a.scores, a.pop
    bow = [m for m in scores.index if pop.loc[m, "kind"] == "static"]
    if a.level is not SENTENCE or len(bow) < 3:
        return None
    bow_intrinsic = [c for c in ("EvalRankWord", "EvalRankSent", *SIMILARITY) if c in scores.columns]
    table = correlation_table(scores.loc[bow], bow_intrinsic, a.downstream, families=pop["family"].to_dict(),
                              n_resamples=n_resamples, seed=seed)  # fmt: skip
    return bow, table
