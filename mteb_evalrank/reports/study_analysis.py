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
    SIMILARITY_BASELINES,
    WORD_SIMILARITY_TASKS,
)
from mteb_evalrank.integration.task_lookup import plugin_task_names, task_selection
from mteb_evalrank.reports.correlation_study import correlation_table
from mteb_evalrank.reports.postprocessing_effect import postprocessing_effects
from mteb_evalrank.reports.results_reader import read_results_folder, read_standard_error, score_matrix

DOWNSTREAM_MEAN = "downstream mean"
#: exploratory intrinsic metrics reported (apart, never marked) besides each task's primary (main) score
EXTRA_INTRINSIC = ("EvalRankSent:hits_at_1", "EvalRankSent:l2_mrr", "EvalRankWord:hits_at_1")
#: the sentence level's similarity baselines named in advance (the tasks whose role is "baseline")
SIMILARITY = SIMILARITY_BASELINES
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


SENTENCE = Level(
    "sentence",
    INTRINSIC_TASKS,
    EXTRA_INTRINSIC,
    # the EvalRank tasks, this level's first
    (
        *plugin_task_names(role="intrinsic", input_level="sentence"),
        *plugin_task_names(role="intrinsic", input_level="word"),
    ),
    SIMILARITY,
    SENTENCE_CLAIM,
    "EvalRankSent",
    "similarity (STS12-16, STS-B, SICK-R, STR)",
    "",
    "study.md",
    task_selection("study_rank_panels", "sentence"),
)
WORD = Level(
    "word",
    (*plugin_task_names(role="intrinsic", input_level="word"), *WORD_SIMILARITY_TASKS, *OTHER_WORD_SIMILARITY_TASKS),
    ("EvalRankWord:hits_at_1", "EvalRankWord:hits_at_3"),
    plugin_task_names(role="intrinsic", input_level="word"),
    WORD_SIMILARITY_TASKS,
    WORD_CLAIM,
    "EvalRankWord",
    "word similarity (the 9 sets of Table 3)",
    "word_",
    "word_level.md",
    task_selection("study_rank_panels", "word"),
)
LEVELS = {"sentence": SENTENCE, "word": WORD}


def study_scores(
    out: Path, variants: Sequence[str], tasks: Sequence[str], level: Level = SENTENCE, *, folder: Any = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The models × scores matrix of the chosen zoo variants (primary scores, exploratory extras, downstream
    mean) and the matching matrix of sampling standard errors."""
    from mteb_evalrank.metrics.sampling_error import mean_se
    from mteb_evalrank.zoo.adapter import VARIANTS

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
    """One row per model, read from the zoo's definitions: ``family`` (zoo checkpoint family), ``floor`` (random
    weights or vectors), ``postprocessed`` (whitening, ABTT, SIF), ``kind`` (the model kind: ``bag-of-words`` or
    ``contextual``), its ``lineage`` with the reason (:mod:`mteb_evalrank.models.lineage`), ``left_out`` (a
    lineage the rule leaves out of the confirmatory tests), ``unprocessed`` (the model without its
    post-processing, if it is in the zoo) and the within-checkpoint contrast factors
    (:func:`~mteb_evalrank.zoo.variants.contrast_factors`, through the zoo's adapter)."""
    from mteb_evalrank.models.lineage import left_out_lineages, lineage_of
    from mteb_evalrank.zoo.adapter import BASES, contrast_factors, unprocessed_counterpart

    rows = []
    for m in models:
        v = variant_of(m)
        base = BASES[v.base]
        lineage, why = lineage_of(base.family_name)
        plain = unprocessed_counterpart(v)
        rows.append(
            {
                "model": m,
                "family": base.family_name,
                "floor": bool(base.floor),
                "postprocessed": v.whiten is not None or v.static_post is not None,
                "kind": base.model_kind_name,
                "lineage": lineage,
                "lineage_reason": why,
                "left_out": lineage in left_out_lineages(),
                "unprocessed": plain.mteb_name if plain is not None else "",
                **contrast_factors(v),
            }
        )
    return pd.DataFrame(rows, columns=["model", *POPULATION_COLUMNS]).set_index("model")


#: the within-checkpoint contrast factors of a population (the second estimand's pair types)
FACTOR_COLUMNS = ["recipe", "quantisation", "training", "dimension", "pooling", "layer", "post-processing"]
POPULATION_COLUMNS = [
    "family",
    "floor",
    "postprocessed",
    "kind",
    "lineage",
    "lineage_reason",
    "left_out",
    "unprocessed",
    *FACTOR_COLUMNS,
]


def confirmatory_models(pop: pd.DataFrame) -> pd.Index:
    """The models the confirmatory tests use: no random floor, no lineage the rule leaves out."""
    keep = ~pop["floor"].astype(bool)
    if "left_out" in pop:
        keep &= ~pop["left_out"].astype(bool)
    return pop.index[keep]


#: the confirmatory claims of the study (Holm runs across them): sentence, word, post-processing
N_CLAIMS = 3


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
    claim: Any = None  # metrics.confirmatory.BetterThanAll: lineage-weighted, confirmatory population
    claim_sensitivity: dict[str, Any] = field(default_factory=dict)  # the same test, other estimands/populations
    within_tests: dict[str, Any] = field(default_factory=dict)  # contrast type → BetterThanAll (second estimand)
    within_family: tuple[str, ...] = ()  # the contrast types Holm runs across, fixed by the design (holm_family)
    within_table: pd.DataFrame = field(default_factory=pd.DataFrame)  # exploratory κ per score and contrast type
    floor_beats: pd.DataFrame = field(default_factory=pd.DataFrame)  # how many real models each left-out model beats
    pp_similarity: Any = None  # metrics.confirmatory.MeanTest of the similarity change
    pp_downstream: Any = None
    n_pairs: int = 0
    alpha: float = 0.05

    @property
    def baselines(self) -> list[str]:
        return [b for b in self.level.baselines if b in self.scores.columns]

    def claim_finding(self, n_claims: int = N_CLAIMS, alpha: float = 0.05):
        from mteb_evalrank.reports.verdict import better_than_all_finding

        confirm = confirmatory_models(self.pop)
        lineages = self.pop.loc[confirm, "lineage"].nunique()
        floors = int(self.pop["floor"].astype(bool).sum())
        left = len(self.pop) - len(confirm) - floors
        out = f"{floors} random floors" + (f" and {left} models of lineages of unknown provenance" if left else "")
        where = f"{len(confirm)} {self.level.name}-level models in {lineages} lineages ({out} left out). "
        return better_than_all_finding(
            self.level.claim,
            self.claim,
            self.level.claim_score,
            DOWNSTREAM_MEAN,
            self.baselines,
            alpha=alpha,
            n_claims=n_claims,
            population=where,
        )

    def postprocessing_finding(self, n_claims: int = N_CLAIMS, alpha: float = 0.05):
        from mteb_evalrank.reports.verdict import postprocessing_finding

        return postprocessing_finding(
            self.pp_similarity,
            self.pp_downstream,
            n_pairs=self.n_pairs,
            alpha=alpha,
            n_claims=n_claims,
            similarity_label=self.level.similarity_label,
        )

    def within_findings(self, alpha: float = 0.05) -> list[Any]:
        """The second estimand against its baselines, one Finding per contrast type; Holm across the types of
        :attr:`within_family` (fixed by the design), the others shown but never deciding."""
        from mteb_evalrank.reports.verdict import adjust_across_claims, within_contrast_finding

        family = self.within_family
        raw = {
            kind: within_contrast_finding(
                self.level.claim_score, DOWNSTREAM_MEAN, kind, t, self.baselines, alpha=alpha, family=family
            )
            for kind, t in self.within_tests.items()
        }
        members = [kind for kind in raw if kind in family]
        adjusted = adjust_across_claims(
            [raw[k] for k in members], alpha, what="contrast types", family_size=len(family)
        )
        done = dict(zip(members, adjusted))
        return [done.get(kind, f) for kind, f in raw.items()]


def _claim_test(
    scores: pd.DataFrame,
    pop: pd.DataFrame,
    level: Level,
    models,
    clusters: str,
    *,
    n_resamples: int,
    seed: int,
    weighting: str = "lineage",
    mdd_alpha: float | None = None,
    simulate_growth: bool = False,
):
    """:func:`~mteb_evalrank.metrics.confirmatory.better_than_all` of the level's claim on ``models``."""
    from mteb_evalrank.metrics.confirmatory import better_than_all

    baselines = [b for b in level.baselines if b in scores.columns]
    if level.claim_score not in scores.columns or DOWNSTREAM_MEAN not in scores.columns or not baselines:
        return None
    part = scores.loc[list(models), [level.claim_score, *baselines, DOWNSTREAM_MEAN]].dropna()
    return better_than_all(
        part[level.claim_score].to_numpy(),
        {b: part[b].to_numpy() for b in baselines},
        part[DOWNSTREAM_MEAN].to_numpy(),
        pop.loc[part.index, clusters].tolist(),
        n_resamples=n_resamples,
        seed=seed,
        weighting=weighting,
        mdd_alpha=mdd_alpha,
        simulate_growth=simulate_growth,
    )


def _factors(pop: pd.DataFrame, models) -> list[dict[str, str]] | None:
    cols = [c for c in FACTOR_COLUMNS if c in pop.columns]
    if not cols:
        return None
    return [{c: str(pop.at[m, c]) for c in cols} for m in models]


def holm_family(pop: pd.DataFrame, models) -> tuple[str, ...]:
    """The second estimand's Holm family, fixed by the population's design and never by outcomes: the contrast
    types whose within-checkpoint pairs (among ``models``, typed by their factors) span at least
    :data:`~mteb_evalrank.metrics.confirmatory.MIN_CLUSTERS` lineages.  A type with fewer can never decide, so
    it would only spread Holm's correction.  Reads the population's checkpoint, lineage and factor columns only,
    no score."""
    from mteb_evalrank.metrics.confirmatory import CONTRAST_TYPES, MIN_CLUSTERS, within_pairs

    models = list(models)
    pairs = within_pairs(pop.loc[models, "family"].tolist(), _factors(pop, models))
    lineage = pop.loc[models, "lineage"].tolist()
    spans = {k: {lineage[i] for i, _, t in pairs if t == k} for k in CONTRAST_TYPES}
    return tuple(k for k in CONTRAST_TYPES if len(spans[k]) >= MIN_CLUSTERS)


def within_tests(
    scores: pd.DataFrame,
    pop: pd.DataFrame,
    level: Level,
    models,
    *,
    n_resamples: int,
    seed: int,
    alpha: float = 0.05,
    family: Sequence[str] = (),
) -> dict[str, Any]:
    """The second estimand, one test per contrast type with pairs: does the level's claim score pick the better
    variant within a checkpoint more often than every baseline (:func:`~mteb_evalrank.metrics.confirmatory.
    better_within`)?  The MDD of a type in ``family`` (:func:`holm_family`) is at Holm's first step across the
    family; the others' at ``alpha`` (they never decide)."""
    from mteb_evalrank.metrics.confirmatory import CONTRAST_TYPES, better_within, within_pairs

    baselines = [b for b in level.baselines if b in scores.columns]
    if level.claim_score not in scores.columns or DOWNSTREAM_MEAN not in scores.columns or not baselines:
        return {}
    part = scores.loc[list(models), [level.claim_score, *baselines, DOWNSTREAM_MEAN]].dropna()
    pairs = within_pairs(pop.loc[part.index, "family"].tolist(), _factors(pop, part.index))
    y = part[DOWNSTREAM_MEAN].to_numpy()
    kinds = [k for k in CONTRAST_TYPES if any(t == k and y[i] != y[j] for i, j, t in pairs)]
    out = {}
    for kind in kinds:
        chosen = [(i, j) for i, j, t in pairs if t == kind]
        out[kind] = better_within(
            part[level.claim_score].to_numpy(),
            {b: part[b].to_numpy() for b in baselines},
            y,
            pop.loc[part.index, "family"].tolist(),
            pop.loc[part.index, "lineage"].tolist(),
            chosen,
            alpha=alpha,
            mdd_alpha=alpha / max(len(family), 1) if kind in family else alpha,
            n_resamples=n_resamples,
            seed=seed,
            simulate_growth=False,
        )
    return out


def within_concordance_table(scores: pd.DataFrame, pop: pd.DataFrame, names: Sequence[str], models) -> pd.DataFrame:
    """Exploratory: the lineage-weighted within-checkpoint concordance κ × 100 of every score in ``names`` (and of
    the embedding dimension, which is not a score) with the downstream mean, per contrast type and over all
    single-factor pairs; rows are scores, columns contrast types, with the pairs and lineages per column."""
    import numpy as np

    from mteb_evalrank.metrics.confirmatory import CONTRAST_TYPES, within_pairs
    from mteb_evalrank.metrics.lineage_weighting import lineage_codes, unit_weights

    if DOWNSTREAM_MEAN not in scores.columns:
        return pd.DataFrame()
    part = scores.loc[list(models)]
    part = part[part[DOWNSTREAM_MEAN].notna()]
    pairs = within_pairs(pop.loc[part.index, "family"].tolist(), _factors(pop, part.index))
    y = part[DOWNSTREAM_MEAN].to_numpy()
    lineage = pop.loc[part.index, "lineage"].tolist()
    rows: dict[str, dict[str, float]] = {}
    columns = [k for k in CONTRAST_TYPES if any(t == k for *_, t in pairs)]
    dims = pd.to_numeric(pop.loc[part.index, "dimension"], errors="coerce") if "dimension" in pop else None
    series = {n: part[n] for n in names if n in part.columns}
    if dims is not None and dims.notna().any():
        series["embedding dimension (not a score)"] = dims
    counts: dict[str, str] = {}
    for kind in [*columns, "all single-factor pairs"]:
        chosen = [
            (i, j)
            for i, j, t in pairs
            if (t == kind or (kind.startswith("all") and t in CONTRAST_TYPES)) and y[i] != y[j]
        ]
        if not chosen:
            continue
        for name, s in series.items():
            v = s.to_numpy(dtype=float)
            ok = [(i, j) for i, j in chosen if np.isfinite(v[i]) and np.isfinite(v[j])]
            if not ok:
                continue
            codes, labels = lineage_codes([lineage[i] for i, _ in ok])
            w = unit_weights(codes)
            agree = np.array([np.sign(v[i] - v[j]) * np.sign(y[i] - y[j]) for i, j in ok])
            rows.setdefault(name, {})[kind] = float(w @ agree / w.sum() * 100)
            if name == next(iter(series)):
                counts[kind] = f"{len(ok)} pairs, {len(labels)} lineages"
    table = pd.DataFrame(rows).T
    table.attrs["counts"] = counts
    return table


def floor_beats(scores: pd.DataFrame, pop: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """For every model left out of the confirmatory tests (random floors, lineages of unknown provenance): on each
    score of ``names``, how many of the confirmatory models it beats (scores strictly higher than), as "k of n"."""
    confirm = confirmatory_models(pop)
    out = {}
    for m in pop.index.difference(confirm, sort=False):
        row = {}
        for n in names:
            if n not in scores.columns or pd.isna(scores.at[m, n]):
                continue
            real = scores.loc[confirm, n].dropna()
            row[n] = f"{int((real < scores.at[m, n]).sum())} of {len(real)}"
        out[m] = row
    return pd.DataFrame(out).T.reindex(columns=[n for n in names if n in scores.columns])


def analyse(
    out: Path,
    variants: Sequence[str],
    tasks: Sequence[str],
    level: Level,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    folder: Any = None,
    alpha: float = 0.05,
) -> Analysis | None:
    """Correlations, exploratory comparisons, noise, Table 10 effects and the level's confirmatory tests of the
    zoo variants' results in ``out`` (``None``: no results); see :func:`analyse_scores`."""
    scores, errors = study_scores(out, variants, tasks, level, folder=folder)
    if scores.empty:
        return None
    return analyse_scores(
        scores, errors, population(list(scores.index)), level, n_resamples=n_resamples, seed=seed, alpha=alpha
    )


def analyse_scores(
    scores: pd.DataFrame,
    errors: pd.DataFrame,
    pop: pd.DataFrame,
    level: Level,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> Analysis:
    """Every number of one level from a models × scores matrix and its population (:func:`population`'s
    columns).  The confirmatory tests use the models that are neither random floors nor left out by the lineage
    rule, weigh every lineage equally and resample whole lineages; the sensitivity lines rerun them per model,
    with everything, and by checkpoint family."""
    from mteb_evalrank.metrics.confirmatory import mean_tests
    from mteb_evalrank.reports.correlation_study import fair_comparisons, noise_table
    from mteb_evalrank.reports.verdict import EQUIVALENCE_MARGIN

    families = pop["family"].to_dict()
    intrinsic = [c for c in [*level.intrinsic, *level.exploratory] if c in scores.columns]
    primary = [c for c in intrinsic if ":" not in c]
    downstream = [c for c in [*DOWNSTREAM_TASKS, DOWNSTREAM_MEAN] if c in scores.columns]
    table = correlation_table(scores, intrinsic, downstream, families=families, n_resamples=n_resamples, seed=seed)
    confirm = confirmatory_models(pop)
    lineage = pop["lineage"].to_dict()
    comp = fair_comparisons(
        scores.loc[confirm],
        list(level.evalrank),
        list(level.baselines),
        downstream,
        families=lineage,
        n_resamples=n_resamples,
        seed=seed,
    )
    noise = noise_table(scores, errors, downstream)
    plain = pop["unprocessed"] if "unprocessed" in pop else pd.Series("", index=pop.index)
    effect_pairs = [(m, plain[m]) for m in scores.index if plain.get(m) and plain[m] in scores.index]
    groups = {
        level.similarity_label: [c for c in level.baselines if c in scores],
        "EvalRank": [c for c in level.evalrank if c in scores],
        "downstream (10 tasks)": [c for c in DOWNSTREAM_TASKS if c in scores],
    }
    effects = postprocessing_effects(scores, effect_pairs, groups)
    a = Analysis(level, scores, errors, pop, table, comp, noise, effects, groups, primary, downstream, alpha=alpha)
    boot: dict[str, Any] = {"n_resamples": max(n_resamples, 2000), "seed": seed}
    at = alpha / N_CLAIMS  # the level of the verdict at Holm's first step across the claims
    a.claim = _claim_test(scores, pop, level, confirm, "lineage", mdd_alpha=at, simulate_growth=True, **boot)
    a.claim_sensitivity = {
        "per-model ρ (each model one unit of weight), lineages resampled whole": _claim_test(
            scores, pop, level, confirm, "lineage", weighting="model", mdd_alpha=at, **boot
        ),
        "with the random floors and left-out lineages, lineage-weighted": _claim_test(
            scores, pop, level, pop.index, "lineage", mdd_alpha=at, **boot
        ),
        "by checkpoint family (families weighted and resampled as units)": _claim_test(
            scores, pop, level, confirm, "family", mdd_alpha=at, **boot
        ),
    }
    a.within_family = holm_family(pop, confirm)
    a.within_tests = within_tests(scores, pop, level, confirm, alpha=alpha, family=a.within_family, **boot)
    a.within_table = within_concordance_table(scores, pop, [level.claim_score, *a.baselines], confirm)
    a.floor_beats = floor_beats(scores, pop, [level.claim_score, *a.baselines, DOWNSTREAM_MEAN])
    sim, down = level.similarity_label, "downstream (10 tasks)"
    if not effects.empty and sim in effects and down in effects:
        ok = effects[effects["processed"].isin(confirm)]
        ok = ok[ok[[sim, down]].notna().all(axis=1)]
        clusters = ok["processed"].map(lineage).tolist()
        if len(ok):
            a.n_pairs = len(ok)
            a.pp_similarity = mean_tests(ok[sim].to_numpy(), clusters, mdd_alpha=at, **boot)
            a.pp_downstream = mean_tests(ok[down].to_numpy(), clusters, margin=EQUIVALENCE_MARGIN, mdd_alpha=at, **boot)
    return a


def confirmatory_findings(sentence: Analysis | None, word: Analysis | None, alpha: float = 0.05) -> list[Any]:
    """The three confirmatory claims (sentence, word, post-processing at sentence level), Holm across them."""
    from mteb_evalrank.reports.verdict import INCONCLUSIVE, Finding, adjust_across_claims

    def missing(claim: str, what: str) -> Any:
        return Finding(claim, INCONCLUSIVE, f"Not tested: no {what} results in this study.", "see docs/statistics.md")

    raw = [
        sentence.claim_finding(alpha=alpha) if sentence is not None else missing(SENTENCE_CLAIM, "sentence-level"),
        word.claim_finding(alpha=alpha) if word is not None else missing(WORD_CLAIM, "word-level (study --level word)"),
        sentence.postprocessing_finding(alpha=alpha)
        if sentence is not None
        else missing(
            "Post-processing helps similarity scores but not downstream (EvalRank Table 10)", "sentence-level"
        ),
    ]
    return adjust_across_claims(raw, alpha)


def variant_of(mteb_name: str):
    """The zoo variant named by an MTEB model name (`zoo/base__variant`)."""
    from mteb_evalrank.zoo.adapter import resolve_zoo_spec as parse_zoo_name

    return parse_zoo_name(mteb_name)


def sensitivity_tables(
    scores: pd.DataFrame,
    pop: pd.DataFrame,
    primary: list[str],
    downstream: list[str],
    families: dict[str, str],
    n_resamples: int,
    seed: int,
) -> list[tuple[str, list[str], Any]]:
    """The exploratory sensitivity populations — (a) without the random floors, (b) without the post-processed
    variants, (c) within each family of at least :data:`MIN_FAMILY_FOR_WITHIN` models — each as
    ``(title, models, correlation table)``; the table is ``None`` for fewer than 3 models."""
    subsets = [
        ("(a) Without random floors", pop.index[~pop["floor"]]),
        ("(b) Without post-processed variants (EvalRank Table 11's check)", pop.index[~pop["postprocessed"]]),
    ]
    for fam, part in pop.groupby("family", sort=True):
        if len(part) >= MIN_FAMILY_FOR_WITHIN:
            subsets.append((f"(c) Within the {fam} family only", part.index))
    out: list[tuple[str, list[str], Any]] = []
    for title, models in subsets:
        models = list(models)
        if len(models) < 3:
            out.append((title, models, None))
            continue
        t = correlation_table(
            scores.loc[models], primary, downstream, families=families, n_resamples=n_resamples, seed=seed
        )
        out.append((title, models, t))
    return out


def bag_of_words_table(a: Analysis, *, n_resamples: int, seed: int) -> tuple[list[str], pd.DataFrame] | None:
    """The sentence level's correlation table of the bag-of-words variants only (model kind ``bag-of-words``), with their names;
    ``None`` at the word level or with fewer than 3 such variants."""
    scores, pop = a.scores, a.pop
    bow = [m for m in scores.index if pop.loc[m, "kind"] == "bag-of-words"]
    if a.level is not SENTENCE or len(bow) < 3:
        return None
    bow_intrinsic = [c for c in (*plugin_task_names(role="intrinsic"), *SIMILARITY) if c in scores.columns]
    table = correlation_table(
        scores.loc[bow],
        bow_intrinsic,
        a.downstream,
        families=pop["family"].to_dict(),
        n_resamples=n_resamples,
        seed=seed,
    )
    return bow, table
